"""The character model: for each character, does a token or sentence end here?

A small BiLSTM reads characters (an embedding of the character plus one of its
Unicode category, so unseen characters still say "letter", "digit" or
"punctuation") and scores five classes per character (see
:mod:`eud.segment.data`).  Paragraphs are framed by a BREAK symbol, as in
training, where paragraphs are concatenated with BREAK between them.

Long paragraphs are cut into overlapping windows: each window predicts only
its core and borrows ``context`` characters on both sides, so a 1 MB line
costs time linear in its length and memory of one batch of windows.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import torch
from torch import nn

PAD, UNK, BREAK = 0, 1, 2
SPECIALS = ("<pad>", "<unk>", "<break>")
N_CLASSES = 5


@lru_cache(maxsize=65536)
def category(ch: str) -> str:
    """The Unicode general category of a character, with ``Zs`` for any whitespace."""
    return "Zs" if ch.isspace() else unicodedata.category(ch)


class Vocab:
    """Character and category ids; plain lists, saved as JSON."""

    def __init__(self, chars: list[str], categories: list[str]) -> None:
        self.chars = list(chars)
        self.categories = list(categories)
        self._char_ids = {c: i for i, c in enumerate(self.chars)}
        self._cat_ids = {c: i for i, c in enumerate(self.categories)}

    @classmethod
    def build(cls, texts: list[str], min_count: int = 2) -> Vocab:
        """Characters seen at least ``min_count`` times, and all Unicode categories."""
        counts: dict[str, int] = {}
        for text in texts:
            for ch in text:
                counts[ch] = counts.get(ch, 0) + 1
        chars = list(SPECIALS) + sorted(c for c, n in counts.items() if n >= min_count)
        cats = list(SPECIALS) + sorted({unicodedata.category(chr(i)) for i in range(0x30000)} | {"Zs"})
        return cls(chars, cats)

    def to_json(self) -> dict:
        """The vocabulary as plain JSON data."""
        return {"chars": self.chars, "categories": self.categories}

    @classmethod
    def from_json(cls, data: dict) -> Vocab:
        """Rebuild a vocabulary saved by :meth:`to_json`."""
        return cls(data["chars"], data["categories"])

    def encode(self, text: str) -> tuple[list[int], list[int]]:
        """Character ids and category ids of a text."""
        char_ids = self._char_ids
        cat_ids = self._cat_ids
        # Whitespace is normalised to a space before it reaches the model.
        chars = [char_ids.get(" " if ch.isspace() else ch, UNK) for ch in text]
        cats = [cat_ids.get(category(ch), UNK) for ch in text]
        return chars, cats


class CharSegmenter(nn.Module):
    """Embeddings → BiLSTM → five-way scores per character.

    With ``n_langs`` > 0 (a multilingual model) a language embedding joins
    every character's input, so one network learns each language's habits
    (abbreviations, clitics) while sharing what scripts have in common.
    """

    def __init__(self, n_chars: int, n_cats: int, char_dim: int = 48, cat_dim: int = 8,
                 hidden: int = 64, layers: int = 2, dropout: float = 0.2, n_langs: int = 0,
                 lang_dim: int = 8) -> None:
        super().__init__()
        self.char_embed = nn.Embedding(n_chars, char_dim, padding_idx=PAD)
        self.cat_embed = nn.Embedding(n_cats, cat_dim, padding_idx=PAD)
        self.lang_embed = nn.Embedding(n_langs, lang_dim) if n_langs else None
        self.dropout = nn.Dropout(dropout)
        self.lstm = nn.LSTM(char_dim + cat_dim + (lang_dim if n_langs else 0), hidden, num_layers=layers,
                            batch_first=True, bidirectional=True, dropout=dropout if layers > 1 else 0.0)
        self.out = nn.Linear(2 * hidden, N_CLASSES)

    def forward(self, chars: torch.Tensor, cats: torch.Tensor, langs: torch.Tensor | None = None) -> torch.Tensor:
        """Scores per character.

        chars, cats: ``[batch, length]`` ids; langs: ``[batch]`` language ids
        (multilingual models only).  Returns logits ``[batch, length, 5]``.
        """
        parts = [self.char_embed(chars), self.cat_embed(cats)]
        if self.lang_embed is not None:
            if langs is None:
                raise ValueError("a multilingual segmenter needs a language id")
            parts.append(self.lang_embed(langs)[:, None, :].expand(-1, chars.shape[1], -1))
        x = torch.cat(parts, dim=-1)  # [B, T, char_dim + cat_dim (+ lang_dim)]
        h, _ = self.lstm(self.dropout(x))  # [B, T, 2 * hidden]
        return self.out(self.dropout(h))


def framed_ids(vocab: Vocab, text: str) -> tuple[list[int], list[int]]:
    """Ids for BREAK + text + BREAK, the framing used in training."""
    chars, cats = vocab.encode(text)
    return [BREAK] + chars + [BREAK], [BREAK] + cats + [BREAK]


@torch.inference_mode()
def predict_many(model: CharSegmenter, vocab: Vocab, texts: list[str], *, core: int = 256,
                 context: int = 64, batch_windows: int = 64, lang: int | None = None) -> list[torch.Tensor]:
    """Class probabilities ``[len(text), 5]`` for each text, windows of all texts batched together.

    ``lang`` is the language id for a multilingual model (None for a monolingual one).
    """
    model.eval()
    framed = [framed_ids(vocab, t) for t in texts]
    outs = [torch.empty(len(c), N_CLASSES) for c, _ in framed]
    # (text index, core start, window start, window end), longest windows first to pad little.
    windows = []
    for n, (chars, _) in enumerate(framed):
        total = len(chars)
        for s0 in range(0, total, core):
            windows.append((n, s0, max(0, s0 - context), min(total, s0 + core + context)))
    windows.sort(key=lambda w: w[2] - w[3])
    for b in range(0, len(windows), batch_windows):
        group = windows[b:b + batch_windows]
        width = max(e - s for _, _, s, e in group)
        c = torch.full((len(group), width), PAD, dtype=torch.long)
        k = torch.full((len(group), width), PAD, dtype=torch.long)
        for i, (n, _, s, e) in enumerate(group):
            c[i, : e - s] = torch.tensor(framed[n][0][s:e])
            k[i, : e - s] = torch.tensor(framed[n][1][s:e])
        langs = None if lang is None else torch.full((len(group),), lang, dtype=torch.long)
        probs = model(c, k, langs).softmax(-1)  # [W, width, 5]
        for i, (n, s0, s, _) in enumerate(group):
            e0 = min(len(outs[n]), s0 + core)
            outs[n][s0:e0] = probs[i, s0 - s: e0 - s]
    return [o[1:-1] for o in outs]


def predict_probs(model: CharSegmenter, vocab: Vocab, text: str, **options: int | None) -> torch.Tensor:
    """Class probabilities ``[len(text), 5]`` for one paragraph."""
    return predict_many(model, vocab, [text], **options)[0]
