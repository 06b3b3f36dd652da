"""Repair an enhanced graph so that it passes UD validation (levels 2 and the root rules of 3).

:func:`repair_sentence` is called on every sentence eud writes, so it is cheap
on valid graphs (one pass over the edges and one traversal).  What it does, in
order:

1. empty nodes: ``_`` in HEAD/DEPREL, numbering 1, 2, 3… after each word;
2. no enhanced graph at all: copy the basic tree;
3. drop self-loops and edges to or from nodes that are not in the sentence;
4. labels: a malformed or non-UD label becomes its universal part, or ``dep``;
   edges from the root are labelled ``root`` and ``root`` is used nowhere else;
5. the root: with no edge from the root, the basic root word gets one;
6. connectivity: every word unreachable from the root is attached to its basic
   head (with the basic relation), top-down in the basic tree, so one pass
   suffices when the basic tree is a tree.  Whatever is still unreachable
   (empty nodes, words under a broken basic tree) is attached by the top of its
   unreachable component to the nearest reachable node on the basic-head chain
   (an empty node ``7.1`` starts from word 7), else to the first dependent of
   the root, as ``dep``.

It always ends with a rooted, connected graph without self-loops; DEPS order
and duplicates are handled by the writer and the edge set.  It never removes a
valid edge, so cycles away from the root (allowed in UD) are kept.
"""

from __future__ import annotations

from eud.graph import ROOT, NodeId, Sentence, format_id
from eud.validate import UNIVERSAL_RELATIONS, label_problem


def _edge_text(head: NodeId, dep: NodeId, label: str) -> str:
    return f"{format_id(head)}→{format_id(dep)} ({label})"


def _clean_label(label: str, head: NodeId) -> str:
    """A valid label for an edge from ``head``, as close to ``label`` as possible."""
    if label_problem(label) is not None:
        udeprel = label.partition(":")[0].lower()
        label = udeprel if udeprel in UNIVERSAL_RELATIONS else "dep"
    udeprel = label.partition(":")[0]
    if head == ROOT:
        return "root"
    if udeprel == "root":
        return "dep"
    return label


def _fix_empty_nodes(sentence: Sentence, done: list[str]) -> None:
    n_words = len(sentence.words)
    for empty in sentence.empty_nodes:
        if empty.head != "_" or empty.deprel != "_":
            done.append(f"set HEAD and DEPREL of empty node {empty.id} to _")
            empty.head = empty.deprel = "_"
    mapping: dict[NodeId, NodeId] = {}
    for empty in sentence.empty_nodes:
        if not 0 <= empty.major <= n_words:
            new_major = min(max(empty.major, 0), n_words)
            done.append(f"moved empty node {empty.id} after word {new_major}")
            # A temporary minor beyond any real one; renumbering below makes it final.
            new = (new_major, 10_000 + len(mapping))
            mapping[empty.node] = new
            empty.major, empty.minor = new
    if mapping:
        sentence.enhanced.rename(mapping)
    before = [e.node for e in sorted(sentence.empty_nodes, key=lambda e: e.node)]
    sentence.renumber_empty_nodes()
    after = [e.node for e in sentence.empty_nodes]
    if before != after:
        done.append("renumbered empty nodes " + ", ".join(format_id(n) for n in before)
                    + " as " + ", ".join(format_id(n) for n in after))


def _fix_edges(sentence: Sentence, known: set[NodeId], done: list[str]) -> None:
    graph = sentence.enhanced
    for edge in list(graph):
        head, dep, label = edge
        if head == dep:
            graph.remove(*edge)
            done.append(f"dropped self-loop {_edge_text(*edge)}")
        elif head not in known or dep not in known:
            graph.remove(*edge)
            done.append(f"dropped edge {_edge_text(*edge)} to or from a node not in the sentence")
        else:
            clean = _clean_label(label, head)
            if clean != label:
                graph.remove(*edge)
                graph.add(head, dep, clean)
                done.append(f"relabelled {_edge_text(*edge)} as {clean}")


def _ensure_root(sentence: Sentence, done: list[str]) -> None:
    graph = sentence.enhanced
    if graph.dependents(ROOT) or not sentence.words:
        return
    candidates = [w.id for w in sentence.words if w.head == 0]
    candidates += [w.id for w in sentence.words if not graph.heads(w.node)]
    top = (candidates[0] if candidates else 1, 0)
    graph.add(ROOT, top, "root")
    done.append(f"added root edge {_edge_text(ROOT, top, 'root')}")


def _extend(sentence: Sentence, seen: set[NodeId], start: NodeId) -> None:
    """Add ``start`` and everything below it in the enhanced graph to ``seen``."""
    graph = sentence.enhanced
    seen.add(start)
    stack = [start]
    while stack:
        for edge in graph.dependents(stack.pop()):
            if edge.dep not in seen:
                seen.add(edge.dep)
                stack.append(edge.dep)


def _basic_top_down(sentence: Sentence) -> list[int]:
    """Word ids in breadth-first order down the basic tree (words under a cycle are left out)."""
    children = sentence.basic_children()
    order: list[int] = []
    queue = [0]
    visited = {0}
    for parent in queue:
        for child in children.get(parent, ()):
            if child not in visited:
                visited.add(child)
                order.append(child)
                queue.append(child)
    return order


def _attach(sentence: Sentence, head: NodeId, dep: NodeId, label: str, seen: set[NodeId], done: list[str]) -> None:
    label = _clean_label(label, head)
    sentence.enhanced.add(head, dep, label)
    _extend(sentence, seen, dep)
    done.append(f"attached unreachable {format_id(dep)}: added {_edge_text(head, dep, label)}")


def _component_top(sentence: Sentence, node: NodeId, seen: set[NodeId]) -> NodeId:
    """Walk up enhanced heads from an unreachable node to the top of its component."""
    graph = sentence.enhanced
    visited = {node}
    while True:
        # Every head of an unreachable node is itself unreachable.
        up = [h for h, _, _ in graph.heads(node) if h not in visited]
        if not up:
            return node
        node = up[0]
        visited.add(node)


def _anchor(sentence: Sentence, top: NodeId, seen: set[NodeId]) -> tuple[NodeId, str]:
    """The reachable node to hang ``top`` from, and the label, preferring the basic-head chain."""
    words = sentence.words
    start = top[0] if top[1] else (words[top[0] - 1].head if top[0] >= 1 else 0)
    label = words[top[0] - 1].deprel if top[1] == 0 and top[0] >= 1 else "dep"
    current = start
    visited: set[int] = set()
    while current is not None and current not in visited and current <= len(words):
        if (current, 0) in seen and (current, 0) != top:
            return (current, 0), label
        visited.add(current)
        if current == 0:
            break
        current = words[current - 1].head
        label = "dep"
    first = sentence.enhanced.dependents(ROOT)
    return (first[0].dep if first else ROOT), "dep"


def _connect(sentence: Sentence, nodes: list[NodeId], done: list[str]) -> None:
    seen = set()
    _extend(sentence, seen, ROOT)
    if len(seen) > len(nodes):
        return
    words = sentence.words
    for wid in _basic_top_down(sentence):
        node = (wid, 0)
        head = words[wid - 1].head
        if node not in seen and (head, 0) in seen:
            _attach(sentence, (head, 0), node, words[wid - 1].deprel, seen, done)
    for node in nodes:
        if node not in seen:
            top = _component_top(sentence, node, seen)
            head, label = _anchor(sentence, top, seen)
            _attach(sentence, head, top, label, seen, done)


def repair_sentence(sentence: Sentence) -> list[str]:
    """Make the enhanced graph valid in place; returns a description of each change (empty if none)."""
    done: list[str] = []
    if sentence.empty_nodes:
        _fix_empty_nodes(sentence, done)
    if not sentence.enhanced:
        if sentence.empty_nodes:
            done.append("dropped empty nodes that had no enhanced edges")
        sentence.copy_basic_to_enhanced()
        done.append("copied the basic tree into the empty enhanced graph")
    nodes = sentence.nodes()
    known = set(nodes)
    known.add(ROOT)
    _fix_edges(sentence, known, done)
    _ensure_root(sentence, done)
    _connect(sentence, nodes, done)
    return done

