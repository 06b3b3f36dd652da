"""The exit codes and the error message every subcommand uses for input or output it cannot read or write.

One convention for every ``eud`` subcommand (:data:`EXIT_CODES`): 0 ok, 1 the
input is invalid or problems were found, 2 a usage error, which includes a
missing input file (argparse exits 2 for the rest).
"""

from __future__ import annotations

import argparse
import sys

from eud.conllu import ConlluError, ConlluReader

OK, PROBLEMS, USAGE = 0, 1, 2

EXIT_CODES = """\
exit status (every command): 0 ok; 1 invalid input or problems found (the
message names file, line and problem); 2 usage error, including a missing
input file.  Files given with -o appear only when the command succeeds."""


def input_error(prog: str, err: Exception, name: str | None = None) -> int:
    """Print a subcommand's one-line error for unreadable input or output and return its exit code.

    ``OSError`` is shown as ``file: reason`` (``name`` stands in when the error
    names no file); a file that does not exist is a usage error (2), anything
    else 1.  Other errors (``ConlluError`` and friends already name file and
    line) are shown as they are, with 1.
    """
    if isinstance(err, OSError):
        message = f"{err.filename or name}: {err.strerror}"
    else:
        message = str(err)
    print(f"{prog}: {message}", file=sys.stderr)
    return USAGE if isinstance(err, FileNotFoundError) else PROBLEMS


def add_lenient_options(parser: argparse.ArgumentParser) -> None:
    """``--lenient`` (skip unreadable sentences, exit 1 if any) and ``--lenient-ok`` (the same, exit 0)."""
    parser.add_argument(
        "--lenient",
        action="store_const",
        const="fail",
        help="skip unreadable sentences, listing each on stderr with file and line; exit status 1 if any was skipped",
    )
    parser.add_argument(
        "--lenient-ok",
        dest="lenient",
        action="store_const",
        const="ok",
        help="like --lenient, but skipped sentences alone leave the exit status 0",
    )


def lenient_reader(prog: str, path: str, lenient: str | None) -> ConlluReader:
    """A reader of ``path`` that, with ``lenient`` set, skips unreadable sentences and names each on stderr."""

    def tell(err: ConlluError) -> None:
        print(f"{prog}: skipped unreadable sentence: {err}", file=sys.stderr)

    return ConlluReader(path, lenient=bool(lenient), on_skip=tell)


def lenient_status(reader: ConlluReader, lenient: str | None) -> int:
    """The exit status of a run that otherwise succeeded: 1 if sentences were skipped, unless ``--lenient-ok``."""
    return PROBLEMS if reader.skipped and lenient != "ok" else OK
