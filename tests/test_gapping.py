"""Tests for the gapping rule: hand-written fixtures hold the expected output.

Each fixture under ``tests/fixtures/gapping_*.conllu`` is the *expected*
result: its DEPS column and empty-node lines are what the rule must produce
from the basic tree alone (the test strips them first).  Labels are plain
universal ones: the case rule, which runs later, is not applied here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from eud.conllu import format_sentence, read_conllu
from eud.enhance.gapping import Gapping

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def enhanced(path: Path, **options: bool) -> list[tuple[str, str]]:
    """(expected, produced) CoNLL-U text for each sentence of a fixture."""
    out = []
    for sentence in read_conllu(path):
        expected = format_sentence(sentence)
        sentence.copy_basic_to_enhanced()
        Gapping(**options).apply(sentence)
        out.append((expected, format_sentence(sentence)))
    return out


@pytest.mark.parametrize("name", ["gapping_en.conllu"])
def test_fixture(name: str) -> None:
    for expected, produced in enhanced(FIXTURES / name):
        assert produced == expected
