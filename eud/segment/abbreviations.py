"""Abbreviations learnt from a treebank, so the splitter does not end a sentence at "Jan." or "et al.".

A *period token* is a token ending in a period after a letter or digit
(``Jan.``, ``U.S.``, ``5.``), or a lone ``.`` glued to the token before it
(``atd`` ``.`` in treebanks that split the period off).  Its *stem* is that
text without the period; stems made of digits share one key, ``#`` (ordinals
such as Czech ``5. května``).  For each stem the training data tells how often
its period was *inside* a sentence and how often it was *final* (only
punctuation after it).

A stem is an **abbreviation** when ``inside >= min_count`` and
``inside >= min_share * (inside + final)``.  The splitter then drops a
predicted sentence end after it, unless the abbreviation has been seen
sentence-finally and the next token starts with an uppercase letter (``U.S.
The``).

Two contextual rules cover abbreviations too rare to learn, each used only if
the training data saw its context inside a sentence at least as often as at a
sentence end (counted the same way, across sentence boundaries):

* ``cite``: a short alphabetic stem (at most ``short_stem`` letters), then an
  opening bracket and a token starting with a digit (``et al. (2005)``);
* ``num``: a short capitalised stem (at most ``short_stem`` letters: ``Fig``,
  ``No``, ``Vol``), then a token starting with a digit (``Fig. 3``).

When the model has cut the period off such a stem (``Jan`` ``.``) and the
treebank mostly writes an abbreviation's period as part of its token
(``attached_separate`` counts both), the splitter glues it back (``Jan.``).

Rebuild the file for a package: ``python -m eud.segment.abbreviations PACKAGE TRAIN.conllu...``.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path

from eud.graph import Sentence
from eud.spaces import token_lines

FILE = "abbreviations.json"
NUMBER = "#"


def _is_punct(form: str) -> bool:
    return bool(form) and all(unicodedata.category(ch).startswith("P") for ch in form)


def stem_of(form: str, previous: str | None = None) -> str | None:
    """The stem of a period token (see the module doc), or None if ``form`` is not one.

    ``previous`` is the token just before a lone ``.`` when no space separates them.
    """
    if form == "." and previous:
        stem = previous
    elif len(form) > 1 and form.endswith(".") and form[-2].isalnum():
        stem = form[:-1]
    else:
        return None
    if not stem or not stem[-1].isalnum() or any(ch.isspace() for ch in stem):
        return None
    return NUMBER if stem.replace(".", "").isdigit() else stem


def context(stem: str, following: list[str], short_stem: int = 4) -> str | None:
    """Which contextual rule (``cite``, ``num``) a period token's stem and the next tokens fit, if any."""
    if not stem.isalpha() or len(stem) > short_stem or not following:
        return None
    first = following[0]
    if first and unicodedata.category(first[0]) == "Ps" and len(following) > 1 and following[1][:1].isdigit():
        return "cite"
    if stem[0].isupper() and stem[1:].islower() and first[:1].isdigit():
        return "num"
    return None


def _tokens(sentence: Sentence) -> list[tuple[str, bool]]:
    """``(surface form, SpaceAfter)`` of each token of a sentence."""
    return [(line.form, "SpaceAfter=No" not in (line.misc or "")) for line in token_lines(sentence)]


def _periods(tokens: list[tuple[str, bool]]) -> Iterator[tuple[int, str]]:
    """``(token index, stem)`` of each period token of a sentence."""
    for k, (form, _) in enumerate(tokens):
        glued = tokens[k - 1][0] if k and not tokens[k - 1][1] else None
        stem = stem_of(form, glued)
        if stem is not None:
            yield k, stem


class Abbreviations:
    """Counts of period tokens inside and at the end of sentences, and the rules that use them."""

    def __init__(self, counts: dict[str, list[int]], contexts: dict[str, list[int]] | None = None, *,
                 min_count: int = 2, min_share: float = 0.5, short_stem: int = 4,
                 attached: list[int] | None = None) -> None:
        self.counts = counts
        self.contexts = {"cite": [0, 0], "num": [0, 0], **(contexts or {})}
        # Inside a sentence, how often an alphabetic stem's period was part of its token ("Jan.")
        # and how often a token of its own ("atd" "."): the splitter glues it back the same way.
        self.attached = list(attached or [0, 0])
        self.min_count = min_count
        self.min_share = min_share
        self.short_stem = short_stem

    @classmethod
    def learn(cls, sentences: Iterable[Sentence], **options: float) -> Abbreviations:
        """Count every period token of a treebank (``options`` are the thresholds of ``__init__``)."""
        self = cls({}, **options)  # type: ignore[arg-type]
        previous: list[tuple[str, bool]] = []
        for tokens in (_tokens(s) for s in sentences):
            # The previous sentence's final period, seen now that the tokens after it are known.
            for k, stem in _periods(previous):
                if all(_is_punct(f) for f, _ in previous[k + 1:]):
                    self._count_context(stem, [f for f, _ in tokens[:2]], 1)
            for k, stem in _periods(tokens):
                final = all(_is_punct(f) for f, _ in tokens[k + 1:])
                self.counts.setdefault(stem, [0, 0])[final] += 1
                if not final:
                    self._count_context(stem, [f for f, _ in tokens[k + 1:k + 3]], 0)
                    if stem.replace(".", "").isalpha():
                        self.attached[tokens[k][0] == "."] += 1
            previous = tokens
        return self

    def _count_context(self, stem: str, following: list[str], final: int) -> None:
        rule = context(stem, following, self.short_stem)
        if rule is not None:
            self.contexts[rule][final] += 1

    def attaches(self) -> bool:
        """Whether this language writes an abbreviation's period as part of its token (``Jan.``)."""
        return self.attached[0] >= self.attached[1]

    def is_abbreviation(self, stem: str) -> bool:
        """Whether the stem's period was mostly inside sentences in training."""
        inside, final = self.counts.get(stem, (0, 0))
        return inside >= self.min_count and inside >= self.min_share * (inside + final)

    def keeps_going(self, form: str, previous: str | None, following: list[str]) -> bool:
        """Whether a sentence end the model predicts at ``form`` should be dropped.

        ``previous`` is the token before ``form`` when no space separates them;
        ``following`` the next one or two tokens (empty at the end of the text).
        """
        stem = stem_of(form, previous)
        if stem is None or not following or not following[0]:
            return False
        for key in (stem, stem.lower()):
            if self.is_abbreviation(key):
                return not (self.counts[key][1] > 0 and following[0][0].isupper())
        rule = context(stem, following, self.short_stem)
        if rule is None:
            return False
        inside, final = self.contexts[rule]
        return inside >= final

    def to_json(self) -> dict:
        """Plain JSON data for ``abbreviations.json`` (the learnt list first, for a human reader)."""
        learnt = sorted(s for s in self.counts if self.is_abbreviation(s))
        return {"abbreviations": learnt, "min_count": self.min_count, "min_share": self.min_share,
                "short_stem": self.short_stem, "contexts": self.contexts,
                "attached_separate": self.attached,
                "counts": {s: self.counts[s] for s in sorted(self.counts)}}

    @classmethod
    def from_json(cls, data: dict) -> Abbreviations:
        """Rebuild what :meth:`to_json` wrote."""
        return cls({k: list(v) for k, v in data["counts"].items()}, data.get("contexts"),
                   min_count=int(data["min_count"]), min_share=float(data["min_share"]),
                   short_stem=int(data["short_stem"]), attached=data.get("attached_separate"))

    def save(self, folder: Path) -> None:
        """Write ``abbreviations.json`` into a segmenter package folder."""
        text = json.dumps(self.to_json(), ensure_ascii=False, indent=0)
        (Path(folder) / FILE).write_text(text + "\n", encoding="utf-8")

    @classmethod
    def load(cls, folder: Path) -> Abbreviations | None:
        """The package's abbreviations, or None for a package that has none."""
        path = Path(folder) / FILE
        if not path.is_file():
            return None
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))


def main(argv: list[str] | None = None) -> int:
    """Learn abbreviations from CoNLL-U files into a segmenter package: ``python -m eud.segment.abbreviations``."""
    import argparse

    from eud.conllu import ConlluError, read_conllu

    parser = argparse.ArgumentParser(prog="python -m eud.segment.abbreviations", description=main.__doc__)
    parser.add_argument("package", type=Path, help="segmenter package folder to write abbreviations.json into")
    parser.add_argument("conllu", type=Path, nargs="+", help="training CoNLL-U files (.xz ok)")
    args = parser.parse_args(argv)
    if not (args.package / "config.json").is_file():
        print(f"{args.package}: not a segmenter package (no config.json)", file=sys.stderr)
        return 2
    try:
        abbreviations = Abbreviations.learn(s for path in args.conllu for s in read_conllu(path))
    except (OSError, ConlluError) as err:
        print(f"eud abbreviations: {err}", file=sys.stderr)
        return 2
    abbreviations.save(args.package)
    learnt = abbreviations.to_json()["abbreviations"]
    print(f"{args.package / FILE}: {len(learnt)} abbreviations, contexts {abbreviations.contexts}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
