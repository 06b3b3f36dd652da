"""Gapped clauses that the parser left without ``orphan``, made into UD gapping before the rules run.

The parser trained on AGRR trees often gets the clause structure of a
gapped clause right but misses the relation between its remnants: both
remnants hang from the full clause's verb as ``conj``, with the dash that
stands for the elided verb between them (*одобряют 64%, правительства —
58%*; *и 8 экспертов - 3 … странами*).  Two conjuncts of one verb that are
not coordinated with each other by a conjunction and are separated by a
dash are the remnants of one gapped clause, so :func:`dash_gaps` rewrites
them as the UD guidelines do: the first stays ``conj`` (the promoted
remnant) and the second becomes its ``orphan``.  The gapping rule then
restores the verb as an empty node.

The conditions (read on the AGRR training four fifths, never on the held-apart
fifth): the head is a VERB or AUX; both words follow it, are its ``conj``
and are not verbs themselves; the second has no ``cc`` after the first,
``nsubj``, ``obj`` or ``orphan`` of its own (a coordinated or full clause;
a ``cc`` before the first is the gapped clause's *а*, *и*); a dash (``-``, ``–``,
``—``, ``--``) hanging from either of them stands between them.

The parser can also hang only the second remnant as ``conj`` and the first
from the verb as an argument or adjunct (*возросло на 16,4% (в 2004 г. — на
16,7%)*; *смотрит на Нэша, потом – на меня*).  When that dependent ends
right before a dash standing for the verb that comes right before the
``conj``, and a comma, a bracket, a semicolon or a conjunction opens it, it
is the promoted remnant and the ``conj`` its ``orphan`` (:func:`dash_gaps`
again).

Several gapped clauses in a row (*BTAS - на 3,4%, CCBN - на 1,5%, KTTH - на
5,4%*; *семь раз - тройняшек и четыре раза - по четверо детей*) are often
parsed with the remnants of the later ones as more ``orphan`` dependents of
one promoted remnant, so the gapping rule restores fewer verbs than there
are clauses.  :func:`chain_gaps` parts such a clause: where a comma, a
semicolon or a coordinating conjunction stands between two of the
remnants, and the remnants on each side are at least two (a remnant's own
``orphan`` dependents counted with it) with a dash standing for the verb
between those of the later side, the later side becomes a gapped clause of
its own: its last remnant ``conj`` of the verb, the others its ``orphan``.
"""

from __future__ import annotations

import itertools

from eud.gapping.correlates import BasicTree
from eud.graph import Sentence, Word

DASHES = {"-", "–", "—", "--"}
# A conjunct with one of these is a clause or a coordinated phrase of its own, not a bare remnant.
OWN_CLAUSE = {"cc", "nsubj", "obj", "orphan"}


def dash_gaps(sentence: Sentence) -> bool:
    """Rewrite the basic tree for each verb's dash-separated pair of ``conj`` (see the module docstring); True if it changed."""
    words = sentence.words
    changed = False
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
            changed = True
            break
        else:
            changed |= _oblique_first(sentence, verb, conjuncts)
    return changed


# The verb's dependents that can be the first remnant when the parser hung only the second as ``conj``.
FIRST_REMNANT = {"obl", "advmod", "nsubj", "obj", "iobj"}
# Words that open a gapped clause right before its first remnant.
OPENERS = {",", "(", ";"}


def _oblique_first(sentence: Sentence, verb: Word, conjuncts: list[Word]) -> bool:
    """Make gapping of a ``conj`` whose first remnant the parser hung from the verb as an argument or adjunct.

    *возросло на 16,4% (в 2004 г. — на 16,7%)*; *смотрит на Нэша, потом –
    на меня*: the verb's dependent right before a dash standing for the verb
    (:func:`gap_dash`), opened by a comma, a bracket, a semicolon or a
    conjunction, is the promoted remnant and the ``conj`` after the dash its
    ``orphan``.  True if it changed the tree.
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


# Words that part one gapped clause from the next in a row of them.
SEPARATORS = {",", ";"}


def gap_dash(words: list[Word], i: int) -> bool:
    """Whether word ``i`` is a dash that can stand for the verb: not one of a range between numbers (*на 25 - 39%*)."""
    numbers = [k for k in (i - 1, i + 1) if 1 <= k <= len(words) and any(ch.isdigit() for ch in words[k - 1].form)]
    return words[i - 1].form in DASHES and len(numbers) < 2


def chain_gaps(sentence: Sentence) -> bool:
    """Part the promoted remnants whose ``orphan`` dependents run on into the next gapped clause (see the module docstring); True if it changed."""
    any_change = False
    for _ in range(len(sentence.words)):
        if not _part_one(sentence.words):
            break
        any_change = True
    return any_change


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
