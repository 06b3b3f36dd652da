"""docs/gapping.md stays true: its example is what ``eud parse`` prints, its table lists every [gapping] key."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import REPO

from eud.gapping.repair import Settings
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


def _keys(section: str) -> set[str]:
    """The keys of the first table under a heading of docs/gapping.md."""
    text = DOC.split(section, 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)`(?:, `(\w+)`)? \|", text, re.MULTILINE)
    return {key for row in rows for key in row if key}


def test_the_table_lists_every_gapping_key():
    assert _keys("## Language conventions") == set(Style.__dataclass_fields__)


def test_the_table_lists_every_package_gapping_setting():
    assert _keys("## Parser settings") == set(Settings.__dataclass_fields__)
