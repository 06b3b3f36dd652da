"""Per-language vs multilingual model, on the held-apart tuning slice of one language (gold tokens).

The slice is the one ``eval/experiments/train_multi.toml`` holds apart (every 10th sentence,
index % 10 == 0, of each file given), so the multilingual model never trained on it.
Pass only files the per-language model did not train on either (e.g. dev splits).
Quick scores (``eud.nn.scoring``); the enhanced graph comes from each model's own setting.

usage (from the repository root):
  python -m eval.parser.design_compare --lang et --models models/et_ewt models/multi_charlstm \
      --files ../shared/data/ud/et_ewt/et_ewt-ud-dev.conllu.xz ../shared/data/ud/et_edt/et_edt-ud-dev.conllu.xz

The table goes to ``eval/results/parser/design_compare_<lang>.json`` (tuning: the slice chooses the
design) unless given ``--no-record``.
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path

from eud.nn.data import file_entries, read_split
from eud.nn.scoring import quick_scores
from eud.pipeline import Pipeline
from eval.common import command_line, record

COLUMNS = ("UPOS", "Lemmas", "UAS", "LAS", "ELAS")


def main(argv: list[str] | None = None) -> int:
    """Print one markdown row per model and record the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", required=True)
    ap.add_argument("--models", nargs="+", required=True)
    ap.add_argument("--files", nargs="+", required=True)
    ap.add_argument("--tune-every", type=int, default=10)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--no-record", action="store_true", help="print only; write no result file")
    args = ap.parse_args(argv)
    _, _, tune = read_split(file_entries(args.files, Path.cwd(), "files"), args.tune_every)
    gold = [s for sentences in tune.values() for s in sentences]
    words = sum(len(s.words) for s in gold)
    print(f"tuning slice: {len(gold)} sentences, {words} words of {', '.join(Path(f).name for f in args.files)}")
    print("| model | " + " | ".join(COLUMNS) + " |")
    print("|---|" + "---|" * len(COLUMNS))
    figures: dict[str, object] = {"tuning slice": f"{len(gold)} sentences, {words} words"}
    for model in args.models:
        pipe = Pipeline.load(model, lang=args.lang, threads=args.threads)
        pred = pipe.parse_sentences(copy.deepcopy(gold))
        scores = quick_scores(gold, pred)
        print(f"| {Path(model).name} | " + " | ".join(f"{scores[c]:.2f}" for c in COLUMNS) + " |", flush=True)
        figures[Path(model).name] = {c: round(scores[c], 2) for c in COLUMNS}
    if not args.no_record:
        record("parser", f"design_compare_{args.lang}", figures, label="tuning",
               command=command_line("eval.parser.design_compare"), one_row=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
