"""eval.report: the published figures (README, model cards, scores.json, eval/RESULTS.md) agree with eval/results/.

The check must pass on the repository as committed, and fail, naming the file and the figure, when a
figure is edited by hand in a copy.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from eval import report
from eval.common import REPO


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The files the report reads and writes, copied to a temporary repository."""
    shutil.copy(REPO / "README.md", tmp_path / "README.md")
    shutil.copytree(REPO / "eval" / "results", tmp_path / "eval" / "results")
    shutil.copy(REPO / "eval" / "RESULTS.md", tmp_path / "eval" / "RESULTS.md")
    for name in ("MODEL.md", "scores.json"):
        for path in (REPO / "models").glob(f"*/{name}"):
            (tmp_path / "models" / path.parent.name).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, tmp_path / "models" / path.parent.name / name)
    return tmp_path


def test_the_repository_agrees_with_its_results() -> None:
    assert report.check() == []


def test_results_page_is_short_and_gives_each_row_a_command_and_commit() -> None:
    page = (REPO / "eval" / "RESULTS.md").read_text(encoding="utf-8")
    assert page.count("\n") <= report.MAX_LINES
    rows = [line for line in page.splitlines() if line.startswith("| ") and not line.startswith("| what |")]
    assert len(rows) > 40
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[-3] in ("measurement", "tuning", "cross-validated", "test-scored-once"), line
        assert cells[-2].startswith("`") and cells[-1], line


def en_ewt_raw(repo: Path) -> tuple[str, str]:
    """en_ewt's raw-text LAS and ELAS as the pages print them."""
    figures = json.loads((repo / "eval/results/models/en_ewt/raw_text.json").read_text())["figures"]["en_ewt"]
    return report.number(figures["LAS"]), report.number(figures["ELAS"])


def test_a_hand_edited_readme_figure_fails(copy: Path) -> None:
    readme = copy / "README.md"
    text = readme.read_text(encoding="utf-8")
    las, elas = en_ewt_raw(copy)
    wrong = f"{float(elas) + 0.03:.2f}"
    assert f"en_ewt {las} / {elas}" in text
    readme.write_text(text.replace(f"en_ewt {las} / {elas}", f"en_ewt {las} / {wrong}"), encoding="utf-8")
    problems = report.check(copy)
    assert problems == [p for p in problems if p.startswith("README.md")] and len(problems) == 1
    assert f"{wrong} (results: {elas})" in problems[0]


def test_a_stale_macro_figure_in_the_readme_prose_fails(copy: Path) -> None:
    readme = copy / "README.md"
    text = readme.read_text(encoding="utf-8")
    macro = report.number(json.loads((copy / "eval/results/parser/iwpt.json").read_text())["figures"][
        "coarse macro ELAS, 14 languages with enhanced gold"])
    assert f"coarse macro ELAS of {macro} over the 14 IWPT" in text
    readme.write_text(text.replace(f"coarse macro ELAS of {macro}", "coarse macro ELAS of 68.17"), encoding="utf-8")
    assert report.check(copy) == [f"README.md: coarse macro ELAS 68.17 (results: {macro})"]


def test_a_hand_edited_scores_json_fails(copy: Path) -> None:
    path = copy / "models" / "ta_ttb" / "scores.json"
    scores = json.loads(path.read_text(encoding="utf-8"))
    recorded = scores["test"]["ta_ttb"]["ELAS"]
    scores["test"]["ta_ttb"]["ELAS"] = round(recorded + 1, 2)
    path.write_text(json.dumps(scores, indent=1) + "\n", encoding="utf-8")
    problems = report.check(copy)
    assert len(problems) == 1 and problems[0].startswith("models/ta_ttb/scores.json")
    assert f"{recorded + 1:.2f} (results: {recorded:.2f})" in problems[0]


def test_a_hand_edited_card_row_fails(copy: Path) -> None:
    card = copy / "models" / "ta_ttb" / "MODEL.md"
    text = card.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| tune ta | rules |"))
    elas = float(row.strip(" |").split(" | ")[-1])
    card.write_text(text.replace(row, row.replace(f"| {elas:.2f} |", f"| {elas + 1:.2f} |")), encoding="utf-8")
    problems = report.check(copy)
    assert problems == [f"models/ta_ttb/MODEL.md: tune ta / rules ELAS: card {elas + 1:.2f}, results {elas:.2f}"]


def test_a_changed_result_regenerates_every_page(copy: Path) -> None:
    path = copy / "eval" / "results" / "models" / "en_ewt" / "raw_text.json"
    _, elas = en_ewt_raw(copy)
    result = json.loads(path.read_text(encoding="utf-8"))
    result["figures"]["en_ewt"]["ELAS"] = 86.5
    path.write_text(json.dumps(result), encoding="utf-8")
    failing = report.check(copy)
    assert any(p.startswith("README.md") and f"{elas} (results: 86.50)" in p for p in failing)
    assert any(p.startswith("models/en_ewt/scores.json") for p in failing)
    assert any(p.startswith("models/en_ewt/MODEL.md") for p in failing)
    files, problems = report.build(copy)
    assert problems == []
    for where, text in files.items():
        where.write_text(text, encoding="utf-8")
    assert report.check(copy) == []
    assert json.loads((copy / "models" / "en_ewt" / "scores.json").read_text())["test"]["en_ewt"]["ELAS"] == 86.5


def test_halves_round_up() -> None:
    assert report.number(0.8025, ".3f") == "0.803"
    assert report.number(82.2) == "82.20"
    assert report.number(0.9088) == "0.9088"
