"""How the Polish profile should recognise a text's enhanced convention, chosen on text the parser never saw.

At parse time only the language is known; :mod:`eud.enhance.conventions` decides from the parser's
basic relations whether a stretch of text follows pl_pdb (which keeps basic labels in the enhanced
graph) or pl_lfg (which adds the case marker, ``obl:w``).  The first version of this benchmark
chose the share and window on the full dev splits, which ``models/pl_pdb`` trained on: there the
parser reproduces each treebank's relations faithfully, and 0.15 separated them perfectly.  On the
sentences it never trained on (the held-apart tuning slices, :mod:`eval.parser.slices`) it writes
pl_pdb's relations into pl_lfg text too (17% of pl_lfg sentences, against 51% of pl_pdb's), so 0.15
sent all pl_lfg text to the pl_pdb convention and its case-marked edges were all lost.

This version decides on those slices.  Each is parsed from gold tokens; every sentence's graph is
built under each convention, and a candidate is scored by the ELAS of the convention it picks for
each sentence (windows run over each slice in text order; a slice is every tenth sentence of its
file, so a window of w slice sentences spans about 10 w sentences of text).  The candidates are
the window, the share, and whether the pl_lfg convention writes pl_pdb's own relations (the
``relations`` list, which pl_lfg never uses) as their universal part (``advmod:emph`` → ``advmod``),
as pl_lfg's annotators do.  5-fold cross-validation over contiguous blocks of each slice: choose on
four, score the fifth; mean, spread and optimism are recorded.  Tuning figures: the slices also
picked the parser's epoch.

usage (from the repository root):
  python -m eval.enhance.conventions
"""

from __future__ import annotations

import argparse
import copy
import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace

from eud.enhance import Enhancer, find_profile
from eud.enhance.conventions import Conventions
from eud.enhance.profiles import Profile
from eud.graph import Sentence
from eud.recipe import Run
from eval.common import SHARED, command_line, record
from eval.crossval import cross_validate
from eval.parser.slices import by_treebank, split_files

TREEBANKS = ("pl_pdb", "pl_lfg")  # pl_pdb is the marked convention
WINDOWS = (0, 5, 10, 20, 40)
SHARES = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4)
FOLDS = 5
RATIOS = (3.0, 5.0, 10.0)
# The setting the first version chose on the parser's training data: the baseline of "gain".
BEFORE = (False, 400, 0.15, "pl_pdb only")


def edge_counts(gold: Sentence, system: Sentence) -> tuple[int, int, int]:
    """Gold edges, system edges and edges in both, between words (the ELAS of a sentence; no empty nodes here)."""
    g = {(e.head, e.dep, e.label) for e in gold.enhanced if not e.head[1] and not e.dep[1]}
    s = {(e.head, e.dep, e.label) for e in system.enhanced if not e.head[1] and not e.dep[1]}
    return len(g), len(s), len(g & s)


@dataclass
class Parsed:
    """Texts parsed once from gold tokens: each sentence's relations and its ELAS counts under each convention."""

    items: list[tuple[str, int]]  # (text, sentence index), text by text
    relations: dict[str, list[set[str]]]
    counts: dict[str, dict[str, list[tuple[int, int, int]]]]  # text -> convention -> per sentence

    @classmethod
    def of(cls, pipe, golds: dict[str, list[Sentence]], profiles: dict[str, Profile]) -> Parsed:
        """Parse each gold text and build every sentence's graph under each profile."""
        items, relations, counts = [], {}, {}
        for text, gold in golds.items():
            parsed = pipe.parse_sentences(copy.deepcopy(gold))
            relations[text] = [{w.deprel for w in s.words} for s in parsed]
            counts[text] = {name: [edge_counts(g, s) for g, s in zip(gold, Enhancer(p).enhance_all(copy.deepcopy(parsed)))]
                            for name, p in profiles.items()}
            items += [(text, i) for i in range(len(gold))]
        return cls(items, relations, counts)

    def folds(self) -> list[int]:
        """Each item's fold: FOLDS contiguous blocks of each text."""
        return [i * FOLDS // len(self.relations[text]) for text, i in self.items]

    def of_text(self, text: str) -> list[int]:
        """The items of one text."""
        return [k for k, (t, _) in enumerate(self.items) if t == text]

    def elas(self, chosen: Callable[[str], list[str]], indices: list[int]) -> float:
        """ELAS of the items ``indices`` when each text's sentences get the conventions ``chosen(text)``."""
        g = s = both = 0
        for index in indices:
            text, i = self.items[index]
            cg, cs, cb = self.counts[text][chosen(text)[i]][i]
            g, s, both = g + cg, s + cs, both + cb
        return 100.0 * 2 * both / max(g + s, 1)

    def elas_all(self, text: str, name: str) -> float:
        """ELAS of one text with one convention for every sentence."""
        return self.elas(lambda t: [name] * len(self.relations[t]), self.of_text(text))


def universal_map(relations: frozenset[str]) -> dict[str, str]:
    """Each relation of the marked convention written as its universal part (``advmod:emph`` → ``advmod``)."""
    return {r: r.partition(":")[0] for r in sorted(relations)}


def frequent_in(marked: list[Sentence], default: list[Sentence], ratio: float) -> frozenset[str]:
    """Relations in at least 1% of ``marked``'s sentences and ``ratio`` times as many as in ``default``'s."""
    def shares(sentences: list[Sentence]) -> dict[str, float]:
        counts: dict[str, int] = {}
        for s in sentences:
            for r in {w.deprel for w in s.words}:
                counts[r] = counts.get(r, 0) + 1
        return {r: c / len(sentences) for r, c in counts.items()}

    m, d = shares(marked), shares(default)
    return frozenset(r for r, share in m.items() if share >= 0.01 and share >= ratio * max(d.get(r, 0.0), 1 / len(default)))


def main(argv: list[str] | None = None) -> int:
    """Parse the held-apart slices, cross-validate the convention settings, record them."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="models/pl_pdb")
    ap.add_argument("--recipe", default="recipes/pl_pdb.toml")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    from eud.pipeline import Pipeline

    _, parts = split_files(Run(args.recipe, shared=SHARED))
    slices, trained = by_treebank(parts, "held"), by_treebank(parts, "trained")
    pipe = Pipeline.load(args.model, lang="pl", threads=args.threads)
    shipped = find_profile("pl").conventions
    assert shipped is not None
    default = find_profile(shipped.default)
    pdb_only = frozenset(default.label_map) or shipped.relations  # the relations pl_lfg never uses
    profiles = {"pl_pdb": find_profile(shipped.marked), "pl_lfg": replace(default, label_map={}),
                "pl_lfg mapped": replace(default, label_map=universal_map(pdb_only))}
    # Evidence: pl_pdb's own relations, or those plus relations far more common in pl_pdb's sentences,
    # learned from the gold trees of the dev sentences outside the slices (the parser's training part).
    evidence = {"pl_pdb only": pdb_only, "shipped": shipped.relations,
                **{f"ratio {r:g}": pdb_only | frequent_in(trained["pl_pdb"], trained["pl_lfg"], r) for r in RATIOS}}

    # Every sentence of both slices, in text order per treebank: its relations and its counts per profile.
    parsed = Parsed.of(pipe, {tb: slices[tb] for tb in TREEBANKS}, profiles)
    items, relations = parsed.items, parsed.relations

    Candidate = tuple[bool, int, float, str]  # (map pl_pdb's relations, window, share, evidence)
    candidates: list[Candidate] = [BEFORE] + [
        (m, w, t, e) for m, w, t, e in itertools.product((False, True), WINDOWS, SHARES, sorted(evidence))
        if e != "shipped"]
    chosen_cache: dict[tuple[str, Candidate], list[str]] = {}

    def choices(tb: str, c: Candidate) -> list[str]:
        if (tb, c) not in chosen_cache:
            conv = Conventions("pl_lfg mapped" if c[0] else "pl_lfg", "pl_pdb", evidence[c[3]], c[2], c[1])
            chosen_cache[tb, c] = conv.choose(relations[tb])
        return chosen_cache[tb, c]

    def elas(c: Candidate, indices: list[int]) -> float:
        return parsed.elas(lambda tb: choices(tb, c), indices)

    cv = cross_validate(parsed.folds(), candidates, elas)
    everything = list(range(len(items)))
    pick = cv.chosen_on_all
    now = (bool(default.label_map), shipped.window, shipped.share, "shipped")
    figures: dict = {
        "held-fold ELAS of the chosen setting": cv.summary(),
        "chosen on all folds": {"map pl_pdb relations": pick[0], "window": pick[1], "share": pick[2],
                                "evidence": pick[3], "relations": sorted(evidence[pick[3]])},
        "shipped": {"map pl_pdb relations": now[0], "window": now[1], "share": now[2],
                    "relations": sorted(shipped.relations)},
    }
    for tb in TREEBANKS:
        idx = parsed.of_text(tb)
        row = {"sentences": len(idx)}
        for name in profiles:
            row[f"ELAS, all {name}"] = round(parsed.elas_all(tb, name), 2)
        for label, c in (("before", BEFORE), ("shipped", now)):
            row[f"ELAS, {label} setting"] = round(elas(c, idx), 2)
            row[f"sentences given their own convention, {label}"] = round(
                sum(ch == tb or ch.startswith(tb) for ch in choices(tb, c)) / len(idx), 3)
        figures[f"{tb} held-apart slice"] = row
    figures["both slices: ELAS, before / shipped"] = [round(elas(BEFORE, everything), 2), round(elas(now, everything), 2)]
    print(figures)
    record("enhance", "conventions", figures, label="cross-validated", command=command_line("eval.enhance.conventions"),
           notes="held-apart tuning slices (every 10th sentence) of pl_pdb and pl_lfg dev, which models/pl_pdb "
                 "never trained on but which picked its epoch; gold tokens; 5 contiguous folds per slice.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
