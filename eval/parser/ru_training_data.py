"""Write the Russian parser's training and tuning files (eval/experiments/train_ru.toml reads them).

The training data is every Russian treebank split here that is not a test
split: ru_taiga train and dev, ru_gsd dev and ru_poetry dev.  Every 8th
sentence of their concatenation (in that order, counting from 0) is kept
apart for tuning; the rest is for training.  These treebanks carry no
enhanced layer, so each sentence gets the one eud's Russian rules build from
its gold tree (the trainer needs a graph for its graph scorer; the shipped
model uses the rules over its predicted tree anyway).  Its labels keep only
ASCII segments (``obl:в:loc`` → ``obl``, ``nsubj:pass`` stays): the
lexicalised labels would make the graph scorer's label table five times
larger than the rest of the model.  With ``--agrr TREES.conllu``
the orphan trees built from AGRR-2019 (``eval/agrr/benchmark.py trees``) are
added to the training file (``PATH:N`` adds a file N times; the tuning file
stays UD-only, so LAS on it is comparable across runs).

    python -m eval.parser.ru_training_data -o work/ru
    python -m eval.parser.ru_training_data -o work/ru_agrr --agrr work/agrr/gapped.conllu:2 --agrr work/agrr/plain.conllu

A tool, not a benchmark: it writes training data and records no result.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from eud import read_conllu, write_conllu
from eud.enhance import Enhancer, find_profile
from eud.graph import Sentence

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "ud"
SOURCES = (
    "ru_taiga/ru_taiga-ud-train.conllu.xz",
    "ru_taiga/ru_taiga-ud-dev.conllu.xz",
    "ru_gsd/ru_gsd-ud-dev.conllu.xz",
    "ru_poetry/ru_poetry-ud-dev.conllu.xz",
)
TUNE_EVERY = 8


def plain_labels(sentence: Sentence) -> Sentence:
    """Cut each enhanced label at its first non-ASCII segment (``obl:в:loc`` → ``obl``)."""
    edges = list(sentence.enhanced)
    for head, dep, label in edges:
        parts = label.split(":")
        keep = next((k for k, p in enumerate(parts) if not p.isascii()), len(parts))
        short = ":".join(parts[:max(keep, 1)])
        if short != label:
            sentence.enhanced.discard(head, dep, label)
            sentence.enhanced.add(head, dep, short)
    return sentence


def main(argv: list[str] | None = None) -> int:
    """Write OUT/train.conllu and OUT/tune.conllu."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--out", type=Path, required=True, help="output folder")
    ap.add_argument("--agrr", action="append", default=[], metavar="PATH[:N]",
                    help="AGRR trees to add to the training file (N times; repeatable)")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    enhancer = Enhancer(find_profile("ru"))
    train, tune = [], []
    k = 0
    for name in SOURCES:
        for sentence in read_conllu(DATA / name):
            plain_labels(enhancer.enhance(sentence))
            (tune if k % TUNE_EVERY == 0 else train).append(sentence)
            k += 1
    for item in args.agrr:
        path, _, copies = item.rpartition(":") if item.rpartition(":")[2].isdigit() else (item, "", "1")
        extra = [plain_labels(enhancer.enhance(s)) for s in read_conllu(path)]
        train += extra * int(copies)
    write_conllu(train, args.out / "train.conllu")
    write_conllu(tune, args.out / "tune.conllu")
    print(f"{len(train)} training sentences, {len(tune)} tuning sentences in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
