"""Replay the parser's gapping decisions on cached network outputs, one candidate setting at a time.

:meth:`eud.nn.predict.Predictor.write` turns the network's tree into the written one through
ordered gapping stages: orphans without a predicate antecedent go back to the parser's other
label (:func:`eud.gapping.checks.demote_orphans`), then stray orphans and the orphans of clauses
that fail a shape check, a margin, the verifier or the parallelism check
(:func:`eud.gapping.checks.demote_without_correlates`), then the rebuilds
(:mod:`eud.gapping.repair`).  A :class:`Setting` names which of those rules run and at which
thresholds; :class:`Replayer` runs them in the same order on a cached sentence (:mod:`eval.gapping.cache`)
and lets ``write`` do the rest with the resulting tree, so a candidate costs only the
decisions and, where an orphan is left, the enhancer.

:data:`SHIPPED` is the shipped package's setting; :func:`Replayer.check_shipped` confirms that
replaying it gives exactly the graphs ``write`` gives.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, replace

from eud.gapping import checks as orphans
from eud.gapping import repair as rebuilds
from eud.gapping.correlates import BasicTree
from eud.nn import verifier
from eval.common import REPO
from eval.gapping.benchmark import gap_edges

# The shape checks of eud.gapping.checks.unsound, in its order; each takes (clause, tree).
SHAPE_CHECKS = {
    "lacks_correlates": lambda clause, tree: orphans.lacks_correlates(clause),
    "inside_noun_phrase": orphans.inside_noun_phrase,
    "unparallel": orphans.unparallel,
    "has_copula": orphans.has_copula,
    "list_member": orphans.list_member,
    "nonfinite_modifier": orphans.nonfinite_modifier,
    "followed_by_predicate": orphans.followed_by_predicate,
    "coordinated_phrases": orphans.coordinated_phrases,
    "auxiliary_remnant": lambda clause, tree: orphans.auxiliary_remnant(clause),
}
# The rebuilds of eud.gapping.repair.rebuild_unseen_gapping, in its order, by their converters/en.toml switch.
REBUILDS = {
    "verbless_subjects": rebuilds.stranded_subjects,
    "bare_remnants": rebuilds.adjacent_conjuncts,
    "mirrored_phrases": rebuilds.mirrored_phrases,
    "echoed_subjects": rebuilds.echoed_subjects,
}
RULES = ("antecedent", "stray_orphans", *SHAPE_CHECKS, *REBUILDS)
THRESHOLDS = ("lifted", "uncorrelated", "verifier", "parallelism")


@dataclass(frozen=True)
class Setting:
    """Which gapping rules run and at which thresholds (None: that check is off)."""

    rules: frozenset[str] = frozenset(RULES)
    lifted: float | None = 2.5
    uncorrelated: float | None = 1.5
    verifier: float | None = -1.6984
    parallelism: float | None = 0.2

    def without(self, rule: str) -> Setting:
        """This setting with one rule switched off."""
        return replace(self, rules=self.rules - {rule})

    def describe(self) -> dict:
        """JSON-ready: the rules switched off and the thresholds."""
        return {"rules off": sorted(set(RULES) - self.rules),
                **{name: getattr(self, name) for name in THRESHOLDS}}


def shipped(package: str = "en_ewt") -> Setting:
    """The setting a model package ships: the ``gapping`` block of its ``config.json``."""
    block = json.loads((REPO / "models" / package / "config.json").read_text(encoding="utf-8"))["gapping"]
    rules = set(RULES) - {name for name in REBUILDS if not block.get(name, True)}
    if not block.get("orphan_check", True):
        rules -= {"stray_orphans", *SHAPE_CHECKS}
    margins = block.get("orphan_margins", {})
    return Setting(frozenset(rules), margins.get("lifted"), margins.get("uncorrelated"),
                   block.get("verifier", {}).get("threshold"), block.get("parallelism", {}).get("threshold"))


SHIPPED = shipped()


class Replayer:
    """Per-sentence outputs and gap-edge counts of a cached set under any :class:`Setting`."""

    def __init__(self, pipe: object, cached: object) -> None:
        self.predictor = pipe.predictor  # type: ignore[attr-defined]
        self.cached = cached
        self.verifier = self.predictor.verifier
        self.parallelism = self.predictor.parallelism
        self.gapping = self.predictor.gapping
        self._tagged: dict[int, object] = {}
        self._written: dict[tuple, object] = {}
        self._counts: dict[Setting, list[Counter]] = {}
        self._plain: dict[tuple, Counter] = {}

    def _base(self, i: int) -> object:
        """Sentence i with the network's tags, lemmas and tree (no gapping decision yet)."""
        if i not in self._tagged:
            s = self.cached.inputs[i].copy()
            self.predictor.orphan_check = False
            try:
                self.predictor.write(s, replace(self.cached.decoded[i], deprels=self._no_orphans(i)))
            finally:
                self.predictor.orphan_check = True
            self._tagged[i] = s
        s = self._tagged[i].copy()
        d = self.cached.decoded[i]
        for w, head, deprel in zip(s.words, d.heads, d.deprels):
            w.head, w.deprel = head, deprel
        s.empty_nodes = []
        return s

    def _no_orphans(self, i: int) -> list[str]:
        d = self.cached.decoded[i]
        return [f if r == "orphan" and d.fallback else r for r, f in zip(d.deprels, d.fallback or d.deprels)]

    def decide(self, i: int, setting: Setting) -> object:
        """Sentence i's tree after the gapping decisions of ``setting`` (no graph yet)."""
        s = self._base(i)
        d = self.cached.decoded[i]
        if not d.fallback:
            return s
        if "antecedent" in setting.rules:
            orphans.demote_orphans(s, d.fallback)
        if any(w.deprel == "orphan" for w in s.words):
            self._demote(s, i, setting)
        for name, rebuild in REBUILDS.items():
            if name in setting.rules:
                rebuild(s, self.gapping)
        return s

    def _demote(self, s: object, i: int, setting: Setting) -> None:
        """:func:`eud.gapping.checks.demote_without_correlates` with the setting's checks."""
        d = self.cached.decoded[i]
        nesting = orphans.bracket_nesting(s)
        tree = BasicTree(s)
        checks = [check for name, check in SHAPE_CHECKS.items() if name in setting.rules]
        minimum = {k: v for k, v in (("lifted", setting.lifted), ("uncorrelated", setting.uncorrelated))
                   if v is not None}
        for _ in range(len(s.words)):
            clauses = self.gapping.alignments(s)
            undone = ([r for clause in clauses for r in orphans.stray_orphans(clause, nesting, tree)]
                      if "stray_orphans" in setting.rules else [])
            if not undone:
                failing = [clause for clause in clauses
                           if any(check(clause, tree) for check in checks)
                           or (minimum and orphans.unsure(clause, d.margins, minimum))
                           or not self._judged(s, d, clause, setting)]
                undone = [r for clause in failing for r in clause.remnants
                          if r is not clause.promoted and r.deprel == "orphan"]
            if not undone:
                break
            for r in undone:
                r.deprel = d.fallback[r.id - 1]

    def _judged(self, s: object, d: object, clause: object, setting: Setting) -> bool:
        """The verifier, then the parallelism check, at the setting's thresholds."""
        if setting.verifier is not None and self.verifier is not None and d.states is not None:
            features = verifier.clause_features(s, clause, d.states, d.margins)
            if float(self.verifier.score(features)) < setting.verifier:
                return False
        if setting.parallelism is not None and self.parallelism is not None:
            score = self.parallelism.score(s, clause)
            if score is not None and score < setting.parallelism:
                return False
        return True

    def output(self, i: int, setting: Setting) -> object:
        """Sentence i as the package would write it under ``setting``."""
        s = self.decide(i, setting)
        d = self.cached.decoded[i]
        key = (i, tuple(w.head for w in s.words), tuple(w.deprel for w in s.words))
        if key not in self._written:
            out = self.cached.inputs[i].copy()
            self.predictor.orphan_check = False
            try:
                self.predictor.write(out, replace(d, heads=list(key[1]), deprels=list(key[2])))
            finally:
                self.predictor.orphan_check = True
            self._written[key] = out
        return self._written[key]

    def counts(self, setting: Setting) -> list[Counter]:
        """Per sentence: gap edges matched / system / gold, gapped, found, false alarm."""
        if setting not in self._counts:
            rows = []
            rebuild_only = setting.rules & set(REBUILDS)
            for i in range(len(self.cached.inputs)):
                if "orphan" not in self.cached.decoded[i].deprels:
                    # Without a predicted orphan only the rebuilds can act: share across settings.
                    key = (i, rebuild_only)
                    if key not in self._plain:
                        self._plain[key] = self._count(i, setting)
                    rows.append(self._plain[key])
                else:
                    rows.append(self._count(i, setting))
            self._counts[setting] = rows
        return self._counts[setting]

    def _count(self, i: int, setting: Setting) -> Counter:
        """One sentence's counts under ``setting``."""
        s = self.decide(i, setting)
        if any(w.deprel == "orphan" for w in s.words):
            system = self.output(i, setting)
            made, edges = bool(system.empty_nodes), gap_edges(system)
        else:
            made, edges = False, set()
        gold = gap_edges(self.cached.gold[i]) if self.cached.gold is not None else set()
        gapped = self.cached.gapped[i]
        return Counter(match=len(gold & edges), sys=len(edges), gold=len(gold), sentences=1,
                       gapped=gapped, found=gapped and made, false_alarm=not gapped and made)


def f1(c: Counter) -> float:
    """Gap-edge F1 in percent (micro over the counted sentences)."""
    return 200 * c["match"] / (c["sys"] + c["gold"]) if c["sys"] + c["gold"] else 0.0


def total(rows: list[Counter], indices: list[int]) -> Counter:
    """The counts of some sentences summed."""
    out: Counter = Counter()
    for i in indices:
        out.update(rows[i])
    return out


def no_threshold(value: float | None) -> float:
    """A threshold as a number for sorting (off is -inf)."""
    return -math.inf if value is None else value
