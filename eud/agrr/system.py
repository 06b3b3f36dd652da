"""Run a parser over AGRR rows: tokenize, parse, enhance, and read the answers off the graphs.

The parser is a function that fills the basic tree and the enhanced graph of
a list of sentences in place: ``Pipeline.load(model, graph_mode="rules")``'s
``parse_sentences``, whose Russian profile runs the gapping rule.  The
package's gapping repairs run inside it, before the graph is built
(``models/ru_agrr``: the gapped clauses a dash marks, :mod:`eud.gapping.dashes`);
:func:`predict_rows` reads the answers off the sentences as the parser wrote them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from eud.agrr.answers import answer
from eud.agrr.files import AgrrRow
from eud.agrr.tokens import sentence_from_text
from eud.graph import Sentence
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


def predict_rows(parse: Parse, rows: list[AgrrRow], chunk: int = 500) -> Iterator[tuple[AgrrRow, Sentence | None]]:
    """Each row's answer (same text) and the enhanced sentence behind it."""
    for row, (sentence, offsets) in zip(rows, parse_rows(parse, rows, chunk)):
        if sentence is None:
            yield AgrrRow(row.text), None
        else:
            yield answer(sentence, offsets, row.text), sentence
