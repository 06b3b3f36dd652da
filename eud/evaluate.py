"""``eud evaluate``: IWPT-style scores whose counts equal the official scorer's.

Scores a system CoNLL-U file against gold the way the IWPT 2020/2021 shared
tasks did, in one step: both files are read (``.xz``/``.gz`` ok), their empty
nodes are collapsed into path labels (:mod:`eud.collapse`), words are aligned
on raw characters (:mod:`eud.align`, so system tokenization may differ), and
the official metrics are counted (:mod:`eud.metrics`).  The counts equal those
of ``udeval --counts`` run on collapsed files; ``tests/test_evaluate_parity.py``
pins that.

Beyond the official scorer: ELAS by enhancement type of the gold edge
(:mod:`eud.enhancement_types`), a score for empty nodes before collapsing
(:mod:`eud.empty_node_score`), JSON output, and macro averages over several
gold/system pairs.

Library use::

    from eud.evaluate import evaluate_files
    ev = evaluate_files("gold.conllu", "system.conllu")
    print(ev["ELAS"].f1, ev["LAS"].correct)
    ev = evaluate_sentences(gold_sentences, enhanced_sentences)   # in memory
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import gc
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from eud.align import align_words, first_difference
from eud.cli import input_error
from eud.conllu import ConlluError
from eud.enhancement_types import TypeScore
from eud.eval_data import ScoringError, ScoringFile, load_for_scoring, read_for_scoring
from eud.eval_levels import LEVELS
from eud.graph import Sentence
from eud.metrics import METRICS, Score, official_scores

# Rows of the table, as udeval prints them.
BASIC_METRICS = METRICS[:13]
ENHANCED_METRICS = METRICS[13:]


@dataclass
class Evaluation:
    """The scores of one gold/system pair."""

    gold_path: str
    system_path: str
    scores: dict[str, Score] = field(default_factory=dict)
    # ELAS by enhancement type: type -> TypeScore (see eud.enhancement_types).
    by_type: dict[str, TypeScore] = field(default_factory=dict)
    # Empty nodes before collapsing: "EmptyNodes", "EmptyEdges", ... -> Score.
    empty_nodes: dict[str, Score] = field(default_factory=dict)

    def __getitem__(self, metric: str) -> Score:
        return self.scores[metric]

    def to_dict(self) -> dict:
        """Everything, as plain data for ``--json``."""
        return {
            "gold": self.gold_path,
            "system": self.system_path,
            "metrics": {name: score.to_dict() for name, score in self.scores.items()},
            "elas_by_type": {name: score.to_dict() for name, score in self.by_type.items()},
            "empty_nodes": {name: score.to_dict() for name, score in self.empty_nodes.items()},
        }


def load_file(path: str | os.PathLike, enhancements: str = "") -> ScoringFile:
    """Read and prepare one file for scoring (raises ConlluError or ScoringError)."""
    return read_for_scoring(path, enhancements)


def check_same_text(gold: ScoringFile, system: ScoringFile) -> None:
    """Raise ScoringError, naming both places, when the two files' texts differ."""
    if gold.text == system.text:
        return
    at = first_difference(gold.text, system.text)

    def where(file: ScoringFile) -> str:
        if not file.sent_start:
            return f"{file.path}: no sentences"
        k = max(bisect.bisect_right(file.sent_start, at) - 1, 0)
        return f"sentence at {file.path}:{file.sent_line[k]}"

    raise ScoringError(
        f"the texts differ at non-space character {at}: gold {gold.text[at:at + 20]!r} ({where(gold)}) "
        f"vs system {system.text[at:at + 20]!r} ({where(system)})"
    )


def evaluate_loaded(gold: ScoringFile, system: ScoringFile, *, extras: bool = True) -> Evaluation:
    """Score two prepared files."""
    check_same_text(gold, system)
    alignment = align_words(gold.spans, system.spans)
    result = Evaluation(gold.path, system.path, official_scores(gold, system, alignment))
    if extras:
        from eud.empty_node_score import empty_node_scores
        from eud.enhancement_types import scores_by_type

        result.by_type = scores_by_type(gold, system, alignment)
        result.empty_nodes = empty_node_scores(gold, system, alignment)
    return result


def evaluate_files(
    gold_path: str | os.PathLike, system_path: str | os.PathLike, *, enhancements: str = "", extras: bool = True
) -> Evaluation:
    """Score a system file against gold; ``enhancements`` are official ``--enhancements`` digits (``"0"``: all)."""
    with _gc_paused():
        gold = load_file(gold_path, enhancements)
        system = load_file(system_path, enhancements)
        return evaluate_loaded(gold, system, extras=extras)


def evaluate_sentences(
    gold: Iterable[Sentence], system: Iterable[Sentence], *, enhancements: str = "", extras: bool = True
) -> Evaluation:
    """Score sentences held in memory (e.g. an enhancer's output) the same way as files."""
    with _gc_paused():
        gold_file = load_for_scoring(gold, "<gold>", enhancements)
        system_file = load_for_scoring(system, "<system>", enhancements)
        return evaluate_loaded(gold_file, system_file, extras=extras)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: loading makes millions of small acyclic objects,
    and collections triggered by them cost a third of the run time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def macro_average(evaluations: list[Evaluation]) -> dict[str, dict[str, float]]:
    """Unweighted mean of precision, recall and F1 over several evaluations, per metric."""
    out: dict[str, dict[str, float]] = {}
    if not evaluations:
        return out
    for name in evaluations[0].scores:
        scores = [e.scores[name] for e in evaluations]
        out[name] = {
            "precision": sum(s.precision for s in scores) / len(scores),
            "recall": sum(s.recall for s in scores) / len(scores),
            "f1": sum(s.f1 for s in scores) / len(scores),
        }
    return out


def format_table(evaluation: Evaluation, *, counts: bool = False, enhanced: bool = True) -> str:
    """The official scorer's verbose table (or its ``--counts`` table)."""
    lines = []
    if counts:
        lines.append("Metric     | Correct   |      Gold | Predicted | Aligned")
    else:
        lines.append("Metric     | Precision |    Recall |  F1 Score | AligndAcc")
    lines.append("-----------+-----------+-----------+-----------+-----------")
    names = list(BASIC_METRICS) + (list(ENHANCED_METRICS) if enhanced else [])
    for name in names:
        lines.append(_row(name, evaluation.scores[name], counts, aligned_column=True))
    return "\n".join(lines)


def _row(name: str, score: Score, counts: bool, *, aligned_column: bool) -> str:
    if counts:
        aligned = score.aligned or (score.correct if name == "Words" else "")
        return f"{name:11}|{score.correct:10} |{score.gold:10} |{score.system:10} |{aligned:10}"
    accuracy = score.aligned_accuracy
    acc = f"{100 * accuracy:10.2f}" if accuracy is not None else ""
    return f"{name:11}|{100 * score.precision:10.2f} |{100 * score.recall:10.2f} |{100 * score.f1:10.2f} |{acc}"


def format_extras(evaluation: Evaluation, *, counts: bool = False) -> str:
    """The scores beyond the official ones, in tables like the official one."""
    lines = []
    if evaluation.by_type:
        lines += [
            "",
            (
                "ELAS by enhancement type (recall: gold edges typed by the gold tree; "
                "precision: system edges typed by the system tree)"
            ),
        ]
        if counts:
            lines.append("Type                   |      Gold | GoldRight |    System | SysRight")
        else:
            lines.append("Type                   | Precision |    Recall |  F1 Score")
        lines.append("-----------------------+-----------+-----------+-----------" + ("+-----------" if counts else ""))
        for name, t in evaluation.by_type.items():
            if counts:
                lines.append(f"{name:23}|{t.gold:10} |{t.gold_correct:10} |{t.system:10} |{t.system_correct:10}")
            else:
                lines.append(f"{name:23}|{100 * t.precision:10.2f} |{100 * t.recall:10.2f} |{100 * t.f1:10.2f}")
    if evaluation.empty_nodes:
        lines += ["", "Empty nodes before collapsing (matched by the aligned word they follow)"]
        if counts:
            lines.append("Item                   | Correct   |      Gold | Predicted")
        else:
            lines.append("Item                   | Precision |    Recall |  F1 Score")
        lines.append("-----------------------+-----------+-----------+-----------")
        for name, score in evaluation.empty_nodes.items():
            if counts:
                lines.append(f"{name:23}|{score.correct:10} |{score.gold:10} |{score.system:10}")
            else:
                lines.append(
                    f"{name:23}|{100 * score.precision:10.2f} |{100 * score.recall:10.2f} |{100 * score.f1:10.2f}"
                )
    return "\n".join(lines)


EPILOG = """\
examples:
  eud evaluate gold.conllu system.conllu
  eud evaluate gold.conllu system.conllu --counts          # raw counts, as udeval --counts
  eud evaluate gold.conllu.xz system.conllu --enhancements 16 --json
  eud evaluate en-gold.conllu en-sys.conllu cs-gold.conllu cs-sys.conllu   # + macro average

Empty nodes are collapsed into path labels (conj>nsubj) in both files first, as
the IWPT shared tasks did, so pass ordinary CoNLL-U files.  Words are aligned on
the non-space characters, so the system may tokenize differently.

--enhancements: which enhancement types the gold data lacks, as in the official
scorer: 0 all present (default), 1 no gapping, 2 no shared parents in
coordination, 3 no shared dependents (a no-op, as officially), 4 no control,
5 no relative clauses, 6 no case information in labels; combine digits (16).
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``eud evaluate``."""
    parser = argparse.ArgumentParser(
        prog="eud evaluate",
        description="IWPT-style scores (LAS, MLAS, BLEX, ELAS, EULAS, ...) of system CoNLL-U against gold.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="+", metavar="GOLD SYSTEM", help="gold and system files, in pairs")
    parser.add_argument("-c", "--counts", action="store_true", help="print raw counts instead of percentages")
    parser.add_argument("--enhancements", default="0", help="official enhancement levels, e.g. 0 or 16 (see below)")
    parser.add_argument("--json", action="store_true", help="print one JSON document with everything")
    parser.add_argument("--official-only", action="store_true", help="only the official metrics (faster)")
    parser.add_argument("--no-enhanced", action="store_true", help="leave ELAS/EULAS out of the table")
    return parser


def main(argv: list[str] | None = None) -> int:
    """``eud evaluate GOLD SYSTEM [GOLD2 SYSTEM2 ...]``."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if len(args.files) % 2:
        parser.error("give gold and system files in pairs (GOLD SYSTEM [GOLD2 SYSTEM2 ...])")
    bad = [c for c in args.enhancements if c not in "0" + LEVELS]
    if bad or not args.enhancements:
        parser.error(f"--enhancements takes digits 0-6, got {args.enhancements!r}")
    evaluations = []
    try:
        for gold, system in zip(args.files[0::2], args.files[1::2]):
            evaluations.append(
                evaluate_files(gold, system, enhancements=args.enhancements, extras=not args.official_only)
            )
    except (ConlluError, ScoringError, OSError) as err:
        return input_error("eud evaluate", err)
    if args.json:
        doc = {"pairs": [e.to_dict() for e in evaluations]}
        if len(evaluations) > 1:
            doc["macro_average"] = macro_average(evaluations)
        print(json.dumps(doc, indent=1))
        return 0
    for k, ev in enumerate(evaluations):
        if len(evaluations) > 1:
            print(("\n" if k else "") + f"== {ev.gold_path} vs {ev.system_path}")
        print(format_table(ev, counts=args.counts, enhanced=not args.no_enhanced))
        extra = format_extras(ev, counts=args.counts)
        if extra:
            print(extra)
    if len(evaluations) > 1:
        print(f"\n== macro average over {len(evaluations)} pairs")
        print("Metric     | Precision |    Recall |  F1 Score")
        print("-----------+-----------+-----------+-----------")
        for name, avg in macro_average(evaluations).items():
            if args.no_enhanced and name in ENHANCED_METRICS:
                continue
            print(f"{name:11}|{100 * avg['precision']:10.2f} |{100 * avg['recall']:10.2f} |{100 * avg['f1']:10.2f}")
    return 0
