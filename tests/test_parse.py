"""``eud parse``: keeps the input's tokenisation, comments and MISC; streams in order; clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("safetensors")

from eud.commands.parse import main
from eud.conllu import parse_conllu, read_conllu
from eud.nn.encoders import resolve_encoder_config
from eud.nn.network import Parser
from eud.nn.package import save_package
from eud.nn.vocab import build_vocabs
from eud.pipeline import guess_format


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small untrained charlstm package (predictions are arbitrary but well-formed)."""
    fixture = Path(__file__).parent / "fixtures" / "parser_tiny.conllu"
    sentences = list(read_conllu(fixture))
    vocabs = build_vocabs(sentences, min_word_count=1)
    enc = resolve_encoder_config({"type": "charlstm", "char_dim": 8, "char_out": 8, "word_dim": 8,
                                  "lstm_hidden": 8, "lstm_layers": 1})
    config = {"encoder": enc, "model": {"tag_hidden": 8, "arc_dim": 8, "label_dim": 8}, "language": "en",
              "graph_mode": "graph"}
    torch.manual_seed(1)
    folder = tmp_path_factory.mktemp("pkg")
    save_package(folder, Parser(config, vocabs), vocabs, config)
    return folder


def test_conllu_in_keeps_tokenisation_comments_and_misc(model_dir: Path, fixtures: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.conllu"
    assert main(["--model", str(model_dir), "--input-format", "conllu", str(fixtures / "parser_tiny.conllu"),
                 "-o", str(out), "-q"]) == 0
    gold = list(read_conllu(fixtures / "parser_tiny.conllu"))
    pred = parse_conllu(out.read_text())
    assert len(pred) == len(gold)
    for g, p in zip(gold, pred):
        assert p.comments == g.comments
        assert [w.form for w in p.words] == [w.form for w in g.words]
        assert [w.misc for w in p.words] == [w.misc for w in g.words]
        assert [(t.first, t.last, t.form) for t in p.tokens] == [(t.first, t.last, t.form) for t in g.tokens]
        assert all(w.head is not None and w.deprel != "_" and w.upos != "_" for w in p.words)
        assert sum(1 for w in p.words if w.head == 0) == 1
        assert p.enhanced  # every sentence gets a graph


def test_small_chunks_give_the_same_output(model_dir: Path, fixtures: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a.conllu", tmp_path / "b.conllu"
    src = str(fixtures / "parser_tiny.conllu")
    assert main(["--model", str(model_dir), src, "-o", str(a), "-q", "--chunk", "1000"]) == 0
    assert main(["--model", str(model_dir), src, "-o", str(b), "-q", "--chunk", "3", "--batch-words", "10"]) == 0
    assert a.read_text() == b.read_text()


def test_tokenized_input(model_dir: Path, tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("The cat sat .\nDogs run .\n")
    out = tmp_path / "out.conllu"
    assert main(["--model", str(model_dir), "--input-format", "tokenized", str(src), "-o", str(out), "-q"]) == 0
    pred = parse_conllu(out.read_text())
    assert [[w.form for w in s.words] for s in pred] == [["The", "cat", "sat", "."], ["Dogs", "run", "."]]


def test_tokenized_invalid_utf8_strict_and_replace(model_dir: Path, tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.txt"
    src.write_bytes(b"The cat sat .\n\nDogs \xff run .\n")
    out = tmp_path / "out.conllu"
    assert main(["--model", str(model_dir), "--input-format", "tokenized", str(src), "-o", str(out), "-q"]) == 1
    assert "invalid UTF-8 at byte offset 20 (line 3)" in capsys.readouterr().err
    assert main(["--model", str(model_dir), "--input-format", "tokenized", "--errors", "replace", str(src),
                 "-o", str(out), "-q"]) == 0
    pred = parse_conllu(out.read_text())
    assert [[w.form for w in s.words] for s in pred] == [["The", "cat", "sat", "."], ["Dogs", "\ufffd", "run", "."]]
    assert "# newpar" in pred[1].comments


def test_text_without_segmenter_is_a_clear_error(model_dir: Path, tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.txt"
    src.write_text("Some raw text.\n")
    assert main(["--model", str(model_dir), str(src)]) == 1
    assert "segmenter" in capsys.readouterr().err


def test_bad_input_and_missing_model(model_dir: Path, tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tA\t_\t_\t_\t_\t0\troot\t_\n\n")
    assert main(["--model", str(model_dir), "--input-format", "conllu", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "bad.conllu:1" in err and "Traceback" not in err
    assert main(["--model", str(tmp_path / "nope"), str(bad)]) == 2
    assert "no such model" in capsys.readouterr().err


def test_guess_format(tmp_path: Path, fixtures: Path) -> None:
    assert guess_format(str(fixtures / "parser_tiny.conllu")) == "conllu"
    text = tmp_path / "t.txt"
    text.write_text("\nHello world.\n")
    assert guess_format(str(text)) == "text"
    conllu = tmp_path / "x.data"
    conllu.write_text("1\tA\ta\tX\t_\t_\t0\troot\t_\t_\n\n")
    assert guess_format(str(conllu)) == "conllu"
