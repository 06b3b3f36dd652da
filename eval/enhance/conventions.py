"""How well the Polish profile recognises a text's enhanced convention, and what it buys.

The shipped Polish parser (``models/pl_pdb``) parses the pl_lfg and pl_pdb dev splits from gold
tokens; its basic relations decide, sentence by sentence, which convention the text follows
(:mod:`eud.enhance.conventions`).  The window and share are chosen by 5-fold cross-validation over
contiguous blocks of both files (choose on four blocks of each, score the fifth), and the profile's
shipped setting is scored on all of it, as ELAS against the gold graphs beside the single-convention
profiles.

Caveat, written into the result: the parser was trained on these dev splits (no train split of
either treebank is available here), so it reproduces each treebank's relations more faithfully than
it would on unseen text; the figures are tuning figures.

usage (from the repository root):
  python -m eval.enhance.conventions
"""

from __future__ import annotations

import argparse
import itertools
import lzma
import statistics

from eud.conllu import format_sentence, parse_conllu
from eud.enhance import Enhancer, find_profile
from eud.enhance.conventions import Conventions
from eud.evaluate import evaluate
from eval.common import SHARED, command_line, record

TREEBANKS = ("pl_pdb", "pl_lfg")  # pl_pdb is the marked convention
WINDOWS = (0, 10, 40, 100, 200, 400)
SHARES = (0.1, 0.125, 0.15, 0.175, 0.2, 0.25, 0.3)
FOLDS = 5


def _gold(treebank: str) -> str:
    with lzma.open(SHARED / "ud" / treebank / f"{treebank}-ud-dev.conllu.xz", "rt", encoding="utf-8") as fh:
        return fh.read()


def _accuracy(conv: Conventions, relations: dict[str, list[set[str]]], folds: list[int]) -> float:
    ok = n = 0
    for treebank, rels in relations.items():
        chosen = conv.choose(rels)  # windows run over the whole file: the text is contiguous
        for f in folds:
            lo, hi = len(rels) * f // FOLDS, len(rels) * (f + 1) // FOLDS
            ok += sum(c == treebank for c in chosen[lo:hi])
            n += hi - lo
    return ok / n


def main(argv: list[str] | None = None) -> int:
    """Parse both dev splits, cross-validate the window and share, and score the shipped profile."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="models/pl_pdb")
    args = ap.parse_args(argv)
    import eud

    pipe = eud.load(args.model)
    golds = {tb: parse_conllu(_gold(tb)) for tb in TREEBANKS}
    parsed = {tb: list(pipe.parse_conllu(_gold(tb))) for tb in TREEBANKS}
    relations = {tb: [{w.deprel for w in s.words} for s in parsed[tb]] for tb in TREEBANKS}
    shipped = find_profile("pl").conventions
    assert shipped is not None
    make = lambda w, t: Conventions(shipped.default, shipped.marked, shipped.relations, t, w)
    grid = list(itertools.product(WINDOWS, SHARES))
    held, choosing, picks = [], [], []
    for f in range(FOLDS):
        rest = [g for g in range(FOLDS) if g != f]
        # Ties go to the narrower window, then the share nearest the middle of the tied ones.
        scores = {p: _accuracy(make(*p), relations, rest) for p in grid}
        top = max(scores.values())
        tied = [p for p in grid if scores[p] == top]
        narrowest = min(w for w, _ in tied)
        shares = [t for w, t in tied if w == narrowest]
        pick = (narrowest, shares[len(shares) // 2])
        picks.append(pick)
        choosing.append(top)
        held.append(_accuracy(make(*pick), relations, [f]))
    figures: dict = {
        "sentence accuracy of the convention, held folds": {
            "mean": round(statistics.mean(held), 4), "sd": round(statistics.stdev(held), 4),
            "folds": [round(h, 4) for h in held], "picks (window, share)": picks,
            "optimism": round(statistics.mean(choosing) - statistics.mean(held), 4)},
        "shipped": {"window": shipped.window, "share": shipped.share,
                    "sentence accuracy": round(_accuracy(shipped, relations, list(range(FOLDS))), 4)},
    }
    for tb in TREEBANKS:
        row = {}
        for name in ("pl", "pl_lfg", "pl_pdb"):
            system = parse_conllu("".join(format_sentence(s) for s in parsed[tb]))
            Enhancer(find_profile(name)).enhance_all(system)
            row[f"ELAS with profile {name}"] = round(100 * evaluate(golds[tb], system)["ELAS"].f1, 2)
        figures[f"{tb} dev, predicted trees"] = row
    print(figures)
    record("enhance", "conventions", figures, label="tuning", command=command_line("eval.enhance.conventions"),
           notes="models/pl_pdb was trained on both dev splits, so it reproduces their relations better than "
                 "on unseen text; the folds are contiguous blocks of each file.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
