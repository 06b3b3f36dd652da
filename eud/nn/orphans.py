"""Keep ``orphan`` only where a predicate can have been elided.

UD (https://universaldependencies.org/u/overview/specific-syntax.html#ellipsis)
uses ``orphan`` for a dependent of an elided predicate: the most oblique
remnant is promoted to the predicate's place and hangs, usually by ``conj``
or ``parataxis``, from the predicate of the full clause, its *antecedent*.
A parser that learnt gapping from a few hundred sentences also posits
``orphan`` inside lists of nouns (*skis for the front and tracks for the
back*), where nothing verbal is missing, and every such orphan becomes a
false empty node downstream.

An antecedent counts as a predicate when it is a VERB or AUX, or when it has
a subject, copula, auxiliary or expletive of its own (*she is a teacher and
he a doctor*: the noun *teacher* heads a copular clause).  In the GAPPING
corpus 291 of 303 orphans meet this, in EWT train 25 of 27; GUM annotates
nominal ellipsis with ``orphan`` more freely (26 of 87 fail).

The promoted remnant itself must hang from its antecedent by ``conj`` or
``parataxis`` (GAPPING train: 207 of 208).

Not handled: a predicate recognisable only by meaning (a verbless headline);
gapping under a root remnant or in subordinate clauses (``advcl``), which
this demotes (2 of 303 GAPPING orphans).

A second check, :func:`demote_without_correlates`, asks what gapping means: each
remnant contrasts with a *correlate*, a dependent of the antecedent
(:mod:`eud.enhance.correlates`; *Mary* with *John*, *a pear* with *an apple*).
Lists and afterthoughts have remnants with nothing to contrast with (*do
banners, billboards and lots more*; *clean, but just a little dumpy*).  A
gapped clause is undone when two or more of its remnants have no correlate,
when it has two remnants and the promoted one has none, or when its promoted
remnant is a conjunct of a nominal argument (*Kids put rocks and bugs in
these*) and another remnant has none.  On gold orphan trees this undoes 15
of 184 gapped clauses of GAPPING train, 4 of 87 of GAPPING dev and 23 of 67
of GUM train (``python eval/orphan_checks.py``).
"""

from __future__ import annotations

from eud.enhance.gapping import Alignment, Gapping
from eud.graph import Sentence

PREDICATE_MARKERS = frozenset({"nsubj", "csubj", "cop", "aux", "expl"})
ARGUMENTS = frozenset({"nsubj", "obj", "iobj", "obl"})
# How a promoted remnant joins the full clause (GAPPING train: 198 of 208 conj, 9 parataxis).
REMNANT_RELATIONS = frozenset({"conj", "parataxis"})


def is_predicate(sentence: Sentence, word_id: int, children: dict[int, list[int]]) -> bool:
    """Whether word ``word_id`` can head a clause: a verb, or a word with a subject, copula, auxiliary or expletive."""
    word = sentence.word(word_id)
    if word.upos in ("VERB", "AUX"):
        return True
    return any(sentence.word(c).deprel.split(":")[0] in PREDICATE_MARKERS for c in children.get(word_id, ()))


def has_antecedent(sentence: Sentence, attached_to: int, children: dict[int, list[int]]) -> bool:
    """Whether a promoted remnant attached to ``attached_to`` has a predicate to stand in for.

    Either that word is a predicate, or it is an argument of a predicate with
    a subject of its own: parsers often hang the promoted remnant on the
    correlate's neighbour (*ate an apple and Mary a pear*, *Mary* under *apple*).
    """
    if is_predicate(sentence, attached_to, children):
        return True
    word = sentence.word(attached_to)
    if not word.head or word.deprel.split(":")[0] not in ARGUMENTS:
        return False
    governor = word.head
    return sentence.word(governor).upos in ("VERB", "AUX") and any(
        sentence.word(c).deprel.split(":")[0] in ("nsubj", "csubj") for c in children.get(governor, ()))


def demote_orphans(sentence: Sentence, fallback: list[str]) -> int:
    """Relabel ``orphan`` dependents whose remnant has no predicate antecedent; returns how many changed.

    ``fallback[i]`` is the relation word i+1 gets instead (the parser's best
    label other than ``orphan``).
    """
    children: dict[int, list[int]] = {}
    for i, w in enumerate(sentence.words, 1):
        if w.head is not None:
            children.setdefault(w.head, []).append(i)
    changed = 0
    for i, w in enumerate(sentence.words, 1):
        if w.deprel != "orphan" or not w.head:
            continue
        remnant = sentence.word(w.head)
        if (remnant.head and remnant.deprel.split(":")[0] in REMNANT_RELATIONS
                and has_antecedent(sentence, remnant.head, children)):
            continue
        w.deprel = fallback[i - 1]
        changed += 1
    return changed


def lacks_correlates(clause: Alignment) -> bool:
    """Whether a gapped clause's remnants contrast with too little of the full clause to be gapping."""
    unmatched = sum(c is None for c in clause.correlates)
    promoted_alone = clause.correlates[clause.remnants.index(clause.promoted)] is None and len(clause.remnants) == 2
    # A conjunct of a nominal argument is a gapped clause only if the other remnants contrast
    # with the verb's other dependents; else it is a coordinated noun phrase (*put rocks and bugs in these*).
    return unmatched >= 2 or promoted_alone or (clause.lifted and unmatched > 0)


def demote_without_correlates(sentence: Sentence, fallback: list[str], gapping: Gapping) -> int:
    """Relabel the orphans of gapped clauses whose remnants lack correlates; returns how many changed.

    ``gapping`` finds the correlates as it would to build the empty node.  Undoing one
    clause can change another's (an inner clause hangs on an outer one), so this repeats
    until every remaining clause passes.
    """
    changed = 0
    for _ in range(len(sentence.words)):
        failing = [clause for clause in gapping.alignments(sentence) if lacks_correlates(clause)]
        if not failing:
            break
        for clause in failing:
            for r in clause.remnants:
                if r is not clause.promoted and r.deprel == "orphan":
                    r.deprel = fallback[r.id - 1]
                    changed += 1
    return changed
