"""End-to-end speed of shipped models, run as a user runs them: ``eud parse --lang xx`` on raw text.

Each run is a fresh ``python -m eud parse`` process on the raw text of a treebank file (its
``# text`` lines, paragraphs from ``# newpar``/``# newdoc``, as ``eval/segment_eval.py``
rebuilds it), so the figures include the imports, the model load, segmentation, parsing,
enhancement and writing.  Recorded per model:

- words/s with everything included (wall time of the process) and after the load (the
  parser's own summary line, which times the parse apart from the load);
- start-up to the first sentence: the wall time of the same command on a one-sentence input;
- peak RSS (``getrusage`` of the child), the arithmetic ``--precision auto`` picked (``-v``),
  the torch threads, the CPU model and flags (:func:`eval.common.cpu`), and the machine's load
  average around each model's runs (other work makes every figure a lower bound).

On a machine where other work runs (a training run on one of two cores, say) pass
``--threads 1`` and say so in ``--notes``: the figures are then per core.

    python -m eval.scale.speed --lang en et_ewt fi_tdt --split test --threads 1

On a CPU with bf16, ``--cpu without-bf16`` makes ``--precision auto`` choose as it would without it,
and ``--cpu avx2`` also caps torch's, oneDNN's and MKL's kernels at AVX2 (the machines issue 37 is
about); the figures say which was used.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from eval.common import REPO, SHARED, command_line, record

ONE_SENTENCE = {"en": "John ate an apple.\n"}
SUMMARY = re.compile(r"(\d+) sentences, (\d+) words in ([\d.]+) s \((\d+) words/s\); model loaded in ([\d.]+) s")
CHOSEN = re.compile(r"network arithmetic (\w+)")


def gold_file(treebank: str, split: str) -> Path:
    """``<treebank>-ud-<split>.conllu.xz`` in the shared data (beside the repository, or beside a git worktree's
    parent folder)."""
    for shared in (SHARED, REPO.parent.parent / "shared" / "data"):
        path = shared / "ud" / treebank / f"{treebank}-ud-{split}.conllu.xz"
        if path.is_file():
            return path
    raise SystemExit(f"no {treebank}-ud-{split}.conllu.xz under {SHARED}")


def raw_text_of(treebank: str, split: str) -> str:
    """The raw text of ``<treebank>-ud-<split>`` from the shared data (see the module docstring)."""
    from eval.segment.score import raw_text

    gold = gold_file(treebank, split)
    return raw_text(gold)


# --cpu: how the child processes see this CPU.  "without-bf16": --precision auto chooses as on a CPU without
# bf16 (EUD_NO_BF16); "avx2": the same, and torch, oneDNN and MKL kernels capped at AVX2, as on an AVX2-only CPU.
CPU_MODES = {
    "native": {},
    "without-bf16": {"EUD_NO_BF16": "1"},
    "avx2": {"EUD_NO_BF16": "1", "ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2",
             "MKL_ENABLE_INSTRUCTIONS": "AVX2"},
}


def parse_once(lang: str, text_file: Path, out_file: Path, *, precision: str = "auto", threads: int = 0,
               cpu_mode: str = "native") -> dict:
    """One ``python -m eud parse --lang`` process: wall time, peak RSS, its summary line and the chosen arithmetic."""
    cmd = [sys.executable, "-m", "eud", "parse", "--lang", lang, "--precision", precision, "-v",
           str(text_file), "-o", str(out_file)]
    if threads:
        cmd += ["--threads", str(threads)]
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""), **CPU_MODES[cpu_mode]}
    with tempfile.TemporaryFile("w+", encoding="utf-8") as err:
        t0 = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env, cwd=REPO)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own peak RSS
        wall = time.perf_counter() - t0
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read()
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{stderr[-2000:]}")
    summary = SUMMARY.search(stderr)
    chosen = CHOSEN.search(stderr)
    if summary is None or chosen is None:
        raise SystemExit(f"no summary from eud parse:\n{stderr[-2000:]}")
    sentences, words, took, _, loaded = summary.groups()
    return {"wall_s": round(wall, 2), "sentences": int(sentences), "words": int(words), "parse_s": float(took),
            "load_s": float(loaded), "precision": chosen.group(1), "peak_rss_mb": round(usage.ru_maxrss / 1024)}


def measure(lang: str, treebank: str, split: str, *, threads: int, work: Path, cpu_mode: str = "native") -> dict:
    """The figures of one model (see the module docstring)."""
    text = work / f"{treebank}-{split}.txt"
    text.write_text(raw_text_of(treebank, split), encoding="utf-8")
    first = raw_text_of(treebank, split).split("\n")[0].split(". ")[0] + ".\n"
    one = work / f"{treebank}-one.txt"
    one.write_text(ONE_SENTENCE.get(lang, first), encoding="utf-8")
    load_before = os.getloadavg()[0]
    start = parse_once(lang, one, work / "one.conllu", threads=threads, cpu_mode=cpu_mode)
    run = parse_once(lang, text, work / "out.conllu", threads=threads, cpu_mode=cpu_mode)
    words = run["words"]
    return {"treebank": treebank, "split": split, "words": words, "sentences": run["sentences"],
            "precision": run["precision"], "threads": threads or "torch default", "cpu_mode": cpu_mode,
            "startup_to_first_sentence_s": start["wall_s"],
            "words_per_s_with_load": round(words / run["wall_s"]),
            "words_per_s_after_load": round(words / max(run["parse_s"], 1e-9)),
            "wall_s": run["wall_s"], "load_s": run["load_s"], "parse_s": run["parse_s"],
            "peak_rss_mb": run["peak_rss_mb"],
            # Other work on the machine: the 1-minute load average before and after (cores: eval.common.cpu).
            "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)]}


def model_options(ap: argparse.ArgumentParser) -> None:
    """--lang, --treebank, --threads and --notes, shared by the scale benchmarks."""
    ap.add_argument("--lang", nargs="+", default=["en"], help="model codes as eud parse --lang takes them")
    ap.add_argument("--treebank", nargs="*", help="the treebank of each --lang (default: en → en_ewt, else the code)")
    ap.add_argument("--threads", type=int, default=0, help="torch threads per run (0: torch's choice)")
    ap.add_argument("--notes", default="", help="what else ran on the machine, and similar")


def models_and_treebanks(ap: argparse.ArgumentParser, args: argparse.Namespace) -> list[tuple[str, str]]:
    """(--lang, treebank) pairs of the parsed options."""
    treebanks = args.treebank or [{"en": "en_ewt"}.get(lang, lang) for lang in args.lang]
    if len(treebanks) != len(args.lang):
        ap.error("give one --treebank per --lang")
    return list(zip(args.lang, treebanks))


def over_models(doc: str, argv: list[str] | None, one: Callable[[str, str, argparse.Namespace, Path], dict],
                more: Callable[[argparse.ArgumentParser], None] | None = None) -> tuple[dict, argparse.Namespace]:
    """Parse the shared options (and ``more``), run ``one(lang, treebank, args, workdir)`` per model."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    model_options(ap)
    if more is not None:
        more(ap)
    args = ap.parse_args(argv)
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        for lang, treebank in models_and_treebanks(ap, args):
            figures[lang] = one(lang, treebank, args, Path(tmp))
            print(lang, figures[lang], flush=True)
    return figures, args


def character_summary(figures: dict) -> dict:
    """Issue 37's figures over the character models measured (every model but English); empty when there are none."""
    import statistics

    chars = [f for lang, f in figures.items() if lang != "en" and "words_per_s_with_load" in f]
    if not chars:
        return {}
    return {"character models": {
        "models": len(chars),
        "median words/s with load": statistics.median(f["words_per_s_with_load"] for f in chars),
        "lowest words/s after load": min(f["words_per_s_after_load"] for f in chars),
        "slowest start-up to the first sentence s": max(f["startup_to_first_sentence_s"] for f in chars),
        "highest peak RSS MB": max(f["peak_rss_mb"] for f in chars)}}


def main(argv: list[str] | None = None) -> int:
    """Measure the models named by ``--lang`` and write eval/results/scale/speed.json."""
    figures, args = over_models(
        __doc__, argv, lambda lang, treebank, args, work: measure(lang, treebank, args.split, threads=args.threads,
                                                                  work=work, cpu_mode=args.cpu),
        lambda ap: (ap.add_argument("--split", default="test", choices=("dev", "test")),
                    ap.add_argument("--cpu", default="native", choices=tuple(CPU_MODES),
                                    help="native; without-bf16 (auto chooses as without bf16); avx2 (that, and "
                                         "kernels capped at AVX2)"),
                    ap.add_argument("--record", default="speed", help="result name (eval/results/scale/NAME.json)")))
    figures = {"by model": figures, **character_summary(figures)}
    print("wrote", record("scale", args.record, figures, label="measurement", command=command_line("eval.scale.speed"),
                          notes=args.notes, with_cpu=True))
    return 0

if __name__ == "__main__":
    sys.exit(main())
