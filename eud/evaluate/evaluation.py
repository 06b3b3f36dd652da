"""Scoring one gold/system pair, from files or sentences in memory, and the score tables ``eud evaluate`` prints.

Files and sentence streams are scored in chunks (:mod:`eud.evaluate.chunks`)
whose counts are added up, so memory does not grow with the input;
:func:`evaluate_loaded` scores two files already read whole.
"""

from __future__ import annotations

import bisect
import contextlib
import gc
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from eud.evaluate.align import align_words, first_difference
from eud.evaluate.chunks import DEFAULT_CHUNK_WORDS, SNIPPET, aligned_chunks, text_difference
from eud.evaluate.data import Builder, ScoringFile, read_for_scoring
from eud.evaluate.empty_nodes import EMPTY_NODE_METRICS
from eud.evaluate.enhancement_types import TYPES, TypeScore
from eud.evaluate.metrics import METRICS, Score, official_scores
from eud.evaluate.sources import SentenceRows, file_label, rows_from_file, rows_from_sentences
from eud.graph import Sentence

# Rows of the table, as udeval prints them.
BASIC_METRICS = METRICS[:13]
ENHANCED_METRICS = METRICS[13:]


@dataclass
class Evaluation:
    """The scores of one gold/system pair."""

    gold_path: str
    system_path: str
    scores: dict[str, Score] = field(default_factory=dict)
    # ELAS by enhancement type: type -> TypeScore (see eud.evaluate.enhancement_types).
    by_type: dict[str, TypeScore] = field(default_factory=dict)
    # Empty nodes before collapsing: "EmptyNodes", "EmptyEdges", ... -> Score.
    empty_nodes: dict[str, Score] = field(default_factory=dict)

    def __getitem__(self, metric: str) -> Score:
        return self.scores[metric]

    def add(self, other: Evaluation) -> None:
        """Add the counts of another piece of the same pair (see :mod:`eud.evaluate.chunks`)."""
        self.scores = {name: score + other.scores[name] for name, score in self.scores.items()}
        self.by_type = _add_counts(self.by_type, other.by_type, TYPES)
        self.empty_nodes = _add_counts(self.empty_nodes, other.empty_nodes, EMPTY_NODE_METRICS)

    def to_dict(self) -> dict:
        """Everything, as plain data for ``--json``."""
        return {
            "gold": self.gold_path,
            "system": self.system_path,
            "metrics": {name: score.to_dict() for name, score in self.scores.items()},
            "elas_by_type": {name: score.to_dict() for name, score in self.by_type.items()},
            "empty_nodes": {name: score.to_dict() for name, score in self.empty_nodes.items()},
        }


def _add_counts(a: dict, b: dict, order: Iterable[str]) -> dict:
    """Two dicts of counts (Score or TypeScore) added key by key; keys in ``order``, those in neither left out."""
    out = {}
    for name in order:
        if name in a and name in b:
            out[name] = a[name] + b[name]
        elif name in a or name in b:
            out[name] = a.get(name) or b[name]
    return out


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

    raise text_difference(at, (gold.text[at:at + SNIPPET], where(gold)), (system.text[at:at + SNIPPET], where(system)))


def evaluate_loaded(gold: ScoringFile, system: ScoringFile, *, extras: bool = True) -> Evaluation:
    """Score two prepared files (each read whole, e.g. by :func:`eud.evaluate.data.read_for_scoring`)."""
    check_same_text(gold, system)
    return _score(gold, system, extras)


def _score(gold: ScoringFile, system: ScoringFile, extras: bool) -> Evaluation:
    """Score two files or two chunks of the same text."""
    alignment = align_words(gold.spans, system.spans)
    result = Evaluation(gold.path, system.path, official_scores(gold, system, alignment))
    if extras:
        from eud.evaluate.empty_nodes import empty_node_scores
        from eud.evaluate.enhancement_types import scores_by_type

        result.by_type = scores_by_type(gold, system, alignment)
        result.empty_nodes = empty_node_scores(gold, system, alignment)
    return result


def evaluate_files(
    gold_path: str | os.PathLike, system_path: str | os.PathLike, *, enhancements: str = "", extras: bool = True,
    chunk_words: int = DEFAULT_CHUNK_WORDS,
) -> Evaluation:
    """Score a system file against gold; ``enhancements`` are official ``--enhancements`` digits (``"0"``: all).

    The files are read in parallel and scored in chunks of about ``chunk_words`` gold words.
    """
    gold = rows_from_file(gold_path, progress=True)
    system = rows_from_file(system_path)
    return evaluate_rows(gold, system, file_label(gold_path), file_label(system_path),
                         enhancements=enhancements, extras=extras, chunk_words=chunk_words)


def evaluate_sentences(
    gold: Iterable[Sentence], system: Iterable[Sentence], *, enhancements: str = "", extras: bool = True,
    chunk_words: int = DEFAULT_CHUNK_WORDS,
) -> Evaluation:
    """Score sentences (a list, or a stream such as an enhancer's output) the same way as files."""
    return evaluate_rows(rows_from_sentences(gold), rows_from_sentences(system), "<gold>", "<system>",
                         enhancements=enhancements, extras=extras, chunk_words=chunk_words)


def evaluate_rows(
    gold: Iterable[SentenceRows], system: Iterable[SentenceRows], gold_label: str, system_label: str, *,
    enhancements: str = "", extras: bool = True, chunk_words: int = DEFAULT_CHUNK_WORDS,
) -> Evaluation:
    """Score two streams of sentences chunk by chunk (:mod:`eud.evaluate.chunks`) and add the counts up."""
    total: Evaluation | None = None
    with _gc_paused():
        chunks = aligned_chunks(iter(gold), iter(system), Builder(gold_label, enhancements),
                                Builder(system_label, enhancements), min_words=chunk_words)
        for gold_chunk, system_chunk in chunks:
            part = _score(gold_chunk, system_chunk, extras)
            if total is None:
                total = part
            else:
                total.add(part)
    assert total is not None  # aligned_chunks yields at least one pair
    return total


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
