"""A document: the sentences that one text became, in order."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import overload

from eud.conllu import format_sentence
from eud.graph import Sentence


class Document:
    """Sentences of one text, in order; ``to_conllu()`` writes them, ``doc[i].to_networkx()`` graphs one."""

    def __init__(self, sentences: Iterable[Sentence] = ()) -> None:
        self.sentences: list[Sentence] = list(sentences)

    @property
    def text(self) -> str:
        """The text the document was parsed from, as its MISC records it (:func:`eud.spaces.rebuild`)."""
        from eud.spaces import rebuild

        return rebuild(self.sentences)

    def to_conllu(self) -> str:
        """The whole document as CoNLL-U text (each sentence followed by a blank line)."""
        return "".join(format_sentence(s) for s in self.sentences)

    def __iter__(self) -> Iterator[Sentence]:
        return iter(self.sentences)

    def __len__(self) -> int:
        return len(self.sentences)

    @overload
    def __getitem__(self, index: int) -> Sentence: ...
    @overload
    def __getitem__(self, index: slice) -> list[Sentence]: ...
    def __getitem__(self, index: int | slice) -> Sentence | list[Sentence]:
        return self.sentences[index]

    def __repr__(self) -> str:
        words = sum(len(s.words) for s in self.sentences)
        return f"<Document: {len(self.sentences)} sentences, {words} words>"
