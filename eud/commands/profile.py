"""``eud profile learn``: infer an enhancer language profile from gold enhanced data (see :mod:`eud.enhance.learn`)."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from eud.atomic import write_text_atomically
from eud.commands.errors import input_error
from eud.conllu import ConlluError, read_conllu
from eud.enhance.learn import Counts, build, count

EPILOG = textwrap.dedent(
    """\
    examples:
      eud profile learn en_ewt-ud-dev.conllu.xz -o converters/en.toml
      eud profile learn cs_cac-ud-dev.conllu.xz cs_fictree-ud-dev.conllu.xz -o converters/cs.toml --name cs

    Learn on dev data only, then read the file and fix what looks wrong.
    """
)


def main(argv: list[str] | None = None) -> int:
    """Run ``eud profile``."""
    parser = argparse.ArgumentParser(
        prog="eud profile",
        description="Learn an enhancer language profile from gold enhanced CoNLL-U.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="action", required=True)
    learn = sub.add_parser("learn", help="infer a profile from gold files", epilog=EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    learn.add_argument("gold", nargs="+", help="gold enhanced CoNLL-U files (dev data)")
    learn.add_argument("-o", "--output", default="-", help="TOML file to write (default stdout)")
    learn.add_argument("--name", help="profile name (default: the output file's stem)")
    args = parser.parse_args(argv)
    counts = Counts()
    try:
        for path in args.gold:
            count(read_conllu(path), counts)
    except (ConlluError, OSError) as err:
        return input_error("eud profile", err)
    name = args.name or (Path(args.output).stem if args.output != "-" else "profile")
    text = build(counts, name, args.gold)
    try:
        write_text_atomically(args.output, text)
    except OSError as err:
        return input_error("eud profile", err, args.output)
    return 0
