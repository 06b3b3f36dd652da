"""The remnants AGRR names as ``R1`` and ``R2``: the words of a gapped clause that contrast with the full clause.

In eud's enhanced graph (the UD ellipsis guideline,
https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis) a gapped clause's
remnants are the *promoted* remnant, which heads the clause in the basic tree and depends on the
empty node in the graph, and its ``orphan`` dependents (:func:`remnants_of`).  AGRR-2019
(https://github.com/dialogue-evaluation/AGRR-2019) names two remnants per gap, ``R1`` and ``R2``,
one span each per gapped clause (:func:`remnant_spans`):

* each remnant in word order is the words of its basic subtree without the other remnants'
  subtrees (:func:`remnant_ids`); the promoted remnant also without the clause's ``cc``,
  ``punct``, ``mark`` and other clause-level dependents, but with a ``conj`` that is no clause of
  its own (*богатство и знатность — от Неба*) and with a ``cc`` after the clause's first
  remnant, which cannot be the clause's conjunction (*П.П. Бирюков*: initials tagged as
  conjunctions);
* with more than two remnants (the parser split one: *микотоксинов и пестицидов - по методам*),
  those before the first dash standing for the verb make ``R1`` and the rest ``R2``, else the
  promoted remnant makes ``R2`` when it is the last and the first makes ``R1`` otherwise; a
  remnant that a bracket, semicolon or dash parts from the one before is dropped
  (:func:`remnant_groups`);
* a dash standing for the verb between the two (not a range, *25 - 39%*:
  :func:`~eud.gapping.dashes.gap_dash`) parts them whatever the tree says: the words before it are
  ``R1``, those after it ``R2``; without one, neither reaches over the other's remnants;
* each runs from its first to its last word, punctuation at the edges trimmed and a closing
  bracket, quote or abbreviation dot taken in (:mod:`eud.agrr.spans`, *в 2006 г.*), without a
  relative clause on *что* about the whole clause (*3360 руб., что соответствует …*:
  :func:`sentential_relative`), without an introductory phrase at an edge and a closing *и так
  далее* (*тот, в свою очередь*; *к очередному водоему и так далее*: :func:`aside`), and ``R1``
  also without the clause's conjunction at its start (*а*, *и*, *как*: AGRR never starts ``R1``
  with one).

Which remnants count at all (an introductory word is none; a bracketed aside's framing adverbial
has no correlate) is decided in :mod:`eud.agrr.clauses`.
"""

from __future__ import annotations

from eud.agrr.files import Span
from eud.agrr.spans import closed, phrase_span, punctuation, text_of
from eud.gapping.correlates import BasicTree
from eud.gapping.dashes import gap_dash
from eud.graph import EmptyNode, Sentence, Word

SEPARATORS = {";", "(", ")", "[", "]"}

# Dependents of the promoted remnant that belong to the clause, not to the remnant's phrase.
NOT_PHRASE = {"cc", "punct", "mark", "discourse", "vocative", "aux", "cop", "parataxis", "conj", "orphan"}
# A conjunct with one of these is a clause of its own (*..., ответ директора был отрицательным*).
OWN_CLAUSE = {"orphan", "nsubj", "csubj", "cop", "aux"}

# Russian introductory words and phrases (вводные слова), and the additive "также": they are no member of
# the clause and contrast with nothing, so they are never remnants (clauses.parenthetical()).  Left out are those
# that also read as clause members (*с другой стороны* "on the other side", *в целом*, *возможно*).
INTRODUCTORY = {"например", "к примеру", "точнее", "вернее", "впрочем", "итак", "кстати", "в частности",
                "более того", "одним словом", "к тому же", "кроме того", "главное", "по-моему", "по моему",
                "наверное", "наверно", "видимо", "разумеется", "конечно", "безусловно", "пожалуй", "стало быть",
                "следовательно", "так сказать", "иначе говоря", "другими словами", "вроде бы", "вероятно",
                "кажется", "во-первых", "во-вторых", "в-третьих", "таким образом", "в итоге", "правда",
                "также", "так же", "в свою очередь", "скажем", "при этом", "в том числе", "по мне",
                "вообще говоря", "как правило", "по сути", "в сущности", "в большей степени", "в меньшей степени",
                "в более общем смысле", "по виду"}

# "And so on": it closes a list and contrasts with nothing (aside()); the abbreviations as the tokens spell them.
ETCETERA = {"так далее", "тому подобное", "прочее", "т д", "т п"}


def remnant_ids(tree: BasicTree, i: int, stop: set[int], clause_head: bool, first: int | None = None) -> set[int]:
    """Word ``i``'s phrase as a remnant: its subtree without ``stop``; for the promoted remnant, without the clause's dependents.

    The promoted remnant heads the gapped clause, so its ``cc``, ``punct``,
    ``mark`` and the like belong to the clause; its ``conj`` is a conjunct of
    its phrase (*богатство и знатность — от Неба*) unless it is a clause of its
    own: a verb, or a word with ``orphan`` dependents (the next gapped clause).
    A ``cc`` after the clause's ``first`` remnant is not the clause's
    conjunction, which opens the clause: it belongs to the phrase (*П.П.
    Бирюков*, initials the tagger calls conjunctions).
    """
    words = tree.sentence.words
    skip = set(stop)
    if clause_head:
        # The clause's conjunction comes before its first remnant (*, а заместителем — П.П. Бирюков*).
        inside = {c for c in tree.children[i] if words[c - 1].udeprel == "cc" and first is not None and first < c < i}
        skip |= {c for c in tree.children[i] if words[c - 1].udeprel in NOT_PHRASE and not _conjunct(tree, c)
                 and (words[c - 1].udeprel != "punct" or punctuation(words[c - 1])) and c not in inside}
    return tree.subtree(i, skip)


def _conjunct(tree: BasicTree, c: int) -> bool:
    """Whether word ``c`` is a ``conj`` that coordinates within a phrase, not a clause (no verb, no ``orphan``)."""
    words = tree.sentence.words
    return (words[c - 1].udeprel == "conj" and words[c - 1].upos not in ("VERB", "AUX")
            and not any(words[d - 1].udeprel in OWN_CLAUSE for d in tree.children[c]))


def remnant_groups(words: list[Word], remnants: list[Word], promoted: Word | None = None) -> tuple[list[Word], list[Word]]:
    """The remnants (word order) that make ``R1`` and those that make ``R2``.

    AGRR names two remnants per gap; the parser can split one into several
    (*Олечку Петрову*, *микотоксинов и пестицидов - по методам*).  The split
    falls at the first dash standing for the verb between two remnants
    (:func:`~eud.gapping.dashes.gap_dash`), else next to the ``promoted``
    remnant when it is the last: the parser gives the whole phrase it heads
    to the promoted remnant, so the orphans before it are pieces of the
    other remnant (*а сегодня | утром | 36,7*, *а уже | потом | в мужчину*);
    else after the first remnant.
    """
    for k in range(1, len(remnants)):
        if any(gap_dash(words, i) for i in range(remnants[k - 1].id + 1, remnants[k].id)):
            return remnants[:k], remnants[k:]
    if promoted is remnants[-1]:
        return remnants[:-1], remnants[-1:]
    return remnants[:1], remnants[1:]


def _adjoining(words: list[Word], group: list[Word]) -> list[Word]:
    """A group's remnants up to the first one that a bracket, a semicolon or a spaced dash parts from the previous one.

    *... и немых — говорящими (Марк 7:36,37)*: *Марк* is no remnant.
    """
    out = group[:1]
    for r in group[1:]:
        between = words[out[-1].id:r.id - 1]
        if any(w.form in SEPARATORS or gap_dash(words, w.id) and "SpaceAfter=No" not in words[w.id - 2].misc
               for w in between):
            break
        out.append(r)
    return out


def remnant_spans(tree: BasicTree, offsets: list[tuple[int, int]], promoted: Word, remnants: list[Word]) -> list[Span]:
    """``R1`` and (with two remnants or more) ``R2`` of one gap (see the module docstring)."""
    words = tree.sentence.words
    ids = {r.id for r in remnants}
    own = {r.id: remnant_ids(tree, r.id, ids - {r.id}, r is promoted, remnants[0].id) for r in remnants}
    first, second = (_adjoining(words, group) for group in remnant_groups(words, remnants, promoted))
    parts = [set().union(*(own[r.id] for r in group)) for group in (first, second) if group]
    if len(parts) > 1:
        last_head, next_head = max(r.id for r in first), min(r.id for r in second)
        dashes = [i for i in range(last_head + 1, next_head) if gap_dash(words, i)]
        if dashes:
            # The dash standing for the verb parts the remnants, whatever the tree says.
            every = parts[0] | parts[1]
            before = {i for i in every if i < dashes[-1]}
            after = {i for i in every if i > dashes[-1]}
            if before and after:
                parts = [before, after]
        else:
            # A remnant's phrase does not reach over the other remnant's words.
            parts = [{i for i in parts[0] if i < next_head} or parts[0], {i for i in parts[1] if i > last_head} or parts[1]]
    parts = [part - sentential_relative(tree, part) or part for part in parts]
    parts = [part - aside(words, part) or part for part in parts]
    # The first remnant starts after the clause's conjunction (*а*, *и*, *как*).
    return [closed(words, offsets, phrase_span(tree, offsets, part, conjunction=k == 0)) for k, part in enumerate(parts)]


def aside(words: list[Word], phrase: set[int]) -> set[int]:
    """The words at a remnant phrase's edge that are no part of it: an introductory phrase after or before a comma, or "and so on".

    The parser hangs an introductory word (:data:`INTRODUCTORY`) from the
    nearest noun (*первым вице-премьером, скажем*; *тот, в свою очередь*),
    and a closing *и так далее* (:data:`ETCETERA`) from the last conjunct
    (*к очередному водоему и так далее*), where it carries the row of gapped
    clauses on; neither contrasts with anything in the full clause, and AGRR
    leaves them out of the remnant.  An *и т. д.* that closes a list inside
    the remnant (*Обман, Несдержанность, Скорбь и т. д.*) stays.
    """
    ids = sorted(k for k in phrase if not punctuation(words[k - 1]))
    out: set[int] = set()
    for j in range(1, len(ids)):
        # A comma in the sentence (the phrase may not hold it) parts the introductory words from the rest.
        if words[ids[j] - 2].form == "," and text_of(words, ids[j:]) in INTRODUCTORY:
            out |= {k for k in phrase if k >= ids[j] - 1}
        if words[ids[j - 1]].form == "," and text_of(words, [k for k in ids[:j] if words[k - 1].udeprel != "cc"]) in INTRODUCTORY:
            out |= {k for k in phrase if k <= ids[j - 1] + 1}
    for n in range(1, min(4, len(ids) - 1)):
        # A closing "и так далее", "и т. д." with its "и", unless it closes a list in the phrase (*Обман, Скорбь и т. д.*).
        start = ids[-n - 1]
        if (words[start - 1].form.lower() == "и" and text_of(words, ids[-n:]) in ETCETERA
                and not any(words[k - 1].form == "," or words[k - 1].udeprel == "cc" for k in phrase if k < start)):
            out |= {k for k in phrase if k >= start}
    return out


# The relative pronoun that can stand for a whole clause (*..., что соответствует ...*, *..., о чем свидетельствуют ...*).
WHAT = {"что", "чего", "чему", "чем", "чём"}


def sentential_relative(tree: BasicTree, phrase: set[int]) -> set[int]:
    """The words of a relative clause on *что* in a remnant's phrase that comments on the whole gapped clause.

    *а во 2-м кв. 2002 года - 3360 руб., что соответствует 155,8% ПМ*;
    *а в поперечном направлении — жестким ферромагнетиком, о чем
    свидетельствуют петли*: the parser hangs the clause from the remnant's
    last noun, but it is about the whole clause, and AGRR leaves it out of
    the remnant.  A clause on *что* that completes a pronoun stays (*все,
    что ты любишь*; *в то, что видят*), and so does one on *который*,
    *где*, or a comparative *чем* without a preposition.
    """
    words = tree.sentence.words
    out: set[int] = set()
    for k in phrase:
        word = words[k - 1]
        if word.udeprel not in ("acl", "parataxis") or word.head not in phrase:
            continue
        if words[word.head - 1].upos in ("PRON", "DET"):
            continue
        ids = sorted(i for i in tree.subtree(k, set()) if i in phrase and not punctuation(words[i - 1]))
        # The pronoun starts the clause, after its preposition if any (a bare *чем* is comparative).
        pronoun = ids[1] if words[ids[0] - 1].upos == "ADP" and len(ids) > 1 else ids[0]
        form = words[pronoun - 1].form.lower()
        if (form == "что" or pronoun != ids[0] and form in WHAT) and ids[0] > 1 and words[ids[0] - 2].form == ",":
            out |= {i for i in tree.subtree(k, set()) if i in phrase}
    return out


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
