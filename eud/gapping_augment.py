"""Synthetic gapping: turn coordinated clauses with the same verb into gapped clauses with ``orphan``.

*John ate an apple and Mary ate a pear* becomes *John ate an apple and Mary a pear*:
the second verb is deleted and its dependents are re-attached as the UD guidelines
prescribe for ellipsis (https://universaldependencies.org/u/overview/specific-syntax.html#ellipsis):
the remnant highest on the obliqueness hierarchy (:data:`PROMOTION`) takes the verb's
place and relation (``conj``), the other remnants hang from it as ``orphan``, and the
function words of the clause (``cc``, ``punct``) move to it with their own relations.

A conjunct is gapped only when the result is a plain gapping: both verbs are VERB with
the same lemma, the second one has nothing but remnants, ``cc`` and ``punct`` below it
(no auxiliary, marker, particle or clause that would be stranded), at least two
remnants, all nominal or adverbial (:data:`REMNANTS`), and every remnant has a correlate of the same relation on the first verb.
With ``auxiliaries`` the second verb may have auxiliaries too, and they are elided with it, as
gapping elides the finite verb with its non-finite one (*Kim has bought a car and Lee a bike*).
The new sentences have no enhanced layer (their graph would need empty nodes), so
they teach the tree and tagger heads only.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator

from eud.graph import EnhancedGraph, Sentence, Word

# nsubj > obj > iobj > obl > advmod > csubj > xcomp > ccomp > advcl > dislocated > vocative
PROMOTION = ("nsubj", "obj", "iobj", "obl", "advmod", "csubj", "xcomp", "ccomp", "advcl", "dislocated", "vocative")
# The remnants a synthetic gap may leave: nominal and adverbial ones.  A clausal remnant
# (*I that with my experience*) makes text no one writes.
REMNANTS = ("nsubj", "obj", "iobj", "obl", "advmod")
# Dependents that move to the promoted remnant with their own relation.
CARRIED = ("cc", "punct")
# Dependents elided with the verb (``auxiliaries=True``).
ELIDED = ("aux", "aux:pass")


def _children(sentence: Sentence) -> dict[int, list[Word]]:
    out: dict[int, list[Word]] = {}
    for w in sentence.words:
        out.setdefault(w.head or 0, []).append(w)
    return out


def gappable(sentence: Sentence, *, same_lemma: bool = True, auxiliaries: bool = False) -> list[tuple[Word, Word]]:
    """The (first verb, second verb) conj pairs whose second verb can be deleted as a plain gap.

    With ``same_lemma=False`` the verbs may differ: the gapped text then means something
    else, but its tree is still the right analysis of that text.  With ``auxiliaries`` the
    second verb's auxiliaries go with it (see the module docstring).
    """
    elided = ELIDED if auxiliaries else ()
    kids = _children(sentence)
    pairs = []
    for v2 in sentence.words:
        if v2.udeprel != "conj" or v2.upos != "VERB" or not v2.head:
            continue
        v1 = sentence.word(v2.head)
        if v1.upos != "VERB" or v2.id < v1.id or (same_lemma and v1.lemma.lower() != v2.lemma.lower()):
            continue
        deps = kids.get(v2.id, [])
        remnants = [d for d in deps if d.udeprel not in CARRIED and d.deprel not in elided]
        if len(remnants) < 2 or any(d.udeprel not in REMNANTS for d in remnants):
            continue
        correlates = {d.udeprel for d in kids.get(v1.id, [])}
        if any(d.udeprel not in correlates for d in remnants):
            continue
        pairs.append((v1, v2))
    return pairs


def promoted(remnants: Iterable[Word]) -> Word:
    """The remnant that takes the elided verb's place: highest on :data:`PROMOTION`, then leftmost."""
    return min(remnants, key=lambda d: (PROMOTION.index(d.udeprel), d.id))


def gap(sentence: Sentence, verbs: Iterable[Word]) -> Sentence:
    """A copy of ``sentence`` without the words ``verbs`` (each a gappable second verb) and their
    auxiliaries, their clauses re-attached."""
    out = copy.deepcopy(sentence)
    verb_ids = sorted(v.id for v in verbs)
    words = {w.id: w for w in out.words}
    kids = _children(out)
    gone = set(verb_ids)
    for vid in verb_ids:
        v = words[vid]
        deps = [d for d in kids.get(vid, []) if d.deprel not in ELIDED]
        gone |= {d.id for d in kids.get(vid, []) if d.deprel in ELIDED}
        p = promoted(d for d in deps if d.udeprel not in CARRIED)
        for d in deps:
            if d is p:
                continue
            d.head = p.id
            if d.udeprel not in CARRIED:
                d.deprel = "orphan"
        p.head, p.deprel = v.head, v.deprel

    keep = [w for w in out.words if w.id not in gone]
    new_id = {w.id: i for i, w in enumerate(keep, 1)}
    new_id[0] = 0
    for w in keep:
        w.id = new_id[w.id]
        if w.head is not None:
            w.head = new_id[w.head]
    out.words = keep
    # Multiword tokens lose nothing (gappable verbs inside one are skipped by augment()); renumber them.
    for t in out.tokens:
        t.first, t.last = new_id[t.first], new_id[t.last]
    out.empty_nodes = []
    out.enhanced = EnhancedGraph()
    sent_id = sentence.sent_id
    out.comments = []
    if sent_id:
        out.comments.append(f"# sent_id = {sent_id}-gapped")
    out.comments.append(f"# text = {surface(out)}")
    return out


def surface(sentence: Sentence) -> str:
    """The sentence text from its tokens and SpaceAfter=No."""
    parts = []
    covered: dict[int, tuple[str, str]] = {}
    for t in sentence.tokens:
        for i in range(t.first, t.last + 1):
            covered[i] = (t.form, t.misc) if i == t.first else ("", "SpaceAfter=No")
    for w in sentence.words:
        form, misc = covered.get(w.id, (w.form, w.misc))
        if not form:
            continue
        parts.append(form)
        if "SpaceAfter=No" not in misc.split("|"):
            parts.append(" ")
    return "".join(parts).strip()


def augment(sentences: Iterable[Sentence], *, same_lemma: bool = True, auxiliaries: bool = False) -> Iterator[Sentence]:
    """A gapped copy of every sentence that has gappable conjuncts (all of them gapped at once)."""
    for s in sentences:
        in_tokens = {i for t in s.tokens for i in range(t.first, t.last + 1)}
        kids = _children(s)
        verbs = [v2 for _, v2 in gappable(s, same_lemma=same_lemma, auxiliaries=auxiliaries)
                 if v2.id not in in_tokens and not any(d.id in in_tokens for d in kids.get(v2.id, []) if d.deprel in ELIDED)]
        if verbs:
            yield gap(s, verbs)
