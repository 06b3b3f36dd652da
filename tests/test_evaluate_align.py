"""Word alignment on raw characters, multiword spans and the LCS fallback, on small worked examples.

A token is written "form" (one word) or "form w1 w2 ..." (a multiword token
and its words), as in the official scorer's own examples.
"""

from __future__ import annotations

import pytest

from eud.evaluate.align import WordSpans, align_words, first_difference, matching_spans


def _spans(tokens: list[str]) -> WordSpans:
    out = WordSpans()
    index = 0
    for token in tokens:
        form, *words = token.split(" ")
        start, end = index, index + len(form)
        index = end
        for word in words or [form]:
            out.start.append(start)
            out.end.append(end)
            out.multi.append(bool(words))
            out.form.append(word.lower())
    return out


def _aligned(gold: list[str], system: list[str]) -> int:
    return sum(1 for g in align_words(_spans(gold), _spans(system)) if g >= 0)


@pytest.mark.parametrize(
    ("gold", "system", "aligned"),
    [
        (["a"], ["a"], 1),
        (["a", "b", "c"], ["a", "b", "c"], 3),
        # Multiword tokens against plain tokens: words align by form inside the span.
        (["abc a b c"], ["a", "b", "c"], 3),
        (["a", "bc b c", "d"], ["a", "b", "c", "d"], 4),
        (["abcd a b c d"], ["ab a b", "cd c d"], 4),
        (["abc a b c", "de d e"], ["a", "bcd b c d", "e"], 5),
        # Different tokenization without multiword tokens: only equal spans align.
        (["abcd"], ["a", "b", "c", "d"], 0),
        (["abc", "d"], ["a", "b", "c", "d"], 1),
        (["a", "bc", "d"], ["a", "b", "c", "d"], 2),
        (["a", "bc b c", "d"], ["a", "b", "cd"], 2),
        # LCS on lowercased forms: BX and EX match nothing.
        (["abc a BX c", "def d EX f"], ["ab a b", "cd c d", "ef e f"], 4),
        (["ab a b", "cd bc d"], ["a", "bc", "d"], 2),
        (["a", "bc b c", "d"], ["ab AX BX", "cd CX a"], 1),
    ],
)
def test_alignment_counts(gold, system, aligned):
    assert _aligned(gold, system) == aligned


def test_alignment_maps_each_system_word_to_its_gold_word():
    gold = _spans(["a", "bc b c", "d"])
    system = _spans(["a", "b", "c", "d"])
    assert align_words(gold, system) == [0, 1, 2, 3]
    # Case is ignored inside multiword spans.
    assert align_words(_spans(["xy X Y"]), _spans(["x", "y"])) == [0, 1]


def test_matching_spans_needs_same_start_and_end():
    # Gold tokens "ab" "c", system "a" "bc": none match; "ab" "c" vs "ab" "c": both.
    assert matching_spans([0, 2], [2, 3], [0, 1], [1, 3]) == 0
    assert matching_spans([0, 2], [2, 3], [0, 2], [2, 3]) == 2
    assert matching_spans([0, 2], [2, 3], [0, 2], [1, 3]) == 1


@pytest.mark.parametrize(("a", "b", "at"), [("abc", "abc", 3), ("abc", "abd", 2), ("", "x", 0), ("ab", "abc", 2)])
def test_first_difference(a, b, at):
    assert first_difference(a, b) == at
