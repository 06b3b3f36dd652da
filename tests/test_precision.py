"""eud parse --precision: what auto picks, and the int8 network (dynamic int8 Linear and LSTM layers)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import REPO

torch = pytest.importorskip("torch")

from eud.conllu import parse_conllu
from eud.nn.network import INT8_AUTO, native_bf16, quantize_int8, resolve_precision

TEXT = "John ate an apple and Mary a pear. The dog barked at the postman, who ran away.\n"


def test_auto_takes_bf16_where_native_else_int8_for_the_families_that_hold():
    for family, holds in INT8_AUTO.items():
        want = "bf16" if native_bf16() else ("int8" if holds else "fp32")
        assert resolve_precision("auto", family=family) == want
    # Training (no family) never quantizes, and int8 is a parse-time choice only.
    assert resolve_precision("auto") in ("fp32", "bf16")
    assert resolve_precision("int8", family="minilm") == "int8"
    with pytest.raises(ValueError, match="int8"):
        resolve_precision("int8")


def test_quantize_replaces_linear_and_lstm_and_keeps_the_outputs_close():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8))
    x = torch.randn(32, 64)
    want = model(x)
    quantize_int8(model)
    assert "quantized" in type(model[0]).__module__ and "quantized" in type(model[2]).__module__
    got = model(x)
    assert not torch.equal(got, want)  # int8 arithmetic, not the fp32 layers
    assert (got - want).abs().max().item() < 0.05 * want.abs().max().item()
    lstm = torch.nn.LSTM(8, 8, batch_first=True)
    quantize_int8(lstm_holder := torch.nn.Sequential(lstm))
    assert "quantized" in type(lstm_holder[0]).__module__


def _parse(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "eud", "parse", "--model", str(REPO / "models" / "en_ewt"),
                           "--threads", "1", *args], input=TEXT, capture_output=True, text=True, env=env,
                          timeout=600, check=False)


@pytest.mark.slow
def test_int8_parse_says_so_and_writes_valid_close_conllu():
    if not (REPO / "models" / "en_ewt" / "model.safetensors").is_file():
        pytest.skip("models/en_ewt is not in this checkout")
    fp32, int8 = _parse("--precision", "fp32", "-v"), _parse("--precision", "int8", "-v")
    assert fp32.returncode == 0 and int8.returncode == 0, int8.stderr
    assert "network arithmetic fp32" in fp32.stderr and "network arithmetic int8" in int8.stderr
    a, b = parse_conllu(fp32.stdout), parse_conllu(int8.stdout)
    assert [w.form for s in a for w in s.words] == [w.form for s in b for w in s.words]
    same = sum(x.upos == y.upos and x.head == y.head for s, t in zip(a, b) for x, y in zip(s.words, t.words))
    assert same >= 0.9 * sum(len(s.words) for s in a)
    assert {(w.form, w.upos) for s in b for w in s.words} >= {("John", "PROPN"), ("apple", "NOUN")}
