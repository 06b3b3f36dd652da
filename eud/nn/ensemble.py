"""Several parsers trained alike with different seeds, decoded as one by averaging their probabilities.

A treebank of a few hundred sentences (Tamil's has 400) gives a parser whose choices depend on its
seed by a point or more.  Averaging the probabilities of a few such parsers before decoding is the
usual cure (the ensembles of the CoNLL 2018 and IWPT systems): every tag is the argmax of the mean
log-probability, the tree is decoded from the mean head log-probabilities, and each chosen arc's
relation from the mean relation log-probabilities of the members.

The members share one ``config.json`` and one ``vocab.json``: they are the same recipe trained with
other seeds, so their label tables are the same, which :func:`eud.nn.package.load_package` checks.
Whether an ensemble helps a language is a choice made by cross-validation
(``python -m eval.parser.ensemble_cv``).  Only parsers whose enhanced graph comes from the rules
(``graph = false``) are combined: nothing here averages graph scores.
"""

from __future__ import annotations

import torch
from torch import nn

from eud.nn.network import TAGS, Parser


class Ensemble(nn.Module):
    """Parsers of one recipe, scored as one: :meth:`forward` and :meth:`tree_labels` as :class:`Parser` has them."""

    def __init__(self, members: list[Parser]) -> None:
        super().__init__()
        if len(members) < 2:
            raise ValueError("an ensemble needs at least two parsers")
        if any(m.graph is not None for m in members):
            raise ValueError("only parsers without a graph scorer (graph = false) can be combined")
        self.members = nn.ModuleList(members)
        self.graph = None

    @property
    def precision(self) -> str:
        """The members' arithmetic (fp32, bf16 or int8; they always share it)."""
        return self.members[0].precision

    @precision.setter
    def precision(self, value: str) -> None:
        for member in self.members:
            member.precision = value

    def forward(self, batch, *, graph: bool = True) -> dict:
        """The members' mean log-probabilities of every tag and head; their own relation states under ``members``."""
        each = [member(batch, graph=False) for member in self.members]
        scores: dict = {t: torch.stack([s[t].float().log_softmax(-1) for s in each]).mean(0) for t in TAGS}
        # Impossible heads keep the members' large negative score: the mean stays far below the rest.
        scores["arc"] = torch.stack([s["arc"].log_softmax(-1) for s in each]).mean(0)
        scores["head_ok"] = each[0]["head_ok"]
        scores["states"] = each[0]["states"]  # the first member's, as a gapping verifier trained on it reads them
        scores["members"] = each
        return scores

    def tree_labels(self, scores: dict, index: torch.Tensor) -> torch.Tensor:
        """Mean basic-relation log-probabilities [K, L] of the pairs in ``index``."""
        return torch.stack([member.tree_labels(own, index).log_softmax(-1)
                            for member, own in zip(self.members, scores["members"])]).mean(0)

    def graph_labels(self, scores: dict, index: torch.Tensor) -> torch.Tensor:
        raise ValueError("an ensemble has no graph scorer")
