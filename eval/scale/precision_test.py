"""The test score of ``eud parse --precision auto`` from raw text, taken once after the choice was made on dev.

:mod:`eval.scale.int8_dev` decides on dev which arithmetic ``auto`` picks per model type; this
parses a test file's raw text with that choice (``-v`` says which it was), scores it with
``eud evaluate`` and records it as ``test-scored-once``.

    python -m eval.scale.precision_test --lang en --threads 1
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eval.common import command_line, record
from eval.scale.int8_dev import scores
from eval.scale.speed import gold_file, over_models, parse_once, raw_text_of


def score_once(lang: str, treebank: str, args: argparse.Namespace, work: Path) -> dict:
    """LAS and ELAS of ``--precision auto`` on one model's test text, and the arithmetic it picked."""
    text, out = work / "test.txt", work / "test.conllu"
    text.write_text(raw_text_of(treebank, "test"), encoding="utf-8")
    run = parse_once(lang, text, out, precision="auto", threads=args.threads)
    return {"treebank": treebank, "precision": run["precision"], **scores(gold_file(treebank, "test"), out)}


def main(argv: list[str] | None = None) -> int:
    """Parse and score each model's test text once; write eval/results/scale/precision_test.json."""
    figures, args = over_models(__doc__, argv, score_once)
    print("wrote", record("scale", "precision_test", figures, label="test-scored-once",
                          command=command_line("eval.scale.precision_test"), notes=args.notes, with_cpu=True))
    return 0

if __name__ == "__main__":
    sys.exit(main())
