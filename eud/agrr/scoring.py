"""The three AGRR-2019 metrics.

Scoring (:func:`score`), as the AGRR-2019 task defines it:

* **binary**: F1 of class 1;
* **resolution**: symbol-wise F1 over ``cV`` and ``V``;
* **full**: symbol-wise F1 over all six span columns.

Symbol-wise F1 compares, per sentence and column, the sets of character
positions the gold and predicted spans cover; a zero-width span ``k:k``
covers the one position ``k``.  Two empty cells score 1, one empty cell 0.
A sentence whose gold and predicted class differ scores 0 in every column; a
sentence both call 0 is skipped.  The result is the mean over the
remaining (sentence, column) pairs.  The 2019 script
(``agrr_metrics.py`` in dialogue-evaluation/AGRR-2019) scores sentences both
call 0 as 1 instead of skipping them, which raises every figure; with
``negatives_count=True`` :func:`score` follows it.
"""

from __future__ import annotations

from eud.agrr.files import RESOLUTION_COLUMNS, SPAN_COLUMNS, AgrrRow, Span


def positions(spans: list[Span]) -> set[int]:
    """Character positions the spans cover; a zero-width span ``k:k`` covers ``k``."""
    out: set[int] = set()
    for a, b in spans:
        out.update(range(a, b) if b > a else (a,))
    return out


def symbol_f1(gold: list[Span], pred: list[Span]) -> float:
    """Symbol-wise F1 of one cell: 1 when both are empty, 0 when only one is."""
    g, p = positions(gold), positions(pred)
    if not g and not p:
        return 1.0
    tp = len(g & p)
    if not tp:
        return 0.0
    precision, recall = tp / len(p), tp / len(g)
    return 2 * precision * recall / (precision + recall)


def binary_f1(gold: list[AgrrRow], pred: list[AgrrRow]) -> dict[str, float]:
    """Precision, recall and F1 of class 1."""
    tp = sum(1 for g, p in zip(gold, pred) if g.cls == 1 and p.cls == 1)
    fp = sum(1 for g, p in zip(gold, pred) if g.cls == 0 and p.cls == 1)
    fn = sum(1 for g, p in zip(gold, pred) if g.cls == 1 and p.cls == 0)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


def span_score(gold: list[AgrrRow], pred: list[AgrrRow], columns: tuple[str, ...],
               negatives_count: bool = False) -> float:
    """Mean symbol-wise F1 over sentences and ``columns`` (see the module docstring)."""
    scores = []
    for g, p in zip(gold, pred):
        if g.cls == p.cls == 0:
            if negatives_count:
                scores.extend([1.0] * len(columns))
            continue
        if g.cls != p.cls:
            scores.extend([0.0] * len(columns))
            continue
        scores.extend(symbol_f1(g.spans[c], p.spans[c]) for c in columns)
    return sum(scores) / len(scores) if scores else 0.0


def score(gold: list[AgrrRow], pred: list[AgrrRow], negatives_count: bool = False) -> dict[str, float]:
    """binary, resolution and full scores of ``pred`` against ``gold`` (same rows, same order)."""
    if len(gold) != len(pred):
        raise ValueError(f"gold has {len(gold)} rows, the prediction {len(pred)}")
    for k, (g, p) in enumerate(zip(gold, pred), 2):
        if g.text != p.text:
            raise ValueError(f"line {k}: the texts differ between gold and prediction")
    b = binary_f1(gold, pred)
    return {
        "binary": b["f1"], "binary_precision": b["precision"], "binary_recall": b["recall"],
        "resolution": span_score(gold, pred, RESOLUTION_COLUMNS, negatives_count),
        "full": span_score(gold, pred, SPAN_COLUMNS, negatives_count),
    }
