"""eval.common.command_line: the command a result records, with scratch folders written OUT."""

import sys

import pytest

from eval.common import command_line


@pytest.mark.parametrize("argv, want", [
    (["--lang", "pl", "--out-dir", "work/iwpt_final", "--threads", "2"],
     "python -m eval.parser.iwpt --lang pl --out-dir OUT --threads 2"),
    (["--out-dir=work/x", "--notes", "two words"], "python -m eval.parser.iwpt --out-dir=OUT --notes 'two words'"),
])
def test_scratch_folders_are_recorded_as_out(monkeypatch, argv, want):
    monkeypatch.setattr(sys, "argv", ["iwpt.py", *argv])
    assert command_line("eval.parser.iwpt") == want
