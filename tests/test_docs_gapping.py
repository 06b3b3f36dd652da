"""docs/gapping.md stays true: its example is what ``eud parse`` prints, its table lists every [gapping] key."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import REPO

from eud.gapping.rule import Style

DOC = (REPO / "docs" / "gapping.md").read_text(encoding="utf-8")


def test_the_example_is_what_eud_parse_prints():
    pytest.importorskip("torch")
    block = re.search(r'^\$ echo "(.*?)" \| eud parse --lang en\n(.*?)^```', DOC, re.DOTALL | re.MULTILINE)
    assert block is not None, "docs/gapping.md lost its eud parse example"
    text, shown = block.group(1), block.group(2)
    run = subprocess.run([sys.executable, "-m", "eud", "parse", "--lang", "en", "-q", "--threads", "1"],
                         input=text + "\n", capture_output=True, text=True, cwd=REPO, check=True)
    assert run.stdout.strip() == shown.strip()


def test_the_table_lists_every_gapping_key():
    rows = re.findall(r"^\| `(\w+)`(?:, `(\w+)`)? \|", DOC.split("## Language conventions", 1)[1], re.MULTILINE)
    documented = {key for row in rows for key in row if key}
    assert documented == set(Style.__dataclass_fields__)
