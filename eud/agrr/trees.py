"""Basic UD trees with ``orphan`` from AGRR's gold spans (training data for the parser).

A parser trained on UD alone has seen about a hundred Russian ``orphan``
relations; AGRR marks over a thousand gapped clauses with spans.
:func:`orphan_tree` takes a predicted basic tree of an AGRR sentence and
rewrites each gapped clause as the UD guidelines prescribe
(https://universaldependencies.org/u/overview/specific-syntax.html#ellipsis):

* each remnant phrase (``R1``, ``R2``) becomes one subtree headed by its top
  word;
* the remnant first in the obliqueness order (nsubj > obj > iobj > obl >
  advmod > csubj > xcomp > ccomp > advcl > the rest), judged by the relation
  of its correlate (``cR1``/``cR2``) to the full clause's verb, is promoted:
  it hangs from that verb (``cV``) as ``conj``;
* the other remnant hangs from the promoted one as ``orphan``;
* the coordinator and punctuation just before the gapped clause, and the
  punctuation between its remnants (the dash that often stands for the
  verb), hang from the promoted remnant as ``cc`` and ``punct``;
* other words hanging inside a remnant phrase from outside it move: those
  before or after the gapped clause to the verb, those between its
  remnants (an adverb, say) to the promoted remnant.

A gapped clause with a single remnant has no ``orphan`` in UD: the remnant
hangs from the verb as ``conj``.  Rows whose spans do not fit the tokens or
the tree (a remnant containing the verb, a rewrite that would make a cycle)
are refused, so every tree returned is a valid tree.
"""

from __future__ import annotations

from eud.agrr.files import AgrrRow, Span
from eud.graph import Sentence

# Promotion order of the guidelines.
OBLIQUENESS = ("nsubj", "obj", "iobj", "obl", "advmod", "csubj", "xcomp", "ccomp", "advcl")


def words_in(offsets: list[tuple[int, int]], span: Span) -> list[int]:
    """1-based ids of the words overlapping a character span (a zero-width span overlaps none)."""
    a, b = span
    return [k + 1 for k, (s, e) in enumerate(offsets) if s < b and e > a]


def depth(sentence: Sentence, i: int) -> int:
    """Number of heads above word ``i`` (bounded for broken trees)."""
    d = 0
    while i and d <= len(sentence.words):
        i = sentence.words[i - 1].head or 0
        d += 1
    return d


def top_word(sentence: Sentence, ids: list[int]) -> int:
    """The highest word of a set in the basic tree (the first of equals)."""
    inside = set(ids)
    tops = [i for i in ids if (sentence.words[i - 1].head or 0) not in inside]
    return min(tops or ids, key=lambda i: (depth(sentence, i), i))


def is_tree(sentence: Sentence) -> bool:
    """Whether the basic heads form one tree with a single root."""
    n = len(sentence.words)
    roots = [w for w in sentence.words if w.head == 0]
    if len(roots) != 1:
        return False
    for w in sentence.words:
        seen, i = set(), w.id
        while i:
            if i in seen or not 0 <= (sentence.words[i - 1].head or 0) <= n:
                return False
            seen.add(i)
            i = sentence.words[i - 1].head or 0
    return True


def _rank(label: str) -> int:
    base = label.partition(":")[0]
    return OBLIQUENESS.index(base) if base in OBLIQUENESS else len(OBLIQUENESS)


def orphan_tree(sentence: Sentence, offsets: list[tuple[int, int]], row: AgrrRow) -> bool:
    """Rewrite the basic tree for the row's gapped clauses; False (tree untouched) if it does not fit."""
    words = sentence.words
    saved = [(w.head, w.deprel) for w in words]
    ok = _rewrite(sentence, offsets, row)
    if not ok or not is_tree(sentence):
        for w, (head, deprel) in zip(words, saved):
            w.head, w.deprel = head, deprel
        return False
    return True


def _rewrite(sentence: Sentence, offsets: list[tuple[int, int]], row: AgrrRow) -> bool:
    words = sentence.words
    spans = row.spans
    if not spans["cV"] or not spans["R1"]:
        return False
    verb_ids = words_in(offsets, spans["cV"][0])
    if not verb_ids:
        return False
    verb = top_word(sentence, verb_ids)
    # The correlates' relations to the verb decide the promotion (one set per row).
    roles = []
    for column in ("cR1", "cR2"):
        ids = words_in(offsets, spans[column][0]) if spans[column] else []
        roles.append(words[top_word(sentence, ids) - 1].deprel if ids else "")
    for k, r1 in enumerate(spans["R1"]):
        phrases = [words_in(offsets, r1)]
        if k < len(spans["R2"]):
            phrases.append(words_in(offsets, spans["R2"][k]))
        if any(not ids or verb in ids for ids in phrases):
            return False
        if len(phrases) == 2 and set(phrases[0]) & set(phrases[1]):
            return False
        tops = []
        for ids in phrases:
            top = top_word(sentence, ids)
            inside = set(ids)
            for i in ids:
                if i != top and (words[i - 1].head or 0) not in inside:
                    words[i - 1].head = top
                    if words[i - 1].udeprel in ("root", "conj", "orphan", "parataxis"):
                        words[i - 1].deprel = "dep"
            tops.append(top)
        order = sorted(range(len(tops)), key=lambda j: (_rank(roles[j] if j < len(roles) else ""), j))
        promoted = tops[order[0]]
        words[promoted - 1].head, words[promoted - 1].deprel = verb, "conj"
        for j in order[1:]:
            words[tops[j] - 1].head, words[tops[j] - 1].deprel = promoted, "orphan"
        covered = {i for ids in phrases for i in ids}
        first = min(covered)
        # Coordinator and punctuation right before the gapped clause.
        attached = set()
        i = first - 1
        while i >= 1 and i not in covered and i != verb and (words[i - 1].upos in ("CCONJ", "PUNCT")
                                                               or words[i - 1].form in ("а", "и", "но", "или")):
            words[i - 1].head = promoted
            attached.add(i)
            words[i - 1].deprel = "cc" if words[i - 1].upos == "CCONJ" or words[i - 1].form.isalpha() else "punct"
            i -= 1
        # Punctuation between the remnants (the dash standing for the verb).
        for i in range(first, max(covered) + 1):
            if i not in covered and words[i - 1].upos == "PUNCT" and i != verb:
                words[i - 1].head, words[i - 1].deprel = promoted, "punct"
                attached.add(i)
        # Words outside the remnant phrases do not hang inside them: what
        # precedes or follows the gapped clause goes to the verb; what stands
        # between its remnants belongs to the gapped clause.
        for w in words:
            if w.id in covered or w.id in attached or w.head not in covered:
                continue
            if w.id < first or w.id > max(covered):
                w.head = verb
                if w.udeprel in ("root", "orphan"):
                    w.deprel = "parataxis"
            else:
                w.head = promoted
                if w.udeprel in ("root", "orphan"):
                    w.deprel = "dep"
    return True
