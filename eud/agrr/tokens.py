"""Words with character offsets for AGRR texts, which come without tokenization.

:func:`tokenize` splits a text into words by a regular expression: runs of
letters and digits (inner hyphens, also U+2010 and U+2011, and apostrophes kept: *что-то*,
*O'Neil*),
numbers with inner dots or commas (*3,5*, *1.2.3*), and every other
non-space character on its own.  Each word keeps its ``(start, end)`` offsets
in the text, so spans can be mapped both ways.  :func:`sentence_from_text`
makes an unannotated :class:`~eud.graph.Sentence` of them whose ``# text``,
FORM and ``SpaceAfter=No`` agree, as ``udvalidate`` checks; whitespace
other than one plain space between words (tabs, no-break spaces, double
spaces) is written to MISC as ``SpacesAfter`` (:mod:`eud.spaces`), and surrounding whitespace is
left out of ``# text``.
"""

from __future__ import annotations

import re

from eud import spaces
from eud.graph import Sentence, Word

TOKEN = re.compile(r"\d+(?:[.,]\d+)+|\w+(?:[-\u2010\u2011'’]\w+)*|[^\w\s]", re.UNICODE)


def tokenize(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` character offsets of each word of ``text``."""
    return [m.span() for m in TOKEN.finditer(text)]


def sentence_from_text(text: str, sent_id: str | None = None) -> tuple[Sentence, list[tuple[int, int]]]:
    """An unannotated sentence of ``text``'s words, and each word's offsets."""
    offsets = tokenize(text)
    sentence = Sentence()
    if sent_id is not None:
        sentence.comments.append(f"# sent_id = {sent_id}")
    first = offsets[0][0] if offsets else 0
    last = offsets[-1][1] if offsets else 0
    sentence.comments.append(f"# text = {text[first:last]}")
    for k, (a, b) in enumerate(offsets):
        misc = "_"
        if k + 1 < len(offsets):
            gap = text[b:offsets[k + 1][0]]
            misc = spaces.after(gap)
        sentence.words.append(Word(k + 1, form=text[a:b], misc=misc))
    return sentence, offsets
