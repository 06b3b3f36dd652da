"""Parallelism: a gapped clause's remnants are alike in kind to the correlates they contrast with.

Gapping elides a predicate between two clauses that run in parallel: in *John ate an apple
and Mary a pear* the remnant *Mary* contrasts with *John*, *a pear* with *an apple*, and
each pair is of one kind (people, fruit; *in the morning* / *in the evening*).  The lists
the parser misreads as gapping pair phrases of different kinds (*Dad filled the bucket with
water and a few small stones for luck*: *a few small stones* with *the bucket*, *for luck*
with *with water*).

The check embeds each remnant's phrase and its correlate's phrase on their own with a
sentence encoder (mean-pooled, unit length; the package names it, ``minilm`` is the
pretrained all-MiniLM-L6-v2 that the English package's encoder started from) and averages
the cosines over the remnants that have a correlate.  A phrase is the word's basic subtree
without punctuation, coordinating conjunctions and the subtrees of the clause's other
remnants (the promoted remnant carries the orphans); a correlate's phrase also leaves out
the antecedent.  A clause whose average falls below the package's threshold is undone like
the ones :func:`eud.gapping.checks.demote_without_correlates` rejects; a clause with no
correlated remnant is left to the other checks.  Settings live in the package's
``config.json``, its ``gapping`` block: ``"parallelism": {"encoder": "minilm", "threshold": t}``.

Not caught: a modifier close in kind to what it is paired with (*She thanked the nurses for
their care and a doctor from the clinic* scores 0.42).

Embedding in isolation is the point: the parser's own word states carry the sentence, and
in a list both members read alike in context.  The threshold is chosen by
``python -m eval.gapping.parallelism_sweep`` (its figures: ``eval/journal/``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from eud.gapping.correlates import BasicTree
from eud.gapping.repair import Settings
from eud.gapping.rule import Alignment
from eud.graph import Sentence, Word

CONFIG_KEY = "parallelism"  # the key of the package config's gapping block
_CACHE_SIZE = 4096


def phrase(tree: BasicTree, word: Word, stop: set[int]) -> str:
    """``word``'s phrase as text: its subtree minus punctuation, ``cc`` and the subtrees of ``stop``."""
    words = tree.sentence.words
    ids = sorted(i for i in tree.subtree(word.id, stop)
                 if i == word.id or (words[i - 1].upos != "PUNCT" and words[i - 1].udeprel != "cc"))
    return " ".join(words[i - 1].form for i in ids)


def remnant_pairs(tree: BasicTree, clause: Alignment) -> list[tuple[str, str]]:
    """(remnant phrase, correlate phrase) for each remnant of ``clause`` that has a correlate."""
    remnants = {r.id for r in clause.remnants}
    antecedent = {clause.antecedent.id} if clause.antecedent is not None else set()
    return [(phrase(tree, r, remnants - {r.id}), phrase(tree, c, remnants | antecedent))
            for r, c in zip(clause.remnants, clause.correlates) if c is not None]


class PhraseEncoder:
    """A Hugging Face encoder (directory, hub name or ``minilm``) that embeds short texts, loaded on first use.

    A BERT folder runs on :mod:`eud.nn.bert` (no transformers import); see :func:`eud.nn.encoders.load_transformer`.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._model: Any = None
        self._tokenizer: Any = None
        self._cache: dict[str, np.ndarray] = {}

    def _load(self) -> None:
        from eud.nn.encoders import load_transformer, named_transformer

        self._tokenizer, model = load_transformer(named_transformer(self.name))
        self._model = model.eval()

    def embed(self, texts: list[str]) -> np.ndarray:
        """[len(texts), d] unit vectors, the mean of each text's subword states."""
        known = {t: self._cache[t] for t in texts if t in self._cache}
        todo = sorted(set(texts) - known.keys())
        if todo:
            import torch

            if self._model is None:
                self._load()
            with torch.inference_mode():
                if hasattr(self._tokenizer, "padded"):  # eud.nn.bert
                    ids, attention = self._tokenizer.padded(todo, 128)
                else:
                    batch = self._tokenizer(todo, padding=True, truncation=True, max_length=128, return_tensors="pt")
                    ids, attention = batch["input_ids"], batch["attention_mask"]
                states = self._model(input_ids=ids, attention_mask=attention).last_hidden_state.float()
                mask = attention.unsqueeze(-1).float()
                mean = torch.nn.functional.normalize((states * mask).sum(1) / mask.sum(1), dim=-1)
            known.update(zip(todo, mean.numpy()))
            if len(self._cache) + len(todo) > _CACHE_SIZE:
                self._cache = {}
            self._cache.update((t, known[t]) for t in todo)
        return np.stack([known[t] for t in texts])


class ParallelismCheck:
    """Undo a gapped clause whose remnants, on average, resemble their correlates less than ``threshold``."""

    def __init__(self, encoder: PhraseEncoder, threshold: float) -> None:
        self.encoder = encoder
        self.threshold = float(threshold)

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> ParallelismCheck | None:
        """The check a package's config sets, or None."""
        settings = getattr(Settings.from_config(config), CONFIG_KEY)
        if not settings:
            return None
        if not isinstance(settings, dict) or not isinstance(settings.get("threshold"), (int, float)):
            from eud.nn.package import PackageError

            raise PackageError(f"config.json: gapping.{CONFIG_KEY} must be a table with a numeric threshold, "
                             f'e.g. {{"encoder": "minilm", "threshold": 0.2}}, not {settings!r}')
        return cls(PhraseEncoder(str(settings.get("encoder", "minilm"))), float(settings["threshold"]))

    def score(self, sentence: Sentence, clause: Alignment) -> float | None:
        """The mean cosine of the clause's remnant/correlate phrases (None: no remnant has a correlate)."""
        pairs = remnant_pairs(BasicTree(sentence), clause)
        if not pairs:
            return None
        vectors = self.encoder.embed([text for pair in pairs for text in pair])
        return float(np.mean((vectors[0::2] * vectors[1::2]).sum(1)))

    def accepts(self, sentence: Sentence, clause: Alignment) -> bool:
        """Whether the clause's remnants parallel their correlates closely enough."""
        score = self.score(sentence, clause)
        return score is None or score >= self.threshold
