"""Raw text → sentences → tokens → words, with a character model trained from CoNLL-U.

``Segmenter.load(folder).segment(text)`` yields :class:`~eud.graph.Sentence`
objects with FORM, multiword tokens, SpaceAfter, SpacesAfter and ``# newdoc``/``# newpar``/
``# sent_id``/``# text`` comments; :func:`read_tokenized` reads pre-tokenized
text; :func:`paragraphs` streams the paragraphs of a text file robustly.
Training lives in :mod:`eud.segment.train` (torch is imported only there and
in the character network, :mod:`eud.segment.network`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eud.segment.text import TextError, paragraphs, read_text, split_paragraphs
from eud.segment.tokenized import read_tokenized

if TYPE_CHECKING:  # pragma: no cover
    from eud.segment.segmenter import Segmenter, SegmenterError

__all__ = ["Segmenter", "SegmenterError", "TextError", "paragraphs", "read_text", "read_tokenized",
           "split_paragraphs"]


def __getattr__(name: str):
    # Segmenter pulls in torch; load it only when asked for.
    if name in ("Segmenter", "SegmenterError"):
        from eud.segment import segmenter

        return getattr(segmenter, name)
    raise AttributeError(name)
