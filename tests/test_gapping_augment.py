"""Synthetic gapping (eud.gapping.augment) against hand-written expected trees."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from eud.conllu import format_sentence, read_conllu
from eud.gapping.augment import augment, gappable, promoted
from eud.nn.data import file_entries, read_entries, strip_enhanced

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_gapped_trees_match_the_expected_ones() -> None:
    # The subject is promoted over the object and the oblique; without a subject the
    # object is; cc and punct follow the promoted remnant; of three conjuncts the one whose
    # remnant (home: advmod) has no correlate on the first verb stays whole;
    # an auxiliary (has eaten) or a different verb (sells/buys) blocks the same-lemma gap.
    got = list(augment(read_conllu(FIXTURES / "gapping_augment_in.conllu")))
    expected = list(read_conllu(FIXTURES / "gapping_augment_expected.conllu"))
    assert [format_sentence(s) for s in got] == [format_sentence(s) for s in expected]


def test_any_verb_mode_gaps_different_verbs() -> None:
    sentences = list(read_conllu(FIXTURES / "gapping_augment_in.conllu"))
    other = next(s for s in sentences if s.sent_id == "other-verb")
    assert gappable(other) == []
    (gapped,) = augment([other], same_lemma=False)
    assert gapped.text == "Kim sells cars and Lee boats."
    assert [(w.form, w.head, w.deprel) for w in gapped.words[3:6]] == [
        ("and", 5, "cc"), ("Lee", 2, "conj"), ("boats", 5, "orphan")]


def test_promotion_order_follows_the_guidelines() -> None:
    sentences = list(read_conllu(FIXTURES / "gapping_augment_in.conllu"))
    books = next(s for s in sentences if s.sent_id == "books")
    remnants = [w for w in books.words if w.head == 8 and w.deprel in ("obj", "obl")]
    assert promoted(remnants).form == "pens"


def test_train_entries_strip_deps_and_repeat(tmp_path: Path) -> None:
    text = "1\tHi\thi\tINTJ\tUH\t_\t0\troot\t0:root|1.1:dep\t_\n1.1\tgo\tgo\tVERB\tVB\t_\t_\t_\t_\t_\n\n"
    assert strip_enhanced(text) == "1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\t_\n\n"
    path = tmp_path / "t.conllu"
    path.write_text(text)
    entries = file_entries([{"path": "t.conllu", "repeat": 3, "enhanced": False}], tmp_path, "train")
    got = read_entries(entries)
    assert len(got) == 3 and not got[0].enhanced and not got[0].empty_nodes
    with pytest.raises(ValueError, match="repeat"):
        file_entries([{"path": "t.conllu", "repeat": 0}], tmp_path, "train")
    with pytest.raises(ValueError, match="unknown key"):
        file_entries([{"path": "t.conllu", "oversample": 2}], tmp_path, "train")


def test_auxiliaries_are_elided_with_their_verb() -> None:
    sentences = list(read_conllu(FIXTURES / "gapping_augment_in.conllu"))
    aux = next(s for s in sentences if s.sent_id == "not-gappable")
    assert list(augment([aux])) == []
    (gapped,) = augment([aux], auxiliaries=True)
    # *has eaten* goes as a whole; Mary is promoted, pears hangs from her as orphan.
    assert gapped.text == "John has eaten apples and Mary pears and Sue slept."
    assert [(w.form, w.head, w.deprel) for w in gapped.words[4:8]] == [
        ("and", 6, "cc"), ("Mary", 3, "conj"), ("pears", 6, "orphan"), ("and", 10, "cc")]




def test_splice_gaps_a_second_sentence_onto_a_first_with_the_same_verb() -> None:
    from eud.gapping.augment import splice, spliced

    sentences = {s.sent_id: s for s in read_conllu(FIXTURES / "gapping_augment_in.conllu")}
    bank, shops = sentences["bank"], sentences["shops"]
    # *She went to the market.*: the same subject as *She went to the bank.*
    same = copy.deepcopy(bank)
    same.words[4].form = same.words[4].lemma = "market"
    out = splice(bank, shops)
    assert out is not None and out.text == "She went to the bank and Tom to the shops."
    # *has gone* is elided; Tom is promoted to conj of *went*, *shops* hangs from him as orphan.
    assert [(w.id, w.form, w.head, w.deprel) for w in out.words[5:]] == [
        (6, "and", 7, "cc"), (7, "Tom", 2, "conj"), (8, "to", 10, "case"), (9, "the", 10, "det"),
        (10, "shops", 7, "orphan"), (11, ".", 2, "punct")]
    # A remnant needs a correlate it contrasts with: *she* after *She* is not gapping.
    assert splice(bank, same) is None
    # A comma before the conjunction hangs from the promoted remnant too.
    comma = splice(bank, shops, (True, "but"))
    assert comma.text == "She went to the bank, but Tom to the shops."
    assert [(w.form, w.head, w.deprel) for w in comma.words[5:8]] == [(",", 8, "punct"), ("but", 8, "cc"), ("Tom", 2, "conj")]
    # Over a corpus each remnant source is used once, with the next antecedent of its verb that
    # it contrasts with, and the connectors taken in turn; a sentence-initial pronoun is lowered.
    assert [s.text for s in spliced([bank, shops, same])] == [
        "Tom has gone to the shops and she to the bank.",
        "She went to the market, and Tom to the shops.",
        "Tom has gone to the shops, but she to the market."]
