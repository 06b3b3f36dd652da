"""The sentences the scorer reads, one at a time, from a CoNLL-U file or from :class:`~eud.graph.Sentence` objects.

Each sentence comes as a :class:`SentenceRows`: the columns ID..DEPREL of its
words as strings, its multiword tokens and its DEPS (empty nodes already
collapsed into path labels).  :class:`eud.evaluate.data.Builder` turns these
into the scorer's flat columns.

Reading a file is streamed (a few sentences in memory at a time) and takes a
fast path for sentences without empty nodes: columns straight from the split
lines.  Any sentence with empty nodes, or anything unusual, goes through
:mod:`eud.conllu`, whose errors name the file and line.  Lines end at ``\\n``
only, as when the whole file is read and split (a lone ``\\r`` stays in its
line).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO

from eud.collapse import collapsed_edges
from eud.conllu import ConlluError, open_text, parse_conllu, read_conllu
from eud.graph import Sentence
from eud.progress import open_with_progress

# One word as the builder takes it: the CoNLL-U columns ID..DEPREL as strings (DEPS are passed apart).
Row = list[str]
# Characters read from a file at a time.
_READ_SIZE = 1 << 20


@dataclass(slots=True)
class SentenceRows:
    """One sentence as the scorer's builder takes it."""

    rows: list[Row]
    # Multiword tokens: first word id -> (last word id, FORM).
    tokens: dict[int, tuple[int, str]]
    # DEPS of each word, collapsed: (head word id, 0 for the root; label).
    deps: list[list[tuple[int, str]]]
    # ``file:line`` for messages, and the line the sentence starts on.
    where: str
    line: int
    # The sentence as read, when it has empty nodes (the empty-node scores need them).
    uncollapsed: Sentence | None = None

    @property
    def starts_with_multiword_token(self) -> bool:
        """True when the first word belongs to a multiword token."""
        return 1 in self.tokens


def sentence_rows(sentence: Sentence) -> SentenceRows:
    """A sentence object as rows; its empty nodes are collapsed here."""
    if sentence.empty_nodes:
        edges = collapsed_edges(sentence)
        uncollapsed: Sentence | None = sentence
    else:
        edges = sentence.enhanced
        uncollapsed = None
    n = len(sentence.words)
    deps: list[list[tuple[int, str]]] = [[] for _ in range(n)]
    for head, dep, label in edges:
        if dep[1] == 0 and 1 <= dep[0] <= n and head[1] == 0:
            deps[dep[0] - 1].append((head[0], label))
    rows = [
        [str(w.id), w.form, w.lemma, w.upos, w.xpos, w.feats, "_" if w.head is None else str(w.head), w.deprel]
        for w in sentence.words
    ]
    tokens = {t.first: (t.last, t.form) for t in sentence.tokens}
    return SentenceRows(rows, tokens, deps, sentence.where(), sentence.line or 0, uncollapsed)


def rows_from_sentences(sentences: Iterable[Sentence]) -> Iterator[SentenceRows]:
    """Sentence objects as rows, one at a time."""
    for sentence in sentences:
        yield sentence_rows(sentence)


def file_label(path: str | os.PathLike) -> str:
    """The name a file goes by in messages (``<stdin>`` for ``-``)."""
    name = os.fspath(path)
    return "<stdin>" if name == "-" else name


def rows_from_file(path: str | os.PathLike, *, progress: bool = False) -> Iterator[SentenceRows]:
    """Stream the sentences of a CoNLL-U file (``.xz``/``.gz``/``.bz2``, ``-`` for stdin) as rows.

    ``progress``: show a bar of bytes read on an interactive stderr.
    """
    name = os.fspath(path)
    label = file_label(path)
    stream: IO[str] = (
        io.TextIOWrapper(open_with_progress(name), encoding="utf-8", newline="") if progress else open_text(name)
    )
    with stream:
        try:
            yield from _rows_of_lines(_lines(stream), name, label)
        except UnicodeDecodeError:
            # The full reader names the line and byte offset.
            for _ in read_conllu(name):
                pass
            raise


def _lines(stream: IO[str]) -> Iterator[str]:
    """The lines of a text stream split at ``\\n`` only, without it; a leading BOM dropped."""
    rest = stream.read(_READ_SIZE).removeprefix("\ufeff")
    while True:
        more = stream.read(_READ_SIZE)
        if not more:
            break
        lines = (rest + more).split("\n")
        rest = lines.pop()
        yield from lines
    lines = rest.split("\n")
    if lines[-1] == "":
        lines.pop()
    yield from lines


def _rows_of_lines(lines: Iterator[str], name: str, label: str) -> Iterator[SentenceRows]:
    """Group lines into sentences (blocks between blank lines) and turn each into rows."""
    block: list[str] = []
    first = 0
    for number, line in enumerate(lines, 1):
        if line:
            if not block:
                first = number
            block.append(line)
        elif block:
            yield from _block_rows(block, first, name, label)
            block = []
    if block:
        yield from _block_rows(block, first, name, label)


def _block_rows(block: list[str], line: int, name: str, label: str) -> Iterator[SentenceRows]:
    """The rows of one block of lines starting at ``line``: the fast path, or the full reader."""
    try:
        if any("." in b.partition("\t")[0] for b in block if b[0] != "#"):
            raise _Unusual
        rows, tokens, deps = _fast_block(block)
    except (_Unusual, ValueError, IndexError):
        try:
            sentences = parse_conllu("\n".join(block) + "\n", name=label)
        except ConlluError as err:
            raise ConlluError(label, (err.line or 1) + line - 1, err.message) from None
        for sentence in sentences:
            sentence.line = line
            yield sentence_rows(sentence)
    else:
        yield SentenceRows(rows, tokens, deps, f"{label}:{line}", line)


class _Unusual(Exception):
    """A block the fast path leaves to the full reader."""


def _fast_block(lines: list[str]) -> tuple[list[Row], dict[int, tuple[int, str]], list[list[tuple[int, str]]]]:
    rows: list[Row] = []
    tokens: dict[int, tuple[int, str]] = {}
    token_end = 0
    for line in lines:
        if line[0] == "#":
            if rows or tokens:
                raise _Unusual
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise _Unusual
        ident = cols[0]
        if ident.isdigit():
            rows.append(cols)
        else:
            first, dash, last = ident.partition("-")
            if not dash or int(first) != len(rows) + 1 or int(last) <= int(first) or int(first) <= token_end:
                raise _Unusual
            token_end = int(last)
            tokens[int(first)] = (token_end, cols[1])
    n = len(rows)
    if not n or token_end > n:
        raise _Unusual
    deps: list[list[tuple[int, str]]] = []
    for wid, cols in enumerate(rows, 1):
        head = cols[6]
        if int(cols[0]) != wid or (head != "_" and not (head.isdigit() and int(head) <= n)):
            raise _Unusual
        cell = cols[8]
        items: list[tuple[int, str]] = []
        if cell != "_":
            for item in cell.split("|"):
                head_s, colon, label = item.partition(":")
                if not colon or not label or not head_s.isdigit() or int(head_s) > n:
                    raise _Unusual
                items.append((int(head_s), label))
            if len(items) > 1:
                # A repeated DEPS entry is one edge, as in the graph model and the official collapse step.
                items = list(dict.fromkeys(items))
        deps.append(items)
    return rows, tokens, deps
