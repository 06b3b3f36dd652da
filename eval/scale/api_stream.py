"""The Python API on many short texts: one ``pipe(text)`` call per text vs ``pipe.stream(texts)``.

Each text is one sentence's ``# text`` from a CoNLL-U file (en_ewt dev by
default), so every call parses a single sentence, while ``stream`` groups
sentences of several texts into one network batch.  Both must give the same
documents; the script checks that and prints words per second for each::

    python -m eval.scale.api_stream --model en --texts 400 --threads 2

The speeds go to ``eval/results/scale/api_stream.json``, with the CPU and the load average, unless
given ``--no-record``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import eud
from eval.common import command_line, record

DEV = Path(__file__).resolve().parents[3] / "shared" / "data" / "ud" / "en_ewt" / "en_ewt-ud-dev.conllu.xz"


def main(argv: list[str] | None = None) -> int:
    """Time per-text calls against one stream over the same texts."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="en", help="language, treebank or model folder (default en)")
    ap.add_argument("--conllu", default=str(DEV), help="where the texts come from (# text comments)")
    ap.add_argument("--texts", type=int, default=400, help="how many texts (default 400)")
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (default: torch's choice)")
    ap.add_argument("--no-record", action="store_true", help="print only; write no result file")
    args = ap.parse_args(argv)
    texts = [s.text for s, _ in zip(eud.read_conllu(args.conllu), range(args.texts)) if s.text]
    pipe = eud.load(args.model, threads=args.threads)
    pipe("Warm up the model once.")
    t0 = time.perf_counter()
    one_by_one = [pipe(text).to_conllu() for text in texts]
    t1 = time.perf_counter()
    streamed = [doc.to_conllu() for doc in pipe.stream(texts)]
    t2 = time.perf_counter()
    if streamed != one_by_one:
        print("stream and per-text calls differ", file=sys.stderr)
        return 1
    words = sum(len(s.words) for text in one_by_one for s in eud.parse_conllu(text))
    print(f"{len(texts)} texts, {words} words; identical output")
    print(f"pipe(text) per text: {t1 - t0:.1f} s, {words / (t1 - t0):.0f} words/s")
    print(f"pipe.stream(texts):  {t2 - t1:.1f} s, {words / (t2 - t1):.0f} words/s")
    if not args.no_record:
        figures = {f"pipe(text), one call per text ({len(texts)} texts, {words} words): words/s": round(words / (t1 - t0)),
                   "pipe.stream(texts), the same texts: words/s": round(words / (t2 - t1)),
                   "outputs identical": "yes"}
        record("scale", "api_stream", figures, label="measurement", command=command_line("eval.scale.api_stream"),
               notes=f"load average {os.getloadavg()[0]:.1f} at the end", with_cpu=True, one_row=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
