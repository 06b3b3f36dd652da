"""The held-apart tuning slices of a recipe's training files: sentences its parser never trained on.

A training config's ``tune_every = k`` holds every k-th sentence of each training file apart
(:func:`eud.nn.data.read_split`); the trainer scores them to pick the epoch and never learns from
them.  For models trained on dev splits (no train split is available here) they are the only text
of their treebanks that the shipped parser has not seen, so the benchmarks that must judge the
parser on unseen text of its own treebanks read them.  The slice picked the epoch: figures on it
are tuning figures.
"""

from __future__ import annotations

from pathlib import Path

from eud.conllu import read_conllu
from eud.graph import Sentence
from eud.recipe import Run


def held_slices(run: Run, stage: str = "parser") -> tuple[str, dict[str, list[Sentence]]]:
    """The recipe's language and, per training file with a tuning share, its held-apart sentences.

    Keyed by treebank (the file name up to its first ``-``).  StopIteration when the recipe has no
    training stage named ``stage``; RecipeError when a file is missing.
    """
    config = next(s for s in run.recipe["stage"] if s["name"] == stage and s["kind"] == "train")["config"]
    every = int(config.get("tune_every", 0))
    slices = {}
    for entry in config["train"]:
        path = entry if isinstance(entry, str) else entry["path"]
        k = every if isinstance(entry, str) else int(entry.get("tune_every", every))
        if k:
            sentences = list(read_conllu(run.data(path)))
            slices[Path(path).name.split("-")[0]] = sentences[::k]
    return str(config.get("language", run.recipe["model"].split("_")[0])), slices
