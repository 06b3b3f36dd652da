"""eud.nn.orphans: orphan survives only where a predicate can have been elided."""

from __future__ import annotations

from conftest import FIXTURES

from eud.conllu import read_conllu
from eud.nn.orphans import demote_orphans


def _demoted(sent_id: str) -> list[str]:
    sentence = next(s for s in read_conllu(FIXTURES / "orphans_parser.conllu") if sent_id in s.comments[0])
    fallback = ["conj" if w.deprel == "orphan" else w.deprel for w in sentence.words]
    demote_orphans(sentence, fallback)
    return [w.deprel for w in sentence.words]


def test_gapping_under_a_verb_keeps_its_orphan():
    assert _demoted("gap-verb")[5] == "orphan"


def test_remnant_hung_on_the_object_of_a_verb_with_a_subject_keeps_its_orphan():
    assert _demoted("gap-misattached")[5] == "orphan"


def test_copular_clause_counts_as_a_predicate():
    assert _demoted("gap-copula")[7] == "orphan"


def test_noun_list_loses_its_orphan_to_the_fallback():
    assert _demoted("noun-list") == ["root", "case", "det", "nmod", "cc", "conj", "case", "det", "conj", "punct"]


def test_remnant_that_is_no_conjunct_loses_its_orphan():
    assert _demoted("remnant-not-conjunct")[4] == "conj"
