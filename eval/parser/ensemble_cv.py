"""Does an ensemble of parsers beat one?  k-fold cross-validation over a training file, several seeds per fold.

A parser trained on a few hundred sentences moves by a point or more with its seed, and averaging the
probabilities of several (:mod:`eud.nn.ensemble`) is the usual cure.  Whether it pays for a language
(it multiplies parsing time and weights) is a choice like any other here (``eval/crossval.py``): the
file is cut into k folds by document (as :mod:`eval.parser.data_cv` cuts it); on each fold the
recipe's training stage is trained ``--seeds`` times on the other folds plus the recipe's other files,
each with its own seed and its epoch picked on its own tuning slice; the held fold is then parsed from
gold tokens by the first seed's parser alone and by the ensemble of all, and scored
(:func:`eud.nn.scoring.quick_scores`).  The design is chosen on k-1 folds' ELAS and scored on the
held one.  Besides the choice the result gives every seed's held-fold ELAS, so the spread a single
parser has from its seed is on record beside the ensemble's gain.

usage (from the repository root, ``../shared`` beside it):
  python -m eval.parser.ensemble_cv --recipe recipes/ta_ttb.toml --folds-of ud/ta_ttb/ta_ttb-ud-train.conllu.xz --k 2 --seeds 3
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
from pathlib import Path

from eud.recipe import RecipeError, Run
from eval.common import REPO, SHARED, command_line, record
from eval.crossval import cross_validate
from eval.parser.data_cv import (
    COLUMNS,
    document_folds,
    held_fold_figures,
    other_files,
    parse_held,
    path_of,
    per_fold_scores,
    read_blocks,
    scores_on,
    train_config,
    train_run,
    write_fold,
)

DESIGNS = ("one parser", "ensemble")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--recipe", required=True, help="the shipped model's recipe (its 'train' stage gives the data and settings)")
    ap.add_argument("--stage", default="parser", help="the recipe's training stage (default: parser)")
    ap.add_argument("--folds-of", required=True, help="the training file cut into folds (a path under ../shared/data)")
    ap.add_argument("--k", type=int, default=2)
    ap.add_argument("--seeds", type=int, default=3, help="parsers per fold, seeds 1..N (default 3)")
    ap.add_argument("--only-fold", type=int, help="train and score this fold only, record nothing")
    ap.add_argument("--max-steps", type=int, help="a smoke run: stop each training after this many steps, record nothing")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--work", default=None, help="models and fold files (default: work/ensemble_cv/<lang>)")
    ap.add_argument("--name", help="the result's name (default: ensemble_cv_<lang>)")
    args = ap.parse_args(argv)
    if args.seeds < 2:
        ap.error("an ensemble needs --seeds 2 or more")

    run = Run(args.recipe, shared=SHARED)
    stage = next((s for s in run.recipe["stage"] if s["name"] == args.stage and s["kind"] == "train"), None)
    if stage is None:
        ap.error(f"{args.recipe}: no training stage named {args.stage!r}")
    base = dict(stage["config"])
    lang = str(base.get("language", run.recipe["model"].split("_")[0]))
    if args.folds_of not in [path_of(t) for t in base["train"]]:
        ap.error(f"{args.folds_of} is not a training file of {args.recipe}")
    try:
        others = run.data(other_files(base["train"], args.folds_of, []))
        folds_of = Path(run.data(args.folds_of))
    except RecipeError as err:
        ap.error(str(err))
    overrides = {"threads": args.threads, **({"max_steps": args.max_steps} if args.max_steps else {})}
    work = Path(args.work or REPO / "work" / "ensemble_cv" / lang).resolve()
    work.mkdir(parents=True, exist_ok=True)
    blocks = read_blocks(folds_of)
    folds = document_folds(blocks, args.k)

    from eud.conllu import read_conllu
    from eud.nn.package import add_members

    gold = list(read_conllu(str(folds_of)))
    if len(gold) != len(blocks):
        raise SystemExit(f"{args.folds_of}: {len(gold)} sentences read but {len(blocks)} blocks")
    seeds = list(range(1, args.seeds + 1))
    names = [*DESIGNS, *(f"seed {s}" for s in seeds[1:])]
    pred: dict[str, list] = {d: [None] * len(gold) for d in names}
    for fold in range(args.k) if args.only_fold is None else [args.only_fold]:
        rest = write_fold(blocks, folds, fold, work / f"{Path(args.folds_of).name.split('-')[0]}-fold{fold}-rest.conllu")
        held = [i for i, f in enumerate(folds) if f == fold]
        packages = []
        for seed in seeds:
            folder = work / f"fold{fold}" / f"seed{seed}"
            config = train_config(base, [str(rest), *others], folder, {**overrides, "seed": seed})
            packages.append(train_run(config, folder, folder.parent / f"seed{seed}.json", smoke=bool(args.max_steps)))
        ensemble = work / f"fold{fold}" / "ensemble"
        if ensemble.exists():
            shutil.rmtree(ensemble)
        shutil.copytree(packages[0], ensemble)
        add_members(ensemble, packages[1:])
        for design, package in [("one parser", packages[0]), ("ensemble", ensemble),
                                *((f"seed {s}", p) for s, p in zip(seeds[1:], packages[1:]))]:
            scores = parse_held(package, lang.split("_")[0], args.threads, gold, held, pred[design])
            print(f"fold {fold} {design}: " + ", ".join(f"{c} {scores[c]:.2f}" for c in COLUMNS), flush=True)

    if args.only_fold is not None or args.max_steps:
        return 0

    def score(design: str, indices: list[int]) -> float:
        return scores_on(gold, pred[design], indices)["ELAS"]

    cv = cross_validate(folds, list(DESIGNS), score)
    per_fold = {d: per_fold_scores(gold, pred[d], folds, args.k) for d in DESIGNS}
    single = {f"seed {s}": round(score("one parser" if s == 1 else f"seed {s}", list(range(len(gold)))), 2) for s in seeds}
    figures = {
        "choice (ELAS)": cv.summary(),
        "ELAS of each seed's parser alone, all folds": {**single, "mean": round(statistics.mean(single.values()), 2),
                                                        "sd": round(statistics.stdev(single.values()), 2)},
        "ELAS of the ensemble, all folds": round(score("ensemble", list(range(len(gold)))), 2),
        "folds": args.k, "seeds": args.seeds, "fold of": args.folds_of,
        "sentences per fold": [folds.count(f) for f in range(args.k)],
        **held_fold_figures(per_fold, COLUMNS),
    }
    print(json.dumps(figures, indent=1))
    path = record("parser", args.name or f"ensemble_cv_{lang.split('_')[0]}", figures, label="cross-validated",
                  command=command_line("eval.parser.ensemble_cv"), one_row=True,
                  notes=f"{args.k} folds by document of {Path(args.folds_of).name}; gold tokens; quick scores "
                        "(eud.nn.scoring); each parser picks its epoch on its own tuning slice; 'one parser' is seed 1's")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
