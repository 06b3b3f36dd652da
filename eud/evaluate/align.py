"""Align gold and system words on raw characters, exactly as the official UD/IWPT scorer does.

Both files are reduced to the sequence of their non-whitespace characters
(characters of Unicode category Zs are deleted from every token's FORM), and
the two sequences must be identical.  A token is then a character span, and
two tokens match when their spans are equal.

Words are aligned token by token, except around multiword tokens: a
*multiword span* is the smallest stretch of text that starts at a multiword
token (gold or system) and contains every multiword token it touches, on both
sides, completely.  Inside such a span the gold and system words are aligned
by a longest common subsequence of their lowercased FORMs; elsewhere a gold
word and a system word align when their spans are equal.

This follows ``udtools.udeval`` (the CoNLL 2018 / IWPT 2020-21 scorer) step by
step, including its tie-breaking, because word alignment decides every score.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class WordSpans:
    """The words of a whole file, as parallel lists (index = word number in the file)."""

    start: list[int] = field(default_factory=list)
    end: list[int] = field(default_factory=list)
    # True for a word inside a multiword token; its span is the whole token's.
    multi: list[bool] = field(default_factory=list)
    # Lowercased FORM, compared inside multiword spans.
    form: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.start)


def _beyond(words: WordSpans, i: int, span_end: int) -> bool:
    if i >= len(words.start):
        return True
    if words.multi[i]:
        return words.start[i] >= span_end
    return words.end[i] > span_end


def _multiword_span(gold: WordSpans, system: WordSpans, gi: int, si: int) -> tuple[int, int, int, int]:
    """Find the multiword span starting near (gi, si); returns (gs, ss, gi, si) bounds."""
    if gold.multi[gi]:
        span_end = gold.end[gi]
        if not system.multi[si] and system.start[si] < gold.start[gi]:
            si += 1
    else:
        span_end = system.end[si]
        if gold.start[gi] < system.start[si]:
            gi += 1
    gs, ss = gi, si
    n_gold, n_system = len(gold.start), len(system.start)
    while not _beyond(gold, gi, span_end) or not _beyond(system, si, span_end):
        if gi < n_gold and (si >= n_system or gold.start[gi] <= system.start[si]):
            if gold.multi[gi] and gold.end[gi] > span_end:
                span_end = gold.end[gi]
            gi += 1
        else:
            if system.multi[si] and system.end[si] > span_end:
                span_end = system.end[si]
            si += 1
    return gs, ss, gi, si


def _align_lcs(gold_forms: list[str], system_forms: list[str]) -> list[tuple[int, int]]:
    """Pairs (g, s) of a longest common subsequence, with the official scorer's tie-breaking."""
    n, m = len(gold_forms), len(system_forms)
    # table[g][s] = LCS length of gold_forms[g:] and system_forms[s:] (padded with a zero row/column).
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for g in range(n - 1, -1, -1):
        row, below = table[g], table[g + 1]
        form = gold_forms[g]
        for s in range(m - 1, -1, -1):
            best = below[s + 1] + 1 if form == system_forms[s] else 0
            best = max(best, below[s])
            best = max(best, row[s + 1])
            row[s] = best
    pairs = []
    g = s = 0
    while g < n and s < m:
        if gold_forms[g] == system_forms[s]:
            pairs.append((g, s))
            g += 1
            s += 1
        elif table[g][s] == table[g + 1][s]:
            g += 1
        else:
            s += 1
    return pairs


def align_words(gold: WordSpans, system: WordSpans) -> list[int]:
    """For every system word, the index of the gold word it is aligned with, or -1."""
    aligned = [-1] * len(system.start)
    gi = si = 0
    n_gold, n_system = len(gold.start), len(system.start)
    g_start, g_end, g_multi = gold.start, gold.end, gold.multi
    s_start, s_end, s_multi = system.start, system.end, system.multi
    while gi < n_gold and si < n_system:
        if g_multi[gi] or s_multi[si]:
            gs, ss, gi, si = _multiword_span(gold, system, gi, si)
            if si > ss and gi > gs:
                for g, s in _align_lcs(gold.form[gs:gi], system.form[ss:si]):
                    aligned[ss + s] = gs + g
        elif g_start[gi] == s_start[si] and g_end[gi] == s_end[si]:
            aligned[si] = gi
            gi += 1
            si += 1
        elif g_start[gi] <= s_start[si]:
            gi += 1
        else:
            si += 1
    return aligned


def matching_spans(gold_start: list[int], gold_end: list[int], system_start: list[int], system_end: list[int]) -> int:
    """How many gold spans (tokens or sentences) have a system span with the same start and end."""
    correct = gi = si = 0
    while gi < len(gold_start) and si < len(system_start):
        if system_start[si] < gold_start[gi]:
            si += 1
        elif gold_start[gi] < system_start[si]:
            gi += 1
        else:
            correct += gold_end[gi] == system_end[si]
            gi += 1
            si += 1
    return correct


def first_difference(gold: str, system: str) -> int:
    """The first character index where two texts differ (the shorter length if one is a prefix)."""
    limit = min(len(gold), len(system))
    lo, hi = 0, limit
    # Binary search on prefixes: whole files can be megabytes long.
    while lo < hi:
        mid = (lo + hi) // 2
        if gold[lo:mid + 1] == system[lo:mid + 1]:
            lo = mid + 1
        else:
            hi = mid
    return lo
