"""Run a parser over AGRR rows: tokenize, parse, enhance, and read the answers off the graphs.

The parser is a function that fills the basic tree and the enhanced graph of
a list of sentences in place: ``Pipeline.load(model, graph_mode="rules")``'s
``parse_sentences``, whose Russian profile runs the gapping rule.
:func:`predict_rows` then rewrites the gapped clauses the parser left as two
dash-separated ``conj`` (:func:`eud.gapping.dashes.dash_gaps`) or ran into one
(:func:`eud.gapping.dashes.chain_gaps`) and builds those sentences' graphs again
with the Russian rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from eud.agrr.answers import answer
from eud.agrr.files import AgrrRow
from eud.agrr.tokens import sentence_from_text
from eud.gapping.dashes import chain_gaps, dash_gaps
from eud.graph import EnhancedGraph, Sentence
from eud.progress import progress

Parse = Callable[[list[Sentence]], Any]


def parse_rows(parse: Parse, rows: list[AgrrRow], chunk: int = 500,
               label: str = "parsing") -> Iterator[tuple[Sentence | None, list[tuple[int, int]]]]:
    """Each row's parsed sentence (None for a text without words) and its words' offsets, in order."""
    for start in progress(range(0, len(rows), chunk), label, unit="chunk"):
        batch = [sentence_from_text(r.text, sent_id=str(start + k + 1)) for k, r in enumerate(rows[start:start + chunk])]
        todo = [s for s, offsets in batch if offsets]
        if todo:
            parse(todo)
        for s, offsets in batch:
            yield (s if offsets else None), offsets


def regap(sentence: Sentence) -> bool:
    """Apply :func:`~eud.gapping.dashes.dash_gaps` and :func:`~eud.gapping.dashes.chain_gaps` to a parsed sentence and, if they changed the tree, enhance it again."""
    if not dash_gaps(sentence) | chain_gaps(sentence):
        return False
    from eud.pipeline import enhancer
    from eud.validate.repair import repair_sentence

    # As the parser's Predictor does: the rules without their repair, then the repair.
    sentence.empty_nodes = []
    sentence.enhanced = EnhancedGraph()
    enhancer("ru", repair=False).enhance(sentence)
    repair_sentence(sentence)
    return True


def predict_rows(parse: Parse, rows: list[AgrrRow], chunk: int = 500,
                 dashes: bool = True) -> Iterator[tuple[AgrrRow, Sentence | None]]:
    """Each row's answer (same text) and the enhanced sentence behind it (``dashes``: apply :func:`regap`)."""
    for row, (sentence, offsets) in zip(rows, parse_rows(parse, rows, chunk)):
        if sentence is None:
            yield AgrrRow(row.text), None
        else:
            if dashes:
                regap(sentence)
            yield answer(sentence, offsets, row.text), sentence
