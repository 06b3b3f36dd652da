"""FEATS a reader can trust: the tagger chooses among the feature sets the treebank has seen.

The FEATS classifier scores every feature set of its table without knowing which word or
tags it is for, so an unusual context can make it write a set the word never takes.  In a
gapped clause, which reads like broken English, EWT's tagger wrote ``Typo=Yes`` for *she*
and *him* (*He loves her, and she him*: without their cases the remnants' correlates are
lost) and ``_`` for the noun *pear*, which no noun in EWT has.

``feats.json`` in a parser package records, from the training treebank:

* ``forms``: for UD's closed classes (:data:`CLOSED`), each lowercased form seen at least
  :data:`MIN_COUNT` times with its UPOS, with the feature sets it took (*she* PRON: one;
  *her* PRON: the accusative and the possessive).  Open classes are left out: a verb's
  person and number come from its subject, so *wonder* takes sets its training uses never
  showed;
* ``upos``: per UPOS, every feature set it took.

:meth:`FeatsChoice.choose` keeps the classifier's best-scoring set among those allowed: the
form's when the form is known with that UPOS, else the UPOS's.  Where neither is known, or
none of the allowed sets is in the classifier's table, the classifier's own best stands.  A
set the treebank gives a word (``Typo=Yes`` on *there* for *their*) stays possible; only the
never-seen ones go.  A multilingual package keeps one table per language, as its lexicon
does (:mod:`eud.nn.lexicon`).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from eud.graph import Sentence
from eud.nn.tables import command_parser, is_package, read_table, run_command, write_table
from eud.nn.vocab import Vocab

FILE = "feats.json"
FORMAT = "eud-feats/1"
KEY = "feats"
# A closed-class form's own sets are trusted from this many occurrences with a UPOS (fewer: the UPOS's).
MIN_COUNT = 5
# UD's closed classes: their forms carry their own features.
CLOSED = frozenset({"ADP", "AUX", "CCONJ", "DET", "NUM", "PART", "PRON", "SCONJ"})


def build_table(sentences: Iterable[Sentence]) -> dict:
    """The ``feats.json`` table of one language: feature sets by frequent closed-class form and by UPOS."""
    by_form: dict[tuple[str, str], Counter] = {}
    by_upos: dict[str, set[str]] = {}
    for sentence in sentences:
        for w in sentence.words:
            if not w.upos or w.upos == "_":
                continue
            if w.upos in CLOSED:
                by_form.setdefault((w.upos, w.form.lower()), Counter())[w.feats] += 1
            by_upos.setdefault(w.upos, set()).add(w.feats)
    values = sorted({f for sets in by_upos.values() for f in sets})
    index = {f: i for i, f in enumerate(values)}
    forms: dict[str, dict[str, list[int]]] = {}
    for (upos, form), counts in sorted(by_form.items()):
        if sum(counts.values()) >= MIN_COUNT:
            forms.setdefault(upos, {})[form] = sorted(index[f] for f in counts)
    upos = {tag: sorted(index[f] for f in sets) for tag, sets in sorted(by_upos.items())}
    return {"values": values, "forms": forms, "upos": upos}


def write_feats(folder: str | Path, sentences: Iterable[Sentence], lang: str | None = None) -> Path:
    """Write ``feats.json`` into a parser package from its training sentences.

    A multilingual package keeps one table per language: give ``lang``, and the file's
    other languages are kept (call once per language).
    """
    return write_table(Path(folder) / FILE, FORMAT, KEY, build_table(sentences), lang)


class FeatsChoice:
    """The allowed feature sets of a word, as rows of the FEATS classifier's table (see the module doc)."""

    def __init__(self, table: dict, feats: Vocab) -> None:
        rows = [feats.index.get(value) for value in table["values"]]

        def allowed(ids: list[int]) -> np.ndarray | None:
            found = [rows[i] for i in ids if rows[i] is not None]
            return np.array(found, dtype=np.int64) if found else None

        self.forms = {upos: {form: allowed(ids) for form, ids in forms.items()}
                      for upos, forms in table["forms"].items()}
        self.upos = {tag: allowed(ids) for tag, ids in table["upos"].items()}
        self.items = feats.items

    @classmethod
    def load(cls, folder: str | Path, feats: Vocab, lang: str | None = None) -> FeatsChoice | None:
        """The package's table, or None when it has no ``feats.json`` (or no table for ``lang``)."""
        table = read_table(Path(folder) / FILE, FORMAT, KEY, lang)
        return cls(table, feats) if table is not None else None

    def allowed(self, form: str, upos: str) -> np.ndarray | None:
        """Rows the word may take: its form's with this UPOS, else the UPOS's; None when neither is known."""
        rows = self.forms.get(upos, {}).get(form.lower())
        return rows if rows is not None else self.upos.get(upos)

    def choose(self, form: str, upos: str, scores: np.ndarray) -> str:
        """The best-scoring allowed feature set for a word, given the classifier's ``scores`` over its table."""
        rows = self.allowed(form, upos)
        if rows is None:
            return self.items[int(scores.argmax())]
        return self.items[int(rows[scores[rows].argmax()])]


def main(argv: list[str] | None = None) -> int:
    """Write feats.json into a parser package from its training CoNLL-U: ``python -m eud.nn.morphology``."""
    args = command_parser("python -m eud.nn.morphology", main.__doc__).parse_args(argv)
    if not is_package(args.package, "eud feats"):
        return 2
    return run_command(args, "eud feats", write_feats)


if __name__ == "__main__":
    sys.exit(main())
