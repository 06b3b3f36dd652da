"""The official IWPT metrics, computed from two aligned :class:`~eud.evaluate.data.ScoringFile` objects.

Every metric counts *correct*, *gold*, *system* and, for those computed on
aligned words, *aligned*; precision, recall, F1 and aligned accuracy follow
from them with the official formulas, so they agree to the last digit.

* Tokens, Sentences: spans with the same start and end in the text.
* Words: aligned words (see :mod:`eud.evaluate.align`).
* UPOS, XPOS, UFeats (universal features), AllTags (all three), Lemmas
  (right when the gold lemma is ``_``), UAS (head aligned to the gold head,
  or both roots), LAS (and universal DEPREL): over all aligned words.
* CLAS, MLAS, BLEX: over words whose gold DEPREL is a content relation;
  MLAS adds UPOS, UFeats and the functional children (aux, cop, mark, det,
  clf, case, cc) with their DEPREL, UPOS and UFeats; BLEX adds the lemma.
* ELAS, EULAS: enhanced edges (collapsed paths included) of aligned words
  whose head is aligned to the gold head (or both are the root), with the
  whole label, or only the universal part of each step of the label.  As in
  the official scorer, a gold edge counts once for *each* system edge it
  matches, which matters only for EULAS (``conj:and`` and ``conj:or`` from the
  same head both match gold ``conj``).
"""

from __future__ import annotations

from dataclasses import dataclass

from eud.evaluate.align import align_words, matching_spans
from eud.evaluate.data import ROOT_HEAD, ScoringFile

METRICS = (
    "Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas",
    "UAS", "LAS", "CLAS", "MLAS", "BLEX", "ELAS", "EULAS",
)
# Metrics whose denominators include only aligned words.
ALIGNED_METRICS = frozenset({"UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX"})
# A system head that is not aligned to any gold word: never equal to a gold head.
UNALIGNED = -3


@dataclass(slots=True)
class Score:
    """Counts for one metric, with the official scorer's precision/recall/F1."""

    correct: int
    gold: int
    system: int
    aligned: int | None = None

    @property
    def precision(self) -> float:
        """correct / system (0 when there is no system item)."""
        return self.correct / self.system if self.system else 0.0

    @property
    def recall(self) -> float:
        """correct / gold (0 when there is no gold item)."""
        return self.correct / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        """2·correct / (gold + system), the official form of F1."""
        total = self.system + self.gold
        return 2 * self.correct / total if total else 0.0

    @property
    def aligned_accuracy(self) -> float | None:
        """correct / aligned, for metrics computed on aligned words."""
        return self.correct / self.aligned if self.aligned else None

    def __add__(self, other: Score) -> Score:
        aligned = None if self.aligned is None and other.aligned is None else (self.aligned or 0) + (other.aligned or 0)
        return Score(self.correct + other.correct, self.gold + other.gold, self.system + other.system, aligned)

    def to_dict(self) -> dict[str, float | int | None]:
        """Counts and ratios, for JSON output."""
        return {
            "correct": self.correct, "gold": self.gold, "system": self.system, "aligned": self.aligned,
            "precision": self.precision, "recall": self.recall, "f1": self.f1,
            "aligned_accuracy": self.aligned_accuracy,
        }


def system_heads_in_gold(system: ScoringFile, alignment: list[int]) -> list[int]:
    """Each system word's head, expressed as a gold word index (ROOT_HEAD, or UNALIGNED)."""
    out = []
    for head in system.head:
        if head < 0:
            out.append(head)
        else:
            g = alignment[head]
            out.append(g if g >= 0 else UNALIGNED)
    return out


def _map_head(head: int, alignment: list[int]) -> int:
    if head < 0:
        # ROOT_HEAD stays; NO_HEAD (-2) stays distinct from every gold head.
        return head if head == ROOT_HEAD else head - 10
    g = alignment[head]
    return g if g >= 0 else UNALIGNED


def official_scores(gold: ScoringFile, system: ScoringFile, alignment: list[int] | None = None) -> dict[str, Score]:
    """All official metrics for two files; ``alignment`` is :func:`eud.evaluate.align.align_words` output if known."""
    if alignment is None:
        alignment = align_words(gold.spans, system.spans)
    pairs = [(g, s) for s, g in enumerate(alignment) if g >= 0]
    n_gold, n_system, n_aligned = gold.n_words, system.n_words, len(pairs)
    is_content = _content_mask(gold)
    sys_content = _content_mask(system)
    sys_head = system_heads_in_gold(system, alignment)
    g_upos, s_upos = gold.upos, system.upos
    g_xpos, s_xpos = gold.xpos, system.xpos
    g_feats, s_feats = gold.feats, system.feats
    g_lemma, s_lemma = gold.lemma, system.lemma
    g_deprel, s_deprel = gold.deprel, system.deprel
    g_head = gold.head
    upos = xpos = feats = alltags = lemmas = uas = las = clas = mlas = blex = 0
    content_aligned = 0
    for g, s in pairs:
        upos_ok = g_upos[g] == s_upos[s]
        feats_ok = g_feats[g] == s_feats[s]
        upos += upos_ok
        feats += feats_ok
        if g_xpos[g] == s_xpos[s]:
            xpos += 1
            alltags += upos_ok and feats_ok
        lemma_ok = g_lemma[g] == "_" or g_lemma[g] == s_lemma[s]
        lemmas += lemma_ok
        if sys_head[s] == g_head[g]:
            uas += 1
            las_ok = g_deprel[g] == s_deprel[s]
        else:
            las_ok = False
        las += las_ok
        if is_content[g]:
            content_aligned += 1
            if las_ok:
                clas += 1
                blex += lemma_ok
                if upos_ok and feats_ok and _same_functional_children(gold, system, g, s, alignment):
                    mlas += 1
    n_gold_content = sum(is_content)
    n_sys_content = sum(sys_content)
    scores = {
        "Tokens": Score(
            matching_spans(gold.token_start, gold.token_end, system.token_start, system.token_end),
            len(gold.token_start), len(system.token_start),
        ),
        "Sentences": Score(
            matching_spans(gold.sent_start, gold.sent_end, system.sent_start, system.sent_end),
            len(gold.sent_start), len(system.sent_start),
        ),
        "Words": Score(n_aligned, n_gold, n_system),
        "UPOS": Score(upos, n_gold, n_system, n_aligned),
        "XPOS": Score(xpos, n_gold, n_system, n_aligned),
        "UFeats": Score(feats, n_gold, n_system, n_aligned),
        "AllTags": Score(alltags, n_gold, n_system, n_aligned),
        "Lemmas": Score(lemmas, n_gold, n_system, n_aligned),
        "UAS": Score(uas, n_gold, n_system, n_aligned),
        "LAS": Score(las, n_gold, n_system, n_aligned),
        "CLAS": Score(clas, n_gold_content, n_sys_content, content_aligned),
        "MLAS": Score(mlas, n_gold_content, n_sys_content, content_aligned),
        "BLEX": Score(blex, n_gold_content, n_sys_content, content_aligned),
    }
    elas, eulas = enhanced_scores(gold, system, pairs, alignment)
    scores["ELAS"] = elas
    scores["EULAS"] = eulas
    return {name: scores[name] for name in METRICS}


def _content_mask(file: ScoringFile) -> list[bool]:
    from eud.evaluate.data import CONTENT_DEPRELS

    return [d in CONTENT_DEPRELS for d in file.deprel]


def _same_functional_children(gold: ScoringFile, system: ScoringFile, g: int, s: int, alignment: list[int]) -> bool:
    gold_children = gold.functional_children[g]
    system_children = system.functional_children[s]
    if len(gold_children) != len(system_children):
        return False
    for gc, sc in zip(gold_children, system_children):
        if alignment[sc] != gc:
            return False
        if (gold.deprel[gc], gold.upos[gc], gold.feats[gc]) != (system.deprel[sc], system.upos[sc], system.feats[sc]):
            return False
    return True


def enhanced_scores(
    gold: ScoringFile, system: ScoringFile, pairs: list[tuple[int, int]], alignment: list[int]
) -> tuple[Score, Score]:
    """ELAS and EULAS counts over aligned word pairs (gold index, system index)."""
    n_gold = sum(len(d) for d in gold.deps)
    n_system = sum(len(d) for d in system.deps)
    elas = eulas = 0
    g_deps, s_deps = gold.deps, system.deps
    for g, s in pairs:
        gold_edges = g_deps[g]
        system_edges = s_deps[s]
        if not gold_edges or not system_edges:
            continue
        mapped = [(_map_head(h, alignment), label, ulabel) for h, label, ulabel in system_edges]
        for head, label, ulabel in gold_edges:
            if head < ROOT_HEAD:
                continue
            for shead, slabel, sulabel in mapped:
                if shead == head:
                    if slabel == label:
                        elas += 1
                    if sulabel == ulabel:
                        eulas += 1
    return Score(elas, n_gold, n_system), Score(eulas, n_gold, n_system)
