"""Multilingual parsing: a language embedding, the tuning slice, --lang resolution, the refusal, eud models."""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURES, REPO

from eud.cli import main as cli
from eud.registry import ModelNotFound, find_model, model_languages, resolve_model

TINY = FIXTURES / "multilingual"

CONFIG = """
train = ["{en}", "{fr}"]
output = "model"
work_dir = "work"
tune_every = 4
epoch_parts = 2
threads = 1
max_epochs = 4
batch_words = 40
warmup_steps = 2
lr = 0.01
min_word_count = 1
[encoder]
type = "charlstm"
lang_dim = 4
char_dim = 8
char_out = 16
word_dim = 8
lstm_hidden = 16
[model]
graph = false
tag_hidden = 16
arc_dim = 16
label_dim = 8
"""


def test_tuning_slice_is_every_kth_sentence_of_each_file():
    from eud.nn.data import file_entries, read_split

    entries = file_entries([str(TINY / "en_tiny-ud-train.conllu"), {"path": str(TINY / "fr_tiny-ud-train.conllu"),
                                                                     "repeat": 2}], REPO, "train")
    assert [e["lang"] for e in entries] == ["en", "fr"]
    train, langs, tune = read_split(entries, 4)
    assert {k: [s.comments[0] for s in v] for k, v in tune.items()} == {"en": ["# sent_id = en-1"],
                                                                       "fr": ["# sent_id = fr-1"]}
    assert langs == ["en"] * 3 + ["fr"] * 6  # fr repeated twice, the held-apart sentence never
    assert all("-1" not in s.comments[0] for s in train)


def test_a_files_own_tune_every_overrides_the_configs():
    from eud.nn.data import file_entries, read_split

    entries = file_entries([str(TINY / "en_tiny-ud-train.conllu"),
                            {"path": str(TINY / "fr_tiny-ud-train.conllu"), "tune_every": 2}], REPO, "train")
    _, langs, tune = read_split(entries, 0)
    assert list(tune) == ["fr"]  # en trains whole; every second fr sentence is held apart
    assert [s.comments[0] for s in tune["fr"]] == ["# sent_id = fr-1", "# sent_id = fr-3"]
    assert langs == ["en"] * 4 + ["fr"] * 2
    with pytest.raises(ValueError, match="tune_every must be a whole number"):
        file_entries([{"path": "x.conllu", "tune_every": -1}], REPO, "train")


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """A two-language model trained for a few steps on the hand-written sentences."""
    from eud.commands.train import main as train

    root = tmp_path_factory.mktemp("multi")
    config = root / "tiny.toml"
    config.write_text(CONFIG.format(en=TINY / "en_tiny-ud-train.conllu", fr=TINY / "fr_tiny-ud-train.conllu"))
    assert train(["--config", str(config)]) == 0
    return root / "model"


def test_tiny_multilingual_model_lists_its_languages_and_embeds_them(tiny_model):
    import torch

    from eud.nn.batching import make_batch
    from eud.nn.package import load_package

    config = json.loads((tiny_model / "config.json").read_text())
    assert config["languages"] == ["en", "fr"]
    assert config["graph_mode"] == "rules"
    assert "tune en" in (tiny_model / "MODEL.md").read_text()
    model, vocabs, _ = load_package(tiny_model)
    assert model.graph is None  # graph = false: no graph scorer weights at all
    from eud.conllu import read_conllu

    sentences = list(read_conllu(TINY / "fr_tiny-ud-train.conllu"))
    with torch.no_grad():
        as_en = model(make_batch(sentences, [0], vocabs, langs=[0] * 4))["arc"]
        as_fr = model(make_batch(sentences, [0], vocabs, langs=[1] * 4))["arc"]
    assert not torch.allclose(as_en, as_fr)  # the language vector reaches the scores


def test_tiny_multilingual_model_parses_each_language_validly(tiny_model, tmp_path):
    from eud.pipeline import Pipeline

    text = (TINY / "fr_tiny-ud-train.conllu").read_text()
    for lang in ("fr", "en_tiny"):
        doc = Pipeline.load(tiny_model, lang=lang).parse_conllu(text)
        assert [len(s.words) for s in doc] == [4, 4, 6, 7]
        assert all(s.enhanced for s in doc)  # the rules built a graph from the predicted tree
        out = tmp_path / f"{lang}.conllu"
        out.write_text(doc.to_conllu())
        assert cli(["validate", "--level", "2", str(out)]) == 0
    assert Pipeline.load(tiny_model, lang="en_tiny").language == "en_tiny"
    # One network for the package: a second language costs a predictor, not another copy of the weights.
    fr, en = Pipeline.load(tiny_model, lang="fr"), Pipeline.load(tiny_model, lang="en_tiny")
    assert fr is not en and fr.predictor.model is en.predictor.model
    assert Pipeline.load(tiny_model, lang="fr", precision="fp32").predictor.model is not fr.predictor.model
    with pytest.raises(ValueError, match="a multilingual model .*--lang"):
        Pipeline.load(tiny_model)
    with pytest.raises(ValueError, match="knows the languages en, fr, not 'de'"):
        Pipeline.load(tiny_model, lang="de")


def test_a_model_for_one_language_with_others_help_parses_its_own_by_default(tiny_model, tmp_path):
    """A shared-encoder package (languages en, fr; made for fr) loads by folder alone and parses as fr."""
    import shutil

    from eud.pipeline import Pipeline

    folder = tmp_path / "fr_shared"
    shutil.copytree(tiny_model, folder)
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "language": "fr"}))
    assert Pipeline.load(folder).language == "fr"
    assert Pipeline.load(folder, lang="en_tiny").language == "en_tiny"  # the other language on request


def _fake_models(tmp_path, monkeypatch):
    encoder = {"type": "charlstm"}
    for name, config in (("multi", {"language": "multi", "languages": ["cs", "pl"], "encoder": encoder}),
                         ("en_x", {"language": "en", "encoder": encoder,
                                   "members": ["member-2.safetensors", "member-3.safetensors"]}),
                         ("pl_y", {"language": "pl_lfg", "encoder": encoder})):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.json").write_text(json.dumps(config))
    monkeypatch.setenv("EUD_MODELS", str(tmp_path))


def test_lang_resolves_to_the_model_serving_it(tmp_path, monkeypatch):
    _fake_models(tmp_path, monkeypatch)
    assert resolve_model("cs") == (tmp_path / "multi", "cs")
    assert resolve_model("cs_cac") == (tmp_path / "multi", "cs_cac")  # treebank code kept: its enhancer profile
    assert resolve_model("pl") == (tmp_path / "pl_y", "pl_lfg")  # a model made for Polish before the multilingual
    assert resolve_model("en") == (tmp_path / "en_x", "en")
    assert resolve_model("en_ewt") == (tmp_path / "en_x", "en")
    assert find_model("multi") == tmp_path / "multi"
    assert model_languages(tmp_path / "multi") == ["cs", "pl"]


def test_arabic_is_refused_with_how_to_train(tmp_path, monkeypatch, capsys):
    _fake_models(tmp_path, monkeypatch)
    with pytest.raises(ModelNotFound, match=r"ar: no Arabic model ships with eud \(there was no training data"):
        find_model("ar")
    assert cli(["parse", "--lang", "ar", str(FIXTURES / "multilingual" / "en_tiny-ud-train.conllu")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("eud parse: ar: no Arabic model") and "eud train --config" in err
    assert "Traceback" not in err
    assert cli(["parse", str(TINY / "en_tiny-ud-train.conllu")]) == 2
    assert "--lang CODE" in capsys.readouterr().err


def test_eud_models_lists_languages_and_test_figures(tmp_path, monkeypatch, capsys):
    _fake_models(tmp_path, monkeypatch)
    (tmp_path / "multi" / "scores.json").write_text(json.dumps(
        {"input": "raw text", "test": {"cs_cac": {"LAS": 80.5, "ELAS": 77.25}, "ru_gsd": {"LAS": 70.0, "ELAS": None}}}))
    assert cli(["models"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "  multi  [charlstm]  languages: cs, pl" in out
    assert "      test cs_cac           LAS 80.50  ELAS 77.25  (from raw text)" in out
    assert "      test ru_gsd           LAS 70.00  ELAS -  (from raw text)" in out
    assert "  en_x  [charlstm x3, an ensemble]  languages: en" in out


@pytest.mark.parametrize("folder", sorted(p.parent for p in (REPO / "models").glob("*/config.json")),
                         ids=lambda p: p.name)
def test_shipped_model_config_loads_without_weights(folder):
    from eud.enhance import find_profile
    from eud.nn.encoders import resolve_encoder_config
    from eud.nn.package import load_config

    config = load_config(folder)
    encoder = resolve_encoder_config(dict(config["encoder"]))
    assert encoder["type"] in ("charlstm", "minilm", "transformer")
    vocab = json.loads((folder / "vocab.json").read_text())
    assert {"words", "chars", "upos", "deprel"} <= set(vocab)
    languages = model_languages(folder)
    assert languages
    if "languages" in config:
        assert vocab["lang"] == config["languages"]
        for lang in languages:
            find_profile(lang)  # every language has an enhancer profile
            assert (REPO / "models" / "segmenters" / lang / "config.json").is_file(), f"no segmenter for {lang}"


def test_one_language_model_selected_on_a_tuning_slice(tmp_path):
    """The design comparison's one-language runs: tuning slice, no language table, a plain lexicon."""
    from eud.commands.train import main as train
    from eud.conllu import read_conllu
    from eud.pipeline import Pipeline

    one = CONFIG.replace('train = ["{en}", "{fr}"]', 'train = ["{fr}"]').replace("lang_dim = 4\n", "")
    config = tmp_path / "fr.toml"
    config.write_text(one.format(fr=TINY / "fr_tiny-ud-train.conllu"))
    assert train(["--config", str(config)]) == 0
    package = json.loads((tmp_path / "model" / "config.json").read_text())
    assert "languages" not in package and package["graph_mode"] == "rules"
    assert "lexicon" in json.loads((tmp_path / "model" / "lexicon.json").read_text())
    card = (tmp_path / "model" / "MODEL.md").read_text()
    assert "| tune fr | rules |" in card and "Languages (a learnt vector each)" not in card
    pipe = Pipeline.load(tmp_path / "model", lang="fr")
    sentences = pipe.parse_sentences(list(read_conllu(TINY / "fr_tiny-ud-train.conllu")))
    assert all(s.word(1).deprel for s in sentences)


def test_a_shared_encoder_model_serves_its_own_language_and_names_its_helpers(tmp_path, monkeypatch, capsys):
    from eud.registry import helper_languages

    (tmp_path / "sk_x").mkdir()
    (tmp_path / "sk_x" / "config.json").write_text(json.dumps(
        {"language": "sk", "languages": ["cs", "sk"], "encoder": {"type": "charlstm"}}))
    monkeypatch.setenv("EUD_MODELS", str(tmp_path))
    assert model_languages(tmp_path / "sk_x") == ["sk"]
    assert helper_languages(tmp_path / "sk_x") == ["cs"]
    assert resolve_model("sk") == (tmp_path / "sk_x", "sk")
    assert cli(["models"]) == 0
    assert "  sk_x  [charlstm]  languages: sk (learned with cs)" in capsys.readouterr().out
