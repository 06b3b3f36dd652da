"""eud validate: every check fires on a sentence built to break it, with the line udvalidate gives."""

from __future__ import annotations

import lzma
import shutil
from pathlib import Path

import pytest
from conftest import needs_shared, shared_files

from eud.commands.validate import main
from eud.conllu import parse_conllu
from eud.graph import EmptyNode, Sentence, Word
from eud.validate import check_file, check_sentence, edeprel_is_valid, node_lines

FIXTURES = Path(__file__).resolve().parent / "fixtures"

# (line, testid) of every problem in each fixture, worked out by hand (and what
# udvalidate --level 3 reports on the same files, restricted to enhanced-graph tests).
EXPECTED = {
    "validate_valid.conllu": [],
    "validate_nograph.conllu": [],
    "validate_deps_order.conllu": [(3, "unsorted-deps"), (7, "unsorted-deps-2"), (11, "repeated-deps")],
    "validate_graph.conllu": [
        (3, "deps-self-loop"),
        (10, "unconnected-egraph"),
        (19, "unconnected-egraph"),
        (26, "unconnected-egraph"),
    ],
    "validate_labels.conllu": [
        (3, "invalid-edeprel"),
        (5, "unknown-eudeprel"),
        (9, "enhanced-root-is-not-0"),
        (10, "enhanced-0-is-not-root"),
        (10, "unknown-eudeprel"),
    ],
    "validate_empty.conllu": [
        (8, "empty-node-nonempty-field"),
        (8, "empty-node-nonempty-field"),
        (18, "misplaced-empty-node"),
    ],
    "validate_ids.conllu": [(3, "invalid-deps"), (8, "unknown-ehead"), (13, "invalid-ehead"), (13, "unknown-ehead")],
    "validate_sometimes.conllu": [(8, "edeps-only-sometimes")],
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, [line for line in out.splitlines() if line], err


def found(out: list[str]) -> list[tuple[int, str]]:
    pairs = []
    for line in out:
        where, _, rest = line.partition(": [")
        pairs.append((int(where.rsplit(":", 1)[1]), rest.partition("]")[0]))
    return sorted(pairs)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_problems(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(FIXTURES / name)
    code, out, err = run(capsys, path)
    assert found(out) == sorted(EXPECTED[name])
    assert code == (1 if EXPECTED[name] else 0)
    assert all(line.startswith(f"{path}:") for line in out)
    assert "eud validate:" in err


def test_unreadable_sentence_reported_once_by_its_cause(capsys: pytest.CaptureFixture[str]) -> None:
    # empty-2 is misnumbered (5.2 with no 5.1): the reader refuses it, the report names the cause.
    code, out, _ = run(capsys, str(FIXTURES / "validate_empty.conllu"))
    assert code == 1
    assert not any("[unreadable]" in line for line in out)


def test_unreadable_other_cause(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.conllu"
    bad.write_text("# sent_id = a\n# text = Kim\n1\tKim\tKim\tPROPN\t_\t_\t7\tnsubj\t_\t_\n\n", encoding="utf-8")
    code, out, _ = run(capsys, str(bad))
    assert code == 1
    assert found(out) == [(3, "unknown-head")]  # udvalidate's finding, not eud's bare "unreadable"
    code, out, err = run(capsys, "--lenient", str(bad))
    assert code == 1 and out == []  # skipped, listed with file and line, and the status says so
    assert f"skipped unreadable sentence: {bad}:3: [unknown-head]" in err and "1 unreadable sentences skipped" in err
    code, out, err = run(capsys, "--lenient-ok", str(bad))
    assert code == 0 and out == [] and "skipped unreadable sentence" in err


def test_quiet_max_errors_and_usage(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(FIXTURES / "validate_labels.conllu")
    code, out, err = run(capsys, "--quiet", path)
    assert (code, out, err) == (1, [], "")
    code, out, _ = run(capsys, "--max-errors", "2", path)
    assert code == 1 and len(out) == 2
    with pytest.raises(SystemExit) as exit_info:
        main([])
    assert exit_info.value.code == 2
    assert main([str(FIXTURES / "no_such_file.conllu")]) == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["--fix", "-o", path, path])
    assert exit_info.value.code == 2


def test_files_share_the_all_or_none_state(capsys: pytest.CaptureFixture[str]) -> None:
    # A file with graphs, then one without: like udvalidate, the second is flagged.
    code, out, _ = run(capsys, str(FIXTURES / "validate_valid.conllu"), str(FIXTURES / "validate_nograph.conllu"))
    assert code == 1
    assert [line.split(": [")[1].split("]")[0] for line in out] == ["edeps-only-sometimes"]
    assert out[0].startswith(str(FIXTURES / "validate_nograph.conllu") + ":3:")


def test_valid_sentence_has_no_problems() -> None:
    for sentence in parse_conllu((FIXTURES / "validate_valid.conllu").read_text(encoding="utf-8")):
        assert check_sentence(sentence) == []


def test_node_lines_match_the_file() -> None:
    text = (FIXTURES / "validate_valid.conllu").read_text(encoding="utf-8")
    lines = text.split("\n")
    for sentence in parse_conllu(text):
        start = sentence.line
        assert start is not None
        for node, line in node_lines(sentence).items():
            ident = f"{node[0]}.{node[1]}" if node[1] else str(node[0])
            assert lines[line - 1].split("\t")[0] == ident
            assert line > start


def _sentence(n: int = 2) -> Sentence:
    words = [Word(i, f"w{i}", upos="X", head=0 if i == 1 else 1, deprel="root" if i == 1 else "dep") for i in range(1, n + 1)]
    sentence = Sentence(words=words)
    sentence.copy_basic_to_enhanced()
    return sentence


def test_check_sentence_on_sentences_built_in_code() -> None:
    sentence = _sentence(3)
    assert check_sentence(sentence) == []
    sentence.empty_nodes.append(EmptyNode(2, 2, head="1", deprel="_"))
    sentence.enhanced.add((1, 0), (2, 2), "conj")
    sentence.enhanced.add((9, 0), (3, 0), "dep")
    sentence.enhanced.add((2, 0), (7, 0), "obj")
    ids = sorted(p.testid for p in check_sentence(sentence))
    assert ids == ["empty-node-nonempty-field", "misplaced-empty-node", "unknown-edep", "unknown-ehead"]
    assert all(p.line is None for p in check_sentence(sentence))


def test_unconnected_lists_every_unreachable_node() -> None:
    sentence = _sentence(4)
    sentence.enhanced.clear_heads((3, 0))
    sentence.enhanced.clear_heads((4, 0))
    sentence.enhanced.add((4, 0), (3, 0), "dep")
    sentence.enhanced.add((3, 0), (4, 0), "dep")
    (problem,) = check_sentence(sentence)
    assert problem.testid == "unconnected-egraph" and problem.node == (3, 0)
    assert "3, 4 not reachable" in problem.message


def test_cycles_away_from_the_root_are_allowed() -> None:
    sentence = _sentence(3)
    sentence.enhanced.add((3, 0), (2, 0), "dep")
    sentence.enhanced.add((2, 0), (3, 0), "dep")
    assert check_sentence(sentence) == []


def test_problem_levels() -> None:
    (problem,) = [p for p in check_sentence(_with_label("obj", head=(0, 0)))]
    assert (problem.testid, problem.level) == ("enhanced-0-is-not-root", 3)


def _with_label(label: str, head: tuple[int, int] = (1, 0)) -> Sentence:
    sentence = _sentence(2)
    sentence.enhanced.clear_heads((2, 0))
    sentence.enhanced.add(head, (2, 0), label)
    return sentence


@pytest.mark.parametrize(
    ("label", "valid"),
    [
        ("nsubj", True),
        ("nsubj:pass", True),
        ("obl:za_účelem", True),
        ("obl:arg:in:gen", True),
        ("nmod:poss:gen", True),
        ("conj:and_or", True),
        ("obl:в:loc", True),
        ("nsubj:Pass", False),
        ("Nsubj", False),
        ("obl:_x", False),
        ("obl:x__y", False),
        ("obl:a:b:c:d", False),
        ("obl:", False),
        ("obl:in:за:gen", True),
        ("obl:за:в:gen", False),
        ("obl:in1", False),
    ],
)
def test_edeprel_format(label: str, valid: bool) -> None:
    assert edeprel_is_valid(label) is valid


def test_check_file_yields_sentences_with_their_lines() -> None:
    checked = list(check_file(str(FIXTURES / "validate_graph.conllu")))
    assert [c.line for c in checked] == [1, 6, 14, 24]
    assert all(c.sentence is not None and c.error is None for c in checked)


# -- agreement with udvalidate ------------------------------------------------------

UDVALIDATE = shutil.which("udvalidate")


def _agreement_module():
    """eval/fidelity/validate_agreement.py."""
    from eval.fidelity import validate_agreement

    return validate_agreement


@pytest.mark.skipif(UDVALIDATE is None, reason="udvalidate (udtools) is not installed")
def test_agreement_on_fixtures() -> None:
    agreement = _agreement_module()
    for name, expected in EXPECTED.items():
        row = agreement.compare(FIXTURES / name)
        assert not row["only_eud"] and not row["only_udvalidate"], (name, row)
        assert sorted(testid for _, testid in row["udvalidate"].elements()) == sorted(t for _, t in expected)


@pytest.mark.slow
@pytest.mark.skipif(UDVALIDATE is None, reason="udvalidate (udtools) is not installed")
@pytest.mark.parametrize("pattern", ["en_ewt/en_ewt-ud-dev.conllu.xz", "lv_lvtb/lv_lvtb-ud-dev.conllu.xz"])
def test_agreement_on_shared_files_clean_and_corrupted(pattern: str, tmp_path: Path) -> None:
    paths = shared_files(pattern)
    needs_shared(paths)
    agreement = _agreement_module()
    plain = tmp_path / "plain.conllu"
    with lzma.open(paths[0], "rb") as src:
        plain.write_bytes(src.read())
    row = agreement.compare(plain)
    assert not row["eud"] and not row["udvalidate"]  # released treebanks are valid
    broken = tmp_path / "broken.conllu"
    agreement.corrupt_file(plain, broken, seed=4)
    row = agreement.compare(broken)
    assert sum(row["udvalidate"].values()) > 100  # the corruption really broke things
    assert not row["only_eud"] and not row["only_udvalidate"], row
    fixed = tmp_path / "fixed.conllu"
    assert main(["--fix", "-q", "-o", str(fixed), str(broken)]) == 0
    assert not agreement.compare(fixed)["udvalidate"]


def test_bad_utf8_named_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.conllu"
    bad.write_bytes(b"1\tKim\tKim\tX\t_\t_\t0\troot\t0:root\t_\n\n1\tK\xff\tK\tX\t_\t_\t0\troot\t0:root\t_\n\n")
    assert main([str(bad)]) == 1
    assert f"{bad}:3: invalid UTF-8" in capsys.readouterr().err


def test_compressed_input_and_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    packed = tmp_path / "graph.conllu.xz"
    packed.write_bytes(lzma.compress((FIXTURES / "validate_graph.conllu").read_bytes()))
    code, out, _ = run(capsys, str(packed))
    assert code == 1 and found(out) == sorted(EXPECTED["validate_graph.conllu"])
    fixed = tmp_path / "fixed.conllu.gz"
    assert main(["--fix", "-q", "-o", str(fixed), str(packed)]) == 0
    assert main([str(fixed)]) == 0
