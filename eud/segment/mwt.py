"""Multiword tokens: expanding a surface token (``don't``) into its words (``do n't``).

Two sources, both learned from the training treebank:

* a **lexicon**: lowercased surface form → its most frequent lowercased words;
* **suffix rules** for forms the lexicon has never seen.  Where the first word
  and the form part ways, the rest of the form is rewritten as the rest of the
  first word plus the other words: ``can|n't`` for ``can't`` teaches "``n't`` →
  ``""`` + ``n't``" (split it off), Tamil ``அமைக்கவ்|உம்`` for ``அமைக்கவும்``
  teaches "``வும்`` → ``வ்`` + ``உம்``" (the clitic's vowel sign becomes its own
  letter).  Rules seen at least ``min_rule_count`` times are kept, the longest
  suffix first, the most frequent rewrite of each suffix.

Case is kept from the input: when the words spell the form, the form itself is
cut at the word boundaries (``DON'T`` → ``DO`` ``N'T``); otherwise the words
follow the form's case pattern (all upper, capitalised, or as stored).

Forms that were a multiword token in most of their training occurrences (at
least three times, and twice as often as not) are listed in ``always``: the segmenter expands them even when
the character model hesitates (informal ``gotta``, ``theyre``).  A form such as
``its``, usually a single word, is left to the model.

A rule only rewrites the end of a form, so expansions that change the whole
token (French ``au`` → ``à le``) come from the lexicon alone; an unseen form
no rule fits stays a single word.

Whether a token is a multiword token at all is the segmenter network's call, in context.  For a
language whose clitics and auxiliaries glue onto the word (Tamil ``-um``, ``-ppaṭṭu-``), the
treebank's own rates can help it: ``suffix_rates`` holds, for each word ending of one to
:data:`SUFFIX_CHARS` characters seen at least :data:`SUFFIX_MIN_COUNT` times, the share of the
training tokens with that ending that were multiword tokens.  A token's probability is then
``(1 - suffix_weight) * network + suffix_weight * rate`` of its longest known ending.  The weight
is a language's setting chosen by cross-validation (``python -m eval.segment.mwt_cv``); at 0, the
default, the table is not stored and the network decides alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from eud.graph import Sentence
from eud.segment.data import surface_tokens

SUFFIX_CHARS = 6
SUFFIX_MIN_COUNT = 5


def _apply_case(form: str, words: list[str]) -> list[str]:
    """Give lowercased ``words`` the case of the surface ``form``."""
    if "".join(words).lower() == form.lower() and len("".join(words)) == len(form):
        out, pos = [], 0
        for w in words:
            out.append(form[pos:pos + len(w)])
            pos += len(w)
        return out
    if len(form) > 1 and form.isupper():
        return [w.upper() for w in words]
    if form[:1].isupper():
        return [words[0][:1].upper() + words[0][1:]] + list(words[1:])
    return list(words)


@dataclass(frozen=True)
class SuffixRule:
    """An unseen form ending in ``suffix`` splits as ``stem + first``, then ``rest``."""

    suffix: str
    first: str
    rest: tuple[str, ...]

    @classmethod
    def from_json(cls, data: list[str] | dict) -> SuffixRule:
        """A rule of ``mwt.json``: a list of split-off words (a concatenative rule), or a dict."""
        if isinstance(data, list):
            return cls("".join(data), "", tuple(data))
        return cls(data["suffix"], data["first"], tuple(data["rest"]))

    def to_json(self) -> list[str] | dict:
        """The list form when the rule only splits off words, as older packages store it."""
        if not self.first and "".join(self.rest) == self.suffix:
            return list(self.rest)
        return {"suffix": self.suffix, "first": self.first, "rest": list(self.rest)}


def learn_rule(form: str, words: tuple[str, ...]) -> SuffixRule | None:
    """The suffix rule one multiword token teaches (lowercased), or None when its first word shares no stem."""
    stem = 0
    while stem < min(len(form), len(words[0])) and form[stem] == words[0][stem]:
        stem += 1
    if stem == 0 or stem == len(form) or len(words) < 2 or not all(words):
        return None
    return SuffixRule(form[stem:], words[0][stem:], tuple(words[1:]))


class MwtExpander:
    """Lexicon plus suffix-rule fallback for multiword tokens."""

    def __init__(self, lexicon: dict[str, list[str]], rules: Iterable[SuffixRule | list[str] | dict],
                 always: Iterable[str] = (), suffix_rates: dict[str, float] | None = None,
                 suffix_weight: float = 0.0) -> None:
        self.lexicon = lexicon
        self.always = frozenset(always)
        self.suffix_rates = suffix_rates or {}
        self.suffix_weight = suffix_weight if self.suffix_rates else 0.0
        rules = [r if isinstance(r, SuffixRule) else SuffixRule.from_json(r) for r in rules]
        # Longest suffix first, so "n't" is tried before "t" (a stable sort keeps the frequency order).
        self.rules = sorted(rules, key=lambda r: -len(r.suffix))

    @classmethod
    def build(cls, sentences: Iterable[Sentence], min_rule_count: int = 2, suffix_weight: float = 0.0) -> MwtExpander:
        """Learn the lexicon, the suffix rules and the endings' rates from the multiword tokens of a treebank."""
        seen: dict[str, Counter] = {}
        rule_counts: Counter = Counter()
        plain: Counter = Counter()
        endings: Counter = Counter()
        multi_endings: Counter = Counter()
        for sentence in sentences:
            for form, is_mwt, words in surface_tokens(sentence):
                lower = form.lower()
                for n in range(1, min(SUFFIX_CHARS, len(lower) - 1) + 1) if suffix_weight else ():
                    endings[lower[-n:]] += 1
                    multi_endings[lower[-n:]] += is_mwt
                if not is_mwt:
                    plain[form.lower()] += 1
                    continue
                lowered = tuple(w.lower() for w in words)
                seen.setdefault(form.lower(), Counter())[lowered] += 1
                rule = learn_rule(form.lower(), lowered)
                if rule is not None:
                    rule_counts[rule] += 1
        lexicon = {form: list(c.most_common(1)[0][0]) for form, c in seen.items()}
        # The most frequent rewrite of each suffix.
        best: dict[str, SuffixRule] = {}
        for rule, n in rule_counts.most_common():
            if n >= min_rule_count and rule.suffix not in best:
                best[rule.suffix] = rule
        rules = list(best.values())
        always = sorted(form for form, c in seen.items()
                        if sum(c.values()) >= 3 and sum(c.values()) > 2 * plain[form])
        rates = {e: round(multi_endings[e] / n, 3) for e, n in endings.items() if n >= SUFFIX_MIN_COUNT}
        return cls(lexicon, rules, always, rates if suffix_weight else None, suffix_weight)

    def rate(self, form: str) -> float | None:
        """The multiword share of ``form``'s longest ending in :attr:`suffix_rates` (None: no ending known)."""
        lower = form.lower()
        for n in range(min(SUFFIX_CHARS, len(lower) - 1), 0, -1):
            rate = self.suffix_rates.get(lower[-n:])
            if rate is not None:
                return rate
        return None

    def is_multiword(self, form: str, network: float) -> bool:
        """Whether a token is a multiword token, given the network's probability that it is one."""
        if form.lower() in self.always:
            return True
        if self.suffix_weight:
            rate = self.rate(form)
            if rate is not None:
                network = (1 - self.suffix_weight) * network + self.suffix_weight * rate
        return network > 0.5

    def expand(self, form: str, *, use_lexicon: bool = True) -> list[str] | None:
        """The words of a multiword token, or None if it cannot be split."""
        if use_lexicon:
            words = self.lexicon.get(form.lower())
            if words is not None:
                return _apply_case(form, words)
        return self.fallback(form)

    def fallback(self, form: str) -> list[str] | None:
        """Split an unseen form with the longest matching suffix rule, or None."""
        lower = form.lower()
        for rule in self.rules:
            if len(lower) > len(rule.suffix) and lower.endswith(rule.suffix):
                return _apply_case(form, [lower[: -len(rule.suffix)] + rule.first, *rule.rest])
        return None

    def to_json(self) -> dict:
        """Plain JSON data for ``mwt.json``."""
        data = {"lexicon": self.lexicon, "rules": [r.to_json() for r in self.rules], "always": sorted(self.always)}
        if self.suffix_weight:
            data.update(suffix_weight=self.suffix_weight, suffix_rates=self.suffix_rates)
        return data

    @classmethod
    def from_json(cls, data: dict) -> MwtExpander:
        """Rebuild an expander saved by :meth:`to_json`."""
        return cls({k: list(v) for k, v in data["lexicon"].items()}, data["rules"], data.get("always", ()),
                   data.get("suffix_rates"), float(data.get("suffix_weight", 0.0)))
