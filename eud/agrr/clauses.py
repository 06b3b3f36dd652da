"""AGRR's ``class``: which of the gapped clauses eud's graph holds count as gapping, with which remnants.

AGRR-2019 (https://github.com/dialogue-evaluation/AGRR-2019) gives each sentence ``class`` 1 when
it holds gapping: a clause whose verb is elided and that keeps two remnants or more.  eud's
gapping rule (:class:`~eud.gapping.rule.Gapping`) marks such a clause with an empty node (the UD
ellipsis guideline, https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis),
and :func:`gapped_clauses` lists them, with the clauses the rule found no antecedent for.  Not
every one counts:

* an introductory word or phrase (*например*, *точнее*, *более того*) is no remnant, so a clause
  left with one remnant is no gapping (:func:`parenthetical`);
* a full clause without a verb, a zero copula's nominal sentence, elides none (:func:`verbless`,
  *глаза голубые, а клюв – белый*);
* a clause without antecedent whose remnants no dash parts is no gap (:func:`unsupported`);
* in a gapped clause in brackets, a first remnant that is an adverbial with no counterpart in the
  full clause is no remnant (:func:`framing`, *(в 2004 г. — на 16,7%)*: the one remnant, ``R1``, is
  *на 16,7%*).
"""

from __future__ import annotations

from eud.agrr.remnants import INTRODUCTORY, remnant_ids, remnants_of
from eud.agrr.spans import punctuation, text_of
from eud.agrr.verb import LONG_ADJECTIVE, MODALS, VERB_ENDING
from eud.gapping.correlates import BasicTree
from eud.gapping.dashes import gap_dash
from eud.graph import EmptyNode, Sentence, Word

# Adverbials of condition or occasion that qualify a whole gapped clause (*находится под контролем филиала, а
# при необходимости — центрального аппарата*): they contrast with nothing in the full clause, so they are no
# remnant either; AGRR names a remnant only with a correlate.
QUALIFYING = {"при необходимости", "в случае необходимости", "при желании", "на этот раз", "в этот раз"}


def copy_of(node: EmptyNode) -> int | None:
    """The word id in the node's ``CopyOf`` MISC attribute, if any."""
    for item in (node.misc or "_").split("|"):
        if item.startswith("CopyOf="):
            value = item[len("CopyOf="):]
            return int(value) if value.isdigit() else None
    return None


def parenthetical(tree: BasicTree, remnant: Word, promoted: Word, remnants: list[Word]) -> bool:
    """Whether a remnant's phrase is an introductory word or phrase (:data:`~eud.agrr.remnants.INTRODUCTORY`, :data:`QUALIFYING`), not a remnant.

    The parser takes *например*, *точнее*, *более того* for the first
    remnant of a clause that has one remnant at most: *Знамена будут не
    красно-коричневые, а - например - черно-оранжевые*; *Сделал несчастного
    чуть более счастливым, точнее, чуть менее несчастным*.
    """
    words = tree.sentence.words
    ids = remnant_ids(tree, remnant.id, {r.id for r in remnants} - {remnant.id}, remnant is promoted)
    text = text_of(words, [k for k in sorted(ids) if not punctuation(words[k - 1]) and words[k - 1].udeprel != "cc"])
    return text in INTRODUCTORY or text in QUALIFYING


def framing(tree: BasicTree, remnant: Word, candidates: list[Word]) -> bool:
    """Whether a first remnant is an adverbial that frames the gapped clause, with no counterpart in the full one.

    AGRR names a remnant only with a correlate: in *возросло на 16,4% (в 2004
    г. — на 16,7%)* the only remnant is *на 16,7%*, while *в январе 2005 г.
    … (в январе 2004 г. — на 3%)* has two.  A prepositional phrase is such
    an adverbial when no candidate correlate has its preposition, an adverb
    when no candidate is an adverb.  :func:`~eud.agrr.answers.answer` asks this only of a
    gapped clause in brackets, an aside that gives a figure for another
    time or place: outside brackets a phrase with another preposition
    mostly contrasts all the same (*Там стоял стол, за ним – стул*).
    """
    marker = tree.marker(remnant.id)
    if marker:
        return not any(tree.marker(c.id) == marker for c in candidates)
    if remnant.upos == "ADV":
        return not any(c.upos == "ADV" for c in candidates)
    return False


def verbless(word: Word) -> bool:
    """Whether the word named as ``cV`` is a nominal predicate without a copula: the clause has no verb to elide.

    A Russian nominal sentence in the present tense has a zero copula
    (*Глаза у него голубые, а клюв – белый*); the dash after the second
    subject is the copula's dash, nothing is elided, and AGRR does not mark
    gapping.  The gapping rule then copies a noun, pronoun, numeral or long
    adjective (:func:`~eud.agrr.verb.verb_of` finds no copula and no verb above it).  The tagger
    also calls some verbs nouns (*ВВП вырос на 3%, а экспорт — на 5%*), so
    a word whose ending is a verb form's (:data:`~eud.agrr.verb.VERB_ENDING`) is taken for
    a verb; predicative short forms and modals (*нужно*, *должно*,
    *обусловлено*) are verbs too, while an adjective's long form never is.
    """
    form = word.form.lower()
    if word.upos == "ADJ":
        # A long form is never a verb's (*холодная*, though *-ая* also ends a gerund).
        return word.feat("Degree") != "Cmp" and LONG_ADJECTIVE.search(form) is not None
    if word.upos in ("VERB", "AUX") or form in MODALS or VERB_ENDING.search(form):
        return False
    return word.upos in ("NOUN", "PROPN", "PRON", "NUM", "DET")


def unsupported(words: list[Word], copied: int | None, remnants: list[Word]) -> bool:
    """Whether nothing but the ``orphan`` relation says a verb is elided: no antecedent, no dash standing for it.

    A gapped clause is a conjunct of its full clause, and the gapping rule
    copies the verb of the clause its promoted remnant is ``conj`` of
    (``CopyOf``).  When the parser hung the promoted remnant from a verb as
    anything else (*Шумит море, а нам с тобой в радость*: *нам* an oblique,
    *радость* its ``orphan``), the rest of its tree contradicts the
    ``orphan``; a dash between the remnants (:func:`~eud.gapping.dashes.gap_dash`)
    would still mark the elided verb, as Russian punctuation puts one in its
    place (*а сестра — в Тверь*).  With neither there is no gap.
    """
    return copied is None and not any(gap_dash(words, i) for i in range(remnants[0].id + 1, remnants[-1].id))


def gapped_clauses(sentence: Sentence) -> list[tuple[int, Word | None, list[Word], int | None]]:
    """Each gapped clause in text order: where its gap is, its promoted remnant, its remnants, the word copied.

    A clause with an empty node is read off the graph (:func:`~eud.agrr.remnants.remnants_of`, the node's ``CopyOf``);
    one the gapping rule made no empty node for, having found no antecedent to copy, off the
    basic tree's ``orphan`` relations, its gap after the promoted remnant.
    """
    words = sentence.words
    out = []
    governed: set[int] = set()
    for node in sorted(sentence.empty_nodes, key=lambda e: e.node):
        promoted, remnants = remnants_of(sentence, node)
        if promoted is not None:
            governed.add(promoted.id)
        out.append((node.major, promoted, remnants, copy_of(node)))
    heads = sorted({w.head for w in words if w.deprel == "orphan" and w.head and w.head not in governed
                    and words[w.head - 1].deprel != "orphan"})
    for head in heads:
        promoted = words[head - 1]
        remnants = [promoted] + [w for w in words if w.head == head and w.deprel == "orphan"]
        out.append((head, promoted, sorted(remnants, key=lambda w: w.id), None))
    return sorted(out, key=lambda clause: clause[0])
