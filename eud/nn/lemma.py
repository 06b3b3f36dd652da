"""Lemmas as edit scripts: how to turn a form into its lemma, learnt as a class.

A script is ``"{case}|{cut}|{add}"``: ``case`` is ``k`` (keep the form's
casing) or ``l`` (lowercase it first), then ``cut`` characters are removed
from the end and ``add`` is appended.  ``"l|3|go"`` turns ``Went`` into
``go``; ``"k|0|"`` keeps the form.  Prefix changes (rare in UD) fall out as a
long cut.
"""

from __future__ import annotations


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def edit_script(form: str, lemma: str) -> str:
    """The script that turns ``form`` into ``lemma`` (the shorter of keep/lowercase)."""
    best = None
    for case, source in (("k", form), ("l", form.lower())):
        keep = _common_prefix(source, lemma)
        if best is None or keep > best[0]:
            best = (keep, f"{case}|{len(source) - keep}|{lemma[keep:]}")
    assert best is not None
    return best[1]


def apply_script(form: str, script: str) -> str:
    """Apply a script to a form; a script that does not fit gives the form back."""
    try:
        case, cut_s, add = script.split("|", 2)
        cut = int(cut_s)
    except ValueError:
        return form
    source = form.lower() if case == "l" else form
    if cut > len(source):
        return form
    lemma = source[: len(source) - cut] + add
    return lemma or form
