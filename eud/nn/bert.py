"""A BERT encoder in plain torch and its WordPiece tokenizer, read straight from a Hugging Face folder.

Importing transformers costs more than a second and a half of every ``eud parse`` start-up,
though a package such as English's needs from it only one small BERT (all-MiniLM-L6-v2: six
layers of 384 units).  This module builds that network from the architecture of Devlin et al.
(2019, https://arxiv.org/abs/1810.04805): word, position and segment embeddings summed and
normalised, then layers of multi-head self-attention and a GELU feed-forward block, each
wrapped in a residual connection and a post-LayerNorm.  The parameters carry the names of
the Hugging Face ``BertModel``, so a folder's ``model.safetensors`` and eud's packages load
into it unchanged, and the outputs match ``BertModel``'s (checked in ``tests/test_nn_bert.py``).

The tokenizer is the folder's ``tokenizer.json`` run by the ``tokenizers`` package (the Rust
WordPiece that transformers itself calls), without transformers around it.

Only what eud uses is here: ``model_type`` ``bert``, absolute positions and the exact (erf)
GELU.  :func:`supports` says whether a folder fits; any other encoder goes through transformers.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

ACTIVATIONS = ("gelu",)


@dataclass(frozen=True)
class BertConfig:
    """The fields of a Hugging Face ``config.json`` that the network's shape and arithmetic need."""

    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    max_position_embeddings: int = 512
    type_vocab_size: int = 2
    layer_norm_eps: float = 1e-12
    hidden_dropout_prob: float = 0.1
    attention_probs_dropout_prob: float = 0.1
    pad_token_id: int = 0

    @classmethod
    def from_folder(cls, folder: str | Path) -> BertConfig:
        """Read ``config.json`` of a model folder."""
        raw = json.loads((Path(folder) / "config.json").read_text())
        return cls(**{k: raw[k] for k in cls.__dataclass_fields__ if k in raw})


def supports(folder: str | Path) -> bool:
    """Whether ``folder`` holds a BERT this module runs: a local folder with config.json and tokenizer.json."""
    folder = Path(folder)
    if not (folder / "config.json").is_file() or not (folder / "tokenizer.json").is_file():
        return False
    raw = json.loads((folder / "config.json").read_text())
    return (raw.get("model_type") == "bert" and raw.get("position_embedding_type", "absolute") == "absolute"
            and raw.get("hidden_act", "gelu") in ACTIVATIONS)


class Embeddings(nn.Module):
    """Word + position + segment embeddings, normalised."""

    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.word_embeddings = nn.Embedding(c.vocab_size, c.hidden_size, padding_idx=c.pad_token_id)
        self.position_embeddings = nn.Embedding(c.max_position_embeddings, c.hidden_size)
        self.token_type_embeddings = nn.Embedding(c.type_vocab_size, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.hidden_dropout_prob)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        """ids [B, S] → [B, S, H]; every piece is in segment 0, positions count from 0."""
        positions = torch.arange(ids.shape[1], device=ids.device)
        x = self.word_embeddings(ids) + self.token_type_embeddings.weight[0] + self.position_embeddings(positions)
        return self.dropout(self.LayerNorm(x))


class SelfAttention(nn.Module):
    """Query, key and value projections of multi-head scaled dot-product attention."""

    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.heads = c.num_attention_heads
        self.query = nn.Linear(c.hidden_size, c.hidden_size)
        self.key = nn.Linear(c.hidden_size, c.hidden_size)
        self.value = nn.Linear(c.hidden_size, c.hidden_size)
        self.dropout = c.attention_probs_dropout_prob

    def forward(self, x: torch.Tensor, allowed: torch.Tensor | None) -> torch.Tensor:
        """x [B, S, H], allowed [B, 1, 1, S] (True: a real piece) → the heads' outputs joined, [B, S, H]."""
        b, s, h = x.shape

        def split(t: torch.Tensor) -> torch.Tensor:
            return t.view(b, s, self.heads, h // self.heads).transpose(1, 2)  # [B, heads, S, d]

        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed,
                                             dropout_p=self.dropout if self.training else 0.0,
                                             scale=1.0 / math.sqrt(h // self.heads))
        return out.transpose(1, 2).reshape(b, s, h)


class Residual(nn.Module):
    """A projection, dropout, the residual added back, LayerNorm (BERT's "output" blocks)."""

    def __init__(self, n_in: int, c: BertConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(n_in, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.hidden_dropout_prob)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        """x [B, S, n_in], residual [B, S, H] → [B, S, H]."""
        return self.LayerNorm(self.dropout(self.dense(x)) + residual)


class Attention(nn.Module):
    """Self-attention and its residual block."""

    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.self = SelfAttention(c)
        self.output = Residual(c.hidden_size, c)

    def forward(self, x: torch.Tensor, allowed: torch.Tensor | None) -> torch.Tensor:
        """x [B, S, H] → [B, S, H]."""
        return self.output(self.self(x, allowed), x)


class Intermediate(nn.Module):
    """The feed-forward block's widening projection and GELU."""

    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.intermediate_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x [B, S, H] → [B, S, intermediate]."""
        return F.gelu(self.dense(x))


class Layer(nn.Module):
    """One transformer layer: attention, then the feed-forward block."""

    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.attention = Attention(c)
        self.intermediate = Intermediate(c)
        self.output = Residual(c.intermediate_size, c)

    def forward(self, x: torch.Tensor, allowed: torch.Tensor | None) -> torch.Tensor:
        """x [B, S, H] → [B, S, H]."""
        x = self.attention(x, allowed)
        return self.output(self.intermediate(x), x)


class Stack(nn.Module):
    """The layers, in order (``encoder.layer.N`` in the parameter names)."""

    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.layer = nn.ModuleList(Layer(c) for _ in range(c.num_hidden_layers))


class Pooler(nn.Module):
    """The [CLS] projection that BERT checkpoints carry; eud never runs it, but packages store it."""

    def __init__(self, c: BertConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.hidden_size)


@dataclass
class BertOutput:
    """The last layer's states [B, S, H] and, when asked for, the embeddings' and every layer's."""

    last_hidden_state: torch.Tensor
    hidden_states: tuple[torch.Tensor, ...] | None = None


class Bert(nn.Module):
    """The BERT network, with ``BertModel``'s parameter names and call signature (the parts eud uses)."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.config = config
        self.embeddings = Embeddings(config)
        self.encoder = Stack(config)
        self.pooler = Pooler(config)

    def get_input_embeddings(self) -> nn.Embedding:
        """The word-piece embedding table."""
        return self.embeddings.word_embeddings

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                output_hidden_states: bool = False, **_: Any) -> BertOutput:
        """input_ids [B, S], attention_mask [B, S] (1 real, 0 padding) → :class:`BertOutput`."""
        allowed = None
        if attention_mask is not None and not bool(attention_mask.all()):
            allowed = attention_mask.bool()[:, None, None, :]
        x = self.embeddings(input_ids)
        states = [x]
        for layer in self.encoder.layer:
            x = layer(x, allowed)
            states.append(x)
        return BertOutput(x, tuple(states) if output_hidden_states else None)


def load_bert(folder: str | Path, *, weights: bool = True) -> Bert:
    """The BERT of ``folder``; with ``weights``, its ``model.safetensors`` loaded (else as initialised)."""
    from safetensors import safe_open

    config = BertConfig.from_folder(folder)
    if not weights:
        return Bert(config).eval()
    # Built on the CPU, not under torch.device("meta"): that mode sends the initialisers through
    # torch's reference ops, which import torch._dynamo (seconds of start-up); a random
    # initialisation of a MiniLM takes a fraction of a second, and assign=True drops it.
    model = Bert(config)
    own = model.state_dict()
    state = {}
    with safe_open(str(Path(folder) / "model.safetensors"), framework="pt") as f:
        for name in f.keys():  # noqa: SIM118 (a safetensors file is not iterable)
            key = name.removeprefix("bert.")
            if key in own:
                state[key] = f.get_tensor(name).float()
    missing = [k for k in own if k not in state]
    if missing:
        raise ValueError(f"{folder}: model.safetensors lacks {missing[:3]}")
    model.load_state_dict(state, assign=True)
    return model.eval()


FILES = ("config.json", "tokenizer.json", "special_tokens_map.json", "tokenizer_config.json", "vocab.txt")


def copy_files(source: str | Path, dest: str | Path) -> None:
    """Copy a BERT folder's config and tokenizer files (not its weights) into ``dest``."""
    import shutil

    Path(dest).mkdir(parents=True, exist_ok=True)
    for name in FILES:
        if (Path(source) / name).is_file():
            shutil.copyfile(Path(source) / name, Path(dest) / name)


class WordPiece:
    """The folder's ``tokenizer.json``, with the calls eud makes of a Hugging Face tokenizer."""

    def __init__(self, folder: str | Path) -> None:
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(Path(folder) / "tokenizer.json"))
        self._tok.no_truncation()
        self._tok.no_padding()
        special = {}
        path = Path(folder) / "special_tokens_map.json"
        if path.is_file():
            special = json.loads(path.read_text())

        def token_id(role: str, default: str) -> int | None:
            value = special.get(role, default)
            if isinstance(value, dict):
                value = value.get("content", default)
            return self._tok.token_to_id(value)

        self.cls_token_id = token_id("cls_token", "[CLS]")
        self.sep_token_id = token_id("sep_token", "[SEP]")
        self.pad_token_id = token_id("pad_token", "[PAD]")
        self.unk_token_id = token_id("unk_token", "[UNK]")
        self.bos_token_id = self.eos_token_id = None

    def __call__(self, texts: list[str], add_special_tokens: bool = True) -> dict[str, list[list[int]]]:
        """Piece ids of each text (``{"input_ids": ...}``, as a Hugging Face tokenizer returns them)."""
        encodings = self._tok.encode_batch(list(texts), add_special_tokens=add_special_tokens)
        return {"input_ids": [e.ids for e in encodings]}

    def padded(self, texts: list[str], max_length: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Ids [B, S] and attention mask [B, S] of texts with [CLS] and [SEP], cut to ``max_length`` pieces."""
        rows = []
        for ids in self(texts)["input_ids"]:
            if len(ids) > max_length:
                ids = ids[: max_length - 1] + ids[-1:]  # keep the closing [SEP]
            rows.append(ids)
        width = max(len(r) for r in rows)
        ids = torch.full((len(rows), width), self.pad_token_id or 0, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for i, r in enumerate(rows):
            ids[i, : len(r)] = torch.tensor(r)
            mask[i, : len(r)] = 1
        return ids, mask
