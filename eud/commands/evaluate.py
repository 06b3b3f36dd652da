"""``eud evaluate``: IWPT-style scores of system CoNLL-U against gold (see :mod:`eud.evaluate`)."""

from __future__ import annotations

import argparse
import json

from eud.commands.errors import input_error
from eud.conllu import ConlluError
from eud.evaluate.data import ScoringError
from eud.evaluate.evaluation import ENHANCED_METRICS, evaluate_files, format_extras, format_table, macro_average
from eud.evaluate.levels import LEVELS

EPILOG = """\
examples:
  eud evaluate gold.conllu system.conllu
  eud evaluate gold.conllu system.conllu --counts          # raw counts, as udeval --counts
  eud evaluate gold.conllu.xz system.conllu --enhancements 16 --json
  eud evaluate en-gold.conllu en-sys.conllu cs-gold.conllu cs-sys.conllu   # + macro average

Empty nodes are collapsed into path labels (conj>nsubj) in both files first, as
the IWPT shared tasks did, so pass ordinary CoNLL-U files.  Words are aligned on
the non-space characters, so the system may tokenize differently.

--enhancements: which enhancement types the gold data lacks, as in the official
scorer: 0 all present (default), 1 no gapping, 2 no shared parents in
coordination, 3 no shared dependents (a no-op, as officially), 4 no control,
5 no relative clauses, 6 no case information in labels; combine digits (16).
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``eud evaluate``."""
    parser = argparse.ArgumentParser(
        prog="eud evaluate",
        description="IWPT-style scores (LAS, MLAS, BLEX, ELAS, EULAS, ...) of system CoNLL-U against gold.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="+", metavar="GOLD SYSTEM", help="gold and system files, in pairs")
    parser.add_argument("-c", "--counts", action="store_true", help="print raw counts instead of percentages")
    parser.add_argument("--enhancements", default="0", help="official enhancement levels, e.g. 0 or 16 (see below)")
    parser.add_argument("--json", action="store_true", help="print one JSON document with everything")
    parser.add_argument("--official-only", action="store_true", help="only the official metrics (faster)")
    parser.add_argument("--no-enhanced", action="store_true", help="leave ELAS/EULAS out of the table")
    return parser


def main(argv: list[str] | None = None) -> int:
    """``eud evaluate GOLD SYSTEM [GOLD2 SYSTEM2 ...]``."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if len(args.files) % 2:
        parser.error("give gold and system files in pairs (GOLD SYSTEM [GOLD2 SYSTEM2 ...])")
    bad = [c for c in args.enhancements if c not in "0" + LEVELS]
    if bad or not args.enhancements:
        parser.error(f"--enhancements takes digits 0-6, got {args.enhancements!r}")
    evaluations = []
    try:
        for gold, system in zip(args.files[0::2], args.files[1::2]):
            evaluations.append(
                evaluate_files(gold, system, enhancements=args.enhancements, extras=not args.official_only)
            )
    except (ConlluError, ScoringError, OSError) as err:
        return input_error("eud evaluate", err)
    if args.json:
        doc = {"pairs": [e.to_dict() for e in evaluations]}
        if len(evaluations) > 1:
            doc["macro_average"] = macro_average(evaluations)
        print(json.dumps(doc, indent=1))
        return 0
    for k, ev in enumerate(evaluations):
        if len(evaluations) > 1:
            print(("\n" if k else "") + f"== {ev.gold_path} vs {ev.system_path}")
        print(format_table(ev, counts=args.counts, enhanced=not args.no_enhanced))
        extra = format_extras(ev, counts=args.counts)
        if extra:
            print(extra)
    if len(evaluations) > 1:
        print(f"\n== macro average over {len(evaluations)} pairs")
        print("Metric     | Precision |    Recall |  F1 Score")
        print("-----------+-----------+-----------+-----------")
        for name, avg in macro_average(evaluations).items():
            if args.no_enhanced and name in ENHANCED_METRICS:
                continue
            print(f"{name:11}|{100 * avg['precision']:10.2f} |{100 * avg['recall']:10.2f} |{100 * avg['f1']:10.2f}")
    return 0
