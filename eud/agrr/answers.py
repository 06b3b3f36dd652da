"""AGRR answers read off an enhanced graph: which gaps eud restored, and where.

AGRR-2019 (https://github.com/dialogue-evaluation/AGRR-2019) marks each gapped sentence's
``class``, its gap ``V``, the verb the gap copies ``cV``, the remnants ``R1``/``R2`` and their
correlates ``cR1``/``cR2``; eud's graph marks the gap as an empty node (the UD ellipsis guideline,
https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis).  :func:`answer` maps
the gapped clauses of a sentence to an AGRR row, one column at a time:

* ``class`` is 1 when a gapped clause with two remnants or more counts as gapping
  (:mod:`eud.agrr.clauses`);
* ``R1``/``R2``, one span each per gapped clause: its remnants (:mod:`eud.agrr.remnants`);
* ``V``, one zero-width span per gapped clause: AGRR puts the gap right before the second
  remnant, after any dash or comma standing for the verb, so ``V`` is the start of ``R2``.  With
  a single remnant it is the offset where the empty node sits: the start of the first word after
  it (the word whose id is the node's major part plus one) that has a letter or digit, or the end
  of the last word when there is none.  The rule places the node after the first remnant's
  phrase, which the parser's attachments can stretch over the second remnant, so the second
  remnant's start is the better place;
* ``cV``, for the first gapped clause: the verb the empty node copies (:mod:`eud.agrr.verb`), or
  another verb whose dependents parallel the remnants far better
  (:func:`~eud.agrr.correlates.antecedent_verb`);
* ``cR1``/``cR2``, for the first gapped clause: the correlates of the first remnant of ``R1`` and
  of ``R2`` (:mod:`eud.agrr.correlates`), each spanned as its phrase (:mod:`eud.agrr.correlate_spans`).
"""

from __future__ import annotations

from eud.agrr.clauses import framing, gapped_clauses, parenthetical, unsupported, verbless
from eud.agrr.correlate_spans import correlate_span
from eud.agrr.correlates import antecedent_verb, candidates_of, correlates
from eud.agrr.files import AgrrRow, Span
from eud.agrr.remnants import remnant_groups, remnant_spans
from eud.agrr.verb import antecedent, verb_of
from eud.gapping.correlates import BasicTree
from eud.graph import Sentence, Word


def _bracketed(words: list[Word], offsets: list[tuple[int, int]], span: Span) -> bool:
    """Whether an opening bracket is the word right before a span."""
    before = [k for k, (_, end) in enumerate(offsets) if end <= span[0]]
    return bool(before) and words[before[-1]].form == "("


def answer(sentence: Sentence, offsets: list[tuple[int, int]], text: str) -> AgrrRow:
    """The AGRR row for an enhanced sentence of ``text`` whose words have these offsets."""
    row = AgrrRow(text)
    clauses = gapped_clauses(sentence)
    if not clauses or not offsets:
        return row
    tree = BasicTree(sentence)
    words = sentence.words
    spans = row.spans
    for after, promoted, remnants, copied in clauses:
        # An introductory word is no remnant; a clause left with one remnant is no gapping (parenthetical()).
        remnants = [r for r in remnants if not parenthetical(tree, r, promoted, remnants)]
        if promoted is None or len(remnants) < 2 or unsupported(words, copied, remnants):
            continue
        phrase = remnant_spans(tree, offsets, promoted, remnants)
        if len(phrase) > 1:
            # AGRR's gap comes right before the second remnant.
            spans["V"].append((phrase[1][0],) * 2)
        else:
            # Step over punctuation standing for the verb (a dash, a comma).
            while after < len(words) - 1 and not any(ch.isalnum() for ch in words[after].form):
                after += 1
            spans["V"].append((offsets[after][0],) * 2 if after < len(offsets) else (offsets[-1][1],) * 2)
        # One correlate for each of R1 and R2: the first remnant of each group (remnant_groups()).
        first, second = remnant_groups(words, remnants, promoted)
        paired = [first[0], second[0]] if second else remnants[:2]
        source = None
        if not spans["cV"]:
            source = words[(verb_of(sentence, copied, False) if copied else antecedent(sentence, promoted)) - 1]
            # A bracketed aside's framing adverbial is no remnant (framing()): *(в 2004 г. — на 16,7%)*.
            if (len(phrase) == len(remnants) == 2 and _bracketed(words, offsets, phrase[0])
                    and framing(tree, paired[0], candidates_of(tree, source, remnants))):
                phrase, paired = phrase[1:], paired[1:]
        spans["R1"].append(phrase[0])
        if len(phrase) > 1:
            spans["R2"].append(phrase[1])
        if source is not None:
            if copied:
                other, matched = antecedent_verb(tree, source, paired)
                if other is not source:
                    source, copied = other, other.id
            else:
                matched = correlates(tree, source, paired)
            verb = verb_of(sentence, copied) if copied else source.id
            if verbless(words[verb - 1]):
                # A present-tense clause with a zero copula elides no verb (verbless()); the sentence's
                # other gapped clauses, if any, share that full clause: the answer is class 0.
                return AgrrRow(text)
            spans["cV"].append(offsets[verb - 1])
            # A correlate's phrase stops at the other correlate, the verb and the gapped clause.
            others = {c.id for c in matched if c is not None} | {source.id} | {promoted.id}
            start = min(r.id for r in remnants)
            for column, c, r, (a, b) in zip(("cR1", "cR2"), matched, paired, phrase):
                if c is not None:
                    own = {k + 1 for k, (x, y) in enumerate(offsets) if a <= x and y <= b}
                    spans[column].append(correlate_span(tree, offsets, c, source, others - {c.id}, start, r, own,
                                                        column == "cR1"))
    row.cls = 1 if spans["V"] else 0
    return row
