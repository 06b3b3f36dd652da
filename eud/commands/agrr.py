"""``eud agrr``: answer AGRR-2019 (gapping in Russian) from eud's enhanced graphs, or score answers.

``eud agrr IN.csv -o OUT.csv`` reads an AGRR file (tab-separated, header
row, the text in the first column), parses each text with a Russian model,
lets the enhancer's gapping rule restore elided predicates as empty nodes,
and writes the same rows in the same order with the texts unchanged and the
class and spans filled in from the empty nodes (the mapping is in
:mod:`eud.agrr.answers`, one module per AGRR column).  ``--conllu`` also writes the enhanced graphs
behind the answers.  ``eud agrr --score GOLD.csv OUT.csv`` prints the task's
three metrics (:mod:`eud.agrr.scoring`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eud.agrr import AgrrError, AgrrFile, read_agrr, score, write_agrr
from eud.commands.errors import input_error

EPILOG = """examples:
  eud agrr sentences.csv -o answers.csv
  eud agrr sentences.csv -o answers.csv --conllu graphs.conllu --model models/ru_agrr
  eud agrr --score gold.csv answers.csv
"""
DEFAULT_MODEL = "ru_agrr"


def _score(gold_path: str, pred_path: str, official: bool) -> int:
    try:
        gold, pred = read_agrr(gold_path), read_agrr(pred_path)
        s = score(gold.rows, pred.rows, negatives_count=official)
    except (AgrrError, ValueError) as err:
        return input_error("eud agrr", err)
    print(f"binary      {s['binary']:.4f}  (precision {s['binary_precision']:.4f}, recall {s['binary_recall']:.4f})")
    print(f"resolution  {s['resolution']:.4f}")
    print(f"full        {s['full']:.4f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``eud agrr``."""
    ap = argparse.ArgumentParser(prog="eud agrr", description=__doc__.split("\n\n")[0], epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="IN.csv, or with --score GOLD.csv OUT.csv")
    ap.add_argument("-o", "--output", help="answers file (tab-separated, same rows)")
    ap.add_argument("--score", action="store_true", help="score OUT.csv against GOLD.csv instead of parsing")
    ap.add_argument("--official-negatives", action="store_true",
                    help="with --score: count sentences both files call 0 as 1 in the span scores, as the 2019 "
                         "script did (the default skips them)")
    ap.add_argument("--model", default=str(DEFAULT_MODEL), help="Russian model: a folder or a shipped model's name (default ru_agrr)")
    ap.add_argument("--conllu", help="also write the enhanced graphs behind the answers (CoNLL-U)")
    ap.add_argument("--threads", type=int, default=0, help="CPU threads (default: torch's choice)")
    args = ap.parse_args(argv)
    if args.score:
        if len(args.files) != 2:
            ap.error("--score takes two files: GOLD.csv OUT.csv")
        return _score(args.files[0], args.files[1], args.official_negatives)
    if len(args.files) != 1 or not args.output:
        ap.error("give one input file and -o OUT.csv (or --score GOLD.csv OUT.csv)")
    try:
        agrr = read_agrr(args.files[0])
    except AgrrError as err:
        return input_error("eud agrr", err)
    try:
        from eud.agrr.system import predict_rows
        from eud.pipeline import Pipeline

        # The rules build the graph, so the gapping rule makes the empty nodes.
        pipe = Pipeline.load(args.model, graph_mode="rules", threads=args.threads)
    except ImportError as err:
        print(f"eud agrr: the neural parser needs torch and safetensors (pip install 'eud[nn]'): {err}", file=sys.stderr)
        return 1
    except (ValueError, OSError) as err:
        return input_error("eud agrr", err, args.model)
    answers, sentences = [], []
    for answer, sentence in predict_rows(pipe.parse_sentences, agrr.rows):
        answers.append(answer)
        if sentence is not None:
            sentences.append(sentence)
    from eud.conllu import write_conllu

    try:
        if args.conllu:
            tmp = Path(args.conllu + ".tmp")
            write_conllu(sentences, tmp)
            tmp.replace(args.conllu)
        write_agrr(AgrrFile(answers, agrr.header, agrr.newline), args.output)
    except OSError as err:
        return input_error("eud agrr", err)
    found = sum(a.cls for a in answers)
    print(f"eud agrr: {len(answers)} rows, {found} with a restored gap -> {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
