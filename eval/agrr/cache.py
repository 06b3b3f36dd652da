"""Parse AGRR-2019 dev once per parser setting, and the five folds the AGRR choices are cross-validated on.

The parser is the slow part of ``eud agrr``; the answer rules of :mod:`eud.agrr.answers` after it
are cheap.  So every row of AGRR dev (``../shared/data/agrr/dev.csv.xz``, 4,142 rows) is parsed once
for each parser setting, as ``eud agrr`` parses (``Pipeline.load(model, graph_mode="rules")``: the
Russian profile's rules, the gapping rule among them), and the parsed sentences with their words'
character offsets are pickled under ``work/agrr_cv/`` (ignored by git).  :mod:`eval.agrr.crossval`
replays the rest.

A parser setting is an ``orphan`` label bias (added to the relation's score before the label is
chosen; the shipped package has none) and whether the package's orphan checks run
(``gapping.orphan_check`` of :class:`eud.gapping.repair.Settings`; off in ``models/ru_agrr``): both
change what the network decodes.  The repairs of gapped clauses a dash marks
(``gapping.dash_remnants`` and ``gapping.remnant_chains``, :mod:`eud.gapping.dashes`; both on in
``models/ru_agrr``) change only how the Predictor writes the decoded trees, so each parse is
written under every combination of the two switches (:class:`Repairs`) and a row is kept for a
combination where its tree differs from the shipped one.

**Folds.**  AGRR rows carry no document ids.  Fold 0 is the held-apart fifth of
:func:`eud.agrr.held_apart` (rows whose 0-based index is a multiple of 5), on which the answer
rules were developed; folds 1-4 are the other rows in four contiguous blocks in file order, the
style of :mod:`eval.gapping.folds`.  ``models/ru_agrr`` learned from the orphan trees of folds 1-4
(:mod:`eval.agrr.benchmark`), so on those folds the parser has seen the sentences it is scored on;
only the choices made here are cross-validated, not the parser.

usage (from the repository root)::

    python -m eval.agrr.cache                            # the shipped setting: bias 0, no orphan checks
    python -m eval.agrr.cache --bias -1 1 2 --orphan-check off on

A tool, not a benchmark: it caches parses for :mod:`eval.agrr.crossval` and records no result.
"""

from __future__ import annotations

import argparse
import importlib
import pickle
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from eud.agrr import AgrrRow, held_apart, read_agrr
from eud.graph import Sentence
from eval.common import REPO
from eval.gapping.folds import DATA, FOLDS, block_folds

WORK = REPO / "work" / "agrr_cv"
DEV = DATA / "agrr" / "dev.csv.xz"
MODEL = str(REPO / "models" / "ru_agrr")


@dataclass(frozen=True)
class ParserSetting:
    """What changes the parser's trees: the ``orphan`` label bias and the package's orphan checks."""

    orphan_bias: float = 0.0
    orphan_check: bool = False

    def name(self) -> str:
        """The cache file's stem."""
        return f"bias{self.orphan_bias:+g}_check{int(self.orphan_check)}"


SHIPPED = ParserSetting()


@dataclass(frozen=True)
class Repairs:
    """The Predictor's switches of the repairs of gapped clauses a dash marks (:mod:`eud.gapping.dashes`)."""

    dash_remnants: bool = True
    remnant_chains: bool = True

    def switches(self) -> dict[str, bool]:
        """The switches by their setting names (:meth:`eud.nn.predict.Predictor.set_repairs`)."""
        return asdict(self)


SHIPPED_REPAIRS = Repairs()
# Every combination of the switches, the shipped one first.
REPAIR_CHOICES = (SHIPPED_REPAIRS, Repairs(True, False), Repairs(False, True), Repairs(False, False))


@dataclass
class Parsed:
    """AGRR dev parsed under one parser setting: each row's sentence (None without words) and word offsets.

    ``sentences`` are written with the shipped repairs; ``variants[repairs]`` holds, by row index, the
    sentences whose tree other repair switches write differently.
    """

    model: str
    setting: ParserSetting
    sentences: list[Sentence | None]
    offsets: list[list[tuple[int, int]]]
    seconds: float
    variants: dict[Repairs, dict[int, Sentence]]

    def written(self, repairs: Repairs) -> list[Sentence | None]:
        """Each row's sentence as the Predictor writes it with ``repairs``."""
        if repairs == SHIPPED_REPAIRS:
            return self.sentences
        changed = self.variants[repairs]
        return [changed.get(i, s) for i, s in enumerate(self.sentences)]


def dev_rows(path: Path = DEV) -> list[AgrrRow]:
    """The rows of AGRR dev."""
    return read_agrr(path).rows


def agrr_folds(count: int) -> list[int]:
    """Fold of each row: 0 for the held-apart fifth, 1-4 contiguous blocks of the others in file order."""
    rest = [k for k in range(count) if not held_apart(k)]
    blocks = dict(zip(rest, (1 + f for f in block_folds(len(rest), FOLDS - 1))))
    return [0 if held_apart(k) else blocks[k] for k in range(count)]


def parse(rows: list[AgrrRow], setting: ParserSetting, model: str = MODEL, threads: int = 1) -> Parsed:
    """Every row parsed and enhanced as ``eud agrr`` does, under ``setting``, and written under every :class:`Repairs`."""
    from eud.agrr.system import parse_rows
    from eud.pipeline import Pipeline

    pipe = Pipeline.load(model, graph_mode="rules", threads=threads)
    predictor = pipe.predictor
    predictor.set_label_bias({"orphan": setting.orphan_bias} if setting.orphan_bias else {})
    predictor.orphan_check = setting.orphan_check
    # id(sentence) -> its writes under the other repair switches, where they differ.
    others: dict[int, dict[Repairs, Sentence]] = {}

    def write_each(todo: list[Sentence]) -> None:
        decoded = predictor.decode_all(todo)  # the network once; the writes after it
        inputs = [s.copy() for s in todo]
        for repairs in REPAIR_CHOICES:
            out = todo if repairs == SHIPPED_REPAIRS else [s.copy() for s in inputs]
            predictor.set_repairs(**repairs.switches())
            predictor.write_all(out, decoded)
            if repairs != SHIPPED_REPAIRS:
                for s, o in zip(todo, out):
                    if _tree(o) != _tree(s):
                        others.setdefault(id(s), {})[repairs] = o

    before = predictor.gapping_settings
    start = time.perf_counter()
    sentences, offsets = [], []
    variants: dict[Repairs, dict[int, Sentence]] = {r: {} for r in REPAIR_CHOICES if r != SHIPPED_REPAIRS}
    try:
        for i, (sentence, where) in enumerate(parse_rows(write_each, rows)):
            sentences.append(sentence)
            offsets.append(where)
            for repairs, written in others.pop(id(sentence), {}).items():
                variants[repairs][i] = written
    finally:
        predictor.gapping_settings = before
    return Parsed(model, setting, sentences, offsets, time.perf_counter() - start, variants)


def _tree(sentence: Sentence) -> list[tuple[int | None, str]]:
    """A sentence's basic tree: each word's head and relation."""
    return [(w.head, w.deprel) for w in sentence.words]


def path_for(setting: ParserSetting) -> Path:
    """Where a parser setting's parses are cached."""
    return WORK / f"{setting.name()}.pickle"


def cached(setting: ParserSetting) -> Parsed | None:
    """The cached parse of a parser setting, or None when this module has not parsed it yet (or parsed it
    before each parse was written under every :class:`Repairs`)."""
    path = path_for(setting)
    parsed = pickle.loads(path.read_bytes()) if path.exists() else None
    return parsed if getattr(parsed, "variants", None) is not None else None


def main(argv: list[str] | None = None) -> int:
    """Parse AGRR dev under every asked parser setting not cached yet."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=MODEL)
    ap.add_argument("--bias", type=float, nargs="+", default=[0.0], help="orphan label biases")
    ap.add_argument("--orphan-check", nargs="+", choices=("off", "on"), default=["off"])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="only the first N rows (a quick check; not cached)")
    args = ap.parse_args(argv)
    cache = importlib.import_module("eval.agrr.cache")  # this module under its import name (see below)
    rows = dev_rows()[: args.limit or None]
    WORK.mkdir(parents=True, exist_ok=True)
    for check in args.orphan_check:
        for bias in args.bias:
            setting = ParserSetting(bias, check == "on")
            if not args.limit and cached(setting) is not None:
                print(f"{setting.name()}: cached", file=sys.stderr)
                continue
            # Through the module's import name, so the pickle names eval.agrr.cache's classes, not __main__'s.
            parsed = cache.parse(rows, cache.ParserSetting(bias, check == "on"), args.model, args.threads)
            print(f"{setting.name()}: {len(rows)} rows in {parsed.seconds:.0f} s", file=sys.stderr, flush=True)
            if not args.limit:
                with open(path_for(setting), "wb") as fh:
                    pickle.dump(parsed, fh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
