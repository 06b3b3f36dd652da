"""Keep ``orphan`` only where a predicate can have been elided.

UD (https://universaldependencies.org/u/overview/specific-syntax.html#ellipsis, and
https://universaldependencies.org/u/dep/orphan.html) uses ``orphan`` for a dependent of an
elided predicate: the most oblique remnant is promoted to the predicate's place and hangs,
usually by ``conj`` or ``parataxis``, from the predicate of the full clause, its *antecedent*.
A parser that learnt gapping from a few hundred sentences also posits ``orphan`` inside lists
of nouns (*skis for the front and tracks for the back*), where nothing verbal is missing, and
every such orphan becomes a false empty node downstream.  The checks below undo such clauses;
what each costs and saves on gold orphan trees is in ``eval/journal/`` (run
``python -m eval.gapping.orphan_checks``).

An antecedent counts as a predicate when it is a VERB or AUX, or when it has a subject,
copula, auxiliary or expletive of its own (*she is a teacher and he a doctor*: the noun
*teacher* heads a copular clause).  The promoted remnant itself must hang from its antecedent
by ``conj`` or ``parataxis``.  Not handled: a predicate recognisable only by meaning (a
verbless headline); gapping under a root remnant or in subordinate clauses (``advcl``), which
this demotes.

A second check, :func:`demote_without_correlates`, asks what gapping means: each remnant
contrasts with a *correlate*, a dependent of the antecedent (:mod:`eud.gapping.correlates`;
*Mary* with *John*, *a pear* with *an apple*).  Lists and afterthoughts have remnants with
nothing to contrast with (*do banners, billboards and lots more*; *clean, but just a little
dumpy*).  A gapped clause is undone

- when two or more of its remnants have no correlate, when it has two remnants and the
  promoted one has none, when its promoted remnant is a conjunct of a nominal argument (*Kids
  put rocks and bugs in these*) and another remnant has none, and when the promoted remnant
  repeats the antecedent's lemma (*the name of a town, and the name of an island* coordinates
  a word with itself); a relative pronoun counts as no correlate, since it stands for the noun
  it hangs under (*men such as Hobhouse, who initiated him into the club, and Francis Hodgson,
  a Fellow*);
- when two or more remnants are marked by other adpositions or subordinators than their
  correlates (:func:`unparallel`): contrasting phrases mirror each other (*to Paris* / *to
  Rome*), list members need not;
- when an orphan's correlate is an adjectival modifier, or a nominal modifier whose adposition
  the orphan does not mirror (:func:`inside_noun_phrase`): with no dependent of the elided
  predicate to contrast with, the remnant reached inside a noun phrase, and the clause is a
  list (*the old guards, and the dogs outside*);
- when its promoted remnant has a copula of its own (:func:`has_copula`): it heads a copular
  clause, whose predicate is all there (*and this is my couch over here*);
- in a two-remnant clause whose orphan is an infinitive or gerund with no correlate and no
  subordinator of its own (:func:`nonfinite_modifier`): it modifies the promoted remnant
  (*another $1500 to fix some other things*);
- in a lifted clause whose promoted remnant closes a list, the nominal it hangs on having other
  conjuncts before it (:func:`list_member`: *via Funding, Smith Barney and Hanifen, Imhoff
  Inc.*);
- when a finite verb without a subject comes right after it (:func:`followed_by_predicate`):
  that verb is the clause's own, and the "remnants" its subject (*and the Vienna Centre ...
  and an office ... were established*); this needs FEATS;
- when its promoted remnant comes right after its correlate across the conjunction, with
  orphans that have nothing after that correlate to contrast with and mirror no phrase of the
  full clause: a coordination of two phrases and what modifies them
  (:func:`coordinated_phrases`: *in northeastern India and in the Andaman Sea for a long
  time*); and when its promoted remnant, paired with another correlate, comes right after a
  like phrase of the full clause and its orphans are adpositional phrases contrasting with
  nothing (*bought a hot dog and a coke at the bar*);
- when an auxiliary remnant is paired with an auxiliary or copula: that is verb phrase
  ellipsis, whose auxiliary UD makes the head (:func:`auxiliary_remnant`: *Either a thing will
  happen or it won't*).

Two kinds of orphan are no remnant at all, and :func:`stray_orphans` hands them back to the
parser's other choice before the clause is judged: an orphan across a bracket from the
promoted remnant, inside brackets that do not hold it (a citation or an aside: *may even be
the norm [16]*) or outside brackets that do (a clause does not straddle a bracket), or a
parenthetical that commas set off before the promoted remnant with nothing to contrast with
(*or, in fact, productive multitasking*); in a clause with another orphan, an afterthought:
the last phrase, after a comma, with nothing to contrast with (*..., via Salomon Brothers
Inc.*: it modifies the whole coordination); and, in a clause with no other orphan, an adverb
or particle that contrasts with nothing and comes before the promoted remnant (it modifies
that remnant: *but for only a limited period*).

Last, where a package sets ``orphan_margins``, a clause the parser is unsure of is undone.
The margin of an orphan is its ``orphan`` score minus the best score of another relation
(after the package's bias): a lifted clause needs one orphan above ``lifted`` (*his wife Manju
Sam, 36, from Sydney*), and a two-remnant clause whose orphan has no correlate needs it above
``uncorrelated`` (*the vote to leave the European Union and the election of Donald Trump in
the US*).  Both thresholds depend on a model's calibration, so they are package settings,
tuned on dev files and on the package's own parses of training files
(``python -m eval.gapping.label_bias_sweep``).

Its opposite, building gapped clauses the parser did not see, is :mod:`eud.gapping.repair`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from eud.gapping.correlates import FUNCTION, BasicTree, pos_class
from eud.gapping.rule import Alignment, Gapping
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
    repeated = clause.antecedent is not None and lowercase_lemma(clause.antecedent) == lowercase_lemma(clause.promoted)
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
        if not any(_conjoined(tree, w, start, remnants) and phrase_shape(tree, w) == phrase_shape(tree, promoted) for w in like):
            return False  # no like phrase right before the promoted remnant
    full = [words[i - 1] for i in tree.subtree(antecedent.id, remnants)
            if i < start and i != antecedent.id and words[i - 1].udeprel not in FUNCTION_RELATIONS]
    shapes = {phrase_shape(tree, w) for w in full}
    return not any(phrase_shape(tree, r) in shapes for r, _ in orphans)


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


def lowercase_lemma(word: Word) -> str:
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

def phrase_shape(tree: BasicTree, word: Word) -> tuple[tuple[str, ...], str]:
    """What a mirroring phrase shares: its adpositions and subordinators, and its category."""
    return tree.marker(word.id), pos_class(word)
