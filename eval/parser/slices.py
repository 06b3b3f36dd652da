"""The held-apart tuning slices of a recipe's training files: sentences its parser never trained on.

A training config's ``tune_every = k`` holds every k-th sentence of each training file apart
(:func:`eud.nn.data.read_split`); the trainer scores them to pick the epoch and never learns from
them.  For models trained on dev splits (no train split is available here) they are the only text
of their treebanks that the shipped parser has not seen, so the benchmarks that must judge the
parser on unseen text of its own treebanks read them.  The slice picked the epoch: figures on it
are tuning figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from eud.graph import Sentence
from eud.nn.data import file_entries, read_entry
from eud.recipe import Run


@dataclass
class Part:
    """One training file cut as its trainer cuts it."""

    treebank: str  # the file name up to its first ``-``
    held: list[Sentence]  # the tuning slice (empty for a file without a tuning share)
    trained: list[Sentence]  # the rest: what the parser learned from


def split_files(run: Run, stage: str = "parser") -> tuple[str, list[Part]]:
    """The recipe's language and its training stage's files, in recipe order, each cut into slice and rest.

    StopIteration when the recipe has no training stage named ``stage``; RecipeError when a file is missing.
    """
    config = next(s for s in run.recipe["stage"] if s["name"] == stage and s["kind"] == "train")["config"]
    every = int(config.get("tune_every", 0))
    parts = []
    for entry in file_entries(run.data(config["train"]), Path("."), "train"):
        k = int(entry.get("tune_every", every))
        sentences = read_entry(entry)  # as the trainer reads it: upgraded, DEPS dropped, ... where the recipe says
        parts.append(Part(Path(entry["path"]).name.split("-")[0], sentences[::k] if k else [],
                          [s for i, s in enumerate(sentences) if not k or i % k]))
    return str(config.get("language", run.recipe["model"].split("_")[0])), parts


def by_treebank(parts: list[Part], side: str) -> dict[str, list[Sentence]]:
    """The ``held`` or ``trained`` sentences of each treebank (its train and dev files joined in recipe order)."""
    out: dict[str, list[Sentence]] = {}
    for part in parts:
        sentences = getattr(part, side)
        if sentences:
            out.setdefault(part.treebank, []).extend(sentences)
    return out


def held_slices(run: Run, stage: str = "parser") -> tuple[str, dict[str, list[Sentence]]]:
    """The recipe's language and, per treebank with a tuning share, its held-apart sentences."""
    language, parts = split_files(run, stage)
    return language, by_treebank(parts, "held")
