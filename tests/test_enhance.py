"""The enhancer rules on small hand-written sentences whose expected DEPS are spelt out."""

from __future__ import annotations

import tomllib

import pytest

from eud.conllu import format_sentence, parse_conllu, read_conllu
from eud.enhance import Enhancer
from eud.enhance.profiles import ProfileError, find_profile, profile_from_dict
from eud.graph import EnhancedGraph

EN = """
[profile]
name = "en"
[rules]
enabled = ["coordination", "shared", "control", "relative", "case_labels"]
[labels]
conj_cc = true
conj_skip = ["root"]
conj_share = ["verbal nsubj before", "verbal nsubj:pass before", "verbal obj after"]
xsubj = "nsubj:xsubj"
[labels.compose]
obl = ["lemma", "none"]
nmod = ["lemma", "none"]
advcl = ["lemma", "none"]
acl = ["lemma", "none"]
[words]
relative = ["that", "which", "who"]
object_control = ["ask"]
subject_control = ["promise"]
"""

CS = """
[profile]
name = "cs"
[labels]
case_values = ["Gen", "Loc", "Ins"]
[labels.compose]
obl = ["lemma+case", "case"]
nmod = ["lemma+case", "case"]
"""


def _profile(text: str):
    return profile_from_dict(tomllib.loads(text))


def _check(path, profile) -> None:
    """Strip DEPS, enhance, and compare every DEPS cell with the fixture's."""
    enhancer = Enhancer(profile)
    for gold in read_conllu(path):
        system = gold.copy()
        system.enhanced = EnhancedGraph()
        enhancer.enhance(system)
        for w in gold.words:
            assert system.deps(w.node) == gold.deps(w.node), f"{gold.sent_id} word {w.id} {w.form}"


@pytest.mark.parametrize(
    "name", ["enhance_case_en", "enhance_coordination", "enhance_control", "enhance_relative"]
)
def test_english_rules(fixtures, name):
    _check(fixtures / f"{name}.conllu", _profile(EN))


def test_case_and_lemma_case_labels(fixtures):
    _check(fixtures / "enhance_case_cs.conllu", _profile(CS))


def test_only_deps_change(fixtures):
    text = (fixtures / "enhance_relative.conllu").read_text()
    (sentence,) = parse_conllu(text)[:1]
    before = format_sentence(sentence).split("\n")
    Enhancer(_profile(EN)).enhance(sentence)
    after = format_sentence(sentence).split("\n")
    assert len(before) == len(after)
    for a, b in zip(before, after):
        assert a.split("\t")[:8] + a.split("\t")[9:] == b.split("\t")[:8] + b.split("\t")[9:]


def test_without_rules_gives_the_basic_tree(fixtures):
    prof = _profile(EN)
    prof.rules = ()
    (sentence,) = parse_conllu((fixtures / "enhance_control.conllu").read_text())[:1]
    Enhancer(prof).enhance(sentence)
    assert sentence.deps((1, 0)) == "2:nsubj"


def test_treebank_profile_falls_back_and_overrides():
    assert find_profile("en_ewt").name == "en_ewt"
    assert find_profile("cs_nosuchtreebank").name == "cs"
    with pytest.raises(ProfileError):
        find_profile("xx")


def test_bad_compose_spec_is_a_clear_error():
    with pytest.raises(ProfileError, match="labels.compose.obl"):
        profile_from_dict(tomllib.loads('[labels.compose]\nobl = ["lemma"]\n'))


def test_command_line(fixtures, tmp_path, capsys):
    from eud.commands.enhance import main

    out = tmp_path / "out.conllu"
    assert main([str(fixtures / "enhance_control.conllu"), "--lang", "en", "-o", str(out)]) == 0
    (first,) = parse_conllu(out.read_text())[:1]
    assert first.deps((1, 0)) == "2:nsubj|4:nsubj:xsubj|6:nsubj:xsubj"
    assert main([str(fixtures / "enhance_control.conllu"), "--lang", "xx"]) == 2
    assert "no profile for 'xx'" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.conllu"), "--lang", "en"]) == 2  # a missing input is a usage error
    err = capsys.readouterr().err
    assert "missing.conllu" in err and "Traceback" not in err


@pytest.mark.slow
def test_en_ewt_dev_is_enhanced_well_and_validly():
    import os
    import tempfile

    from conftest import needs_shared, shared_files

    from eud.conllu import write_conllu
    from eud.evaluate import evaluate_files

    paths = shared_files("en_ewt/en_ewt-ud-dev.conllu.xz")
    needs_shared(paths)
    enhancer = Enhancer(find_profile("en_ewt"))

    from eud.validate import check_sentence

    def stripped():
        for s in read_conllu(paths[0]):
            s.enhanced = EnhancedGraph()
            s.empty_nodes = []
            enhancer.enhance(s)
            assert not check_sentence(s), s.sent_id
            yield s

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "sys.conllu")
        write_conllu(stripped(), out)
        ev = evaluate_files(paths[0], out)
    assert ev["ELAS"].f1 > 0.985


ET_LIKE = """
[labels]
map = { "nsubj:cop" = "nsubj", "acl:relcl" = "acl" }
conj_share = ["verbal nsubj:cop before", "other nsubj:cop before"]
[labels.relative_gap]
"subj -" = "obj"
"""

SENTENCE = """# text = Mees on väsinud ja magab.
1\tMees\tmees\tNOUN\tS\t_\t3\tnsubj:cop\t_\t_
2\ton\tolema\tAUX\tV\t_\t3\tcop\t_\t_
3\tväsinud\tväsinud\tADJ\tA\t_\t0\troot\t_\t_
4\tja\tja\tCCONJ\tJ\t_\t5\tcc\t_\t_
5\tmagab\tmagama\tVERB\tV\t_\t3\tconj\t_\t_

# text = the book I read
1\tthe\tthe\tDET\tDT\t_\t2\tdet\t_\t_
2\tbook\tbook\tNOUN\tNN\t_\t0\troot\t_\t_
3\tI\tI\tPRON\tPRP\t_\t4\tnsubj\t_\t_
4\tread\tread\tVERB\tVBD\t_\t2\tacl:relcl\t_\t_

"""


def test_label_map_root_propagation_and_relative_gap():
    first, second = parse_conllu(SENTENCE)
    enhancer = Enhancer(_profile(ET_LIKE))
    enhancer.enhance(first)
    assert first.deps((1, 0)) == "3:nsubj|5:nsubj"  # mapped, and shared with its mapped label
    assert first.deps((5, 0)) == "0:root|3:conj"  # root propagates unless conj_skip lists it
    enhancer.enhance(second)
    assert second.deps((2, 0)) == "0:root|4:obj"  # the gap of "the book I read"
    assert second.deps((4, 0)) == "2:acl"
