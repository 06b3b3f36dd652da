"""How often multiword-token expansion is right, and how often the suffix-rule fallback is.

Given the gold surface form of each multiword token, compare the predicted
words with the gold words (exact, case-sensitive):

* lexicon + fallback on dev/test multiword tokens (what the segmenter does);
* the fallback alone on dev/test forms never seen in train (truly unseen);
* the fallback on train, 5-fold by form type: rules learned from the other
  folds, scored on the held-out forms (more unseen forms than dev offers).

    python -m eval.segment.mwt --treebank en_ewt

The accuracies go to ``eval/results/segment/mwt_<treebank>.json`` (test-scored-once: test is among them).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

from eud.conllu import read_conllu
from eud.segment.data import surface_tokens
from eud.segment.mwt import MwtExpander
from eval.common import command_line, record

SHARED = REPO.parent / "shared" / "data" / "ud"


def mwts(path: Path) -> list[tuple[str, list[str]]]:
    """(surface form, gold words) of every multiword token in a file."""
    return [(form, words) for s in read_conllu(path) for form, is_mwt, words in surface_tokens(s) if is_mwt]


def accuracy(pairs: list[tuple[str, list[str]]], predict) -> tuple[int, int]:
    """(right, total) over the pairs."""
    return sum(predict(form) == words for form, words in pairs), len(pairs)


def fmt(right: int, total: int) -> str:
    return f"{100 * right / total:.1f}% ({right}/{total})" if total else "n/a (0 tokens)"


def main(argv: list[str] | None = None) -> int:
    """Print the expansion accuracies for one treebank and record them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--treebank", default="en_ewt")
    args = parser.parse_args(argv)
    base = SHARED / args.treebank / args.treebank
    train_path = Path(f"{base}-ud-train.conllu.xz")
    expander = MwtExpander.build(read_conllu(train_path))
    train = mwts(train_path)
    print(f"{args.treebank}: {len(expander.lexicon)} lexicon forms, {len(expander.rules)} suffix rules")
    figures = {}
    for split in ("dev", "test"):
        pairs = mwts(Path(f"{base}-ud-{split}.conllu.xz"))
        unseen = [(f, w) for f, w in pairs if f.lower() not in expander.lexicon]
        figures[f"{split}: lexicon + fallback"] = fmt(*accuracy(pairs, expander.expand))
        figures[f"{split}: fallback on forms unseen in train"] = fmt(*accuracy(unseen, expander.fallback))
        print(f"  {split}: lexicon+fallback {figures[f'{split}: lexicon + fallback']}; "
              f"fallback on forms unseen in train {figures[f'{split}: fallback on forms unseen in train']}")
    types = sorted({f.lower() for f, _ in train})
    random.Random(1).shuffle(types)
    right = total = 0
    for k in range(5):
        held = set(types[k::5])
        rest = [(f, w) for f, w in train if f.lower() not in held]
        folded = _from_pairs(rest)
        r, t = accuracy([(f, w) for f, w in train if f.lower() in held], folded.fallback)
        right, total = right + r, total + t
    print(f"  train 5-fold by form type: fallback on held-out forms {fmt(right, total)}")
    figures["train, 5 folds by form type: fallback on held-out forms"] = fmt(right, total)
    record("segment", f"mwt_{args.treebank}", figures, label="test-scored-once", command=command_line("eval.segment.mwt"),
           one_row=True)
    return 0


def _from_pairs(pairs: list[tuple[str, list[str]]]) -> MwtExpander:
    """An expander built from (form, words) pairs instead of sentences."""
    from eud.graph import MultiwordToken, Sentence, Word

    sentences = []
    for form, words in pairs:
        s = Sentence(words=[Word(i, w) for i, w in enumerate(words, 1)],
                     tokens=[MultiwordToken(1, len(words), form)])
        sentences.append(s)
    return MwtExpander.build(sentences)


if __name__ == "__main__":
    sys.exit(main())
