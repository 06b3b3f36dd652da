"""AGRR-2019 (gapping in Russian): files, scores, and the bridge to UD trees and graphs.

:mod:`~eud.agrr.files` reads and writes the tab-separated files,
:mod:`~eud.agrr.scoring` computes the task's three metrics,
:mod:`~eud.agrr.tokens` splits a text into words with character offsets,
:mod:`~eud.agrr.trees` turns gold spans into basic trees with ``orphan``,
:mod:`~eud.agrr.system` runs a parser over the rows (the parser package's
gapping repairs, :mod:`eud.gapping.dashes` among them, run inside it), and
:mod:`~eud.agrr.answers` reads the spans back off an enhanced graph, one AGRR column at a
time: :mod:`~eud.agrr.clauses` (``class``), :mod:`~eud.agrr.remnants` (``R1``/``R2``),
:mod:`~eud.agrr.verb` (``cV``), :mod:`~eud.agrr.correlates` and :mod:`~eud.agrr.correlate_spans`
(``cR1``/``cR2``), over the shared :mod:`~eud.agrr.spans`.
"""

from eud.agrr.files import AgrrError, AgrrFile, AgrrRow, held_apart, read_agrr, write_agrr
from eud.agrr.scoring import score, symbol_f1

__all__ = ["AgrrError", "AgrrFile", "AgrrRow", "held_apart", "read_agrr", "score", "symbol_f1", "write_agrr"]
