"""How much a language's multiword-token decision should lean on the treebank's rates by word ending.

The segmenter network decides, in context, whether a token is a multiword token; for Tamil it
misses clitics (``-um``) and under-splits passives (``-ppaṭṭu-``), and Words F1 stays near 95 from
raw text.  :mod:`eud.segment.mwt` can mix in the multiword share of each token's longest known
ending, learned from the training treebank, with a weight per language (``mwt_suffix_weight`` in
``recipes/segmenters.toml``).  Choosing that weight is a choice like any other here
(``eval/crossval.py``): the language's files in the segmenter recipe are cut into k folds (by
document, or k contiguous blocks where there are no documents); for each fold a one-language
segmenter is trained on the other folds with the recipe's settings, its rates are learned from the
same folds, and the held fold's raw text (``# text`` joined into paragraphs) is segmented once per
candidate weight and scored by the official scorer.  The weight is chosen on k-1 folds' Words F1 and
scored on the held one; the table gives each weight's held-fold mean and spread, the pick per fold
and the optimism.

Neither the fold segmenters nor their rates ever saw the held fold.  The shipped segmenter is
multilingual, so the weight the folds choose is carried over to a network that learned from more
languages: the figures say what the rates add to a Tamil-only segmenter, not to the shipped one.

usage (from the repository root, ``../shared`` beside it):
  python -m eval.segment.mwt_cv --lang ta --k 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from eud.recipe import RecipeError, Run
from eval.common import REPO, SHARED, command_line, record
from eval.crossval import cross_validate
from eval.parser.data_cv import document_folds, held_fold_figures, read_blocks
from eval.segment.data_cv import fold_segmenter, segment_and_score, segmenter_settings

WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0)
COLUMNS = ("Tokens", "Words", "Sentences")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", required=True, help="a language of recipes/segmenters.toml")
    ap.add_argument("--recipe", default="recipes/segmenters.toml")
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--weights", type=float, nargs="+", default=list(WEIGHTS),
                    help="candidate weights of the rates (the first is the baseline; default: 0 0.25 0.5 0.75 1)")
    ap.add_argument("--epochs", type=int, help="override the recipe's epochs")
    ap.add_argument("--only-fold", type=int, help="train and score this fold only, record nothing (folds can run side by "
                    "side; a run without it then reuses the finished ones)")
    ap.add_argument("--max-steps", type=int, help="a smoke run: stop each epoch after this many steps, record nothing")
    ap.add_argument("--work", default=None, help="models and fold files (default: work/mwt_cv/<lang>)")
    ap.add_argument("--name", help="the result's name (default: mwt_cv_<lang>)")
    args = ap.parse_args(argv)

    run = Run(args.recipe, shared=SHARED)
    try:
        settings, files = segmenter_settings(run, args.lang)
    except RecipeError as err:
        ap.error(str(err))
    work = Path(args.work or REPO / "work" / "mwt_cv" / args.lang).resolve()
    work.mkdir(parents=True, exist_ok=True)
    blocks = [b for path in files for b in read_blocks(Path(path))]
    folds = document_folds(blocks, args.k)

    from eud.conllu import read_conllu
    from eud.segment import Segmenter
    from eud.segment.mwt import MwtExpander

    scores: dict[float, list[dict[str, float]]] = {w: [] for w in args.weights}
    for fold in range(args.k) if args.only_fold is None else [args.only_fold]:
        trained = fold_segmenter(settings, args.lang, [], blocks, folds, fold, work, f"{args.lang}-fold{fold}",
                                 epochs=args.epochs, max_steps=args.max_steps)
        if trained is None:
            return 2
        package, rest, held = trained
        segmenter = Segmenter.load(package)
        segmenter.mwt = MwtExpander.build(read_conllu(rest), suffix_weight=1.0)
        for weight in args.weights:
            segmenter.mwt.suffix_weight = weight
            figures = segment_and_score(segmenter, held, work, f"{args.lang}-fold{fold}-w{weight:g}")
            scores[weight].append(figures)
            print(f"fold {fold} weight {weight:g}: " + ", ".join(f"{c} {figures[c]:.2f}" for c in COLUMNS), flush=True)

    if args.only_fold is not None or args.max_steps:
        return 0
    cv = cross_validate(list(range(args.k)), list(args.weights),
                        lambda weight, folds_: statistics.mean(scores[weight][f]["Words"] for f in folds_))
    figures = {
        "choice of the weight (Words)": cv.summary(),
        "held-fold Words by weight": {f"{w:g}": round(statistics.mean(s["Words"] for s in folds_), 2)
                                      for w, folds_ in scores.items()},
        "folds": args.k, "files": [str(Path(p).name) for p in files],
        "sentences per fold": [folds.count(f) for f in range(args.k)],
        **held_fold_figures({f"weight {w:g}": s for w, s in scores.items()}, COLUMNS),
    }
    print(json.dumps(figures, indent=1))
    path = record("segment", args.name or f"mwt_cv_{args.lang}", figures, label="cross-validated", one_row=True,
                  command=command_line("eval.segment.mwt_cv"),
                  notes=f"{args.k} folds of the language's segmenter files; one {args.lang}-only segmenter per fold "
                        "(recipe settings, epoch picked on its own tuning slice); rates learned from the same folds; "
                        "official scorer on the held fold's raw text")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
