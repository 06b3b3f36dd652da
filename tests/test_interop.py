"""Hand-over to the conllu and udapi libraries and to networkx: every byte kept, or a named warning."""

from __future__ import annotations

import warnings

import pytest
from conftest import FIXTURES

from eud.collapse import collapsed_networkx
from eud.conllu import format_sentence, parse_conllu, read_conllu
from eud.interop import InteropWarning, from_tokenlist, from_udapi_document, to_tokenlist, to_udapi_document


def rows(*lines: str) -> str:
    return "\n".join(line.replace(" | ", "\t") for line in lines) + "\n\n"


# A sentence-initial empty node (the elided subject of "Went home.").
INITIAL = "# sent_id = initial\n# text = Went home.\n" + rows(
    "0.1 | he | he | PRON | PRP | Case=Nom | _ | _ | 1:nsubj | _",
    "1 | Went | go | VERB | VBD | Tense=Past | 0 | root | 0:root | _",
    "2 | home | home | ADV | RB | _ | 1 | advmod | 1:advmod | SpaceAfter=No",
    "3 | . | . | PUNCT | . | _ | 1 | punct | 1:punct | _",
)
# Two consecutive empty nodes, one the head of the other: "and Mary [wants to eat] a pear".
NESTED = "# sent_id = nested\n# text = Peter wants to eat an apple and Mary a pear.\n" + rows(
    "1 | Peter | Peter | PROPN | NNP | Number=Sing | 2 | nsubj | 2:nsubj|4:nsubj:xsubj | _",
    "2 | wants | want | VERB | VBZ | Number=Sing | 0 | root | 0:root | _",
    "3 | to | to | PART | TO | _ | 4 | mark | 4:mark | _",
    "4 | eat | eat | VERB | VB | VerbForm=Inf | 2 | xcomp | 2:xcomp | _",
    "5 | an | a | DET | DT | _ | 6 | det | 6:det | _",
    "6 | apple | apple | NOUN | NN | Number=Sing | 4 | obj | 4:obj | _",
    "7 | and | and | CCONJ | CC | _ | 8 | cc | 8.1:cc | _",
    "8 | Mary | Mary | PROPN | NNP | Number=Sing | 2 | conj | 8.1:nsubj|8.2:nsubj:xsubj | _",
    "8.1 | wants | want | VERB | VBZ | Number=Sing | _ | _ | 2:conj:and | CopyOf=2",
    "8.2 | eat | eat | VERB | VB | VerbForm=Inf | _ | _ | 8.1:xcomp | CopyOf=4",
    "9 | a | a | DET | DT | _ | 10 | det | 10:det | _",
    "10 | pear | pear | NOUN | NN | Number=Sing | 8 | orphan | 8.2:obj | SpaceAfter=No",
    "11 | . | . | PUNCT | . | _ | 2 | punct | 2:punct | _",
)
# A multiword token whose second word is copied by an empty node: "and he ['s eating] pears".
MWT = "# newdoc id = d1\n# newpar\n# sent_id = mwt\n# text = She's eating apples and he pears.\n" + rows(
    "1-2 | She's | _ | _ | _ | _ | _ | _ | _ | _",
    "1 | She | she | PRON | PRP | Case=Nom | 3 | nsubj | 3:nsubj | _",
    "2 | 's | be | AUX | VBZ | _ | 3 | aux | 3:aux | _",
    "3 | eating | eat | VERB | VBG | VerbForm=Part | 0 | root | 0:root | _",
    "4 | apples | apple | NOUN | NNS | Number=Plur | 3 | obj | 3:obj | _",
    "5 | and | and | CCONJ | CC | _ | 6 | cc | 6.2:cc | _",
    "6 | he | he | PRON | PRP | Case=Nom | 3 | conj | 6.2:nsubj | _",
    "6.1 | 's | be | AUX | VBZ | _ | _ | _ | 6.2:aux | CopyOf=2",
    "6.2 | eating | eat | VERB | VBG | VerbForm=Part | _ | _ | 3:conj:and | CopyOf=3",
    "7 | pears | pear | NOUN | NNS | Number=Plur | 6 | orphan | 6.2:obj | SpaceAfter=No",
    "8 | . | . | PUNCT | . | _ | 3 | punct | 3:punct | _",
)
TEXT = MWT + INITIAL + NESTED


def test_the_fixtures_are_valid_at_level_two(tmp_path):
    from eud.commands.validate import main

    (tmp_path / "in.conllu").write_text(TEXT, encoding="utf-8")
    assert main(["--level", "2", "-q", str(tmp_path / "in.conllu")]) == 0


def test_conllu_tokenlist_round_trip():
    first = next(read_conllu(FIXTURES / "core_mixed.conllu"))
    tokenlist = to_tokenlist(first)
    assert tokenlist.metadata["sent_id"] == "demo-1"
    assert [t["form"] for t in tokenlist][:3] == ["I", "won't", "wo"]
    assert format_sentence(from_tokenlist(tokenlist)) == format_sentence(first)


def test_conllu_library_holds_initial_nested_empty_nodes_and_multiword_tokens():
    with warnings.catch_warnings():
        warnings.simplefilter("error", InteropWarning)
        lists = [to_tokenlist(s) for s in parse_conllu(TEXT)]
    mwt, initial, nested = lists
    assert initial[0]["id"] == (0, ".", 1)
    assert [t["id"] for t in nested if isinstance(t["id"], tuple)] == [(8, ".", 1), (8, ".", 2)]
    assert nested[9]["deps"] == [("xcomp", (8, ".", 1))]  # 8.2's head is the empty node 8.1
    assert mwt[0]["id"] == (1, "-", 2) and mwt[0]["form"] == "She's"
    assert "".join(format_sentence(from_tokenlist(t)) for t in lists) == TEXT


def test_conllu_library_losses_are_named():
    text = "# sent_id = lossy\n# a note without an equals sign\n# text = Go\n" + rows(
        "1 | Go | go | VERB | VB | Mood=Imp | 0 | root | 0:root | Gloss=a=b")
    (sentence,) = parse_conllu(text)
    with pytest.warns(InteropWarning) as caught:
        tokenlist = to_tokenlist(sentence)
    assert len(caught) == 1
    warning = caught[0].message
    assert warning.library == "conllu" and warning.sent_id == "lossy"
    assert (warning.expected, warning.got) == ("# a note without an equals sign", "# text = Go")
    assert "sentence lossy" in str(warning)
    assert "Gloss=a\n" in tokenlist.serialize()  # the MISC value cut at its "=": the second loss


def test_udapi_round_trip_keeps_empty_nodes_and_tokens():
    original = list(read_conllu(FIXTURES / "core_mixed.conllu"))
    document = to_udapi_document(original)
    tree = document.bundles[0].get_tree()
    assert [n.form for n in tree.empty_nodes] == ["go"]
    assert tree.descendants[6].form == "Mary"
    back = from_udapi_document(document)
    assert [format_sentence(s) for s in back] == [format_sentence(s) for s in original]


def test_udapi_keeps_a_sentence_initial_empty_node_nested_ones_and_multiword_tokens():
    with warnings.catch_warnings():
        warnings.simplefilter("error", InteropWarning)
        document = to_udapi_document(parse_conllu(TEXT))
    mwt, initial, nested = (bundle.get_tree() for bundle in document.bundles)
    # udapi-python issue #53 (0.1 dropped) is fixed in the installed udapi: the node is there, before word 1.
    (zero,) = initial.empty_nodes
    assert (zero.ord, zero.form) == (0.1, "he")
    assert [(d["parent"].form, d["deprel"]) for d in zero.deps] == [("Went", "nsubj")]
    assert [(n.ord, n.form) for n in nested.empty_nodes] == [(8.1, "wants"), (8.2, "eat")]
    assert [(d["parent"].ord, d["deprel"]) for d in nested.empty_nodes[1].deps] == [(8.1, "xcomp")]
    assert mwt.descendants[0].multiword_token.form == "She's"
    assert [n.ord for n in mwt.empty_nodes] == [6.1, 6.2]
    # Reading every node's deps turns udapi's DEPS text into its own objects, which it writes back from.
    for tree in (mwt, initial, nested):
        for node in tree.descendants_and_empty:
            node.deps.sort(key=lambda d: d["deprel"], reverse=True)
    assert "".join(format_sentence(s) for s in from_udapi_document(document)) == TEXT


def test_udapi_losses_are_named():
    # udapi reads an empty node's id as a float: 1.10 becomes 1.1, a second 1.1.
    empties = [f"1.{k} | x{k} | x | PRON | PRP | _ | _ | _ | 1:obj | _" for k in range(1, 11)]
    text = "# sent_id = ten-empties\n# text = Go\n" + rows(
        "1 | Go | go | VERB | VB | _ | 0 | root | 0:root | _", *empties)
    sentences = parse_conllu(text) + parse_conllu(INITIAL)
    with pytest.warns(InteropWarning) as caught:
        to_udapi_document(sentences)
    assert [(w.message.library, w.message.sent_id) for w in caught] == [("udapi", "ten-empties")]
    # udapi sorts its 1.1 (read from 1.10) after the real 1.1: the first changed line is where 1.2 was.
    assert caught[0].message.expected.startswith("1.2\tx2\t") and caught[0].message.got.startswith("1.1\tx10\t")


def test_networkx_full_and_collapsed():
    (sentence,) = parse_conllu(NESTED)
    full = sentence.to_networkx()
    assert full.number_of_nodes() == 14  # the root, 11 words, 2 empty nodes
    assert full.nodes[(8, 2)] == {"form": "eat", "lemma": "eat", "upos": "VERB", "xpos": "VB",
                                  "feats": "VerbForm=Inf", "misc": "CopyOf=4", "empty": True}
    assert full.has_edge((8, 1), (8, 2), key="xcomp") and full.has_edge((8, 2), (10, 0), key="obj")
    collapsed = collapsed_networkx(sentence)
    assert collapsed.number_of_nodes() == 12 and not any(empty for _, empty in collapsed.nodes(data="empty"))
    edges = set(collapsed.edges(keys=True))
    assert ((2, 0), (10, 0), "conj:and>xcomp>obj") in edges  # wants -> [wants] -> [eat] -> pear
    assert {e for e in edges if e[1] == (8, 0)} == {((2, 0), (8, 0), "conj:and>nsubj"),
                                                    ((2, 0), (8, 0), "conj:and>xcomp>nsubj:xsubj")}
    assert ((2, 0), (7, 0), "conj:and>cc") in edges
    assert collapsed.number_of_edges() == full.number_of_edges() - 2  # edges into 8.1 and 8.2 are gone
    (initial,) = parse_conllu(INITIAL)
    assert collapsed_networkx(initial).number_of_nodes() == 4  # 0.1 has no head: nothing left of it
