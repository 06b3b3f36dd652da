"""Gapping found and false alarms of a parser package on every dev and train file, in one run.

Each file is parsed from gold tokens.  The network's scores (``Decoded``) are
kept in ``--cache`` per file, so that a rerun, after a change to the orphan
checks, the repairs or a profile, replays only the package's post-processing:
about half a minute for all the files instead of three.  A cache belongs to one
package's weights (its folder is keyed by the weights' size and time) and takes
about 1.4 GB for all the files, mostly the encoder states the gapping verifier
reads; delete it when done.

For GAPPING dev and train it prints gap-edge P/R/F1 and gapped sentences found
(the metric of ``eval/gapping/benchmark.py --gapping-corpus``); for the UD
files, false alarms: sentences without a gold empty node in which the package
made one.  en_ewt test is not read: count it with
``eval/gapping/benchmark.py``, once per change.

    python -m eval.gapping.false_alarms --model models/en_ewt --cache work/fa_cache
    python -m eval.gapping.false_alarms --model models/en_ewt --cache work/fa_cache --show en_gum_dev

Run on every file (no ``--files``), it writes ``eval/results/gapping/false_alarms.json`` (tuning:
these files chose the package's gapping settings) unless given ``--no-record``.
"""

from __future__ import annotations

import argparse
import copy
import pickle
from pathlib import Path

from eud.conllu import parse_conllu, read_conllu
from eud.graph import Sentence
from eud.pipeline import Pipeline
from eval.common import command_line, record
from eval.gapping.benchmark import pct, prf, score_gapping, strip_deps

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
# name: (basic-tree input, gold with empty nodes); the GAPPING corpus keeps its graphs in a second file.
FILES = {
    "gapping_dev": ("gapping/gapping-orphan-basic.dev.conllu.xz", "gapping/gapping-enhanced.dev.conllu.xz"),
    "gapping_train": ("gapping/gapping-orphan-basic.train.conllu.xz", "gapping/gapping-enhanced.train.conllu.xz"),
    "en_ewt_dev": ("ud/en_ewt/en_ewt-ud-dev.conllu.xz", None),
    "en_gum_dev": ("ud/en_gum/en_gum-ud-dev.conllu.xz", None),
    "en_gum_test": ("ud/en_gum/en_gum-ud-test.conllu.xz", None),
    "en_gum_train": ("ud/en_gum/en_gum-ud-train.conllu.xz", None),
    "en_ewt_train": ("ud/en_ewt/en_ewt-ud-train.conllu.xz", None),
}


def decoded(pipe: Pipeline, name: str, inputs: list[Sentence], cache: Path | None) -> list:
    """The network's output for each sentence, from the cache when it is there."""
    path = cache / f"{name}.pkl" if cache is not None else None
    if path is not None and path.exists():
        with open(path, "rb") as f:
            return pickle.load(f)  # a cache this script wrote
    out = pipe.predictor.decode_all(copy.deepcopy(inputs))
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as f:
            pickle.dump(out, f, protocol=5)
    return out


def run(pipe: Pipeline, data: Path, name: str, cache: Path | None) -> tuple[list[Sentence], list[Sentence]]:
    """(gold, system) sentences of one file."""
    source, graphs = FILES[name]
    inputs = list(parse_conllu(strip_deps(data / source)))
    system = []
    for sentence, d in zip(inputs, decoded(pipe, name, inputs, cache), strict=True):
        sentence = copy.deepcopy(sentence)
        pipe.predictor.write(sentence, d)
        system.append(sentence)
    return list(read_conllu(data / (graphs or source))), system


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """The options of a run over :data:`FILES`: the package, the data, the cache, the files, threads."""
    ap.add_argument("--model", required=True, help="a parser package folder")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--cache", type=Path, help="folder for the network's scores (reused when the weights are the same)")
    ap.add_argument("--files", nargs="+", choices=list(FILES), default=list(FILES))
    ap.add_argument("--threads", type=int, default=2)


def cache_folder(cache: Path | None, model: str) -> Path | None:
    """The package's own folder under ``--cache``, keyed by its weights' size and time."""
    if cache is None:
        return None
    stat = (Path(model) / "model.safetensors").stat()
    return cache / f"{Path(model).name}-{stat.st_size}-{int(stat.st_mtime)}"


def score_file(pipe: Pipeline, data: Path, name: str,
               cache: Path | None) -> tuple[dict[str, object], list[Sentence], list[Sentence]]:
    """One file's figures (gap edges, found, false alarms; empty when it is missing), its gold and system sentences."""
    if not (data / FILES[name][0]).exists():
        return {}, [], []
    gold, system = run(pipe, data, name, cache)
    c = score_gapping(gold, system)
    edges = prf(c["match"], c["sys_edges"], c["gold_edges"]) if c["gapped"] else "–"
    return {"gap-edge P/R/F1": edges, "found %": pct(c["found"], c["gapped"]), "false alarms": c["false_alarms"]}, \
        gold, system


def cells(figures: dict[str, object]) -> str:
    """A file's figures as the cells of a Markdown row."""
    return " | ".join(map(str, figures.values())) if figures else "missing | | "


def main(argv: list[str] | None = None) -> int:
    """Score the package on every file, print one row each and record them."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(ap)
    ap.add_argument("--show", nargs="*", choices=list(FILES), default=[], help="print these files' false alarms")
    ap.add_argument("--no-record", action="store_true", help="print only; write no result file")
    args = ap.parse_args(argv)
    pipe = Pipeline.load(args.model, threads=args.threads)
    cache = cache_folder(args.cache, args.model)
    print(f"model {args.model}, from gold tokens")
    print("| file | gap-edge P / R / F1 | gapped sentences found, % | false alarms |")
    print("|---|---|---|---|")
    figures: dict[str, object] = {}
    for name in args.files:
        figures[name], gold, system = score_file(pipe, args.data, name, cache)
        print(f"| {name} | {cells(figures[name])} |", flush=True)
        if name in args.show:
            for g, s in zip(gold, system):
                if s.empty_nodes and not g.empty_nodes:
                    print(f"    {g.sent_id}: {' '.join(w.form for w in s.words)}")
    if args.files == list(FILES) and all(figures.values()) and not args.no_record:
        record("gapping", "false_alarms", figures, label="tuning", command=command_line("eval.gapping.false_alarms"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
