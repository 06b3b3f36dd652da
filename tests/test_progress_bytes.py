"""Long jobs show a bar with a total: bytes read of the file's size, for plain and compressed input."""

from __future__ import annotations

import io
import lzma
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES

import eud.progress
from eud.conllu import read_conllu


@pytest.mark.parametrize("suffix", ["", ".xz"])
def test_reading_shows_bytes_of_total(suffix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = (FIXTURES / "levels" / "valid.base.conllu").read_bytes() * 200
    path = tmp_path / f"big.conllu{suffix}"
    path.write_bytes(lzma.compress(data) if suffix else data)
    monkeypatch.setattr(eud.progress, "progress_enabled", lambda: True)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    sentences = list(read_conllu(str(path)))
    assert len(sentences) == 400
    from tqdm import tqdm

    assert f"/{tqdm.format_sizeof(path.stat().st_size)} " in err.getvalue()  # the total is the size on disk
    assert "big.conllu" in err.getvalue()


def test_no_bar_when_not_a_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert len(list(read_conllu(str(FIXTURES / "levels" / "valid.base.conllu")))) == 2
    assert capsys.readouterr().err == ""
