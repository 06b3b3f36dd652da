"""Every ```python block of README.md runs, in order, in one namespace.

The blocks run in a scratch folder that holds the files the README's examples
name (``en_ewt-ud-dev.conllu.xz``, ``basic.conllu``, ``gold.conllu``,
``system.conllu``, ``in.conllu``: small fixtures under those names) and links
to the repository's ``models/``, ``converters/`` and ``tests/``.  A block
whose first line is ``# not run: <reason>`` is skipped (for examples that
need a running server or network).
"""

from __future__ import annotations

import lzma
import os
import re
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO

BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def python_blocks() -> list[tuple[int, str]]:
    """(line number, code) of each ```python block of README.md."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return [(text[:m.start()].count("\n") + 1, m.group(1)) for m in BLOCK.finditer(text)]


def test_readme_has_python_examples():
    assert len(python_blocks()) >= 3


def test_readme_python_blocks_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    sample = (FIXTURES / "enhance_coordination.conllu").read_bytes()
    (tmp_path / "en_ewt-ud-dev.conllu.xz").write_bytes(lzma.compress(sample))
    for name in ("basic.conllu", "gold.conllu", "system.conllu", "in.conllu"):
        (tmp_path / name).write_bytes(sample)
    for name in ("models", "converters", "tests"):
        os.symlink(REPO / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__readme__"}
    for line, code in python_blocks():
        if code.startswith("# not run"):
            continue
        try:
            exec(compile(code, f"README.md:{line}", "exec"), namespace)  # noqa: S102 (running the README is the point)
        except Exception as err:  # name the block, so a failure points at the README line
            raise AssertionError(f"README.md python block at line {line} failed: {err!r}") from err
