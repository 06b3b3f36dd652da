"""Scores for empty nodes themselves, before they are collapsed away (not an official metric).

The official scores see empty nodes only through collapsed path labels.  Here
the empty nodes of gold and system are compared directly:

* an empty node's *position* is the word it follows (``8.1`` follows word 8;
  ``0.1`` comes before the first word of its sentence) plus its rank among the
  empty nodes there; a system empty node matches the gold one at the same
  rank after the gold word its word is aligned to (:mod:`eud.evaluate.align`);
* ``EmptyNodes``: precision/recall/F1 of matched empty nodes;
* ``EmptyEdges``: enhanced edges with an empty node at either end, correct
  when both ends match (words by alignment, empty nodes as above, the root
  with the root) and the labels are equal; ``EmptyUEdges`` ignores labels.

An empty node whose preceding word is not aligned cannot match.
"""

from __future__ import annotations

from collections import Counter

from eud.evaluate.data import ScoringFile
from eud.evaluate.metrics import Score
from eud.graph import NodeId, Sentence

Key = tuple
# The scores, in the order they are printed.
EMPTY_NODE_METRICS = ("EmptyNodes", "EmptyEdges", "EmptyUEdges")


def _positions(file: ScoringFile, to_gold: list[int] | None) -> tuple[Counter, Counter, Counter]:
    """Matched-position multisets of empty nodes, labelled edges and unlabelled edges.

    ``to_gold`` maps this file's word indices to gold ones (None: this is gold).
    Unmatchable items get a unique key so they still count in the totals.
    """
    nodes: Counter = Counter()
    edges: Counter = Counter()
    uedges: Counter = Counter()
    for number, sentence in sorted(file.with_empty_nodes.items()):
        offset = file.sent_first_word[number]
        keys = _node_keys(sentence, offset, to_gold, number)
        for empty in sentence.empty_nodes:
            nodes[keys[empty.node]] += 1
        for head, dep, label in sentence.enhanced:
            if head[1] == 0 and dep[1] == 0:
                continue
            h, d = keys[head], keys[dep]
            edges[(h, d, label)] += 1
            uedges[(h, d)] += 1
    return nodes, edges, uedges


def _node_keys(sentence: Sentence, offset: int, to_gold: list[int] | None, number: int) -> dict[NodeId, Key]:
    keys: dict[NodeId, Key] = {(0, 0): ("root",)}
    for w in sentence.words:
        g = offset + w.id - 1
        if to_gold is not None:
            g = to_gold[g]
        keys[w.node] = ("w", g) if g >= 0 else ("unaligned", id(sentence), w.id)
    for empty in sentence.empty_nodes:
        if empty.major:
            anchor = keys[(empty.major, 0)]
            slot: Key = ("after", anchor[1]) if anchor[0] == "w" else ("unaligned-empty", id(sentence), empty.node)
        else:
            first = keys[(1, 0)]
            slot = ("before", first[1]) if first[0] == "w" else ("unaligned-empty", id(sentence), empty.node)
        keys[empty.node] = ("e", slot, empty.minor)
    return keys


def empty_node_scores(gold: ScoringFile, system: ScoringFile, alignment: list[int]) -> dict[str, Score]:
    """EmptyNodes, EmptyEdges and EmptyUEdges scores (empty when neither file has empty nodes)."""
    if not gold.with_empty_nodes and not system.with_empty_nodes:
        return {}
    g_nodes, g_edges, g_uedges = _positions(gold, None)
    s_nodes, s_edges, s_uedges = _positions(system, alignment)
    out = {}
    sides = ((g_nodes, s_nodes), (g_edges, s_edges), (g_uedges, s_uedges))
    for name, (g, s) in zip(EMPTY_NODE_METRICS, sides):
        out[name] = Score(sum((g & s).values()), sum(g.values()), sum(s.values()))
    return out
