"""Multiword tokens: expanding a surface token (``don't``) into its words (``do n't``).

Two sources, both learned from the training treebank:

* a **lexicon**: lowercased surface form → its most frequent lowercased words;
* **suffix rules** for forms the lexicon has never seen: a multiword token whose
  words spell it exactly (``can|n't`` → ``can't``) teaches the rule "split off
  ``n't``".  Rules seen at least ``min_rule_count`` times are kept, longest first.

Case is kept from the input: when the words spell the form, the form itself is
cut at the word boundaries (``DON'T`` → ``DO`` ``N'T``); otherwise the words
follow the form's case pattern (all upper, capitalised, or as stored).

Forms that were a multiword token in most of their training occurrences (at
least three times, and twice as often as not) are listed in ``always``: the segmenter expands them even when
the character model hesitates (informal ``gotta``, ``theyre``).  A form such as
``its``, usually a single word, is left to the model.

It cannot invent non-concatenative expansions (French ``du`` → ``de le``) for
forms it has not seen; such tokens stay single words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from eud.graph import Sentence
from eud.segment.data import surface_tokens


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


class MwtExpander:
    """Lexicon plus suffix-rule fallback for multiword tokens."""

    def __init__(self, lexicon: dict[str, list[str]], rules: list[list[str]],
                 always: Iterable[str] = ()) -> None:
        self.lexicon = lexicon
        self.always = frozenset(always)
        # Longest suffix first, so "n't" is tried before "t".
        self.rules = sorted(rules, key=lambda r: -len("".join(r)))

    @classmethod
    def build(cls, sentences: Iterable[Sentence], min_rule_count: int = 2) -> MwtExpander:
        """Learn the lexicon and the suffix rules from the multiword tokens of a treebank."""
        seen: dict[str, Counter] = {}
        rule_counts: Counter = Counter()
        plain: Counter = Counter()
        for sentence in sentences:
            for form, is_mwt, words in surface_tokens(sentence):
                if not is_mwt:
                    plain[form.lower()] += 1
                    continue
                lowered = tuple(w.lower() for w in words)
                seen.setdefault(form.lower(), Counter())[lowered] += 1
                if "".join(lowered) == form.lower() and all(lowered):
                    rule_counts[lowered[1:]] += 1
        lexicon = {form: list(c.most_common(1)[0][0]) for form, c in seen.items()}
        rules = [list(r) for r, n in rule_counts.items() if n >= min_rule_count]
        always = sorted(form for form, c in seen.items()
                        if sum(c.values()) >= 3 and sum(c.values()) > 2 * plain[form])
        return cls(lexicon, rules, always)

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
            suffix = "".join(rule)
            if len(lower) > len(suffix) and lower.endswith(suffix):
                return _apply_case(form, [lower[: -len(suffix)]] + rule)
        return None

    def to_json(self) -> dict:
        """Plain JSON data for ``mwt.json``."""
        return {"lexicon": self.lexicon, "rules": self.rules, "always": sorted(self.always)}

    @classmethod
    def from_json(cls, data: dict) -> MwtExpander:
        """Rebuild an expander saved by :meth:`to_json`."""
        return cls({k: list(v) for k, v in data["lexicon"].items()}, [list(r) for r in data["rules"]],
                   data.get("always", ()))
