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

:func:`spliced` makes more of them from *pairs* of sentences: a plain one-clause sentence,
then the remnants of a short one with the same verb (*She went to the bank.* + *Tom has
gone to the shops.* → *She went to the bank and Tom to the shops.*), each remnant with a
correlate of its relation that it differs from.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator

from eud.gapping.correlates import BasicTree
from eud.graph import EnhancedGraph, Sentence, Word
from eud.spaces import text_of

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
    out.comments.append(f"# text = {text_of(out)}")
    return out


def augment(sentences: Iterable[Sentence], *, same_lemma: bool = True, auxiliaries: bool = False,
            splice: bool = False) -> Iterator[Sentence]:
    """A gapped copy of every sentence that has gappable conjuncts (all of them gapped at once);
    with ``splice``, the gapped sentences :func:`spliced` from pairs of sentences instead."""
    if splice:
        yield from spliced(sentences)
        return
    for s in sentences:
        in_tokens = {i for t in s.tokens for i in range(t.first, t.last + 1)}
        kids = _children(s)
        verbs = [v2 for _, v2 in gappable(s, same_lemma=same_lemma, auxiliaries=auxiliaries)
                 if v2.id not in in_tokens and not any(d.id in in_tokens for d in kids.get(v2.id, []) if d.deprel in ELIDED)]
        if verbs:
            yield gap(s, verbs)


# Clauses an antecedent of a splice may not have: the gapped clause would attach to a larger whole.
CLAUSES = ("conj", "parataxis", "ccomp", "advcl", "csubj", "list")
# Adverbs that make odd remnants when spliced from another sentence (*and I not any his reasons*).
PARTICLES = frozenset(["not", "n't", "never", "also", "just", "only", "even", "really", "too", "so", "still", "always", "already", "sure"])
# Connectors of a spliced gapped clause, used in turn: (comma before it, conjunction).
SPLICE_CONNECTORS = ((False, "and"), (True, "and"), (True, "but"), (False, "and"), (False, "or"))


def _simple_clause(sentence: Sentence, kids: dict[int, list[Word]]) -> Word | None:
    """The root verb of a one-clause sentence ending in a full stop under it, else None."""
    if sentence.tokens or len(sentence.words) < 4:
        return None
    roots = kids.get(0, [])
    last = sentence.words[-1]
    if len(roots) != 1 or roots[0].upos != "VERB" or last.upos != "PUNCT" or last.form not in ".!" or last.head != roots[0].id:
        return None
    return roots[0]


def _remnant_source(sentence: Sentence, kids: dict[int, list[Word]]) -> tuple[Word, list[Word]] | None:
    """(verb, remnants) of a sentence whose root verb has a subject, another remnant and nothing
    but remnants, auxiliaries and its final full stop below it."""
    verb = _simple_clause(sentence, kids)
    if verb is None:
        return None
    deps = kids.get(verb.id, [])
    remnants = [d for d in deps if d.deprel not in ELIDED and d is not sentence.words[-1]]
    if (len(sentence.words) > 16 or len(remnants) < 2
            or any(d.udeprel not in REMNANTS for d in remnants)
            or any(d.udeprel == "advmod" and d.lemma.lower() in PARTICLES for d in remnants)
            or not any(d.udeprel == "nsubj" for d in remnants)):
        return None
    return verb, remnants


def _antecedent(sentence: Sentence, kids: dict[int, list[Word]]) -> Word | None:
    """The root verb of a one-clause sentence with its subject before it and some other dependent after it."""
    verb = _simple_clause(sentence, kids)
    if verb is None or len(sentence.words) > 30:
        return None
    deps = kids.get(verb.id, [])
    if not any(d.udeprel == "nsubj" and d.id < verb.id for d in deps):
        return None
    if not any(d.udeprel in REMNANTS and d.id > verb.id for d in deps) or any(d.udeprel in CLAUSES for d in deps):
        return None
    return verb


def splice(first: Sentence, second: Sentence, connector: tuple[bool, str] = (False, "and")) -> Sentence | None:
    """*She went to the bank.* + *I went to the shops yesterday.* → *She went to the bank and I to
    the shops yesterday.*: the first sentence whole, then the second one's remnants, its verb and
    auxiliaries elided, re-attached as in :func:`gap`.  None unless ``first`` is a plain clause
    (:func:`_antecedent`) and ``second`` a short one whose verb has a subject, another remnant and
    nothing else (:func:`_remnant_source`), every remnant with a correlate of its relation in ``first``.
    The new sentence has no enhanced layer and plain ``misc`` (only ``SpaceAfter=No``)."""
    kids1, kids2 = _children(first), _children(second)
    v1 = _antecedent(first, kids1)
    source = _remnant_source(second, kids2)
    if v1 is None or source is None:
        return None
    v2, remnants = source
    correlates: dict[str, set[str]] = {}
    for d in kids1.get(v1.id, []):
        correlates.setdefault(d.deprel, set()).add(d.form.lower())
    # Each remnant needs a correlate of its relation (subtype included: voice must match) that it
    # contrasts with: *I* after *I* is no gapping.
    if any(d.deprel not in correlates or d.form.lower() in correlates[d.deprel] for d in remnants):
        return None
    tree = BasicTree(second)
    kept = sorted(set().union(*(tree.subtree(d.id, set()) for d in remnants)))

    def plain(w: Word, **change: object) -> Word:
        out = copy.copy(w)
        out.misc = "_"
        for key, value in change.items():
            setattr(out, key, value)
        return out

    words = [plain(w) for w in first.words[:-1]]
    n = len(words)
    comma, conjunction = connector
    if comma:
        words[-1].misc = "SpaceAfter=No"
        words.append(Word(n + 1, ",", ",", "PUNCT", ",", "_", None, "punct"))
    words.append(Word(len(words) + 1, conjunction, conjunction, "CCONJ", "CC", "_", None, "cc"))
    offset = len(words)
    new_id = {old: offset + i for i, old in enumerate(kept, 1)}
    p = promoted(remnants)
    for old in kept:
        w = second.word(old)
        form = w.form
        if old == 1 and w.upos != "PROPN" and form != "I":
            form = form[0].lower() + form[1:]
        head = v1.id if w is p else new_id[p.id] if w.head == v2.id else new_id[w.head]
        deprel = "conj" if w is p else "orphan" if w.head == v2.id else w.deprel
        words.append(plain(w, id=new_id[old], form=form, head=head, deprel=deprel))
    words[-1].misc = "SpaceAfter=No"
    for w in words[n:offset]:  # the comma and the conjunction hang from the promoted remnant
        w.head = new_id[p.id]
    stop = first.words[-1]
    words.append(plain(stop, id=len(words) + 1))
    out = Sentence(words=words)
    sent_id = f"{first.sent_id or 'a'}+{second.sent_id or 'b'}-spliced"
    out.comments = [f"# sent_id = {sent_id}", f"# text = {text_of(out)}"]
    return out


def spliced(sentences: Iterable[Sentence], *, per_lemma: int = 20) -> Iterator[Sentence]:
    """Gapped sentences spliced (:func:`splice`) from pairs of plain clauses with the same verb lemma.

    Each remnant source is used once, with the next antecedent of its verb in corpus order; at most
    ``per_lemma`` sentences per verb, so that *say* and *go* do not crowd out the rest.  The pairing
    is deterministic."""
    antecedents: dict[str, list[Sentence]] = {}
    sources: list[tuple[str, Sentence]] = []
    for s in sentences:
        kids = _children(s)
        v = _antecedent(s, kids)
        if v is not None:
            antecedents.setdefault(v.lemma.lower(), []).append(s)
        src = _remnant_source(s, kids)
        if src is not None:
            sources.append((src[0].lemma.lower(), s))
    made: dict[str, int] = {}
    for lemma, second in sources:
        firsts = [a for a in antecedents.get(lemma, []) if a is not second]
        if made.get(lemma, 0) >= per_lemma or not firsts:
            continue
        k = made.get(lemma, 0)
        for first in firsts[k:] + firsts[:k]:
            out = splice(first, second, SPLICE_CONNECTORS[sum(made.values()) % len(SPLICE_CONNECTORS)])
            if out is not None:
                made[lemma] = k + 1
                yield out
                break
