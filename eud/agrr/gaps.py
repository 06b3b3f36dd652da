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
and are not verbs themselves; the second has no ``cc``, ``nsubj``, ``obj`` or
``orphan`` of its own (a coordinated or full clause); a dash (``-``, ``–``,
``—``, ``--``) hanging from either of them stands between them.
"""

from __future__ import annotations

import itertools

from eud.graph import Sentence

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
            if any(w.head == second.id and w.udeprel in OWN_CLAUSE for w in words):
                continue
            if not any(w.head in (first.id, second.id) and w.form in DASHES and first.id < w.id < second.id
                       for w in words):
                continue
            second.head, second.deprel = first.id, "orphan"
            changed = True
            break
    return changed
