"""The error message every subcommand prints for input or output it cannot read or write."""

from __future__ import annotations

import sys


def input_error(prog: str, err: Exception, name: str | None = None) -> int:
    """Print a subcommand's one-line error for unreadable input or output and return exit code 1.

    ``OSError`` is shown as ``file: reason`` (``name`` stands in when the error
    names no file); anything else (``ConlluError`` and friends already name
    file and line) is shown as is.
    """
    if isinstance(err, OSError):
        message = f"{err.filename or name}: {err.strerror}"
    else:
        message = str(err)
    print(f"{prog}: {message}", file=sys.stderr)
    return 1
