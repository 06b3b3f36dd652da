"""eud validate covers UD levels 1 and 2: hand-written faults, and differential tests against udvalidate.

Fixtures in tests/fixtures/levels/ are named ``TESTID.what.conllu``: each is
the valid base file with one hand-made fault that udvalidate reports as TESTID
(``valid.*`` files must pass).  The differential tests corrupt valid files with
one fault each (eval/helpers/faults.py, 44 kinds) and require eud and udvalidate to
agree on valid/invalid and on the first error's test id.
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

import pytest
from conftest import FIXTURES, needs_shared, shared_files

from eud.commands.validate import main
from eval.helpers import faults

LEVELS_DIR = FIXTURES / "levels"
CASES = sorted(p.name for p in LEVELS_DIR.glob("*.conllu"))


def _problems(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, [line.split(": [", 1)[1].split("]", 1)[0] for line in out.splitlines() if ": [" in line]


@pytest.mark.parametrize("name", CASES)
def test_fixture_flagged_with_its_test_id(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(LEVELS_DIR / name)
    code, ids = _problems(capsys, path)
    expected = name.split(".")[0]
    if expected == "valid":
        assert (code, ids) == (0, [])
    else:
        assert code == 1 and expected in ids, ids
        assert faults.eud_verdict(path) == faults.udvalidate_verdict(path)


def test_at_least_thirty_fault_kinds_by_hand() -> None:
    assert len({name.split(".")[0] for name in CASES} - {"valid"}) >= 30


def test_level_one_skips_level_two(capsys: pytest.CaptureFixture[str]) -> None:
    # A cycle is a level-2 finding; a missing empty line is level 1.
    assert _problems(capsys, "--level", "1", str(LEVELS_DIR / "non-tree.cycle.conllu")) == (0, [])
    code, ids = _problems(capsys, "--level", "1", str(LEVELS_DIR / "missing-empty-line.no-final-newline.conllu"))
    assert code == 1 and ids == ["missing-empty-line"]
    with pytest.raises(SystemExit) as exit_info:
        main(["--level", "3", str(LEVELS_DIR / "valid.base.conllu")])
    assert exit_info.value.code == 2


def _differential(blocks: list[faults.Block], count: int, seed: int, tmp_path: Path) -> tuple[int, list, Counter]:
    agree, disagreements, kinds = 0, [], Counter()
    for i, (kind, data) in enumerate(faults.variants(blocks, count, seed=seed)):
        path = tmp_path / f"v{i}.conllu"
        path.write_bytes(data)
        ours, theirs = faults.eud_verdict(str(path)), faults.udvalidate_verdict(str(path))
        kinds[kind] += 1
        if ours == theirs:
            agree += 1
        else:
            disagreements.append((kind, ours, theirs))
        path.unlink()
    return agree, disagreements, kinds


def test_differential_on_fixture_variants(tmp_path: Path) -> None:
    blocks = faults.split_blocks((LEVELS_DIR / "valid.base.conllu").read_text(encoding="utf-8")) * 2
    blocks[2:] = [[line.replace("pets-", "pets-b") for line in block] for block in blocks[2:]]
    _, disagreements, kinds = _differential(blocks, 200, 7, tmp_path)
    assert len(kinds) >= 30
    assert not disagreements, disagreements


def test_differential_on_en_ewt_dev(tmp_path: Path) -> None:
    paths = shared_files("en_ewt/en_ewt-ud-dev.conllu.xz")
    needs_shared(paths)
    blocks = faults.split_blocks(faults.read_text(paths[0]))
    agree, disagreements, kinds = _differential(blocks, 300, 1, tmp_path)
    assert len(kinds) >= 30
    assert agree / 300 >= 0.995, disagreements


@pytest.mark.slow
@pytest.mark.parametrize("treebank", ["en_ewt", "cs_fictree", "lv_lvtb", "it_isdt", "fi_tdt", "nl_lassysmall"])
def test_differential_thousands(treebank: str, tmp_path: Path) -> None:
    paths = shared_files(f"{treebank}/*-dev.conllu.xz")
    needs_shared(paths)
    blocks = faults.split_blocks(faults.read_text(paths[0]))
    agree, disagreements, _ = _differential(blocks, 800, 11, tmp_path)
    assert agree / 800 >= 0.995, disagreements


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("udvalidate") is None, reason="the udvalidate command is not installed")
def test_in_process_reference_equals_the_udvalidate_command(tmp_path: Path) -> None:
    # The differential tests call udtools in-process for speed; the real command must say the same.
    blocks = faults.split_blocks((LEVELS_DIR / "valid.base.conllu").read_text(encoding="utf-8"))
    rng = random.Random(3)
    for i, (_, data) in enumerate(faults.variants(blocks, 60, seed=rng.randrange(100))):
        path = tmp_path / f"v{i}.conllu"
        path.write_bytes(data)
        assert faults.udvalidate_command_verdict(str(path)) == faults.udvalidate_verdict(str(path))
