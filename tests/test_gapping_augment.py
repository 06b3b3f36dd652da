"""Synthetic gapping (eud.gapping_augment) against hand-written expected trees."""

from __future__ import annotations

from pathlib import Path

import pytest

from eud.conllu import format_sentence, read_conllu
from eud.gapping_augment import augment, gappable, promoted
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


SPLICE_IN = """\
# sent_id = bank
# text = She went to the bank.
1\tShe\tshe\tPRON\tPRP\t_\t2\tnsubj\t_\t_
2\twent\tgo\tVERB\tVBD\t_\t0\troot\t_\t_
3\tto\tto\tADP\tIN\t_\t5\tcase\t_\t_
4\tthe\tthe\tDET\tDT\t_\t5\tdet\t_\t_
5\tbank\tbank\tNOUN\tNN\t_\t2\tobl\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_

# sent_id = shops
# text = Tom has gone to the shops.
1\tTom\tTom\tPROPN\tNNP\t_\t3\tnsubj\t_\t_
2\thas\thave\tAUX\tVBZ\t_\t3\taux\t_\t_
3\tgone\tgo\tVERB\tVBN\t_\t0\troot\t_\t_
4\tto\tto\tADP\tIN\t_\t6\tcase\t_\t_
5\tthe\tthe\tDET\tDT\t_\t6\tdet\t_\t_
6\tshops\tshop\tNOUN\tNNS\t_\t3\tobl\t_\tSpaceAfter=No
7\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_

# sent_id = same-subject
# text = She went to the market.
1\tShe\tshe\tPRON\tPRP\t_\t2\tnsubj\t_\t_
2\twent\tgo\tVERB\tVBD\t_\t0\troot\t_\t_
3\tto\tto\tADP\tIN\t_\t5\tcase\t_\t_
4\tthe\tthe\tDET\tDT\t_\t5\tdet\t_\t_
5\tmarket\tmarket\tNOUN\tNN\t_\t2\tobl\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_

"""


def test_splice_gaps_a_second_sentence_onto_a_first_with_the_same_verb() -> None:
    from eud.conllu import parse_conllu
    from eud.gapping_augment import splice, spliced

    bank, shops, same = parse_conllu(SPLICE_IN)
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
