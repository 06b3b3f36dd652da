"""The network: a word encoder, tagging heads, a biaffine tree parser and a biaffine graph parser.

``forward`` returns raw scores only; :mod:`eud.nn.predict` decodes them and
writes sentences, :meth:`Parser.loss` trains them.
"""

from __future__ import annotations

import os
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from eud.nn.batching import IGNORE, Batch
from eud.nn.biaffine import MLP, Biaffine
from eud.nn.encoders import WordEncoder
from eud.nn.vocab import Vocab

TAGS = ("upos", "xpos", "feats", "lemma")
MODEL_DEFAULTS: dict[str, Any] = {"tag_hidden": 256, "arc_dim": 512, "label_dim": 128, "dropout": 0.3, "graph": True}
NEG = -1e9
PRECISIONS = ("fp32", "bf16")  # the arithmetic of training and parsing
PARSE_PRECISIONS = (*PRECISIONS, "int8")  # int8: parsing only
# Encoder types (config ``encoder.type``) whose int8 parse keeps ELAS within the bounds of
# fp32 on dev (English 0.2, character models 0.3): ``--precision auto`` picks int8 for them on a
# CPU without native bf16.  Dev raw text, eval/results/scale/int8_dev.json (tuning): et_ewt and
# fi_tdt lose 0.06 ELAS or less (their dev is training data: a fidelity check, not a score);
# English loses 0.86 with every Linear and LSTM int8, 0.33 with only the BERT's Linear layers int8
# per channel and 0.21 with only its feed-forward layers, so English stays fp32.
INT8_AUTO: dict[str, bool] = {"minilm": False, "charlstm": True}


def native_bf16() -> bool:
    """Whether this CPU multiplies bfloat16 natively (AVX512-BF16 or AMX); elsewhere bf16 is slower than fp32.

    ``EUD_NO_BF16=1`` in the environment answers no, so that ``--precision auto`` chooses as on a CPU
    without bf16 (to reproduce such a machine's figures, as ``eval/scale/speed.py --cpu without-bf16`` does).
    """
    if os.environ.get("EUD_NO_BF16", "") not in ("", "0"):
        return False
    try:
        return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except (AttributeError, RuntimeError):
        return False


def resolve_precision(requested: str, *, family: str | None = None) -> str:
    """``auto`` → ``bf16`` on a CPU with native bfloat16; else, when parsing (``family``, the encoder
    type, given), ``int8`` for a family in :data:`INT8_AUTO`; else ``fp32``.  Other values pass through."""
    if requested == "auto":
        if native_bf16():
            return "bf16"
        return "int8" if family is not None and INT8_AUTO.get(family, False) else "fp32"
    known = PARSE_PRECISIONS if family is not None else PRECISIONS
    if requested not in known:
        raise ValueError(f"unknown precision {requested!r}; known: auto, {', '.join(known)}")
    return requested


def quantize_int8(model: nn.Module) -> nn.Module:
    """Every ``Linear`` and ``LSTM`` of ``model`` as dynamic int8 (in place, for parsing only).

    Weights become int8 per tensor; activations are quantized per batch as they arrive
    (``torch.ao.quantization.quantize_dynamic``, fbgemm kernels on x86 with AVX2).
    Embeddings, LayerNorm, attention and the biaffine products stay fp32.
    """
    import warnings

    from torch.ao.quantization import quantize_dynamic

    with warnings.catch_warnings():  # torch marks eager-mode quantization deprecated in favour of torchao
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", UserWarning)
        return quantize_dynamic(model, {nn.Linear, nn.LSTM}, dtype=torch.qint8, inplace=True)


class Tagger(nn.Module):
    """One MLP and a linear layer: a class per word."""

    def __init__(self, n_in: int, hidden: int, n_out: int, dropout: float) -> None:
        super().__init__()
        self.mlp = MLP(n_in, hidden, dropout)
        self.out = nn.Linear(hidden, n_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: [B, N, d] → [B, N, n_out]."""
        return self.out(self.mlp(x))


class ArcScorer(nn.Module):
    """Biaffine arc and label scores of every (dependent, head) pair."""

    def __init__(self, n_in: int, arc_dim: int, label_dim: int, n_labels: int, dropout: float) -> None:
        super().__init__()
        self.arc_dep, self.arc_head = MLP(n_in, arc_dim, dropout), MLP(n_in, arc_dim, dropout)
        self.lab_dep, self.lab_head = MLP(n_in, label_dim, dropout), MLP(n_in, label_dim, dropout)
        self.arc = Biaffine(arc_dim, 1, bias_x=False, bias_y=True)
        self.label = Biaffine(label_dim, n_labels)

    def forward(self, h: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """h: [B, N+1, d] with the root first → arcs [B, N, N+1], label features [B, N, l], [B, N+1, l]."""
        deps = h[:, 1:]
        arcs = self.arc(self.arc_dep(deps), self.arc_head(h))
        return arcs, self.lab_dep(deps), self.lab_head(h)

    def labels(self, dep_feats: torch.Tensor, head_feats: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        """Label scores of chosen pairs: index [K, 3] rows (batch, dependent 0..N-1, head 0..N) → [K, L]."""
        b, i, j = index[:, 0], index[:, 1], index[:, 2]
        return self.label.pairs(dep_feats[b, i], head_feats[b, j])


class Parser(nn.Module):
    """Tags, lemma scripts, basic tree and enhanced graph from one shared encoder."""

    def __init__(self, config: dict[str, Any], vocabs: dict[str, Vocab], *, transformer_source: str | None = None,
                 from_config: bool = False) -> None:
        super().__init__()
        self.config = config
        # In bf16 the encoder, and when predicting the scoring heads, run under bfloat16 autocast
        # (weights stay fp32); decoding and the loss always see fp32 scores.
        self.precision = "fp32"
        m = {**MODEL_DEFAULTS, **config.get("model", {})}
        self.encoder = WordEncoder(config["encoder"], len(vocabs["words"]), len(vocabs["chars"]),
                                   transformer_source=transformer_source, from_config=from_config,
                                   n_langs=len(vocabs["lang"]) if "lang" in vocabs else 0)
        d = self.encoder.dim
        self.root = nn.Parameter(torch.randn(d) * 0.1)
        self.dropout = nn.Dropout(m["dropout"])
        self.taggers = nn.ModuleDict({t: Tagger(d, m["tag_hidden"], len(vocabs[t]), m["dropout"]) for t in TAGS})
        self.tree = ArcScorer(d, m["arc_dim"], m["label_dim"], len(vocabs["deprel"]), m["dropout"])
        # graph = false: no graph scorer at all (the enhanced graph then comes from the rules).
        self.graph = (ArcScorer(d, m["arc_dim"], m["label_dim"], len(vocabs["enh_label"]), m["dropout"])
                      if m["graph"] else None)
        # Per-relation weights [L] of the basic-relation loss (training's ``label_weights``) and of
        # the attachment loss (``arc_weights``, see :meth:`arc_weights`); None: all 1.
        self.deprel_weight: torch.Tensor | None = None
        self.arc_weight: torch.Tensor | None = None

    def forward(self, batch: Batch, *, graph: bool = True) -> dict[str, torch.Tensor]:
        """Scores of every output for a batch (see :class:`ArcScorer` for shapes).

        With ``graph=False`` the enhanced-graph scorer is skipped (its keys are absent):
        when the graph comes from the rules, nothing reads it.
        """
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.precision == "bf16"):
            x = self.encoder(batch.forms, batch.words, batch.chars, batch.lengths, batch.langs)  # [B, N, d]
        x = x.float()
        b = x.shape[0]
        h = self.dropout(torch.cat([self.root.expand(b, 1, -1), x], 1))  # [B, N+1, d]
        with self._fast_heads():
            scores = {t: tagger(h[:, 1:]) for t, tagger in self.taggers.items()}  # bf16 when fast: only argmax reads them
            arcs, scores["tree_dep"], scores["tree_head"] = self.tree(h)
            if graph and self.graph is not None:
                edges, scores["graph_dep"], scores["graph_head"] = self.graph(h)
        n = x.shape[1]
        # Heads may be the root or a real word, never the dependent itself.
        head_ok = torch.cat([torch.ones(b, 1, dtype=torch.bool), batch.mask], 1)[:, None, :].expand(b, n, n + 1)
        self_loop = torch.arange(n)[:, None] + 1 == torch.arange(n + 1)[None, :]
        head_ok = head_ok & ~self_loop[None]
        scores["arc"] = arcs.float().masked_fill(~head_ok, NEG)
        if "graph_dep" in scores:
            scores["enh"] = edges.float().masked_fill(~head_ok, NEG)
        scores["head_ok"] = head_ok
        scores["states"] = x  # the encoder's word states, for eud.nn.verifier
        return scores

    def _fast_heads(self) -> torch.autocast:
        """bfloat16 autocast for the scoring heads when predicting in ``bf16`` (never in training).

        The taggers' output layers (thousands of FEATS and lemma classes in a
        multilingual model) and the label biaffine are most of a character
        model's parsing time; in bf16 they run two to three times faster.
        """
        return torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.precision == "bf16" and not self.training)

    def tree_labels(self, scores: dict[str, torch.Tensor], index: torch.Tensor) -> torch.Tensor:
        """Basic-relation scores [K, L] of the pairs in ``index`` (see :meth:`ArcScorer.labels`)."""
        with self._fast_heads():
            return self.tree.labels(scores["tree_dep"], scores["tree_head"], index).float()

    def graph_labels(self, scores: dict[str, torch.Tensor], index: torch.Tensor) -> torch.Tensor:
        """Enhanced-relation scores [K, E] of the pairs in ``index``."""
        with self._fast_heads():
            return self.graph.labels(scores["graph_dep"], scores["graph_head"], index).float()

    def arc_weights(self, head: torch.Tensor, deprel: torch.Tensor) -> torch.Tensor:
        """Per-word weights [B, N] of the attachment loss from gold ``head`` and ``deprel`` [B, N].

        A word weighs what its relation weighs in :attr:`arc_weight`, and a word with a weighted
        dependent at least as much: with ``orphan`` weighted, both the orphans and the promoted
        remnant they hang from (the gapped clause's whole shape) count more.  Padding weighs 0.
        """
        assert self.arc_weight is not None
        valid = deprel != IGNORE
        own = torch.where(valid, self.arc_weight[deprel.clamp(min=0)], torch.zeros(()))  # [B, N]
        heads = (head - 1).clamp(min=0)  # word k is column k-1; the root (0) gets nothing
        below = torch.where(valid & (head > 0), own, torch.zeros(()))
        from_dependents = torch.zeros_like(own).scatter_reduce(1, heads, below, reduce="amax")  # [B, N]
        return torch.where(valid, torch.maximum(own, from_dependents), torch.zeros(()))

    def loss(self, scores: dict[str, torch.Tensor], batch: Batch) -> torch.Tensor:
        """The summed loss of every output (mean over words or pairs)."""
        t = batch.targets
        total = sum(F.cross_entropy(scores[k].flatten(0, 1), t[k].flatten(), ignore_index=IGNORE) for k in TAGS)
        if self.arc_weight is None:
            total = total + F.cross_entropy(scores["arc"].flatten(0, 1), t["head"].flatten(), ignore_index=IGNORE)
        else:
            arc = F.cross_entropy(scores["arc"].flatten(0, 1), t["head"].flatten(), ignore_index=IGNORE,
                                  reduction="none")  # [B*N], 0 where ignored
            w = self.arc_weights(t["head"], t["deprel"]).flatten()
            total = total + (w * arc).sum() / w.sum().clamp(min=1e-6)
        has_head = (t["head"] != IGNORE).nonzero()  # [K, 2]: batch, dependent
        index = torch.cat([has_head, t["head"][has_head[:, 0], has_head[:, 1]][:, None]], 1)
        rel = self.tree_labels(scores, index)
        total = total + F.cross_entropy(rel, t["deprel"][index[:, 0], index[:, 1]], weight=self.deprel_weight,
                                        ignore_index=IGNORE)
        ok = scores["head_ok"] & batch.mask[:, :, None] & t["has_enh"][:, None, None]
        if self.graph is not None and bool(t["enh"].any()):
            total = total + F.binary_cross_entropy_with_logits(scores["enh"][ok], t["enh"][ok])
            edge = (t["enh_label"] != IGNORE).nonzero()  # [K, 3]
            if len(edge):
                gold = t["enh_label"][edge[:, 0], edge[:, 1], edge[:, 2]]
                total = total + F.cross_entropy(self.graph_labels(scores, edge), gold)
        return total
