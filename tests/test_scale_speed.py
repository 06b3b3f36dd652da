"""eval.scale.speed: one eud parse process, timed and measured as a user runs it."""

from __future__ import annotations

import pytest
from conftest import REPO

pytest.importorskip("torch")

from eval.scale.speed import SUMMARY, parse_once


def test_the_summary_line_is_read():
    line = "eud parse: 13 sentences, 179 words in 0.6 s (319 words/s); model loaded in 3.2 s"
    assert SUMMARY.search(line).groups() == ("13", "179", "0.6", "319", "3.2")


@pytest.mark.slow
def test_one_run_gives_words_time_memory_and_arithmetic(tmp_path):
    if not (REPO / "models" / "et_ewt" / "model.safetensors").is_file():
        pytest.skip("models/et_ewt is not in this checkout")
    text = tmp_path / "in.txt"
    text.write_text("Tere hommikust. Ma lähen koju.\n", encoding="utf-8")
    run = parse_once("et_ewt", text, tmp_path / "out.conllu", precision="fp32", threads=1)
    assert run["words"] == 7 and run["sentences"] == 2
    assert run["precision"] == "fp32"
    assert 50 < run["peak_rss_mb"] < 4000  # the child's own peak, in MB
    assert run["wall_s"] > run["load_s"] > 0
    assert (tmp_path / "out.conllu").read_text(encoding="utf-8").count("\n1\t") == 2
