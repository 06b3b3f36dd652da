"""Raw text with control characters, odd spaces, BOMs and bad bytes never yields a FORM or # text udvalidate rejects."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eud.segment.text import DROPPED, clean_text, paragraphs
from eval.helpers import faults


def test_dropped_spaced_and_normalised() -> None:
    raw = "a\x00b\tc\u00a0d\ufeffe\ud800f\u200bg\ufffdh e\u0301 \u200dz\x1b\x85y"
    assert clean_text(raw) == "ab c defgh \u00e9 \u200dz y"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_clean_text_keeps_every_other_non_space_character(text: str) -> None:
    cleaned = clean_text(text)
    assert clean_text(cleaned) == cleaned
    assert not any(ch in DROPPED for ch in cleaned)
    assert not any(ch.isspace() and ch != " " and ch != "\n" for ch in cleaned)
    # NFC of the text with the dropped characters gone (spaces stay: NFC never reorders across them).
    kept = unicodedata.normalize("NFC", "".join(" " if ch.isspace() else ch for ch in text if ch not in DROPPED))
    assert "".join(ch for ch in cleaned if not ch.isspace()) == "".join(ch for ch in kept if not ch.isspace())


def test_binary_file_read_with_replace(tmp_path: Path) -> None:
    rng = random.Random(5)
    data = bytes(rng.randrange(256) for _ in range(3000)) + b"\r\nend.\r\n"
    path = tmp_path / "bin.txt"
    path.write_bytes(data)
    text = "\n\n".join(clean_text(p) for p in paragraphs(str(path), errors="replace"))
    assert "\ufffd" not in text and "\x00" not in text and "\r" not in text


def test_parse_binary_input_gives_valid_conllu(tmp_path: Path) -> None:
    from eud.registry import ModelNotFound, find_model

    try:
        find_model("en")
    except ModelNotFound:
        pytest.skip("no English model shipped in models/")
    from eud.commands.parse import main

    rng = random.Random(5)
    data = bytes(rng.randrange(256) for _ in range(1500))
    data += "Hello world.\r\nThe\u00a0cat\u200b sat\x00 on e\u0301 mat.\ufeff\n".encode() + bytes(range(256))
    source, out = tmp_path / "bin.txt", tmp_path / "out.conllu"
    source.write_bytes(data)
    assert main(["--lang", "en", "--errors", "replace", "-o", str(out), str(source)]) == 0
    assert faults.udvalidate_verdict(str(out)) == (True, None)
    assert faults.eud_verdict(str(out)) == (True, None)
    written = out.read_text(encoding="utf-8")
    assert "# text = The cat sat on \u00e9 mat." in written
