"""The correlates AGRR names as ``cR1`` and ``cR2``: which word of the full clause each remnant contrasts with.

AGRR-2019 (https://github.com/dialogue-evaluation/AGRR-2019) pairs each remnant of a gapped
clause with its correlate in the full clause (*Маша купила яблоки, а Петя — груши*: *Петя* with
*Маша*, *груши* with *яблоки*).  eud's enhanced graph does not mark correlates (the UD ellipsis
guideline, https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis, copies
only the elided verb), so they are chosen here for the first remnant of ``R1`` and of ``R2``
(:func:`correlates`).  The candidates (:func:`candidates_of`) are the copied word's dependents,
the dependents of an infinitive it governs, a copula clause's predicate, the nominal modifiers of
all these, and a noun's instrumental adjective that does not agree with it (a secondary
predicate, *считает брата умным*: :func:`secondary_predicate`).  The pairs are chosen together to
maximise their :func:`fit`, the sum of numeric costs and bonuses (:data:`ORDER_COST` …
:data:`ANTECEDENT_MARGIN`, which ``eval.agrr.crossval`` cross-validates by patching them in this
module).  The same score picks the verb the gapped clause shares when the parser hung it from
the wrong one (:func:`antecedent_verb`).

How far each correlate's phrase reaches is :mod:`eud.agrr.correlate_spans`.
"""

from __future__ import annotations

import dataclasses
import itertools

from eud.agrr.correlate_spans import degree
from eud.agrr.verb import predicate_of
from eud.gapping.correlates import BasicTree, pair_score
from eud.graph import Word

# How a remnant's fit with a candidate correlate is scored (see correlates()):
ORDER_COST = 6.0  # a pair of correlates in the opposite order to their remnants
CASE_COST = 2.0  # a Case mismatch (the tags are predicted)
FORM_BONUS = 3.0  # the same form
ENDING_BONUS = 1.5  # the same last two letters
ADVERB_COST = 3.0  # an adverb or particle for a remnant that is neither
PERSONAL_COST = 3.0  # a personal pronoun for a remnant that is no pronoun
NESTED_COST = 3.0  # a noun's nominal modifier
DISTANCE_COST = 0.15  # per word between the candidate and the verb
UNMATCHED_COST = 5.0  # a remnant left without a correlate (when a verb is compared with another, antecedent_verb())
ANTECEDENT_MARGIN = 10.0  # how much better another verb's correlates must fit than the copied verb's (antecedent_verb())

# Dependents of the copied word that are never correlates.
NOT_CANDIDATE = {"punct", "cc", "conj", "aux", "cop", "mark", "case", "parataxis", "orphan", "root",
                 "discourse", "fixed", "flat", "goeswith", "reparandum", "expl"}


def candidates_of(tree: BasicTree, source: Word, remnants: list[Word]) -> list[Word]:
    """The words of the full clause that can be a remnant's correlate (see :func:`correlates`)."""
    words = tree.sentence.words
    base = predicate_of(tree.sentence, source)
    first = min(r.id for r in remnants)
    taken = {r.id for r in remnants} | {source.id}
    out = [words[c - 1] for c in tree.children[base.id]]
    # The arguments of an infinitive the verb governs (*можно превратить пузо в живот*).
    out += [words[d - 1] for c in out if c.udeprel in ("xcomp", "csubj") and c.upos == "VERB"
            for d in tree.children[c.id]]
    # A noun's nominal modifier (*уровень зарплат вырос ..., пенсий - ...*), and an instrumental adjective after
    # it in another case, which cannot be its attribute: a secondary predicate (*считает брата умным*).
    out += [words[d - 1] for c in out if c.upos in ("NOUN", "PROPN", "PRON", "NUM")
            for d in tree.children[c.id] if words[d - 1].udeprel == "nmod" or secondary_predicate(words, c, d)]
    # An adverb of degree before an adjective or adverb grades it and contrasts with nothing itself (degree():
    # *слишком долгим*); before a preposition or number it may head the phrase (*приблизительно до 1/4*).
    out = [c for c in out if c.id not in taken and c.id < first and c.udeprel not in NOT_CANDIDATE
           and c.upos not in ("PUNCT", "CCONJ", "SCONJ", "ADP")
           and not (degree(tree, c.id) and words[c.id].upos in ("ADJ", "ADV"))]
    if base is not source and base.id < first:
        out.append(base)  # the predicate of a copula clause, whatever its relation (root, conj, ...)
    return out


def secondary_predicate(words: list[Word], noun: Word, d: int) -> bool:
    """Whether word ``d``, hung from ``noun`` as ``amod``, is an instrumental adjective after it that does not agree in case.

    A Russian attribute agrees with its noun in case; an instrumental
    adjective after a noun in another case is a secondary predicate of the
    verb that the parser hung from the noun (*считает брата | умным, а
    сестру — глупой*), and contrasts with a remnant like any argument.
    """
    adjective = words[d - 1]
    return (adjective.udeprel == "amod" and adjective.upos == "ADJ" and d > noun.id
            and adjective.feat("Case") == "Ins" and noun.feat("Case") not in (None, "Ins"))


def tagged_pair_score(tree: BasicTree, remnant: Word, candidate: Word) -> float:
    """:func:`~eud.gapping.correlates.pair_score`, with a Case mismatch costing :func:`case_cost` instead of ruling the pair out.

    The Case tags are predicted, and Russian syncretism (an inanimate
    accusative like a nominative) makes them miss often; the part of speech,
    the preposition and the lemma still count.  Any other mismatch (a
    function word) scores -3.
    """
    score = pair_score(tree, remnant, candidate)
    rc, cc = remnant.feat("Case"), candidate.feat("Case")
    if score <= -10 and rc and cc and rc != cc:
        caseless = "|".join(f for f in candidate.feats.split("|") if not f.startswith("Case=")) or "_"
        score = pair_score(tree, remnant, dataclasses.replace(candidate, feats=caseless)) - case_cost(remnant, candidate)
    return -3.0 if score <= -10 else score


def case_cost(remnant: Word, candidate: Word) -> float:
    """What a Case mismatch costs: nothing for nominative against accusative, which Russian often spells alike.

    An inanimate masculine or neuter singular, and every inanimate plural,
    has the same form in both cases (*все*, *сердце*, *Шанырак*), so a
    tagger's nominative may well be an accusative.
    """
    if {remnant.feat("Case"), candidate.feat("Case")} == {"Nom", "Acc"} and "Anim" not in (
            remnant.feat("Animacy"), candidate.feat("Animacy")):
        return 0.0
    return CASE_COST


def form_match(remnant: Word, candidate: Word) -> float:
    """A bonus for the same form, or the same inflectional ending, which predicted Case tags can miss.

    *Кому-то в этом помогает Земфира, кому-то ...*: the same pronoun;
    *Мир был юным, а будущее – предельным*: the same ending *-ым*.
    """
    a, b = remnant.form.lower(), candidate.form.lower()
    if a == b:
        return FORM_BONUS
    if len(a) > 3 and len(b) > 3 and a[-2:] == b[-2:] and a.isalpha() and b.isalpha():
        return ENDING_BONUS
    return 0.0


def personal(word: Word) -> bool:
    """Whether a word is a personal pronoun (*я*, *она*, *нас*): a pronoun with a Person feature."""
    return word.upos == "PRON" and word.feat("Person") is not None


def fit(tree: BasicTree, source: Word, remnant: Word, candidate: Word) -> float:
    """How well a remnant fits a candidate correlate (see :func:`correlates`)."""
    score = tagged_pair_score(tree, remnant, candidate) + form_match(remnant, candidate)
    if candidate.upos in ("ADV", "PART") and remnant.upos not in ("ADV", "PART"):
        score -= ADVERB_COST  # "сначала", "не": adverbs contrast with adverbs
    if personal(candidate) and remnant.upos != "PRON":
        score -= PERSONAL_COST  # "Определение переменных мы рассмотрим в разделе 3.4, а команду MOV — в 3.2": shared
    if candidate.udeprel == "nmod":
        score -= NESTED_COST
    return score - DISTANCE_COST * abs(candidate.id - source.id)


def correlates(tree: BasicTree, source: Word, remnants: list[Word]) -> list[Word | None]:
    """The correlate of each remnant in the full clause (None only when there is no candidate).

    Candidates (:func:`candidates_of`) are the dependents of the copied word
    (of its predicate, and that predicate itself, when the copied word is a
    copula) and of an infinitive it governs (``xcomp``, ``csubj``), and the
    ``nmod`` dependents of nominal ones, that stand before the first remnant
    and are not function words, punctuation or other clauses.  Each remnant
    takes a different candidate; the pairs are chosen together to maximise
    their :func:`fit`: :func:`eud.gapping.correlates.pair_score`, where a
    Case mismatch costs :data:`CASE_COST` (nothing between nominative and
    accusative, :func:`case_cost`) rather than ruling the pair out (the tags
    are predicted: :func:`tagged_pair_score`), plus :data:`FORM_BONUS` for
    the same form or :data:`ENDING_BONUS` for the same last two letters
    (:func:`form_match`), minus :data:`ADVERB_COST` for an adverb or
    particle when the remnant is neither, minus :data:`PERSONAL_COST` for a
    personal pronoun when the remnant is no pronoun (such a subject is
    mostly shared by both clauses), minus :data:`NESTED_COST` for a noun's
    nominal modifier, minus :data:`DISTANCE_COST` per word between the
    candidate and the verb; and :data:`ORDER_COST` is subtracted when the
    correlates come in the opposite order to the remnants.  AGRR always names
    a correlate, so a remnant is never left without one while a candidate is
    free.
    """
    return best_pairs(tree, source, remnants)[1]


def best_pairs(tree: BasicTree, source: Word, remnants: list[Word]) -> tuple[float, list[Word | None]]:
    """:func:`correlates` with its score: the sum of the pairs' :func:`fit`, the order cost, and :data:`UNMATCHED_COST` per remnant left without a correlate."""
    candidates = candidates_of(tree, source, remnants)
    best: tuple[float, list[Word | None]] = (-UNMATCHED_COST * len(remnants), [None] * len(remnants))
    if not candidates:
        return best
    best = (float("-inf"), best[1])
    for combo in itertools.permutations(candidates + [None] * len(remnants), len(remnants)):
        if all(c is None for c in combo) or any(c is None for c in combo) and len(candidates) >= len(remnants):
            continue
        total = sum(fit(tree, source, r, c) if c is not None else -UNMATCHED_COST for r, c in zip(remnants, combo))
        placed = [c.id for c in combo if c is not None]
        total -= ORDER_COST * sum(1 for a, b in itertools.combinations(placed, 2) if a > b)
        if total > best[0]:
            best = (total, list(combo))
    return best


def antecedent_verb(tree: BasicTree, source: Word, remnants: list[Word]) -> tuple[Word, list[Word | None]]:
    """The verb the gapped clause shares, and the remnants' correlates among its dependents (:func:`correlates`).

    That is the copied verb, unless another verb's dependents parallel the remnants far better.
    The parser can hang the gapped clause from the wrong verb: *Для женщины
    добавьте 4 капли эфира (он … стимулирует удовольствие), а для мужчины -
    3 капли*, where the gapping rule copies *стимулирует*.  The remnants
    contrast with the full clause's dependents, so a verb before the gapped
    clause whose dependents make correlates scoring :data:`ANTECEDENT_MARGIN`
    more (:func:`best_pairs`) is taken instead.
    """
    first = min(r.id for r in remnants)
    score, matched = best_pairs(tree, source, remnants)
    best, score = (source, matched), score + ANTECEDENT_MARGIN
    for verb in tree.sentence.words[:first - 1]:
        if verb.upos == "VERB" and verb is not source:
            total, pairs = best_pairs(tree, verb, remnants)
            if total > score:
                best, score = (verb, pairs), total
    return best
