"""``eud profile learn`` on the hand-written enhancer fixtures, whose gold DEPS are known."""

from __future__ import annotations

from eud.commands.profile import main
from eud.enhance.profiles import load_profile

EN_FIXTURES = ["enhance_case_en", "enhance_coordination", "enhance_control", "enhance_relative"]


def test_learns_the_english_dialect(fixtures, tmp_path):
    out = tmp_path / "en.toml"
    paths = [str(fixtures / f"{n}.conllu") for n in EN_FIXTURES]
    # each file twice: the learner wants three examples before it shares a relation
    assert main(["learn", *paths, *paths, "-o", str(out)]) == 0
    prof = load_profile(out)
    assert prof.compose["obl"] == ("lemma", "none")
    assert prof.conj_cc is True
    assert prof.xsubj == "nsubj:xsubj"
    assert "relative" in prof.rules and "control" in prof.rules
    assert {"who", "which", "that"} <= prof.relative_words
    assert "ask" in prof.object_control
    assert "promise" in prof.subject_control
    assert "verbal nsubj before" in prof.conj_share
    assert "nominal amod before" not in prof.conj_share  # "old cats and dogs": not shared in gold
    assert prof.relcl == ("acl:relcl",)


def test_learns_case_suffixes(fixtures, tmp_path):
    out = tmp_path / "cs.toml"
    # twice the same file: the learner wants at least two or three examples of a pattern
    path = str(fixtures / "enhance_case_cs.conllu")
    assert main(["learn", path, path, path, "-o", str(out)]) == 0
    prof = load_profile(out)
    assert prof.compose["obl"][0] == "lemma+case"
    assert prof.compose["nmod"][1] == "case"
    assert "Gen" in prof.case_values["nmod"]
    assert "Nom" not in prof.case_values.get("nmod", ())  # Novák's flat is no nmod, and no nmod:nom was seen


def test_missing_file_is_a_one_line_error(tmp_path, capsys):
    assert main(["learn", str(tmp_path / "nope.conllu"), "-o", str(tmp_path / "x.toml")]) == 2  # a missing input is a usage error
    err = capsys.readouterr().err
    assert "nope.conllu" in err and "Traceback" not in err
