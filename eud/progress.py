"""Progress bars for long jobs, on stderr, quiet when stderr is not a terminal."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import sys
from collections.abc import Iterable, Iterator
from typing import IO, TypeVar

T = TypeVar("T")


def progress_enabled() -> bool:
    """Bars show on an interactive stderr unless EUD_NO_PROGRESS is set."""
    return sys.stderr.isatty() and not os.environ.get("EUD_NO_PROGRESS")


def progress(iterable: Iterable[T], desc: str, *, total: int | None = None, unit: str = "sent") -> Iterator[T]:
    """Wrap an iterable in a tqdm bar on stderr (a no-op when bars are off)."""
    if not progress_enabled():
        yield from iterable
        return
    from tqdm import tqdm

    yield from tqdm(iterable, desc=desc, total=total, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=False)


class _Counted(io.RawIOBase):
    """A raw binary file that moves a bar by the bytes read from it."""

    def __init__(self, raw: IO[bytes], bar: object) -> None:
        self.raw, self.bar = raw, bar

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        n = self.raw.readinto(buffer)  # type: ignore[attr-defined]
        if n:
            self.bar.update(n)  # type: ignore[attr-defined]
        return n or 0

    def close(self) -> None:
        if not self.closed:
            self.raw.close()
            self.bar.close()  # type: ignore[attr-defined]
        super().close()


def open_with_progress(path: str | os.PathLike, desc: str | None = None) -> IO[bytes]:
    """Open a (possibly .xz/.gz/.bz2) file for binary reading; a bar shows bytes read of the file's size.

    The total is the size on disk, so the bar is exact for compressed files too.
    ``-`` is stdin (no total, no bar).
    """
    name = os.fspath(path)
    if name == "-":
        return sys.stdin.buffer
    raw: IO[bytes] = open(name, "rb")  # noqa: SIM115 - returned to the caller, who closes it
    if progress_enabled():
        from tqdm import tqdm

        bar = tqdm(total=os.path.getsize(name), desc=desc or os.path.basename(name), unit="B", unit_scale=True,
                   file=sys.stderr, dynamic_ncols=True, leave=False)  # fmt: skip
        raw = io.BufferedReader(_Counted(raw, bar))  # type: ignore[assignment]
    opener = {".xz": lzma.open, ".gz": gzip.open, ".bz2": bz2.open}.get(os.path.splitext(name)[1])
    if opener is None:
        return raw
    stream = opener(raw)
    close = stream.close

    def close_both() -> None:
        # A decompressor handed a file object leaves it open; close it (and its bar) too.
        close()
        raw.close()

    stream.close = close_both  # type: ignore[method-assign]
    return stream  # type: ignore[return-value]
