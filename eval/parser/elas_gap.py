"""Where does ELAS fall behind LAS?  A shipped model's gap split into morphology, tree and rules.

Issue 36: from raw text, LAS - ELAS is over 4 points for pl_pdb, cs_cac, cs_fictree and sk_snk, while
the enhancer loses only 1 to 2 points on gold trees.  The rest must come from what the parser feeds
the enhancer.  This benchmark measures that on sentences the model never trained on: the held-apart
tuning slice of each of its training files (every ``tune_every``-th sentence, as the trainer holds it
apart; the slice picked the epoch, so the figures are tuning figures).  Test splits are not read.  The
package's lexicon was built from the whole training files, slices included, so the parser's lemmas
of known forms are easier here than on new text: the morphology share is a lower bound.

Each slice is parsed from gold tokens, and the enhanced graph is rebuilt by the package's enhancer
(``converters/<lang>.toml``) from four inputs:

- ``system``: the parser's tree and its UPOS, FEATS and lemmas (what ``eud parse`` writes);
- ``gold morphology``: the parser's tree, with gold UPOS, XPOS, FEATS and lemmas;
- ``gold tree``: the gold tree, with the parser's UPOS, XPOS, FEATS and lemmas;
- ``gold both``: the gold tree and morphology (the enhancer's own loss, and treebank conventions it
  does not follow).

For each: LAS, LAS with whole labels (subtypes such as ``nsubj:pass`` count, as they do in ELAS), ELAS and ELAS by enhancement type (:mod:`eud.evaluate.enhancement_types`), as the
official scorer counts them.  ``gold morphology`` minus ``system`` is the ELAS that wrong morphology
costs; the case-marked row shows whether it is the labels built from lemmas and ``Case``
(https://universaldependencies.org/u/overview/enhanced-syntax.html#case-information).

    python -m eval.parser.elas_gap --recipe recipes/pl_pdb.toml --model models/pl_pdb
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path

from eud.graph import Sentence
from eud.recipe import RecipeError, Run
from eval.common import SHARED, command_line, record
from eval.parser.slices import held_slices

MORPHOLOGY = ("upos", "xpos", "feats", "lemma")
# What the results keep per treebank (the printout has every type): (name, variant, column).
SUMMARY = (
    ("LAS", "system", "LAS"), ("LAS+sub", "system", "LAS with subtypes"), ("ELAS", "system", "ELAS"),
    ("ELAS gold morph", "gold morphology", "ELAS"), ("ELAS gold tree", "gold tree", "ELAS"),
    ("ELAS gold both", "gold both", "ELAS"), ("case-marked F1", "system", "case-marked F1"),
    ("case-marked F1 gold morph", "gold morphology", "case-marked F1"),
    ("coord-parent F1", "system", "coord-shared-parent F1"),
)
TYPES_SHOWN = ("basic", "case-marked", "coord-shared-parent", "coord-shared-dependent", "controlled-subject",
               "relative-clause", "ellipsis")


def with_columns(target: Sentence, source: Sentence, names: tuple[str, ...]) -> Sentence:
    """A copy of ``target`` whose words take the named columns from ``source`` (the same words)."""
    out = copy.deepcopy(target)
    for word, other in zip(out.words, source.words):
        for name in names:
            setattr(word, name, getattr(other, name))
    return out


def variants(gold: list[Sentence], system: list[Sentence]) -> dict[str, list[Sentence]]:
    """The four inputs of the module docstring, before enhancement."""
    tree = ("head", "deprel")
    return {
        "system": [copy.deepcopy(s) for s in system],
        "gold morphology": [with_columns(s, g, MORPHOLOGY) for g, s in zip(gold, system)],
        "gold tree": [with_columns(s, g, tree) for g, s in zip(gold, system)],
        "gold both": [with_columns(s, g, tree + MORPHOLOGY) for g, s in zip(gold, system)],
    }


def scores(gold: list[Sentence], system: list[Sentence]) -> dict:
    """LAS, ELAS and ELAS F1 by enhancement type (with the gold edge count), in percent."""
    from eud.evaluate.evaluation import evaluate_sentences

    ev = evaluate_sentences(gold, system)
    # LAS compares universal relations only; with subtypes (nsubj:pass, obl:arg) it is the basic tree's
    # share of what ELAS asks, which compares whole labels.
    pairs = [(g, s) for gs, ss in zip(gold, system) for g, s in zip(gs.words, ss.words)]
    full = sum(g.head == s.head and g.deprel == s.deprel for g, s in pairs) / max(len(pairs), 1)
    out = {"LAS": round(100 * ev["LAS"].f1, 2), "LAS with subtypes": round(100 * full, 2),
           "ELAS": round(100 * ev["ELAS"].f1, 2)}
    for name in TYPES_SHOWN:
        t = ev.by_type.get(name)
        if t is not None and t.gold:
            out[f"{name} F1"] = round(100 * t.f1, 2)
            out[f"{name} gold edges"] = t.gold
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--recipe", required=True, help="the model's recipe (its training files and tune_every)")
    ap.add_argument("--model", required=True, help="the shipped package the recipe built")
    ap.add_argument("--stage", default="parser")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--no-record", action="store_true")
    args = ap.parse_args(argv)
    try:
        run = Run(args.recipe, shared=SHARED)
        lang, slices = held_slices(run, args.stage)
    except (RecipeError, StopIteration) as err:
        ap.error(f"{args.recipe}: {err or 'no training stage ' + args.stage}")
    if not slices:
        ap.error(f"{args.recipe}: no training file has a tuning share (tune_every)")

    from eud.pipeline import Pipeline

    pipe = Pipeline.load(args.model, lang=lang.split("_")[0], threads=args.threads)
    enhancer = pipe.predictor.enhancer
    if enhancer is None:
        ap.error(f"{args.model}: its graphs come from its own graph scorer, not the enhancer's rules")
    figures: dict[str, dict] = {}
    for treebank, gold in sorted(slices.items()):
        if not any(s.enhanced for s in gold):
            continue  # no enhanced gold (a basic-only training file)
        system = pipe.parse_sentences(copy.deepcopy(gold))
        row = {"sentences": len(gold), "as eud parse writes it: ELAS": scores(gold, system)["ELAS"]}
        for name, sentences in variants(gold, system).items():
            enhanced = enhancer.enhance_all(sentences)
            for key, value in scores(gold, enhanced).items():
                row[f"{name}: {key}"] = value
        print(treebank, {k: v for k, v in row.items() if "gold edges" not in k}, flush=True)
        figures[treebank] = {key: row[f"{variant}: {column}"] for key, variant, column in SUMMARY
                             if f"{variant}: {column}" in row}
    if not args.no_record:
        print("wrote", record("parser", f"elas_gap_{Path(args.model).name}", figures, label="tuning", one_row=True,
                              command=command_line("eval.parser.elas_gap"),
                              notes="held-apart tuning slices of the training files (they picked the epoch); "
                                    "gold tokens; the package's enhancer rebuilds every graph"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
