"""Collapsing empty nodes into path labels, on hand-written sentences with worked-out answers."""

from __future__ import annotations

from eud.collapse import collapse_empty_nodes
from eud.commands.collapse import main
from eud.conllu import format_sentence, parse_conllu, read_conllu


def _deps(sentence) -> dict[int, str]:
    return {w.id: sentence.deps(w.node) for w in sentence.words}


def _load(fixtures):
    return {s.sent_id: s for s in read_conllu(fixtures / "eval_collapse.conllu")}


def test_simple_gapping(fixtures):
    sentence = _load(fixtures)["gapping"]
    out = collapse_empty_nodes(sentence)
    assert out.empty_nodes == []
    assert _deps(out) == {
        1: "2:nsubj",
        2: "0:root",
        3: "2:obj",
        4: "2:conj:and>cc",
        5: "2:conj:and>nsubj",
        6: "2:conj:and>obj",
    }
    # The input is not modified.
    assert len(sentence.empty_nodes) == 1
    assert sentence.deps((5, 0)) == "5.1:nsubj"


def test_chain_of_two_empty_nodes(fixtures):
    out = collapse_empty_nodes(_load(fixtures)["chain"])
    assert _deps(out) == {1: "0:root", 2: "1:conj>dep>nsubj", 3: "1:conj>obj|1:dep"}


def test_empty_node_with_several_parents_and_children(fixtures):
    out = collapse_empty_nodes(_load(fixtures)["fan"])
    # Two parents (1:conj, 2:acl) times two children (3 nsubj, 4 obj): four paths.
    assert _deps(out) == {
        1: "0:root",
        2: "1:dep",
        3: "1:conj>nsubj|1:dep|2:acl>nsubj",
        4: "1:conj>obj|2:acl>obj",
    }


def test_basic_tree_and_other_columns_unchanged(fixtures):
    sentence = _load(fixtures)["gapping"]
    out = collapse_empty_nodes(sentence)
    assert [(w.form, w.head, w.deprel, w.misc) for w in out.words] == [
        (w.form, w.head, w.deprel, w.misc) for w in sentence.words
    ]
    assert out.comments == sentence.comments


def test_cycle_through_empty_nodes_terminates_and_self_loop_kept():
    text = (
        "1\ta\t_\tX\t_\t_\t0\troot\t0:root|1.1:x\t_\n"
        "1.1\t_\t_\tX\t_\t_\t_\t_\t1:y|1.2:z\t_\n"
        "1.2\t_\t_\tX\t_\t_\t_\t_\t1.1:w\t_\n"
        "2\tb\t_\tX\t_\t_\t1\tdep\t1.2:v\t_\n\n"
    )
    out = collapse_empty_nodes(parse_conllu(text)[0])
    # 1 -y-> 1.1 -x-> 1 is a path from a word to a word: a self-loop edge.
    # 1.1 <-> 1.2 is a cycle: partial paths that repeat a node are not grown,
    # but, as in the official script, a finished path is only checked piecewise,
    # so 1 -y-> 1.1 -w-> 1.2 -z-> 1.1 -x-> 1 (joined from two cycle-free halves) stays.
    assert _deps(out) == {1: "0:root|1:y>w>z>x|1:y>x", 2: "1:y>w>v"}


def test_empty_node_without_children_or_parents_vanishes():
    text = (
        "1\ta\t_\tX\t_\t_\t0\troot\t0:root\t_\n"
        "1.1\t_\t_\tX\t_\t_\t_\t_\t1:orphaned\t_\n"
        "1.2\t_\t_\tX\t_\t_\t_\t_\t_\t_\n"
        "2\tb\t_\tX\t_\t_\t1\tdep\t1:dep|1.2:nsubj\t_\n\n"
    )
    out = collapse_empty_nodes(parse_conllu(text)[0])
    assert _deps(out) == {1: "0:root", 2: "1:dep"}


def test_same_label_path_twice_is_one_edge():
    text = (
        "1\ta\t_\tX\t_\t_\t0\troot\t0:root\t_\n"
        "1.1\t_\t_\tX\t_\t_\t_\t_\t1:conj\t_\n"
        "1.2\t_\t_\tX\t_\t_\t_\t_\t1:conj\t_\n"
        "2\tb\t_\tX\t_\t_\t1\tdep\t1.1:obj|1.2:obj\t_\n\n"
    )
    out = collapse_empty_nodes(parse_conllu(text)[0])
    assert _deps(out) == {1: "0:root", 2: "1:conj>obj"}


def test_cli_writes_collapsed_file(fixtures, tmp_path, capsys):
    target = tmp_path / "out.conllu"
    assert main([str(fixtures / "eval_collapse.conllu"), "-o", str(target)]) == 0
    text = target.read_text()
    assert "5.1\t" not in text
    assert "2:conj:and>nsubj" in text
    again = parse_conllu(text)
    assert [format_sentence(s) for s in again] == [
        format_sentence(collapse_empty_nodes(s)) for s in read_conllu(fixtures / "eval_collapse.conllu")
    ]


def test_cli_bad_input_is_one_line_error(tmp_path, capsys):
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\ta\n\n")
    assert main([str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("eud collapse: ") and "bad.conllu:1" in err and "\n" not in err
