"""eval.gapping.languages scores gap edges across different segmentations: a hand-written gold and system."""

import pytest

from eud.conllu import parse_conllu
from eud.evaluate.data import ScoringError
from eval.gapping.languages import figures, score

# "Hi. Mary won gold and Peter bronze." as two gold sentences; the second gaps "won".
GOLD = """\
# text = Hi.
1\tHi\thi\tINTJ\t_\t_\t0\troot\t0:root\tSpaceAfter=No
2\t.\t.\tPUNCT\t_\t_\t1\tpunct\t1:punct\t_

# text = Mary won gold and Peter bronze.
1\tMary\tMary\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\t_
2\twon\twin\tVERB\t_\t_\t0\troot\t0:root\t_
3\tgold\tgold\tNOUN\t_\t_\t2\tobj\t2:obj\t_
4\tand\tand\tCCONJ\t_\t_\t5\tcc\t5.1:cc\t_
5\tPeter\tPeter\tPROPN\t_\t_\t2\tconj\t5.1:nsubj\t_
5.1\twon\twin\tVERB\t_\t_\t_\t_\t2:conj:and\tCopyOf=2
6\tbronze\tbronze\tNOUN\t_\t_\t5\torphan\t5.1:obj\tSpaceAfter=No
7\t.\t.\tPUNCT\t_\t_\t2\tpunct\t2:punct\t_

"""

# The system reads the same text as one sentence, "Hi." as one token, and labels "and" advmod.
SYSTEM = """\
# text = Hi. Mary won gold and Peter bronze.
1\tHi.\thi\tINTJ\t_\t_\t3\tdiscourse\t3:discourse\t_
2\tMary\tMary\tPROPN\t_\t_\t3\tnsubj\t3:nsubj\t_
3\twon\twin\tVERB\t_\t_\t0\troot\t0:root\t_
4\tgold\tgold\tNOUN\t_\t_\t3\tobj\t3:obj\t_
5\tand\tand\tCCONJ\t_\t_\t6\tcc\t6.1:advmod\t_
6\tPeter\tPeter\tPROPN\t_\t_\t3\tconj\t6.1:nsubj\t_
6.1\twon\twin\tVERB\t_\t_\t_\t_\t3:conj\tCopyOf=3
7\tbronze\tbronze\tNOUN\t_\t_\t6\torphan\t6.1:obj\tSpaceAfter=No
8\t.\t.\tPUNCT\t_\t_\t3\tpunct\t3:punct\t_

"""


def test_gap_edges_are_matched_through_the_word_alignment():
    c = score(list(parse_conllu(GOLD)), list(parse_conllu(SYSTEM)))
    # Gold: Peter conj>nsubj, bronze conj>obj, and conj>cc (subtypes dropped); the system gets the
    # first two (its word numbers differ, the alignment maps them) and says conj>advmod for "and".
    assert (c["gold_edges"], c["sys_edges"], c["match"]) == (3, 3, 2)
    assert (c["gold_empty"], c["sys_empty"], c["empty_match"]) == (1, 1, 1)
    assert (c["gold_orphan"], c["sys_orphan"]) == (1, 1)
    f = figures(c)
    assert f["gap-edge"] == {"P": 66.67, "R": 66.67, "F1": 66.67}
    assert f["EmptyNodes F1"] == 100.0
    assert f["unlabelled gap-edge F1"] == 100.0  # "and" hangs from the right node, with the wrong label


def test_an_edge_to_an_unaligned_word_never_matches():
    # The system tokenizes "bronze." as one word: its gap edge has no gold word to land on.
    system = SYSTEM.replace("7\tbronze\tbronze\tNOUN\t_\t_\t6\torphan\t6.1:obj\tSpaceAfter=No\n8\t.\t.\tPUNCT\t_\t_\t3\tpunct\t3:punct\t_\n",
                            "7\tbronze.\tbronze\tNOUN\t_\t_\t6\torphan\t6.1:obj\t_\n")
    c = score(list(parse_conllu(GOLD)), list(parse_conllu(system)))
    assert (c["gold_edges"], c["sys_edges"], c["match"]) == (3, 3, 1)


def test_no_system_empty_nodes_scores_zero_not_an_error():
    plain = "\n".join(line for line in SYSTEM.splitlines() if not line.startswith("6.1"))
    plain = plain.replace("6.1:advmod", "6:cc").replace("6.1:nsubj", "3:conj").replace("6.1:obj", "6:orphan") + "\n\n"
    f = figures(score(list(parse_conllu(GOLD)), list(parse_conllu(plain))))
    assert f["gap-edge"] == {"P": 0.0, "R": 0.0, "F1": 0.0}
    assert (f["empty nodes gold"], f["empty nodes system"]) == (1, 0)


def test_different_texts_are_refused():
    with pytest.raises(ScoringError, match="texts differ"):
        score(list(parse_conllu(GOLD)), list(parse_conllu(SYSTEM.replace("bronze", "silver"))))


LATVIAN = """\
# newdoc id = fixture
# sent_id = fixture-1
# text = Jānis nopirka ābolus, un Pēteris — bumbierus.
1\tJānis\tJānis\tPROPN\t_\t_\t2\tnsubj\t2:nsubj\t_
2\tnopirka\tnopirkt\tVERB\t_\t_\t0\troot\t0:root\t_
3\tābolus\tābols\tNOUN\t_\t_\t2\tobj\t2:obj\tSpaceAfter=No
4\t,\t,\tPUNCT\t_\t_\t6\tpunct\t6.1:punct\t_
5\tun\tun\tCCONJ\t_\t_\t6\tcc\t6.1:cc\t_
6\tPēteris\tPēteris\tPROPN\t_\t_\t2\tconj\t6.1:nsubj\t_
6.1\tnopirka\tnopirkt\tVERB\t_\t_\t_\t_\t2:conj\tCopyOf=2
7\t—\t—\tPUNCT\t_\t_\t8\tpunct\t6.1:punct\t_
8\tbumbierus\tbumbieris\tNOUN\t_\t_\t6\torphan\t6.1:obj\tSpaceAfter=No
9\t.\t.\tPUNCT\t_\t_\t2\tpunct\t2:punct\t_

"""


def test_a_test_split_is_parsed_from_raw_text_and_scored(tmp_path, capsys):
    # The --split test path end to end on a hand-written treebank, with the shipped Latvian pipeline.
    import lzma

    from eud.conllu import read_conllu
    from eval.gapping.languages import main

    (tmp_path / "ud" / "lv_lvtb").mkdir(parents=True)
    (tmp_path / "ud" / "lv_lvtb" / "lv_lvtb-ud-test.conllu.xz").write_bytes(lzma.compress(LATVIAN.encode("utf-8")))
    out = tmp_path / "out"
    assert main(["--lang", "lv", "--split", "test", "--data", str(tmp_path / "ud"), "--out-dir", str(out),
                 "--no-record"]) == 0
    parsed = list(read_conllu(out / "lv_lvtb-test.parsed.conllu"))
    assert "".join(w.form for s in parsed for w in s.words) == "Jānisnopirkaābolus,unPēteris—bumbierus."
    table = capsys.readouterr().out
    # Gold side of the row: 5 gap edges (Pēteris, bumbierus, the comma, un, the dash), 1 empty node, 1 orphan.
    row = next(line for line in table.splitlines() if line.startswith("| lv_lvtb "))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[3].startswith("5 / ") and cells[4].startswith("1 / ") and cells[6].startswith("1 / ")
