"""Gapping found and false alarms of a package at several thresholds of the parallelism check.

The check (:mod:`eud.nn.parallelism`) undoes a predicted gapped clause whose remnants
resemble their correlates, on average, less than a threshold.  This replays the package's
post-processing on each file of ``eval/gapping/false_alarms.py`` (from gold tokens, the
network's scores cached there) once without the check (``none``) and once per threshold:

    python -m eval.gapping.parallelism_sweep --model models/en_ewt --cache work/fa_cache --files gapping_dev gapping_train \
        --thresholds 0.18 0.19 0.2 0.21 0.22
    python -m eval.gapping.parallelism_sweep --model PACKAGE --thresholds 0.2 --files gapping_dev --write 0.2

``--write T`` then sets the package's ``config.json`` key ``gapping.parallelism`` to T.  The table
goes to ``eval/results/gapping/parallelism_sweep.json`` (tuning) unless given ``--no-record``.

The English package's threshold is the highest at which GAPPING dev loses at most two found
sentences and GAPPING train at most 5% (``eval/journal/``, session 23).  en_ewt test is
not read here.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from eud.atomic import write_text_atomically
from eud.gapping.repair import BLOCK, set_setting
from eud.nn.parallelism import CONFIG_KEY, ParallelismCheck, PhraseEncoder
from eud.pipeline import Pipeline
from eval.common import command_line, record
from eval.gapping.false_alarms import add_arguments, cache_folder, cells, score_file


def main(argv: list[str] | None = None) -> int:
    """Replay every threshold on every file, print the table, record it, and write the threshold if asked."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(ap)
    ap.add_argument("--thresholds", nargs="+", type=float, required=True)
    ap.add_argument("--encoder", default="minilm", help="the phrase encoder where the package names none")
    ap.add_argument("--write", type=float, metavar="T", help="set the package's threshold to T afterwards")
    ap.add_argument("--no-record", action="store_true", help="write no result file")
    args = ap.parse_args(argv)
    figures: dict[str, dict[str, object]] = {}
    pipe = Pipeline.load(args.model, threads=args.threads)
    cache = cache_folder(args.cache, args.model)
    shipped = pipe.predictor.parallelism
    encoder = shipped.encoder if shipped is not None else PhraseEncoder(args.encoder)
    print(f"model {args.model}, from gold tokens; shipped threshold: {shipped.threshold if shipped else 'none'}")
    print("| threshold | file | gap-edge P / R / F1 | gapped sentences found, % | false alarms |")
    print("|---|---|---|---|---|")
    try:
        for threshold in [None, *args.thresholds]:
            pipe.predictor.parallelism = None if threshold is None else ParallelismCheck(encoder, threshold)
            for name in args.files:
                scores, _, _ = score_file(pipe, args.data, name, cache)
                print(f"| {threshold or 'none'} | {name} | {cells(scores)} |", flush=True)
                figures.setdefault(f"threshold {threshold or 'none'}", {})[name] = scores
    finally:
        pipe.predictor.parallelism = shipped
    if not args.no_record:
        before = {"package threshold before the sweep": shipped.threshold if shipped else "none"}
        record("gapping", "parallelism_sweep", {**before, **figures}, label="tuning",
               command=command_line("eval.gapping.parallelism_sweep"), one_row=True)
    if args.write is not None:
        path = Path(args.model) / "config.json"
        config = json.loads(path.read_text(encoding="utf-8"))
        set_setting(config, CONFIG_KEY, {"encoder": encoder.name, "threshold": args.write})
        write_text_atomically(path, json.dumps(config, indent=2, ensure_ascii=False) + "\n")
        print(f"{path}: gapping.{CONFIG_KEY} = {config[BLOCK][CONFIG_KEY]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
