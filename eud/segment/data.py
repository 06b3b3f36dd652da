"""Character labels for the segmenter, rebuilt from CoNLL-U alone.

The raw text of a treebank is rebuilt from its ``# text`` comments: the
sentences of one paragraph (``# newpar`` / ``# newdoc`` start a new one) are
joined with a single space.  Each token (a multiword token's surface form, or a
plain word) is then found in that text by its non-whitespace characters, and
its last character is labelled:

* ``TOKEN`` or ``TOKEN_MWT``: a token ends here (``_MWT`` if it is a multiword token);
* ``SENT`` or ``SENT_MWT``: the token ends a sentence too;
* ``NONE`` for every other character (inside a token, or whitespace).

A paragraph whose tokens cannot be found in its text (a treebank whose FORMs
differ from ``# text``) is skipped and counted, never guessed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from eud.graph import MultiwordToken, Sentence
from eud.spaces import token_lines

NONE, TOKEN, TOKEN_MWT, SENT, SENT_MWT = range(5)
LABELS = ("none", "token", "token_mwt", "sent", "sent_mwt")


def normalise_space(text: str) -> str:
    """Collapse every run of whitespace to one space and strip the ends (as ``# text`` is)."""
    return " ".join(text.split())


def surface_tokens(sentence: Sentence) -> Iterator[tuple[str, bool, list[str]]]:
    """Yield ``(surface form, is multiword token, word forms)`` for each token of a sentence."""
    for line in token_lines(sentence):
        if isinstance(line, MultiwordToken):
            yield line.form, True, [sentence.word(k).form for k in range(line.first, line.last + 1)]
        else:
            yield line.form, False, [line.form]


@dataclass
class Paragraph:
    """One paragraph of rebuilt text with one label per character."""

    text: str
    labels: list[int]


def _label_sentence(text: str, sentence: Sentence) -> list[int] | None:
    """Labels for one sentence's normalised text, or None if its tokens do not match it."""
    labels = [NONE] * len(text)
    pos = 0
    last_end = -1
    for form, is_mwt, _ in surface_tokens(sentence):
        end = -1
        for ch in form:
            if ch.isspace():
                continue
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos >= len(text) or text[pos] != ch:
                return None
            end = pos
            pos += 1
        if end < 0:
            continue
        labels[end] = TOKEN_MWT if is_mwt else TOKEN
        last_end = end
    if last_end < 0 or text[pos:].strip():
        return None
    labels[last_end] = SENT_MWT if labels[last_end] == TOKEN_MWT else SENT
    return labels


def paragraphs(sentences: Iterable[Sentence], stats: dict[str, int] | None = None) -> Iterator[Paragraph]:
    """Group sentences into paragraphs and label their characters (see the module doc)."""
    stats = stats if stats is not None else {}
    stats.setdefault("paragraphs", 0)
    stats.setdefault("skipped", 0)
    texts: list[str] = []
    labels: list[int] = []
    broken = False

    def flush() -> Paragraph | None:
        nonlocal texts, labels, broken
        out = None
        if texts and not broken:
            out = Paragraph(" ".join(texts), labels[:-1] if labels else labels)
            stats["paragraphs"] += 1
        elif texts:
            stats["skipped"] += 1
        texts, labels, broken = [], [], False
        return out

    for sentence in sentences:
        starts_par = any(c.startswith(("# newpar", "# newdoc")) for c in sentence.comments)
        if starts_par:
            par = flush()
            if par is not None:
                yield par
        raw = sentence.text
        text = normalise_space(raw) if raw is not None else normalise_space(
            " ".join(form for form, _, _ in surface_tokens(sentence))
        )
        sent_labels = _label_sentence(text, sentence) if text else None
        if sent_labels is None:
            broken = True
            texts.append(text)
            continue
        texts.append(text)
        # The joining space after each sentence is labelled NONE; flush() drops the last one.
        labels.extend(sent_labels)
        labels.append(NONE)
    par = flush()
    if par is not None:
        yield par


def read_paragraphs(path: str | os.PathLike, stats: dict[str, int] | None = None) -> list[Paragraph]:
    """All labelled paragraphs of a CoNLL-U file (``.xz`` ok)."""
    from eud.conllu import read_conllu

    return list(paragraphs(read_conllu(path), stats))
