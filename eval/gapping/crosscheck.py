"""What the gapping rule adds to the whole enhancer, scored by ``eud evaluate``.

For each treebank, the enhancer (``eud.enhance.pipeline``, the treebank's
profile) runs on the gold basic trees twice, with and without the gapping
rule, and both outputs are scored against gold with :mod:`eud.evaluate`:

* **ELAS** — the official score (empty nodes collapsed into ``conj>nsubj``
  path labels, as in the IWPT shared tasks), without → with gapping;
* **EmptyNodes / EmptyEdges** — ``eud evaluate``'s uncollapsed empty-node
  scores of the run with gapping (an empty node matches when it follows the
  same word with the same rank; an edge touching one when both ends match and
  the labels are equal).  These cross-check ``eval/gapping/benchmark.py``'s
  ``pos`` detection and edges, which are defined independently.

Slow-ish (two enhancer runs and two scorings per file): about 10 s a file.  On every treebank (no
``--treebank``) it writes ``eval/results/gapping/crosscheck_<split>.json``: test-scored-once on
test, tuning on dev and train (the rule was built on them).

Examples::

    python -m eval.gapping.crosscheck --split test
    python -m eval.gapping.crosscheck --split dev --treebank lv_lvtb et_edt
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

from eud.conllu import read_conllu, write_conllu
from eud.enhance.pipeline import Enhancer
from eud.enhance.profiles import find_profile
from eud.evaluate import evaluate_files
from eval.common import command_line, record

TREEBANKS = ["en_ewt", "en_gum", "lv_lvtb", "nl_lassysmall", "nl_alpino", "et_edt", "et_ewt", "fi_tdt", "cs_cac", "cs_fictree", "sv_talbanken", "sk_snk", "uk_iu", "it_isdt"]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "ud"


def enhance_file(gold: Path, code: str, gapping: bool, out: Path) -> None:
    """Write the enhancer's output on ``gold``'s basic trees, with or without the gapping rule."""
    profile = find_profile(code)
    rules = tuple(r for r in profile.rules if gapping or r != "gapping")
    enhancer = Enhancer(dataclasses.replace(profile, rules=rules))
    write_conllu((enhancer.enhance(s) for s in read_conllu(gold)), out)


def f1(score: object) -> str:
    """``P / R / F1`` of an ``eud.evaluate.metrics.Score`` as percentages."""
    return f"{100 * score.precision:.1f} / {100 * score.recall:.1f} / {100 * score.f1:.1f}"  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    """Print the Markdown table for the chosen treebanks and split."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__[__doc__.index("Examples::"):],
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of <code>/<code>-ud-<split>.conllu.xz")
    parser.add_argument("--treebank", nargs="+", default=TREEBANKS, help="treebank codes (default: all with empty nodes)")
    parser.add_argument("--split", default="test", choices=["train", "dev", "test"])
    args = parser.parse_args(argv)

    paths = [(code, args.data / code / f"{code}-ud-{args.split}.conllu.xz") for code in args.treebank]
    paths = [(code, path) for code, path in paths if path.exists()]
    if not paths:
        print(f"error: no <code>/<code>-ud-{args.split}.conllu.xz files under {args.data}", file=sys.stderr)
        return 1
    print("| treebank | ELAS without → with gapping | Δ | EmptyNodes P/R/F1 | EmptyEdges P/R/F1 |")
    print("|---|---|---|---|---|")
    gain: dict[str, float] = {}
    empty_f1: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for code, gold in paths:
            elas = {}
            for gapping in (False, True):
                out = Path(tmp) / f"{code}.{gapping}.conllu"
                enhance_file(gold, code, gapping, out)
                result = evaluate_files(gold, out, extras=gapping)
                elas[gapping] = result["ELAS"].f1
            empty = result.empty_nodes
            nodes = f1(empty["EmptyNodes"]) if empty else "–"
            edges = f1(empty["EmptyEdges"]) if empty else "–"
            print(
                f"| {code} | {100 * elas[False]:.2f} → {100 * elas[True]:.2f} "
                f"| {100 * (elas[True] - elas[False]):+.2f} | {nodes} | {edges} |",
                flush=True,
            )
            gain[code] = round(100 * (elas[True] - elas[False]), 2)
            if empty:
                empty_f1[code] = round(100 * empty["EmptyNodes"].f1, 1)
    if args.treebank == TREEBANKS:
        figures = {"treebanks": len(gain), "ELAS gain from the gapping rule, mean": round(sum(gain.values()) / len(gain), 2),
                   "ELAS gain by treebank": gain, "EmptyNodes F1 with gapping by treebank": empty_f1}
        record("gapping", f"crosscheck_{args.split}", figures,
               label="test-scored-once" if args.split == "test" else "tuning",
               command=command_line("eval.gapping.crosscheck"), one_row=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
