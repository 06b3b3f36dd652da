"""Correlates: which word of the full clause each remnant of a gapped clause stands for.

In *Mary won gold and Peter bronze* the gapped clause keeps two remnants,
*Peter* and *bronze*, and each contrasts with a *correlate* among the
dependents of the pronounced predicate *won*: *Peter* with *Mary* (nsubj),
*bronze* with *gold* (obj).  A remnant takes the relation its correlate has
(https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis),
so finding correlates is how :class:`~eud.gapping.rule.Gapping` labels the
remnants it hangs from the restored predicate.

:func:`pair_score` says how well one remnant fits one correlate from what the
basic tree shows: part-of-speech class, case and mark words, the ``Case``
feature (a different Case rules a pair out; function words pair only with
function words, an expletive only with the same word), the UPOS, the lemma (the form where the lemma is
missing; not for proper names, as a name repeated with another role is no contrast), and what a language's
profile adds (:class:`Pairing`): the ``Person`` feature (a first- or second-person pronoun is shared by both
clauses rather than contrasted with a noun) and pairs of words made to contrast (*some ... others*).
:func:`align` then matches remnants with
correlates one to one, maximising the summed scores while keeping the two
clauses' word order (each crossed pair costs), by exhaustive search (greedy
beyond :data:`SEARCH_LIMIT` candidate alignments).  The label follows from the
correlate (:func:`label_from_correlate`) or, for a remnant left without one,
from the remnant alone (:func:`label_from_form`).

It cannot find correlates outside the predicate's own dependents (inside a
complement, say), and bare nominals with no case and no marker score alike
with every nominal correlate: relative order alone decides between them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from eud.graph import Sentence, Word

NOMINAL = {"NOUN", "PROPN", "PRON", "NUM", "DET", "SYM", "X"}
# Core relations: a bare nominal remnant with no correlate may take a spare one.
CORE = {"nsubj", "obj", "iobj"}
# Cases that can mark a core argument (no Case at all counts too).
STRUCTURAL = {None, "Nom", "Acc", "Gen", "Par"}
# Correlates that are function words.
FUNCTION = {"aux", "cop", "det", "case", "mark", "clf"}
FUNCTION_UPOS = {"AUX", "ADP", "SCONJ", "DET", "PART", "CCONJ"}
# Basic subtypes that say something other than the case marker, so they carry
# over to the remnant (the case rule re-derives the others).
KEPT_SUBTYPES = {"pass", "arg", "agent", "prt", "poss", "cop", "preconj", "xsubj", "relcl", "outer"}
# Above this many candidate alignments, alignment is greedy, not exhaustive.
SEARCH_LIMIT = 50_000
# Added to a pair whose lemmas a language makes contrast (Pairing.contrasts), as much as matching markers.
CONTRAST_BONUS = 3.0


@dataclass(frozen=True)
class Pairing:
    """What a language's profile adds to :func:`pair_score` (its ``[gapping]`` table, via the gapping Style)."""

    # Subtracted when a remnant that is no pronoun pairs with a first- or second-person pronoun.
    person_cost: float = 0.0
    # Lowercased lemma pairs that contrast with each other (*some ... others*, *one ... the other*).
    contrasts: frozenset[frozenset[str]] = field(default_factory=frozenset)
    # Lowercased lemmas of pronouns that cannot carry contrast (English *it*): only the same lemma pairs with them.
    unstressed: frozenset[str] = frozenset()

    def contrast(self, remnant: Word, correlate: Word) -> bool:
        """Whether the two words' lemmas are one of the language's contrasting pairs."""
        return bool(self.contrasts) and frozenset((_lemma(remnant), _lemma(correlate))) in self.contrasts

    def unfocused(self, remnant: Word, correlate: Word) -> bool:
        """Whether ``correlate`` is a pronoun that cannot contrast with ``remnant``: one the language cannot stress."""
        return correlate.upos == "PRON" and _lemma(correlate) in self.unstressed and _lemma(remnant) != _lemma(correlate)


NEUTRAL = Pairing()


def pos_class(word: Word) -> str:
    """A coarse part-of-speech class for matching remnants with correlates."""
    if word.upos in NOMINAL:
        return "N"
    if word.upos in ("VERB", "AUX"):
        return "V"
    return word.upos


def phrase_class(tree: BasicTree, word: Word) -> str:
    """:func:`pos_class`, with an adjective that heads a noun phrase of its own counted as nominal.

    In *one of which hybridizes to C beta 1 and the other to the C beta 2 gene*, *the third for
    relief* or *most of the rest to the people ...* the adjective stands for an elided noun, as
    its determiner or its nominal modifier shows: it contrasts with a nominal (*one*).
    """
    if word.upos == "ADJ":
        words = tree.sentence.words
        if any(words[c - 1].udeprel in ("det", "nmod") for c in tree.children[word.id]):
            return "N"
    return pos_class(word)


class BasicTree:
    """Basic children lists and the case/mark words of each word."""

    __slots__ = ("children", "markers", "sentence")

    def __init__(self, sentence: Sentence) -> None:
        self.sentence = sentence
        self.children = sentence.basic_children()
        self.markers: dict[int, tuple[str, ...]] = {}

    def span(self, i: int, stop: set[int], skip_cc: bool = False) -> tuple[int, int]:
        """First and last word of ``i``'s phrase: its subtree minus punctuation and the subtrees of ``stop``."""
        words = self.sentence.words
        lo = hi = i
        todo = [i]
        while todo:
            for c in self.children[todo.pop()]:
                if c in stop or words[c - 1].upos == "PUNCT" or (skip_cc and words[c - 1].udeprel == "cc"):
                    continue
                lo, hi = min(lo, c), max(hi, c)
                todo.append(c)
        return lo, hi

    def subtree(self, i: int, stop: set[int]) -> set[int]:
        """Word ``i`` and its descendants, minus the subtrees of ``stop``."""
        out = {i}
        todo = [i]
        while todo:
            for c in self.children[todo.pop()]:
                if c not in stop:
                    out.add(c)
                    todo.append(c)
        return out

    def marker(self, i: int) -> tuple[str, ...]:
        """Lowercased lemmas of word ``i``'s case and mark children (its 'preposition')."""
        if i not in self.markers:
            words = self.sentence.words
            self.markers[i] = tuple(
                (words[c - 1].lemma if words[c - 1].lemma != "_" else words[c - 1].form).lower()
                for c in self.children[i]
                if words[c - 1].udeprel in ("case", "mark") and not possessive(words[c - 1])
            )
        return self.markers[i]


def possessive(word: Word) -> bool:
    """A possessive clitic tagged case (English *'s*, PART): it stands for an elided head noun, not an adposition.

    *Merck's profit climbed 25%, Warner-Lambert's 22%*: the remnant is the subject.
    """
    return word.udeprel == "case" and word.upos == "PART"


def pair_score(tree: BasicTree, remnant: Word, correlate: Word, *, pairing: Pairing = NEUTRAL) -> float:
    """How well a remnant fits a correlate: higher is better, below 0 means no match.

    ``pairing.person_cost`` is subtracted when the correlate is a first- or second-person pronoun
    and the remnant no pronoun: where a language's profile says so (``[gapping] person_cost``), the
    speaker and the hearer are taken to be shared by both clauses rather than contrasted with a
    noun (*Paul has informed me that ...; Ives that ...*: *Ives* / *Paul*, not *me*).  A pair of
    lemmas the profile makes contrast (``[gapping] contrasts``: *Some date it from X, others from
    Y*) adds :data:`CONTRAST_BONUS`.  A pronoun the language cannot stress (``[gapping] unstressed``,
    English *it*) pairs with no remnant but one of its own lemma: contrast needs stress.
    """
    rc, cc = remnant.feat("Case"), correlate.feat("Case")
    if rc and cc and rc != cc:
        return -10.0  # different cases do different jobs
    if correlate.udeprel in FUNCTION and (remnant.upos != correlate.upos or remnant.upos not in FUNCTION_UPOS):
        return -10.0  # function words only correlate with function words
    if correlate.udeprel == "expl" and _lemma(remnant) != _lemma(correlate):
        return -10.0  # an expletive has no meaning to contrast with (*there is error, and in our error, truth*)
    if pairing.unfocused(remnant, correlate):
        return -10.0  # nor has an unstressable pronoun the stress contrast needs (*It may be X, but Y in March*)
    score = 2.0 if phrase_class(tree, remnant) == phrase_class(tree, correlate) else -1.5
    if remnant.upos == correlate.upos:
        score += 0.5  # a name parallels a name, a common noun a common noun (*gave Mary a book and Sue a pen*)
    rm, cm = tree.marker(remnant.id), tree.marker(correlate.id)
    if rm and cm:
        score += 3.0 if rm == cm else 0.5
    elif rm and correlate.udeprel in CORE | {"csubj", "expl"}:
        score -= 4.0  # an adpositional phrase is hardly a subject or object
    elif rm or cm:
        score -= 1.5
    else:
        score += 0.5
    if rc and cc:
        score += 2.5
    elif cc not in STRUCTURAL and phrase_class(tree, remnant) == "N" and not rm:
        score -= 0.5  # a bare caseless nominal is more likely an argument than a locative
    if remnant.upos != "PROPN" and _lemma(remnant) == _lemma(correlate):
        score += 1.5  # the same verb or noun; the same name is no contrast (*Ann trust Ben, or Ben Ann*)
    if (pairing.person_cost and correlate.upos == "PRON" and correlate.feat("Person") in ("1", "2")
            and remnant.upos != "PRON"):
        score -= pairing.person_cost
    if pairing.contrast(remnant, correlate):
        score += CONTRAST_BONUS
    return score


def _lemma(word: Word) -> str:
    """The lemma, or the lowercased form where the lemma is missing (``_``)."""
    return (word.lemma if word.lemma != "_" else word.form).lower()


def align(tree: BasicTree, remnants: list[Word], correlates: list[Word], *,
          skip_penalty: float = 0.0, costs: list[float] | None = None,
          aside: set[int] | None = None, pairing: Pairing = NEUTRAL) -> list[Word | None]:
    """Match each remnant with at most one correlate, keeping word order where possible.

    Maximises the sum of :func:`pair_score` (plus up to 0.5 for a similar
    relative position) minus 1.5 per pair of remnants whose correlates come in
    the opposite order, by exhaustive search (greedy beyond
    :data:`SEARCH_LIMIT`).  A pair scoring below 0 is never made, so a remnant
    with no compatible correlate is left unmatched (None).  ``skip_penalty``
    is subtracted for every correlate left out between the first and the last
    matched one, so that the remnants pair with a run of adjacent correlates
    (English *promote TPA for X and streptokinase for Y*: the object and the
    oblique, the subject being shared, rather than subject and oblique);
    function words (:data:`FUNCTION` relations, which only a function word
    can match) do not count as skipped: in *Tom is expected to win gold in
    Oslo and Kim in Rome* the run Tom ... Oslo skips only *gold*, not *is*
    and *to*; nor do the correlates whose ids are in ``aside`` (modifiers of a
    correlate, which are not in the clause's run).  ``costs`` (one per
    correlate) are subtracted from the pairs made with them, down to 0 (the
    gapping rule's correlates below the antecedent); ``pairing`` goes to
    :func:`pair_score`.
    """
    n, m = len(remnants), len(correlates)
    scores = [[pair_score(tree, r, c, pairing=pairing) for c in correlates] for r in remnants]
    if costs is not None:
        scores = [[max(s - cost, 0.0) if s >= 0 else s for s, cost in zip(row, costs)] for row in scores]
    # countable[j]: how many correlates before the j-th would count as skipped.
    aside = aside or set()
    counts = [c.udeprel not in FUNCTION and c.id not in aside for c in correlates]
    countable = [0]
    for count in counts:
        countable.append(countable[-1] + count)
    # Break ties by relative position: the first remnant with the first correlate, ...
    for i in range(n):
        for j in range(m):
            if scores[i][j] >= 0:
                scores[i][j] += 0.5 * (1 - abs(i / max(n - 1, 1) - j / max(m - 1, 1)))
    if (m + 1) ** n > SEARCH_LIMIT:
        return _greedy(scores, correlates)
    best_total = 0.0
    best: list[int | None] = [None] * n
    chosen: list[int | None] = []

    def search(i: int, total: float) -> None:
        nonlocal best_total, best
        if i == n:
            picked = [j for j in chosen if j is not None]
            if skip_penalty and picked:
                lo, hi = min(picked), max(picked)
                skipped = countable[hi + 1] - countable[lo] - sum(counts[j] for j in picked)
                total -= skip_penalty * skipped
            if total > best_total:
                best_total, best = total, list(chosen)
            return
        chosen.append(None)
        search(i + 1, total)
        chosen.pop()
        for j in range(m):
            if scores[i][j] < 0 or j in chosen:
                continue
            inversions = sum(1 for k in chosen if k is not None and k > j)
            chosen.append(j)
            search(i + 1, total + scores[i][j] - 1.5 * inversions)
            chosen.pop()

    search(0, 0.0)
    return [correlates[j] if j is not None else None for j in best]


def _greedy(scores: list[list[float]], correlates: list[Word]) -> list[Word | None]:
    """Best-scoring pairs first; for alignments too large to search."""
    n, m = len(scores), len(correlates)
    pairs = sorted(((i, j) for i in range(n) for j in range(m)), key=lambda ij: (-scores[ij[0]][ij[1]], ij))
    out: list[Word | None] = [None] * n
    used: set[int] = set()
    for i, j in pairs:
        if scores[i][j] >= 0 and out[i] is None and j not in used:
            out[i] = correlates[j]
            used.add(j)
    return out


def alignment_score(tree: BasicTree, remnants: list[Word], matched: list[Word | None], *,
                    pairing: Pairing = NEUTRAL) -> float:
    """The summed :func:`pair_score` of an alignment (unmatched remnants add nothing)."""
    return sum(max(pair_score(tree, r, c, pairing=pairing), 0.0)
               for r, c in zip(remnants, matched) if c is not None)


def label_from_correlate(correlate: Word, remnant: Word | None = None) -> str:
    """The correlate's relation, minus subtypes the case rule will re-derive.

    With the ``remnant``, a modifier's relation follows the remnant's own
    category, as UD relations do (``obl`` for a nominal, ``advcl`` for a
    clause, https://universaldependencies.org/u/dep/): *convicted in Florida
    of selling securities* (advcl) *and in California of unlawful use* (obl);
    *date it from woman suffrage* (obl), *others from when women began* (advcl).
    """
    udeprel, _, sub = correlate.deprel.partition(":")
    if remnant is not None and udeprel == "advcl" and pos_class(remnant) == "N":
        return "obl"
    if remnant is not None and udeprel == "obl" and pos_class(remnant) == "V":
        return "advcl"
    return f"{udeprel}:{sub}" if sub in KEPT_SUBTYPES else udeprel


def label_from_form(tree: BasicTree, remnant: Word, nominal_rank: int) -> str:
    """A label guessed from the remnant alone, used when it has no correlate.

    ``nominal_rank`` is how many bare nominal remnants come before this one:
    the first is taken for a subject, later ones for objects.
    """
    cls = phrase_class(tree, remnant)
    case = remnant.feat("Case")
    # An adposition makes a nominal oblique; a subordinator (*because spring*) does not.
    words = tree.sentence.words
    marked = any(words[c - 1].udeprel == "case" and not possessive(words[c - 1]) for c in tree.children[remnant.id])
    if remnant.upos == "ADV" or remnant.upos == "PART":
        return "advmod"
    if remnant.upos == "ADP":
        return "obl"  # an adposition whose nominal is elided too (*buy stops above*) stands for an oblique
    if remnant.upos == "AUX":
        return "cop"  # a remnant auxiliary is mostly a copula whose predicate is elided
    if cls == "V":
        # A non-finite verb complements the verb, unless a subordinator or a
        # case ending makes it adverbial.
        subordinated = any(
            words[c - 1].udeprel == "mark" and words[c - 1].upos == "SCONJ" for c in tree.children[remnant.id]
        )
        nonfinite = remnant.feat("VerbForm") in ("Inf", "Part", "Ger")
        return "xcomp" if nonfinite and not subordinated and not case else "advcl"
    if cls == "ADJ":
        # A predicative adjective, unless an adposition or a semantic case makes it adverbial.
        return "xcomp" if not marked and case in STRUCTURAL else "obl"
    if marked:
        return "obl"
    if case in ("Nom",):
        return "nsubj"
    if case in ("Acc",):
        return "obj"
    if case in ("Dat",):
        return "iobj"
    if case == "Par":
        return "obj"  # Finnic partitive objects
    if case and case != "Gen":
        return "obl"
    return "nsubj" if nominal_rank == 0 else "obj"
