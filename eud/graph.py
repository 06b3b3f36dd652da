"""The eud data model: a UD sentence with its basic tree and its enhanced graph.

A node id is always a pair of ints: ``(0, 0)`` is the root, ``(7, 0)`` is word 7
and ``(7, 1)`` is the empty node written ``7.1``.  The basic tree lives on the
words (``Word.head`` / ``Word.deprel``); the enhanced graph is stored once, as
a set of :class:`Edge` objects held by :class:`EnhancedGraph`.  DEPS strings,
networkx views and collapsed views are all derived from those edges.

Every column is kept as the exact string that was read, so writing a sentence
back gives the bytes it came from (see :mod:`eud.conllu`).
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # pragma: no cover
    import networkx

NodeId = tuple[int, int]
ROOT: NodeId = (0, 0)


def format_id(node: NodeId) -> str:
    """Write a node id as CoNLL-U does: ``(7, 0)`` → ``"7"``, ``(7, 1)`` → ``"7.1"``."""
    major, minor = node
    return f"{major}.{minor}" if minor else str(major)


def parse_id(text: str) -> NodeId:
    """Read a word or empty-node id (``"7"`` or ``"7.1"``); raises ValueError otherwise."""
    major, dot, minor = text.partition(".")
    if not major.isdigit() or (dot and not minor.isdigit()):
        raise ValueError(f"bad node id {text!r}")
    node = (int(major), int(minor) if dot else 0)
    if dot and node[1] == 0:
        raise ValueError(f"bad empty node id {text!r}: the part after the dot starts at 1")
    return node


class Edge(NamedTuple):
    """One enhanced dependency: ``head`` governs ``dep`` with relation ``label``."""

    head: NodeId
    dep: NodeId
    label: str


def parse_feats(feats: str) -> dict[str, str]:
    """Turn a FEATS string into a dict (``"_"`` gives an empty dict)."""
    if feats == "_" or not feats:
        return {}
    out = {}
    for item in feats.split("|"):
        name, _, value = item.partition("=")
        out[name] = value
    return out


def format_feats(feats: dict[str, str]) -> str:
    """Write FEATS in UD order: sorted case-insensitively by name, ``_`` when empty."""
    if not feats:
        return "_"
    return "|".join(f"{k}={feats[k]}" for k in sorted(feats, key=str.lower))


@dataclass(slots=True, eq=False)
class Word:
    """A syntactic word: one line with an integer id."""

    id: int
    form: str = "_"
    lemma: str = "_"
    upos: str = "_"
    xpos: str = "_"
    feats: str = "_"
    head: int | None = None
    deprel: str = "_"
    misc: str = "_"

    @property
    def node(self) -> NodeId:
        """This word's node id."""
        return (self.id, 0)

    def feat(self, name: str) -> str | None:
        """The value of one morphological feature, or None."""
        if self.feats == "_":
            return None
        prefix = name + "="
        for item in self.feats.split("|"):
            if item.startswith(prefix):
                return item[len(prefix):]
        return None

    @property
    def udeprel(self) -> str:
        """The universal part of the basic relation (``obl`` for ``obl:tmod``)."""
        return self.deprel.partition(":")[0]


@dataclass(slots=True, eq=False)
class EmptyNode:
    """An empty node ``major.minor``: a word that is in the enhanced graph only."""

    major: int
    minor: int
    form: str = "_"
    lemma: str = "_"
    upos: str = "_"
    xpos: str = "_"
    feats: str = "_"
    misc: str = "_"
    # HEAD and DEPREL of empty nodes are "_" in valid files; kept verbatim.
    head: str = "_"
    deprel: str = "_"

    @property
    def node(self) -> NodeId:
        """This empty node's id."""
        return (self.major, self.minor)

    @property
    def id(self) -> str:
        """The id as written in the file (``"7.1"``)."""
        return f"{self.major}.{self.minor}"

    def feat(self, name: str) -> str | None:
        """The value of one morphological feature, or None."""
        return parse_feats(self.feats).get(name)


@dataclass(slots=True, eq=False)
class MultiwordToken:
    """A multiword token line ``first-last`` covering words first..last."""

    first: int
    last: int
    form: str = "_"
    # Columns 3-9 (LEMMA..DEPS) are almost always "_", kept verbatim.
    middle: tuple[str, ...] = ("_",) * 7
    misc: str = "_"

    @property
    def id(self) -> str:
        """The id as written in the file (``"3-4"``)."""
        return f"{self.first}-{self.last}"


class EnhancedGraph:
    """The enhanced graph: a set of edges, indexed both ways for fast lookup."""

    __slots__ = ("_in", "_out")

    def __init__(self, edges: Iterable[Edge] = ()) -> None:
        self._in: dict[NodeId, dict[tuple[NodeId, str], None]] = {}
        self._out: dict[NodeId, dict[tuple[NodeId, str], None]] = {}
        for edge in edges:
            self.add(*edge)

    def add(self, head: NodeId, dep: NodeId, label: str) -> None:
        """Add an edge (a no-op if it is already there)."""
        self._in.setdefault(dep, {})[(head, label)] = None
        self._out.setdefault(head, {})[(dep, label)] = None

    def remove(self, head: NodeId, dep: NodeId, label: str) -> None:
        """Remove an edge; raises KeyError if it is not there."""
        del self._in[dep][(head, label)]
        del self._out[head][(dep, label)]
        if not self._in[dep]:
            del self._in[dep]
        if not self._out[head]:
            del self._out[head]

    def discard(self, head: NodeId, dep: NodeId, label: str) -> None:
        """Remove an edge if it is there."""
        if self.has(head, dep, label):
            self.remove(head, dep, label)

    def has(self, head: NodeId, dep: NodeId, label: str | None = None) -> bool:
        """Whether the edge exists; with no label, whether any edge head→dep exists."""
        heads = self._in.get(dep)
        if not heads:
            return False
        if label is not None:
            return (head, label) in heads
        return any(h == head for h, _ in heads)

    def deps_cell(self, dep: NodeId) -> str:
        """The DEPS cell of ``dep``: its heads sorted by head id, then label."""
        heads = self._in.get(dep)
        if not heads:
            return "_"
        if len(heads) == 1:
            ((major, minor), label), = heads
            return f"{major}.{minor}:{label}" if minor else f"{major}:{label}"
        return format_deps(heads)

    def heads(self, dep: NodeId) -> list[Edge]:
        """Incoming edges of ``dep``, in insertion order."""
        return [Edge(h, dep, lab) for h, lab in self._in.get(dep, ())]

    def dependents(self, head: NodeId) -> list[Edge]:
        """Outgoing edges of ``head``, in insertion order."""
        return [Edge(head, d, lab) for d, lab in self._out.get(head, ())]

    def clear_heads(self, dep: NodeId) -> None:
        """Remove every incoming edge of ``dep``."""
        for edge in self.heads(dep):
            self.remove(*edge)

    def __iter__(self) -> Iterator[Edge]:
        for dep, heads in self._in.items():
            for head, label in heads:
                yield Edge(head, dep, label)

    def __len__(self) -> int:
        return sum(len(h) for h in self._in.values())

    def __contains__(self, edge: object) -> bool:
        return isinstance(edge, tuple) and len(edge) == 3 and self.has(*edge)

    def __bool__(self) -> bool:
        return bool(self._in)

    def edges(self) -> set[Edge]:
        """All edges as a set."""
        return set(self)

    def rename(self, mapping: dict[NodeId, NodeId]) -> None:
        """Rename nodes everywhere (used when empty nodes are renumbered)."""
        edges = [Edge(mapping.get(h, h), mapping.get(d, d), lab) for h, d, lab in self]
        self._in.clear()
        self._out.clear()
        for edge in edges:
            self.add(*edge)

    def copy(self) -> EnhancedGraph:
        """An independent copy."""
        return EnhancedGraph(self)


def format_deps(edges: Iterable[tuple[NodeId, str]]) -> str:
    """Write a DEPS cell from (head, label) pairs, sorted as UD requires."""
    items = sorted(edges)
    if not items:
        return "_"
    return "|".join(f"{format_id(h)}:{lab}" for h, lab in items)


@dataclass(slots=True, eq=False)
class Sentence:
    """One sentence: comments, words, multiword tokens, empty nodes and both layers."""

    comments: list[str] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    tokens: list[MultiwordToken] = field(default_factory=list)
    empty_nodes: list[EmptyNode] = field(default_factory=list)
    # An empty graph means the sentence has no enhanced layer: DEPS is "_".
    enhanced: EnhancedGraph = field(default_factory=EnhancedGraph)
    # Where the sentence came from, for error messages.
    source: str | None = None
    line: int | None = None

    # -- ids and lookup -------------------------------------------------

    def word(self, i: int) -> Word:
        """Word ``i`` (1-based, as in the file); IndexError naming the valid range otherwise."""
        # Checked, because words[i - 1] would quietly give the last word for i = 0.
        if not 1 <= i <= len(self.words):
            where = f"sentence {self.sent_id}" if self.sent_id else "this sentence"
            raise IndexError(f"no word {i}: {where} has words 1..{len(self.words)}")
        return self.words[i - 1]

    def node(self, node: NodeId) -> Word | EmptyNode:
        """The word or empty node with this id (not the root)."""
        major, minor = node
        if minor == 0:
            if major < 1:
                raise KeyError("the root is not a word")
            return self.words[major - 1]
        for empty in self.empty_nodes:
            if empty.major == major and empty.minor == minor:
                return empty
        raise KeyError(f"no empty node {format_id(node)}")

    def nodes(self) -> list[NodeId]:
        """Every word and empty node id, in file order."""
        out: list[NodeId] = []
        empties = sorted(self.empty_nodes, key=lambda e: e.node)
        k = 0
        for i in range(len(self.words) + 1):
            if i:
                out.append((i, 0))
            while k < len(empties) and empties[k].major == i:
                out.append(empties[k].node)
                k += 1
        return out

    @property
    def text(self) -> str | None:
        """The ``# text = ...`` comment, if any."""
        return self.get_comment("text")

    @property
    def sent_id(self) -> str | None:
        """The ``# sent_id = ...`` comment, if any."""
        return self.get_comment("sent_id")

    def get_comment(self, key: str) -> str | None:
        """The value of a ``# key = value`` comment, if any."""
        prefix = f"# {key} ="
        for line in self.comments:
            if line.startswith(prefix):
                return line[len(prefix):].strip()
        return None

    def set_comment(self, key: str, value: str) -> None:
        """Set (or add) a ``# key = value`` comment, keeping the others in place."""
        prefix = f"# {key} ="
        new = f"# {key} = {value}"
        for i, line in enumerate(self.comments):
            if line.startswith(prefix):
                self.comments[i] = new
                return
        self.comments.append(new)

    # -- the basic tree ---------------------------------------------------

    def basic_children(self) -> dict[int, list[int]]:
        """Children of every word in the basic tree, in word order (0 is the root)."""
        children: dict[int, list[int]] = {i: [] for i in range(len(self.words) + 1)}
        for w in self.words:
            if w.head is not None:
                children.setdefault(w.head, []).append(w.id)
        return children

    def basic_edges(self) -> list[Edge]:
        """The basic tree as edges."""
        return [Edge((w.head, 0), (w.id, 0), w.deprel) for w in self.words if w.head is not None]

    def copy_basic_to_enhanced(self) -> None:
        """Replace the enhanced graph with a copy of the basic tree."""
        self.enhanced = EnhancedGraph(self.basic_edges())
        self.empty_nodes = []

    # -- the enhanced graph -----------------------------------------------

    def deps(self, node: NodeId) -> str:
        """The DEPS cell of one node, derived from the edges."""
        return self.enhanced.deps_cell(node)

    def to_networkx(self) -> networkx.MultiDiGraph:
        """The enhanced graph as a networkx MultiDiGraph keyed by label.

        Nodes are ids (``(0, 0)`` the root, ``(5, 1)`` the empty node 5.1) with the
        columns ``form``, ``lemma``, ``upos``, ``xpos``, ``feats``, ``misc`` and
        ``empty`` (True on empty nodes) as attributes.  :func:`eud.collapse.collapsed_networkx`
        gives the graph with its empty nodes collapsed into path labels.
        """
        import networkx as nx

        graph = nx.MultiDiGraph()
        graph.add_node(ROOT)
        for node in self.nodes():
            item = self.node(node)
            graph.add_node(node, form=item.form, lemma=item.lemma, upos=item.upos, xpos=item.xpos, feats=item.feats,
                           misc=item.misc, empty=bool(node[1]))
        for head, dep, label in self.enhanced:
            graph.add_edge(head, dep, key=label, label=label)
        return graph

    def add_empty_node(self, after: int, minor: int | None = None, **columns: str) -> NodeId:
        """Insert an empty node after word ``after`` and return its id.

        With ``minor`` None it goes after the existing empty nodes there.  With a
        ``minor`` that is taken, the empty nodes from there on are renumbered
        (their edges follow), so numbering stays 1, 2, 3… as UD requires.
        """
        if not 0 <= after <= len(self.words):
            raise ValueError(f"no word {after} to put an empty node after")
        here = sorted((e for e in self.empty_nodes if e.major == after), key=lambda e: e.minor)
        if minor is None or minor > len(here):
            minor = len(here) + 1
        if minor < 1:
            raise ValueError("empty node numbers start at 1")
        mapping = {}
        for e in here:
            if e.minor >= minor:
                mapping[e.node] = (after, e.minor + 1)
        for e in reversed(here):
            if e.minor >= minor:
                e.minor += 1
        if mapping:
            self.enhanced.rename(mapping)
        self.empty_nodes.append(EmptyNode(after, minor, **columns))
        self.empty_nodes.sort(key=lambda e: e.node)
        return (after, minor)

    def remove_empty_node(self, node: NodeId) -> None:
        """Delete an empty node and its edges, renumbering the ones after it."""
        target = self.node(node)
        assert isinstance(target, EmptyNode)
        for edge in self.enhanced.heads(node) + self.enhanced.dependents(node):
            self.enhanced.discard(*edge)
        self.empty_nodes.remove(target)
        mapping = {}
        for e in self.empty_nodes:
            if e.major == node[0] and e.minor > node[1]:
                mapping[e.node] = (e.major, e.minor - 1)
                e.minor -= 1
        if mapping:
            self.enhanced.rename(mapping)

    def renumber_empty_nodes(self) -> None:
        """Make empty-node numbering 1, 2, 3… after each word, keeping order."""
        mapping: dict[NodeId, NodeId] = {}
        self.empty_nodes.sort(key=lambda e: e.node)
        counter: dict[int, int] = {}
        for e in self.empty_nodes:
            counter[e.major] = counter.get(e.major, 0) + 1
            if e.minor != counter[e.major]:
                mapping[e.node] = (e.major, counter[e.major])
                e.minor = counter[e.major]
        if mapping:
            self.enhanced.rename(mapping)

    def copy(self) -> Sentence:
        """A deep, independent copy."""
        return _copy.deepcopy(self)

    def __deepcopy__(self, memo: dict) -> Sentence:
        return Sentence(
            comments=list(self.comments),
            words=[_copy.copy(w) for w in self.words],
            tokens=[_copy.copy(t) for t in self.tokens],
            empty_nodes=[_copy.copy(e) for e in self.empty_nodes],
            enhanced=self.enhanced.copy(),
            source=self.source,
            line=self.line,
        )

    def where(self) -> str:
        """``file:line`` of the sentence, for messages."""
        return f"{self.source or '<input>'}:{self.line or '?'}"
