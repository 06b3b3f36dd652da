"""AGRR answers read off an enhanced graph: which gap eud restored, and where.

AGRR-2019 (https://github.com/dialogue-evaluation/AGRR-2019) marks each gapped sentence's gap
``V``, the verb it copies ``cV``, the remnants ``R1``/``R2`` and their correlates ``cR1``/``cR2``;
eud's graph marks the gap as an empty node (https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis).

:func:`answer` maps the empty nodes that the gapping rule
(:class:`~eud.gapping.rule.Gapping`) made in a sentence to an AGRR row:

* ``class`` is 1 when the gapping rule made at least one empty node with
  two remnants or more; an introductory word or phrase (*например*,
  *точнее*, *более того*) is no remnant (:func:`parenthetical`), and a
  full clause without a verb, a zero copula's nominal sentence, elides
  none (:func:`verbless`, *глаза голубые, а клюв – белый*), and a node
  without antecedent whose remnants no dash parts is no gap
  (:func:`unsupported`);
* ``V``, one zero-width span per empty node: AGRR puts the gap right before
  the second remnant, after any dash or comma standing for the verb, so
  ``V`` is the start of ``R2`` (below).  With a single remnant it is the
  offset where the empty node sits: the start of the first word after it
  (the word whose id is the node's major part plus one) that has a letter or
  digit, or the end of the last word when there is none.  (The rule places
  the node after the first remnant's phrase, which the parser's attachments
  can stretch over the second remnant, so the second remnant's start is the
  better place: ``eval/journal/``);
* ``cV`` is the span of the word the first empty node copies (``CopyOf``),
  or of its copula or verb head when it is not a verb (:func:`verb_of`: an
  auxiliary gives way to its infinitive or passive participle, *были
  адресованы*; a predicative modal is the verb, *должна была нести*, and so
  is *мочь* over the infinitive or participle the gapped clause hangs from,
  *могут быть связаны*; the frozen *может быть* + a short passive participle
  marks the participle, *может быть записан*; past *быть* hung as an
  auxiliary from anything else is the verb, *было выше*); when the rule
  found no antecedent (the promoted remnant hangs from a verb as ``obl``,
  say, rather than as ``conj``), the first verb
  above the promoted remnant, else the last verb before it
  (:func:`antecedent`); another verb before the gapped clause whose
  dependents parallel the remnants far better than the copied verb's is
  taken instead (:func:`antecedent_verb`: the parser hung the gapped clause
  from a verb in a bracket, *добавьте 4 капли (он … стимулирует …), а для
  мужчины - 3 капли*);
* ``R1``/``R2``, one span each per empty node (:func:`remnant_spans`): the
  promoted remnant and its ``orphan`` dependents in word order, each as the
  words of its basic subtree without the other remnants' subtrees; the
  promoted remnant also without the clause's ``cc``, ``punct``, ``mark`` and
  other clause-level dependents, but with a ``conj`` that is no clause of
  its own (*богатство и знатность — от Неба*) and with a ``cc`` after the
  clause's first remnant, which cannot be the clause's conjunction (*П.П.
  Бирюков*: initials tagged as conjunctions).  With more than two remnants
  (the parser split one: *микотоксинов и пестицидов - по методам*), those
  before the first dash standing for the verb make ``R1`` and the rest
  ``R2``, else the promoted remnant makes ``R2`` when it is the last and
  the first makes ``R1`` otherwise; in a gapped clause in brackets, a first
  remnant that is an adverbial with no counterpart in the full clause is
  left out, and the second is ``R1`` (:func:`framing`, *(в 2004 г. — на
  16,7%)*: ``R1`` *на 16,7%*); a remnant that a bracket, semicolon
  or dash parts from the one before is dropped (:func:`remnant_groups`).
  A dash standing for the verb between the two (not a range, *25 - 39%*:
  :func:`~eud.gapping.dashes.gap_dash`) parts them whatever the tree says: the words before it
  are ``R1``, those after it ``R2``; without one, neither reaches over the
  other's remnants.  Each runs from its first to its last word,
  punctuation at the edges trimmed (a letter the tagger calls punctuation,
  *в точке х*, stays: :func:`punctuation`), without a relative clause on
  *что* about the whole clause (*3360 руб., что соответствует …*:
  :func:`sentential_relative`), without an introductory phrase at an edge
  and a closing *и так далее* (*тот, в свою очередь*; *к очередному
  водоему и так далее*: :func:`aside`), ``R1`` also without the clause's
  conjunction at its start (*а*, *и*, *как*: AGRR never starts ``R1`` with
  one), and a bracket, quote or abbreviation dot closing it is taken in
  (:func:`closed`, *в 2006 г.*);
* ``cR1``/``cR2`` are the correlates of the first empty node's ``R1`` and
  ``R2`` (the first remnant of each) among the copied word's dependents, the dependents of an
  infinitive it governs, a copula clause's predicate, the nominal
  modifiers of all these and a noun's instrumental adjective that does not
  agree with it (a secondary predicate, *считает брата умным*:
  :func:`secondary_predicate`) (:func:`correlates`, scored with :func:`fit`), spanned the same way but
  without the verb, the other correlate, anything from the gapped clause
  on and anything on the other side of the verb; a copula clause's
  predicate without the clause's subject and other clause-level
  dependents (:func:`correlate_span`).  A noun's, proper noun's,
  numeral's or symbol's phrase also takes the nominal phrase that the parser hung from the verb right after
  it, with no word between, when it is an argument or oblique of the verb
  and no other correlate: *Смертность от инфарктов* where *от инфарктов*
  hangs from the verb, *56% жителей*, where UD tags *%* a symbol that reads
  as the noun *процентов* (:func:`trailing_phrase`); after a prepositional
  correlate, not a bare non-genitive phrase when the remnant ends with its
  own head (*В феврале | совокупный капитал*: :func:`another_argument`).  A remnant that is an
  adjective or numeral without its noun and without a preposition
  (*четверо спортсменов …, а шестеро — …*) has as correlate only the
  correlate noun's modifiers of its part of speech, *четверо*
  (:func:`bare_modifier`, :func:`noun_modifiers`); an adjective only when it
  is the second remnant: the first names the thing it contrasts with the
  correlate's whole phrase (*Ненулевое значение …, а нулевое — …*).  The words right before
  or after a correlate's phrase that repeat the remnant's words at the same
  distance (*на 35.5% г/г … на 37.6% г/г*, *слишком долгим … слишком
  глубокой*) join it, with their own dependents (:func:`parallel_words`).
  A phrase on *чем* takes the comparative before it, which the parser
  hangs from the verb (*более, чем на 200%*: :func:`comparative`); a numeral or quantifier takes the
  partitive *из*-phrase after it, which the parser hangs from the verb (*один из них*:
  :func:`partitive`); a subject noun takes a possessive *его*, *её*, *их* after it (*голова его*:
  :func:`possessive`); an adverb of degree right
  before a phrase grades it wherever the parser hung it (*слишком долгим*, *почти в четыре раза*:
  :func:`degree_words`); before an adjective or adverb it is no candidate itself.  A nominal
  correlate takes the relative clause on *который* or the participial phrase
  that a comma sets off after it, wherever the parser hung it (*глазу,
  который был закрыт*, *Лицо, передающее сигнал*: :func:`attribute_clause`).  Punctuation at a phrase's
  edges is trimmed, except a closing bracket or quote whose opening one is
  inside; a correlate's phrase also takes such a bracket or quote, or the
  dot of an abbreviation, attached right after it (:func:`closed`).
"""

from __future__ import annotations

import dataclasses
import itertools
import re

from eud.agrr.files import AgrrRow, Span
from eud.gapping.correlates import BasicTree, pair_score
from eud.gapping.dashes import DASHES, gap_dash
from eud.graph import EmptyNode, Sentence, Word

# How a remnant's fit with a candidate correlate is scored (see correlates()):
ORDER_COST = 6.0  # a pair of correlates in the opposite order to their remnants
CASE_COST = 2.0  # a Case mismatch (the tags are predicted)
FORM_BONUS = 3.0  # the same form
ENDING_BONUS = 1.5  # the same last two letters
ADVERB_COST = 3.0  # an adverb or particle for a remnant that is neither
PERSONAL_COST = 3.0  # a personal pronoun for a remnant that is no pronoun
NESTED_COST = 3.0  # a noun's nominal modifier
DISTANCE_COST = 0.15  # per word between the candidate and the verb
UNMATCHED_COST = 5.0  # a remnant left without a correlate (when a verb is compared with another, antecedent_verb())
ANTECEDENT_MARGIN = 10.0  # how much better another verb's correlates must fit than the copied verb's (antecedent_verb())
# Abbreviations whose dot belongs to the phrase even before a capital (*млн. USD*); any other
# short lowercase word's dot does only before a lowercase word or a dash (*в 2005 г. - ...*),
# and the last word's dot never does (the sentence's full stop: *... а ты вниз.*).
ABBREVIATIONS = {"г", "гг", "руб", "тыс", "млн", "млрд", "трлн", "долл", "чел", "т", "д", "п", "пп", "с", "см",
                 "стр", "рис", "табл", "ст", "ул", "им", "кв", "куб", "коп", "мин", "сек", "ч", "шт", "экз"}
SEPARATORS = {";", "(", ")", "[", "]"}
CLOSING = {"»": "«", ")": "(", "]": "[", "”": "“", '"': '"', "“": "„"}
# The words whose phrase can take a postmodifier hung from the verb, and the relations it then has (trailing_phrase()).
NOMINAL = {"NOUN", "PROPN", "NUM", "X"}
TRAILING = {"obl", "nsubj", "obj", "iobj", "nmod"}
# A remnant of one of these parts of speech without its noun pairs with the correlate noun's modifiers of its part of speech.
MODIFIERS = {"ADJ", "NUM"}
# Dependents of the copied word that are never correlates.
NOT_CANDIDATE = {"punct", "cc", "conj", "aux", "cop", "mark", "case", "parataxis", "orphan", "root",
                 "discourse", "fixed", "flat", "goeswith", "reparandum", "expl"}

# A short passive participle's suffix and ending (*записан*, *задано*, *адресованы*, *открыт*, *одеты*, *принято*).
PARTICIPLE = re.compile(r"(?:ан|ян|ен|ён|[ыуоиея]т)[аоы]?$")
# Short adjectives spelt like participles.
SHORT_ADJECTIVES = {"нужен", "нужна", "нужно", "нужны", "виден", "видна", "видно", "видны", "болен", "способен",
                    "согласен", "свободен", "уверен", "уверена", "уверено", "уверены", "известен", "интересен"}
# The past tense of *быть*.
PAST_BE = {"был", "была", "было", "были"}
# Predicative modals: AGRR marks them, not their copula (*должна была нести*, *надо было сохранить*).
MODALS = {"должен", "должна", "должно", "должны", "надо", "нужно", "можно", "необходимо", "нельзя"}
# Dependents of the promoted remnant that belong to the clause, not to the remnant's phrase.
NOT_PHRASE = {"cc", "punct", "mark", "discourse", "vocative", "aux", "cop", "parataxis", "conj", "orphan"}
# A conjunct with one of these is a clause of its own (*..., ответ директора был отрицательным*).
OWN_CLAUSE = {"orphan", "nsubj", "csubj", "cop", "aux"}
# Dependents of a copula clause's predicate that belong to the clause, not to the predicate's phrase.
CLAUSE_LEVEL = NOT_PHRASE - {"conj"} | {"nsubj", "csubj", "expl", "obj", "iobj", "obl", "advcl", "dislocated"}
# Russian introductory words and phrases (вводные слова), and the additive "также": they are no member of
# the clause and contrast with nothing, so they are never remnants (parenthetical()).  Left out are those
# that also read as clause members (*с другой стороны* "on the other side", *в целом*, *возможно*).
INTRODUCTORY = {"например", "к примеру", "точнее", "вернее", "впрочем", "итак", "кстати", "в частности",
                "более того", "одним словом", "к тому же", "кроме того", "главное", "по-моему", "по моему",
                "наверное", "наверно", "видимо", "разумеется", "конечно", "безусловно", "пожалуй", "стало быть",
                "следовательно", "так сказать", "иначе говоря", "другими словами", "вроде бы", "вероятно",
                "кажется", "во-первых", "во-вторых", "в-третьих", "таким образом", "в итоге", "правда",
                "также", "так же", "в свою очередь", "скажем", "при этом", "в том числе", "по мне",
                "вообще говоря", "как правило", "по сути", "в сущности", "в большей степени", "в меньшей степени",
                "в более общем смысле", "по виду"}
# Adverbials of condition or occasion that qualify a whole gapped clause (*находится под контролем филиала, а
# при необходимости — центрального аппарата*): they contrast with nothing in the full clause, so they are no
# remnant either; AGRR names a remnant only with a correlate.
QUALIFYING = {"при необходимости", "в случае необходимости", "при желании", "на этот раз", "в этот раз"}
# "And so on": it closes a list and contrasts with nothing (aside()); the abbreviations as the tokens spell them.
ETCETERA = {"так далее", "тому подобное", "прочее", "т д", "т п"}


def copy_of(node: EmptyNode) -> int | None:
    """The word id in the node's ``CopyOf`` MISC attribute, if any."""
    for item in (node.misc or "_").split("|"):
        if item.startswith("CopyOf="):
            value = item[len("CopyOf="):]
            return int(value) if value.isdigit() else None
    return None


def phrase_ids(tree: BasicTree, i: int, stop: set[int], before: int = 1 << 30, verb: int | None = None) -> set[int]:
    """Word ``i``'s subtree without ``stop``'s subtrees: only words before ``before``, and with ``verb`` only those on word ``i``'s side of it."""
    return {k for k in tree.subtree(i, stop) if k < before and (verb is None or (k < verb) == (i < verb))}


def phrase_span(tree: BasicTree, offsets: list[tuple[int, int]], phrase: set[int], conjunction: bool = False) -> Span:
    """Character span of a phrase's words from the first to the last, punctuation at the edges trimmed (see the module docstring).

    With ``conjunction`` a clause's conjunction or marker at the start is trimmed too (*а*, *и*, *как*).
    """
    words = tree.sentence.words
    ids = sorted(phrase)
    while len(ids) > 1 and (punctuation(words[ids[0] - 1]) or conjunction and (
            words[ids[0] - 1].upos in ("CCONJ", "SCONJ") or words[ids[0] - 1].udeprel in ("cc", "mark"))):
        ids.pop(0)
    while len(ids) > 1 and punctuation(words[ids[-1] - 1]) and not _closes(words, ids):
        ids.pop()
    return offsets[ids[0] - 1][0], offsets[ids[-1] - 1][1]


def punctuation(word: Word) -> bool:
    """Whether a word is punctuation: tagged so and with no letter or digit.

    The tagger calls a one-letter variable punctuation and hangs it as
    ``punct`` (*в точке х*, *подпространство F*, *через L*); it belongs to
    the phrase.
    """
    return word.upos == "PUNCT" and not any(ch.isalnum() for ch in word.form)


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
        if words[ids[j] - 2].form == "," and _text(words, ids[j:]) in INTRODUCTORY:
            out |= {k for k in phrase if k >= ids[j] - 1}
        if words[ids[j - 1]].form == "," and _text(words, [k for k in ids[:j] if words[k - 1].udeprel != "cc"]) in INTRODUCTORY:
            out |= {k for k in phrase if k <= ids[j - 1] + 1}
    for n in range(1, min(4, len(ids) - 1)):
        # A closing "и так далее", "и т. д." with its "и", unless it closes a list in the phrase (*Обман, Скорбь и т. д.*).
        start = ids[-n - 1]
        if (words[start - 1].form.lower() == "и" and _text(words, ids[-n:]) in ETCETERA
                and not any(words[k - 1].form == "," or words[k - 1].udeprel == "cc" for k in phrase if k < start)):
            out |= {k for k in phrase if k >= start}
    return out


def _text(words: list[Word], ids: list[int]) -> str:
    """The words' forms in lower case, one space apart."""
    return " ".join(words[k - 1].form.lower() for k in ids)


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


def _closes(words: list[Word], ids: list[int]) -> bool:
    """Whether the last word closes a bracket or quote opened inside the phrase (it then stays)."""
    last = words[ids[-1] - 1].form
    opener = CLOSING.get(last)
    return opener is not None and any(words[k - 1].form == opener for k in ids[:-1])


def parenthetical(tree: BasicTree, remnant: Word, promoted: Word, remnants: list[Word]) -> bool:
    """Whether a remnant's phrase is an introductory word or phrase (:data:`INTRODUCTORY`, :data:`QUALIFYING`), not a remnant.

    The parser takes *например*, *точнее*, *более того* for the first
    remnant of a clause that has one remnant at most: *Знамена будут не
    красно-коричневые, а - например - черно-оранжевые*; *Сделал несчастного
    чуть более счастливым, точнее, чуть менее несчастным*.  On the AGRR
    training four fifths, each of the 13 such predicted gaps is class 0.
    """
    words = tree.sentence.words
    ids = remnant_ids(tree, remnant.id, {r.id for r in remnants} - {remnant.id}, remnant is promoted)
    text = _text(words, [k for k in sorted(ids) if not punctuation(words[k - 1]) and words[k - 1].udeprel != "cc"])
    return text in INTRODUCTORY or text in QUALIFYING


def framing(tree: BasicTree, remnant: Word, candidates: list[Word]) -> bool:
    """Whether a first remnant is an adverbial that frames the gapped clause, with no counterpart in the full one.

    AGRR names a remnant only with a correlate: in *возросло на 16,4% (в 2004
    г. — на 16,7%)* the only remnant is *на 16,7%*, while *в январе 2005 г.
    … (в январе 2004 г. — на 3%)* has two.  A prepositional phrase is such
    an adverbial when no candidate correlate has its preposition, an adverb
    when no candidate is an adverb.  :func:`answer` asks this only of a
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


def _bracketed(words: list[Word], offsets: list[tuple[int, int]], span: Span) -> bool:
    """Whether an opening bracket is the word right before a span."""
    before = [k for k, (_, end) in enumerate(offsets) if end <= span[0]]
    return bool(before) and words[before[-1]].form == "("


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


def candidates_of(tree: BasicTree, source: Word, remnants: list[Word]) -> list[Word]:
    """The words of the full clause that can be a remnant's correlate (see :func:`correlates`)."""
    words = tree.sentence.words
    base = predicate_of(tree.sentence, source)
    first = min(r.id for r in remnants)
    taken = {r.id for r in remnants} | {source.id}
    out = [words[c - 1] for c in tree.children[base.id]]
    # The arguments of an infinitive the verb governs (*можно превратить пузо в живот*).
    out += [words[d - 1] for c in out if c.udeprel in ("xcomp", "csubj") and c.upos == "VERB"
            for d in tree.children[c.id]]
    # A noun's nominal modifier (*уровень зарплат вырос ..., пенсий - ...*), and an instrumental adjective after
    # it in another case, which cannot be its attribute: a secondary predicate (*считает брата умным*).
    out += [words[d - 1] for c in out if c.upos in ("NOUN", "PROPN", "PRON", "NUM")
            for d in tree.children[c.id] if words[d - 1].udeprel == "nmod" or secondary_predicate(words, c, d)]
    # An adverb of degree before an adjective or adverb grades it and contrasts with nothing itself (degree():
    # *слишком долгим*); before a preposition or number it may head the phrase (*приблизительно до 1/4*).
    out = [c for c in out if c.id not in taken and c.id < first and c.udeprel not in NOT_CANDIDATE
           and c.upos not in ("PUNCT", "CCONJ", "SCONJ", "ADP")
           and not (degree(tree, c.id) and words[c.id].upos in ("ADJ", "ADV"))]
    if base is not source and base.id < first:
        out.append(base)  # the predicate of a copula clause, whatever its relation (root, conj, ...)
    return out


def secondary_predicate(words: list[Word], noun: Word, d: int) -> bool:
    """Whether word ``d``, hung from ``noun`` as ``amod``, is an instrumental adjective after it that does not agree in case.

    A Russian attribute agrees with its noun in case; an instrumental
    adjective after a noun in another case is a secondary predicate of the
    verb that the parser hung from the noun (*считает брата | умным, а
    сестру — глупой*), and contrasts with a remnant like any argument.
    """
    adjective = words[d - 1]
    return (adjective.udeprel == "amod" and adjective.upos == "ADJ" and d > noun.id
            and adjective.feat("Case") == "Ins" and noun.feat("Case") not in (None, "Ins"))


def predicate_of(sentence: Sentence, source: Word) -> Word:
    """The word heading the full clause: the copied word, or the predicate of a copula or the verb of an auxiliary."""
    if source.udeprel in ("cop", "aux") and source.head:
        return sentence.words[source.head - 1]
    return source


def tagged_pair_score(tree: BasicTree, remnant: Word, candidate: Word) -> float:
    """:func:`~eud.gapping.correlates.pair_score`, with a Case mismatch costing :func:`case_cost` instead of ruling the pair out.

    The Case tags are predicted, and Russian syncretism (an inanimate
    accusative like a nominative) makes them miss often; the part of speech,
    the preposition and the lemma still count.  Any other mismatch (a
    function word) scores -3.
    """
    score = pair_score(tree, remnant, candidate)
    rc, cc = remnant.feat("Case"), candidate.feat("Case")
    if score <= -10 and rc and cc and rc != cc:
        caseless = "|".join(f for f in candidate.feats.split("|") if not f.startswith("Case=")) or "_"
        score = pair_score(tree, remnant, dataclasses.replace(candidate, feats=caseless)) - case_cost(remnant, candidate)
    return -3.0 if score <= -10 else score


def case_cost(remnant: Word, candidate: Word) -> float:
    """What a Case mismatch costs: nothing for nominative against accusative, which Russian often spells alike.

    An inanimate masculine or neuter singular, and every inanimate plural,
    has the same form in both cases (*все*, *сердце*, *Шанырак*), so a
    tagger's nominative may well be an accusative.
    """
    if {remnant.feat("Case"), candidate.feat("Case")} == {"Nom", "Acc"} and "Anim" not in (
            remnant.feat("Animacy"), candidate.feat("Animacy")):
        return 0.0
    return CASE_COST


def form_match(remnant: Word, candidate: Word) -> float:
    """A bonus for the same form, or the same inflectional ending, which predicted Case tags can miss.

    *Кому-то в этом помогает Земфира, кому-то ...*: the same pronoun;
    *Мир был юным, а будущее – предельным*: the same ending *-ым*.
    """
    a, b = remnant.form.lower(), candidate.form.lower()
    if a == b:
        return FORM_BONUS
    if len(a) > 3 and len(b) > 3 and a[-2:] == b[-2:] and a.isalpha() and b.isalpha():
        return ENDING_BONUS
    return 0.0


def personal(word: Word) -> bool:
    """Whether a word is a personal pronoun (*я*, *она*, *нас*): a pronoun with a Person feature."""
    return word.upos == "PRON" and word.feat("Person") is not None


def fit(tree: BasicTree, source: Word, remnant: Word, candidate: Word) -> float:
    """How well a remnant fits a candidate correlate (see :func:`correlates`)."""
    score = tagged_pair_score(tree, remnant, candidate) + form_match(remnant, candidate)
    if candidate.upos in ("ADV", "PART") and remnant.upos not in ("ADV", "PART"):
        score -= ADVERB_COST  # "сначала", "не": adverbs contrast with adverbs
    if personal(candidate) and remnant.upos != "PRON":
        score -= PERSONAL_COST  # "Определение переменных мы рассмотрим в разделе 3.4, а команду MOV — в 3.2": shared
    if candidate.udeprel == "nmod":
        score -= NESTED_COST
    return score - DISTANCE_COST * abs(candidate.id - source.id)


def correlates(tree: BasicTree, source: Word, remnants: list[Word]) -> list[Word | None]:
    """The correlate of each remnant in the full clause (None only when there is no candidate).

    Candidates (:func:`candidates_of`) are the dependents of the copied word
    (of its predicate, and that predicate itself, when the copied word is a
    copula) and of an infinitive it governs (``xcomp``, ``csubj``), and the
    ``nmod`` dependents of nominal ones, that stand before the first remnant
    and are not function words, punctuation or other clauses.  Each remnant
    takes a different candidate; the pairs are chosen together to maximise
    their :func:`fit`: :func:`eud.gapping.correlates.pair_score`, where a
    Case mismatch costs :data:`CASE_COST` (nothing between nominative and
    accusative, :func:`case_cost`) rather than ruling the pair out (the tags
    are predicted: :func:`tagged_pair_score`), plus :data:`FORM_BONUS` for
    the same form or :data:`ENDING_BONUS` for the same last two letters
    (:func:`form_match`), minus :data:`ADVERB_COST` for an adverb or
    particle when the remnant is neither, minus :data:`PERSONAL_COST` for a
    personal pronoun when the remnant is no pronoun (such a subject is
    mostly shared by both clauses), minus :data:`NESTED_COST` for a noun's
    nominal modifier, minus :data:`DISTANCE_COST` per word between the
    candidate and the verb; and :data:`ORDER_COST` is subtracted when the
    correlates come in the opposite order to the remnants.  AGRR always names
    a correlate, so a remnant is never left without one while a candidate is
    free.
    """
    return best_pairs(tree, source, remnants)[1]


def best_pairs(tree: BasicTree, source: Word, remnants: list[Word]) -> tuple[float, list[Word | None]]:
    """:func:`correlates` with its score: the sum of the pairs' :func:`fit`, the order cost, and :data:`UNMATCHED_COST` per remnant left without a correlate."""
    candidates = candidates_of(tree, source, remnants)
    best: tuple[float, list[Word | None]] = (-UNMATCHED_COST * len(remnants), [None] * len(remnants))
    if not candidates:
        return best
    best = (float("-inf"), best[1])
    for combo in itertools.permutations(candidates + [None] * len(remnants), len(remnants)):
        if all(c is None for c in combo) or any(c is None for c in combo) and len(candidates) >= len(remnants):
            continue
        total = sum(fit(tree, source, r, c) if c is not None else -UNMATCHED_COST for r, c in zip(remnants, combo))
        placed = [c.id for c in combo if c is not None]
        total -= ORDER_COST * sum(1 for a, b in itertools.combinations(placed, 2) if a > b)
        if total > best[0]:
            best = (total, list(combo))
    return best


def antecedent_verb(tree: BasicTree, source: Word, remnants: list[Word]) -> tuple[Word, list[Word | None]]:
    """The verb the gapped clause shares, and the remnants' correlates among its dependents (:func:`correlates`).

    That is the copied verb, unless another verb's dependents parallel the remnants far better.
    The parser can hang the gapped clause from the wrong verb: *Для женщины
    добавьте 4 капли эфира (он … стимулирует удовольствие), а для мужчины -
    3 капли*, where the gapping rule copies *стимулирует*.  The remnants
    contrast with the full clause's dependents, so a verb before the gapped
    clause whose dependents make correlates scoring :data:`ANTECEDENT_MARGIN`
    more (:func:`best_pairs`) is taken instead.
    """
    first = min(r.id for r in remnants)
    score, matched = best_pairs(tree, source, remnants)
    best, score = (source, matched), score + ANTECEDENT_MARGIN
    for verb in tree.sentence.words[:first - 1]:
        if verb.upos == "VERB" and verb is not source:
            total, pairs = best_pairs(tree, verb, remnants)
            if total > score:
                best, score = (verb, pairs), total
    return best


def correlate_span(tree: BasicTree, offsets: list[tuple[int, int]], correlate: Word, source: Word,
                   stop: set[int], before: int, remnant: Word | None = None,
                   remnant_phrase: set[int] | None = None, topic: bool = False) -> Span:
    """A correlate's phrase: without the words in ``stop``, from ``before`` on, or across the verb.

    The predicate of a copula clause (*Мир тогда был юным*) heads the whole
    clause in UD; as a correlate it is only its own phrase, without the
    clause's subject, obliques and other clause-level dependents.  A
    nominal phrase the parser hung from the verb right after the correlate
    is taken in (:func:`trailing_phrase`); for a ``remnant`` that is a
    modifier without its noun, only the correlate noun's modifiers of its
    kind are the phrase (:func:`noun_modifiers`), except for an adjective
    that is the ``topic``, the gapped clause's first remnant: *нулевое* in
    *Ненулевое значение преобразуется в true, а нулевое — в false* stands
    for the noun's whole phrase, and AGRR's correlate is *Ненулевое
    значение*.
    """
    words = tree.sentence.words
    base = predicate_of(tree.sentence, source)
    verbs = {source.id, base.id}
    if correlate is not source and correlate is base:
        stop = stop | {c for c in tree.children[correlate.id] if words[c - 1].udeprel in CLAUSE_LEVEL}
    phrase = phrase_ids(tree, correlate.id, stop, before, source.id)
    # A symbol heads a noun phrase as the word it stands for (*56% жителей*: "56 процентов жителей").
    if correlate is not base and (correlate.upos in NOMINAL or correlate.upos == "SYM"):
        extra = trailing_phrase(tree, phrase, verbs, stop, before)
        if not (extra and remnant is not None and remnant_phrase and another_argument(tree, correlate, extra, remnant,
                                                                                     remnant_phrase)):
            phrase |= extra
    if correlate is not base:
        phrase |= partitive(tree, phrase, correlate, verbs, stop, before)
    if correlate.upos in ("NOUN", "PROPN") and correlate.feat("Case") == "Nom":
        phrase |= possessive(words, phrase, stop, before, source.id, base.id)
    if remnant is not None and bare_modifier(tree, remnant, stop) and not (topic and remnant.upos == "ADJ"):
        phrase = noun_modifiers(tree, correlate, remnant, stop) or phrase
    phrase |= comparative(words, phrase, stop | verbs)
    phrase |= degree_words(tree, phrase, stop | verbs, source.id)
    # A relative clause or participial phrase after a comma belongs to its noun (attribute_clause()).
    if correlate.upos in NOMINAL | {"SYM", "PRON"}:
        phrase |= attribute_clause(words, phrase, stop | verbs, before, source.id)
    if remnant is not None and remnant_phrase:
        extra = parallel_words(words, phrase, correlate, remnant, remnant_phrase, stop, before, source.id)
        phrase |= extra
        for k in extra:
            phrase |= phrase_ids(tree, k, stop, before, source.id)
    return closed(words, offsets, phrase_span(tree, offsets, phrase))


def attribute_clause(words: list[Word], phrase: set[int], stop: set[int], before: int, verb: int) -> set[int]:
    """A relative clause on *который* or a participial phrase set off by a comma right after a nominal phrase.

    Russian sets off an attribute clause after its noun with commas: a
    relative clause on *который* (after its preposition, if any: *о
    котором*) or a participial phrase (причастный оборот: *Лицо, передающее
    сигнал, …*).  The parser often hangs it from the verb instead of the
    noun, but AGRR's correlate takes it in (*глазу, который был закрыт*;
    *на стоп, закрепленный на одном торце корпуса*).  The clause runs from
    the comma to the next punctuation mark (:data:`BOUNDARIES`), before
    ``before`` (the gapped clause), on the phrase's side of the verb and
    clear of ``stop`` (the other correlate, the verb), or is no clause.  A
    participle is a word tagged ``VERB`` with a long adjective's ending
    (:data:`LONG_ADJECTIVE`); an adjective there mostly opens the next
    gapped clause (*на 19,8%, реального …*) and is left alone.
    """
    last = max(phrase)
    comma = last + 1
    if comma + 1 >= before or words[comma - 1].form != ",":
        return set()
    first = words[comma]
    pronoun = words[comma + 1] if first.upos == "ADP" and comma + 1 < len(words) else first
    relative = pronoun.form.lower().startswith("котор")
    participle = first.upos == "VERB" and LONG_ADJECTIVE.search(first.form.lower()) is not None
    if not (relative or participle):
        return set()
    out = {comma}
    i = comma + 1
    while i < before and i <= len(words) and words[i - 1].form not in BOUNDARIES:
        if i in stop or (i < verb) != (last < verb):
            return set()
        out.add(i)
        i += 1
    return out if len(out) > 1 else set()


# The punctuation marks that end an attribute clause (attribute_clause()).
BOUNDARIES = {",", ";", ":", "(", ")", ".", "!", "?"} | DASHES


# Comparative adverbs that a phrase on *чем* completes (*более, чем на 200%*); others carry Degree=Cmp.
COMPARATIVES = {"более", "менее", "больше", "меньше"}


def comparative(words: list[Word], phrase: set[int], stop: set[int]) -> set[int]:
    """The comparative, and the comma after it, before a phrase that starts with *чем* (*более, чем на 200%*).

    A phrase on *чем* is the second half of a comparison and never stands
    alone: AGRR takes the comparative in (*выросло более чем в 2 раза*),
    while the parser hangs it from the verb.  Empty when the word before
    (a comma skipped) is no comparative or is in ``stop``.
    """
    ids = sorted(k for k in phrase if not punctuation(words[k - 1]))
    if not ids or words[ids[0] - 1].form.lower() != "чем":
        return set()
    k = ids[0] - 1
    if k > 1 and words[k - 1].form == ",":
        k -= 1
    word = words[k - 1] if k >= 1 else None
    if word is None or k in stop or not (word.form.lower() in COMPARATIVES or word.feat("Degree") == "Cmp"):
        return set()
    return set(range(k, ids[0]))


# Adverbs of degree or approximation: they grade the word after them (*слишком долгим*, *гораздо сильнее*,
# *почти в четыре раза*, *примерно 60%*), so they belong to its phrase wherever the parser hung them.
DEGREE = {"очень", "слишком", "более", "менее", "наиболее", "наименее", "гораздо", "намного", "значительно",
          "довольно", "достаточно", "весьма", "крайне", "почти", "примерно", "приблизительно", "свыше", "чуть",
          "совсем", "вполне", "столь", "настолько"}


def degree_words(tree: BasicTree, phrase: set[int], stop: set[int], verb: int) -> set[int]:
    """The adverbs of degree (:data:`DEGREE`) right before a correlate's phrase, on its side of the verb.

    The parser hangs them from the verb (*момент был слишком долгим, а
    тишина – слишком глубокой*; *увеличилась почти в четыре раза, а … — в
    полтора*), but they grade the word after them, and AGRR takes them into
    the correlate.  The run stops at a word in ``stop`` (the verb, the other
    correlate).
    """
    first = min(phrase)
    out: set[int] = set()
    k = first - 1
    while k >= 1 and k not in stop and (k < verb) == (first < verb) and degree(tree, k):
        out.add(k)
        k -= 1
    return out


def degree(tree: BasicTree, k: int) -> bool:
    """Whether word ``k`` is an adverb of degree (:data:`DEGREE`) that grades the next word, not the verb or nothing.

    One that heads words of its own is a phrase (*приблизительно до 1/4*
    with *до 1/4* hung from it), and *менее* in *тем не менее* ("still") is
    no degree at all.
    """
    words = tree.sentence.words
    word = words[k - 1]
    return (word.form.lower() in DEGREE and word.upos in ("ADV", "PART", "ADJ", "ADP") and k < len(words)
            and not punctuation(words[k]) and words[k].upos not in ("VERB", "AUX")
            and not tree.children[k] and _text(words, list(range(max(1, k - 2), k + 1))) != "тем не менее")


def parallel_words(words: list[Word], phrase: set[int], correlate: Word, remnant: Word, remnant_phrase: set[int],
                   stop: set[int], before: int, verb: int) -> set[int]:
    """The words right before or after a correlate's phrase that repeat the remnant's words at the same distance.

    A gapped clause mirrors the full one (*экспорт вырос на 35.5% г/г, а
    импорт на 37.6% г/г*; *момент был слишком долгим, а тишина – слишком
    глубокой*; *Кто то хочет жениться, а кто то …*), so a word next to the
    correlate that matches the remnant phrase's word as far from the remnant
    (:func:`same_word`) belongs to the correlate's phrase, wherever the
    parser hung it.  The run stops at the first word that does not match,
    at the phrase of a word in ``stop`` (the other correlate), at ``before``
    and at the verb.
    """
    out: set[int] = set()
    for step in (1, -1):
        k = (max(phrase) if step > 0 else min(phrase)) + step
        while 1 <= k < before and (k < verb) == (correlate.id < verb) and not _within(words, k, stop, verb):
            twin = remnant.id + k - correlate.id
            if twin not in remnant_phrase or not same_word(words[k - 1], words[twin - 1]):
                break
            out.add(k)
            k += step
    return out


def _within(words: list[Word], k: int, stop: set[int], verb: int) -> bool:
    """Whether word ``k`` is in the phrase of a word in ``stop`` (another correlate) below the verb."""
    seen: set[int] = set()
    while k and k != verb and k not in seen:
        if k in stop:
            return True
        seen.add(k)
        k = words[k - 1].head
    return False


def same_word(a: Word, b: Word) -> bool:
    """Whether two words match as parallel words: the same form or lemma, or two numbers."""
    if a.form.lower() == b.form.lower() or a.lemma not in ("_", "") and a.lemma == b.lemma:
        return True
    return all(any(ch.isdigit() for ch in w.form) and not any(ch.isalpha() for ch in w.form) for w in (a, b))


def bare_modifier(tree: BasicTree, remnant: Word, stop: set[int]) -> bool:
    """Whether a remnant is a modifier whose noun the gapped clause leaves out (*четверо спортсменов …, шестеро — …*).

    An adjective or numeral (:data:`MODIFIERS`) without a preposition whose
    phrase holds no noun, proper noun or pronoun.  With a preposition AGRR
    takes the correlate's whole phrase (*на левое бедро …, на правое — …*).
    """
    words = tree.sentence.words
    return remnant.upos in MODIFIERS and not tree.marker(remnant.id) and not any(
        words[k - 1].upos in ("NOUN", "PROPN", "PRON") for k in tree.subtree(remnant.id, stop))


def noun_modifiers(tree: BasicTree, correlate: Word, remnant: Word, stop: set[int]) -> set[int]:
    """The phrases of a noun correlate's modifiers before it with the remnant's part of speech (*зеленые* of *зеленые пояса*).

    Each modifier comes with its own dependents (*почти 82 000*, *самый
    низкий*); empty when the correlate is no noun or has no such modifier.
    """
    words = tree.sentence.words
    if correlate.upos not in ("NOUN", "PROPN", "SYM"):
        return set()
    out: set[int] = set()
    for c in tree.children[correlate.id]:
        if c < correlate.id and c not in stop and words[c - 1].upos == remnant.upos:
            out |= tree.subtree(c, stop)
    return out


def trailing_phrase(tree: BasicTree, phrase: set[int], verbs: set[int], stop: set[int], before: int) -> set[int]:
    """The nominal phrase hung from the verb that follows a correlate's phrase with no word between.

    The parser often hangs a noun's postmodifier, a genitive or a
    prepositional phrase, from the verb (*Смертность | от болезней
    системы кровообращения выросла*, *совпадать с цветом | помады*).  The
    word after the phrase must belong to a noun, proper noun or numeral
    (:data:`NOMINAL`) that is an argument or oblique of the verb
    (:data:`TRAILING`) and is not in ``stop`` (the other correlate, the
    verb, the gapped clause); its phrase must run without a gap, end
    before ``before`` and hold no verb.  On the AGRR training four fifths
    most such phrases belong to the correlate; the rest are another
    argument (*Правой рукой | Король держится*), which the tree cannot
    tell apart.  :func:`correlate_span` asks this of a nominal correlate,
    a symbol too: UD tags *%*, *$* ``SYM``, but *56% | жителей* reads
    "56 процентов жителей", and the genitive after it is its own (on the
    AGRR training four fifths: 8 correlates better, 2 worse).
    """
    words = tree.sentence.words
    last = max(phrase)
    if last >= len(words):
        return set()
    top = last + 1
    while words[top - 1].head not in verbs:
        top = words[top - 1].head
        if top <= last:  # under the phrase, the root or a word to its left
            return set()
    word = words[top - 1]
    if top in stop or top in verbs or word.udeprel not in TRAILING or word.upos not in NOMINAL:
        return set()
    ids = tree.subtree(top, stop)
    return ids if _adjoins(words, ids, last, before) else set()


# Words that name a part of a set (*один из них*, *некоторые из этих атрибутов*, *часть из них*); numerals too.
QUANTIFIERS = {"один", "одна", "одно", "одни", "одного", "одной", "одному", "одним", "некоторые", "некоторых", "многие",
               "многих", "каждый", "каждая", "каждое", "любой", "любая", "любое", "кто", "кто-то", "кто-нибудь",
               "никто", "часть", "большинство", "половина", "треть", "четверть", "остальные", "несколько"}


def partitive(tree: BasicTree, phrase: set[int], correlate: Word, verbs: set[int], stop: set[int], before: int) -> set[int]:
    """The partitive *из*-phrase the parser hung from the verb right after a quantifier correlate (*один | из них*).

    *Однако с годами один из них стал пророком …, а другой — лютым
    злодеем*: *из них* names the set *один* is taken from, so it belongs to
    the correlate (AGRR: *один из них*), while the parser makes it an
    oblique of the verb.  The correlate is a numeral or a quantifier
    (:data:`QUANTIFIERS`); the phrase opens with *из* right after the
    correlate's phrase, hangs from the verb, runs without a gap before
    ``before`` and holds no verb nor a word of ``stop``.
    """
    words = tree.sentence.words
    last = max(phrase)
    if last >= len(words) or words[last].form.lower() != "из":
        return set()
    if correlate.upos != "NUM" and correlate.form.lower() not in QUANTIFIERS:
        return set()
    top = words[last].head
    if not top or words[top - 1].head not in verbs or top in stop or top in verbs:
        return set()
    ids = tree.subtree(top, stop)
    # A relative pronoun opens a clause of its own (*один из которых является …*).
    if not _adjoins(words, ids, last, before) or any(words[k - 1].form.lower().startswith("котор") for k in ids):
        return set()
    return ids


# The third person's possessives, which Russian can put after the noun (*отец его*, *часть их*).
POSSESSIVES = {"его", "ее", "её", "их"}


def possessive(words: list[Word], phrase: set[int], stop: set[int], before: int, verb: int, base: int) -> set[int]:
    """A possessive *его*, *её*, *их* right after a noun correlate's phrase, on its side of the verb, wherever the parser hung it.

    *…, голова его была защищена скалой, а тело — трупом убитой лошади*:
    the parser takes the postposed possessive for the verb's object or
    indirect object, but it belongs to the noun (AGRR: *голова его*).  Only
    after a nominative: after an oblique it is mostly the object (*Коленями
    его ударили …*).  Not one hung from a nominal after it (*их словесные
    дуэли*) or in the other correlate's phrase (*языком его вкус*).
    """
    k = max(phrase) + 1
    if k >= before or (k < verb) != (max(phrase) < verb) or words[k - 1].form.lower() not in POSSESSIVES:
        return set()
    head = words[k - 1].head
    if k in stop or head > k and head != base and words[head - 1].upos in NOMINAL | {"ADJ"} or _within(words, k, stop, verb):
        return set()
    return {k}


def _adjoins(words: list[Word], ids: set[int], last: int, before: int) -> bool:
    """Whether a phrase starts right after word ``last``, runs without a gap, ends before ``before`` and holds no verb."""
    return (min(ids) == last + 1 and max(ids) - min(ids) + 1 == len(ids) and max(ids) < before
            and not any(words[k - 1].upos in ("VERB", "AUX") for k in ids))


def another_argument(tree: BasicTree, correlate: Word, extra: set[int], remnant: Word, remnant_phrase: set[int]) -> bool:
    """Whether the phrase :func:`trailing_phrase` found after a prepositional correlate is the clause's next argument.

    *В феврале | совокупный уставный капитал … увеличился на 2,1 млрд.
    руб., а в январе — на 0,6 млрд. руб.*: after a prepositional phrase, a
    phrase without a preposition that is not in the genitive (the
    postmodifier's case: *На входе | канала*) and does not open with a
    conjunction (*К северу | и востоку*) is mostly the subject or object
    the parser hung from the verb; when the remnant too ends with its own
    head word (*в январе*), nothing in the gapped clause mirrors it.
    """
    words = tree.sentence.words
    top = [k for k in extra if words[k - 1].head not in extra]
    return (bool(tree.marker(correlate.id)) and not any(tree.marker(k) for k in extra)
            and max(remnant_phrase) == remnant.id and not any(words[k - 1].feat("Case") == "Gen" for k in top)
            and words[min(extra) - 1].udeprel != "cc")


def closed(words: list[Word], offsets: list[tuple[int, int]], span: Span) -> Span:
    """A span stretched over the mark right after it, with no space between, that closes it.

    That is a bracket or quote opened inside the span (*цифру «1»*), or the
    dot of an abbreviation: a short lowercase word (*в 2005 г.*,
    *21 руб.*).  The parser hangs such marks anywhere.
    """
    a, b = span
    last = next((k for k, (_, end) in enumerate(offsets) if end == b), len(words))
    if last + 1 >= len(words) or offsets[last + 1][0] != b:
        return span
    mark, form = words[last + 1].form, words[last].form
    inside = [w.form for w, (start, end) in zip(words, offsets) if a <= start and end <= b]
    opener = CLOSING.get(mark)
    if opener == mark:
        unclosed = inside.count(mark) % 2 == 1
    else:
        unclosed = opener is not None and inside.count(opener) > inside.count(mark)
    abbreviation = mark == "." and form.isalpha() and form.islower() and len(form) <= 4 and (
        last + 2 < len(words) and (form in ABBREVIATIONS or words[last + 2].form[:1].islower()
                                   or words[last + 2].form in DASHES))
    return (a, offsets[last + 1][1]) if unclosed or abbreviation else span


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


def verb_of(sentence: Sentence, i: int, marked: bool = True) -> int:
    """The verb AGRR names as ``cV`` for a copied word: the word itself when a verb, else its copula, else its verb head.

    The gapping rule copies the head of the clause, which in UD is the
    predicate of a copula clause (*был интенсивным*: *интенсивным*) and can
    be a nominal the parser made head (*помогает Земфира*); AGRR marks the
    verb (*был*, *помогает*), also a short passive participle the tagger
    calls an adverb or adjective (*принято 20 заявок*: :func:`passive_participle`).
    A word without either stays.  Four kinds of
    verb group, as AGRR marks them:

    * an auxiliary the parser made the clause's head gives way to its verb
      (*были адресованы*, *будет длиться*: the participle, the infinitive);
    * a predicative modal (*должна была нести*, *надо было сохранить*:
      :data:`MODALS`) is the verb itself, not its copula, and so is a form
      of *мочь* whose infinitive or participle the parser made the clause's
      head (*могут быть легко связаны*: *могут*; :func:`modal_group`);
    * *может быть* followed by a short passive participle is the
      parenthetical "perhaps", so the participle is the verb (*может быть
      записан*, *может быть задано*), while *может быть нужен* keeps
      *может* (:func:`passive_participle`); the parenthetical is that one
      frozen form, so any other form of the modal is the verb (*могут быть
      связаны*, *мог быть продлен*);
    * past *быть* that the parser hung as an auxiliary from a word that is
      neither a short passive participle nor a finite verb is the copula,
      and the verb: Russian makes no analytic form of it with an
      infinitive, an adverb or a short adjective (*Умение маскироваться
      было выше похвал*, *был наполовину евреем*, *были видны*).

    With ``marked`` False, *может* and the word with past *быть* stay:
    they head the clause whose dependents hold the correlates.
    """
    words = sentence.words
    word = words[i - 1]
    if word.udeprel == "aux" and word.head > i and (
            word.deprel == "aux" and words[word.head - 1].feat("VerbForm") == "Inf"
            or word.deprel == "aux:pass" and passive_participle(words[word.head - 1])):
        return verb_of(sentence, word.head, marked)
    if word.form.lower() in MODALS:
        return i
    if marked and word.udeprel == "xcomp" and word.head and modal_group(words, word):
        return word.head
    kids = [w for w in words if w.head == i]  # in word order
    # Past *быть* makes an analytic form only with a short passive participle (*были адресованы*); after a
    # finite verb it is a particle (*начал было*).
    past = [w.id for w in kids if w.udeprel == "aux" and w.form.lower() in PAST_BE]
    if marked and past and word.feat("VerbForm") != "Fin" and not passive_participle(word):
        return past[0]
    if marked and word.form.lower() == "может":
        for c in (w.id for w in kids):
            if words[c - 1].form.lower() == "быть" and c < len(words) and passive_participle(words[c]):
                return c + 1
    if word.upos in ("VERB", "AUX"):
        return i
    copulas = [w.id for w in kids if w.udeprel == "cop"]
    if copulas:
        return copulas[0]
    if word.head and (words[word.head - 1].upos in ("VERB", "AUX") or passive_participle(words[word.head - 1])):
        return word.head
    return i


# Endings of Russian verb forms: past (*вырос*, *достиг*, *поступило*), present and future (*оценивает*,
# *оцениваем*), imperative (*подключите*), infinitive, short passive participle (*принято*) and gerund.
VERB_ENDING = re.compile(r"(?:[аяеиыуё]л|л[аоия]|л[ао]?сь|лся|ос|ог|ёк|ик|иг|ёс|ез|ёз|ет|ёт|ит|ут|ют|ат|ят|ем|ём|им"
                         r"|ешь|ишь|ся|сь|ть|ти|чь|ите|йте|но|на|ны|то|та|ты|[ая]в|вши|[ая]я)$")
# A long adjective's ending (*голубые*, *белый*): a predicate of a nominal sentence, never a short form.
LONG_ADJECTIVE = re.compile(r"(?:ый|ий|ой|ая|яя|ое|ее|ые|ие|ого|его|ому|ему|ым|им|ых|их|ую|юю)$")


def modal_group(words: list[Word], word: Word) -> bool:
    """Whether ``word``, an ``xcomp``, completes a modal, which AGRR marks as the group's verb.

    AGRR-2019 marks the modal of a modal group: in the training four fifths ``cV`` is a form of
    *мочь* or a predicative modal (:data:`MODALS`) 36 times and the infinitive after one never.  The
    exception is the frozen parenthetical *может быть* "perhaps" before a short passive participle
    (*может быть записан*: the participle, 4 of 4), which no other form of *мочь* makes.
    """
    head = words[word.head - 1]
    form = head.form.lower()
    if form not in MODALS and head.lemma not in ("мочь", "смочь") and not form.startswith(("мож", "мог", "смож", "смог")):
        return False
    between = words[head.id:word.id - 1]
    perhaps = form == "может" and any(w.form.lower() == "быть" for w in between)
    return word.feat("VerbForm") == "Inf" or (passive_participle(word) and not perhaps)


def verbless(word: Word) -> bool:
    """Whether the word named as ``cV`` is a nominal predicate without a copula: the clause has no verb to elide.

    A Russian nominal sentence in the present tense has a zero copula
    (*Глаза у него голубые, а клюв – белый*); the dash after the second
    subject is the copula's dash, nothing is elided, and AGRR does not mark
    gapping.  The gapping rule then copies a noun, pronoun, numeral or long
    adjective (:func:`verb_of` finds no copula and no verb above it).  The tagger
    also calls some verbs nouns (*ВВП вырос на 3%, а экспорт — на 5%*), so
    a word whose ending is a verb form's (:data:`VERB_ENDING`) is taken for
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


def passive_participle(word: Word) -> bool:
    """Whether a word is a short passive participle (*записан*, *адресованы*, *задано*), not a short adjective.

    The tagger calls many short adjectives participles (*готов*, *полны*) and
    the neuter participle an adverb (*задано*), so the form decides: a
    participle's suffix (-ан, -ян, -ен, -ён, -т and an ending), and none of
    the short adjectives in :data:`SHORT_ADJECTIVES`.
    """
    form = word.form.lower()
    if word.upos not in ("VERB", "ADV", "ADJ") or form in SHORT_ADJECTIVES or len(form) < 5:
        return False
    return PARTICIPLE.search(form) is not None


def unsupported(words: list[Word], copied: int | None, remnants: list[Word]) -> bool:
    """Whether nothing but the ``orphan`` relation says a verb is elided: no antecedent, no dash standing for it.

    A gapped clause is a conjunct of its full clause, and the gapping rule
    copies the verb of the clause its promoted remnant is ``conj`` of
    (``CopyOf``).  When the parser hung the promoted remnant from a verb as
    anything else (*Шумит море, а нам с тобой в радость*: *нам* an oblique,
    *радость* its ``orphan``), the rest of its tree contradicts the
    ``orphan``; a dash between the remnants (:func:`~eud.gapping.dashes.gap_dash`)
    would still mark the elided verb, as Russian punctuation puts one in its
    place (*а сестра — в Тверь*).  With neither there is no gap.  On the
    AGRR training four fifths, 7 of the 8 such predicted gaps are class 0;
    with a dash, 5 of 8 are class 1, so those stay.  (Round 9's rule, which
    dropped such gaps by the promoted remnant's relation instead, removed
    the same training rows but lost true gaps on the held-apart fifth.)
    """
    return copied is None and not any(gap_dash(words, i) for i in range(remnants[0].id + 1, remnants[-1].id))


def gapped_clauses(sentence: Sentence) -> list[tuple[int, Word | None, list[Word], int | None]]:
    """Each gapped clause in text order: where its gap is, its promoted remnant, its remnants, the word copied.

    A clause with an empty node is read off the graph (:func:`remnants_of`, the node's ``CopyOf``);
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
