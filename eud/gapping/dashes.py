"""Gapped clauses marked by a dash that the parser read without ``orphan``, rebuilt as UD gapping.

Where a gapped clause elides its verb, the punctuation of Russian and of other languages puts a
dash in the verb's place (*Мама купила яблоки, а папа — груши*).  The UD guidelines annotate such a
clause with its promoted remnant as ``conj`` of the full clause's verb and the other remnants as
``orphan`` of it (https://universaldependencies.org/u/dep/orphan.html), and the gapping rule then
restores the verb as an empty node.  A parser that learnt gapping from few examples often gets the
clause right but not the relation between its remnants; the dash tells the two readings apart.

:func:`dash_gaps` rebuilds two shapes.  Both remnants hang from the full clause's verb as ``conj``
(*одобряют 64%, правительства — 58%*): two conjuncts of one verb (a VERB or AUX), both after it and
neither a verb itself, with a dash (``-``, ``–``, ``—``, ``--``) between them hanging from either,
and no ``cc`` after the first, ``nsubj``, ``obj`` or ``orphan`` of the second's own (which would make
it a coordinated phrase or a full clause; a ``cc`` before the first is the gapped clause's *а*, *и*).
The first stays ``conj`` (the promoted remnant) and the second becomes its ``orphan``.  Or only the
second hangs as ``conj`` and the first from the verb as an argument or adjunct (*возросло на 16,4%
(в 2004 г. — на 16,7%)*; *смотрит на Нэша, потом – на меня*): when that dependent, opened by a
comma, bracket, semicolon or conjunction, ends right before a dash standing for the verb
(:func:`gap_dash`) that comes right before the ``conj``, it is the promoted remnant and the ``conj``
its ``orphan``.

:func:`chain_gaps` parts gapped clauses in a row that the parser ran into one (*BTAS - на 3,4%,
CCBN - на 1,5%, KTTH - на 5,4%*): the remnants of the later clauses hang as more ``orphan`` of one
promoted remnant, so the gapping rule would restore one verb for several clauses.  Where a comma,
semicolon or coordinating conjunction stands between two of the remnants, with at least two
remnants on each side (a remnant's own ``orphan`` dependents counted with it) and a dash standing
for the verb among the later ones, the later side becomes a clause of its own: its last remnant
``conj`` of the verb, the others its ``orphan``.

Neither handles a gapped clause without a dash (the rebuilds of :mod:`eud.gapping.repair` do some),
nor one whose remnants the parser hung inside another phrase; a dash between two numbers is a
range, not an elided verb.
"""

from __future__ import annotations

import itertools

from eud.gapping.correlates import BasicTree
from eud.graph import Sentence, Word

DASHES = {"-", "–", "—", "--"}
# A conjunct with one of these is a clause or a coordinated phrase of its own, not a bare remnant.
OWN_CLAUSE = {"cc", "nsubj", "obj", "orphan"}
# The verb's dependents that can be the first remnant when the parser hung only the second as ``conj``.
FIRST_REMNANT = {"obl", "advmod", "nsubj", "obj", "iobj"}
# Words that open a gapped clause right before its first remnant.
OPENERS = {",", "(", ";"}
# Words that part one gapped clause from the next in a row of them.
SEPARATORS = {",", ";"}


def gap_dash(words: list[Word], i: int) -> bool:
    """Whether word ``i`` is a dash that can stand for the verb: not one of a range between numbers (*на 25 - 39%*)."""
    numbers = [k for k in (i - 1, i + 1) if 1 <= k <= len(words) and any(ch.isdigit() for ch in words[k - 1].form)]
    return words[i - 1].form in DASHES and len(numbers) < 2


def dash_gaps(sentence: Sentence) -> int:
    """Make gapping of each verb's remnants the parser left without ``orphan`` across a dash; returns how many clauses."""
    words = sentence.words
    made = 0
    for verb in words:
        if verb.upos not in ("VERB", "AUX"):
            continue
        conjuncts = [w for w in words if w.head == verb.id and w.deprel == "conj" and w.id > verb.id
                     and w.upos not in ("VERB", "AUX")]
        for first, second in itertools.pairwise(conjuncts):
            # A conjunction before the first conjunct is the gapped clause's own (*, а для компилятора JDK —
            # за 1133 миллисекунд*): the parser can hang it from either remnant.
            if any(w.head == second.id and w.udeprel in OWN_CLAUSE and not (w.udeprel == "cc" and w.id < first.id)
                   for w in words):
                continue
            if not any(w.head in (first.id, second.id) and w.form in DASHES and first.id < w.id < second.id
                       for w in words):
                continue
            second.head, second.deprel = first.id, "orphan"
            made += 1
            break
        else:
            made += _oblique_first(sentence, verb, conjuncts)
    return made


def _oblique_first(sentence: Sentence, verb: Word, conjuncts: list[Word]) -> bool:
    """Make gapping of a ``conj`` whose first remnant the parser hung from the verb as an argument or adjunct.

    The verb's dependent right before a dash standing for the verb (:func:`gap_dash`), opened by a
    comma, a bracket, a semicolon or a conjunction, is the promoted remnant and the ``conj`` after
    the dash its ``orphan``.  True if it changed the tree.
    """
    words = sentence.words
    tree = BasicTree(sentence)
    for second in conjuncts:
        if any(w.head == second.id and w.udeprel in OWN_CLAUSE - {"cc"} for w in words):
            continue
        start = min(k for k in tree.subtree(second.id, set()) if words[k - 1].upos != "PUNCT")
        dashes = [i for i in range(verb.id + 1, start) if gap_dash(words, i)]
        if not dashes or any(words[k - 1].upos != "PUNCT" for k in range(dashes[-1] + 1, start)):
            continue
        for c in tree.children[verb.id]:
            first = words[c - 1]
            ids = {k for k in tree.subtree(c, set()) if words[k - 1].upos != "PUNCT"} or {c}
            if (first.udeprel not in FIRST_REMNANT or not verb.id < min(ids) or max(ids) > dashes[-1]
                    or any(words[k - 1].upos != "PUNCT" for k in range(max(ids) + 1, dashes[-1]))):
                continue
            opener = words[min(ids) - 2]
            if opener.form in OPENERS or opener.upos == "CCONJ":
                first.deprel = "conj"
                second.head, second.deprel = first.id, "orphan"
                return True
    return False


def chain_gaps(sentence: Sentence) -> int:
    """Part the promoted remnants whose ``orphan`` dependents run on into the next gapped clause; returns how many parts."""
    parted = 0
    for _ in range(len(sentence.words)):
        if not _part_one(sentence.words):
            break
        parted += 1
    return parted


def _part_one(words: list[Word]) -> bool:
    """Make the first gapped clause found running on into the next one two clauses (:func:`chain_gaps`)."""
    for promoted in words:
        if promoted.udeprel != "conj" or not promoted.head:
            continue
        remnants = sorted([promoted] + _orphans(words, promoted.id), key=lambda w: w.id)
        for k in range(2, len(remnants)):
            first, later = remnants[:k], remnants[k:]
            between = words[first[-1].id:later[0].id - 1]
            if promoted in later or not any(w.form in SEPARATORS or w.upos == "CCONJ" for w in between):
                continue
            # The later clause's words: its remnants and their own orphans.
            clause = sorted({r.id for r in later} | {o.id for r in later for o in _orphans(words, r.id)})
            if len(clause) < 2 or not any(gap_dash(words, i) for i in range(clause[0] + 1, clause[-1])):
                continue
            head = later[-1]
            head.head, head.deprel = promoted.head, "conj"
            for r in later[:-1]:
                r.head, r.deprel = head.id, "orphan"
            # The separator, conjunction and dash of the new clause go with it.
            for w in words[first[-1].id:clause[-1]]:
                if w.head == promoted.id and w.udeprel in ("punct", "cc"):
                    w.head = head.id
            return True
    return False


def _orphans(words: list[Word], i: int) -> list[Word]:
    """The words hanging from word ``i`` as ``orphan``."""
    return [w for w in words if w.head == i and w.deprel == "orphan"]
