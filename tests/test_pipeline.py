"""The Python API: ``eud.load`` pipelines, documents, streams, ``eud.evaluate`` and model lookup."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import FIXTURES, REPO

import eud
from eud.registry import ModelNotFound, find_model, resolve_model, shipped_models

TEXT = "The cat sat on the mat. It was happy, and so was the dog.\n\nA new paragraph starts here.\n"


def test_import_eud_loads_no_torch_and_no_scorer():
    code = "import sys, eud; print('torch' in sys.modules, 'eud.evaluate' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_find_model_by_folder_treebank_and_language(tmp_path, monkeypatch):
    assert find_model("en") == REPO / "models" / "en_ewt"
    assert find_model("en_ewt") == REPO / "models" / "en_ewt"
    assert find_model("et_ewt") == REPO / "models" / "et_edt"  # no et_ewt model: its language's
    assert find_model(tmp_path) == tmp_path
    with pytest.raises(ModelNotFound, match=r"xx_nope: no such model folder.*shipped: bg_btb \(bg\), cs_cac \(cs\), en_ewt \(en\), et_edt \(et\)"):
        find_model("xx_nope")
    for name, language in (("cs_a", "cs"), ("cs_cac", "cs"), ("fr_x", "fr_gsd")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.json").write_text(json.dumps({"language": language}))
    monkeypatch.setenv("EUD_MODELS", str(tmp_path))
    assert shipped_models() == {"cs_a": "cs", "cs_cac": "cs", "fr_x": "fr_gsd"}
    assert find_model("cs_cac") == tmp_path / "cs_cac"  # folder name first
    assert find_model("cs") == tmp_path / "cs_a"  # first by folder name
    assert find_model("fr_gsd") == tmp_path / "fr_x"  # config language
    assert find_model("fr") == tmp_path / "fr_x"  # same language
    assert find_model("cs_pdt") == tmp_path / "cs_a"
    with pytest.raises(ModelNotFound):
        find_model("en")


def test_shipped_models_serve_each_iwpt_language_with_the_winner_of_the_comparison(monkeypatch):
    monkeypatch.delenv("EUD_MODELS", raising=False)
    models = REPO / "models"
    # One-language models: each beat the multilingual one on its tuning slice (eval/RESULTS.md).
    assert resolve_model("lt") == (models / "lt_alksnis", "lt")
    assert resolve_model("fi_tdt") == (models / "fi_tdt", "fi")
    assert resolve_model("ta") == (models / "ta_ttb", "ta")
    assert resolve_model("lv_lvtb") == (models / "lv_lvtb", "lv")
    assert resolve_model("nl_lassysmall") == (models / "nl_alpino", "nl")
    assert resolve_model("uk") == (models / "uk_iu", "uk")
    assert resolve_model("sv_lines") == (models / "sv_talbanken", "sv")
    assert resolve_model("pl_lfg") == (models / "pl_pdb", "pl")
    assert resolve_model("cs_fictree") == (models / "cs_cac", "cs")
    assert resolve_model("it") == (models / "it_isdt", "it")
    assert resolve_model("sk_snk") == (models / "sk_snk", "sk")
    assert resolve_model("bg") == (models / "bg_btb", "bg")
    assert resolve_model("fr_fqb") == (models / "fr_sequoia", "fr")
    assert resolve_model("et_ewt") == (models / "et_edt", "et")
    assert resolve_model("ru")[0] == models / "ru_agrr"


def test_evaluate_is_callable_and_keeps_its_names():
    from eud.evaluate import evaluate_files, evaluate_sentences

    gold, system = FIXTURES / "eval_gold.conllu", FIXTURES / "eval_system.conllu"
    by_files = evaluate_files(gold, system)
    assert eud.evaluate(gold, system).to_dict() == by_files.to_dict()
    mixed = eud.evaluate(str(gold), list(eud.read_conllu(system)))
    in_memory = evaluate_sentences(eud.read_conllu(gold), eud.read_conllu(system))
    assert mixed["ELAS"] == in_memory["ELAS"] and mixed["LAS"] == by_files["LAS"]
    assert 0 < by_files["LAS"].f1 < 1


def test_pipeline_enhance_equals_eud_enhance(tmp_path):
    from eud.commands.enhance import main
    from eud.pipeline import enhance

    src = FIXTURES / "enhance_coordination.conllu"
    assert main([str(src), "--lang", "en", "-o", str(tmp_path / "cli.conllu")]) == 0
    doc = eud.Document(enhance(eud.read_conllu(src), "en"))
    assert doc.to_conllu() == (tmp_path / "cli.conllu").read_text(encoding="utf-8")


torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def pipe() -> eud.Pipeline:
    return eud.load("en")


def test_models_load_once(pipe):
    assert eud.load("models/en_ewt") is pipe
    assert eud.load(str(REPO / "models" / "en_ewt")) is pipe
    assert eud.load("en_ewt") is pipe
    assert pipe.language == "en"


def test_text_to_document_equals_eud_parse(pipe, tmp_path):
    from eud.commands.parse import main

    (tmp_path / "in.txt").write_text(TEXT, encoding="utf-8")
    assert main(["--model", "models/en_ewt", str(tmp_path / "in.txt"), "-o", str(tmp_path / "out.conllu"), "-q"]) == 0
    doc = pipe(TEXT)
    assert isinstance(doc, eud.Document) and len(doc) == 3
    assert [s.text for s in doc] == ["The cat sat on the mat.", "It was happy, and so was the dog.",
                                     "A new paragraph starts here."]
    assert doc.to_conllu() == (tmp_path / "out.conllu").read_text(encoding="utf-8")
    graph = doc[0].to_networkx()
    assert graph.number_of_nodes() == 8  # the root and seven words
    assert graph.has_edge((3, 0), (2, 0), key="nsubj")  # sat -nsubj-> cat
    assert pipe.parse_tokenized("The cat sat on the mat .").to_conllu().count("\n1\tThe\t") == 1


def test_parse_conllu_keeps_comments_tokens_and_misc(pipe):
    text = (FIXTURES / "enhance_case_en.conllu").read_text(encoding="utf-8")
    gold = eud.parse_conllu(text)
    doc = pipe.parse_conllu(text)
    assert [s.comments for s in doc] == [s.comments for s in gold]
    assert [[w.misc for w in s.words] for s in doc] == [[w.misc for w in s.words] for s in gold]
    assert all(s.enhanced for s in doc)


def test_stream_keeps_input_order_and_equals_single_calls(pipe):
    texts = ["First text. It has two sentences.", "Second text.", "", "Third one, longer than the others are."]
    single = [pipe(t).to_conllu() for t in texts]
    for batch in (1, 2, 256):
        streamed = [d.to_conllu() for d in pipe.stream(iter(texts), batch_sentences=batch)]
        assert streamed == single
    assert [len(d) for d in pipe.stream(texts)] == [2, 1, 0, 1]
