"""A language whose treebanks spell the enhanced graph differently (eud/enhance/conventions.py)."""

from __future__ import annotations

import pytest

from eud.conllu import parse_conllu
from eud.enhance import Enhancer, find_profile
from eud.enhance.conventions import Conventions
from eud.enhance.profiles import ProfileError, profile_from_dict

# "Pies płynie w wodzie ." with its oblique as pl_lfg and pl_pdb would label it in the basic tree.
PLAIN = """# sent_id = plain
# text = Pies płynie w wodzie.
1	Pies	pies	NOUN	_	Case=Nom	2	nsubj	_	_
2	płynie	płynąć	VERB	_	_	0	root	_	_
3	w	w	ADP	_	AdpType=Prep	4	case	_	_
4	wodzie	woda	NOUN	_	Case=Loc	2	obl	_	SpaceAfter=No
5	.	.	PUNCT	_	_	2	punct	_	_

"""
MARKED = PLAIN.replace("sent_id = plain", "sent_id = marked").replace("\t2\tobl\t", "\t2\tobl:arg\t")


def _obl_label(sentence) -> str:
    return next(label for head, dep, label in sentence.enhanced if dep == (4, 0))


def test_choose_by_share_of_marked_sentences_in_the_window():
    conv = Conventions("lfg", "pdb", frozenset({"obl:arg"}), share=0.5, window=1)
    rels = [{"obl"}, {"obl:arg"}, {"obl:arg"}, {"obl"}, {"obl"}, {"obl"}]
    # windows: [0,1] 1/2, [0..2] 2/3, [1..3] 2/3, [2..4] 1/3, [3..5] 0, [4,5] 0
    assert conv.choose(rels) == ["pdb", "pdb", "pdb", "lfg", "lfg", "lfg"]
    assert Conventions("lfg", "pdb", frozenset({"obl:arg"}), 0.15, 0).choose([{"obl"}, {"obl:arg"}]) == ["lfg", "pdb"]


def test_polish_text_without_pdb_relations_gets_case_marked_labels():
    enhancer = Enhancer(find_profile("pl"))
    plain = [parse_conllu(PLAIN)[0] for _ in range(3)]
    assert [_obl_label(s) for s in enhancer.enhance_all(plain)] == ["obl:w"] * 3


def test_polish_text_with_pdb_relations_keeps_plain_labels_even_where_a_sentence_has_none():
    enhancer = Enhancer(find_profile("pl"))
    text = [parse_conllu(MARKED)[0], parse_conllu(PLAIN)[0], parse_conllu(MARKED)[0]]
    assert [_obl_label(s) for s in enhancer.enhance_all(text)] == ["obl:arg", "obl", "obl:arg"]
    # Alone, the plain sentence is judged by itself: the guidelines' case-marked label.
    assert _obl_label(enhancer.enhance(parse_conllu(PLAIN)[0])) == "obl:w"
    # The stream gives the same as the list.
    again = [parse_conllu(MARKED)[0], parse_conllu(PLAIN)[0], parse_conllu(MARKED)[0]]
    assert [_obl_label(s) for s in enhancer.enhance_stream(iter(again))] == ["obl:arg", "obl", "obl:arg"]


def test_pdb_relations_in_text_that_follows_pl_lfg_are_written_as_pl_lfg_writes_them():
    # One stray pl_pdb relation among plain sentences: the text follows pl_lfg, which never uses
    # obl:arg, so the oblique gets pl_lfg's case-marked label, not obl:arg.
    enhancer = Enhancer(find_profile("pl"))
    text = [parse_conllu(PLAIN)[0] for _ in range(5)] + [parse_conllu(MARKED)[0]]
    assert [_obl_label(s) for s in enhancer.enhance_all(text)] == ["obl:w"] * 6
    assert _obl_label(Enhancer(find_profile("pl_pdb")).enhance(parse_conllu(MARKED)[0])) == "obl:arg"


def test_treebank_profiles_do_not_inherit_the_choice():
    assert find_profile("pl").conventions is not None
    assert find_profile("pl_lfg").conventions is None and find_profile("pl_pdb").conventions is None


@pytest.mark.parametrize("table, says", [
    ({"default": "a", "marked": "b", "relations": ["x"], "share": 0.2}, "lacks window"),
    ({"default": "a", "marked": "b", "relations": [], "share": 0.2, "window": 3}, "non-empty list"),
    ({"default": "a", "marked": "b", "relations": ["x"], "share": 2, "window": 3}, "share must be"),
    ({"default": "a", "marked": "b", "relations": ["x"], "share": 0.2, "window": -1}, "window must be"),
])
def test_a_bad_conventions_table_is_a_profile_error_naming_the_key(table, says):
    with pytest.raises(ProfileError, match=says):
        profile_from_dict({"conventions": table}, "xx")


def test_estonian_web_text_gets_the_et_ewt_convention():
    # Among 201 sentences, 5% with discourse/vocative/dep mark et_ewt's web text; fewer leave et_edt's.
    enhancer = Enhancer(find_profile("et"))
    chatty = [{"root", "discourse"} if i % 10 == 0 else {"root", "nsubj"} for i in range(201)]
    plain = [{"root", "discourse"} if i % 40 == 0 else {"root", "nsubj"} for i in range(201)]
    assert {e.profile.name for e in enhancer.choose(chatty)} == {"et_ewt"}
    assert {e.profile.name for e in enhancer.choose(plain)} == {"et_edt"}
