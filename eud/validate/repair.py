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
6. connectivity: the unreachable part of the graph is split into strongly
   connected components; each one with no edge coming in from the rest of the
   unreachable part gets one new incoming edge, which reconnects everything
   below it while keeping the edges already there.  The member attached is a
   word whose basic head is reachable (edge basic head → word with the basic
   relation, taken top-down in the basic tree), or an empty node, attached to
   the basic head of one of its dependents with that dependent's relation (the
   gapping pattern); failing both, the nearest reachable node up the basic-head
   chain (empty node ``7.1`` starts at word 7) as ``dep``, else the first
   dependent of the root.

It always ends with a rooted, connected graph without self-loops; DEPS order
and duplicates are handled by the writer and the edge set.  It never removes a
valid edge, so cycles away from the root (allowed in UD) are kept.
"""

from __future__ import annotations

from eud.graph import ROOT, NodeId, Sentence, format_id
from eud.validate.checks import UNIVERSAL_RELATIONS, label_problem, reachable


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
    reachable(sentence, dep, seen)
    done.append(f"connected {format_id(dep)}: added {_edge_text(head, dep, label)}")


def _strong_components(nodes: list[NodeId], succ: dict[NodeId, list[NodeId]]) -> list[list[NodeId]]:
    """Tarjan's strongly connected components, iteratively (no recursion limit)."""
    index: dict[NodeId, int] = {}
    low: dict[NodeId, int] = {}
    stack: list[NodeId] = []
    on_stack: set[NodeId] = set()
    out: list[list[NodeId]] = []
    for start in nodes:
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(succ[start]))]
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(succ[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    out.append(component)
    return out


def _direct_anchor(sentence: Sentence, node: NodeId, seen: set[NodeId]) -> tuple[NodeId, str] | None:
    """A reachable head for ``node`` from the basic tree, if there is one right now.

    A word takes its basic head.  An empty node takes the basic head of one of
    its enhanced dependents (in gapping, the remnant ``Lee`` is ``conj`` of the
    first verb, and the empty verb standing in for it should be too).
    """
    words = sentence.words
    if node[1] == 0:
        head = words[node[0] - 1].head
        if head is not None and (head, 0) in seen:
            return (head, 0), words[node[0] - 1].deprel
        return None
    for edge in sentence.enhanced.dependents(node):
        if edge.dep[1] == 0:
            word = words[edge.dep[0] - 1]
            if word.head is not None and (word.head, 0) in seen and (word.head, 0) != node:
                return (word.head, 0), word.deprel
    return None


def _fallback_anchor(sentence: Sentence, node: NodeId, seen: set[NodeId]) -> tuple[NodeId, str]:
    """The nearest reachable node up the basic-head chain (an empty node 7.1 starts at word 7)."""
    words = sentence.words
    current: int | None = node[0] if node[1] else words[node[0] - 1].head
    visited: set[int] = set()
    while current is not None and current not in visited and 0 <= current <= len(words):
        if (current, 0) in seen:
            return (current, 0), "dep"
        visited.add(current)
        current = words[current - 1].head if current else None
    first = sentence.enhanced.dependents(ROOT)
    return (first[0].dep if first else ROOT), "dep"


def _connect(sentence: Sentence, nodes: list[NodeId], done: list[str]) -> None:
    """Give each unreachable component with no way in one new incoming edge.

    Every unreachable node lies below some "source" strongly connected component
    of the unreachable part (one with no edge coming in from the rest of it), so
    one edge into each source connects everything while keeping the edges there.
    """
    seen: set[NodeId] = set()
    reachable(sentence, ROOT, seen)
    if len(seen) > len(nodes):
        return
    graph = sentence.enhanced
    lost = [node for node in nodes if node not in seen]
    succ = {node: [e.dep for e in graph.dependents(node) if e.dep not in seen] for node in lost}
    rank = {(wid, 0): i for i, wid in enumerate(_basic_top_down(sentence))}
    fallback_rank = len(rank)
    sources: list[list[NodeId]] = []
    for component in _strong_components(lost, succ):
        members = set(component)
        if all(h in members for node in component for h, _, _ in graph.heads(node)):
            # Preferred member first: words in basic top-down order, then the rest in file order.
            sources.append(sorted(component, key=lambda n: (rank.get(n, fallback_rank), n[1] != 0, n)))
    sources.sort(key=lambda c: (rank.get(c[0], fallback_rank), c[0][1] != 0, c[0]))
    while sources:
        for i, component in enumerate(sources):
            found = next(((m, a) for m in component if (a := _direct_anchor(sentence, m, seen))), None)
            if found:
                break
        else:
            i, component = 0, sources[0]
            found = (component[0], _fallback_anchor(sentence, component[0], seen))
        del sources[i]
        node, (head, label) = found
        _attach(sentence, head, node, label, seen, done)


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

