"""eval.gapping.replay against the real Predictor.write on GAPPING sentences and the shipped English model."""

from dataclasses import replace

import pytest

from eval.common import REPO
from eval.gapping.benchmark import gap_edges
from eval.gapping.cache import build_gapping
from eval.gapping.folds import gapping_paths
from eval.gapping.replay import SHIPPED, Replayer, Setting, f1, total

MODEL = REPO / "models" / "en_ewt"


@pytest.fixture(scope="module")
def replayer():
    if not MODEL.exists() or not all(p.exists() for p in gapping_paths("orphan-basic") + gapping_paths("enhanced")):
        pytest.skip("needs models/en_ewt and the GAPPING corpus under ../shared/data/gapping")
    from eud import load

    pipe = load(str(MODEL))
    return Replayer(pipe, build_gapping(pipe, str(MODEL), limit=12))  # the first twelve train sentences


@pytest.mark.slow
def test_shipped_replay_equals_write(replayer):
    predictor = replayer.predictor
    for i, (inp, d) in enumerate(zip(replayer.cached.inputs, replayer.cached.decoded)):
        real = inp.copy()
        predictor.write(real, d)
        assert gap_edges(replayer.output(i, SHIPPED)) == gap_edges(real), i


@pytest.mark.slow
def test_everything_off_is_the_raw_parse(replayer):
    # No rule and no threshold: the network's own tree, written without orphan checks.
    bare = Setting(rules=frozenset(), lifted=None, uncorrelated=None, verifier=None, parallelism=None)
    predictor = replayer.predictor
    for i, (inp, d) in enumerate(zip(replayer.cached.inputs, replayer.cached.decoded)):
        raw = inp.copy()
        predictor.orphan_check = False
        try:
            predictor.write(raw, replace(d))
        finally:
            predictor.orphan_check = True
        assert [(w.head, w.deprel) for w in replayer.decide(i, bare).words] == list(zip(d.heads, d.deprels))
        assert gap_edges(replayer.output(i, bare)) == gap_edges(raw), i
    rows = replayer.counts(SHIPPED)
    assert len(rows) == 12 and total(rows, list(range(12)))["gold"] > 0
    assert 0 < f1(total(rows, list(range(12)))) <= 100
