"""Sentence.word(i) accepts exactly the ids 1..n, and the README's first example survives a whole treebank."""

from __future__ import annotations

import os
import re

import pytest
from conftest import REPO, needs_shared, shared_files

from eud.conllu import parse_conllu

TWO_WORDS = "# sent_id = s1\n# text = Hi there\n1\tHi\thi\tINTJ\t_\t_\t0\troot\t0:root\t_\n2\tthere\tthere\tADV\t_\t_\t1\tadvmod\t1:advmod\t_\n\n"


@pytest.mark.parametrize("i", [0, -1, 3, 100])
def test_word_outside_one_to_n_raises_clearly(i: int) -> None:
    sentence = parse_conllu(TWO_WORDS)[0]
    with pytest.raises(IndexError, match=rf"no word {i}: sentence s1 has words 1\.\.2"):
        sentence.word(i)


def test_word_inside_range() -> None:
    sentence = parse_conllu(TWO_WORDS)[0]
    assert [sentence.word(i).form for i in (1, 2)] == ["Hi", "there"]


def test_readme_first_example_on_all_of_en_ewt_dev(tmp_path, monkeypatch) -> None:
    paths = shared_files("en_ewt/en_ewt-ud-dev.conllu.xz")
    needs_shared(paths)
    text = (REPO / "README.md").read_text(encoding="utf-8")
    first = re.search(r"^```python\n(.*?)^```", text, re.DOTALL | re.MULTILINE).group(1)
    assert "en_ewt-ud-dev.conllu.xz" in first
    os.symlink(paths[0], tmp_path / "en_ewt-ud-dev.conllu.xz")
    monkeypatch.chdir(tmp_path)
    exec(compile(first, "README.md", "exec"), {"__name__": "__readme__"})  # noqa: S102 - the README is ours
