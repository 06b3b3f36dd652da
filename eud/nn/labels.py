"""Delexicalised enhanced labels: ``obl:in`` is learnt as ``obl:[case]``.

UD's enhanced relations add the lemma of a case or mark dependent to
``nmod``, ``obl``, ``acl`` and ``advcl`` (``obl:in``, ``advcl:if``) and of a
coordinating conjunction to ``conj`` (``conj:and``); see the UD guidelines,
"Enhanced dependencies", section "Case information".  The network predicts
the placeholder; :func:`relexicalise` fills it from the (predicted) lemmas of
the dependent's ``case``/``mark`` (or ``cc``) children in the basic tree.

Not handled: markers that are not basic children of the dependent (or of its
first conjunct), and language-specific morphological case (``obl:abl``),
which stays a lexical label learnt as a class of its own.
"""

from __future__ import annotations

from eud.graph import Edge, Sentence

CASE = "[case]"
CC = "[cc]"
CASE_RELS = ("nmod", "obl", "acl", "advcl")


def _children(sentence: Sentence) -> dict[int, list[int]]:
    return sentence.basic_children()


def _marker(sentence: Sentence, children: dict[int, list[int]], wid: int, rels: tuple[str, ...], depth: int = 0) -> str:
    """Lemmas of ``wid``'s children with a relation in ``rels`` (with their ``fixed`` parts), joined by ``_``."""
    parts = []
    for c in children.get(wid, ()):
        w = sentence.word(c)
        if w.udeprel in rels:
            words = [c] + [f for f in children.get(c, ()) if sentence.word(f).udeprel == "fixed"]
            parts.append("_".join(sentence.word(x).lemma.lower() for x in sorted(words)))
    if not parts and depth < 3:
        # A later conjunct shares the marker of the first one: "in X and Y".
        word = sentence.word(wid)
        if word.udeprel == "conj" and word.head:
            return _marker(sentence, children, word.head, rels, depth + 1) if rels != ("cc",) else ""
    return "_".join(parts)


def delexicalise(label: str, sentence: Sentence, dep: int, children: dict[int, list[int]] | None = None) -> str:
    """Replace the lexical part of an enhanced label by its placeholder, when it matches."""
    base, colon, rest = label.partition(":")
    if not colon:
        return label
    children = _children(sentence) if children is None else children
    if base in CASE_RELS:
        marker = _marker(sentence, children, dep, ("case", "mark"))
        if marker and label.endswith(":" + marker):
            return label[: -len(marker)] + CASE
    elif base == "conj":
        marker = _marker(sentence, children, dep, ("cc",))
        if marker and rest == marker:
            return "conj:" + CC
    return label


def relexicalise(label: str, sentence: Sentence, dep: int, children: dict[int, list[int]] | None = None) -> str:
    """Fill a placeholder from the sentence's lemmas and basic tree (drop it if there is no marker)."""
    if not label.endswith("]"):
        return label
    children = _children(sentence) if children is None else children
    if label.endswith(CASE):
        marker = _marker(sentence, children, dep, ("case", "mark"))
        stem = label[: -len(CASE)]
    elif label.endswith(CC):
        marker = _marker(sentence, children, dep, ("cc",))
        stem = label[: -len(CC)]
    else:
        return label
    # Enhanced labels may not contain spaces or capitals in the lexical part.
    marker = "".join(ch for ch in marker if not ch.isspace() and ch != ":")
    return stem + marker if marker else stem.rstrip(":")


def delexicalise_graph(sentence: Sentence) -> list[Edge]:
    """The enhanced edges between words (empty nodes left out), labels delexicalised."""
    children = _children(sentence)
    out = []
    for head, dep, label in sentence.enhanced:
        if head[1] or dep[1]:
            continue
        out.append(Edge(head, dep, delexicalise(label, sentence, dep[0], children)))
    return out
