"""Parse once, decide many times: the shipped parser's network outputs, cached for the gapping benchmarks.

The network is the slow part; the gapping decisions after it (orphan checks, margins, verifier,
parallelism, rebuilds) are cheap.  So each sentence goes through the network once, from its gold
tokens, and what :meth:`eud.nn.predict.Predictor.write` needs is pickled under ``work/`` (ignored by
git): the input sentence and its :class:`~eud.nn.predict.Decoded`, the encoder states kept only
where the parser predicted an ``orphan`` (the verifier reads them nowhere else), the FEATS choice
made once.  :mod:`eval.gapping.rules` then replays the decisions for every candidate setting.

Two sets:

- ``gapping``: GAPPING train+dev (243 sentences) from the gold orphan trees' tokens, with the gold
  enhanced graphs and the fold of each sentence (:mod:`eval.gapping.folds`);
- ``negatives``: en_ewt and en_gum **train and dev** sentences (never test), all 26,344 by default
  or a fixed random sample (seed 35) of ``--negatives`` of them, with whether the gold has an
  empty node and the document fold of each.  A larger sample reuses a smaller cached one.

usage (from the repository root; about 5 minutes on two free cores):
  python -m eval.gapping.cache --model models/en_ewt

A tool, not a benchmark: it caches network outputs for the gapping benchmarks and records no result.
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from eud import load
from eud.conllu import open_text, parse_conllu, read_conllu
from eud.graph import Sentence
from eud.nn.data import strip_enhanced
from eud.nn.predict import Decoded
from eval.common import REPO
from eval.gapping.folds import UD, block_folds, document_fold, gapping_paths

WORK = REPO / "work" / "gapping"
NEGATIVE_TREEBANKS = ("en_ewt", "en_gum")
NEGATIVE_SPLITS = ("train", "dev")  # never test
SEED = 35


@dataclass
class Cached:
    """One set of sentences with the shipped model's network outputs."""

    model: str
    inputs: list[Sentence]  # gold tokens, no tree
    decoded: list[Decoded]
    gold: list[Sentence] | None  # gold graphs (GAPPING), or None
    gapped: list[bool]  # gold has an empty node
    folds: list[int]
    ids: list[str]


def _text(path: Path) -> str:
    with open_text(path) as fh:
        return fh.read()


def decode(pipe: object, inputs: list[Sentence]) -> list[Decoded]:
    """The network's outputs, trimmed: FEATS chosen once, encoder states only where an orphan was predicted."""
    predictor = pipe.predictor  # type: ignore[attr-defined]
    decoded = predictor.decode_all(inputs)
    out = []
    for sentence, d in zip(inputs, decoded):
        tags = d.tags
        if predictor.feats is not None and d.feats_scores is not None:
            feats = [predictor.feats.choose(w.form, upos, d.feats_scores[i])
                     for i, (w, upos) in enumerate(zip(sentence.words, tags["upos"]))]
            tags = {**tags, "feats": feats}
        states = d.states if "orphan" in d.deprels else None
        out.append(replace(d, tags=tags, states=states, feats_scores=None, edge_probs=d.edge_probs))
    return out


def build_gapping(pipe: object, model: str, limit: int | None = None) -> Cached:
    """GAPPING train+dev from the gold orphan trees' tokens (``limit``: only the first sentences, for tests)."""
    basic = [s for p in gapping_paths("orphan-basic") for s in parse_conllu(strip_enhanced(_text(p)))][:limit]
    gold = [s for p in gapping_paths("enhanced") for s in read_conllu(p)][:limit]
    inputs = [s.copy() for s in basic]
    return Cached(model, inputs, decode(pipe, inputs), gold, [bool(g.empty_nodes) for g in gold],
                  block_folds(len(gold)), [f"gapping-{i + 1}" for i in range(len(gold))])


def build_negatives(pipe: object, model: str, size: int, done: Cached | None = None) -> Cached:
    """A fixed random sample of en_ewt and en_gum train+dev sentences (``done``: a smaller cached sample to reuse)."""
    pool: list[tuple[str, bool, str]] = []  # (sent_id, gold has empty node, stripped text)
    for code in NEGATIVE_TREEBANKS:
        for split in NEGATIVE_SPLITS:
            path = UD / code / f"{code}-ud-{split}.conllu.xz"
            for gold, block in zip(read_conllu(path), strip_enhanced(_text(path)).split("\n\n")):
                pool.append((gold.sent_id or "", bool(gold.empty_nodes), block))
    chosen = sorted(random.Random(SEED).sample(range(len(pool)), min(size, len(pool))))
    inputs = [s for i in chosen for s in parse_conllu(pool[i][2] + "\n\n")]
    if len(inputs) != len(chosen):
        raise SystemExit(f"error: {len(chosen)} sentences sampled but {len(inputs)} read back")
    # The same seed draws a larger sample as the smaller one plus more, so decoded sentences are reused.
    known = dict(zip(done.ids, done.decoded)) if done is not None and done.model == model else {}
    todo = [k for k, i in enumerate(chosen) if pool[i][0] not in known]
    print(f"negatives: {len(chosen)} of {len(pool)} sentences, {len(todo)} to decode", file=sys.stderr)
    fresh = dict(zip(todo, decode(pipe, [inputs[k] for k in todo])))
    decoded = [fresh[k] if k in fresh else known[pool[i][0]] for k, i in enumerate(chosen)]
    return Cached(model, inputs, decoded, None, [pool[i][1] for i in chosen],
                  [document_fold(pool[i][0]) for i in chosen], [pool[i][0] for i in chosen])


def path_for(name: str) -> Path:
    """Where a cached set lives."""
    return WORK / f"{name}.pickle"


def read(name: str) -> Cached:
    """A cached set (run this module first)."""
    path = path_for(name)
    if not path.exists():
        raise SystemExit(f"error: no cache at {path}; run python -m eval.gapping.cache first")
    with open(path, "rb") as fh:
        return _Unpickler(fh).load()


class _Unpickler(pickle.Unpickler):
    """Finds :class:`Cached` also when the cache was written by ``python -m eval.gapping.cache`` (as ``__main__``)."""

    def find_class(self, module: str, name: str) -> object:
        if name == "Cached":
            return Cached
        return super().find_class(module, name)


def main(argv: list[str] | None = None) -> int:
    """Parse the sets once and pickle them."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="models/en_ewt")
    ap.add_argument("--negatives", type=int, default=26344, help="sentences sampled from en_ewt/en_gum train+dev")
    ap.add_argument("--only", choices=("gapping", "negatives"))
    args = ap.parse_args(argv)
    pipe = load(args.model)
    WORK.mkdir(parents=True, exist_ok=True)
    for name in ("gapping", "negatives"):
        if args.only and name != args.only:
            continue
        start = time.perf_counter()
        if name == "gapping":
            cached = build_gapping(pipe, args.model)
        else:
            done = read(name) if path_for(name).exists() else None
            cached = build_negatives(pipe, args.model, args.negatives, done)
        with open(path_for(name), "wb") as fh:
            pickle.dump(cached, fh)
        print(f"{name}: {len(cached.inputs)} sentences in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
