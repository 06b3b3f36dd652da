"""The test score of ``eud parse --precision auto`` from raw text, taken once after the choice was made on dev.

:mod:`eval.scale.int8_dev` decides on dev which arithmetic ``auto`` picks per model type; this
parses a test file's raw text with that choice (``-v`` says which it was), scores it with
``eud evaluate`` and records it as ``test-scored-once``.

    python -m eval.scale.precision_test --lang en --threads 1
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from eval.common import command_line, record
from eval.scale.int8_dev import scores
from eval.scale.speed import gold_file, model_options, models_and_treebanks, parse_once, raw_text_of


def main(argv: list[str] | None = None) -> int:
    """Parse and score each model's test text once; write eval/results/scale/precision_test.json."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    model_options(ap)
    args = ap.parse_args(argv)
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        for lang, treebank in models_and_treebanks(ap, args):
            text, out = Path(tmp) / "test.txt", Path(tmp) / "test.conllu"
            text.write_text(raw_text_of(treebank, "test"), encoding="utf-8")
            run = parse_once(lang, text, out, precision="auto", threads=args.threads)
            figures[lang] = {"treebank": treebank, "precision": run["precision"], **scores(gold_file(treebank, "test"), out)}
            print(lang, figures[lang], flush=True)
    print("wrote", record("scale", "precision_test", figures, label="test-scored-once",
                          command=command_line("eval.scale.precision_test"), notes=args.notes, with_cpu=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
