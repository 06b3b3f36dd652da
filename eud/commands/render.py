"""``eud render``: CoNLL-U in, one self-contained HTML page of graphs out (see :mod:`eud.render`)."""

from __future__ import annotations

import argparse
import os
import sys

from eud.atomic import write_text_atomically
from eud.commands.errors import input_error
from eud.conllu import ConlluError, read_conllu

EPILOG = """\
examples:
  eud render parsed.conllu -o parsed.html
  eud render system.conllu --compare gold.conllu -o diff.html
  eud parse --model models/en_ewt examples/en.txt | eud render - -o en.html
  eud render en_ewt-ud-dev.conllu.xz --first 50 -o dev50.html

Enhanced arcs are drawn above the words, basic arcs below, empty nodes as
dashed boxes.  With --compare the enhanced edges that gold has and the system
lacks are drawn dashed orange (missing), the ones only the system has magenta
(extra).  Both files must have the same sentences and words.  The page needs
no network: open it in any browser.
"""


def main(argv: list[str] | None = None) -> int:
    """``eud render FILE [--compare GOLD] -o PAGE``: draw every sentence as an SVG graph in one HTML page."""
    parser = argparse.ArgumentParser(
        prog="eud render",
        description="Draw enhanced (above) and basic (below) graphs of a CoNLL-U file as one HTML page.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("input", help="CoNLL-U file (.xz/.gz/.bz2 ok, - for stdin)")
    parser.add_argument("--compare", metavar="GOLD", help="gold CoNLL-U: mark missing and extra enhanced edges")
    parser.add_argument("-o", "--output", default="-", help="HTML file to write (default: stdout)")
    parser.add_argument("--first", type=int, metavar="N", help="only the first N sentences")
    parser.add_argument("--title", help="page title (default: the input file name)")
    args = parser.parse_args(argv)
    from eud.render import render_page

    try:
        sentences = _read(args.input, args.first)
        gold = _read(args.compare, args.first) if args.compare else None
        title = args.title or (os.path.basename(args.input) if args.input != "-" else "eud")
        page = render_page(sentences, gold, title=title)
    except (ConlluError, OSError) as err:
        return input_error("eud render", err, args.compare if isinstance(err, OSError) and args.compare else args.input)
    except ValueError as err:
        print(f"eud render: {err}", file=sys.stderr)
        return 1
    try:
        _write(page, args.output)
    except OSError as err:
        return input_error("eud render", err, args.output)
    return 0


def _read(path: str, first: int | None) -> list:
    sentences = []
    for sentence in read_conllu(path):
        if first is not None and len(sentences) >= first:
            break
        sentences.append(sentence)
    return sentences


def _write(page: str, output: str) -> None:
    """Write the page whole or not at all (see eud.atomic)."""
    write_text_atomically(output, page)
