"""The data model: ids, the enhanced graph, empty nodes and copies."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from eud.conllu import format_sentence, read_conllu
from eud.graph import ROOT, Edge, EnhancedGraph, format_feats, format_id, parse_feats, parse_id


def demo():
    return next(iter(read_conllu(FIXTURES / "core_mixed.conllu")))


def test_ids():
    assert parse_id("7") == (7, 0) and parse_id("7.1") == (7, 1) and parse_id("0") == ROOT
    assert format_id((7, 0)) == "7" and format_id((12, 3)) == "12.3"
    for bad in ("7.0", "x", "7.", "-1"):
        with pytest.raises(ValueError):
            parse_id(bad)


def test_feats_round_trip_in_ud_order():
    feats = parse_feats("Number=Sing|Case=Nom|abbr=Yes")
    assert feats == {"Number": "Sing", "Case": "Nom", "abbr": "Yes"}
    assert format_feats(feats) == "abbr=Yes|Case=Nom|Number=Sing"
    assert parse_feats("_") == {} and format_feats({}) == "_"


def test_enhanced_graph_indexes_both_directions():
    graph = EnhancedGraph([Edge((0, 0), (2, 0), "root"), Edge((2, 0), (1, 0), "nsubj"), Edge((2, 0), (3, 0), "obj")])
    graph.add((3, 0), (1, 0), "nsubj:xsubj")
    graph.add((2, 0), (1, 0), "nsubj")  # already there: no duplicate
    assert len(graph) == 4
    assert [e.dep for e in graph.dependents((2, 0))] == [(1, 0), (3, 0)]
    assert {e.head for e in graph.heads((1, 0))} == {(2, 0), (3, 0)}
    assert graph.has((3, 0), (1, 0)) and not graph.has((1, 0), (3, 0))
    graph.remove((2, 0), (3, 0), "obj")
    assert graph.dependents((2, 0)) == [Edge((2, 0), (1, 0), "nsubj")]
    with pytest.raises(KeyError):
        graph.remove((2, 0), (3, 0), "obj")
    graph.clear_heads((1, 0))
    assert graph.heads((1, 0)) == [] and len(graph) == 1


def test_word_helpers():
    sentence = demo()
    mary = sentence.word(7)
    assert mary.feat("Number") == "Sing" and mary.feat("Case") is None
    assert sentence.word(4).udeprel == "root"
    assert sentence.basic_children()[4] == [1, 2, 3, 7, 9]
    assert sentence.node((8, 1)).misc == "CopyOf=4"


def test_add_empty_node_renumbers_and_keeps_edges():
    sentence = demo()
    new = sentence.add_empty_node(8, minor=1, form="went", upos="VERB")
    assert new == (8, 1)
    assert [(e.node, e.form) for e in sentence.empty_nodes] == [((8, 1), "went"), ((8, 2), "go")]
    # the old 8.1's edges moved to 8.2
    assert sentence.enhanced.heads((8, 2)) == [Edge((4, 0), (8, 2), "conj:and")]
    assert {e.head for e in sentence.enhanced.heads((7, 0))} == {(8, 2)}
    appended = sentence.add_empty_node(8, form="x")
    assert appended == (8, 3)
    sentence.remove_empty_node((8, 1))
    assert [e.node for e in sentence.empty_nodes] == [(8, 1), (8, 2)]
    assert sentence.enhanced.heads((8, 1)) == [Edge((4, 0), (8, 1), "conj:and")]


def test_copy_is_independent():
    sentence = demo()
    clone = sentence.copy()
    clone.word(1).form = "You"
    clone.enhanced.add((0, 0), (1, 0), "dep")
    clone.comments.append("# extra")
    clone.empty_nodes[0].form = "went"
    assert sentence.word(1).form == "I"
    assert not sentence.enhanced.has((0, 0), (1, 0))
    assert "# extra" not in sentence.comments
    assert sentence.empty_nodes[0].form == "go"
    assert format_sentence(sentence) == format_sentence(demo())


def test_copy_basic_and_networkx_view():
    sentence = demo()
    sentence.copy_basic_to_enhanced()
    assert not sentence.empty_nodes
    assert sentence.deps((8, 0)) == "7:orphan"
    graph = sentence.to_networkx()
    assert graph.number_of_edges() == 9 and graph.has_edge(ROOT, (4, 0))


def test_comments():
    sentence = demo()
    sentence.set_comment("text", "changed")
    sentence.set_comment("newkey", "v")
    assert sentence.text == "changed" and sentence.comments[-1] == "# newkey = v"
    assert sentence.get_comment("missing") is None
