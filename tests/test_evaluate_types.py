"""Classification of enhanced edges into enhancement types, on a hand-written sentence per phenomenon."""

from __future__ import annotations

from eud.conllu import parse_conllu
from eud.evaluate.data import ROOT_HEAD, load_for_scoring
from eud.evaluate.enhancement_types import classify


def _types(text: str) -> dict[tuple[int, int, str], str]:
    """(head id, dependent id, label) -> type, with 1-based ids and 0 for the root."""
    file = load_for_scoring(parse_conllu(text), "test")
    out = {}
    for dep, deps in enumerate(file.deps):
        for head, label, _ in deps:
            out[(0 if head == ROOT_HEAD else head + 1, dep + 1, label)] = classify(file, dep, head, label)
    return out


def _row(i, form, head, deprel, deps):
    return f"{i}\t{form}\t{form}\tX\t_\t_\t{head}\t{deprel}\t{deps}\t_\n"


COORDINATION = (
    _row(1, "Mary", 3, "nsubj", "3:nsubj|5:nsubj")
    + _row(2, "will", 3, "aux", "3:aux|5:aux")
    + _row(3, "eat", 0, "root", "0:root")
    + _row(4, "and", 5, "cc", "5:cc")
    + _row(5, "drink", 3, "conj", "0:root|3:conj:and")
    + _row(6, "apples", 3, "obj", "3:obj|5:obj")
    + "\n"
)

CONTROL_AND_RELATIVE = (
    _row(1, "people", 4, "nsubj", "3:nsubj|4:nsubj|6:nsubj:xsubj")
    + _row(2, "who", 3, "nsubj", "1:ref")
    + _row(3, "came", 1, "acl:relcl", "1:acl:relcl")
    + _row(4, "want", 0, "root", "0:root")
    + _row(5, "to", 6, "mark", "6:mark")
    + _row(6, "stay", 4, "xcomp", "4:xcomp")
    + "\n"
)


def test_coordination_types():
    assert _types(COORDINATION) == {
        (3, 1, "nsubj"): "basic",
        (5, 1, "nsubj"): "coord-shared-dependent",
        (3, 2, "aux"): "basic",
        (5, 2, "aux"): "coord-shared-dependent",
        (0, 3, "root"): "basic",
        (5, 4, "cc"): "basic",
        (0, 5, "root"): "coord-shared-parent",
        (3, 5, "conj:and"): "case-marked",
        (3, 6, "obj"): "basic",
        (5, 6, "obj"): "coord-shared-dependent",
    }


def test_control_and_relative_clause_types():
    assert _types(CONTROL_AND_RELATIVE) == {
        (3, 1, "nsubj"): "relative-clause",
        (4, 1, "nsubj"): "basic",
        (6, 1, "nsubj:xsubj"): "controlled-subject",
        (1, 2, "ref"): "relative-clause",
        (1, 3, "acl:relcl"): "basic",
        (0, 4, "root"): "basic",
        (6, 5, "mark"): "basic",
        (4, 6, "xcomp"): "basic",
    }


def test_collapsed_path_is_ellipsis_and_unknown_is_other():
    text = (
        _row(1, "a", 0, "root", "0:root")
        + "1.1\t_\t_\tX\t_\t_\t_\t_\t1:conj\t_\n"
        + _row(2, "b", 1, "conj", "1:conj")
        + _row(3, "c", 2, "orphan", "1.1:obj|2:nmod")
        + "\n"
    )
    types = _types(text)
    assert types[(1, 3, "conj>obj")] == "ellipsis"
    # Same head as the basic relation but an unrelated label.
    assert types[(2, 3, "nmod")] == "other"
