"""The shipped English gapping by the five GAPPING folds: end to end from gold tokens, and the enhancer alone.

Two systems, scored with the gap-edge metric of :mod:`eval.gapping.benchmark` (collapsed
enhanced edges through an empty node, each path segment cut to its universal part) on each held
fold of :mod:`eval.gapping.folds`:

- **end to end**: ``models/en_ewt`` from the gold tokens (cached network outputs,
  :mod:`eval.gapping.cache`, written by the package's own gapping stages);
- **gold orphan trees**: the gold basic trees with ``orphan`` (DEPS stripped) through
  ``eud enhance`` alone.

Nothing is chosen here, so there is no optimism to report; but both are *tuning* figures: the
shipped parser was trained on GAPPING train and dev, and its thresholds, rules and the enhancer's
conventions (``converters/en.toml``) were chosen on them.  The folds' spread says how much one
block of 48 sentences varies.

It also checks that :mod:`eval.gapping.replay` replays the shipped setting exactly: every
sentence's gap edges from the replay equal those of ``Predictor.write``.

usage (from the repository root, after ``python -m eval.gapping.cache``):
  python -m eval.gapping.shipped
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter

from eud import load
from eud.conllu import open_text, parse_conllu
from eud.nn.data import strip_enhanced
from eud.pipeline import enhance
from eval.common import command_line, record
from eval.crossval import fold_members
from eval.gapping.benchmark import gap_edges
from eval.gapping.cache import read
from eval.gapping.folds import gapping_paths
from eval.gapping.replay import SHIPPED, Replayer, f1, total


def by_fold(rows: list[Counter], folds: list[int]) -> dict:
    """Held-fold gap-edge F1 (mean, sd, per fold), found, and the pooled P/R/F1."""
    members = fold_members(folds)
    scores = [f1(total(rows, idx)) for idx in members.values()]
    found = [100 * total(rows, idx)["found"] / max(1, total(rows, idx)["gapped"]) for idx in members.values()]
    c = total(rows, list(range(len(rows))))
    p = 100 * c["match"] / c["sys"] if c["sys"] else 0.0
    r = 100 * c["match"] / c["gold"] if c["gold"] else 0.0
    return {"held-fold gap-edge F1": {"mean": round(statistics.mean(scores), 2), "sd": round(statistics.stdev(scores), 2),
                                      "folds": [round(s, 2) for s in scores]},
            "held-fold found %": {"mean": round(statistics.mean(found), 2), "sd": round(statistics.stdev(found), 2),
                                  "folds": [round(s, 1) for s in found]},
            "pooled P/R/F1": [round(p, 2), round(r, 2), round(f1(c), 2)],
            "gap edges gold/system": [c["gold"], c["sys"]], "found": f"{c['found']}/{c['gapped']}"}


def gold_tree_rows(gold: list) -> list[Counter]:
    """Per sentence counts for the enhancer alone on the gold orphan trees."""
    text = "".join(strip_enhanced(open_text(p).read()) for p in gapping_paths("orphan-basic"))
    system = enhance(parse_conllu(text), "en")
    rows = []
    for g, s in zip(gold, system, strict=True):
        ge, se = gap_edges(g), gap_edges(s)
        rows.append(Counter(match=len(ge & se), sys=len(se), gold=len(ge), gapped=bool(g.empty_nodes),
                            found=bool(g.empty_nodes) and bool(s.empty_nodes)))
    return rows


def check_replay(replayer: Replayer) -> int:
    """Sentences whose replayed shipped gap edges differ from Predictor.write's (0 when the replay is exact)."""
    predictor, cached, differ = replayer.predictor, replayer.cached, 0
    for i, (inp, d) in enumerate(zip(cached.inputs, cached.decoded)):
        real = inp.copy()
        predictor.write(real, d)
        replayed = replayer.output(i, SHIPPED) if any(
            w.deprel == "orphan" for w in replayer.decide(i, SHIPPED).words) else None
        differ += gap_edges(real) != (gap_edges(replayed) if replayed is not None else set())
    return differ


def main(argv: list[str] | None = None) -> int:
    """Score both systems by fold and record them."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.parse_args(argv)
    cached = read("gapping")
    replayer = Replayer(load(cached.model), cached)
    differ = check_replay(replayer)
    if differ:
        raise SystemExit(f"error: the replay of the shipped setting differs from Predictor.write on {differ} sentences")
    command = command_line("eval.gapping.shipped")
    end_to_end = {"model": cached.model, "input": "GAPPING train+dev gold tokens (243 sentences, 5 contiguous folds)",
                  "replay equals Predictor.write": True, **by_fold(replayer.counts(SHIPPED), cached.folds)}
    gold_trees = {"input": "GAPPING train+dev gold orphan trees, DEPS stripped (243 sentences, 5 contiguous folds)",
                  "system": "eud enhance (en)", **by_fold(gold_tree_rows(cached.gold), cached.folds)}
    print(json.dumps({"end to end": end_to_end, "gold orphan trees": gold_trees}, indent=1))
    record("gapping", "folds_end_to_end", end_to_end, label="tuning", command=command,
           notes="the shipped parser was trained on GAPPING train and dev, and its gapping thresholds and rules "
                 "were chosen on them: tuning figures, split by the 5 folds; nothing is chosen here")
    record("gapping", "folds_gold_trees", gold_trees, label="tuning", command=command,
           notes="the enhancer's gapping conventions (converters/en.toml) were measured on GAPPING train+dev; "
                 "nothing is chosen here")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
