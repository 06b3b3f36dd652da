"""Choose a parser's ``orphan`` bias: gapping found on GAPPING dev against false alarms on en_ewt dev.

A parser that learnt gapping from a few hundred sentences posits ``orphan``
with badly calibrated scores.  The package setting ``label_bias`` (see
:func:`eud.nn.predict.label_bias_vector`) shifts that relation's score before
the label is chosen.  This script parses, from gold tokens, for each bias:

* GAPPING dev: gap-edge P/R/F1 and gapped sentences found (the metric of
  ``eval/gapping/benchmark.py --gapping-corpus``);
* a UD tuning file (default en_ewt dev): LAS, ELAS and *false alarms*, sentences
  without a gold empty node in which the parser made one.

Only dev files are read, so the bias is chosen without the test sets.  With
``--write`` the chosen bias goes into the package's ``config.json``.

    python -m eval.gapping.label_bias_sweep --model work/en_gapping/model --bias 0 -1 -2 -3
    python -m eval.gapping.label_bias_sweep --model work/en_gapping/model --bias 0 1 2 --orphan-check on
    python -m eval.gapping.label_bias_sweep --model work/en_gapping/model --bias 1 --orphan-check on --write
    python -m eval.gapping.label_bias_sweep --model models/en_ewt --bias 2 --margins lifted=1.2 uncorrelated=1.5

``--margins`` sets the package's ``orphan_margins`` (see :mod:`eud.gapping.checks`);
``--margins off`` turns them off.  The table goes to ``eval/results/gapping/label_bias_sweep.json``
(tuning) unless given ``--no-record``.
"""

from __future__ import annotations

import argparse
import copy
import json
from pathlib import Path

from eud.conllu import parse_conllu, read_conllu
from eud.evaluate import evaluate_sentences
from eud.gapping.repair import set_setting
from eud.pipeline import Pipeline
from eval.common import command_line, record
from eval.gapping.benchmark import score_gapping, strip_deps

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"


def sweep(args: argparse.Namespace) -> list[dict[str, float]]:
    """One row of scores per bias."""
    pipe = Pipeline.load(args.model, threads=args.threads)
    if args.orphan_check is not None:
        pipe.predictor.orphan_check = args.orphan_check == "on"
    if args.margins is not None:
        pipe.predictor.orphan_margins = args.margins
    gap_gold = list(read_conllu(args.gapping_data / "gapping-enhanced.dev.conllu.xz"))
    gap_input = strip_deps(args.gapping_data / "gapping-orphan-basic.dev.conllu.xz")
    ud_gold = list(read_conllu(args.tune))
    ud_input = list(parse_conllu(strip_deps(args.tune)))
    rows = []
    for bias in args.bias:
        pipe.predictor.set_label_bias({"orphan": bias})
        gap = score_gapping(gap_gold, pipe.parse_sentences(list(parse_conllu(gap_input))))
        ud_system = pipe.parse_sentences(copy.deepcopy(ud_input))
        alarms = score_gapping(ud_gold, ud_system)
        scores = evaluate_sentences(ud_gold, ud_system, extras=False)
        p = gap["match"] / max(1, gap["sys_edges"])
        r = gap["match"] / max(1, gap["gold_edges"])
        rows.append({"bias": bias, "P": 100 * p, "R": 100 * r, "F1": 200 * p * r / max(1e-9, p + r),
                     "found": 100 * gap["found"] / max(1, gap["gapped"]), "false_alarms": alarms["false_alarms"],
                     "LAS": 100 * scores["LAS"].f1, "ELAS": 100 * scores["ELAS"].f1})
        print(_row(rows[-1]), flush=True)
    return rows


def _row(r: dict[str, float]) -> str:
    return (f"| {r['bias']:+.1f} | {r['P']:.1f} / {r['R']:.1f} / {r['F1']:.1f} | {r['found']:.1f} "
            f"| {r['false_alarms']} | {r['LAS']:.2f} | {r['ELAS']:.2f} |")


def _margins(ap: argparse.ArgumentParser, items: list[str]) -> dict[str, float]:
    if items == ["off"]:
        return {}
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        try:
            out[name] = float(value)
        except ValueError:
            ap.error(f"--margins: expected NAME=NUMBER or 'off', not {item!r}")
        if name not in ("lifted", "uncorrelated"):
            ap.error(f"--margins: unknown name {name!r} (known: lifted, uncorrelated)")
    return out


def main(argv: list[str] | None = None) -> int:
    """Sweep the biases, print the table, record it, and store the bias in the package if asked."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="a parser package folder")
    ap.add_argument("--bias", type=float, nargs="+", default=[0.0, -1.0, -2.0, -3.0], help="orphan biases to try")
    ap.add_argument("--tune", type=Path, default=DATA / "ud" / "en_ewt" / "en_ewt-ud-dev.conllu.xz",
                    help="UD file for false alarms, LAS and ELAS (default en_ewt dev)")
    ap.add_argument("--gapping-data", type=Path, default=DATA / "gapping")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--orphan-check", choices=("on", "off"),
                    help="keep orphan only under a predicate antecedent (eud.gapping.checks); default: the package's")
    ap.add_argument("--write", action="store_true",
                    help="store the (single) bias, and --orphan-check if given, in the package's config.json")
    ap.add_argument("--margins", nargs="+", metavar="NAME=VALUE",
                    help="orphan_margins (lifted=, uncorrelated=) or 'off'; default: the package's")
    ap.add_argument("--no-record", action="store_true", help="write no result file")
    args = ap.parse_args(argv)
    if args.margins is not None:
        args.margins = _margins(ap, args.margins)
    if args.write and len(args.bias) != 1:
        ap.error("--write takes exactly one --bias")
    print(f"model {args.model}; GAPPING dev from gold tokens; false alarms, LAS, ELAS on {args.tune.name}")
    print("| orphan bias | gap-edge P / R / F1 | found % | false alarms | LAS | ELAS |")
    print("|---|---|---|---|---|---|")
    rows = sweep(args)
    if not args.no_record:
        figures = {f"orphan bias {r['bias']:+.1f}": {
            "GAPPING dev gap-edge P/R/F1": f"{r['P']:.1f} / {r['R']:.1f} / {r['F1']:.1f}",
            "found %": round(r["found"], 1), f"{args.tune.name.split('.')[0]} false alarms": r["false_alarms"],
            "LAS": round(r["LAS"], 2), "ELAS": round(r["ELAS"], 2)} for r in rows}
        record("gapping", "label_bias_sweep", figures, label="tuning",
               command=command_line("eval.gapping.label_bias_sweep"), one_row=True)
    if args.write:
        path = Path(args.model) / "config.json"
        config = json.loads(path.read_text(encoding="utf-8"))
        config["label_bias"] = {"orphan": args.bias[0]} if args.bias[0] else {}
        if args.orphan_check is not None:
            set_setting(config, "orphan_check", args.orphan_check == "on")
        if args.margins is not None:
            set_setting(config, "orphan_margins", args.margins)
        path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote label_bias {config['label_bias']}, gapping {config.get('gapping')} to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
