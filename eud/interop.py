"""Hand eud sentences to the field's other Python libraries, and take them back.

The hand-over goes through CoNLL-U text, which eud writes losslessly, so each
library reads exactly what a file would give it:

- ``conllu`` (EmilStenstrom/conllu): :func:`to_tokenlist` / :func:`from_tokenlist`;
- ``udapi``: :func:`to_udapi_document` / :func:`from_udapi_document`;
- ``networkx``: :meth:`eud.graph.Sentence.to_networkx`, the full enhanced graph
  or (``collapsed=True``) the graph with its empty nodes collapsed into path
  labels such as ``conj>nsubj`` (:mod:`eud.collapse`).

Empty nodes (https://universaldependencies.org/format.html#words-tokens-and-empty-nodes),
a sentence-initial ``0.1`` among them, and multiword tokens go over as they are.
Where a library cannot hold part of a sentence, the hand-over says so: right
after handing a sentence over, eud has the library write it back and compares
the text with its own, line by line, and a difference raises an
:class:`InteropWarning` naming the sentence and the first line that changed,
instead of the loss passing silently.  Known losses with the versions eud
tests against (conllu 6.0, udapi 0.5.2):

- ``conllu`` drops a comment line without ``=`` (``# a note``) and cuts a MISC
  value at its first ``=`` (``Gloss=a=b`` comes back as ``Gloss=a``);
- udapi reads an empty node's id as a float, so ``8.10`` becomes ``8.1``
  (a sentence with ten or more empty nodes after one word).

udapi 0.5.2 keeps a sentence-initial empty node ``0.1`` (udapi-python issue
#53 is fixed), also through ``node.deps``.

Both libraries are core dependencies of eud, imported only when used.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING

from eud.conllu import format_sentence, parse_conllu

if TYPE_CHECKING:  # pragma: no cover
    import conllu
    from udapi.core.document import Document

    from eud.graph import Sentence


class InteropWarning(UserWarning):
    """A library could not hold part of a sentence handed to it; ``sent_id`` names the sentence."""

    def __init__(self, library: str, sent_id: str, expected: str, got: str) -> None:
        self.library = library
        self.sent_id = sent_id
        self.expected = expected  # eud's line, "" when the library added a line
        self.got = got  # the library's line, "" when it dropped one
        super().__init__(f"{library} cannot hold all of sentence {sent_id}: {expected!r} comes back as {got!r}")


def _name(sentence: Sentence) -> str:
    return sentence.sent_id or sentence.where()


def _check(library: str, sentence: Sentence, written: str, original: str | None = None) -> None:
    """Warn when the library's ``written`` text of ``sentence`` differs from eud's."""
    original = format_sentence(sentence) if original is None else original
    if written == original:
        return
    ours, theirs = original.split("\n"), written.split("\n")
    for k in range(max(len(ours), len(theirs))):
        expected = ours[k] if k < len(ours) else ""
        got = theirs[k] if k < len(theirs) else ""
        if expected != got:
            warnings.warn(InteropWarning(library, _name(sentence), expected, got), stacklevel=3)
            return


def to_tokenlist(sentence: Sentence) -> conllu.TokenList:
    """The sentence as a ``conllu.TokenList`` (empty nodes and multiword tokens included).

    Warns with :class:`InteropWarning` when the token list does not write back to the same text.
    """
    import conllu

    text = format_sentence(sentence)
    (tokenlist,) = conllu.parse(text)
    _check("conllu", sentence, tokenlist.serialize(), text)
    return tokenlist


def from_tokenlist(tokenlist: conllu.TokenList) -> Sentence:
    """An eud sentence from a ``conllu.TokenList``."""
    (sentence,) = parse_conllu(tokenlist.serialize(), name="<conllu.TokenList>")
    return sentence


def to_udapi_document(sentences: Iterable[Sentence]) -> Document:
    """A udapi ``Document`` holding the sentences (one bundle each).

    Warns with :class:`InteropWarning` for each sentence the document does not write back to the same text.
    """
    from udapi.block.read.conllu import Conllu
    from udapi.core.document import Document

    sentences = list(sentences)
    texts = [format_sentence(s) for s in sentences]
    document = Document()
    Conllu(filehandle=io.StringIO("".join(texts))).apply_on_document(document)
    written = _udapi_text(document).split("\n\n")  # each sentence ends with a blank line
    for k, (sentence, text) in enumerate(zip(sentences, texts)):
        _check("udapi", sentence, written[k] + "\n\n" if k < len(written) else "", text)
    return document


def from_udapi_document(document: Document) -> list[Sentence]:
    """eud sentences from a udapi ``Document``."""
    return parse_conllu(_udapi_text(document), name="<udapi.Document>")


def _udapi_text(document: Document) -> str:
    from udapi.block.write.conllu import Conllu

    buffer = _KeptOpen()
    Conllu(filehandle=buffer).apply_on_document(document)
    return buffer.getvalue()


class _KeptOpen(io.StringIO):
    """A StringIO that survives udapi's writer closing it at the end of a document."""

    def close(self) -> None:
        pass
