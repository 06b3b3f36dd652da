"""eval/gapping/fresh_text.py: the texts it builds from the Debian packages, and its hand labels."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from eval.gapping import fresh_text


def _module():
    """The benchmark module, eval/gapping/fresh_text.py."""
    return fresh_text


def test_a_fortune_file_gives_one_paragraph_per_fortune(tmp_path: Path) -> None:
    fresh = _module()
    (tmp_path / "quotes").write_text(
        "Ann read novels in winter,\nand Bob poems in spring.\n"
        "\t\t-- A. Nonymous\n%\n"
        "   /\\_/\\\n  ( o.o )\n   > ^ <   drawn cat\n%\n"
        "Short.\n%\n"
        "The north voted yes and the south no, as everyone expected.\n", encoding="utf-8")
    assert fresh.fortune_paragraphs(tmp_path / "quotes") == [
        "Ann read novels in winter, and Bob poems in spring.",  # lines joined, the attribution dropped
        "The north voted yes and the south no, as everyone expected.",
    ]  # the drawing and the too-short fortune are left out


def test_wordnet_examples_are_the_quoted_parts_of_the_glosses(tmp_path: Path) -> None:
    fresh = _module()
    (tmp_path / "data.noun").write_text(
        "  1 This software and database is provided by Princeton University\n"
        '00001740 03 n 01 entity 0 000 | that which exists; "the committee met the mayor in May and the governor in June"\n',
        encoding="utf-8")
    for part in ("verb", "adj", "adv"):
        (tmp_path / f"data.{part}").write_text(
            f'00000001 00 {part[0]} 01 word 0 000 | a gloss; "short" ; "she chose the red one and he the blue {part}"\n',
            encoding="utf-8")
    assert fresh.wordnet_examples(tmp_path) == [
        "the committee met the mayor in May and the governor in June",
        "she chose the red one and he the blue verb",
        "she chose the red one and he the blue adj",
        "she chose the red one and he the blue adv",
    ]  # the licence header and examples under 25 characters are skipped


def test_the_policy_manual_gives_its_prose_paragraphs(tmp_path: Path) -> None:
    fresh = _module()
    text = (
        "Sample Manual\n*************\n\n"
        "* 1. Scope\n\n  * 1.1. Packages\n\n"
        "1.1. Packages\n=============\n\n"
        "A package must declare its needs in the \"Depends\" field, and a library its\n"
        "version in the \"Provides\" field.  [1]\n\n"
        "For example:\n\n   Package: foo\n   Depends: bar (>= 1.0)\n\n"
        "* the build target, which compiles the sources and writes the\n  results in the \"build\" directory.\n\n"
        "* \"dd\" is the day of the month (01-31)\n\n"
        "Free Redistribution\n      The licence may not restrict any party from selling the\n"
        "      software, nor any maintainer from giving it away.\n\n"
        "The Build-Depends-\nIndep field lists the packages needed for architecture-\n"
        "independent builds.\n\n"
        "[1] Compare RFC 2119, which uses these words in a different\n    way.\n")
    with gzip.open(tmp_path / "policy.txt.gz", "wt", encoding="utf-8") as f:
        f.write(text)
    assert fresh.policy_paragraphs(tmp_path / "policy.txt.gz") == [
        'A package must declare its needs in the "Depends" field, and a library its version in the "Provides" field.',
        'the build target, which compiles the sources and writes the results in the "build" directory.',
        "The licence may not restrict any party from selling the software, nor any maintainer from giving it away.",
        "The Build-Depends-Indep field lists the packages needed for architecture-independent builds.",
        "Compare RFC 2119, which uses these words in a different way.",
    ]  # headings, the contents, the literal block and the list item with no full stop are left out


def test_a_sentence_key_depends_on_its_words_only() -> None:
    fresh = _module()
    assert fresh.key(["Ann", "left", "."]) == fresh.key(["Ann", "left", "."])
    assert fresh.key(["Ann", "left", "."]) != fresh.key(["Ann", "left", "!"])
    assert len(fresh.key(["x"])) == 12


def test_the_shipped_labels_are_well_formed() -> None:
    fresh = _module()
    labels = fresh.read_labels(fresh.LABELS)
    rows = [line for line in fresh.LABELS.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    assert len(labels) == len(rows)  # no key labelled twice
    assert {label for label, _ in labels.values()} == set(fresh.KINDS)
    assert all(note for _, note in labels.values())


def test_a_bad_label_line_names_the_file_and_line(tmp_path: Path) -> None:
    fresh = _module()
    path = tmp_path / "labels.tsv"
    path.write_text("# comment\nabc123abc123\tgapping\tsubject and object remnants\nabc123abc124\tmaybe\tno such label\n",
                    encoding="utf-8")
    with pytest.raises(SystemExit, match=r"labels\.tsv:3: expected"):
        fresh.read_labels(path)
