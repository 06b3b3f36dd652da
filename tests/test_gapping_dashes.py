"""eud.gapping.dashes as tree repairs: switched by a package's gapping block, run by the parser, made into an empty node."""

from __future__ import annotations

import json

import pytest

from eud.conllu import parse_conllu
from eud.enhance.profiles import language_style
from eud.gapping.repair import REPAIRS, Evidence, Settings, SettingsError, repair_tree
from eud.gapping.rule import Gapping
from eud.pipeline import enhancer
from tests.conftest import REPO

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


def test_the_package_block_switches_them():
    shipped = json.loads((REPO / "models" / "ru_agrr" / "config.json").read_text(encoding="utf-8"))
    assert _enabled(Settings.from_config(shipped)) == DASH_REPAIRS
    assert _enabled(Settings.from_config({"language": "ru"})) == []
    with pytest.raises(SettingsError, match="remnant_chains"):
        Settings.from_config({"gapping": {"remnant_chains": "yes"}})


def _package_without_block(tmp_path):
    """models/ru_agrr with its config's gapping block taken out (the weights linked, not copied)."""
    source = REPO / "models" / "ru_agrr"
    for path in source.iterdir():
        (tmp_path / path.name).symlink_to(path)
    config = json.loads((source / "config.json").read_text(encoding="utf-8"))
    del config["gapping"]
    (tmp_path / "config.json").unlink()
    (tmp_path / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return tmp_path


def test_the_parser_runs_the_repairs_its_package_names(tmp_path):
    pytest.importorskip("torch")
    from eud.agrr.tokens import sentence_from_text
    from eud.pipeline import Pipeline

    text = "Производство возросло на 16,4% (в 2004 г. — на 16,7%)."
    shipped = Pipeline.load(REPO / "models" / "ru_agrr", graph_mode="rules", threads=1)
    plain = Pipeline.load(_package_without_block(tmp_path), graph_mode="rules", threads=1)
    assert _enabled(shipped.predictor.repairs) == DASH_REPAIRS
    assert _enabled(plain.predictor.repairs) == []
    # The parser reads the bracket's year as an oblique and the remnant after the dash as a conjunct of the verb.
    [without] = plain.parse_sentences([sentence_from_text(text)[0]])
    assert without.empty_nodes == []
    assert [(w.form, w.head, w.deprel) for w in without.words if w.deprel in ("conj", "orphan")] == [("%", 2, "conj")]
    [repaired] = shipped.parse_sentences([sentence_from_text(text)[0]])
    assert [(w.form, w.head, w.deprel) for w in repaired.words if w.deprel in ("conj", "orphan")] == [
        ("г", 2, "conj"), ("%", 9, "orphan")]
    assert [(e.form, e.misc) for e in repaired.empty_nodes] == [("возросло", "CopyOf=2")]
    # Switched off in the parser, as eval.agrr.cache does for the cross-validation: the parser's tree as it is.
    before = shipped.predictor.set_repairs(dash_remnants=False, remnant_chains=False)
    try:
        [again] = shipped.parse_sentences([sentence_from_text(text)[0]])
    finally:
        shipped.predictor.gapping_settings = before
    assert again.empty_nodes == []
    assert [(w.form, w.head, w.deprel) for w in again.words if w.deprel in ("conj", "orphan")] == [("%", 2, "conj")]
    with pytest.raises(ValueError, match="orphan_check"):
        shipped.predictor.set_repairs(orphan_check=True)
