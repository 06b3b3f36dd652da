"""Issue 11, item 2: abbreviations in the sentence splitter, the lemma lexicon and its guard, multilingual segmenters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from eud.conllu import format_sentence, read_conllu
from eud.nn.lemma import edit_script
from eud.nn.lexicon import Lemmatizer, build_lexicon, write_lexicon
from eud.segment.abbreviations import Abbreviations, stem_of
from eud.segment.segmenter import Segmenter

REPO = Path(__file__).resolve().parents[1]
EN = REPO / "models" / "en_ewt"


pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def english() -> Segmenter:
    return Segmenter.load(EN / "segmenter")


def sentences(seg: Segmenter, text: str) -> list[str]:
    return [" ".join(w.form for w in s.words) for s in seg.segment(text)]


# -- the splitter -------------------------------------------------------------


@pytest.mark.parametrize("text, words", [
    ("The meeting is on Jan. 5 in Boston.", "The meeting is on Jan. 5 in Boston ."),
    ("This was shown by Smith et al. (2005) in a study.", "This was shown by Smith et al. ( 2005 ) in a study ."),
    ("See Fig. 3 for the results.", "See Fig. 3 for the results ."),
    ("He lives at No. 5 Main Street.", "He lives at No. 5 Main Street ."),
])
def test_abbreviation_before_a_number_or_bracket_ends_no_sentence(english, text, words):
    assert sentences(english, text) == [words]


def test_without_the_list_the_model_alone_cuts_there(english):
    # The same examples split without abbreviations.json: what the list fixes.
    learnt, english.abbreviations = english.abbreviations, None
    try:
        assert sentences(english, "See Fig. 3 for the results.") == ["See Fig .", "3 for the results ."]
    finally:
        english.abbreviations = learnt


def test_real_sentence_ends_still_split(english):
    assert sentences(english, "I live in the U.S. The weather is fine.") == ["I live in the U.S.", "The weather is fine ."]
    assert sentences(english, "I saw him. Then he left.") == ["I saw him .", "Then he left ."]


def test_learnt_from_english_training_data():
    data = json.loads((EN / "segmenter" / "abbreviations.json").read_text(encoding="utf-8"))
    for stem in ("Dr", "Mr", "Jan", "U.S", "e.g"):
        assert stem in data["abbreviations"]
    assert "etc" not in data["abbreviations"]  # "etc." ends more sentences than it continues


def test_learning_counts_split_off_periods_and_ordinals(fixtures):
    abbr = Abbreviations.learn(read_conllu(fixtures / "segment_train_cs.conllu"))
    assert abbr.counts["atd"] == [2, 0]
    assert abbr.counts["#"] == [2, 0]  # "5." and "7." inside sentences: ordinals
    assert abbr.counts["domů"] == [0, 1]
    assert abbr.is_abbreviation("atd") and abbr.is_abbreviation("#") and not abbr.is_abbreviation("domů")
    assert not abbr.attaches()  # this treebank writes the period as a token of its own
    assert abbr.keeps_going(".", "atd", ["a", "šel"])
    assert abbr.keeps_going(".", "12", ["května"])
    assert not abbr.keeps_going(".", "domů", ["Prší"])
    again = Abbreviations.from_json(json.loads(json.dumps(abbr.to_json())))
    assert again.to_json() == abbr.to_json()


def test_stem_of():
    assert stem_of("Jan.") == "Jan"
    assert stem_of("U.S.") == "U.S"
    assert stem_of(".", "atd") == "atd"
    assert stem_of("5.") == "#"
    assert stem_of("...") is None
    assert stem_of(".") is None


# -- lemmas --------------------------------------------------------------------


@pytest.fixture(scope="module")
def lemmatizer() -> Lemmatizer:
    lem = Lemmatizer.load(EN)
    assert lem is not None, "models/en_ewt/lexicon.json is missing"
    return lem


@pytest.mark.parametrize("form, upos, bad_script, lemma", [
    ("ate", "VERB", "l|2|o", "eat"),
    ("applied", "VERB", "k|2|", "apply"),
    ("Dependencies", "NOUN", "l|1|", "dependency"),
])
def test_issue_examples(lemmatizer, form, upos, bad_script, lemma):
    # Whatever the classifier says (here the wrong scripts the issue reported), the lemma is a word.
    assert lemmatizer.lemma(form, upos, bad_script) == lemma


@pytest.mark.parametrize("form, lemma, upos, ok", [
    ("ate", "ao", "VERB", False),
    ("applied", "appli", "VERB", False),
    ("Dependencies", "dependencie", "NOUN", False),
    ("walked", "walk", "VERB", True),
    ("xyzzies", "xyzzies", "NOUN", True),  # the form itself is always a word
    ("running", "r", "VERB", False),  # shorter than half the form
    ("ran", "bun", "VERB", False),  # first letter changed
])
def test_plausibility(lemmatizer, form, lemma, upos, ok):
    assert lemmatizer.plausible(form, lemma, upos) is ok


def test_unseen_forms_use_guarded_script_then_analogy(lemmatizer):
    assert lemmatizer.known("frobnicated", "VERB") is None
    assert lemmatizer.lemma("frobnicated", "VERB", "k|1|") == "frobnicate"  # the script, plausible
    assert lemmatizer.lemma("frobnicated", "VERB", "l|9|xq") == "frobnicate"  # refused: analogy with -ated verbs
    assert lemmatizer.lemma("Zorblies", "PROPN", "l|9|") == "Zorblies"


def test_lexicon_from_fixture(fixtures, tmp_path):
    sents = list(read_conllu(fixtures / "segment_train_cs.conllu"))
    table = build_lexicon(sents)
    assert table["VERB"]["šel"] == "jít" and table["NOUN"]["mléko"] == ""
    (tmp_path / "config.json").write_text("{}")
    write_lexicon(tmp_path, sents)
    lem = Lemmatizer.load(tmp_path)
    assert lem.lemma("Přišel", "VERB", "k|0|") == "přijít"
    assert lem.lemma("Koupil", "VERB", "k|0|") == "koupit"
    assert Lemmatizer.load(tmp_path / "nothing") is None


def test_lexicon_leaves_out_the_head_of_a_goeswith_split(fixtures):
    # UD gives the first part of a split word the whole word's lemma (some|one -> someone,
    # Carla|Ruiz@ENRON -> CarlaRuiz@ENRON); that is no lemma of the part alone.
    table = build_lexicon(read_conllu(fixtures / "lexicon_goeswith.conllu"))
    assert "some" not in table["PRON"] and "Carla" not in table.get("PROPN", {})
    assert table["DET"]["Some"] == "some" and table["VERB"]["met"] == "meet"
    assert "one" not in table.get("X", {})  # the second part's lemma is "_"


def test_shipped_english_lexicon_has_no_goeswith_lemmas():
    lem = Lemmatizer.load(EN)
    assert lem.known("Carlos", "PROPN") == "Carlos"  # was CarlosAlatorre@ENRON, from a split e-mail address
    assert lem.known("some", "PRON") is None  # was someone, from "some one"
    assert lem.known("went", "VERB") == "go"


def test_multilingual_lexicon_one_table_per_language(fixtures, tmp_path):
    write_lexicon(tmp_path, read_conllu(fixtures / "segment_train_cs.conllu"), "cs")
    write_lexicon(tmp_path, read_conllu(fixtures / "segment_train.conllu"), "en")
    cs, en = Lemmatizer.load(tmp_path, "cs"), Lemmatizer.load(tmp_path, "en")
    assert cs.known("šel", "VERB") == "jít" and cs.known("n't", "PART") is None
    assert en.known("n't", "PART") == "not" and en.known("šel", "VERB") is None
    assert Lemmatizer.load(tmp_path, "sk") is None and Lemmatizer.load(tmp_path) is None


def test_multilingual_lexicon_keeps_only_the_named_languages(fixtures, tmp_path, capsys):
    from eud.nn.lexicon import main as lexicon_main

    write_lexicon(tmp_path, read_conllu(fixtures / "segment_train_cs.conllu"), "cs")
    write_lexicon(tmp_path, read_conllu(fixtures / "segment_train.conllu"), "en")
    (tmp_path / "config.json").write_text("{}")
    assert lexicon_main([str(tmp_path), "--keep", "xx"]) == 2
    assert "no table for xx" in capsys.readouterr().err
    assert lexicon_main([str(tmp_path), "--keep", "en"]) == 0
    assert "dropped cs" in capsys.readouterr().err
    assert Lemmatizer.load(tmp_path, "cs") is None
    assert Lemmatizer.load(tmp_path, "en").known("n't", "PART") == "not"


# -- multilingual segmenter ------------------------------------------------------


def test_tiny_multilingual_segmenter(fixtures, tmp_path):
    from eud.segment.train import train_segmenter

    config = {"task": "segmenter", "output": str(tmp_path / "segs"), "epochs": 1, "max_steps": 2, "batch_size": 2,
              "window": 16, "hidden": 8, "char_dim": 8, "min_char_count": 1, "holdout": 5, "min_windows": 4,
              "languages": {"en": [str(fixtures / "segment_train.conllu")],
                            "cs": [str(fixtures / "segment_train_cs.conllu")]}}
    assert train_segmenter(config, tmp_path / "c.toml") == 0
    out = tmp_path / "segs"
    assert json.loads((out / "multi" / "config.json").read_text())["langs"] == ["en", "cs"]
    assert "| cs |" in (out / "multi" / "MODEL.md").read_text()
    for lang in ("en", "cs"):
        for name in ("config.json", "mwt.json", "abbreviations.json", "MODEL.md"):
            assert (out / lang / name).is_file(), (lang, name)
        assert not (out / lang / "model.safetensors").exists()  # the weights live once, in multi/
    cs = Segmenter.load(out / "cs")
    assert cs.lang == 1 and cs.abbreviations.is_abbreviation("atd")
    text = "Koupil jsem mléko. Prší."
    got = list(cs.segment(text))
    assert "".join("".join(w.form for w in s.words) for s in got) == "".join(text.split())
    assert all(format_sentence(s) for s in got)
    with pytest.raises(Exception, match="multilingual"):
        cs.save(tmp_path / "copy")


def test_shipped_english_model_lemmatizes_through_the_lexicon():
    from eud.pipeline import Pipeline

    pipe = Pipeline.load(EN)
    assert pipe.predictor.lemmatizer is not None
    doc = pipe.parse_tokenized("Dependencies were applied after we ate .")
    lemmas = {w.form: w.lemma for w in doc[0].words}
    assert lemmas["ate"] == "eat"
    assert lemmas["applied"] == "apply"
    # Unseen in EWT train: the classifier decides, and the guard keeps it from the issue's non-word
    # "dependencie".  The gapping fine-tune's classifier leaves this plural unchanged; preferring the
    # suffix analogy over an unchanged form was measured and lowers unseen-word lemmas on en_ewt dev
    # (83.31 -> 82.88), so either word is accepted here.
    assert lemmas["Dependencies"] in ("dependency", "dependencies")


def test_every_shipped_parser_has_a_lexicon():
    # Without one, lemmas come from the classifier's scripts unguarded (ru gave придеться for придется).
    parsers = [p.parent for p in (REPO / "models").glob("*/config.json")
               if json.loads(p.read_text(encoding="utf-8")).get("format", "").startswith("eud-parser")]
    assert parsers and [p.name for p in parsers if not (p / "lexicon.json").is_file()] == []


def test_russian_lemmas_are_words():
    import eud

    doc = eud.load("ru")("Нам придется объяснить, что такое популярно-лингвистическая статья.")
    lemmas = {w.form: w.lemma for s in doc for w in s.words}
    assert lemmas["придется"] == "прийтись"
    assert lemmas["популярно-лингвистическая"] == "популярно-лингвистический"


def test_a_long_shared_ending_goes_before_the_classifier():
    # A tiny Russian lexicon: выросло → вырасти.  The classifier's guess for the unseen возросло,
    # возрость, passes the ending test (-сть ends есть) but is no word; the analogy through the
    # five shared letters -росло gives возрасти.  Without the analogy first, the guess stands.
    lexicon = {"VERB": {"выросло": "вырасти", "ест": "есть", "нашло": "найти", "ходит": "ходить"}}
    script = edit_script("возросло", "возрость")
    assert Lemmatizer(lexicon).lemma("возросло", "VERB", script) == "возрасти"
    assert Lemmatizer(lexicon, trust_suffix=None).lemma("возросло", "VERB", script) == "возрость"
    # A shorter shared ending (-ошло against нашло's -ашло: three letters, -шло) leaves the
    # classifier first: its plausible guess stands, though the analogy would say пойти too.
    assert Lemmatizer(lexicon).lemma("пошло", "VERB", edit_script("пошло", "пошлить")) == "пошлить"
