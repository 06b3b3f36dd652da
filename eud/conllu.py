"""Streaming, lossless CoNLL-U reading and writing.

Reading a file and writing it back gives the same bytes: comments, multiword
tokens, empty nodes, MISC and every column are kept as read; only DEPS is
re-derived from the enhanced edges (sorted as UD requires, which is how valid
files already are).  Files ending in ``.xz``, ``.gz`` or ``.bz2`` are
(de)compressed on the fly and ``-`` means stdin/stdout.

Malformed input raises :class:`ConlluError`, which names the file, the line
and the problem.  With ``lenient=True`` a broken sentence is skipped with a
warning instead, and :attr:`ConlluReader.skipped` counts them.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import IO

from eud.atomic import atomic_text
from eud.graph import EmptyNode, EnhancedGraph, MultiwordToken, NodeId, Sentence, Word, format_id
from eud.progress import open_with_progress

Source = str | os.PathLike | IO[bytes] | IO[str]


class ConlluError(ValueError):
    """Malformed CoNLL-U, with the file and line where it was found."""

    def __init__(self, source: str, line: int | None, message: str) -> None:
        self.source = source
        self.line = line
        self.message = message
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")


def _open_binary(path: str | os.PathLike, mode: str) -> IO[bytes]:
    name = os.fspath(path)
    if name == "-":
        return (sys.stdin if mode == "rb" else sys.stdout).buffer
    if name.endswith(".xz"):
        return lzma.open(name, mode)
    if name.endswith(".gz"):
        return gzip.open(name, mode)
    if name.endswith(".bz2"):
        return bz2.open(name, mode)
    return open(name, mode)


def open_text(path: str | os.PathLike, mode: str = "r") -> IO[str]:
    """Open a possibly compressed file (or ``-``) as UTF-8 text."""
    binary = _open_binary(path, mode[0] + "b")
    return io.TextIOWrapper(binary, encoding="utf-8", newline="")


def _decoded_lines(stream: IO[bytes] | IO[str], name: str) -> Iterator[str]:
    """Yield lines without their newline, with clear errors for bad UTF-8."""
    offset = 0
    for number, raw in enumerate(stream, 1):
        if isinstance(raw, bytes):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise ConlluError(
                    name, number, f"invalid UTF-8 at byte offset {offset + err.start} of the file"
                ) from None
            offset += len(raw)
        else:
            line = raw
        line = line.removesuffix("\n")
        if number == 1 and line.startswith("\ufeff"):
            line = line[1:]
        yield line


def _parse_id_major(text: str) -> int:
    if not text.isdigit():
        raise ValueError
    return int(text)


class _Block:
    """The lines of one sentence being read, with their line numbers."""

    __slots__ = ("comments", "first_line", "rows")

    def __init__(self, first_line: int) -> None:
        self.comments: list[str] = []
        self.rows: list[tuple[int, list[str]]] = []
        self.first_line = first_line


def _build(block: _Block, name: str) -> Sentence:
    """Turn the raw lines of one sentence into a :class:`Sentence`, checking them."""
    sentence = Sentence(comments=block.comments, source=name, line=block.first_line)
    words = sentence.words
    pending_deps: list[tuple[int, NodeId, str]] = []
    heads: list[tuple[int, Word]] = []
    token_end = 0
    for number, cols in block.rows:
        if len(cols) != 10:
            raise ConlluError(name, number, f"expected 10 tab-separated columns, found {len(cols)}")
        ident = cols[0]
        if "-" in ident:
            first, _, last = ident.partition("-")
            try:
                a, b = _parse_id_major(first), _parse_id_major(last)
            except ValueError:
                raise ConlluError(name, number, f"bad multiword token id {ident!r}") from None
            if a != len(words) + 1 or b <= a:
                raise ConlluError(
                    name, number,
                    f"multiword token {ident!r} must start at word {len(words) + 1} and span at least two words",
                )
            if a <= token_end:
                raise ConlluError(name, number, f"multiword token {ident!r} overlaps the previous one")
            token_end = b
            sentence.tokens.append(MultiwordToken(a, b, cols[1], tuple(cols[2:9]), cols[9]))
        elif "." in ident:
            major_s, _, minor_s = ident.partition(".")
            try:
                major, minor = _parse_id_major(major_s), _parse_id_major(minor_s)
            except ValueError:
                raise ConlluError(name, number, f"bad empty node id {ident!r}") from None
            expected = 1 + sum(1 for e in sentence.empty_nodes if e.major == major)
            if major != len(words) or minor != expected:
                raise ConlluError(
                    name, number,
                    f"empty node {ident!r} out of sequence: expected {len(words)}.{expected if major == len(words) else 1}",
                )
            empty = EmptyNode(major, minor, cols[1], cols[2], cols[3], cols[4], cols[5], cols[9], cols[6], cols[7])
            sentence.empty_nodes.append(empty)
            if cols[8] != "_":
                pending_deps.append((number, empty.node, cols[8]))
        else:
            if not ident.isdigit():
                raise ConlluError(name, number, f"bad word id {ident!r}")
            wid = int(ident)
            if wid != len(words) + 1:
                raise ConlluError(name, number, f"word id {wid} out of sequence: expected {len(words) + 1}")
            head_s = cols[6]
            if head_s.isdigit():
                head: int | None = int(head_s)
            elif head_s == "_":
                head = None
            else:
                raise ConlluError(name, number, f"bad HEAD {head_s!r}: must be a word id, 0 or _")
            word = Word(wid, cols[1], cols[2], cols[3], cols[4], cols[5], head, cols[7], cols[9])
            words.append(word)
            if head is not None:
                heads.append((number, word))
            if cols[8] != "_":
                pending_deps.append((number, (wid, 0), cols[8]))
    if not words:
        line = block.rows[0][0] if block.rows else block.first_line
        raise ConlluError(name, line, "sentence has no words")
    if token_end > len(words):
        raise ConlluError(name, block.first_line, f"a multiword token ends at word {token_end}, after the last word")
    n = len(words)
    for number, word in heads:
        if word.head > n:  # type: ignore[operator]
            raise ConlluError(name, number, f"HEAD {word.head} out of range: the sentence has {n} words")
    if pending_deps:
        known = {(0, 0)} | {(w.id, 0) for w in words} | {e.node for e in sentence.empty_nodes}
        graph = EnhancedGraph()
        for number, dep, cell in pending_deps:
            for item in cell.split("|"):
                head_s, colon, label = item.partition(":")
                if not colon or not label:
                    raise ConlluError(name, number, f"malformed DEPS entry {item!r}: expected HEAD:RELATION")
                if head_s.isdigit():
                    head_id: NodeId = (int(head_s), 0)
                else:
                    major_s, dot, minor_s = head_s.partition(".")
                    if not (dot and major_s.isdigit() and minor_s.isdigit()):
                        raise ConlluError(name, number, f"malformed DEPS entry {item!r}: bad head id {head_s!r}")
                    head_id = (int(major_s), int(minor_s))
                if head_id not in known:
                    raise ConlluError(
                        name, number, f"DEPS entry {item!r} points to {format_id(head_id)}, which is not in the sentence"
                    )
                graph.add(head_id, dep, label)
        sentence.enhanced = graph
    return sentence


class ConlluReader:
    """Iterate over the sentences of a CoNLL-U file, one at a time.

    ``source`` is a path (``.xz``/``.gz``/``.bz2`` allowed, ``-`` for stdin) or an
    open file.  ``name`` overrides the name used in error messages.
    """

    def __init__(
        self,
        source: Source,
        *,
        lenient: bool = False,
        name: str | None = None,
        on_skip: Callable[[ConlluError], None] | None = None,
    ) -> None:
        self.source = source
        self.lenient = lenient
        self.on_skip = on_skip  # told of each skipped sentence instead of a warning
        self.skipped = 0
        if name is None:
            name = os.fspath(source) if isinstance(source, (str, os.PathLike)) else getattr(source, "name", "<input>")
            name = "<stdin>" if name == "-" else str(name)
        self.name = name

    def __iter__(self) -> Iterator[Sentence]:
        if isinstance(self.source, (str, os.PathLike)):
            # On a terminal, a bar shows bytes read of the file's size (every command reads this way).
            with open_with_progress(self.source) as stream:
                yield from self._sentences(stream)
        else:
            yield from self._sentences(self.source)

    def _sentences(self, stream: IO[bytes] | IO[str]) -> Iterator[Sentence]:
        block: _Block | None = None
        broken: ConlluError | None = None
        number = 0
        for number, line in enumerate(_decoded_lines(stream, self.name), 1):
            if not line:
                if block is not None:
                    result = self._finish(block, broken)
                    if result is not None:
                        yield result
                block, broken = None, None
                continue
            if block is None:
                block = _Block(number)
            if broken is not None:
                continue
            if line[-1] == "\r":
                broken = ConlluError(self.name, number, "line ends with CR LF (Windows line ends); CoNLL-U lines end with LF alone")
            elif line[0] == "#":
                if block.rows:
                    broken = ConlluError(self.name, number, "comment line inside a sentence (comments must come first)")
                else:
                    block.comments.append(line)
            elif line.isspace():
                broken = ConlluError(self.name, number, "line of only whitespace (sentences end with an empty line)")
            else:
                block.rows.append((number, line.split("\t")))
        if block is not None:
            result = self._finish(block, broken)
            if result is not None:
                yield result

    def _finish(self, block: _Block, broken: ConlluError | None) -> Sentence | None:
        try:
            if broken is not None:
                raise broken
            if not block.rows:
                raise ConlluError(self.name, block.first_line, "comments with no sentence after them")
            return _build(block, self.name)
        except ConlluError as err:
            if not self.lenient:
                raise
            self.skipped += 1
            if self.on_skip is not None:
                self.on_skip(err)
            else:
                warnings.warn(f"skipping broken sentence: {err}", stacklevel=3)
            return None


def read_conllu(source: Source, *, lenient: bool = False) -> Iterator[Sentence]:
    """Stream the sentences of a CoNLL-U file (see :class:`ConlluReader`)."""
    return iter(ConlluReader(source, lenient=lenient))


def parse_conllu(text: str, *, name: str = "<string>", lenient: bool = False) -> list[Sentence]:
    """Read every sentence of a CoNLL-U string."""
    return list(ConlluReader(io.StringIO(text), lenient=lenient, name=name))


def format_sentence(sentence: Sentence) -> str:
    """Write one sentence as CoNLL-U, ending with its blank line."""
    graph = sentence.enhanced
    enhanced = bool(graph)
    out = list(sentence.comments)
    tokens = {t.first: t for t in sentence.tokens}
    empties: dict[int, list[EmptyNode]] = {}
    for e in sentence.empty_nodes:
        empties.setdefault(e.major, []).append(e)

    def write_empties(major: int) -> None:
        for e in sorted(empties.get(major, ()), key=lambda x: x.minor):
            deps = graph.deps_cell(e.node) if enhanced else "_"
            out.append(f"{e.major}.{e.minor}\t{e.form}\t{e.lemma}\t{e.upos}\t{e.xpos}\t{e.feats}\t{e.head}\t{e.deprel}\t{deps}\t{e.misc}")

    write_empties(0)
    for w in sentence.words:
        token = tokens.get(w.id)
        if token is not None:
            out.append(f"{token.first}-{token.last}\t{token.form}\t" + "\t".join(token.middle) + f"\t{token.misc}")
        head = "_" if w.head is None else str(w.head)
        deps = graph.deps_cell((w.id, 0)) if enhanced else "_"
        out.append(f"{w.id}\t{w.form}\t{w.lemma}\t{w.upos}\t{w.xpos}\t{w.feats}\t{head}\t{w.deprel}\t{deps}\t{w.misc}")
        if w.id in empties:
            write_empties(w.id)
    out.append("")
    out.append("")
    return "\n".join(out)


def write_conllu(sentences: Iterable[Sentence], target: str | os.PathLike | IO[str]) -> int:
    """Write sentences to a path (compressed by suffix, ``-`` for stdout) or text stream.

    Returns the number of sentences written.
    """
    count = 0
    if isinstance(target, (str, os.PathLike)) and os.fspath(target) == "-":
        target = sys.stdout
    if isinstance(target, (str, os.PathLike)):
        # A reader error half-way leaves no half-written file behind.
        with atomic_text(target) as stream:
            for sentence in sentences:
                stream.write(format_sentence(sentence))
                count += 1
        return count
    for sentence in sentences:
        target.write(format_sentence(sentence))
        count += 1
    return count
