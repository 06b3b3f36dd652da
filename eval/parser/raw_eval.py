"""Raw text → enhanced CoNLL-U, end to end: segmentation and parsing scores, speed, validity.

For each treebank the raw text is rebuilt from its ``# text`` lines (as in
``eval/segment/score.py``: sentences joined by a space inside a paragraph,
``# newpar``/``# newdoc`` start a new one).  One ``eud parse`` process reads
that text and writes CoNLL-U; ``/usr/bin/time`` gives its peak memory and the
parser's own summary line its speed with model loading counted apart.  Scores
come from ``eud evaluate`` against the gold file; the output is also checked
with ``udvalidate --level 2``, for keeping every non-space character of
the input in order, and for giving the input text back from its MISC
(``eud.spaces.rebuild``: ``SpaceAfter``, ``SpacesAfter``, ``SpacesBefore``).

usage (from the repository root):
  python -m eval.parser.raw_eval --model models/en_ewt --treebank en_ewt en_gum

Each treebank's scores are written to ``eval/results/gapping/raw_eval_<treebank>.json`` (the name the
first such figure, for the gapping work, was published under): test-scored-once on test, tuning on dev.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from eud import spaces
from eud.conllu import read_conllu, write_conllu
from eud.graph import Sentence
from eud.segment.data import surface_tokens
from eval.common import command_line, record
from eval.parser.gold_eval import run_parse
from eval.segment.score import SHARED, raw_text

METRICS = ("Tokens", "Words", "Sentences", "UPOS", "LAS", "ELAS", "EULAS")


def non_space(text: str) -> str:
    """The characters of ``text`` that are not whitespace, in order."""
    return "".join(text.split())


def forms_text(sentences: list[Sentence]) -> str:
    """The surface text of parsed sentences: a multiword token's form, not its words'."""
    return "".join(form for s in sentences for form, _, _ in surface_tokens(s))


def udvalidate_ok(path: Path, lang: str) -> bool:
    """Whether ``udvalidate --level 2`` passes the file."""
    run = subprocess.run(["udvalidate", "--lang", lang, "--level", "2", str(path)],
                         capture_output=True, text=True, check=False)
    return "*** PASSED ***" in run.stdout + run.stderr


def main(argv: list[str] | None = None) -> int:
    """Run the pipeline on each treebank's test text; print one markdown row each and record it."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="parser package with a segmenter/ folder")
    ap.add_argument("--treebank", nargs="+", default=["en_ewt"])
    ap.add_argument("--split", default="test")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--precision", default="auto", choices=("auto", "fp32", "bf16"))
    ap.add_argument("--out-dir", type=Path, default=Path("/tmp/eud-pipeline-eval"))
    args = ap.parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    print("| test set | " + " | ".join(METRICS) + " | words/s (text in → CoNLL-U out, load apart) | load s "
          "| peak MiB | udvalidate | non-space chars kept | text rebuilt from MISC |")
    print("|---|" + "---|" * (len(METRICS) + 6))
    for tb in args.treebank:
        gold = SHARED / tb / f"{tb}-ud-{args.split}.conllu.xz"
        text = args.out_dir / f"{tb}-{args.split}.txt"
        source = raw_text(gold)
        text.write_text(source, encoding="utf-8")
        gold_plain = args.out_dir / f"{tb}-{args.split}.gold.conllu"
        write_conllu(read_conllu(gold), gold_plain)
        out = args.out_dir / f"{tb}-{args.split}.parsed.conllu"
        speed = run_parse(args.model, str(text), out, None, args.threads, args.precision, "text")
        run = subprocess.run([sys.executable, "-m", "eud", "evaluate", str(gold_plain), str(out), "--json"],
                             capture_output=True, text=True, check=True)
        metrics = json.loads(run.stdout)["pairs"][0]["metrics"]
        scores = {k: 100 * metrics[k]["f1"] for k in METRICS if k in metrics}
        parsed = list(read_conllu(out))
        kept = non_space(forms_text(parsed)) == non_space(source)
        # eud.spaces.rebuild: the input again, up to the end of the text (its last line end).
        rebuilt = spaces.rebuild(parsed).rstrip() == source.rstrip()
        valid = udvalidate_ok(out, tb.split("_")[0])
        print(f"| {tb} | " + " | ".join(f"{scores.get(k, float('nan')):.2f}" for k in METRICS)
              + f" | {speed['words/s']:.0f} | {speed['load']:.1f} | {speed['peak MiB']:.0f} "
              f"| {'pass' if valid else 'FAIL'} | {'yes' if kept else 'NO'} | {'yes' if rebuilt else 'NO'} |", flush=True)
        shown = [k for k in ("Tokens", "Words", "Sentences", "LAS") if k in scores]
        figures = {
            f"{tb} {args.split} ELAS from raw text (raw text rebuilt from the treebank)": round(scores["ELAS"], 2),
            f"{tb} {args.split} {' / '.join(shown)} from raw text": " / ".join(f"{scores[k]:.2f}" for k in shown),
            "udvalidate / non-space characters kept / text rebuilt from MISC":
                f"{'pass' if valid else 'FAIL'} / {'yes' if kept else 'no'} / {'yes' if rebuilt else 'no'}",
        }
        record("gapping", f"raw_eval_{tb}", figures, label="test-scored-once" if args.split == "test" else "tuning",
               command=command_line("eval.parser.raw_eval"),
               notes="raw text rebuilt from the treebank's # text lines, not the IWPT raw text (eval.parser.iwpt)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
