"""Fit a package's gapping verifier (:mod:`eud.nn.verifier`) on the clauses it predicts.

Each file is parsed from gold tokens by the package with its own settings and no
verifier.  Every gapped clause left after the orphan checks is an example: gapping
when the gold sentence has an ``orphan`` or an empty node, a false alarm otherwise.
``--splice`` files add gapped sentences spliced from their pairs of plain clauses
(:func:`eud.gapping.augment.spliced`), so that true gapping is seen in those files'
genres too and the regression cannot learn genre for gapping.  ``--threshold`` sets the
threshold chosen by cross-validation (:mod:`eval.gapping.rules`); without it, the threshold
keeps every gapped clause the package finds in the ``--tune`` file (GAPPING dev), an edge that
:mod:`eval.gapping.rules` showed to be too low on held folds.  Only train and dev files are read.

    python -m eval.gapping.train_verifier --model models/en_ewt \\
        --train ../shared/data/gapping/gapping-orphan-basic.train.conllu.xz ../shared/data/ud/en_gum/en_gum-ud-train.conllu.xz \\
        --splice ../shared/data/ud/en_gum/en_gum-ud-train.conllu.xz \\
        --tune ../shared/data/gapping/gapping-orphan-basic.dev.conllu.xz --threshold 0.5 \\
        --check ../shared/data/ud/en_gum/en_gum-ud-dev.conllu.xz ../shared/data/ud/en_ewt/en_ewt-ud-dev.conllu.xz --write

It prints, per file, the clauses found and how many the verifier keeps.

A tool, not a benchmark: it fits a package's verifier and records no result.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from eud.conllu import parse_conllu, read_conllu
from eud.gapping.augment import spliced
from eud.graph import Sentence
from eud.nn.verifier import GappingVerifier, clause_features
from eud.pipeline import Pipeline
from eud.progress import progress
from eval.gapping.benchmark import strip_deps


def gapped(sentence: Sentence) -> bool:
    """Gold gapping: an ``orphan`` in the basic tree (every gold empty node of these files comes with one)."""
    return any(w.deprel == "orphan" for w in sentence.words)


def examples(pipe: Pipeline, gold: list[Sentence], text: str, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Features and gold labels of the gapped clauses the package predicts, one row per clause."""
    predictor = pipe.predictor
    sentences = list(parse_conllu(text))
    rows, labels = [], []
    for start in progress(range(0, len(sentences), 256), desc=name, unit="batch", total=-(-len(sentences) // 256)):
        batch = sentences[start:start + 256]
        for k, (s, d) in enumerate(zip(batch, predictor.decode_all(batch))):
            predictor.write(s, d)
            if not s.empty_nodes or d.states is None:
                continue
            for clause in predictor.gapping.alignments(s):
                rows.append(clause_features(s, clause, d.states, d.margins))
                labels.append(gapped(gold[start + k]))
    return np.array(rows), np.array(labels, dtype=np.float64)


def file_examples(pipe: Pipeline, path: Path) -> tuple[np.ndarray, np.ndarray]:
    text = strip_deps(path)  # the gold orphan trees stay; DEPS pointing at missing empty nodes go
    return examples(pipe, list(parse_conllu(text)), text, path.name)


def splice_examples(pipe: Pipeline, path: Path) -> tuple[np.ndarray, np.ndarray]:
    from eud.conllu import format_sentence

    made = list(spliced(read_conllu(path)))
    return examples(pipe, made, "".join(format_sentence(s) for s in made), f"{path.name} (spliced)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="a parser package folder (orphan_check on)")
    ap.add_argument("--train", type=Path, nargs="+", required=True, help="gold CoNLL-U files to fit on")
    ap.add_argument("--splice", type=Path, nargs="*", default=[], help="files whose spliced gapping is fitted on too")
    ap.add_argument("--tune", type=Path, required=True, help="gold file whose found gapped clauses all stay")
    ap.add_argument("--check", type=Path, nargs="*", default=[], help="more gold files to report on")
    ap.add_argument("--threshold", type=float, help="a threshold chosen by cross-validation (default: the --tune file's edge)")
    ap.add_argument("--l2", type=float, default=0.1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--write", action="store_true", help="store the verifier in the package")
    args = ap.parse_args(argv)

    pipe = Pipeline.load(args.model, threads=args.threads)
    if not pipe.predictor.orphan_check:
        raise SystemExit(f"error: {args.model}: orphan_check is off, so the package makes no gapping decisions to verify")
    pipe.predictor.verifier = None
    parts = [file_examples(pipe, p) for p in args.train] + [splice_examples(pipe, p) for p in args.splice]
    parts = [p for p in parts if len(p[1])]
    if not parts:
        raise SystemExit("error: the package predicts no gapped clause in the training files: nothing to fit")
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    print(f"fitting on {len(y)} clauses: {int(y.sum())} gapping, {int(len(y) - y.sum())} false alarms", flush=True)
    verifier = GappingVerifier.fit(x, y, l2=args.l2)
    tune_x, tune_y = file_examples(pipe, args.tune)
    if not tune_y.any():
        raise SystemExit(f"error: {args.tune}: the package finds no gapped clause there to set the threshold on")
    if args.threshold is not None:
        verifier.threshold = args.threshold
        print(f"threshold {verifier.threshold:.4f} (given)")
    else:
        verifier.threshold = float(np.min(verifier.score(tune_x[tune_y == 1]))) - 1e-3
        print(f"threshold {verifier.threshold:.4f} (keeps every gapped clause found in {args.tune.name})")
    print("| file | gapped clauses found | kept | false-alarm clauses | kept |")
    print("|---|---|---|---|---|")
    for path, (fx, fy) in [(args.tune, (tune_x, tune_y))] + [(p, file_examples(pipe, p)) for p in args.check]:
        keep = verifier.score(fx) >= verifier.threshold if len(fy) else np.zeros(0, dtype=bool)
        print(f"| {path.name} | {int(fy.sum())} | {int((keep & (fy == 1)).sum())} "
              f"| {int((fy == 0).sum())} | {int((keep & (fy == 0)).sum())} |")
    if args.write:
        verifier.save(Path(args.model))
        print(f"wrote {Path(args.model) / 'gapping_verifier.safetensors'} and the threshold into its config.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
