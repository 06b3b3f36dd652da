"""The verb AGRR names as ``cV``: the full clause's verb that the gapped clause leaves out.

AGRR-2019 (https://github.com/dialogue-evaluation/AGRR-2019) marks as ``cV`` the verb of the
full clause that a gapped clause shares.  In eud's enhanced graph the gapped clause's empty node
copies a word of the full clause (``CopyOf``; the UD ellipsis guideline,
https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis), and that word is
the clause's head in UD: a verb, or the predicate of a copula clause.  :func:`verb_of` turns it
into the verb AGRR marks: the word itself when a verb, else its copula, else its verb head.  An
auxiliary gives way to its infinitive or passive participle (*были адресованы*); a predicative
modal is the verb (*должна была нести*), and so is *мочь* over the infinitive or participle the
gapped clause hangs from (*могут быть связаны*: :func:`modal_group`); the frozen *может быть* + a
short passive participle marks the participle (*может быть записан*: :func:`passive_participle`);
past *быть* hung as an auxiliary from anything else is the verb (*было выше*).

When the gapping rule found no antecedent to copy (the promoted remnant hangs from a verb as
``obl``, say, rather than as ``conj``), the verb is the first verb above the promoted remnant,
else the last verb before it (:func:`antecedent`).  Another verb before the gapped clause whose
dependents parallel the remnants far better can replace the copied one: that choice weighs
correlates, so it is :func:`eud.agrr.correlates.antecedent_verb`.

The module also holds what tells a Russian verb form from a nominal one by its spelling
(:data:`VERB_ENDING`, :data:`LONG_ADJECTIVE`, :data:`PARTICIPLE`), and :func:`predicate_of`, the
word heading the full clause, whose dependents hold the correlates.
"""

from __future__ import annotations

import re

from eud.graph import Sentence, Word

# A short passive participle's suffix and ending (*записан*, *задано*, *адресованы*, *открыт*, *одеты*, *принято*).
PARTICIPLE = re.compile(r"(?:ан|ян|ен|ён|[ыуоиея]т)[аоы]?$")
# Short adjectives spelt like participles.
SHORT_ADJECTIVES = {"нужен", "нужна", "нужно", "нужны", "виден", "видна", "видно", "видны", "болен", "способен",
                    "согласен", "свободен", "уверен", "уверена", "уверено", "уверены", "известен", "интересен"}
# The past tense of *быть*.
PAST_BE = {"был", "была", "было", "были"}
# Predicative modals: AGRR marks them, not their copula (*должна была нести*, *надо было сохранить*).
MODALS = {"должен", "должна", "должно", "должны", "надо", "нужно", "можно", "необходимо", "нельзя"}


def predicate_of(sentence: Sentence, source: Word) -> Word:
    """The word heading the full clause: the copied word, or the predicate of a copula or the verb of an auxiliary."""
    if source.udeprel in ("cop", "aux") and source.head:
        return sentence.words[source.head - 1]
    return source


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

    AGRR-2019 marks the modal of a modal group: a form of *мочь* or a predicative modal
    (:data:`MODALS`), not the infinitive after it.  The exception is the frozen parenthetical
    *может быть* "perhaps" before a short passive participle (*может быть записан*: the
    participle), which no other form of *мочь* makes.
    """
    head = words[word.head - 1]
    form = head.form.lower()
    if form not in MODALS and head.lemma not in ("мочь", "смочь") and not form.startswith(("мож", "мог", "смож", "смог")):
        return False
    between = words[head.id:word.id - 1]
    perhaps = form == "может" and any(w.form.lower() == "быть" for w in between)
    return word.feat("VerbForm") == "Inf" or (passive_participle(word) and not perhaps)


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
