"""Time and peak memory of the segmenter on a 1 MB line with no punctuation, and on 3 such paragraphs.

    python -m eval.segment.robust --model models/en_ewt/segmenter

The figures go to ``eval/results/segment/robust.json``, with the CPU, unless given ``--no-record``.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

from eud.segment import Segmenter, paragraphs
from eud.segment.data import surface_tokens
from eval.common import command_line, record


def run(seg: Segmenter, path: Path) -> tuple[int, int, int, float]:
    """(sentences, words, longest sentence, seconds) for one file, with the non-space check."""
    started = time.perf_counter()
    sentences = words = longest = 0
    kept = []
    for s in seg.segment(paragraphs(path)):
        sentences += 1
        words += len(s.words)
        longest = max(longest, len(s.words))
        kept.extend(form for form, _, _ in surface_tokens(s))
    seconds = time.perf_counter() - started
    text = path.read_text(encoding="utf-8")
    assert "".join("".join(kept).split()) == "".join(text.split()), "a character was lost"
    return sentences, words, longest, seconds


def main(argv: list[str] | None = None) -> int:
    """Print time, speed and peak memory for the long-line inputs, and record them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--no-record", action="store_true", help="print only; write no result file")
    args = parser.parse_args(argv)
    figures = {}
    seg = Segmenter.load(args.model)
    rng = random.Random(0)
    vocab = ["alpha", "beta", "gamma", "delta", "don't", "x1", "épée", "東京", "and", "the"]
    line = " ".join(rng.choice(vocab) for _ in range(160_000))[:1_000_000]
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in (("1 MB line", line), ("3 x 1 MB paragraphs (3 MB)", "\n\n".join([line] * 3))):
            path = Path(tmp) / "input.txt"
            path.write_text(text, encoding="utf-8")
            sentences, words, longest, seconds = run(seg, path)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            print(f"{name}: {sentences} sentences (longest {longest} words), {words} words in {seconds:.1f} s "
                  f"({words / seconds:.0f} words/s); peak RSS {peak / 1024:.0f} MB (after loading: {base / 1024:.0f} MB); "
                  "every non-space character kept")
            figures[name] = {"sentences": sentences, "longest sentence, words": longest, "words/s": round(words / seconds),
                             "peak RSS MB": round(peak / 1024)}
    if not args.no_record:
        figures["RSS after loading, MB"] = round(base / 1024)
        record("segment", "robust", figures, label="measurement", command=command_line("eval.segment.robust"),
               with_cpu=True, one_row=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
