"""eval.agrr: the five AGRR folds, the answer-weight patching and the joint setting, on known answers."""

import pytest

from eud.agrr import held_apart
from eval.agrr.cache import SHIPPED as SHIPPED_PARSER
from eval.agrr.cache import ParserSetting, Repairs, agrr_folds
from eval.agrr.crossval import CONSTANTS, SHIPPED, Setting, agrr_modules, combine, families, shipped_constants, weights


def test_fold_zero_is_the_held_apart_fifth_and_the_rest_are_four_blocks():
    folds = agrr_folds(23)
    assert [k for k, f in enumerate(folds) if f == 0] == [k for k in range(23) if held_apart(k)] == [0, 5, 10, 15, 20]
    rest = [f for k, f in enumerate(folds) if not held_apart(k)]
    # 18 other rows in file order: blocks of 5, 4, 5, 4 (sizes differ by at most one), never interleaved.
    assert rest == [1] * 5 + [2] * 4 + [3] * 5 + [4] * 4


def test_weights_are_set_for_the_block_and_put_back():
    # Every module of eud.agrr that holds a weight (where it is defined and where it is imported).
    holders = [m for m in agrr_modules() if hasattr(m, "ORDER_COST")]
    assert holders
    before = holders[0].ORDER_COST
    with weights((("ORDER_COST", 0.0), ("DISTANCE_COST", 1.0))):
        assert all(m.ORDER_COST == 0.0 for m in holders)
        assert all(m.DISTANCE_COST == 1.0 for m in agrr_modules() if hasattr(m, "DISTANCE_COST"))
    assert all(m.ORDER_COST == before for m in holders)
    assert shipped_constants()["ORDER_COST"] == before


def test_families_list_the_shipped_setting_first_and_change_one_thing():
    parsers = [SHIPPED_PARSER, ParserSetting(1.0), ParserSetting(0.0, True)]
    fams = families(parsers)
    assert len(fams) == 2 + len(CONSTANTS)
    for candidates in fams.values():
        assert candidates[0] == SHIPPED and len(set(candidates)) == len(candidates)
    assert [c.parser for c in fams["parser: orphan bias x orphan checks"]] == parsers
    assert [c.repairs for c in fams["repairs: dash remnants x remnant chains"]] == [
        Repairs(), Repairs(True, False), Repairs(False, True), Repairs(False, False)]
    order = fams["answers: ORDER_COST"]
    assert [dict(c.constants)["ORDER_COST"] for c in order[1:]] == [0.0, 3.0, 9.0, 12.0]  # shipped 6.0


def test_combine_joins_the_picks_of_different_families():
    picks = [Setting(parser=ParserSetting(2.0)), Setting(repairs=Repairs(True, False)),
             Setting(constants=(("CASE_COST", 4.0),)), SHIPPED]
    joint = combine(picks)
    assert joint == Setting(parser=ParserSetting(2.0), repairs=Repairs(True, False), constants=(("CASE_COST", 4.0),))
    assert joint.describe() == {"orphan_bias": 2.0, "orphan_check": False, "remnant_chains": False, "CASE_COST": 4.0}
    assert combine([SHIPPED, SHIPPED]).describe() == {"shipped": True}


ROWS = ["Маша купила яблоки, а Петя — груши.", "Он читал книгу.",
        "Цены выросли на 5%, а зарплаты — на 3%.", "Одни голосовали за, другие - против.",
        "Производство возросло на 16,4% (в 2004 г. — на 16,7%)."]


def test_replaying_the_shipped_setting_gives_what_eud_agrr_answers():
    # The real ru_agrr parser once, through the cache's parse; then the replay against eud.agrr.system's own path.
    from eud.agrr import AgrrRow, score
    from eud.agrr.system import predict_rows
    from eud.pipeline import Pipeline
    from eval.agrr.cache import MODEL, parse
    from eval.agrr.crossval import Replayer

    rows = [AgrrRow(t) for t in ROWS]
    parsed = parse(rows, SHIPPED_PARSER)
    pipe = Pipeline.load(MODEL, graph_mode="rules")
    shipped = [a for a, _ in predict_rows(pipe.parse_sentences, rows)]
    assert any(a.cls for a in shipped)  # the model finds at least one of these gaps
    # eud agrr's own answers as the gold: the replay must reproduce them, so every metric is perfect.
    replayer = Replayer(shipped, {SHIPPED_PARSER: parsed})
    assert [a.cells() for a in replayer.answers(SHIPPED)] == [a.cells() for a in shipped]
    assert replayer.scores(SHIPPED, list(range(len(ROWS)))) == score(shipped, shipped)
    assert replayer.scores(SHIPPED, list(range(len(ROWS))))["full"] == 1.0
    # With the parser's dash repairs off the answers come from its trees alone, as the cache wrote them.
    before = pipe.predictor.set_repairs(dash_remnants=False, remnant_chains=False)
    try:
        plain = [a for a, _ in predict_rows(pipe.parse_sentences, rows)]
    finally:
        pipe.predictor.gapping_settings = before
    no_repairs = Setting(repairs=Repairs(False, False))
    assert [a.cells() for a in replayer.answers(no_repairs)] == [a.cells() for a in plain]
    assert [a.cells() for a in plain] != [a.cells() for a in shipped]  # the bracketed dash gap needs the repairs
    assert sorted(parsed.variants[Repairs(False, False)]) == [4]  # only its tree differs


def test_a_patched_weight_reaches_the_rule_that_reads_it():
    # Patched where eud.agrr.correlates.fit reads it: one word between Маша and читает costs the new DISTANCE_COST.
    from eud.agrr.correlates import fit
    from eud.agrr.tokens import sentence_from_text
    from eud.gapping.correlates import BasicTree
    from tests.test_agrr import _tree

    sentence, _ = sentence_from_text("Маша читает книгу, а Петя — газету.")
    _tree(sentence, [(2, "nsubj", "PROPN"), (0, "root", "VERB"), (2, "obj", "NOUN"), (6, "punct", "PUNCT"),
                     (6, "cc", "CCONJ"), (2, "conj", "PROPN"), (6, "punct", "PUNCT"), (6, "orphan", "NOUN"),
                     (2, "punct", "PUNCT")])
    tree, (masha, verb) = BasicTree(sentence), sentence.words[:2]
    petya = sentence.words[5]
    shipped = fit(tree, verb, petya, masha)
    with weights((("DISTANCE_COST", 1.15),)):
        assert fit(tree, verb, petya, masha) == pytest.approx(shipped - 1.0)
    assert fit(tree, verb, petya, masha) == shipped
