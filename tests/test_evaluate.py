"""eud evaluate on hand-written gold/system files whose scores were worked out by hand.

tests/fixtures/eval_gold.conllu has three sentences: a relative clause with a
controlled subject, gapping with an empty node, and a multiword token.  The
system file makes known mistakes: a wrong head, a missing ``ref``, a missing
relative-clause edge, ``nsubj`` for ``nsubj:xsubj``, "Paris" split into
"Par"+"is", ``obl`` for ``obl:to`` on a gapped remnant, and "Don't" as two
tokens instead of a multiword token.
"""

from __future__ import annotations

import io
import json
import lzma

import pytest

from eud.collapse import collapse_empty_nodes
from eud.commands.evaluate import main
from eud.conllu import format_sentence, read_conllu
from eud.evaluate import evaluate_files, evaluate_sentences, format_table

EXPECTED = {  # metric: (correct, gold, system, aligned)
    "Tokens": (18, 20, 22, None),
    "Sentences": (3, 3, 3, None),
    "Words": (20, 21, 22, None),
    "UPOS": (20, 21, 22, 20),
    "UAS": (18, 21, 22, 20),
    "LAS": (18, 21, 22, 20),
    "CLAS": (11, 13, 14, 12),
    "MLAS": (11, 13, 14, 12),
    "BLEX": (11, 13, 14, 12),
    "ELAS": (16, 23, 23, None),
    "EULAS": (18, 23, 23, None),
}


@pytest.fixture
def pair(fixtures):
    return fixtures / "eval_gold.conllu", fixtures / "eval_system.conllu"


def test_official_counts_worked_out_by_hand(pair):
    ev = evaluate_files(*pair)
    for metric, counts in EXPECTED.items():
        s = ev[metric]
        assert (s.correct, s.gold, s.system, s.aligned) == counts, metric
    assert ev["ELAS"].precision == 16 / 23
    assert ev["LAS"].f1 == 2 * 18 / (21 + 22)


LEVEL_KEYS = {
    "no_gapping": "1", "no_shared_parents_in_coordination": "2", "no_shared_dependents_in_coordination": "3",
    "no_control": "4", "no_external_arguments_of_relative_clauses": "5", "no_case_info": "6",
}


@pytest.mark.parametrize("levels", ["0", "1", "2", "3", "4", "5", "6", "123456"])
def test_same_counts_as_official_scorer_on_collapsed_files(pair, levels):
    udeval = pytest.importorskip("udtools.udeval")
    texts = ["".join(format_sentence(collapse_empty_nodes(s)) for s in read_conllu(p)) for p in pair]
    treebank_type = {key: int(digit in levels) for key, digit in LEVEL_KEYS.items()}
    gold, system = (udeval.load_conllu(io.StringIO(t), "x", treebank_type) for t in texts)
    official = udeval.evaluate(gold, system)
    ev = evaluate_files(*pair, enhancements=levels)
    for metric, score in official.items():
        ours = ev[metric]
        assert (ours.correct, ours.gold, ours.system, ours.aligned) == (
            score.correct, score.gold_total, score.system_total, score.aligned_total
        ), metric
    # The printed tables are the official ones, digit for digit.
    assert format_table(ev, counts=True) == udeval.build_evaluation_table(official, True, True, True)
    assert format_table(ev) == udeval.build_evaluation_table(official, True, False, True)


def test_elas_by_enhancement_type(pair):
    by_type = evaluate_files(*pair).by_type
    got = {name: (t.gold, t.gold_correct, t.system, t.system_correct) for name, t in by_type.items()}
    assert got == {
        "basic": (16, 14, 18, 14),
        "case-marked": (1, 0, 1, 0),
        "controlled-subject": (1, 0, 1, 0),
        "relative-clause": (2, 0, 0, 0),
        "ellipsis": (3, 2, 3, 2),
    }
    assert sum(t.gold_correct for t in by_type.values()) == 16  # adds up to ELAS


def test_empty_node_scores(pair):
    empty = evaluate_files(*pair).empty_nodes
    got = {name: (s.correct, s.gold, s.system) for name, s in empty.items()}
    # 7.1 follows "Peter", aligned to gold 6 (followed by 6.1); of its four edges
    # only the obl (gold obl:to) is wrong, and only by label.
    assert got == {"EmptyNodes": (1, 1, 1), "EmptyEdges": (3, 4, 4), "EmptyUEdges": (4, 4, 4)}


def test_enhancement_levels(pair):
    # Level 6 drops case information: obl:to matches obl now, on the gapped remnant.
    assert evaluate_files(*pair, enhancements="6")["ELAS"].correct == 17
    # Level 4 drops nsubj edges from xcomp heads, in gold and system: 22 gold, 22 system edges.
    s = evaluate_files(*pair, enhancements="4")["ELAS"]
    assert (s.correct, s.gold, s.system) == (16, 22, 22)
    # Level 1: path labels become the basic relation (cc, conj, orphan) with the basic head.
    s = evaluate_files(*pair, enhancements="1")["ELAS"]
    assert (s.correct, s.gold, s.system) == (17, 23, 23)


def test_xz_input_and_cli_counts(pair, tmp_path, capsys):
    gold_xz = tmp_path / "gold.conllu.xz"
    gold_xz.write_bytes(lzma.compress(pair[0].read_bytes()))
    assert main([str(gold_xz), str(pair[1]), "--counts"]) == 0
    out = capsys.readouterr().out
    assert "ELAS       |        16 |        23 |        23 |" in out
    assert "EmptyNodes" in out and "ellipsis" in out


def test_json_and_macro_average(pair, capsys):
    assert main([str(pair[0]), str(pair[1]), str(pair[0]), str(pair[0]), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["pairs"]) == 2
    assert doc["pairs"][0]["metrics"]["ELAS"]["correct"] == 16
    assert doc["pairs"][1]["metrics"]["ELAS"]["f1"] == 1.0
    assert doc["macro_average"]["ELAS"]["f1"] == pytest.approx((2 * 16 / 46 + 1.0) / 2)
    assert doc["pairs"][0]["elas_by_type"]["ellipsis"]["gold_correct"] == 2


def test_official_only_skips_extras(pair, capsys):
    assert main([str(pair[0]), str(pair[1]), "--official-only"]) == 0
    out = capsys.readouterr().out
    assert "ELAS" in out and "ellipsis" not in out and "EmptyNodes" not in out


def test_texts_that_differ_are_a_one_line_error(pair, tmp_path, capsys):
    other = tmp_path / "other.conllu"
    other.write_text(pair[1].read_text().replace("\tRome\t", "\tRoma\t"))
    assert main([str(pair[0]), str(other)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("eud evaluate: the texts differ") and "\n" not in err
    assert "other.conllu:" in err


def test_bad_input_errors(pair, tmp_path, capsys):
    assert main([str(pair[0]), str(tmp_path / "missing.conllu")]) == 2  # a missing input is a usage error
    assert "missing.conllu" in capsys.readouterr().err
    broken = tmp_path / "broken.conllu"
    broken.write_text("# sent_id = x\n1\tA\tA\tX\t_\t_\t0\troot\n\n")
    assert main([str(pair[0]), str(broken)]) == 1
    err = capsys.readouterr().err.strip()
    assert "broken.conllu:2" in err and "\n" not in err
    nohead = tmp_path / "nohead.conllu"
    nohead.write_text("1\tA\tA\tX\t_\t_\t_\t_\t_\t_\n\n")
    assert main([str(nohead), str(nohead)]) == 1
    assert "no HEAD" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(pair[0])])
    with pytest.raises(SystemExit):
        main([str(pair[0]), str(pair[1]), "--enhancements", "7"])


def test_in_memory_sentences_score_like_files(pair):
    gold, system = (list(read_conllu(p)) for p in pair)
    ev = evaluate_sentences(gold, system)
    assert (ev["ELAS"].correct, ev["EULAS"].correct, ev["Words"].correct) == (16, 18, 20)
    assert ev.empty_nodes["EmptyNodes"].correct == 1


def test_spaces_inside_forms_are_ignored_as_officially(tmp_path):
    udeval = pytest.importorskip("udtools.udeval")
    gold = (
        "1\tNew York\tNew York\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\t_\n"
        "2\tsleeps\tsleep\tVERB\t_\t_\t0\troot\t0:root\t_\n"
        "3\t10\u00a0000\t10000\tNUM\t_\t_\t2\tobl\t2:obl\t_\n\n"
    )
    system = (
        "1\tNewYork\tNew York\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\t_\n"
        "2\tsl eeps\tsleep\tVERB\t_\t_\t0\troot\t0:root\t_\n"
        "3-4\t10 000\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "3\t10\t10\tNUM\t_\t_\t2\tobl\t2:obl\t_\n"
        "4\t000\t000\tNUM\t_\t_\t3\tflat\t3:flat\t_\n\n"
    )
    paths = []
    for name, text in (("gold", gold), ("system", system)):
        path = tmp_path / f"{name}.conllu"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    official = udeval.evaluate(*(udeval.load_conllu(io.StringIO(t), "x", {}) for t in (gold, system)))
    ev = evaluate_files(*paths)
    for metric, score in official.items():
        ours = ev[metric]
        assert (ours.correct, ours.gold, ours.system, ours.aligned) == (
            score.correct, score.gold_total, score.system_total, score.aligned_total
        ), metric
    # Every token spans the same characters; "10 000" as two words matches no gold word.
    assert ev["Tokens"].correct == 3 and ev["Words"].correct == 2
