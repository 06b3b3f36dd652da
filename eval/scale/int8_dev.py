"""fp32 against int8 on dev raw text: what ``eud parse --precision auto`` may pick per model type.

Each model parses the raw text of a dev file twice, ``--precision fp32`` and ``--precision int8``
(:func:`eud.nn.network.quantize_int8`), as fresh ``eud parse --lang`` processes; ``eud evaluate``
scores both against the gold file.  int8 is allowed for a model type when its ELAS stays within
0.2 of fp32 for English and 0.3 for the character models (issue 37); the table it sets is
:data:`eud.nn.network.INT8_AUTO`.  No test split is read here.

The character models are trained on the dev splits of their treebanks (see each ``MODEL.md``),
so their dev figures are not held-out scores: what is compared is how far int8 moves the output
from fp32's, on text the model has seen.  English's dev is held out.

    python -m eval.scale.int8_dev --lang en et_ewt fi_tdt --threads 1
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from eval.common import REPO, command_line, record
from eval.scale.speed import gold_file, over_models, parse_once, raw_text_of

BOUND = {"en": 0.2}  # ELAS points int8 may lose; 0.3 for every other (character) model


def scores(gold: Path, system: Path) -> dict:
    """LAS and ELAS (F1, in points) of ``system`` against ``gold``, from ``eud evaluate --json``."""
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-m", "eud", "evaluate", "--json", "--official-only", str(gold),
                           str(system)], capture_output=True, text=True, env=env, cwd=REPO, check=True)
    metrics = json.loads(done.stdout)["pairs"][0]["metrics"]
    return {m: round(100 * metrics[m]["f1"], 2) for m in ("LAS", "ELAS")}


def compare(lang: str, treebank: str, args: argparse.Namespace, work: Path) -> dict:
    """fp32 and int8 ELAS of one model on its dev text, and whether int8 holds."""
    text = work / "dev.txt"
    text.write_text(raw_text_of(treebank, "dev"), encoding="utf-8")
    gold = gold_file(treebank, "dev")
    row: dict = {"treebank": treebank}
    for precision in ("fp32", "int8"):
        out = work / f"{precision}.conllu"
        run = parse_once(lang, text, out, precision=precision, threads=args.threads)
        row[precision] = {**scores(gold, out), "words_per_s_after_load": round(run["words"] / run["parse_s"]),
                          "peak_rss_mb": run["peak_rss_mb"]}
    row["elas_drop"] = round(row["fp32"]["ELAS"] - row["int8"]["ELAS"], 2)
    row["bound"] = BOUND.get(lang, 0.3)
    row["int8_holds"] = row["elas_drop"] <= row["bound"]
    return row


def main(argv: list[str] | None = None) -> int:
    """Parse and score each model's dev text in both precisions; write eval/results/scale/int8_dev.json."""
    figures, args = over_models(__doc__, argv, compare)
    print("wrote", record("scale", "int8_dev", figures, label="tuning", command=command_line("eval.scale.int8_dev"),
                          notes=args.notes, with_cpu=True))
    return 0

if __name__ == "__main__":
    sys.exit(main())
