"""Hand-over to the conllu and udapi libraries keeps every byte."""

from __future__ import annotations

from conftest import FIXTURES

from eud.conllu import format_sentence, read_conllu
from eud.interop import from_tokenlist, from_udapi_document, to_tokenlist, to_udapi_document


def sentences():
    return list(read_conllu(FIXTURES / "core_mixed.conllu"))


def test_conllu_tokenlist_round_trip():
    first = sentences()[0]
    tokenlist = to_tokenlist(first)
    assert tokenlist.metadata["sent_id"] == "demo-1"
    assert [t["form"] for t in tokenlist][:3] == ["I", "won't", "wo"]
    assert format_sentence(from_tokenlist(tokenlist)) == format_sentence(first)


def test_udapi_round_trip_keeps_empty_nodes_and_tokens():
    original = sentences()
    document = to_udapi_document(original)
    tree = document.bundles[0].get_tree()
    assert [n.form for n in tree.empty_nodes] == ["go"]
    assert tree.descendants[6].form == "Mary"
    back = from_udapi_document(document)
    assert [format_sentence(s) for s in back] == [format_sentence(s) for s in original]
