"""eud.nn.verifier: features of a gapped clause, the regression, its storage, and its say in the orphan checks."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import FIXTURES, REPO

from eud.conllu import read_conllu
from eud.enhance.profiles import language_style
from eud.gapping.checks import demote_without_correlates
from eud.gapping.rule import Gapping
from eud.nn.verifier import CONFIG_KEY, SCALARS, GappingVerifier, clause_features

pytest.importorskip("torch")


def _gap_verb():
    # Kim bought apples and Lee pears: Lee (promoted, correlate Kim), pears (orphan, correlate apples).
    return next(s for s in read_conllu(FIXTURES / "orphans_parser.conllu") if s.sent_id == "gap-verb")


def _states(n: int, dim: int = 8) -> np.ndarray:
    rng = np.random.default_rng(0)
    return rng.normal(size=(n, dim)).astype(np.float32)


def _unit(v: np.ndarray) -> np.ndarray:
    return v.astype(np.float64) / np.linalg.norm(v.astype(np.float64))


def test_clause_features_read_the_remnants_their_correlates_and_the_conjunction():
    sentence = _gap_verb()
    (clause,) = Gapping(style=language_style("en")).alignments(sentence)
    states = _states(len(sentence.words))
    margins = [0.0] * 5 + [2.5, 0.0]
    f = clause_features(sentence, clause, states, margins)
    d = states.shape[1]
    assert f.shape == (6 * d + len(SCALARS),)
    kim, bought, apples, conj, lee, pears = (_unit(states[i - 1]) for i in (1, 2, 3, 4, 5, 6))
    assert np.allclose(f[:d], lee) and np.allclose(f[d:2 * d], pears) and np.allclose(f[2 * d:3 * d], conj)
    assert np.allclose(f[3 * d:4 * d], bought)
    assert np.allclose(f[4 * d:5 * d], lee * kim) and np.allclose(f[5 * d:6 * d], pears * apples)
    assert np.allclose(f[6 * d:], [lee @ kim, pears @ apples, lee @ bought, 2.5, 2.0, 0.0, 0.0])


def test_a_fitted_verifier_separates_its_classes_and_survives_a_round_trip(tmp_path):
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.normal(1.0, 1.0, size=(40, 6)), rng.normal(-1.0, 1.0, size=(40, 6))])
    y = np.array([1.0] * 40 + [0.0] * 40)
    verifier = GappingVerifier.fit(x, y, l2=0.1)
    scores = verifier.score(x)
    assert scores[:40].mean() > 2 and scores[40:].mean() < -2
    assert ((scores >= 0) == (y == 1)).mean() > 0.9
    verifier.threshold = -0.5
    (tmp_path / "config.json").write_text(json.dumps({"language": "en"}))
    assert GappingVerifier.load(tmp_path, {"language": "en"}) is None  # no verifier named: none
    verifier.save(tmp_path)
    config = json.loads((tmp_path / "config.json").read_text())
    # A package without a gapping block gets one, with the rebuilds its language had before.
    rebuilds = dict.fromkeys(("verbless_subjects", "bare_remnants", "mirrored_phrases", "echoed_subjects"), True)
    assert config == {"language": "en", "gapping": {**rebuilds, CONFIG_KEY: {"threshold": -0.5}}}
    loaded = GappingVerifier.load(tmp_path, config)
    assert loaded is not None and loaded.threshold == -0.5
    assert np.allclose(loaded.score(x), scores, atol=1e-3)
    (tmp_path / "gapping_verifier.safetensors").unlink()
    with pytest.raises(ValueError, match="gapping_verifier.safetensors is missing"):
        GappingVerifier.load(tmp_path, config)


def test_the_verifier_has_the_last_word_on_a_clause_the_other_checks_pass():
    kept = _gap_verb()
    fallback = [w.deprel for w in kept.words]
    fallback[5] = "obj"
    assert demote_without_correlates(kept, fallback, Gapping(style=language_style("en")), verify=lambda clause: True) == 0
    assert kept.words[5].deprel == "orphan"
    undone = _gap_verb()
    assert demote_without_correlates(undone, fallback, Gapping(style=language_style("en")), verify=lambda clause: False) == 1
    assert undone.words[5].deprel == "obj"


def test_the_shipped_english_parser_verifies_and_keeps_a_plain_gapped_clause(one_torch_thread):
    import eud

    nlp = eud.load(REPO / "models" / "en_ewt")
    assert nlp.predictor.verifier is not None
    (sentence,) = nlp("John ate an apple and Mary a pear.").sentences
    (node,) = sentence.empty_nodes
    assert node.form == "ate" and "CopyOf=2" in node.misc
    assert [(w.form, w.deprel) for w in sentence.words if w.deprel in ("conj", "orphan")] == [
        ("Mary", "conj"), ("pear", "orphan")]
