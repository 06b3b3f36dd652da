"""Per-sentence lookups shared by the enhancer rules, computed once per sentence.

Rules read the basic tree through a :class:`Context` (children lists, conjunct
chains) and write to ``sentence.enhanced``.  Nothing here is language-specific.
"""

from __future__ import annotations

from eud.graph import NodeId, Sentence, Word


class Context:
    """The basic tree of one sentence, indexed for the rules."""

    __slots__ = ("sentence", "words", "children", "marker_source", "subject_of_conj")

    def __init__(self, sentence: Sentence) -> None:
        self.sentence = sentence
        # words[0] is a stand-in for the root so that words[i] is word i.
        self.words: list[Word] = [Word(0, "<root>", "<root>", "ROOT", deprel="root")] + sentence.words
        children: list[list[int]] = [[] for _ in self.words]
        for w in sentence.words:
            if w.head is not None:
                children[w.head].append(w.id)
        self.children = children
        # (head, dep) of an enhanced edge -> word whose case/mark dependents name it,
        # when that is not the dependent itself (relative pronouns).
        self.marker_source: dict[tuple[NodeId, NodeId], int] = {}
        self.subject_of_conj: dict[int, int] = {}

    def kids(self, i: int, *udeprels: str) -> list[int]:
        """Basic children of word ``i`` whose universal relation is one of ``udeprels``."""
        words = self.words
        return [c for c in self.children[i] if words[c].deprel.partition(":")[0] in udeprels]

    def first_conjunct(self, i: int) -> int:
        """The first conjunct of the coordination word ``i`` belongs to (``i`` itself if none)."""
        words = self.words
        while words[i].deprel == "conj" or words[i].deprel.startswith("conj:"):
            head = words[i].head
            if not head:
                break
            i = head
        return i

    def conjuncts(self, i: int) -> list[int]:
        """Words attached to ``i`` by basic ``conj`` (its later conjuncts)."""
        return self.kids(i, "conj")
