"""Choose inside folds, score outside them: k-fold cross-validation for any decision a benchmark makes.

A threshold, a bias, a margin or keeping a rule is a choice among candidates.  Made on the data
it is then scored on, the score flatters it.  :func:`cross_validate` makes the choice on k-1 folds
and scores it on the held fold, for each fold in turn, and reports:

- the held-fold scores, their mean and spread (sample standard deviation);
- the *optimism*: the mean score on the choosing folds minus the mean held-fold score, which says
  how much the choice fitted the data it was made on;
- the choice each fold made, and the choice made on all folds (what one would ship).

The scorer sees item indices, so it can pool counts over a fold (micro F1) rather than average
per-item scores.  Ties go to the candidate listed first, so list the default (or the simpler
option) first.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field


@dataclass
class CrossValidation:
    """What :func:`cross_validate` found (see the module docstring)."""

    held: list[float]
    choosing: list[float]
    picks: list[Hashable]
    chosen_on_all: Hashable
    baseline_held: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        """Mean held-fold score."""
        return statistics.mean(self.held)

    @property
    def sd(self) -> float:
        """Spread (sample standard deviation) of the held-fold scores; 0 for one fold."""
        return statistics.stdev(self.held) if len(self.held) > 1 else 0.0

    @property
    def optimism(self) -> float:
        """Mean score on the choosing folds minus mean held-fold score."""
        return statistics.mean(self.choosing) - self.mean

    @property
    def gain(self) -> float:
        """Mean held-fold score minus the baseline's (the first candidate's) on the same folds."""
        return self.mean - statistics.mean(self.baseline_held) if self.baseline_held else 0.0

    def summary(self, digits: int = 2) -> dict:
        """The figures as a JSON-ready dict."""
        def r(x: float) -> float:
            return round(x, digits)
        return {"mean": r(self.mean), "sd": r(self.sd), "folds": [r(h) for h in self.held],
                "optimism": r(self.optimism), "gain over first candidate": r(self.gain),
                "picks": [_plain(p) for p in self.picks], "chosen on all folds": _plain(self.chosen_on_all)}


def _plain(value: Hashable) -> object:
    """A pick as JSON can hold it (tuples become lists)."""
    return list(value) if isinstance(value, tuple) else value


def fold_members(folds: Sequence[int]) -> dict[int, list[int]]:
    """Item indices of each fold, by fold number."""
    members: dict[int, list[int]] = {}
    for index, fold in enumerate(folds):
        members.setdefault(fold, []).append(index)
    return dict(sorted(members.items()))


def best(candidates: Sequence[Hashable], score: Callable[[Hashable, list[int]], float], indices: list[int]) -> Hashable:
    """The candidate with the highest score on ``indices``; ties go to the earlier one."""
    if not candidates:
        raise ValueError("no candidates to choose from")
    scores = [score(c, indices) for c in candidates]
    return candidates[max(range(len(candidates)), key=lambda i: (scores[i], -i))]


def cross_validate(folds: Sequence[int], candidates: Sequence[Hashable],
                   score: Callable[[Hashable, list[int]], float],
                   choose: Callable[[list[int]], Hashable] | None = None) -> CrossValidation:
    """Choose on k-1 folds, score the held one, for every fold (``folds[i]``: item i's fold).

    ``score(candidate, indices)`` is higher for better.  ``choose(indices)``, where given,
    replaces the plain argmax over ``candidates`` (a constrained or greedy search); it must
    return something ``score`` accepts.  The first candidate is the baseline for ``gain``.
    """
    members = fold_members(folds)
    if len(members) < 2:
        raise ValueError(f"cross-validation needs at least 2 folds, not {len(members)}")
    pick = choose or (lambda indices: best(candidates, score, indices))
    held, choosing, picks, baseline = [], [], [], []
    for fold, held_out in members.items():
        rest = [i for f, idx in members.items() if f != fold for i in idx]
        chosen = pick(rest)
        picks.append(chosen)
        choosing.append(score(chosen, rest))
        held.append(score(chosen, held_out))
        if candidates:
            baseline.append(score(candidates[0], held_out))
    everything = [i for idx in members.values() for i in idx]
    return CrossValidation(held, choosing, picks, pick(everything), baseline)
