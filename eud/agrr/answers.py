"""AGRR answers read off an enhanced graph: which gap eud restored, and where.

:func:`answer` maps the empty nodes that the gapping rule
(:class:`~eud.enhance.gapping.Gapping`) made in a sentence to an AGRR row:

* ``class`` is 1 when the gapping rule made at least one empty node;
* ``V``, one zero-width span per empty node: AGRR puts the gap right before
  the second remnant, after any dash or comma standing for the verb, so
  ``V`` is the start of the second remnant's phrase (``R2`` below).  With a
  single remnant it is the offset where the empty node sits: the start of
  the first word after it (the word whose id is the node's major part plus
  one) that has a letter or digit, or the end of the last word when there is
  none.  (The rule places the node after the first remnant's phrase, which
  the parser's attachments can stretch over the second remnant: on the AGRR
  training four fifths with models/ru_agrr's trees, the second remnant's
  start gives resolution 0.666 against 0.658 from the node's place);
* ``cV`` is the span of the word the first empty node copies (``CopyOf``),
  or of its copula or verb head when it is not a verb (:func:`verb_of`);
  when the rule found no antecedent (the promoted remnant hangs from a verb
  as ``obl``, say, rather than as ``conj``), the first verb above the
  promoted remnant, else the last verb before it (:func:`antecedent`);
* ``R1``/``R2``, one span each per empty node, are its first two remnants in
  word order: the promoted remnant and its ``orphan`` dependents, each as the
  words of its basic subtree (the other remnants' subtrees, and the clause's
  ``cc``, ``punct``, ``mark`` and other clause-level dependents of the
  promoted remnant, left out) from the first to the last, punctuation at the
  edges trimmed;
* ``cR1``/``cR2`` are the correlates of the first empty node's ``R1`` and
  ``R2`` among the copied word's dependents (:func:`correlates`, scored with
  :func:`eud.enhance.correlates.pair_score`), spanned the same way but
  without the verb, the other correlate and anything from the gapped clause
  on.  Punctuation at a phrase's edges is trimmed, except a closing bracket
  or quote whose opening one is inside.
"""

from __future__ import annotations

import itertools

from eud.agrr.files import AgrrRow, Span
from eud.enhance.correlates import BasicTree, pair_score

# What a pair of correlates in the opposite order to their remnants costs.
ORDER_COST = 6.0
CLOSING = {"»": "«", ")": "(", "]": "[", "”": "“", '"': '"', "“": "„"}
# Dependents of the copied word that are never correlates.
NOT_CANDIDATE = {"punct", "cc", "conj", "aux", "cop", "mark", "case", "parataxis", "orphan", "root",
                 "discourse", "fixed", "flat", "goeswith", "reparandum", "expl"}
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
                clause_head: bool = False, before: int = 1 << 30) -> Span:
    """Character span of word ``i``'s phrase, words before ``before`` only (see the module docstring)."""
    words = tree.sentence.words
    skip = set(stop)
    if clause_head:
        skip |= {c for c in tree.children[i] if words[c - 1].udeprel in NOT_PHRASE}
    ids = sorted(k for k in tree.subtree(i, skip) if k < before)
    while len(ids) > 1 and words[ids[0] - 1].upos == "PUNCT":
        ids.pop(0)
    while len(ids) > 1 and words[ids[-1] - 1].upos == "PUNCT" and not _closes(words, ids):
        ids.pop()
    return offsets[ids[0] - 1][0], offsets[ids[-1] - 1][1]


def _closes(words: list[Word], ids: list[int]) -> bool:
    """Whether the last word closes a bracket or quote opened inside the phrase (it then stays)."""
    last = words[ids[-1] - 1].form
    opener = CLOSING.get(last)
    return opener is not None and any(words[k - 1].form == opener for k in ids[:-1])


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
    """The correlate of each remnant in the full clause (None only when there is no candidate).

    Candidates are the dependents of the copied word (of its predicate, and
    that predicate itself, when the copied word is a copula) that stand
    before the first remnant and are not function words, punctuation or
    other clauses.  Each remnant takes a different candidate; the pairs are
    chosen together to maximise :func:`eud.enhance.correlates.pair_score`
    (a Case mismatch counts -3 rather than ruling the pair out: the tags are
    predicted; an adverb or particle for a remnant that is neither -3),
    plus a small bonus for candidates near the verb, minus
    :data:`ORDER_COST` when the correlates come in the opposite order to the
    remnants.  AGRR
    always names a correlate, so a remnant is never left without one while
    a candidate is free.
    """
    words = tree.sentence.words
    base = source
    if source.udeprel == "cop" and source.head:
        base = words[source.head - 1]
    first = min(r.id for r in remnants)
    taken = {r.id for r in remnants} | {source.id}
    pool = [words[c - 1] for c in tree.children[base.id]] + ([base] if base is not source else [])
    candidates = [c for c in pool if c.id not in taken and c.id < first and c.udeprel not in NOT_CANDIDATE
                  and c.upos not in ("PUNCT", "CCONJ", "SCONJ", "ADP")]
    if not candidates:
        return [None] * len(remnants)

    def fit(r: Word, c: Word) -> float:
        score = pair_score(tree, r, c)
        if score <= -10:
            score = -3.0
        if c.upos in ("ADV", "PART") and r.upos not in ("ADV", "PART"):
            score -= 3.0  # "сначала", "не": adverbs contrast with adverbs
        return score - 0.15 * abs(c.id - source.id)

    best: tuple[float, list[Word | None]] = (float("-inf"), [None] * len(remnants))
    for combo in itertools.permutations(candidates + [None] * len(remnants), len(remnants)):
        if all(c is None for c in combo) or any(c is None for c in combo) and len(candidates) >= len(remnants):
            continue
        total = sum(fit(r, c) for r, c in zip(remnants, combo) if c is not None)
        placed = [c.id for c in combo if c is not None]
        total -= ORDER_COST * sum(1 for a, b in itertools.combinations(placed, 2) if a > b)
        if total > best[0]:
            best = (total, list(combo))
    return best[1]


def antecedent(sentence: Sentence, promoted: Word) -> int:
    """For an empty node without ``CopyOf``: the first verb above the promoted remnant, else the last verb before it."""
    words = sentence.words
    i, seen = promoted.head or 0, set()
    while i and i not in seen:
        seen.add(i)
        if words[i - 1].upos in ("VERB", "AUX"):
            return i
        i = words[i - 1].head or 0
    before = [w.id for w in words[: promoted.id - 1] if w.upos in ("VERB", "AUX")]
    return before[-1] if before else (promoted.head or promoted.id)


def verb_of(sentence: Sentence, i: int) -> int:
    """The verb AGRR names as ``cV`` for a copied word: the word itself when a verb, else its copula, else its verb head.

    The gapping rule copies the head of the clause, which in UD is the
    predicate of a copula clause (*был интенсивным*: *интенсивным*) and can
    be a nominal the parser made head (*помогает Земфира*); AGRR marks the
    verb (*был*, *помогает*).  A word without either stays.
    """
    words = sentence.words
    word = words[i - 1]
    if word.upos in ("VERB", "AUX"):
        return i
    copulas = [w.id for w in words if w.head == i and w.udeprel == "cop"]
    if copulas:
        return copulas[0]
    if word.head and words[word.head - 1].upos in ("VERB", "AUX"):
        return word.head
    return i


def answer(sentence: Sentence, offsets: list[tuple[int, int]], text: str) -> AgrrRow:
    """The AGRR row for an enhanced sentence of ``text`` whose words have these offsets."""
    row = AgrrRow(text)
    nodes = sorted(sentence.empty_nodes, key=lambda e: e.node)
    if not nodes or not offsets:
        return row
    tree = BasicTree(sentence)
    words = sentence.words
    spans = row.spans
    for n, node in enumerate(nodes):
        promoted, remnants = remnants_of(sentence, node)
        if promoted is None:
            continue
        ids = {r.id for r in remnants}
        phrase = [phrase_span(tree, offsets, r.id, ids - {r.id}, r is promoted) for r in remnants[:2]]
        if len(phrase) > 1:
            # AGRR's gap comes right before the second remnant.
            spans["V"].append((phrase[1][0],) * 2)
        else:
            after = node.major
            # Step over punctuation standing for the verb (a dash, a comma).
            while after < len(words) - 1 and not any(ch.isalnum() for ch in words[after].form):
                after += 1
            spans["V"].append((offsets[after][0],) * 2 if after < len(offsets) else (offsets[-1][1],) * 2)
        spans["R1"].append(phrase[0])
        if len(phrase) > 1:
            spans["R2"].append(phrase[1])
        if not spans["cV"]:
            copied = copy_of(node)
            source = words[(verb_of(sentence, copied) if copied else antecedent(sentence, promoted)) - 1]
            spans["cV"].append(offsets[source.id - 1])
            matched = correlates(tree, source, remnants[:2])
            # A correlate's phrase stops at the other correlate, the verb and the gapped clause.
            others = {c.id for c in matched if c is not None} | {source.id}
            start = min(r.id for r in remnants)
            for column, c in zip(("cR1", "cR2"), matched):
                if c is not None:
                    spans[column].append(phrase_span(tree, offsets, c.id, others - {c.id}, before=start))
    row.cls = 1 if spans["V"] else 0
    return row
