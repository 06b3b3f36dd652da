"""ELAS broken down by enhancement type: which kinds of enhanced edges a system gets right.

Every enhanced edge (after empty nodes are collapsed and ``--enhancements``
levels applied, i.e. exactly the edges ELAS counts) gets one type, decided
from the basic tree *of the same file* and the edge's label; the first rule
that applies wins:

``ellipsis``
    the label is a collapsed path through an empty node (contains ``>``), see
    UD guidelines "Ellipsis" (gapping).
``basic``
    same head and same label as the dependent's basic relation.
``case-marked``
    same head as the basic relation, and the label is the basic relation with
    more subtypes (``obl`` → ``obl:in``, ``nmod`` → ``nmod:of``, ``conj`` →
    ``conj:and``): "Case information" in the guidelines.
``relative-clause``
    a ``ref`` edge (antecedent → relative pronoun), or an edge from a relative
    clause (basic ``acl:relcl``/``advcl:relcl``, or ``acl`` in treebanks
    without the subtype) to its antecedent (its basic head, or a conjunct of
    it): "Relative clauses".
``controlled-subject``
    a subject (``nsubj*``/``csubj*``) edge from an ``xcomp`` verb, or any
    ``:xsubj`` label: "Controlled/raised subjects".
``coord-shared-parent``
    the dependent is a later conjunct (basic ``conj``) and the head is the
    basic head of the first conjunct: "Propagation of conjuncts", parents.
``coord-shared-dependent``
    the head is a different conjunct of the same coordination as the
    dependent's basic head (both reach the same first conjunct through
    ``conj`` links): "Propagation of conjuncts", dependents.
``other``
    anything else (e.g. an edge a system invented, or ``NO_HEAD`` edges that
    levels 1/5 create).

Recall of a type counts gold edges of that type, classified with the gold
basic tree; precision counts system edges of that type, classified with the
*system's* basic tree (the only tree a system edge can be typed by).  An edge
is correct under the ELAS criterion (same aligned head, same label); as in
ELAS, an edge matching several edges counts each match, so the gold-side
counts add up to ELAS.  What this cannot tell: a system edge whose basic tree
is wrong may land in a different type than the gold edge it matches.
"""

from __future__ import annotations

from dataclasses import dataclass

from eud.evaluate.data import ROOT_HEAD, ScoringFile
from eud.evaluate.metrics import UNALIGNED

TYPES = (
    "basic", "case-marked", "coord-shared-parent", "coord-shared-dependent", "controlled-subject",
    "relative-clause", "ellipsis", "other",
)


@dataclass(slots=True)
class TypeScore:
    """Counts for one enhancement type; precision and recall have their own numerators."""

    gold: int = 0
    gold_correct: int = 0
    system: int = 0
    system_correct: int = 0

    @property
    def precision(self) -> float:
        """Correct system edges of this type / system edges of this type."""
        return self.system_correct / self.system if self.system else 0.0

    @property
    def recall(self) -> float:
        """Correct gold edges of this type / gold edges of this type."""
        return self.gold_correct / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def __add__(self, other: TypeScore) -> TypeScore:
        return TypeScore(self.gold + other.gold, self.gold_correct + other.gold_correct, self.system + other.system,
                         self.system_correct + other.system_correct)

    def to_dict(self) -> dict[str, float | int]:
        """Counts and ratios, for JSON output."""
        return {
            "gold": self.gold, "gold_correct": self.gold_correct, "system": self.system,
            "system_correct": self.system_correct, "precision": self.precision, "recall": self.recall, "f1": self.f1,
        }


def _first_conjunct(file: ScoringFile, word: int) -> int:
    """Follow basic ``conj`` links up to the first conjunct (bounded, so cycles cannot hang)."""
    for _ in range(64):
        if file.deprel[word] != "conj" or file.head[word] < 0:
            return word
        word = file.head[word]
    return word


def classify(file: ScoringFile, dep: int, head: int, label: str) -> str:
    """The enhancement type of the edge ``head`` → ``dep`` with ``label`` in ``file`` (global indices)."""
    if ">" in label:
        return "ellipsis"
    basic_head = file.head[dep]
    basic = file.full_deprel[dep]
    if head == basic_head:
        if label == basic:
            return "basic"
        if label.startswith(basic + ":"):
            return "case-marked"
    if label == "ref" or label.startswith("ref:"):
        return "relative-clause"
    if (
        head >= 0
        and file.head[head] >= 0
        and (":relcl" in file.full_deprel[head] or file.full_deprel[head] == "acl")
        and _first_conjunct(file, file.head[head]) == _first_conjunct(file, dep)
    ):
        return "relative-clause"
    universal = label.partition(":")[0]
    if ":xsubj" in label or (head >= 0 and file.deprel[head] == "xcomp" and universal in ("nsubj", "csubj")):
        return "controlled-subject"
    if (
        file.deprel[dep] == "conj"
        and basic_head >= 0
        and head != basic_head
        and head == file.head[_first_conjunct(file, dep)]
    ):
        return "coord-shared-parent"
    if (
        head >= 0
        and basic_head >= 0
        and head != basic_head
        and (file.deprel[head] == "conj" or file.deprel[basic_head] == "conj")
        and _first_conjunct(file, head) == _first_conjunct(file, basic_head)
    ):
        return "coord-shared-dependent"
    return "other"


def scores_by_type(gold: ScoringFile, system: ScoringFile, alignment: list[int]) -> dict[str, TypeScore]:
    """Per-type ELAS counts (see the module docstring); types with no edge on either side are left out."""
    out = {name: TypeScore() for name in TYPES}
    # How often each gold / system edge is matched, keyed by (word, position in its deps list).
    gold_hits: dict[tuple[int, int], int] = {}
    system_hits: dict[tuple[int, int], int] = {}
    for s, g in enumerate(alignment):
        if g < 0 or not gold.deps[g] or not system.deps[s]:
            continue
        for j, (shead, slabel, _) in enumerate(system.deps[s]):
            if shead >= 0:
                mapped = alignment[shead]
                if mapped < 0:
                    mapped = UNALIGNED
            else:
                mapped = shead if shead == ROOT_HEAD else UNALIGNED - 1
            for k, (ghead, glabel, _) in enumerate(gold.deps[g]):
                if ghead == mapped and glabel == slabel:
                    gold_hits[(g, k)] = gold_hits.get((g, k), 0) + 1
                    system_hits[(s, j)] = system_hits.get((s, j), 0) + 1
    for g, deps in enumerate(gold.deps):
        for k, (head, label, _) in enumerate(deps):
            score = out[classify(gold, g, head, label)]
            score.gold += 1
            score.gold_correct += gold_hits.get((g, k), 0)
    for s, deps in enumerate(system.deps):
        for j, (head, label, _) in enumerate(deps):
            score = out[classify(system, s, head, label)]
            score.system += 1
            score.system_correct += system_hits.get((s, j), 0)
    return {name: score for name, score in out.items() if score.gold or score.system}
