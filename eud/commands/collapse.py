"""``eud collapse``: write a file with empty nodes collapsed into path labels (see :mod:`eud.collapse`)."""

from __future__ import annotations

import argparse

from eud.collapse import collapse_empty_nodes
from eud.commands.errors import input_error
from eud.conllu import ConlluError, read_conllu, write_conllu
from eud.progress import progress

EPILOG = """\
examples:
  eud collapse gold.conllu -o gold.collapsed.conllu
  eud collapse en_ewt-ud-test.conllu.xz > collapsed.conllu
  eud parse raw.txt | eud collapse - -o out.conllu

A DEPS entry that reaches a word through empty nodes, e.g. 5 -conj-> 8.1 -nsubj-> 9,
becomes 5:conj>nsubj on word 9; the empty node 8.1 disappears.  This is the
preprocessing the IWPT shared tasks applied to gold and system files before
scoring (eud evaluate does it by itself).
"""


def main(argv: list[str] | None = None) -> int:
    """``eud collapse IN [-o OUT]``: write IN with empty nodes collapsed into path labels."""
    parser = argparse.ArgumentParser(
        prog="eud collapse",
        description="Replace empty nodes by path labels (conj>nsubj), as IWPT scoring does.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("input", help="CoNLL-U file (.xz/.gz/.bz2 ok, - for stdin)")
    parser.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    args = parser.parse_args(argv)
    try:
        sentences = progress(read_conllu(args.input), "collapse")
        write_conllu((collapse_empty_nodes(s) for s in sentences), args.output)
    except (ConlluError, OSError) as err:
        return input_error("eud collapse", err, args.input)
    return 0
