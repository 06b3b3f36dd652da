"""IWPT-style scores whose counts equal the official scorer's: the library behind ``eud evaluate``.

Scores a system CoNLL-U file against gold the way the IWPT 2020/2021 shared
tasks did, in one step: both files are read (``.xz``/``.gz`` ok), their empty
nodes are collapsed into path labels (:mod:`eud.collapse`), words are aligned
on raw characters (:mod:`eud.evaluate.align`, so system tokenization may differ), and
the official metrics are counted (:mod:`eud.evaluate.metrics`).  The counts equal those
of ``udeval --counts`` run on collapsed files; ``tests/test_evaluate_parity.py``
pins that.  The two files are read in parallel and scored in chunks cut where
the alignment allows it (:mod:`eud.evaluate.chunks`), so memory stays flat
however large they are; ``tests/test_evaluate_chunks.py`` pins that the counts
are those of whole-file scoring.

Beyond the official scorer: ELAS by enhancement type of the gold edge
(:mod:`eud.evaluate.enhancement_types`), a score for empty nodes before collapsing
(:mod:`eud.evaluate.empty_nodes`), JSON output, and macro averages over several
gold/system pairs.

Library use::

    from eud.evaluate import evaluate_files
    ev = evaluate_files("gold.conllu", "system.conllu")
    print(ev["ELAS"].f1, ev["LAS"].correct)
    ev = evaluate_sentences(gold_sentences, enhanced_sentences)   # in memory

    import eud
    ev = eud.evaluate("gold.conllu", "system.conllu")       # either kind

The package itself is callable: ``eud.evaluate(gold, system)`` is
:func:`evaluate`.  ``eud.evaluate`` has to be this package (``from
eud.evaluate import evaluate_files`` must keep working, and importing a
submodule rebinds the attribute ``eud.evaluate`` to the package anyway), so a
plain function of that name in ``eud/__init__`` could not stay; giving the
package module a ``__call__`` lets one name serve both uses.

Modules: :mod:`~eud.evaluate.evaluation` (one pair, tables),
:mod:`~eud.evaluate.sources` (sentences from files or objects, one at a time),
:mod:`~eud.evaluate.data` (the scorer's columns),
:mod:`~eud.evaluate.chunks` (cutting two files into pieces scored one by one),
:mod:`~eud.evaluate.align` (word alignment on characters),
:mod:`~eud.evaluate.metrics` (the official metrics),
:mod:`~eud.evaluate.levels` (``--enhancements``),
:mod:`~eud.evaluate.enhancement_types` and :mod:`~eud.evaluate.empty_nodes`
(the extra scores).
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Iterable

from eud.evaluate.data import ScoringError, ScoringFile, load_for_scoring, read_for_scoring
from eud.evaluate.evaluation import (
    BASIC_METRICS,
    ENHANCED_METRICS,
    Evaluation,
    evaluate_files,
    evaluate_loaded,
    evaluate_sentences,
    format_extras,
    format_table,
    load_file,
    macro_average,
)
from eud.evaluate.metrics import METRICS, Score
from eud.graph import Sentence

__all__ = [
    "BASIC_METRICS",
    "ENHANCED_METRICS",
    "METRICS",
    "Evaluation",
    "Score",
    "ScoringError",
    "ScoringFile",
    "evaluate",
    "evaluate_files",
    "evaluate_loaded",
    "evaluate_sentences",
    "format_extras",
    "format_table",
    "load_file",
    "load_for_scoring",
    "macro_average",
    "read_for_scoring",
]


def evaluate(
    gold: str | os.PathLike | Iterable[Sentence],
    system: str | os.PathLike | Iterable[Sentence],
    *,
    enhancements: str = "",
    extras: bool = True,
) -> Evaluation:
    """Score system against gold; each is a CoNLL-U path or sentences in memory (a list, a Document)."""
    if isinstance(gold, (str, os.PathLike)) and isinstance(system, (str, os.PathLike)):
        return evaluate_files(gold, system, enhancements=enhancements, extras=extras)
    if isinstance(gold, (str, os.PathLike)):
        from eud.conllu import read_conllu

        gold = read_conllu(gold)
    if isinstance(system, (str, os.PathLike)):
        from eud.conllu import read_conllu

        system = read_conllu(system)
    return evaluate_sentences(gold, system, enhancements=enhancements, extras=extras)


class _CallablePackage(types.ModuleType):
    """This package's type: calling it calls :func:`evaluate` (see the module docstring)."""

    def __call__(self, gold: str | os.PathLike | Iterable[Sentence], system: str | os.PathLike | Iterable[Sentence],
                 **options: object) -> Evaluation:
        return evaluate(gold, system, **options)  # type: ignore[arg-type]


sys.modules[__name__].__class__ = _CallablePackage
