"""Reading raw text robustly, as a stream of paragraphs.

Paragraphs are separated by blank lines (lines of only whitespace).  The input
is UTF-8 (a UTF-8 byte order mark is dropped); a UTF-16 file is recognised by
its byte order mark.  Line ends may be ``\\n``, ``\\r\\n`` or ``\\r``.

:func:`clean_text` is applied to every text the segmenter reads, so that no
FORM or ``# text`` it writes is one udvalidate rejects or a CoNLL-U reader
splits: the characters listed in docs/text_hygiene.md are dropped (controls,
NUL, lone surrogates, BOM, zero-width space, U+FFFD), other spaces (tab, NBSP,
ideographic space...) become U+0020, and the text is put in NFC.  Every other
character comes through unchanged.

Invalid UTF-8 either stops reading with a :class:`TextError` naming the byte
offset (``errors="strict"``) or becomes U+FFFD (``errors="replace"``), as
Python's codecs do.  The file is read line by line, so memory follows the
longest paragraph, not the file.
"""

from __future__ import annotations

import codecs
import io
import os
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from typing import IO

from eud.progress import open_with_progress

TextSource = str | os.PathLike | IO[bytes] | IO[str]


# Dropped: C0/C1 controls other than the whitespace ones, lone surrogates, BOM /
# zero-width no-break space, zero-width space, word joiner, and U+FFFD (what
# errors="replace" makes of bad bytes; udvalidate rejects it as invalid-utf).
_DROP = [c for c in range(0x20) if c not in (0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F)]
_DROP += [c for c in range(0x7F, 0xA0) if c != 0x85]
_DROP += list(range(0xD800, 0xE000)) + [0xFEFF, 0x200B, 0x2060, 0xFFFD]
# Turned into a plain space: the other whitespace (tab, vertical tab, form feed,
# information separators, NEL, line/paragraph separators, and the Zs spaces).
_SPACE = [0x09, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029,
          0x202F, 0x205F, 0x3000]  # fmt: skip
_HYGIENE = {**dict.fromkeys(_DROP), **dict.fromkeys(_SPACE, " ")}
_DROP_ONLY = dict.fromkeys(_DROP)
DROPPED = frozenset(chr(c) for c in _DROP)


def clean_text(text: str, *, keep_spaces: bool = False) -> str:
    """Text safe for FORM and ``# text``: unsafe characters dropped, odd spaces made plain, NFC.

    With ``keep_spaces`` the whitespace stays as it was (for ``SpacesAfter``, :mod:`eud.spaces`);
    the text between whitespace is the same either way.
    """
    cleaned = text.translate(_DROP_ONLY if keep_spaces else _HYGIENE)
    return cleaned if cleaned.isascii() else unicodedata.normalize("NFC", cleaned)


class TextError(ValueError):
    """Input text that cannot be read (bad encoding, unreadable file), with a clear message."""


def _lines(stream: IO[bytes], name: str, errors: str) -> Iterator[str]:
    """Decoded lines (line ends removed), with byte offsets in errors."""
    head = stream.read(4) if hasattr(stream, "read") else b""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        # UTF-16 input is rare; decode it whole rather than track two-byte offsets.
        data = head + stream.read()
        try:
            text = data.decode("utf-16", errors=errors)
        except UnicodeDecodeError as err:
            raise TextError(f"{name}: invalid UTF-16 at byte offset {err.start}") from None
        yield from text.splitlines()
        return
    first = True
    offset = 0
    pending = head
    for number, raw in enumerate(_binary_lines(stream, pending), 1):
        try:
            line = raw.decode("utf-8", errors=errors)
        except UnicodeDecodeError as err:
            raise TextError(
                f"{name}: invalid UTF-8 at byte offset {offset + err.start} (line {number}); "
                "use --errors replace to read it anyway"
            ) from None
        offset += len(raw)
        if first:
            line = line.removeprefix("\ufeff")
            first = False
        # splitlines also handles a lone \r and the Unicode line separators.
        yield from line.splitlines() or [""]


def _binary_lines(stream: IO[bytes], head: bytes) -> Iterator[bytes]:
    """Lines of a binary stream, including the bytes already read as ``head``."""
    if head and not head.endswith(b"\n"):
        head += stream.readline()
    yield from io.BytesIO(head)
    yield from stream


def paragraphs(source: TextSource, *, errors: str = "strict", name: str | None = None) -> Iterator[str]:
    """Stream the paragraphs of a text file, path, ``-`` (stdin) or open stream."""
    return _paragraphs(lines(source, errors=errors, name=name))


def lines(source: TextSource, *, errors: str = "strict", name: str | None = None) -> Iterator[str]:
    """Stream the lines (without their line ends) of a text file, path, ``-`` (stdin) or open stream."""
    if errors not in ("strict", "replace"):
        raise ValueError(f"errors must be 'strict' or 'replace', not {errors!r}")
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        name = name or ("<stdin>" if path == "-" else path)
        if path == "-":
            yield from _lines(sys.stdin.buffer, name, errors)
            return
        try:
            # On a terminal, a bar shows bytes read of the file's size.
            stream = open_with_progress(path)
        except OSError as err:
            raise TextError(f"{name}: cannot open: {err.strerror}") from None
        with stream:
            yield from _lines(stream, name, errors)
        return
    name = name or str(getattr(source, "name", "<input>"))
    if isinstance(source, io.TextIOBase):
        yield from (line.rstrip("\r\n") for line in source)
        return
    yield from _lines(source, name, errors)  # type: ignore[arg-type]


def split_paragraphs(text: str) -> Iterator[str]:
    """The paragraphs of a string (blank lines separate them)."""
    return _paragraphs(iter(text.splitlines()))


def _paragraphs(lines: Iterable[str]) -> Iterator[str]:
    current: list[str] = []
    for line in lines:
        if line.strip():
            current.append(line)
        elif current:
            yield "\n".join(current)
            current = []
    if current:
        yield "\n".join(current)


def read_text(source: TextSource, *, errors: str = "strict") -> str:
    """The whole text, paragraphs separated by one blank line (for small inputs)."""
    return "\n\n".join(paragraphs(source, errors=errors))
