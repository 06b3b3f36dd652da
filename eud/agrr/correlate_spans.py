"""The spans of the correlates AGRR names as ``cR1`` and ``cR2``: how far a correlate's phrase reaches.

AGRR-2019 (https://github.com/dialogue-evaluation/AGRR-2019) gives a correlate as the span of its
whole phrase in the full clause, while the basic tree around eud's empty node (the UD ellipsis
guideline, https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis) often
hangs pieces of that phrase from the verb.  :func:`correlate_span` spans a correlate chosen by
:mod:`eud.agrr.correlates` as its subtree, without the verb, the other correlate, anything from
the gapped clause on and anything on the other side of the verb; a copula clause's predicate
without the clause's subject and other clause-level dependents.  It then takes in what the
parser hung elsewhere:

* a noun's, proper noun's, numeral's or symbol's phrase takes the nominal phrase hung from the
  verb right after it, with no word between, when it is an argument or oblique of the verb and no
  other correlate: *Смертность от инфарктов* where *от инфарктов* hangs from the verb, *56%
  жителей*, where UD tags *%* a symbol that reads as the noun *процентов*
  (:func:`trailing_phrase`); after a prepositional correlate, not a bare non-genitive phrase when
  the remnant ends with its own head (*В феврале | совокупный капитал*: :func:`another_argument`);
* a remnant that is an adjective or numeral without its noun and without a preposition
  (*четверо спортсменов …, а шестеро — …*) has as correlate only the correlate noun's modifiers
  of its part of speech, *четверо* (:func:`bare_modifier`, :func:`noun_modifiers`); an adjective
  only when it is the second remnant: the first names the thing it contrasts with the
  correlate's whole phrase (*Ненулевое значение …, а нулевое — …*);
* the words right before or after the phrase that repeat the remnant's words at the same
  distance (*на 35.5% г/г … на 37.6% г/г*, *слишком долгим … слишком глубокой*) join it, with
  their own dependents (:func:`parallel_words`);
* a phrase on *чем* takes the comparative before it (*более, чем на 200%*: :func:`comparative`);
  a numeral or quantifier the partitive *из*-phrase after it (*один из них*: :func:`partitive`);
  a subject noun a possessive *его*, *её*, *их* after it (*голова его*: :func:`possessive`); an
  adverb of degree right before a phrase grades it (*слишком долгим*, *почти в четыре раза*:
  :func:`degree_words`), and before an adjective or adverb it is no candidate itself
  (:func:`degree`);
* a nominal correlate takes the relative clause on *который* or the participial phrase that a
  comma sets off after it (*глазу, который был закрыт*, *Лицо, передающее сигнал*:
  :func:`attribute_clause`).

Punctuation at the edges is trimmed and a closing bracket, quote or abbreviation dot taken in as
for the remnants (:mod:`eud.agrr.spans`).
"""

from __future__ import annotations

from eud.agrr.files import Span
from eud.agrr.remnants import NOT_PHRASE
from eud.agrr.spans import closed, phrase_span, punctuation, text_of
from eud.agrr.verb import LONG_ADJECTIVE, predicate_of
from eud.gapping.correlates import BasicTree
from eud.gapping.dashes import DASHES
from eud.graph import Word

# The words whose phrase can take a postmodifier hung from the verb, and the relations it then has (trailing_phrase()).
NOMINAL = {"NOUN", "PROPN", "NUM", "X"}
TRAILING = {"obl", "nsubj", "obj", "iobj", "nmod"}
# A remnant of one of these parts of speech without its noun pairs with the correlate noun's modifiers of its part of speech.
MODIFIERS = {"ADJ", "NUM"}

# Dependents of a copula clause's predicate that belong to the clause, not to the predicate's phrase.
CLAUSE_LEVEL = NOT_PHRASE - {"conj"} | {"nsubj", "csubj", "expl", "obj", "iobj", "obl", "advcl", "dislocated"}


def phrase_ids(tree: BasicTree, i: int, stop: set[int], before: int = 1 << 30, verb: int | None = None) -> set[int]:
    """Word ``i``'s subtree without ``stop``'s subtrees: only words before ``before``, and with ``verb`` only those on word ``i``'s side of it."""
    return {k for k in tree.subtree(i, stop) if k < before and (verb is None or (k < verb) == (i < verb))}


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
    (:data:`~eud.agrr.verb.LONG_ADJECTIVE`); an adjective there mostly opens the next
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
            and not tree.children[k] and text_of(words, list(range(max(1, k - 2), k + 1))) != "тем не менее")


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
    before ``before`` and hold no verb.  Such a phrase can also be another
    argument (*Правой рукой | Король держится*), which the tree cannot
    tell apart.  :func:`correlate_span` asks this of a nominal correlate,
    a symbol too: UD tags *%*, *$* ``SYM``, but *56% | жителей* reads
    "56 процентов жителей", and the genitive after it is its own.
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
