"""How much gold gapping each orphan check of ``eud.gapping.checks`` would undo.

Reads gold orphan trees (GAPPING train and dev, and the English UD training
treebanks, which annotate a few gapped clauses) and counts, for each check,
the gold ``orphan`` relations or gapped clauses it would relabel: what the
check costs where gapping is real.  (The margin checks need a parser's
scores; a gold tree is sure of itself, so they cost nothing here.)

    python -m eval.gapping.orphan_checks

With every file there, the counts go to ``eval/results/gapping/orphan_checks.json``
(``orphan_checks_<lang>`` for another ``--lang``); tuning, since the checks were built on these files.
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path

from eud.conllu import parse_conllu
from eud.enhance.profiles import language_style
from eud.gapping.checks import bracket_nesting, demote_orphans, stray_orphans, unsound
from eud.gapping.correlates import BasicTree
from eud.gapping.rule import Gapping
from eval.common import command_line, record
from eval.gapping.benchmark import strip_deps

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
FILES = ("gapping/gapping-orphan-basic.train.conllu.xz", "gapping/gapping-orphan-basic.dev.conllu.xz",
         "ud/en_ewt/en_ewt-ud-train.conllu.xz", "ud/en_gum/en_gum-ud-train.conllu.xz")


def main(argv: list[str] | None = None) -> int:
    """Count, per file, the gold orphans and clauses each check keeps; print and record the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--lang", default="en", help="language whose gapping style finds the correlates")
    args = ap.parse_args(argv)
    gapping = Gapping(copy_of=True, style=language_style(args.lang))
    print("| file | gold orphans | kept by the antecedent check | kept by the stray check "
          "| gapped clauses | kept by the shape checks |")
    print("|---|---|---|---|---|---|")
    figures: dict[str, str] = {}
    for name in FILES:
        path = args.data / name
        if not path.exists():
            print(f"| {name} | missing | | | |")
            continue
        orphans = kept = not_stray = clauses = supported = 0
        for sentence in parse_conllu(strip_deps(path)):
            n = sum(w.deprel == "orphan" for w in sentence.words)
            if not n:
                continue
            checked = copy.deepcopy(sentence)
            orphans += n
            kept += n - demote_orphans(checked, ["dep"] * len(checked.words))
            nesting = bracket_nesting(sentence)
            tree = BasicTree(sentence)
            for clause in gapping.alignments(sentence):
                clauses += 1
                supported += not unsound(clause, tree)
                not_stray += len(clause.remnants) - 1 - len(stray_orphans(clause, nesting, tree))
        print(f"| {Path(name).name} | {orphans} | {kept} | {not_stray} | {clauses} | {supported} |")
        figures[Path(name).name.removesuffix(".conllu.xz")] = (
            f"orphans kept by the antecedent check {kept} of {orphans}, by the stray check {not_stray}; "
            f"gapped clauses kept by the shape checks {supported} of {clauses}")
    if len(figures) == len(FILES):
        record("gapping", "orphan_checks" if args.lang == "en" else f"orphan_checks_{args.lang}", figures,
               label="tuning", command=command_line("eval.gapping.orphan_checks"), one_row=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
