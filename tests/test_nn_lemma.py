"""Lemma edit scripts: the script learnt from a pair rebuilds the lemma."""

from __future__ import annotations

import pytest

from eud.nn.lemma import apply_script, edit_script


@pytest.mark.parametrize(
    ("form", "lemma", "script"),
    [
        ("cats", "cat", "k|1|"),
        ("The", "the", "l|0|"),
        ("went", "go", "k|4|go"),
        ("Went", "go", "k|4|go"),  # a tie keeps the casing: the lemma is whole
        ("running", "run", "k|4|"),
        ("Paris", "Paris", "k|0|"),
        ("n't", "not", "k|2|ot"),
        ("majades", "maja", "k|3|"),
    ],
)
def test_script_round_trip(form: str, lemma: str, script: str) -> None:
    assert edit_script(form, lemma) == script
    assert apply_script(form, script) == lemma


def test_script_that_does_not_fit_keeps_the_form() -> None:
    assert apply_script("a", "k|5|xyz") == "a"
    assert apply_script("dog", "garbage") == "dog"
    assert apply_script("Dogs", "l|1|") == "dog"
