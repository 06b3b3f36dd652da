"""A second opinion on each predicted gapped clause, read off the encoder's word states.

The parser posits ``orphan`` in lists of nouns that look like gapping (*starred opposite
Elisha Cuthbert, Chad Michael Murray, and Paris Hilton in House of Wax*), and the checks of
:mod:`eud.gapping.checks` judge a clause by its tree alone.  The verifier asks the encoder: a
logistic regression scores a gapped clause (an :class:`~eud.gapping.rule.Alignment`) from

* the word states (length-normalised) of the promoted remnant, of the first other remnant,
  of the clause's conjunction (zeros where there is none) and of the antecedent, the
  predicate said to be elided (some verbs take lists, *include*, *star opposite*);
* the elementwise products of the promoted remnant's state with its correlate's and of
  the first other remnant's with its correlate's: how each remnant parallels what it
  contrasts with;
* the cosines of those two pairs and of the promoted remnant with the antecedent, the
  parser's margin for its surest orphan (:attr:`eud.nn.predict.Decoded.margins`), the
  number of remnants, whether the clause is lifted, and how many remnants lack a correlate.

A clause scoring below the package's threshold is undone like the ones the other checks
reject (:func:`eud.gapping.checks.demote_without_correlates`).  The weights live in
``gapping_verifier.safetensors`` next to the parser's, the threshold in ``config.json``
(its ``gapping`` block, ``"verifier": {"threshold": t}``); both are written by
``eval/gapping/train_verifier.py``, which fits the regression on the clauses a package
predicts in gold-annotated files and sets the threshold so that it keeps every gapped
clause the package finds in a tuning file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from eud.gapping.repair import Settings, set_setting
from eud.gapping.rule import Alignment
from eud.graph import Sentence, Word

FILE = "gapping_verifier.safetensors"
CONFIG_KEY = "verifier"  # the key of the package config's gapping block
# Scalar features after the vectors (see the module docstring).
SCALARS = ("cos promoted-correlate", "cos orphan-correlate", "cos promoted-antecedent", "orphan margin",
           "remnants", "lifted", "remnants without correlate")


def _unit(v: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def clause_features(sentence: Sentence, clause: Alignment, states: np.ndarray, margins: list[float]) -> np.ndarray:
    """The feature vector of one gapped clause: six state-sized blocks, then :data:`SCALARS`.

    ``states`` [n, d] are the encoder's outputs for the sentence's words, ``margins`` the
    parser's per-word orphan margins.
    """
    dim = states.shape[1]

    def state(word: Word | None) -> np.ndarray:
        return _unit(states[word.id - 1].astype(np.float64)) if word is not None else np.zeros(dim)

    promoted = clause.promoted
    promoted_correlate = clause.correlates[clause.remnants.index(promoted)]
    others = [(r, c) for r, c in zip(clause.remnants, clause.correlates) if r is not promoted]
    orphan, orphan_correlate = others[0] if others else (promoted, None)
    conjunction = next((w for w in sentence.words if w.head == promoted.id and w.udeprel == "cc"), None)
    p, pc, o, oc = state(promoted), state(promoted_correlate), state(orphan), state(orphan_correlate)
    antecedent = state(clause.antecedent or promoted)
    surest = max((margins[r.id - 1] for r, _ in others), default=0.0) if margins else 0.0
    scalars = [float(p @ pc), float(o @ oc), float(p @ antecedent), surest, float(len(clause.remnants)),
               float(clause.lifted), float(sum(c is None for c in clause.correlates))]
    return np.concatenate([p, o, state(conjunction), antecedent, p * pc, o * oc, np.array(scalars)])


class GappingVerifier:
    """A linear score over :func:`clause_features`; a clause passes at ``threshold`` or above."""

    def __init__(self, weight: np.ndarray, bias: float, mean: np.ndarray, scale: np.ndarray, threshold: float) -> None:
        self.weight, self.bias, self.mean, self.scale = weight, float(bias), mean, scale
        self.threshold = float(threshold)

    def score(self, features: np.ndarray) -> float:
        """The regression's logit for one feature vector (or an [m, k] array of them)."""
        return (((features - self.mean) / self.scale) @ self.weight + self.bias)  # type: ignore[no-any-return]

    def accepts(self, sentence: Sentence, clause: Alignment, states: np.ndarray, margins: list[float]) -> bool:
        """Whether the clause is gapping by the verifier's lights."""
        return float(self.score(clause_features(sentence, clause, states, margins))) >= self.threshold

    @classmethod
    def fit(cls, features: np.ndarray, gapped: np.ndarray, *, l2: float = 0.1) -> GappingVerifier:
        """Fit the regression (L2 penalty ``l2`` per example) to [m, k] features and 0/1 labels; threshold 0."""
        import torch

        mean = features.mean(0)
        scale = features.std(0) + 1e-6
        x = torch.tensor((features - mean) / scale, dtype=torch.float64)
        y = torch.tensor(gapped, dtype=torch.float64)
        w = torch.zeros(x.shape[1], dtype=torch.float64, requires_grad=True)
        b = torch.zeros(1, dtype=torch.float64, requires_grad=True)
        opt = torch.optim.LBFGS([w, b], max_iter=500, line_search_fn="strong_wolfe")

        def closure() -> torch.Tensor:
            opt.zero_grad()
            loss = (torch.nn.functional.binary_cross_entropy_with_logits(x @ w + b, y)
                    + l2 * (w ** 2).sum() / len(y))
            loss.backward()
            return loss

        opt.step(closure)
        return cls(w.detach().numpy(), float(b.item()), mean, scale, 0.0)

    def save(self, folder: Path) -> None:
        """Write the weights next to a package's and the threshold into its config.json."""
        from safetensors.numpy import save_file

        from eud.atomic import write_text_atomically

        tensors = {"weight": self.weight, "bias": np.array([self.bias]), "mean": self.mean, "scale": self.scale}
        save_file({k: np.asarray(v, dtype=np.float32) for k, v in tensors.items()}, str(folder / FILE))
        config_path = folder / "config.json"
        config = json.loads(config_path.read_text(encoding="utf-8"))
        set_setting(config, CONFIG_KEY, {"threshold": round(self.threshold, 4)})
        write_text_atomically(config_path, json.dumps(config, indent=2, ensure_ascii=False) + "\n")

    @classmethod
    def load(cls, folder: Path, config: dict[str, Any]) -> GappingVerifier | None:
        """The package's verifier, or None when its config names none."""
        settings = getattr(Settings.from_config(config), CONFIG_KEY)
        if not settings:
            return None
        from safetensors.numpy import load_file

        from eud.nn.package import PackageError

        if not (folder / FILE).is_file():
            raise PackageError(f"{folder}: config.json sets {CONFIG_KEY!r} but {FILE} is missing "
                               f"(copy it from the package it came from, or delete the key)")
        t = {k: v.astype(np.float64) for k, v in load_file(str(folder / FILE)).items()}
        return cls(t["weight"], float(t["bias"][0]), t["mean"], t["scale"], float(settings["threshold"]))
