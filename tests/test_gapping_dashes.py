"""eud.gapping.dashes as tree repairs: switched by a package's gapping block, run by the parser, made into an empty node."""

from __future__ import annotations

from eud.conllu import parse_conllu
from eud.enhance.profiles import language_style
from eud.gapping.repair import REPAIRS, Evidence, Settings, repair_tree
from eud.gapping.rule import Gapping
from eud.pipeline import enhancer

# Both remnants of the gapped clause hang from the verb as conj, the dash that stands for it between them.
PARSED = """\
# text = Мама купила яблоки, а папа — груши.
1	Мама	мама	NOUN	_	Animacy=Anim|Case=Nom|Gender=Fem|Number=Sing	2	nsubj	_	_
2	купила	купить	VERB	_	Aspect=Perf|Gender=Fem|Mood=Ind|Number=Sing|Tense=Past|VerbForm=Fin|Voice=Act	0	root	_	_
3	яблоки	яблоко	NOUN	_	Animacy=Inan|Case=Acc|Gender=Neut|Number=Plur	2	obj	_	SpaceAfter=No
4	,	,	PUNCT	_	_	6	punct	_	_
5	а	а	CCONJ	_	_	6	cc	_	_
6	папа	папа	NOUN	_	Animacy=Anim|Case=Nom|Gender=Masc|Number=Sing	2	conj	_	_
7	—	—	PUNCT	_	_	8	punct	_	_
8	груши	груша	NOUN	_	Animacy=Inan|Case=Acc|Gender=Fem|Number=Plur	2	conj	_	SpaceAfter=No
9	.	.	PUNCT	_	_	2	punct	_	_

"""
DASH_REPAIRS = ["dash_remnants", "remnant_chains"]


def _enabled(settings: Settings) -> list[str]:
    return [name for name, _ in REPAIRS if settings.enabled(name)]


def test_the_second_remnant_becomes_an_orphan_and_the_rules_restore_one_verb():
    sentence = parse_conllu(PARSED)[0]
    settings = Settings(dash_remnants=True, remnant_chains=True)
    assert repair_tree(sentence, Gapping(copy_of=True, style=language_style("ru")), settings, Evidence([])) == 1
    assert [(w.head, w.deprel) for w in sentence.words] == [
        (2, "nsubj"), (0, "root"), (2, "obj"), (6, "punct"), (6, "cc"), (2, "conj"), (8, "punct"), (6, "orphan"),
        (2, "punct")]
    enhancer("ru").enhance(sentence)
    [empty] = sentence.empty_nodes
    assert (empty.major, empty.minor, empty.form, empty.lemma, empty.misc) == (7, 1, "купила", "купить", "CopyOf=2")
    # The gapped clause hangs on its restored verb: subject папа, object груши, the clause's , and а.
    assert [sentence.deps(node) for node in ((4, 0), (5, 0), (6, 0), (7, 1), (8, 0))] == [
        "7.1:punct", "7.1:cc", "7.1:nsubj", "0:root|2:conj", "7.1:obj"]


def test_the_dash_repairs_need_no_orphan_checks_and_run_after_the_undoing_ones():
    assert _enabled(Settings()) == []
    assert _enabled(Settings(dash_remnants=True, remnant_chains=True)) == DASH_REPAIRS
    assert _enabled(Settings(remnant_chains=True)) == ["remnant_chains"]
    # The rebuilds still wait for the orphan checks; the undoing repairs come first.
    assert _enabled(Settings(orphan_check=True, dash_remnants=True, bare_remnants=True)) == [
        "antecedents", "correlates", "dash_remnants", "bare_remnants"]
    without = parse_conllu(PARSED)[0]
    assert repair_tree(without, Gapping(), Settings(orphan_check=True), Evidence(["dep"] * 9)) == 0
    assert without.words[7].deprel == "conj"
