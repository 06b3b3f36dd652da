"""Collapse empty nodes into path labels, as the IWPT shared tasks did before scoring.

This reimplements the semantics of ``enhanced_collapse_empty_nodes.pl`` from
the UD ``tools`` repository (the official preprocessing step of the IWPT 2020
and 2021 evaluation): every path in the enhanced graph that starts at a
non-empty node (a word or the root), runs through one or more empty nodes and
ends at a non-empty node becomes a single edge whose label is the labels along
the path joined by ``>`` (``5 -conj-> 8.1 -nsubj-> 9`` gives ``9``'s DEPS entry
``5:conj>nsubj``).  Then the empty nodes and every edge touching them are
removed.  Edges between two non-empty nodes are kept as they are.

Details that follow the official script, so scores match it:

* paths are grown from both ends with a worklist; a partial path that visits
  the same node twice is not grown further (so cycles through empty nodes
  terminate), but a finished path may begin and end at the same word, which
  gives a self-loop edge;
* an empty node with no parent, or with no children, contributes nothing;
* the result is a set: the same (head, dependent, label) is added once.

The basic tree, words, multiword tokens and comments are unchanged; words are
not renumbered.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from eud.graph import Edge, EnhancedGraph, NodeId, Sentence

if TYPE_CHECKING:
    import networkx

# A path alternates nodes and labels: (node, label, node, label, ..., node).
Path = tuple


def _is_empty(node: NodeId) -> bool:
    return node[1] != 0


def collapsed_edges(sentence: Sentence) -> list[Edge]:
    """The enhanced edges of ``sentence`` with every empty-node path collapsed (no copy made)."""
    graph = sentence.enhanced
    if not sentence.empty_nodes:
        return list(graph)
    edges: list[Path] = []
    # Same order as the official script (nodes by id, each node's DEPS in file
    # order), which only matters for the rare cycles through empty nodes.
    for node in sentence.nodes():
        for head, _, label in graph.heads(node):
            edges.append((head, label, node))
    finished = [e for e in edges if not _is_empty(e[0]) and not _is_empty(e[-1])]
    from_empty = deque(e for e in edges if _is_empty(e[0]))
    into_empty = [e for e in edges if _is_empty(e[-1])]
    seen_from = set(from_empty)
    seen_into = set(into_empty)
    while from_empty:
        tail = from_empty.popleft()
        # A snapshot, as in the original: paths added below are not combined
        # with this tail (they are combined when their own tail comes up).
        for head_part in [p for p in into_empty if p[-1] == tail[0]]:
            path = head_part[:-1] + tail
            if not _is_empty(path[0]) and not _is_empty(path[-1]):
                finished.append(path)
                continue
            nodes = path[0::2]
            if len(set(nodes)) != len(nodes):
                continue
            if _is_empty(path[0]) and path not in seen_from:
                from_empty.append(path)
                seen_from.add(path)
            if _is_empty(path[-1]) and path not in seen_into:
                into_empty.append(path)
                seen_into.add(path)
    out: dict[Edge, None] = {}
    for path in finished:
        out[Edge(path[0], path[-1], ">".join(path[1::2]))] = None
    return list(out)


def collapse_empty_nodes(sentence: Sentence) -> Sentence:
    """A new sentence without empty nodes, paths through them collapsed into labels like ``conj>nsubj``."""
    result = sentence.copy()
    if sentence.empty_nodes:
        result.enhanced = EnhancedGraph(collapsed_edges(sentence))
        result.empty_nodes = []
    return result


def collapsed_networkx(sentence: Sentence) -> networkx.MultiDiGraph:
    """The enhanced graph with its empty nodes collapsed into path labels (``conj>nsubj``), as networkx.

    The counterpart of :meth:`eud.graph.Sentence.to_networkx`, which keeps the empty nodes.
    """
    return (collapse_empty_nodes(sentence) if sentence.empty_nodes else sentence).to_networkx()
