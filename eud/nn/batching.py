"""Sentences → padded tensors, and length-sorted batches of about the same number of words."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import torch

from eud.graph import Sentence
from eud.nn.labels import delexicalise_graph
from eud.nn.lemma import edit_script
from eud.nn.vocab import Vocab, normalise_word

IGNORE = -100


@dataclass
class Batch:
    """B sentences of at most N words, with targets when the sentences are annotated."""

    indices: list[int]  # positions of the sentences in the list they came from
    forms: list[list[str]]
    lengths: torch.Tensor  # [B]
    words: torch.Tensor  # [B, N]
    chars: torch.Tensor  # [B, N, C]
    targets: dict[str, torch.Tensor] = field(default_factory=dict)
    langs: torch.Tensor | None = None  # [B] language ids, for a multilingual model

    @property
    def mask(self) -> torch.Tensor:
        """[B, N] true at real words."""
        n = self.words.shape[1]
        return torch.arange(n)[None, :] < self.lengths[:, None]


def make_batch(sentences: list[Sentence], indices: list[int], vocabs: dict[str, Vocab], *,
               max_chars: int = 24, with_targets: bool = False, langs: list[int] | None = None) -> Batch:
    """Tensorise the sentences at ``indices`` (``langs``: a language id per sentence of ``sentences``)."""
    chosen = [sentences[i] for i in indices]
    b = len(chosen)
    n = max(len(s.words) for s in chosen)
    forms = [[w.form for w in s.words] for s in chosen]
    c = min(max_chars, max(len(f) for fs in forms for f in fs))
    words = torch.zeros((b, n), dtype=torch.long)
    chars = torch.zeros((b, n, max(c, 1)), dtype=torch.long)
    wv, cv = vocabs["words"], vocabs["chars"]
    for i, fs in enumerate(forms):
        words[i, : len(fs)] = torch.tensor([wv.get(normalise_word(f), 1) for f in fs])
        for j, f in enumerate(fs):
            if len(f) > c:  # keep both ends, where affixes are
                f = f[: c // 2] + f[len(f) - (c - c // 2):]
            chars[i, j, : len(f)] = torch.tensor([cv.get(ch, 1) for ch in f])
    batch = Batch(indices, forms, torch.tensor([len(fs) for fs in forms]), words, chars)
    if langs is not None:
        batch.langs = torch.tensor([langs[i] for i in indices], dtype=torch.long)
    if with_targets:
        batch.targets = _targets(chosen, n, vocabs)
    return batch


def _targets(chosen: list[Sentence], n: int, vocabs: dict[str, Vocab]) -> dict[str, torch.Tensor]:
    b = len(chosen)
    t = {name: torch.full((b, n), IGNORE, dtype=torch.long) for name in ("upos", "xpos", "feats", "lemma", "head", "deprel")}
    t["enh"] = torch.zeros((b, n, n + 1))
    t["enh_label"] = torch.full((b, n, n + 1), IGNORE, dtype=torch.long)
    # Sentences without an enhanced layer must not teach the graph scorer "no edges".
    t["has_enh"] = torch.tensor([bool(s.enhanced) for s in chosen])
    for i, s in enumerate(chosen):
        for j, w in enumerate(s.words):
            t["upos"][i, j] = vocabs["upos"].get(w.upos)
            t["xpos"][i, j] = vocabs["xpos"].get(w.xpos)
            t["feats"][i, j] = vocabs["feats"].get(w.feats)
            t["lemma"][i, j] = vocabs["lemma"].get(edit_script(w.form, w.lemma))
            if w.head is not None:
                t["head"][i, j] = w.head
                t["deprel"][i, j] = vocabs["deprel"].get(w.deprel)
        for head, dep, label in delexicalise_graph(s):
            t["enh"][i, dep[0] - 1, head[0]] = 1.0
            t["enh_label"][i, dep[0] - 1, head[0]] = vocabs["enh_label"].get(label)
    return t


def length_batches(lengths: list[int], batch_words: int, *, shuffle: bool = False, seed: int = 0) -> list[list[int]]:
    """Group indices of similar length so that a batch holds about ``batch_words`` words.

    With ``shuffle`` the order within equal lengths and the order of batches are
    random (seeded), so epochs differ but a resumed run repeats them exactly.
    """
    rng = random.Random(seed)
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], rng.random() if shuffle else i))
    batches: list[list[int]] = []
    current: list[int] = []
    longest = 0
    for i in order:
        longest_if = max(longest, lengths[i])
        if current and longest_if * (len(current) + 1) > batch_words:
            batches.append(current)
            current, longest_if = [], lengths[i]
        current.append(i)
        longest = longest_if
    if current:
        batches.append(current)
    if shuffle:
        rng.shuffle(batches)
    return batches
