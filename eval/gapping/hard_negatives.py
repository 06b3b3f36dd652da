"""Hard negatives for gapping: gold sentences without gapping in which a parser posits ``orphan``.

A parser fine-tuned on gapping learns to posit ``orphan`` from a few hundred
gapped sentences and leans on it in lists and coordinated noun phrases.  This
script parses a treebank the parser never trained on (from gold tokens, with
the package's ``orphan`` bias but without its orphan checks, so that it sees
what the network itself predicts), and writes the *gold* trees of the sentences
where the parser made an ``orphan`` that gold lacks: training on them again
teaches the network where gapping is not.

    python -m eval.gapping.hard_negatives --model models/en_ewt \\
        ../shared/data/ud/en_gum/en_gum-ud-train.conllu.xz -o work/en_gum_hard_negatives.conllu

The output holds treebank sentences: it goes under ``work/``, never into the
repository.

A tool, not a benchmark: it writes training data and records no result.
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path

from eud.conllu import parse_conllu, read_conllu, write_conllu
from eud.pipeline import Pipeline
from eval.gapping.benchmark import strip_deps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="a parser package folder")
    ap.add_argument("treebank", type=Path, help="gold CoNLL-U (.xz allowed) the parser did not train on")
    ap.add_argument("-o", "--output", type=Path, required=True)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    pipe = Pipeline.load(args.model, threads=args.threads)
    pipe.predictor.orphan_check = False
    gold = list(read_conllu(args.treebank))
    system = pipe.parse_sentences(copy.deepcopy(list(parse_conllu(strip_deps(args.treebank)))))
    negatives = [g for g, s in zip(gold, system)
                 if any(w.deprel == "orphan" for w in s.words) and not any(w.deprel == "orphan" for w in g.words)]
    n = write_conllu(negatives, args.output)
    print(f"{n} of {len(gold)} sentences of {args.treebank.name}: the parser posits orphan, gold has none "
          f"-> {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
