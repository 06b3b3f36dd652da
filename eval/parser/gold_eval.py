"""Score a parser package on gold files: speed, peak memory and IWPT scores per graph mode.

Each run is a separate ``eud parse`` process timed by ``/usr/bin/time -v``
(wall time of the whole process, peak RSS); the parser's own summary line
gives the model-loading time and the parsing speed.  Scores come from
``eud evaluate`` (empty nodes collapsed, as the IWPT scorer does).

usage (from the repository root):
  python -m eval.parser.gold_eval --model models/en_ewt --modes graph rules combined \
      ../shared/data/ud/en_ewt/en_ewt-ud-dev.conllu.xz
  python -m eval.parser.gold_eval --model models/en_ewt ../shared/data/ud/en_ewt/en_ewt-ud-test.conllu.xz \
      ../shared/data/ud/en_gum/en_gum-ud-test.conllu.xz
  python -m eval.parser.gold_eval --model models/en_ewt ../shared/data/ud/en_ewt/en_ewt-ud-test.conllu.xz --precision fp32 bf16

A shared file of the model's own treebank (``models/X`` on ``../shared/data/ud/X/X-ud-<split>``),
parsed in the model's own graph mode at ``--precision auto``, has its UPOS, LAS and ELAS written to
``eval/results/models/X/gold_<split>.json`` (test-scored-once on test, tuning on dev); other runs
only print.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from eval.common import SHARED, command_line, record

METRICS = ("UPOS", "XPOS", "UFeats", "Lemmas", "UAS", "LAS", "ELAS", "EULAS")


def run_parse(model: str, gold: str, out: Path, mode: str | None, threads: int,
              precision: str = "auto", input_format: str = "conllu") -> dict[str, float]:
    """Parse ``gold`` (its tokenisation only, or raw text) into ``out``; returns wall, load, words/s and peak MiB."""
    cmd = ["/usr/bin/time", "-v", sys.executable, "-m", "eud", "parse", "--model", model, "--input-format",
           input_format, "--threads", str(threads), "--precision", precision, gold, "-o", str(out)]
    if mode:
        cmd += ["--graph-mode", mode]
    run = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "EUD_NO_PROGRESS": "1"}, check=False)
    if run.returncode:
        raise SystemExit(f"eud parse failed:\n{run.stderr[-3000:]}")
    err = run.stderr
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", err).group(1)
    parts = [float(x) for x in wall.split(":")]
    seconds = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", err).group(1)) / 1024
    m = re.search(r"(\d+) words in ([\d.]+) s \((\d+) words/s\); model loaded in ([\d.]+) s", err)
    words, parse_s, wps, load = int(m.group(1)), float(m.group(2)), int(m.group(3)), float(m.group(4))
    return {"wall": seconds, "load": load, "parse": parse_s, "words": words, "words/s": wps,
            "whole words/s": words / seconds, "peak MiB": rss}


def score(gold: str, system: Path) -> dict[str, float]:
    """F1 (percent) of the main metrics, from ``eud evaluate --json``."""
    run = subprocess.run([sys.executable, "-m", "eud", "evaluate", gold, str(system), "--json"],
                         capture_output=True, text=True, check=True)
    metrics = json.loads(run.stdout)["pairs"][0]["metrics"]
    return {k: 100 * metrics[k]["f1"] for k in METRICS if k in metrics}


def main(argv: list[str] | None = None) -> int:
    """Parse and score every gold file in every requested graph mode; print markdown rows."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("gold", nargs="+")
    ap.add_argument("--model", required=True)
    ap.add_argument("--modes", nargs="+", default=[None], help="graph modes (default: the model's own)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--precision", nargs="+", default=["auto"], choices=("auto", "fp32", "bf16"),
                    help="encoder arithmetic of eud parse, one run each (default: auto)")
    ap.add_argument("--out-dir", type=Path, default=Path("/tmp/eud-parser-eval"))
    args = ap.parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    print("| model | file | graph | precision | " + " | ".join(METRICS) + " | words/s (parse) | words/s (whole process) "
          "| load s | peak MiB |")
    print("|---|---|---|---|" + "---|" * (len(METRICS) + 4))
    for gold in args.gold:
        name = Path(gold).name.split(".")[0]
        for mode in args.modes:
            for precision in args.precision:
                out = args.out_dir / f"{Path(args.model).name}.{name}.{mode or 'default'}.{precision}.conllu"
                speed = run_parse(args.model, gold, out, mode, args.threads, precision)
                scores = score(gold, out)
                print(f"| {Path(args.model).name} | {name} | {mode or 'default'} | {precision} | "
                      + " | ".join(f"{scores.get(k, float('nan')):.2f}" for k in METRICS)
                      + f" | {speed['words/s']:.0f} | {speed['whole words/s']:.0f} | {speed['load']:.1f} "
                      f"| {speed['peak MiB']:.0f} |", flush=True)
                treebank, _, split = name.partition("-ud-")
                own = SHARED / "ud" / treebank / f"{name}.conllu.xz"
                if (treebank == Path(args.model).name and Path(gold).resolve() == own.resolve() and mode is None
                        and precision == "auto"):
                    record(f"models/{treebank}", f"gold_{split}", {k: round(scores[k], 2) for k in ("UPOS", "LAS", "ELAS")},
                           label="test-scored-once" if split == "test" else "tuning",
                           command=command_line("eval.parser.gold_eval"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
