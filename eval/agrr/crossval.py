"""AGRR-2019 in the protocol of issue 35: every threshold and switch of ``eud agrr`` chosen inside five folds of dev.

``eud agrr`` answers AGRR rows in three steps, each with choices made by hand on AGRR dev:

1. the parser (``models/ru_agrr``, rules graph): an ``orphan`` label bias (shipped: none) and the
   package's orphan checks (``gapping.orphan_check``; shipped: off) — the Russian gapping settings;
2. the parser's repairs of gapped clauses a dash marks (:mod:`eud.gapping.dashes`), switched by the
   package's ``gapping.dash_remnants`` and ``gapping.remnant_chains`` (shipped: both on);
3. the answer rules of :mod:`eud.agrr.answers`, whose correlate choice (:mod:`eud.agrr.correlates`)
   weighs a remnant's fit with each candidate by ten numeric costs and bonuses (``ORDER_COST`` …
   ``ANTECEDENT_MARGIN``).

Each of these is one *family* of candidates (the shipped value listed first); a family's choice is
made on four folds by the ``full`` score and scored on the fifth (:func:`eval.crossval.cross_validate`),
for each of the five folds of :func:`eval.agrr.cache.agrr_folds` (fold 0 is the held-apart fifth).
The *joint* choice makes every family's choice on the same four folds (each with the others at
their shipped values) and scores them together on the fifth; a second joint choice leaves the
parser family out (the parser learned from folds 1-4, see below).  Reported: binary / resolution / full
of the shipped settings on each fold, and for each family and the joint choice the held-fold mean
± sd, the optimism (choosing-fold minus held-fold ``full``), the gain over shipped and the picks.
Scores are those of :func:`eud.agrr.score` (the AGRR-2019 metrics; rows both sides call class 0
are skipped, as ``eud agrr --score`` does by default).

Two caveats belong with every figure: ``models/ru_agrr`` learned from folds 1-4 (its training four
fifths), and the answer rules were written on folds 1-4 and checked on fold 0.  So no fold is new
to the whole system; what the cross-validation measures is the choices made here.  Fold 0's
held score (the choice made on folds 1-4) is the one figure where the parser sees new rows.

The repair switches are replayed from parses the Predictor wrote under each of them
(:class:`eval.agrr.cache.Repairs`), so any parser setting combines with any switches.

usage (from the repository root; parse first with :mod:`eval.agrr.cache`)::

    python -m eval.agrr.cache --bias 0 -2 -1 1 2 3 --orphan-check off && python -m eval.agrr.cache --bias 0 1 2 --orphan-check on
    python -m eval.agrr.crossval
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

from eud.agrr import AgrrRow, score
from eval.agrr.cache import (
    REPAIR_CHOICES,
    SHIPPED_REPAIRS,
    Parsed,
    ParserSetting,
    Repairs,
    agrr_folds,
    cached,
    dev_rows,
    path_for,
)
from eval.agrr.cache import SHIPPED as SHIPPED_PARSER
from eval.common import command_line, record
from eval.crossval import cross_validate

# The numeric weights of the answer rules' correlate choice; candidates are these multiples of the shipped value.
CONSTANTS = ("ORDER_COST", "CASE_COST", "FORM_BONUS", "ENDING_BONUS", "ADVERB_COST", "PERSONAL_COST",
             "NESTED_COST", "DISTANCE_COST", "UNMATCHED_COST", "ANTECEDENT_MARGIN")
MULTIPLES = (1.0, 0.0, 0.5, 1.5, 2.0)
METRICS = ("binary", "resolution", "full")
UTILITY = "full"


@dataclass(frozen=True)
class Setting:
    """One whole ``eud agrr`` configuration: the parser's, its dash repair switches, and answer-rule weights changed."""

    parser: ParserSetting = SHIPPED_PARSER
    repairs: Repairs = SHIPPED_REPAIRS
    constants: tuple[tuple[str, float], ...] = ()

    def describe(self) -> dict:
        """JSON-ready: what differs from the shipped setting."""
        out: dict = {}
        if self.parser != SHIPPED_PARSER:
            out.update(orphan_bias=self.parser.orphan_bias, orphan_check=self.parser.orphan_check)
        out.update({name: on for name, on in self.repairs.switches().items() if not on})
        out.update(dict(self.constants))
        return out or {"shipped": True}


SHIPPED = Setting()


def agrr_modules() -> list:
    """The loaded modules of :mod:`eud.agrr` (a weight may live in any of them, or be imported into several)."""
    import eud.agrr.answers  # noqa: F401 - loads every module of the answer rules, so that each can be patched

    return [m for name, m in sorted(sys.modules.items()) if name.startswith("eud.agrr") and m is not None]


def shipped_constants() -> dict[str, float]:
    """Each weight's shipped value."""
    values = {}
    for module in agrr_modules():
        for name in CONSTANTS:
            if hasattr(module, name):
                values.setdefault(name, float(getattr(module, name)))
    missing = [name for name in CONSTANTS if name not in values]
    if missing:
        raise SystemExit(f"error: eud.agrr defines no {', '.join(missing)} any more; update eval.agrr.crossval.CONSTANTS")
    return values


@contextlib.contextmanager
def weights(constants: tuple[tuple[str, float], ...]) -> Iterator[None]:
    """Set answer-rule weights in every module of :mod:`eud.agrr` that holds them, and put them back after."""
    saved = []
    try:
        for module in agrr_modules():
            for name, value in constants:
                if hasattr(module, name):
                    saved.append((module, name, getattr(module, name)))
                    setattr(module, name, value)
        yield
    finally:
        for module, name, value in reversed(saved):
            setattr(module, name, value)


class Replayer:
    """Each row's answer under any :class:`Setting`, from the cached parses."""

    def __init__(self, rows: list[AgrrRow], parses: dict[ParserSetting, Parsed]) -> None:
        self.rows = rows
        self.parses = parses
        self._answers: dict[Setting, list[AgrrRow]] = {}
        self._scores: dict[tuple[Setting, tuple[int, ...]], dict[str, float]] = {}

    def sentences(self, setting: Setting) -> list:
        """Each row's sentence as the parser wrote it under ``setting``."""
        return self.parses[setting.parser].written(setting.repairs)

    def answers(self, setting: Setting) -> list[AgrrRow]:
        """The answer of every row under ``setting``."""
        if setting not in self._answers:
            from eud.agrr.answers import answer

            offsets = self.parses[setting.parser].offsets
            with weights(setting.constants):
                self._answers[setting] = [AgrrRow(r.text) if s is None else answer(s.copy() if s.empty_nodes else s, where, r.text)
                                          for r, s, where in zip(self.rows, self.sentences(setting), offsets)]
        return self._answers[setting]

    def scores(self, setting: Setting, indices: list[int]) -> dict[str, float]:
        """binary / resolution / full of ``setting`` on some rows."""
        key = (setting, tuple(indices))
        if key not in self._scores:
            answers = self.answers(setting)
            self._scores[key] = score([self.rows[i] for i in indices], [answers[i] for i in indices])
        return self._scores[key]

    def utility(self, setting: Setting, indices: list[int]) -> float:
        """What a choice maximises: the ``full`` score."""
        return self.scores(setting, indices)[UTILITY]


def families(parsers: list[ParserSetting]) -> dict[str, list[Setting]]:
    """Each family's candidates, the shipped setting first."""
    out = {"parser: orphan bias x orphan checks": [SHIPPED] + [replace(SHIPPED, parser=p) for p in parsers
                                                                if p != SHIPPED_PARSER],
           "repairs: dash remnants x remnant chains": [SHIPPED] + [replace(SHIPPED, repairs=r) for r in REPAIR_CHOICES
                                                                   if r != SHIPPED_REPAIRS]}
    shipped = shipped_constants()
    for name in CONSTANTS:
        out[f"answers: {name}"] = [SHIPPED] + [replace(SHIPPED, constants=((name, round(m * shipped[name], 4)),))
                                               for m in MULTIPLES if m != 1.0]
    return out


def combine(picks: list[Setting]) -> Setting:
    """One setting holding each family's pick (families change disjoint parts)."""
    out = SHIPPED
    for p in picks:
        if p.parser != SHIPPED_PARSER:
            out = replace(out, parser=p.parser)
        if p.repairs != SHIPPED_REPAIRS:
            out = replace(out, repairs=p.repairs)
        out = replace(out, constants=out.constants + p.constants)
    return out


def held_metrics(replayer: Replayer, folds: list[int], picks: list[Setting]) -> dict:
    """Held-fold binary / resolution / full (mean, sd, per fold) of each fold's pick."""
    members = sorted(set(folds))
    per = {m: [] for m in METRICS}
    for fold, pick in zip(members, picks):
        held = [i for i, f in enumerate(folds) if f == fold]
        s = replayer.scores(pick, held)
        for m in METRICS:
            per[m].append(s[m])
    return {m: {"mean": round(statistics.mean(v), 4), "sd": round(statistics.stdev(v), 4),
                "folds": [round(x, 4) for x in v]} for m, v in per.items()}


def run(replayer: Replayer, folds: list[int], candidates: list[Setting], choose=None) -> dict:
    """One family's (or the joint) cross-validated choice, as JSON-ready figures."""
    cv = cross_validate(folds, candidates, replayer.utility, choose)
    summary = cv.summary(4)
    summary["picks"] = [p.describe() for p in cv.picks]
    summary["chosen on all folds"] = cv.chosen_on_all.describe()
    held = held_metrics(replayer, folds, cv.picks)
    return {f"held-fold {m}": v for m, v in held.items()} | {
        "fold 0 full (chosen on folds 1-4)": held["full"]["folds"][0],
        "full optimism": summary["optimism"], "full gain over shipped": summary["gain over first candidate"],
        "picks": summary["picks"], "chosen on all folds": summary["chosen on all folds"],
        "candidates": len(candidates)}


def main(argv: list[str] | None = None) -> int:
    """Replay every family on the cached parses, cross-validate, print and record the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-record", action="store_true", help="print only; write nothing under eval/results/")
    ap.add_argument("--only", nargs="+", help="only the families whose name contains one of these words")
    args = ap.parse_args(argv)
    start = time.process_time()
    rows = dev_rows()
    folds = agrr_folds(len(rows))
    wanted = [ParserSetting(b, c) for c in (False, True) for b in (0.0, -2.0, -1.0, 1.0, 2.0, 3.0)]
    parses = {p: parsed for p in wanted if (parsed := cached(p)) is not None}
    if SHIPPED_PARSER not in parses:
        raise SystemExit(f"error: no cache at {path_for(SHIPPED_PARSER)}; run python -m eval.agrr.cache first")
    replayer = Replayer(rows, parses)
    fams = families([p for p in wanted if p in parses])
    if args.only:
        fams = {k: v for k, v in fams.items() if any(w in k for w in args.only)}
    members = sorted(set(folds))
    shipped = {f"fold {f}" + (" (held-apart fifth)" if f == 0 else ""): {
        m: round(v, 4) for m, v in replayer.scores(SHIPPED, [i for i, x in enumerate(folds) if x == f]).items()}
        for f in members}
    shipped_held = held_metrics(replayer, folds, [SHIPPED] * len(members))
    print("shipped, per fold:", file=sys.stderr)
    for name, s in shipped.items():
        print(f"  {name}: " + " / ".join(f"{s[m]:.3f}" for m in METRICS), file=sys.stderr)
    results = {}
    for name, candidates in fams.items():
        results[name] = run(replayer, folds, candidates)
        r = results[name]
        print(f"{name}: full {r['held-fold full']['mean']:.4f} ± {r['held-fold full']['sd']:.4f}, "
              f"gain {r['full gain over shipped']:+.4f}, optimism {r['full optimism']:+.4f}, "
              f"on all folds {r['chosen on all folds']}", file=sys.stderr, flush=True)

    def joint(chosen: dict[str, list[Setting]]):
        from eval.crossval import best

        return lambda indices: combine([best(c, replayer.utility, indices) for c in chosen.values()])

    # The parser learned from folds 1-4, so its family's choice is also made apart from the others.
    after_parser = {k: v for k, v in fams.items() if not k.startswith("parser")}
    for name, chosen in (("joint: every family chosen on the same four folds", fams),
                         ("joint without the parser family", after_parser)):
        results[name] = j = run(replayer, folds, [SHIPPED], joint(chosen))
        print(f"{name}: binary {j['held-fold binary']['mean']:.4f} resolution {j['held-fold resolution']['mean']:.4f} "
              f"full {j['held-fold full']['mean']:.4f} ± {j['held-fold full']['sd']:.4f} (fold 0 "
              f"{j['held-fold full']['folds'][0]:.4f}), optimism {j['full optimism']:+.4f}, "
              f"on all folds {j['chosen on all folds']}", file=sys.stderr)
    figures = {
        "folds": "fold 0 = held-apart fifth (row index % 5 == 0); folds 1-4 = the other rows in 4 contiguous blocks",
        "rows per fold": [folds.count(f) for f in members],
        "utility": UTILITY,
        "shipped per fold": shipped,
        "shipped held-fold": shipped_held,
        "choices": results,
        "parser settings cached": [p.name() for p in parses],
        "replay CPU seconds": round(time.process_time() - start),
    }
    if not args.no_record and not args.only:
        record("agrr", "crossval", figures, label="cross-validated", command=command_line("eval.agrr.crossval"),
               rows="choices",
               notes=("choices cross-validated over 5 folds of AGRR dev; models/ru_agrr learned from folds 1-4 and "
                      "the answer rules were written on folds 1-4 and checked on fold 0, so no fold is new to the "
                      "whole system"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
