"""Does a training file help a language's segmenter?  k-fold cross-validation over that file.

Issue 36 brings training files the shipped segmenter never saw (the full et_edt train).  Whether one
helps is a choice, made the way every choice is made here (``eval/crossval.py``): the file is cut
into k folds by document (``# newdoc``, as :mod:`eval.parser.data_cv` cuts), and for each fold a
one-language segmenter is trained on the other folds plus the language's files in
``recipes/segmenters.toml``, with the recipe's settings (its epoch picked on its own tuning slice,
every ``holdout``-th sentence of its files, so the held fold decides nothing inside a run).  Both it
and the shipped segmenter then segment the held fold's raw text (``# text`` joined into paragraphs,
as :func:`eval.segment.score.raw_text` builds it), scored by the official scorer.

The shipped segmenter never trained on the file, so the held folds are unseen by both.  The choice
between them is cross-validated over the folds (choose on k-1, score the held one) and reported
with the held-fold mean of Sentences F1, its spread and the optimism.  Models and fold files go
under ``--work``; a rerun reuses finished trainings and resumes others from their checkpoints.

usage (from the repository root, ``../shared`` beside it):
  python -m eval.segment.data_cv --lang et --folds-of ud/et_edt/et_edt-ud-train.conllu.xz --k 2
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
from eval.parser.data_cv import document_folds, held_fold_figures, read_blocks, train_unless_finished, write_fold

DESIGNS = ("shipped", "with")
COLUMNS = ("Tokens", "Words", "Sentences")


def segmenter_settings(run: Run, lang: str) -> tuple[dict, list[str]]:
    """The segmenter recipe's training settings (without its languages) and ``lang``'s files in it."""
    stage = next(s for s in run.recipe["stage"] if s["kind"] == "train")
    config = dict(stage["config"])
    languages = config.pop("languages")
    if lang not in languages:
        raise RecipeError(f"{lang}: not a language of {run.recipe['model']}")
    return config, [run.data(path) for path in languages[lang]]


def fold_segmenter(settings: dict, lang: str, files: list[str], blocks: list[str], folds: list[int], fold: int,
                   work: Path, stem: str, *, epochs: int | None = None, max_steps: int | None = None
                   ) -> tuple[Path, Path, Path] | None:
    """Write fold ``fold``'s rest and held files (``<stem>-rest.conllu``, ``<stem>-held.conllu``) and train a
    ``lang``-only segmenter on the rest plus ``files`` with the recipe's ``settings``, unless an earlier run
    finished it.  ``(package, rest, held)``, or None when the training failed (it printed why)."""
    from eud.segment.train import train_segmenter

    rest = write_fold(blocks, folds, fold, work / f"{stem}-rest.conllu")
    held = write_fold(blocks, folds, fold, work / f"{stem}-held.conllu", held=True)
    out = work / f"fold{fold}"
    config = {**settings, "languages": {lang: [str(rest), *files]}, "output": str(out),
              **({"epochs": epochs} if epochs else {}), **({"max_steps": max_steps} if max_steps else {})}
    config_path = work / f"fold{fold}.json"
    config_path.write_text(json.dumps(config, indent=1), encoding="utf-8")
    if not train_unless_finished(out, lambda: train_segmenter(config, config_path), smoke=bool(max_steps)):
        return None
    return out / lang, rest, held


def segment_and_score(model, gold: Path, folder: Path, name: str) -> dict[str, float]:
    """Segment ``gold``'s raw text with ``model`` (a Segmenter, or its package folder); Tokens, Words, Sentences F1."""
    from eud.conllu import write_conllu
    from eud.segment import Segmenter, paragraphs
    from eval.segment.score import raw_text, score, with_placeholder_tree

    segmenter = model if isinstance(model, Segmenter) else Segmenter.load(model)
    text = folder / f"{name}.txt"
    text.write_text(raw_text(gold), encoding="utf-8")
    system = folder / f"{name}.segmented.conllu"
    write_conllu((with_placeholder_tree(s) for s in segmenter.segment(paragraphs(text))), system)
    return score(gold, system)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", required=True, help="a language of recipes/segmenters.toml")
    ap.add_argument("--folds-of", required=True, help="the new training file, cut into folds (a path under ../shared/data)")
    ap.add_argument("--recipe", default="recipes/segmenters.toml")
    ap.add_argument("--shipped", help="the shipped segmenter (default: models/segmenters/<lang>)")
    ap.add_argument("--k", type=int, default=2)
    ap.add_argument("--epochs", type=int, help="override the recipe's epochs")
    ap.add_argument("--only-fold", type=int, help="train and score this fold only, record nothing (folds can run side by side; "
                    "a run without it then reuses the finished ones)")
    ap.add_argument("--max-steps", type=int, help="a smoke run: stop each epoch after this many steps, record nothing")
    ap.add_argument("--work", default=None, help="models and fold files (default: work/segment_cv/<lang>)")
    ap.add_argument("--name", help="the result's name (default: data_cv_<lang>)")
    args = ap.parse_args(argv)

    run = Run(args.recipe, shared=SHARED)
    try:
        settings, base = segmenter_settings(run, args.lang)
        folds_of = Path(run.data(args.folds_of))
    except RecipeError as err:
        ap.error(str(err))
    shipped = Path(args.shipped or REPO / "models" / "segmenters" / args.lang)
    work = Path(args.work or REPO / "work" / "segment_cv" / args.lang).resolve()
    work.mkdir(parents=True, exist_ok=True)
    blocks = read_blocks(folds_of)
    folds = document_folds(blocks, args.k)

    scores: dict[str, list[dict[str, float]]] = {d: [] for d in DESIGNS}
    for fold in range(args.k) if args.only_fold is None else [args.only_fold]:
        stem = f"{folds_of.name.split('-')[0]}-fold{fold}"
        trained = fold_segmenter(settings, args.lang, base, blocks, folds, fold, work, stem,
                                 epochs=args.epochs, max_steps=args.max_steps)
        if trained is None:
            return 2
        package, _, held = trained
        for design, model in (("shipped", shipped), ("with", package)):
            figures = segment_and_score(model, held, work, f"{stem}-{design}")
            scores[design].append(figures)
            print(f"fold {fold} {design}: " + ", ".join(f"{c} {figures[c]:.2f}" for c in COLUMNS), flush=True)

    if args.only_fold is not None or args.max_steps:
        return 0
    # one item per fold: a candidate's score on some folds is the mean of their Sentences F1
    cv = cross_validate(list(range(args.k)), list(DESIGNS),
                        lambda design, folds_: statistics.mean(scores[design][f]["Sentences"] for f in folds_))
    figures = {
        "choice (Sentences)": cv.summary(),
        "folds": args.k, "fold of": args.folds_of, "language's recipe files": len(base),
        "sentences per fold": [folds.count(f) for f in range(args.k)],
        **held_fold_figures(scores, COLUMNS),
    }
    print(json.dumps(figures, indent=1))
    path = record("segment", args.name or f"data_cv_{args.lang}", figures, label="cross-validated",
                  command=command_line("eval.segment.data_cv"),
                  notes=f"{args.k} folds by document of {folds_of.name}; raw text rebuilt from # text; official "
                        "scorer; each fold's segmenter picks its epoch on its own tuning slice; the shipped "
                        "segmenter never trained on the file")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
