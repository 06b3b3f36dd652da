"""Hand eud sentences to the field's other Python libraries, and take them back.

The hand-over goes through CoNLL-U text, which eud writes losslessly, so each
library reads exactly what a file would give it:

- ``conllu`` (EmilStenstrom/conllu): :func:`to_tokenlist` / :func:`from_tokenlist`;
- ``udapi``: :func:`to_udapi_document` / :func:`from_udapi_document`.

Both libraries are core dependencies of eud, imported only when used.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import TYPE_CHECKING

from eud.conllu import format_sentence, parse_conllu

if TYPE_CHECKING:  # pragma: no cover
    import conllu
    from udapi.core.document import Document

    from eud.graph import Sentence


def to_tokenlist(sentence: Sentence) -> conllu.TokenList:
    """The sentence as a ``conllu.TokenList`` (empty nodes and multiword tokens included)."""
    import conllu

    (tokenlist,) = conllu.parse(format_sentence(sentence))
    return tokenlist


def from_tokenlist(tokenlist: conllu.TokenList) -> Sentence:
    """An eud sentence from a ``conllu.TokenList``."""
    (sentence,) = parse_conllu(tokenlist.serialize(), name="<conllu.TokenList>")
    return sentence


def to_udapi_document(sentences: Iterable[Sentence]) -> Document:
    """A udapi ``Document`` holding the sentences (one bundle each)."""
    from udapi.block.read.conllu import Conllu
    from udapi.core.document import Document

    text = "".join(format_sentence(s) for s in sentences)
    document = Document()
    Conllu(filehandle=io.StringIO(text)).apply_on_document(document)
    return document


def from_udapi_document(document: Document) -> list[Sentence]:
    """eud sentences from a udapi ``Document``."""
    from udapi.block.write.conllu import Conllu

    buffer = _KeptOpen()
    Conllu(filehandle=buffer).apply_on_document(document)
    return parse_conllu(buffer.getvalue(), name="<udapi.Document>")


class _KeptOpen(io.StringIO):
    """A StringIO that survives udapi's writer closing it at the end of a document."""

    def close(self) -> None:
        pass
