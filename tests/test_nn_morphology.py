"""FEATS limited to the sets the treebank has seen (eud.nn.morphology), alone and in the shipped English model."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from eud.conllu import parse_conllu
from eud.nn.morphology import MIN_COUNT, FeatsChoice, build_table, main, write_feats
from eud.nn.vocab import Vocab

REPO = Path(__file__).resolve().parents[1]

SHE = "Case=Nom|Gender=Fem|Number=Sing|Person=3|PronType=Prs"
HER_ACC = "Case=Acc|Gender=Fem|Number=Sing|Person=3|PronType=Prs"
HER_POSS = "Case=Gen|Gender=Fem|Number=Sing|Person=3|Poss=Yes|PronType=Prs"
SING, PLUR = "Number=Sing", "Number=Plur"


def sentence(*words: tuple[str, str, str]) -> str:
    """A CoNLL-U sentence of (form, UPOS, FEATS) words, all hanging from the first."""
    rows = [f"{i}\t{form}\t_\t{upos}\t_\t{feats}\t{0 if i == 1 else 1}\t{'root' if i == 1 else 'dep'}\t_\t_"
            for i, (form, upos, feats) in enumerate(words, 1)]
    return "\n".join(rows) + "\n\n"


def training() -> list:
    """She sees her book (MIN_COUNT times), her once as an object, and a noun that is rare."""
    text = sentence(("She", "PRON", SHE), ("reads", "VERB", "VerbForm=Fin"), ("her", "PRON", HER_POSS),
                    ("books", "NOUN", PLUR)) * MIN_COUNT
    text += sentence(("Ann", "PROPN", SING), ("saw", "VERB", "VerbForm=Fin"), ("her", "PRON", HER_ACC))
    text += sentence(("Ann", "PROPN", SING), ("bought", "VERB", "VerbForm=Fin|Typo=Yes"), ("a", "DET", "_"),
                     ("pear", "NOUN", SING))
    return parse_conllu(text)


@pytest.fixture
def vocab() -> Vocab:
    # The classifier's table: every set seen, plus one (Typo=Yes) that no pronoun or noun took.
    return Vocab(["_", SING, PLUR, SHE, HER_ACC, HER_POSS, "VerbForm=Fin", "VerbForm=Fin|Typo=Yes", "Typo=Yes"])


def test_table_keeps_closed_class_forms_seen_often_and_every_upos():
    table = build_table(training())
    values = table["values"]
    forms = {upos: {f: sorted(values[i] for i in ids) for f, ids in fs.items()} for upos, fs in table["forms"].items()}
    # "she" was seen MIN_COUNT times, "her" MIN_COUNT + 1 times with two sets; "a" only once.
    assert forms == {"PRON": {"she": [SHE], "her": sorted([HER_ACC, HER_POSS])}}
    upos = {tag: sorted(values[i] for i in ids) for tag, ids in table["upos"].items()}
    assert upos["NOUN"] == sorted([SING, PLUR]) and upos["DET"] == ["_"]
    assert upos["VERB"] == ["VerbForm=Fin", "VerbForm=Fin|Typo=Yes"]


def test_choice_keeps_the_best_allowed_set(vocab):
    choice = FeatsChoice(build_table(training()), vocab)
    typo = vocab.index["Typo=Yes"]
    she = np.zeros(len(vocab), dtype=np.float32)
    she[typo], she[vocab.index[SHE]] = 5.0, 1.0
    # The classifier's best (Typo=Yes) was never seen with "she": its best allowed set wins.
    assert choice.choose("she", "PRON", she) == SHE
    assert choice.choose("She", "PRON", she) == SHE  # forms are looked up lowercased
    her = np.zeros(len(vocab), dtype=np.float32)
    her[typo], her[vocab.index[HER_ACC]], her[vocab.index[HER_POSS]] = 5.0, 2.0, 3.0
    assert choice.choose("her", "PRON", her) == HER_POSS
    her[vocab.index[HER_ACC]] = 4.0
    assert choice.choose("her", "PRON", her) == HER_ACC
    # A noun takes a set some noun took: never "_" or Typo=Yes.
    pear = np.zeros(len(vocab), dtype=np.float32)
    pear[vocab.index["_"]], pear[typo], pear[vocab.index[SING]] = 6.0, 5.0, 1.0
    assert choice.choose("pear", "NOUN", pear) == SING
    # An open-class form is never constrained by itself, only by its UPOS: a set verbs took stays.
    verb = np.zeros(len(vocab), dtype=np.float32)
    verb[vocab.index["VerbForm=Fin|Typo=Yes"]] = 2.0
    assert choice.choose("reads", "VERB", verb) == "VerbForm=Fin|Typo=Yes"
    # A UPOS the treebank never had: the classifier's own best stands.
    assert choice.choose("hm", "INTJ", pear) == "_"


def test_sets_missing_from_the_classifier_table_are_ignored():
    # The classifier knows neither of her sets: nothing is allowed, so its own best stands.
    choice = FeatsChoice(build_table(training()), Vocab(["_", "Typo=Yes"]))
    assert choice.choose("her", "PRON", np.array([0.0, 1.0], dtype=np.float32)) == "Typo=Yes"


def test_file_round_trip_one_table_per_language(tmp_path, vocab):
    write_feats(tmp_path, training(), "en")
    write_feats(tmp_path, parse_conllu(sentence(("ona", "PRON", SHE)) * MIN_COUNT), "cs")
    data = json.loads((tmp_path / "feats.json").read_text(encoding="utf-8"))
    assert data["format"] == "eud-feats/1" and sorted(data["languages"]) == ["cs", "en"]
    en, cs = FeatsChoice.load(tmp_path, vocab, "en"), FeatsChoice.load(tmp_path, vocab, "cs")
    assert set(en.forms["PRON"]) == {"she", "her"} and set(cs.forms["PRON"]) == {"ona"}
    assert FeatsChoice.load(tmp_path, vocab, "sk") is None and FeatsChoice.load(tmp_path, vocab) is None
    assert FeatsChoice.load(tmp_path / "nothing", vocab) is None
    # A broken file is a clear error naming it, never a KeyError or a JSON traceback.
    for text, problem in (('{"format": "other"}', "unknown format 'other'"), ("[1]", "unknown format None"),
                          ('{"format": "eud-feats/1", "values": []}', "no 'feats' table"), ("{", "not a JSON file")):
        (tmp_path / "feats.json").write_text(text, encoding="utf-8")
        with pytest.raises(ValueError, match=f"feats.json: {problem}"):
            FeatsChoice.load(tmp_path, vocab)


def test_command_writes_the_file_and_refuses_a_folder_without_a_model(fixtures, tmp_path, capsys):
    assert main([str(tmp_path), str(fixtures / "segment_train.conllu")]) == 2
    assert "not a model package" in capsys.readouterr().err
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    assert main([str(tmp_path), str(fixtures / "segment_train.conllu")]) == 0
    assert json.loads((tmp_path / "feats.json").read_text(encoding="utf-8"))["feats"]["upos"]["NOUN"]


def test_shipped_english_model_gives_gapped_pronouns_their_case():
    """*He loves her, and she him*: the remnants' cases pair them with *He* and *her*, not crosswise."""
    pytest.importorskip("torch")
    import eud

    assert (REPO / "models" / "en_ewt" / "feats.json").is_file(), "models/en_ewt/feats.json is missing"
    doc = eud.load(REPO / "models" / "en_ewt", threads=1)("He loves her, and she him. John ate an apple and Mary a pear.")
    first, second = doc.sentences
    words = {w.form: w for w in first.words}
    assert words["she"].feats == SHE
    assert words["him"].feats == "Case=Acc|Gender=Masc|Number=Sing|Person=3|PronType=Prs"
    (empty,) = first.empty_nodes
    node = (empty.major, empty.minor)
    assert [label for head, _, label in first.enhanced.heads((words["she"].id, 0)) if head == node] == ["nsubj"]
    assert [label for head, _, label in first.enhanced.heads((words["him"].id, 0)) if head == node] == ["obj"]
    words = {w.form: w for w in second.words}
    assert words["a"].feats == "Definite=Ind|PronType=Art" and words["pear"].feats == SING


def test_parse_with_a_broken_feats_file_is_a_clear_error(tmp_path, capsys):
    """A package whose feats.json lost its table: ``eud parse`` names the file and stops, no traceback."""
    pytest.importorskip("torch")
    import shutil

    from eud.cli import main as eud_main

    package = tmp_path / "en"
    shutil.copytree(REPO / "models" / "en_ewt", package)
    (package / "feats.json").write_text('{"format": "eud-feats/1"}', encoding="utf-8")
    text = tmp_path / "in.txt"
    text.write_text("He loves her.\n", encoding="utf-8")
    assert eud_main(["parse", "--model", str(package), str(text), "-o", str(tmp_path / "out.conllu"), "-q"]) == 1
    assert capsys.readouterr().err.strip() == f"eud parse: {package / 'feats.json'}: no 'feats' table"
    assert not (tmp_path / "out.conllu").exists()
