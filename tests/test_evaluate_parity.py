"""eud evaluate's counts equal the official scorer's (udtools.udeval, in-process) on real treebanks.

Two systems per gold test file: the basic tree copied into DEPS, and a
deterministic perturbation (tags, heads, labels, enhanced edges, empty nodes,
tokenization, sentence boundaries); see eval/fidelity/evaluator_parity.py.  The
default run covers a representative subset; ``-m slow`` covers every test file
and several ``--enhancements`` levels.
"""

from __future__ import annotations

import pytest

from eud.conllu import write_conllu
from tests.conftest import shared_files

pytest.importorskip("udtools.udeval")

from eval.fidelity import evaluator_parity as parity

# English (EWT), many empty nodes (Latvian), multiword tokens (Italian), Czech.
SUBSET = ("en_ewt", "lv_lvtb", "it_isdt", "cs_fictree")


def _subset_files():
    return [p for p in shared_files("*/*-test.conllu.xz") if p.name.split("-")[0] in SUBSET]


def _assert_parity(path, levels=("0",)):
    results = parity.compare_file(path, levels)
    problems = [f"{name} --enhancements {lv}: " + "; ".join(diffs) for name, lv, diffs in results if diffs]
    assert not problems, f"{path.name}: " + " | ".join(problems)
    assert len(results) == 2 * len(levels)


@pytest.mark.parametrize("path", _subset_files() or [None], ids=lambda p: p.name.split("-")[0] if p else "absent")
def test_parity_subset(path):
    if path is None:
        pytest.skip("shared UD data not found")
    _assert_parity(path)


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", shared_files("*/*-test.conllu.xz") or [None], ids=lambda p: p.name.split("-")[0] if p else "absent"
)
def test_parity_all_files_and_levels(path):
    if path is None:
        pytest.skip("shared UD data not found")
    _assert_parity(path, ("0", "1", "2", "4", "5", "6", "123456"))


def test_perturbation_keeps_text_and_changes_things(tmp_path):
    """The perturbed system differs from gold in every way the parity check is meant to exercise."""
    files = _subset_files()
    if not files:
        pytest.skip("shared UD data not found")
    path = next(p for p in files if p.name.startswith("it_isdt"))
    _, systems = parity.systems_for(path)
    gold = parity.eud_load(path)
    system_path = tmp_path / "perturbed.conllu"
    write_conllu(systems["perturbed"], system_path)
    system = parity.eud_load(system_path)
    assert gold.text == system.text
    counts = parity.eud_counts(gold, system)
    for metric in ("Tokens", "Sentences", "Words", "UPOS", "LAS", "ELAS"):
        correct, n_gold, n_system, _ = counts[metric]
        assert correct < n_gold and correct < n_system, metric
    assert len(gold.token_start) != len(system.token_start)
    assert len(gold.sent_start) != len(system.sent_start)
