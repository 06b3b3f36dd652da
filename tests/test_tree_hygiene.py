"""The checkout itself: no file carries a merge's conflict markers."""

import re
import subprocess

import pytest

from tests.conftest import REPO

MARKER = re.compile(r"^(<{7} |>{7} )", re.MULTILINE)


def tracked_text_files() -> list:
    try:
        names = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [REPO / n for n in names if n.endswith((".py", ".md", ".toml", ".json", ".txt", ".tsv", ".cfg", ".yml"))]


def test_no_file_holds_conflict_markers() -> None:
    found = []
    for path in tracked_text_files():
        if path.is_file() and MARKER.search(path.read_text(encoding="utf-8", errors="replace")):
            found.append(str(path.relative_to(REPO)))
    assert found == []


def test_the_marker_pattern_finds_a_conflict() -> None:
    assert MARKER.search("a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> branch\n")
    assert not MARKER.search("a heading\n=======\n")
