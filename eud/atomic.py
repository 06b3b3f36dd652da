"""Output files that appear whole or not at all.

Every command that writes ``-o FILE`` writes through :func:`atomic_text`: the
text goes to a hidden temporary file in the same folder (same file system, so
the final rename is atomic) and replaces ``FILE`` only when the writing block
ends without an exception.  A run that stops on bad input, a full disk or
Ctrl-C leaves ``FILE`` as it was before (or absent) and no temporary behind.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import lzma
import os
import sys
from collections.abc import Iterator
from typing import IO

_COMPRESSED = (".xz", ".gz", ".bz2")


def temporary_name(path: str | os.PathLike) -> str:
    """The hidden temporary file next to ``path``, keeping its compression suffix."""
    name = os.fspath(path)
    folder, base = os.path.split(name)
    suffix = next((s for s in _COMPRESSED if base.endswith(s)), "")
    return os.path.join(folder, f".{base}.{os.getpid()}.tmp{suffix}")


def _open_text_for_writing(name: str) -> IO[str]:
    opener = {".xz": lzma.open, ".gz": gzip.open, ".bz2": bz2.open}.get(os.path.splitext(name)[1], open)
    return io.TextIOWrapper(opener(name, "wb"), encoding="utf-8", newline="")


@contextlib.contextmanager
def atomic_text(path: str | os.PathLike) -> Iterator[IO[str]]:
    """Open ``path`` (``-``: stdout) for UTF-8 text, compressed by suffix; it appears only on success."""
    if os.fspath(path) == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    tmp = temporary_name(path)
    stream = _open_text_for_writing(tmp)
    try:
        yield stream
        stream.close()
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError, ValueError):
            stream.close()
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text_atomically(path: str | os.PathLike, text: str) -> None:
    """Write a whole text to ``path`` (``-``: stdout) through :func:`atomic_text`."""
    with atomic_text(path) as stream:
        stream.write(text)


__all__ = ["atomic_text", "temporary_name", "write_text_atomically"]
