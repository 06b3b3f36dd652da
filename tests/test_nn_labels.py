"""Delexicalised enhanced labels: obl:in ↔ obl:[case], conj:and ↔ conj:[cc]."""

from __future__ import annotations

from eud.conllu import read_conllu
from eud.nn.labels import delexicalise, delexicalise_graph, relexicalise


def _sentences(fixtures):
    return {s.sent_id: s for s in read_conllu(fixtures / "parser_tiny.conllu")}


def test_delexicalise_fixture_labels(fixtures) -> None:
    sents = _sentences(fixtures)
    assert delexicalise("obl:on", sents["s1"], 6) == "obl:[case]"
    assert delexicalise("conj:and", sents["s2"], 3) == "conj:[cc]"
    assert delexicalise("advcl:if", sents["s8"], 3) == "advcl:[case]"
    # "from trees and roofs": the second conjunct borrows the first one's marker.
    assert delexicalise("obl:from", sents["s7"], 6) == "obl:[case]"
    # No marker, or a marker that does not match: the label stays lexical.
    assert delexicalise("obl:with", sents["s1"], 6) == "obl:with"
    assert delexicalise("nsubj:xsubj", sents["s4"], 1) == "nsubj:xsubj"
    assert delexicalise("acl:relcl", sents["s5"], 4) == "acl:relcl"


def test_relexicalise_inverts_delexicalise(fixtures) -> None:
    for s in _sentences(fixtures).values():
        for head, dep, label in s.enhanced:
            if head[1] or dep[1]:
                continue
            assert relexicalise(delexicalise(label, s, dep[0]), s, dep[0]) == label


def test_relexicalise_without_marker_drops_the_placeholder(fixtures) -> None:
    s = _sentences(fixtures)["s1"]
    assert relexicalise("obl:[case]", s, 2) == "obl"
    assert relexicalise("conj:[cc]", s, 2) == "conj"


def test_graph_leaves_out_empty_nodes(fixtures) -> None:
    s = _sentences(fixtures)["s6"]
    edges = delexicalise_graph(s)
    assert all(not h[1] and not d[1] for h, d, _ in edges)
    assert ((2, 0), (3, 0), "obj") in edges
