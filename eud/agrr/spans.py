"""Character spans of phrases in an AGRR answer: punctuation at the edges trimmed, a closing mark taken in.

AGRR-2019 (https://github.com/dialogue-evaluation/AGRR-2019) gives the remnants ``R1``/``R2`` and
their correlates ``cR1``/``cR2`` as character spans of the sentence, while eud finds them as words
of the basic tree around an empty node (the UD ellipsis guideline,
https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis).  These helpers, shared
by :mod:`eud.agrr.remnants` and :mod:`eud.agrr.correlate_spans`, turn a phrase's word ids into a
span (:func:`phrase_span`): from its first to its last word, punctuation at the edges trimmed
except a closing bracket or quote whose opening one is inside, and a letter the tagger calls
punctuation (*в точке х*) stays (:func:`punctuation`).  A bracket, quote or abbreviation dot
attached right after the span, which the parser hangs anywhere, is then taken in (:func:`closed`,
*в 2006 г.*, *цифру «1»*).
"""

from __future__ import annotations

from eud.agrr.files import Span
from eud.gapping.correlates import BasicTree
from eud.gapping.dashes import DASHES
from eud.graph import Word

# Abbreviations whose dot belongs to the phrase even before a capital (*млн. USD*); any other
# short lowercase word's dot does only before a lowercase word or a dash (*в 2005 г. - ...*),
# and the last word's dot never does (the sentence's full stop: *... а ты вниз.*).
ABBREVIATIONS = {"г", "гг", "руб", "тыс", "млн", "млрд", "трлн", "долл", "чел", "т", "д", "п", "пп", "с", "см",
                 "стр", "рис", "табл", "ст", "ул", "им", "кв", "куб", "коп", "мин", "сек", "ч", "шт", "экз"}

CLOSING = {"»": "«", ")": "(", "]": "[", "”": "“", '"': '"', "“": "„"}


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


def text_of(words: list[Word], ids: list[int]) -> str:
    """The words' forms in lower case, one space apart."""
    return " ".join(words[k - 1].form.lower() for k in ids)


def _closes(words: list[Word], ids: list[int]) -> bool:
    """Whether the last word closes a bracket or quote opened inside the phrase (it then stays)."""
    last = words[ids[-1] - 1].form
    opener = CLOSING.get(last)
    return opener is not None and any(words[k - 1].form == opener for k in ids[:-1])


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
