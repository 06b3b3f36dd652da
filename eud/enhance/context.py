"""Per-sentence lookups shared by the enhancer rules, computed once per sentence.

Rules read the basic tree through a :class:`Context` (children lists, conjunct
chains) and write to ``sentence.enhanced``.  Nothing here is language-specific.
"""

from __future__ import annotations

from eud.graph import NodeId, Sentence, Word
from eud.validate.checks import label_problem

_GOOD_LABELS: set[str] = set()


def label_ok(label: str) -> bool:
    """Whether an enhanced label is well formed (cached: few distinct labels exist)."""
    if label in _GOOD_LABELS:
        return True
    if label_problem(label) is None:
        _GOOD_LABELS.add(label)
        return True
    return False


def basic_tree_ok(sentence: Sentence) -> bool:
    """Whether every word has a head and the heads form one tree under the root."""
    words = sentence.words
    state = [0] * (len(words) + 1)  # 0 unseen, 1 on the current path, 2 reaches the root
    state[0] = 2
    for w in words:
        path = []
        i = w.id
        while state[i] == 0:
            state[i] = 1
            path.append(i)
            head = words[i - 1].head
            if head is None:
                return False
            i = head
        if state[i] == 1:
            return False  # a cycle
        for j in path:
            state[j] = 2
    return True


class Context:
    """The basic tree of one sentence, indexed for the rules."""

    __slots__ = ("children", "conj_words", "marker_source", "risky", "sentence", "words")

    def __init__(self, sentence: Sentence) -> None:
        self.sentence = sentence
        # words[0] is a stand-in for the root so that words[i] is word i.
        self.words: list[Word] = [Word(0, "<root>", "<root>", "ROOT", deprel="root")] + sentence.words
        children: list[list[int]] = [[] for _ in self.words]
        conj_words = []
        for w in sentence.words:
            if w.head is not None:
                children[w.head].append(w.id)
            if w.deprel.startswith("conj"):
                conj_words.append(w.id)
        # words attached by basic conj, in order: most sentences have none
        self.conj_words = conj_words
        self.children = children
        # (head, dep) of an enhanced edge -> word whose case/mark dependents name it,
        # when that is not the dependent itself (relative pronouns).
        self.marker_source: dict[tuple[NodeId, NodeId], int] = {}
        # set by a rule that removed edges or made a label it could not vouch for:
        # the sentence then gets the full validity check
        self.risky = False

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
