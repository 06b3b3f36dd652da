"""One exit-code convention for every subcommand, and -o files that appear whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES

from eud.atomic import atomic_text, temporary_name
from eud.cli import main as eud

VALID = FIXTURES / "levels" / "valid.base.conllu"
# A file whose second sentence the reader refuses (HEAD "x"): enhancing it must stop with 1 and write nothing.
BROKEN_LATE = VALID.read_text(encoding="utf-8") + "# sent_id = z\n# text = a\n1\ta\ta\tX\t_\t_\tx\troot\t_\t_\n\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["enhance", "--lang", "en", "{missing}"],
        ["evaluate", "{missing}", str(VALID)],
        ["evaluate", str(VALID), "{missing}"],
        ["validate", "{missing}"],
        ["collapse", "{missing}"],
        ["render", "{missing}"],
        ["profile", "learn", "{missing}"],
    ],
)
def test_missing_input_is_a_usage_error(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nope.conllu")
    code = eud([a.replace("{missing}", missing) for a in argv])
    assert code == 2
    assert "nope.conllu" in capsys.readouterr().err


@pytest.mark.parametrize("config_text", [
    'train = "nope.conllu"\ndev = "nope.conllu"\noutput = "m"\nwork_dir = "w"\nlanguage = "en"\n',
    'task = "segmenter"\noutput = "m"\n[languages]\nen = ["nope.conllu"]\n',
], ids=["parser", "segmenter"])
def test_a_training_file_the_config_names_must_exist(config_text: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    config = tmp_path / "train.toml"  # paths relative to the config: tmp_path/nope.conllu
    config.write_text(config_text, encoding="utf-8")
    assert eud(["train", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path / "nope.conllu") in err and "Traceback" not in err


@pytest.mark.parametrize("command", [["enhance", "--lang", "en"], ["collapse"], ["validate", "--fix"]])
def test_no_half_written_output(command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.conllu"
    source.write_text(BROKEN_LATE, encoding="utf-8")
    out = tmp_path / "out.conllu"
    assert eud([*command, "-o", str(out), str(source)]) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == [source]
    said = capsys.readouterr()
    assert f"{source}:" in said.out + said.err  # names the file (and line) of the problem
    out.write_text("before\n", encoding="utf-8")
    assert eud([*command, "-o", str(out), str(source)]) == 1
    assert out.read_text(encoding="utf-8") == "before\n"  # an old output survives a failed run


def test_successful_runs_write_and_exit_zero(tmp_path: Path) -> None:
    out = tmp_path / "out.conllu.gz"
    assert eud(["enhance", "--lang", "en", "-o", str(out), str(VALID)]) == 0
    assert eud(["validate", str(out)]) == 0
    assert eud(["evaluate", str(VALID), str(VALID)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.conllu.gz"]


def test_problems_found_exit_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert eud(["validate", str(FIXTURES / "levels" / "non-tree.cycle.conllu")]) == 1
    assert eud(["nosuchcommand"]) == 2


def test_atomic_text_keeps_the_compression_suffix_and_cleans_up(tmp_path: Path) -> None:
    target = tmp_path / "a.conllu.xz"
    assert temporary_name(target).endswith(".tmp.xz")
    with pytest.raises(RuntimeError), atomic_text(target) as stream:
        stream.write("half")
        raise RuntimeError("stop")
    assert list(tmp_path.iterdir()) == []
    with atomic_text(target) as stream:
        stream.write("whole\n")
    assert [p.name for p in tmp_path.iterdir()] == ["a.conllu.xz"]


def test_enhance_lenient_lists_skipped_sentences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.conllu"
    source.write_text(BROKEN_LATE, encoding="utf-8")
    out = tmp_path / "out.conllu"
    assert eud(["enhance", "--lang", "en", "--lenient", "-o", str(out), str(source)]) == 1
    err = capsys.readouterr().err
    assert f"eud enhance: skipped unreadable sentence: {source}:26: bad HEAD" in err
    assert out.read_text(encoding="utf-8").count("# sent_id") == 2  # the readable sentences are written
    assert eud(["enhance", "--lang", "en", "--lenient-ok", "-o", str(out), str(source)]) == 0
    assert eud(["validate", str(out)]) == 0
