"""Progress bars for long jobs, on stderr, quiet when stderr is not a terminal."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

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
