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
when it has two remnants and the promoted one has none, when its promoted
remnant is a conjunct of a nominal argument (*Kids put rocks and bugs in
these*) and another remnant has none, and when the promoted remnant repeats
the antecedent's lemma (*the name of a town, and the name of an island*
coordinates a word with itself; nothing was elided).  A relative pronoun
counts as no correlate: it stands for the noun it hangs under (*men such as
Hobhouse, who initiated him into the club, and Francis Hodgson, a Fellow*).
On gold orphan trees this undoes 15 of 184 gapped clauses of GAPPING train,
4 of 87 of GAPPING dev, 5 of 26 of EWT train and 25 of 67 of GUM train
(``python eval/orphan_checks.py``).  A clause is also undone when two or more
remnants are marked by other adpositions or subordinators than their
correlates (:func:`unparallel`): contrasting phrases mirror each other (*to
Paris* / *to Rome*), list members need not.  That costs 3 more GUM train
clauses and none of the other files.  And it is undone when an orphan's
correlate is an adjectival modifier, or a nominal modifier whose adposition the
orphan does not mirror (:func:`inside_noun_phrase`): with no dependent of the elided
predicate to contrast with, the remnant reached inside a noun phrase, and the clause is a
list (*the old guards, and the dogs outside*; *degrees from Columbia University in New
York, ..., and the Sorbonne in Paris*).  That costs 2 more GAPPING train
clauses (one contrasts *below* with *above*).  It is undone, too, when its promoted remnant has a copula of its own
(:func:`has_copula`): it heads a copular clause, whose predicate is all there
(*and this is my couch over here*).  No gold clause of the GAPPING corpus has
one, and 1 of the 1,234 gold promoted remnants of all the UD files here (in
sv_lines).  And so is a two-remnant clause whose orphan is an
infinitive or gerund with no correlate and no subordinator of its own
(:func:`nonfinite_modifier`): it modifies the promoted remnant (*another $1500
to fix some other things*).  None of the gapped clauses the English package
finds in the GAPPING corpus from gold tokens has one (its gold trees carry no
FEATS); 1 of EWT train's 26 gold clauses does, a comparative that lacks
correlates anyway (*than she is to see me*).  And a lifted clause is undone
when its promoted remnant closes a list, the nominal it hangs on having
other conjuncts before it (:func:`list_member`: *via Funding, Smith Barney
and Hanifen, Imhoff Inc.*); gold orphan trees are never lifted, and none of
the clauses the English package finds in GAPPING train is of that shape.
Last among the shape checks, a clause right after which comes a finite verb
without a subject is undone (:func:`followed_by_predicate`): that verb is the
clause's own, and the "remnants" its subject (*and the Vienna Centre ... and an
office ... were established*); it needs FEATS, and no gold clause of EWT or
GUM train, nor any the English package finds in GAPPING train and dev, has one.
Last, a clause whose promoted remnant comes right after its correlate across the
conjunction, with orphans that have nothing after that correlate to contrast with and
mirror no phrase of the full clause, is a coordination of two phrases and what modifies
them (:func:`coordinated_phrases`: *in northeastern India and in the Andaman Sea for a
long time*).  No gold clause of the GAPPING corpus or EWT train has that shape; one of GUM
train's does (*done by post or in person at the Cuban embassy in London*, which fails the
other checks too).  So is a clause whose promoted remnant, paired with another correlate,
comes right after a like phrase of the full clause, and whose orphans are adpositional
phrases contrasting with nothing (*bought a hot dog and a coke at the bar*); no gold clause
of the GAPPING corpus, EWT or GUM train has that shape either.  A clause with an auxiliary
remnant paired with an auxiliary or copula is verb phrase ellipsis, whose auxiliary UD makes
the head (:func:`auxiliary_remnant`: *Either a thing will happen or it won't*); one gold
clause of GUM train keeps a copula as an orphan (*which almost everything on Earth is and
almost everything in the LLM model probably is*), none of the GAPPING corpus or EWT.

Two kinds of orphan are no remnant at all, and :func:`stray_orphans` hands
them back to the parser's other choice before the clause is judged: an orphan
across a bracket from the promoted remnant, inside brackets that do not hold
it (a citation or an aside: *may even be the norm [16]*) or outside brackets
that do (a clause does not straddle a bracket), or a parenthetical that commas
set off before the promoted remnant with nothing to contrast with (*or, in fact,
productive multitasking*); in a clause with another orphan, an afterthought: the
last phrase, after a comma, with nothing to contrast with (*..., via Salomon
Brothers Inc.*: it modifies the whole coordination); and, in a clause with no
other orphan, an adverb or particle that contrasts with nothing and comes before
the promoted remnant (it modifies that remnant: *but for only a limited period*).
Gold orphan trees lose 1 of 208 GAPPING train orphans to it, 2 of GAPPING dev's
95 (afterthoughts: *between three and ten* after a comma, *her eyes filled with
concern*) and 4 of GUM train's 86.

Last, where a package sets ``orphan_margins``, a clause the parser is unsure
of is undone.  The margin of an orphan is its ``orphan`` score minus the best
score of another relation (after the package's bias): a lifted clause needs
one orphan above ``lifted`` (*his wife Manju Sam, 36, from Sydney*), and a
two-remnant clause whose orphan has no correlate needs it above
``uncorrelated`` (*the vote to leave the European Union and the election of
Donald Trump in the US*).  Both thresholds depend on a model's calibration,
so they are package settings, tuned on dev files (``eval/label_bias_sweep.py``)
and on the package's own parses of training files, whose false alarms are many
more than dev's (``eval/RESULTS.md``).

The opposite repair, :func:`rebuild_unseen_gapping`, builds gapped clauses the parser did not
see, where its tree allows no other reading: a subject pronoun after a conjunction with no verb
of its own (*He likes tea and she coffee*), two conjuncts with nothing between them (*The
children wanted cake and the adults wine*; *and IBM 's $68.8 million*), a verbless conjunct followed
by a phrase that mirrors one of the full clause (*promote TPA for heart patients and streptokinase
for other purposes*), and a noun that repeats the subject's with a modifier of its own (*, the
Hungarian fund with $40 million*).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

from eud.enhance.correlates import FUNCTION, FUNCTION_UPOS, BasicTree, pos_class, possessive
from eud.enhance.gapping import Alignment, Gapping
from eud.graph import Sentence, Word

PREDICATE_MARKERS = frozenset({"nsubj", "csubj", "cop", "aux", "expl"})
ARGUMENTS = frozenset({"nsubj", "obj", "iobj", "obl"})
# How a promoted remnant joins the full clause (GAPPING train: 198 of 208 conj, 9 parataxis).
REMNANT_RELATIONS = frozenset({"conj", "parataxis"})
BRACKETS = {"(": ")", "[": "]", "{": "}"}
# Orphans that modify the promoted remnant when they come before it without a correlate.
MODIFIER_UPOS = frozenset({"ADV", "PART"})
# Relations of words that are no phrase of their own: function words, conjunctions, punctuation.
FUNCTION_RELATIONS = frozenset(FUNCTION | {"punct", "cc"})


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
    # A relative pronoun stands for the noun it hangs under; nothing contrasts with it.
    correlates = [None if c is not None and c.feat("PronType") == "Rel" else c for c in clause.correlates]
    unmatched = sum(c is None for c in correlates)
    promoted_alone = correlates[clause.remnants.index(clause.promoted)] is None and len(clause.remnants) == 2
    # A conjunct of a nominal argument is a gapped clause only if the other remnants contrast
    # with the verb's other dependents; else it is a coordinated noun phrase (*put rocks and bugs in these*).
    # A promoted remnant that repeats the antecedent coordinates with it; nothing was elided
    # (*the Japanese gardens and the rose gardens in Forest Park*).
    repeated = clause.antecedent is not None and _lemma(clause.antecedent) == _lemma(clause.promoted)
    return unmatched >= 2 or promoted_alone or (clause.lifted and unmatched > 0) or repeated


def inside_noun_phrase(clause: Alignment, tree: BasicTree) -> bool:
    """Whether an orphan's correlate is a modifier inside a noun phrase that it does not mirror.

    An orphan contrasts with a dependent of the elided predicate.  Paired with an adjectival
    modifier, it found none and reached into a noun phrase: a list read as gapping (*They
    watched the old guards, and the dogs outside*: *outside*/*old*).  A nominal modifier is a
    correlate only when the orphan mirrors its adposition (*the death of his mother in 1846 and
    his father in 1848*); otherwise each member of a list has its own modifier (*degrees from
    Columbia University in New York, ..., and the Sorbonne in Paris*: *in Paris*/*from Columbia
    University*).  A possessor (``nmod:poss``) has no adposition to mirror.
    """
    return any(c is not None and (c.udeprel == "amod" or (c.deprel == "nmod" and tree.marker(r.id) != tree.marker(c.id)))
               for r, c in zip(clause.remnants, clause.correlates) if r is not clause.promoted)


def unparallel(clause: Alignment, tree: BasicTree) -> bool:
    """Whether two or more remnants are marked otherwise than their correlates.

    Contrasting phrases mirror each other's adpositions (*to Paris* / *to Rome*); a clause
    whose remnants pair off with differently marked phrases is a list read as gapping
    (*went 4-for-4 with four doubles, a walk, and two RBI against the Rays*: *RBI*/*Holt*,
    *against the Rays*/*On June 1*).  One mismatch is common in true gapping (*in 1984* /
    *a whopping 40%*), so it takes two.  A phrase's marking is :meth:`BasicTree.marker`: the
    lemmas of its ``case`` and ``mark`` words, a possessive *'s* aside (it marks no contrast).
    """
    return sum(c is not None and tree.marker(r.id) != tree.marker(c.id)
               for r, c in zip(clause.remnants, clause.correlates)) >= 2


def has_copula(clause: Alignment, tree: BasicTree) -> bool:
    """Whether the promoted remnant has a copula of its own: it heads a copular clause, and nothing was elided.

    A remnant stands in for a dependent of the missing predicate, so it cannot itself be
    the predicate of a clause with *be* (*it 's basically just enough to fit a bed and a
    couch, and this is my couch over here*: *couch*, with *this is*, is no remnant).
    """
    words = tree.sentence.words
    return any(words[c - 1].udeprel == "cop" for c in tree.children[clause.promoted.id])


def nonfinite_modifier(clause: Alignment, tree: BasicTree) -> bool:
    """Whether a two-remnant clause's orphan is a bare infinitive or gerund with nothing to contrast with.

    Such a verb modifies the promoted remnant rather than standing for an adjunct of the
    elided predicate: a purpose or relative infinitive (*another $1500 to fix some other
    things*, *something to hopefully fit in my room*) or a gerund (*as well as it serving a
    deterrent purpose*).  A verbal remnant of true gapping contrasts with a verb of the full
    clause (*tried to wash himself, and Mary to read the newspaper*) or is an adverbial
    clause with its own subordinator (*without seeming to*, *if there 's a recession*); the
    infinitive marker (English *to*, a particle) is no such subordinator.
    """
    if len(clause.remnants) != 2:
        return False
    words = tree.sentence.words
    for remnant, correlate in zip(clause.remnants, clause.correlates):
        if remnant is clause.promoted or correlate is not None or remnant.upos not in ("VERB", "AUX"):
            continue
        if remnant.feat("VerbForm") not in ("Inf", "Ger"):
            continue
        if not any(words[c - 1].udeprel in ("mark", "case") and words[c - 1].upos != "PART"
                   for c in tree.children[remnant.id]):
            return True
    return False


def list_member(clause: Alignment, tree: BasicTree) -> bool:
    """Whether a lifted clause's promoted remnant is the last member of a list of the nominal it hangs on.

    A parser that lifts a gapped clause onto a nominal argument hangs the promoted remnant there
    as that nominal's one conjunct (*ate an apple and Mary a pear*: *Mary* under *apple*).  When the
    nominal has other conjuncts before it, the remnant closes a list (*via Prudential-Bache Capital
    Funding, Smith Barney, Harris Upham & Co., and Hanifen, Imhoff Inc.*; *Tan Son Nhut, Da Nang and
    Bien Hoa in Vietnam, and Udorn and Don Muang in Thailand*), and its "orphan" modifies it.
    """
    if not clause.lifted:
        return False
    promoted, words = clause.promoted, tree.sentence.words
    return any(words[c - 1].udeprel == "conj" and c < promoted.id for c in tree.children[promoted.head])


def followed_by_predicate(clause: Alignment, tree: BasicTree) -> bool:
    """Whether a finite verb or auxiliary without a subject comes right after the gapped clause.

    A gapped clause has lost its verb, so the word after its last remnant is punctuation, a
    conjunction or a shared modifier.  A finite verb there that has no subject of its own is the
    clause's own predicate, and the "remnants" are its subject, which the parser left unattached
    (*and the Vienna Centre for Disarmament and Non-Proliferation and an office of the
    International Peace Institute were established*: *Centre* promoted, *office* its orphan).
    Finiteness comes from FEATS, so a file without them passes.
    """
    words = tree.sentence.words
    clause_words = set().union(*(tree.subtree(r.id, set()) for r in clause.remnants))
    after = max(clause_words) + 1
    if after > len(words):
        return False
    verb = words[after - 1]
    if verb.upos not in ("VERB", "AUX") or verb.feat("VerbForm") != "Fin":
        return False
    predicate = verb.head if verb.upos == "AUX" and verb.head else verb.id
    return not any(words[c - 1].udeprel in ("nsubj", "csubj", "expl") for c in tree.children[predicate])


# A phrase of the full clause that a remnant may be the conjunct of: no function word, no other conjunct.
CLAUSE_LINKS = FUNCTION_RELATIONS | {"conj", "parataxis"}


def auxiliary_remnant(clause: Alignment) -> bool:
    """Whether a remnant is an auxiliary paired with an auxiliary or copula: ellipsis after it, not gapping.

    Gapping elides the verb with its auxiliaries (*Mary has won gold and Peter bronze*).  An
    auxiliary left standing is verb phrase ellipsis, which UD annotates with the auxiliary as the
    head of its clause and no ``orphan`` (*Either a thing will happen or it won't*: *wo* heads
    *it wo n't*).
    """
    return any(r.upos == "AUX" and c is not None and c.udeprel in ("aux", "cop")
               for r, c in zip(clause.remnants, clause.correlates))


def coordinated_phrases(clause: Alignment, tree: BasicTree) -> bool:
    """Whether a "gapped clause" is a phrase coordinated with one of the full clause, and what follows modifies it.

    The promoted remnant comes right after its correlate, across the conjunction (*operating in
    northeastern India and in the Andaman Sea*): the full clause ends with the correlate.  The
    orphans, all after the promoted remnant, then have nothing left to contrast with in the
    order of the full clause: each lacks a correlate or pairs with one before the promoted
    remnant's.  Unless one of them mirrors a phrase of the full clause, having its adposition or
    subordinator and its category, they modify the promoted remnant or the whole coordination
    (*for a long time*; *from Princeton undergraduate and from Law School at Yale*), and nothing
    was elided.  In true gapping such a remnant mirrors a phrase the alignment could not reach
    (*closed higher in Stockholm, Amsterdam and Frankfurt and lower in Zurich*: *in Zurich*
    mirrors *in Stockholm*, which hangs under *higher*).

    The same holds when the promoted remnant pairs with another correlate but comes right after
    a phrase of the full clause with its own adposition and category, and its orphans are
    adpositional phrases that contrast with nothing: it is that phrase's conjunct, and they
    modify it (*he bought a hot dog and a coke at the bar*: *coke* paired with *he*, *at the bar*
    with nothing).  An orphan with a correlate keeps the clause (*John ate an apple and Mary a
    pear*), and so does a bare one, which no noun takes as a modifier (*He won gold and she
    silver*, with *silver* tagged as an adjective).
    """
    promoted, antecedent = clause.promoted, clause.antecedent
    promoted_correlate = clause.correlates[clause.remnants.index(promoted)]
    orphans = [(r, c) for r, c in zip(clause.remnants, clause.correlates) if r is not promoted]
    if antecedent is None or not orphans or any(r.id < promoted.id for r, _ in orphans):
        return False
    words = tree.sentence.words
    remnants = {r.id for r in clause.remnants}
    start = tree.span(promoted.id, remnants - {promoted.id}, skip_cc=True)[0]
    if promoted_correlate is not None and _conjoined(tree, promoted_correlate, start, remnants):
        if any(c is not None and c.id > promoted_correlate.id for _, c in orphans):
            return False  # an orphan contrasts with something after the correlate
    else:
        if any(c is not None or not tree.marker(r.id) for r, c in orphans):
            return False  # an orphan contrasts with something, or is no phrase a noun takes
        like = [words[d - 1] for d in tree.children[antecedent.id]
                if d not in remnants and words[d - 1].udeprel not in CLAUSE_LINKS]
        if not any(_conjoined(tree, w, start, remnants) and _shape(tree, w) == _shape(tree, promoted) for w in like):
            return False  # no like phrase right before the promoted remnant
    full = [words[i - 1] for i in tree.subtree(antecedent.id, remnants)
            if i < start and i != antecedent.id and words[i - 1].udeprel not in FUNCTION_RELATIONS]
    shapes = {_shape(tree, w) for w in full}
    return not any(_shape(tree, r) in shapes for r, _ in orphans)


def _conjoined(tree: BasicTree, phrase: Word, start: int, remnants: set[int]) -> bool:
    """Whether ``phrase`` ends right before word ``start`` with a conjunction between (punctuation aside).

    A remnant right after its correlate is no conjunct next to it when a word comes between
    (*delayed twice, once because of ...*).
    """
    words = tree.sentence.words
    between = words[tree.span(phrase.id, remnants)[1]:start - 1]
    # A conjunction of several words hangs its other words on the first (*as well as*, *rather than*).
    return any(w.udeprel == "cc" for w in between) and all(
        w.udeprel in ("cc", "punct") or (w.udeprel == "fixed" and words[w.head - 1].udeprel == "cc") for w in between)


def unsound(clause: Alignment, tree: BasicTree) -> bool:
    """Whether a gapped clause fails a check of its shape (no parser scores needed).

    Its remnants lack correlates (:func:`lacks_correlates`), are marked otherwise than them
    (:func:`unparallel`), its promoted remnant has a copula (:func:`has_copula`) or closes a list
    (:func:`list_member`), its orphan modifies the promoted remnant (:func:`nonfinite_modifier`),
    or a verb without a subject follows it (:func:`followed_by_predicate`), or it coordinates two
    like phrases that share a modifier (:func:`coordinated_phrases`), or an auxiliary stands in it
    (:func:`auxiliary_remnant`: verb phrase ellipsis).
    """
    return (lacks_correlates(clause) or inside_noun_phrase(clause, tree) or unparallel(clause, tree) or has_copula(clause, tree)
            or list_member(clause, tree) or nonfinite_modifier(clause, tree) or followed_by_predicate(clause, tree)
            or coordinated_phrases(clause, tree) or auxiliary_remnant(clause))


def _lemma(word: Word) -> str:
    """The lemma, or the form where a file has no lemmas, in lower case."""
    return (word.lemma if word.lemma not in ("", "_") else word.form).lower()


def bracket_nesting(sentence: Sentence) -> list[tuple[int, ...]]:
    """Per word, the ids of the opening brackets around it, outermost first (unclosed ones reach the end)."""
    out: list[tuple[int, ...]] = []
    stack: list[tuple[int, str]] = []
    for w in sentence.words:
        if stack and w.form == stack[-1][1]:
            stack.pop()
        out.append(tuple(i for i, _ in stack))
        if w.form in BRACKETS:
            stack.append((w.id, BRACKETS[w.form]))
    return out


def stray_orphans(clause: Alignment, nesting: list[tuple[int, ...]], tree: BasicTree) -> list[Word]:
    """The clause's orphans that are no remnants: asides, afterthoughts, and modifiers of the promoted remnant.

    An aside sits across a bracket from the promoted remnant (inside brackets that do not hold
    it, or outside brackets that do), or is a parenthetical: an orphan before the promoted
    remnant, without a correlate, whose phrase commas set off on both sides (*or, in fact,
    productive multitasking*; *and, to a certain extent, in Turkey*).  An afterthought is the
    clause's last phrase, after the promoted remnant, without a correlate and after a comma: it
    modifies the whole coordination (*..., and the balance by a holder, via Salomon Brothers Inc.*;
    *and its 10 % issue at 102 3/8, up 4/32*); it is stray only when the clause has another
    orphan, so that a lone remnant set off by a comma (*the DHS, by augmented effects*) stays.  A
    modifier is an adverb or particle without a correlate before the promoted remnant; it is
    stray only when the clause has no other orphan (*but for only a limited period*), since a
    clause with more remnants is gapping with a clause-level adverb (*and then Mary a pear*).
    """
    promoted = clause.promoted
    around = nesting[promoted.id - 1]
    remnant_ids = {r.id for r in clause.remnants}
    last = max(remnant_ids)
    asides, afterthoughts, modifiers, others = [], [], [], 0
    for r, correlate in zip(clause.remnants, clause.correlates):
        if r is promoted or r.deprel != "orphan":
            continue
        bracketed = nesting[r.id - 1] != around
        comma_before, comma_after = _commas(tree, r, remnant_ids - {r.id})
        if bracketed or (correlate is None and r.id < promoted.id and comma_before and comma_after):
            asides.append(r)
        elif correlate is None and r.id == last and r.id > promoted.id and comma_before:
            afterthoughts.append(r)
        elif correlate is None and r.upos in MODIFIER_UPOS and r.id < promoted.id:
            modifiers.append(r)
        else:
            others += 1
    return asides + (afterthoughts if others else []) + (modifiers if not others else [])


def _commas(tree: BasicTree, word: Word, stop: set[int]) -> tuple[bool, bool]:
    """Whether a comma stands right before, and right after, ``word``'s phrase (without ``stop``'s).

    The phrase is taken without its conjunction, which opens the gapped clause: in *, and in
    some students ,* the comma before the conjunction sets off nothing.
    """
    words = tree.sentence.words
    first, last = tree.span(word.id, stop, skip_cc=True)
    return first > 1 and words[first - 2].form == ",", last < len(words) and words[last].form == ","


def unsure(clause: Alignment, margins: list[float], minimum: dict[str, float]) -> bool:
    """Whether the parser is too unsure of a lifted clause, or of a two-remnant clause whose orphan has no correlate."""
    orphans = [(r, c) for r, c in zip(clause.remnants, clause.correlates)
               if r is not clause.promoted and r.deprel == "orphan"]
    if not orphans:
        return False
    surest = max(margins[r.id - 1] for r, _ in orphans)
    if clause.lifted and surest < minimum.get("lifted", -math.inf):
        return True
    return len(clause.remnants) == 2 and orphans[0][1] is None and surest < minimum.get("uncorrelated", -math.inf)


def demote_without_correlates(sentence: Sentence, fallback: list[str], gapping: Gapping,
                              margins: list[float] | None = None, minimum: dict[str, float] | None = None,
                              verify: Callable[[Alignment], bool] | None = None) -> int:
    """Relabel stray orphans, then the orphans of gapped clauses that fail; returns how many changed.

    A clause fails when its remnants lack correlates, or (with ``margins``, per word, and
    ``minimum``, a package's ``orphan_margins``) when the parser is unsure of it.
    ``verify``, where given, has the last word on a clause that passes the other checks
    (:meth:`eud.nn.verifier.GappingVerifier.accepts`).
    ``gapping`` finds the correlates as it would to build the empty node.  Undoing one
    clause can change another's (an inner clause hangs on an outer one), so this repeats
    until every remaining clause passes.
    """
    changed = 0
    nesting = bracket_nesting(sentence)
    tree = BasicTree(sentence)  # case and mark words stay put while orphans are relabelled
    for _ in range(len(sentence.words)):
        clauses = gapping.alignments(sentence)
        # Stray orphans first: without them a clause may be judged differently.
        undone = [r for clause in clauses for r in stray_orphans(clause, nesting, tree)]
        if not undone:
            failing = [clause for clause in clauses
                       if unsound(clause, tree)
                       or (margins is not None and minimum and unsure(clause, margins, minimum))
                       or (verify is not None and not verify(clause))]
            undone = [r for clause in failing for r in clause.remnants
                      if r is not clause.promoted and r.deprel == "orphan"]
        if not undone:
            break
        for r in undone:
            r.deprel = fallback[r.id - 1]
        changed += len(undone)
    return changed


# The relations of a verb's phrase that may be a gapped clause's second remnant (mirrored_phrases).
TRAILING = frozenset({"obl", "obj", "iobj", "advmod", "advcl", "xcomp"})
# What a subject remnant's clause may hold: phrases of these parts of speech, no verb.
REMNANT_UPOS = frozenset({"NOUN", "PROPN", "NUM", "PRON", "DET", "ADJ", "ADP", "ADV", "PART", "SYM"})
# Relations by which a clause hangs on a word (_in_clause_of).
CLAUSAL = frozenset({"acl", "advcl", "ccomp", "csubj", "xcomp", "parataxis"})
NOMINAL_HEADS = frozenset({"NOUN", "PROPN", "NUM", "PRON", "SYM"})
# Modifiers before a noun by which it contrasts with the subject whose noun it repeats (echoed_subjects).
CONTRASTING = frozenset({"amod", "nmod", "nummod", "compound"})


def rebuild_unseen_gapping(sentence: Sentence, gapping: Gapping) -> int:
    """Rebuild gapped clauses the parser read as something no grammar allows; returns how many.

    A parser that saw little gapping reads some textbook cases as noun phrases.  Four shapes
    cannot well be anything else, each switched on by a key of the profile's ``[gapping]`` table:
    :func:`stranded_subjects` (``verbless_subjects``), :func:`adjacent_conjuncts`
    (``bare_remnants``), :func:`mirrored_phrases` (``mirrored_phrases``) and
    :func:`echoed_subjects` (``echoed_subjects``).
    """
    style = gapping.style
    return ((stranded_subjects(sentence, gapping) if style.verbless_subjects else 0)
            + (adjacent_conjuncts(sentence, gapping) if style.bare_remnants else 0)
            + (mirrored_phrases(sentence, gapping) if style.mirrored_phrases else 0)
            + (echoed_subjects(sentence, gapping) if style.echoed_subjects else 0))


def stranded_subjects(sentence: Sentence, gapping: Gapping) -> int:
    """Rebuild gapped clauses around a subject pronoun the parser left without a verb; returns how many.

    In a language without verbless clauses, a nominative personal pronoun right after a
    conjunction, followed by phrases with no verb up to the next punctuation mark, can only be
    the subject remnant of a gapped clause: *He likes tea and she coffee*.  A parser that never
    saw that pattern makes *she* a ``compound`` of *coffee*, or both conjuncts of *likes*.  The
    pronoun is promoted (``conj`` of the nearest verb before the conjunction) and the head of
    each following phrase becomes its ``orphan`` (:func:`_rebuild`).
    """
    words = sentence.words
    rebuilt = 0
    for pronoun in words:
        if not _stranded(sentence, pronoun):
            continue
        cc = words[pronoun.id - 2]
        verb = next((w for w in reversed(words[:cc.id - 1]) if w.upos == "VERB"), None)
        span = _clause_after(sentence, pronoun)
        inside = {w.id for w in span}
        heads = [w for w in span if w.head not in inside]
        # Each phrase needs a content word at its head: the parser's function word there is garbage.
        if verb is None or not any(h.upos in NOMINAL_HEADS for h in heads) or any(h.upos in FUNCTION_UPOS for h in heads):
            continue
        rebuilt += _rebuild(sentence, gapping, pronoun, verb, cc, heads)
    return rebuilt


def adjacent_conjuncts(sentence: Sentence, gapping: Gapping) -> int:
    """Rebuild gapped clauses the parser read as two noun phrases with nothing between them; returns how many.

    Members of a list are separated by a conjunction or a comma.  In *The children wanted cake
    and the adults wine* the parser makes *adults* and *wine* conjuncts of *cake*, though nothing
    separates them; in *Sarah drinks wine and her husband beer* it glues *husband* to *beer* as a
    ``compound``, though a compound modifier takes no possessive of its own; in *Honeywell 's
    contract totaled $69.7 million, and IBM 's $68.8 million* it makes *IBM 's* the possessor of
    a conjunct of the verb, where it stands for *IBM 's contract* (a possessor remnant must pair
    with the subject's possessor); in *My brother studies law and my cousin medicine* (or *..., my
    cousin medicine*) it hangs *my* on *medicine*, where it belongs to *cousin*, mirroring the
    subject's (:func:`_lent_possessives`).  In each case the two
    phrases are the remnants of a gapped clause that ends the sentence or its clause.  The first
    is promoted (``conj`` of the verb, or of the verb above the nominal they hung from) and the
    second becomes its ``orphan`` (:func:`_rebuild`), kept only when the first contrasts with the
    full clause's subject and both have correlates, and a common noun first has a determiner,
    possessor or numeral (:func:`_determined_subject`: *brought computers and television sets*).
    """
    words = sentence.words
    if not any(w.udeprel in ("conj", "appos") and w.upos in NOMINAL_HEADS for w in words):
        return 0  # most sentences: no tree to build
    tree = BasicTree(sentence)
    candidates = []
    for x in words:
        conjuncts = [words[c - 1] for c in tree.children[x.id]
                     if words[c - 1].udeprel == "conj" and words[c - 1].upos in NOMINAL_HEADS]
        verb = x if x.upos == "VERB" else None
        if verb is None and x.head and x.udeprel in ARGUMENTS and words[x.head - 1].upos == "VERB":
            verb = words[x.head - 1]
        if verb is None:
            continue
        pairs = list(itertools.pairwise(conjuncts))
        pairs += [(words[c - 1], z) for z in conjuncts for c in tree.children[z.id]
                  if c < z.id and words[c - 1].udeprel == "compound" and _has_possessive(tree, words[c - 1])]
        if x is verb:
            pairs += [(words[c - 1], z) for z in conjuncts for c in tree.children[z.id]
                      if c < z.id and _possessor(tree, words[c - 1])]
        lent = _lent_possessives(tree, x, verb)
        pairs += [(compound, words[compound.head - 1]) for compound in lent]
        for first, second in pairs:
            start = tree.span(first.id, set(), skip_cc=True)[0]
            if start < 2:
                continue
            cc, end = words[start - 2], tree.span(first.id, set())[1]
            own = lent.get(first)
            if own is not None:  # the possessive right before the compound is its own
                cc, end = words[own.id - 2], first.id
            after = tree.span(second.id, {first.id} | ({own.id} if own else set()), skip_cc=True)
            inside = words[cc.id:after[1]]
            separator = ((cc.upos == "CCONJ" and cc.udeprel == "cc")
                         or (own is not None and second.udeprel == "appos" and cc.form == ","))
            if (not separator or cc.head not in (first.id, second.id)
                    or end + 1 != after[0] or any(w.upos in ("CCONJ", "PUNCT", "VERB", "AUX") for w in inside)
                    or (after[1] < len(words) and words[after[1]].upos != "PUNCT")):
                continue
            candidates.append((first, verb, cc, second, own))
    rebuilt = 0
    for first, verb, cc, second, own in candidates:
        if own is not None:
            own.head = first.id
        if _rebuild(sentence, gapping, first, verb, cc, [second], accept=_determined_subject):
            rebuilt += 1
        elif own is not None:
            own.head = second.id
    return rebuilt


def _lent_possessives(tree: BasicTree, argument: Word, verb: Word) -> dict[Word, Word]:
    """Compound modifiers that take the possessive right before them from their head, by the subject's pattern.

    In *My brother studies law and my cousin medicine* (or *..., my cousin medicine*) the parser
    reads *my cousin medicine* as one noun phrase, *my* on *medicine* and *cousin* its compound.
    That is a possible noun phrase (*my university library*), so the compound takes the possessive
    only where the full clause's subject has a possessive of its own to mirror (*My brother*); the
    noun phrase hangs on ``argument`` (an argument of ``verb``) as a conjunct or, after a comma, an
    apposition.  Returns {compound: possessive}.
    """
    words = tree.sentence.words
    subject = next((words[c - 1] for c in tree.children[verb.id] if words[c - 1].udeprel == "nsubj"), None)
    if subject is None or not _has_possessive(tree, subject) or _has_possessive(tree, argument):
        return {}  # no possessive to mirror, or one of the argument's own: like with like (*his job and my ...*)
    lent = {}
    for c in tree.children[argument.id]:
        head = words[c - 1]
        if head.udeprel not in ("conj", "appos") or head.upos not in NOMINAL_HEADS or head.id < 4:
            continue
        compound, owner = words[head.id - 2], words[head.id - 3]
        if (compound.head == head.id and compound.udeprel == "compound" and compound.upos in NOMINAL_HEADS
                and owner.head == head.id and owner.deprel == "nmod:poss" and owner.upos in ("PRON", "DET")):
            lent[compound] = owner
    return lent


def _determined_subject(clause: Alignment, tree: BasicTree) -> bool:
    """:func:`_contrasts_with_subject`, for a promoted remnant that can stand as a subject by itself.

    A bare common noun right before another noun is a compound modifier or a verb the tagger
    read as a noun (*brought computers and television sets*, *follows the Way and honours
    harmony*); a subject remnant has a determiner, possessor or numeral, or is a name or pronoun
    (*and the adults wine*, *and her husband beer*, *and IBM 's $68.8 million*).
    """
    promoted, words = clause.promoted, tree.sentence.words
    determined = promoted.upos != "NOUN" or any(
        words[c - 1].deprel in ("det", "nmod:poss", "nummod") or possessive(words[c - 1]) for c in tree.children[promoted.id])
    return determined and _contrasts_with_subject(clause, tree)


def _contrasts_with_subject(clause: Alignment, tree: BasicTree) -> bool:
    """Whether every remnant has a correlate, the promoted one a subject.

    A possessor stands for the noun it modifies (*Honeywell 's contract totaled $69.7 million, and
    IBM 's $68.8 million*: *IBM 's* is the elided *IBM 's contract*), so a possessive remnant
    contrasts with the subject's possessor, and with nothing else.
    """
    words = tree.sentence.words
    subject = clause.correlates[clause.remnants.index(clause.promoted)]
    if subject is not None and _possessor(tree, subject) and subject.head:
        subject = words[subject.head - 1]
    if subject is None or subject.udeprel not in ("nsubj", "csubj") or None in clause.correlates:
        return False
    return not _owns(tree, clause.promoted) or any(_possessor(tree, words[c - 1]) for c in tree.children[subject.id])


def _possessor(tree: BasicTree, word: Word) -> bool:
    """Whether ``word`` is a possessor marked by a possessive clitic (*IBM* in *IBM 's $68.8 million*)."""
    return word.deprel == "nmod:poss" and _owns(tree, word)


def _owns(tree: BasicTree, word: Word) -> bool:
    """Whether ``word`` has a possessive clitic (*'s*) of its own."""
    words = tree.sentence.words
    return any(possessive(words[c - 1]) for c in tree.children[word.id])


def mirrored_phrases(sentence: Sentence, gapping: Gapping) -> int:
    """Rebuild gapped clauses whose second remnant the parser hung on the full clause's verb; returns how many.

    In *promote TPA for heart patients and streptokinase for other purposes* the parser makes
    *streptokinase* a ``conj`` of *promote*, a noun with no verb of its own, and hangs *for other
    purposes* on *promote* as well, a modifier shared by both conjuncts.  But the first conjunct
    already has its own phrase of that shape (*for heart patients*) between the promoted remnant's
    correlate (*TPA*) and the conjunction, so the trailing one mirrors it: it is the gapped clause's
    second remnant (*3,040,000 shares will be sold by the company and 210,000 by a holder*).  The
    trailing phrase must follow the conjunct directly and end its clause, and it is made the
    conjunct's ``orphan`` (:func:`_rebuild`) only when both remnants have correlates in that order,
    the second marked by the same adposition or subordinator as its correlate and of its category.
    """
    words = sentence.words
    if not any(w.udeprel == "conj" and w.upos in NOMINAL_HEADS for w in words):
        return 0
    tree = BasicTree(sentence)
    candidates = []
    for verb in words:
        if verb.upos != "VERB":
            continue
        dependents = [words[c - 1] for c in tree.children[verb.id]]
        for conjunct in dependents:
            if conjunct.udeprel != "conj" or conjunct.upos not in NOMINAL_HEADS:
                continue
            own = [words[c - 1] for c in tree.children[conjunct.id]]
            cc = next((w for w in own if w.udeprel == "cc" and w.id < conjunct.id), None)
            if cc is None or any(w.udeprel in PREDICATE_MARKERS | {"mark", "orphan"} for w in own):
                continue
            end = tree.span(conjunct.id, set())[1]
            phrase = next((w for w in dependents if w.id > end and w.udeprel in TRAILING), None)
            if phrase is None or not tree.marker(phrase.id):
                continue
            first, last = tree.span(phrase.id, set())
            if first != end + 1 or (last < len(words) and words[last].upos != "PUNCT"):
                continue
            candidates.append((conjunct, verb, cc, phrase))
    return sum(_rebuild(sentence, gapping, conjunct, verb, cc, [phrase], accept=_mirrors)
               for conjunct, verb, cc, phrase in candidates)


def echoed_subjects(sentence: Sentence, gapping: Gapping) -> int:
    """Rebuild gapped clauses whose subject remnant repeats the full clause's subject noun; returns how many.

    In *The Polish fund would be seeded with $160 million, the Hungarian fund with $40 million*
    the parser hangs *the Hungarian fund* on *$160 million* as an apposition.  But an apposition
    names what its anchor names, and *fund* repeats the subject's noun, not the anchor's: with a
    modifier of its own it contrasts with the subject (*Red figures ... indicated falling stocks;
    blue figures, rising stocks*).  Such a common noun with a modifier of its own before it (a
    repeated name is no contrast), after a conjunction, comma or semicolon, is made
    the promoted remnant (``conj`` of the verb) and the one phrase after it, up to the end of the
    sentence or its clause and with no verb of its own, its ``orphan`` (:func:`_rebuild`), kept
    only when that phrase mirrors a dependent of the verb (adposition and category) and both
    remnants have correlates, the first the subject.
    """
    words = sentence.words
    nouns = [w for w in words if w.upos == "NOUN"]
    if not any(s.udeprel == "nsubj" and any(n.id > s.id and _lemma(n) == _lemma(s) for n in nouns) for s in nouns):
        return 0  # most sentences: no subject noun said again later, no tree to build
    tree: BasicTree | None = None
    rebuilt = 0
    for verb in words:
        if verb.upos != "VERB":
            continue
        tree = tree or BasicTree(sentence)
        subject = next((words[c - 1] for c in tree.children[verb.id]
                        if words[c - 1].udeprel == "nsubj" and words[c - 1].upos == "NOUN"), None)
        if subject is None or subject.id > verb.id:
            continue
        for noun in words[verb.id:]:
            if (noun.upos != "NOUN" or _lemma(noun) != _lemma(subject) or noun.head == verb.id
                    or not _in_clause_of(tree, verb, noun)
                    or not any(words[c - 1].udeprel in CONTRASTING for c in tree.children[noun.id] if c < noun.id)):
                continue
            clause = _echo_clause(tree, verb, noun)
            if clause is None:
                continue
            separator, phrase = clause
            if _rebuild(sentence, gapping, noun, verb, separator, [phrase], accept=_contrasts_with_subject):
                rebuilt += 1
                tree = None
                break
    return rebuilt


def _echo_clause(tree: BasicTree, verb: Word, noun: Word) -> tuple[Word, Word] | None:
    """The separator before ``noun`` and the one verbless phrase after it that mirrors a dependent of ``verb``."""
    words = tree.sentence.words
    own = [words[c - 1] for c in tree.children[noun.id]]
    if any(w.udeprel in PREDICATE_MARKERS | {"orphan", "cop", "mark"} for w in own):
        return None
    start = tree.span(noun.id, set(), skip_cc=True)[0]
    separator = words[start - 2] if start > 1 else None
    if separator is None or not (separator.upos == "CCONJ" or separator.form in (",", ";")):
        return None
    # Without the phrases it heads that come after it: *the Hungarian fund [with $40 million]*.
    end = max([noun.id] + [i for c in tree.children[noun.id] if c < noun.id for i in tree.subtree(c, set())])
    first = end + 1
    if first <= len(words) and words[first - 1].form == ",":
        first += 1  # a comma where the verb would be (*blue figures, rising stocks*)
    last = first
    while last <= len(words) and words[last - 1].upos != "PUNCT":
        last += 1
    region = words[first - 1:last - 1]
    inside = {w.id for w in region}
    tops = [w for w in region if w.head not in inside]
    if (len(tops) != 1 or (last <= len(words) and words[last - 1].form not in (".", ";", "!", "?"))
            or any(w.upos in ("VERB", "AUX") and w.udeprel not in ("amod", "acl") for w in region)):
        return None
    phrase = tops[0]
    shape = _shape(tree, phrase)
    mirrored = any(_shape(tree, words[c - 1]) == shape
                   for c in tree.children[verb.id] if words[c - 1].udeprel not in FUNCTION_RELATIONS | {"nsubj"})
    return (separator, phrase) if mirrored else None


def _mirrors(clause: Alignment, tree: BasicTree) -> bool:
    """Whether a two-remnant clause's orphan mirrors a phrase of the full clause before the conjunction."""
    pairs = [(r, c) for r, c in zip(clause.remnants, clause.correlates) if c is not None]
    if len(clause.remnants) != 2 or len(pairs) != 2:
        return False
    (_, promoted_correlate), (orphan, correlate) = sorted(pairs, key=lambda pair: pair[0] is not clause.promoted)
    words = tree.sentence.words
    cc = next((words[c - 1] for c in tree.children[clause.promoted.id] if words[c - 1].udeprel == "cc"), None)
    return (cc is not None and promoted_correlate.id < correlate.id < cc.id
            and _shape(tree, orphan) == _shape(tree, correlate))


def _shape(tree: BasicTree, word: Word) -> tuple[tuple[str, ...], str]:
    """What a mirroring phrase shares: its adpositions and subordinators, and its category."""
    return tree.marker(word.id), pos_class(word)


def _has_possessive(tree: BasicTree, word: Word) -> bool:
    """Whether ``word`` has a possessive determiner or pronoun of its own (*her* in *her husband*)."""
    words = tree.sentence.words
    return any(words[c - 1].deprel == "nmod:poss" and words[c - 1].upos in ("PRON", "DET") for c in tree.children[word.id])


def _rebuild(sentence: Sentence, gapping: Gapping, promoted: Word, verb: Word, cc: Word, orphans: list[Word],
             accept: Callable[[Alignment, BasicTree], bool] | None = None) -> bool:
    """Make ``promoted`` a ``conj`` of ``verb`` with ``cc`` and ``orphans`` under it; whether the clause stays.

    ``cc`` is the conjunction, or the punctuation mark that stands for one (*, the Hungarian fund
    with $40 million*), which goes to the verb, as the GAPPING corpus has it; after a semicolon the
    clause is juxtaposed (``parataxis``), not coordinated.  The rebuilt clause is put back as the
    parser had it when it fails the shape checks a parsed clause must pass (:func:`unsound`) or
    the shape's own test ``accept``.
    """
    if _dominates(sentence, {promoted.id, *(o.id for o in orphans)}, verb.id):
        return False  # the parser hung the verb inside the clause; rebuilding would make a cycle
    saved = {w.id: (w.head, w.deprel) for w in (promoted, cc, *orphans)}
    promoted.head, promoted.deprel = verb.id, "parataxis" if cc.form == ";" else "conj"
    if cc.upos == "PUNCT":
        cc.head, cc.deprel = verb.id, "punct"
    else:
        cc.head, cc.deprel = promoted.id, "cc"
    for o in orphans:
        o.head, o.deprel = promoted.id, "orphan"
    clause = next((c for c in gapping.alignments(sentence) if c.promoted is promoted), None)
    tree = BasicTree(sentence)
    fails = clause is None or unsound(clause, tree) or (accept is not None and not accept(clause, tree))
    if fails:
        for i, (head, deprel) in saved.items():
            sentence.words[i - 1].head, sentence.words[i - 1].deprel = head, deprel
    return not fails


def _stranded(sentence: Sentence, word: Word) -> bool:
    """Whether ``word`` is a nominative personal pronoun right after a conjunction, not yet in a gapped clause."""
    if word.upos != "PRON" or word.feat("Case") != "Nom" or word.feat("PronType") != "Prs" or word.id < 3:
        return False
    if sentence.word(word.id - 1).upos != "CCONJ" or word.deprel == "orphan":
        return False
    return not any(w.head == word.id and w.deprel == "orphan" for w in sentence.words)


def _clause_after(sentence: Sentence, pronoun: Word) -> list[Word]:
    """The words after ``pronoun`` up to the next punctuation mark or conjunction, if none is a verb (else [])."""
    span = []
    for w in sentence.words[pronoun.id:]:
        if w.upos in ("PUNCT", "CCONJ"):
            break
        if w.upos not in REMNANT_UPOS:
            return []
        span.append(w)
    return span


def _in_clause_of(tree: BasicTree, verb: Word, word: Word) -> bool:
    """Whether ``word`` hangs under ``verb`` with no other predicate between them.

    A word on the way up that heads a clause of its own (a clausal relation, or a subject or copula
    among its dependents) puts ``word`` in that clause: in *got into an argument about who was the
    brightest, the fastest, and the best chess player*, *player* belongs to *was the brightest*.
    """
    words = tree.sentence.words
    i = word.head
    while i and i != verb.id:
        above = words[i - 1]
        if above.udeprel in CLAUSAL or any(words[c - 1].udeprel in ("nsubj", "csubj", "cop") for c in tree.children[i]):
            return False
        i = above.head
    return i == verb.id


def _dominates(sentence: Sentence, tops: set[int], word_id: int) -> bool:
    """Whether one of ``tops`` is ``word_id`` or above it in the basic tree."""
    seen: set[int] = set()
    i = word_id
    while i and i not in seen:
        if i in tops:
            return True
        seen.add(i)
        i = sentence.word(i).head or 0
    return False
