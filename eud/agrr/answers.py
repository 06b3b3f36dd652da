"""AGRR answers read off an enhanced graph: which gap eud restored, and where.

:func:`answer` maps the empty nodes that the gapping rule
(:class:`~eud.enhance.gapping.Gapping`) made in a sentence to an AGRR row:

* ``class`` is 1 when there is at least one empty node with ``CopyOf``;
* ``V``, one zero-width span per empty node, is the offset where the empty
  node sits: the start of the first word after it (the word whose id is the
  node's major part plus one) that has a letter or digit, or the end of the
  last word when there is none.  AGRR puts the gap right before the second
  remnant, after any dash or comma standing for the verb; the rule places
  the node after the first remnant's phrase, and after a dash only when it
  is tagged PUNCT, hence the step over punctuation;
* ``cV`` is the span of the word the first empty node copies (``CopyOf``);
* ``R1``/``R2``, one span each per empty node, are its first two remnants in
  word order: the promoted remnant and its ``orphan`` dependents, each as the
  words of its basic subtree (the other remnants' subtrees, and the clause's
  ``cc``, ``punct``, ``mark`` and other clause-level dependents of the
  promoted remnant, left out) from the first to the last, punctuation at the
  edges trimmed;
* ``cR1``/``cR2`` are the correlates of the first empty node's ``R1`` and
  ``R2`` among the copied word's dependents, as
  :func:`eud.enhance.correlates.align` matches them (a remnant left without
  one takes the first free argument of that word: AGRR always names one),
  spanned the same way.
"""

from __future__ import annotations

from eud.agrr.files import AgrrRow, Span
from eud.enhance.correlates import BasicTree, align
from eud.enhance.gapping import NOMINAL_DEPS, NOT_CORRELATE

# Relations of the verb's dependents that can be correlates when the alignment finds none.
ARGUMENTS = {"nsubj", "obj", "iobj", "obl", "advmod", "xcomp", "ccomp", "csubj", "advcl", "nmod"}
from eud.graph import EmptyNode, Sentence, Word

# Dependents of the promoted remnant that belong to the clause, not to the remnant's phrase.
NOT_PHRASE = {"cc", "punct", "mark", "discourse", "vocative", "aux", "cop", "parataxis", "conj", "orphan"}


def copy_of(node: EmptyNode) -> int | None:
    """The word id in the node's ``CopyOf`` MISC attribute, if any."""
    for item in (node.misc or "_").split("|"):
        if item.startswith("CopyOf="):
            value = item[len("CopyOf="):]
            return int(value) if value.isdigit() else None
    return None


def phrase_span(tree: BasicTree, offsets: list[tuple[int, int]], i: int, stop: set[int],
                clause_head: bool = False) -> Span:
    """Character span of word ``i``'s phrase (see the module docstring)."""
    words = tree.sentence.words
    skip = set(stop)
    if clause_head:
        skip |= {c for c in tree.children[i] if words[c - 1].udeprel in NOT_PHRASE}
    ids = sorted(tree.subtree(i, skip))
    while len(ids) > 1 and words[ids[0] - 1].upos == "PUNCT":
        ids.pop(0)
    while len(ids) > 1 and words[ids[-1] - 1].upos == "PUNCT":
        ids.pop()
    return offsets[ids[0] - 1][0], offsets[ids[-1] - 1][1]


def remnants_of(sentence: Sentence, node: EmptyNode) -> tuple[Word | None, list[Word]]:
    """The promoted remnant and all remnants (word order) of an empty node's clause."""
    words = sentence.words
    deps = {d[0] for h, d, _ in sentence.enhanced if h == node.node and d[1] == 0}
    promoted = None
    for i in deps:
        if any(w.head == i and w.deprel == "orphan" for w in words):
            promoted = words[i - 1]
            break
    if promoted is None:
        return None, []
    remnants = [promoted] + [w for w in words if w.head == promoted.id and w.deprel == "orphan"]
    return promoted, sorted(remnants, key=lambda w: w.id)


def correlates(tree: BasicTree, source: Word, remnants: list[Word]) -> list[Word | None]:
    """The correlate of each remnant among ``source``'s dependents (None where there is none)."""
    words = tree.sentence.words
    taken = {r.id for r in remnants}
    verbal = source.upos in ("VERB", "AUX") or any(words[c - 1].udeprel in ("cop", "nsubj") for c in tree.children[source.id])
    excluded = NOT_CORRELATE | (NOMINAL_DEPS if verbal else set())
    candidates = [words[c - 1] for c in tree.children[source.id]
                  if c not in taken and words[c - 1].udeprel not in excluded]
    matched = align(tree, remnants, candidates) if candidates else [None] * len(remnants)
    # AGRR always names a correlate: a remnant the alignment left alone takes
    # the first free argument of the verb, in order.
    free = [c for c in candidates if c not in matched and c.udeprel in ARGUMENTS]
    return [m if m is not None else (free.pop(0) if free else None) for m in matched]


def answer(sentence: Sentence, offsets: list[tuple[int, int]], text: str) -> AgrrRow:
    """The AGRR row for an enhanced sentence of ``text`` whose words have these offsets."""
    row = AgrrRow(text)
    nodes = sorted((e for e in sentence.empty_nodes if copy_of(e)), key=lambda e: e.node)
    if not nodes or not offsets:
        return row
    tree = BasicTree(sentence)
    words = sentence.words
    spans = row.spans
    for n, node in enumerate(nodes):
        promoted, remnants = remnants_of(sentence, node)
        if promoted is None:
            continue
        after = node.major
        # Step over punctuation standing for the verb (a dash, a comma).
        while after < len(words) - 1 and not any(ch.isalnum() for ch in words[after].form):
            after += 1
        spans["V"].append((offsets[after][0],) * 2 if after < len(offsets) else (offsets[-1][1],) * 2)
        ids = {r.id for r in remnants}
        phrase = [phrase_span(tree, offsets, r.id, ids - {r.id}, r is promoted) for r in remnants[:2]]
        spans["R1"].append(phrase[0])
        if len(phrase) > 1:
            spans["R2"].append(phrase[1])
        if not spans["cV"]:
            source = words[copy_of(node) - 1]
            spans["cV"].append(offsets[source.id - 1])
            for column, c in zip(("cR1", "cR2"), correlates(tree, source, remnants[:2])):
                if c is not None:
                    spans[column].append(phrase_span(tree, offsets, c.id, {source.id}))
    row.cls = 1 if spans["V"] else 0
    return row
