"""Score the segmenter on raw text rebuilt from a treebank: Tokens, Words, Sentences F1 and speed.

The raw text is each sentence's ``# text``, joined with a space inside a
paragraph; ``# newpar``/``# newdoc`` start a new paragraph (a blank line).
The segmented output gets placeholder trees (word 1 is the root, the others
hang from it) so the official scorer accepts it; only the segmentation
figures it prints are meaningful here.

    python -m eval.segment.score --model models/en_ewt/segmenter --treebank en_ewt --split test

The scores go to ``eval/results/segment/score_<treebank>_<split>.json`` (test-scored-once on test,
tuning otherwise) unless given ``--no-record``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

from eud.conllu import read_conllu, write_conllu
from eud.graph import Sentence
from eud.segment import Segmenter, paragraphs
from eval.common import command_line, record

SHARED = REPO.parent / "shared" / "data" / "ud"


def raw_text(gold: Path) -> str:
    """Paragraphs of ``# text`` lines, separated by blank lines."""
    paras: list[list[str]] = []
    for s in read_conllu(gold):
        if not paras or any(c.startswith(("# newpar", "# newdoc")) for c in s.comments):
            paras.append([])
        paras[-1].append(s.text or " ".join(w.form for w in s.words))
    return "\n\n".join(" ".join(p) for p in paras) + "\n"


def with_placeholder_tree(sentence: Sentence) -> Sentence:
    """Give every word a HEAD and DEPREL so the scorer reads the file."""
    for w in sentence.words:
        w.head, w.deprel = (0, "root") if w.id == 1 else (1, "dep")
    return sentence


def score(gold: Path, system: Path, scorer: str = "udeval") -> dict[str, float]:
    """Tokens, Words and Sentences F1 from the official scorer (udeval) or ``eud evaluate``."""
    command = ["udeval", "-v"] if scorer == "udeval" else [sys.executable, "-m", "eud", "evaluate"]
    out = subprocess.run(command + ["--no-enhanced", str(gold), str(system)],
                         capture_output=True, text=True, check=True).stdout
    figures = {}
    for name in ("Tokens", "Sentences", "Words"):
        m = re.search(rf"^{name}\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)", out, re.MULTILINE)
        figures[name] = float(m.group(3)) if m else float("nan")
    return figures


def main(argv: list[str] | None = None) -> int:
    """Segment a treebank's raw text, print the scores and record them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, required=True, help="segmenter package folder")
    parser.add_argument("--treebank", default="en_ewt")
    parser.add_argument("--split", default="test")
    parser.add_argument("--scorer", choices=("udeval", "eud"), default="udeval",
                        help="udeval (official, from udtools) or eud evaluate")
    parser.add_argument("--keep", type=Path, help="also write the raw text and system CoNLL-U here (a folder)")
    parser.add_argument("--no-record", action="store_true", help="print only; write no result file")
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    gold = SHARED / args.treebank / f"{args.treebank}-ud-{args.split}.conllu.xz"
    seg = Segmenter.load(args.model)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        text_path = folder / f"{args.treebank}-{args.split}.txt"
        sys_path = folder / f"{args.treebank}-{args.split}.segmented.conllu"
        text_path.write_text(raw_text(gold), encoding="utf-8")
        started = time.perf_counter()
        sentences = list(seg.segment(paragraphs(text_path), doc_id=args.treebank))
        seconds = time.perf_counter() - started
        words = sum(len(s.words) for s in sentences)
        write_conllu((with_placeholder_tree(s) for s in sentences), sys_path)
        gold_plain = folder / f"{args.treebank}-{args.split}.gold.conllu"
        write_conllu(read_conllu(gold), gold_plain)
        figures = score(gold_plain, sys_path, args.scorer)
    print(f"{args.treebank} {args.split} ({args.scorer}): Tokens F1 {figures['Tokens']:.2f}  Words F1 {figures['Words']:.2f}  "
          f"Sentences F1 {figures['Sentences']:.2f}  ({len(sentences)} sentences, {words} words, "
          f"{seconds:.1f} s, {words / seconds:.0f} words/s)")
    if not args.no_record:
        record("segment", f"score_{args.treebank}_{args.split}",
               {f"Tokens / Words / Sentences F1 ({args.scorer})":
                f"{figures['Tokens']:.2f} / {figures['Words']:.2f} / {figures['Sentences']:.2f}",
                "words/s, one thread": round(words / seconds)},
               label="test-scored-once" if args.split == "test" else "tuning", command=command_line("eval.segment.score"),
               with_cpu=True, one_row=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
