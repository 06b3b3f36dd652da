"""eud.nn.orphans: orphan survives only where a predicate can have been elided."""

from __future__ import annotations

from conftest import FIXTURES

from eud.conllu import read_conllu
from eud.enhance.gapping import Gapping
from eud.nn.orphans import demote_orphans, demote_without_correlates

FALLBACK = {"rather": "advmod", "work": "obl", "pears": "obj", "cook": "obj", "these": "nmod"}


def _sentence(sent_id: str):
    return next(s for s in read_conllu(FIXTURES / "orphans_parser.conllu") if sent_id in s.comments[0])


def _demoted(sent_id: str) -> list[str]:
    sentence = _sentence(sent_id)
    fallback = ["conj" if w.deprel == "orphan" else w.deprel for w in sentence.words]
    demote_orphans(sentence, fallback)
    return [w.deprel for w in sentence.words]


def _without_correlates(sent_id: str) -> tuple[int, list[str]]:
    sentence = _sentence(sent_id)
    fallback = [FALLBACK.get(w.form, w.deprel) for w in sentence.words]
    changed = demote_orphans(sentence, fallback)
    changed += demote_without_correlates(sentence, fallback, Gapping(language="en"))
    return changed, [w.deprel for w in sentence.words]


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


def test_remnants_with_correlates_keep_their_orphans():
    # Lee contrasts with Kim, pears with apples; Bo with Ann (cook has none, but Bo does).
    assert _without_correlates("gap-verb") == (0, ["nsubj", "root", "obj", "cc", "conj", "orphan", "punct"])
    assert _without_correlates("gap-copula")[1][7] == "orphan"
    assert _without_correlates("gap-misattached")[1][5] == "orphan"


def test_two_remnants_without_correlates_are_no_gapping():
    # Neither *rather* nor *dumpy* contrasts with a dependent of *clean*.
    changed, deprels = _without_correlates("no-correlates")
    assert changed == 1 and deprels[6] == "advmod"


def test_a_promoted_remnant_without_correlate_undoes_a_two_remnant_clause():
    # *work* matches *home* (both with *at*), but the verb *sleeps* contrasts with nothing.
    changed, deprels = _without_correlates("promoted-without-correlate")
    assert changed == 1 and deprels[7] == "obl"


def test_a_conjunct_of_an_argument_needs_correlates_for_every_other_remnant():
    # *bugs* is a conjunct of the object *rocks*; *in these* contrasts with nothing of *put*.
    changed, deprels = _without_correlates("conjunct-of-an-argument")
    assert _demoted("conjunct-of-an-argument")[6] == "orphan"  # the antecedent check lets it through
    assert changed == 1 and deprels[6] == "nmod"
