"""Between udapi trees and eud sentences: read a tree's words, write eud's annotation back.

A udapi tree becomes an eud :class:`~eud.graph.Sentence` through its CoNLL-U
rows (words and multiword tokens; no comments, no DEPS and no empty nodes,
which eud's enhancer and parser replace anyway).  Writing back touches only
what eud predicted: the enhanced graph goes into ``node.deps`` as udapi's
list of ``{"parent": node, "deprel": label}`` dicts, empty nodes are rebuilt
in ``root.empty_nodes``, and :func:`write_basic` sets the tagging columns and
the basic tree.  udapi keeps empty-node positions as floats (8.1); positions
from x.10 on are udapi's ``OrdTuple``, since 8.10 as a float would be 8.1.
"""

from __future__ import annotations

from typing import Any

from eud.conllu import parse_conllu
from eud.graph import MultiwordToken, NodeId, Sentence, format_deps
from eud.spaces import token_lines


def _cell(value: Any) -> str:
    text = "_" if value is None else str(value)
    return text or "_"


def to_sentence(root: Any) -> Sentence:
    """An eud sentence of a udapi tree's words and multiword tokens (its basic tree included)."""
    rows: list[str] = []
    done_mwt = 0
    for node in root.descendants:
        mwt = node.multiword_token
        if mwt is not None and node.ord > done_mwt:
            rows.append("\t".join([mwt.ord_range, _cell(mwt.form), "_", "_", "_", "_", "_", "_", "_",
                                   _cell(mwt.misc)]))
            done_mwt = mwt.words[-1].ord
        head = node.parent.ord if node.parent is not None else "_"
        rows.append("\t".join([str(node.ord), _cell(node.form), _cell(node.lemma), _cell(node.upos),
                               _cell(node.xpos), _cell(node.feats), str(head), _cell(node.deprel), "_",
                               _cell(node.misc)]))
    where = f"<udapi tree {root.address()}>"
    (sentence,) = parse_conllu("\n".join(rows) + "\n\n", name=where)
    return sentence


def _empty_ord(major: int, minor: int) -> Any:
    if minor < 10:
        return float(f"{major}.{minor}")
    from udapi.core.node import OrdTuple

    try:
        return OrdTuple(f"{major}.{minor}")
    except NameError:  # udapi 0.5.2's OrdTuple calls re.match without importing re
        made = OrdTuple.__new__(OrdTuple)
        made._key = (major, minor)  # what its constructor would have set
        return made


def write_enhanced(root: Any, sentence: Sentence) -> None:
    """Replace the tree's empty nodes and every node's ``deps`` by the sentence's enhanced graph."""
    words = root.descendants
    nodes: dict[NodeId, Any] = {(0, 0): root}
    nodes.update(((node.ord, 0), node) for node in words)
    root.empty_nodes = []
    for empty in sentence.empty_nodes:
        made = root.create_empty_child(form=empty.form, lemma=empty.lemma, upos=empty.upos, xpos=empty.xpos,
                                       feats=empty.feats, misc=empty.misc)
        made._ord = _empty_ord(empty.major, empty.minor)  # udapi's own reader sets it the same way
        nodes[empty.node] = made
    deps: dict[NodeId, list[dict[str, Any]]] = {node: [] for node in nodes if node != (0, 0)}
    for head, dep, label in sorted(sentence.enhanced):
        deps[dep].append({"parent": nodes[head], "deprel": label})
    if any(empty.minor >= 10 for empty in sentence.empty_nodes):
        # udapi's OrdTuple (x.10 on) is unhashable, so udapi cannot serialize a deps list that points
        # at one: hand it the DEPS column as text, which its writer prints as it is.
        for node_id in deps:
            nodes[node_id].raw_deps = format_deps((h, label) for h, d, label in sentence.enhanced if d == node_id)
        return
    for node_id, node_deps in deps.items():
        nodes[node_id].deps = node_deps


def write_basic(root: Any, sentence: Sentence) -> None:
    """Set LEMMA, UPOS, XPOS, FEATS, HEAD and DEPREL of the tree's words from the sentence."""
    words = root.descendants
    for node in words:
        node.parent = root  # a flat tree first: re-hanging in place could pass through a cycle
    for node, word in zip(words, sentence.words):
        node.lemma, node.upos, node.xpos = word.lemma, word.upos, word.xpos
        node.feats = word.feats
        node.deprel = word.deprel
        if word.head:
            node.parent = words[word.head - 1]


def add_words(root: Any, sentence: Sentence) -> None:
    """Create a node for each of the sentence's words under ``root`` (a tree without words yet),
    with FORM and MISC, and its multiword tokens."""
    for line in token_lines(sentence):
        if isinstance(line, MultiwordToken):
            words = [root.create_child(form=sentence.word(i).form, misc=sentence.word(i).misc)
                     for i in range(line.first, line.last + 1)]
            root.create_multiword_token(words, form=line.form, misc=line.misc)
        else:
            root.create_child(form=line.form, misc=line.misc)
