"""``eud validate``: check CoNLL-U files sentence by sentence, and with ``--fix`` repair them.

:func:`eud.validate.files.check_file` finds the problems; this module prints
them and with ``--fix`` writes every sentence, repaired by
:mod:`eud.validate.repair` where needed.
"""

from __future__ import annotations

import argparse
import lzma
import os
import sys

from eud.conllu import ConlluError, format_sentence, open_text
from eud.graph import Sentence
from eud.progress import progress
from eud.validate.checks import has_enhanced_layer
from eud.validate.files import RunState, check_file
from eud.validate.repair import repair_sentence
from eud.validate.rows import UNREADABLE_IDS

EPILOG = """\
Each problem is printed as  FILE:LINE: [TESTID] message  with udvalidate's test
ids, e.g. [unsorted-deps], [deps-self-loop], [unconnected-egraph].  Checked:
DEPS syntax and order, self-loops, relation labels, empty-node numbering and
columns, connectivity from the root, graphs present in all sentences or none,
and the two root-label rules (level 3 in udvalidate).  The basic tree,
features and metadata are not checked (use udvalidate for those).

--fix writes every sentence, repaired where needed (see eud.validate.repair),
to -o OUT or stdout (problems then go to stderr).  Sentences broken only in
DEPS or empty-node ids are salvaged; sentences without a graph get the basic
tree once the input has shown it has graphs.

exit status: 0 valid, 1 problems found (with --fix: a sentence could not be
read and was not written), 2 usage error.

examples:
  eud validate en_ewt-ud-dev.conllu.xz
  eud validate --quiet out.conllu && echo valid
  eud validate --fix -o fixed.conllu parsed.conllu      # repair and write
  eud validate --lenient --max-errors 20 big.conllu     # skip unreadable sentences
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="eud validate",
        description="Check (and with --fix, repair) enhanced UD graphs as UD's level-2 validation does.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="CoNLL-U files (.xz/.gz/.bz2 ok, - for stdin)")
    parser.add_argument("--fix", action="store_true", help="write every sentence, repaired where needed")
    parser.add_argument("-o", "--output", default="-", metavar="OUT", help="where --fix writes (default: stdout)")
    parser.add_argument("--lenient", action="store_true", help="skip unreadable sentences with a warning")
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing; only the exit status tells")
    parser.add_argument("--max-errors", type=int, default=0, metavar="N", help="print at most N problems (0: all)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """``eud validate``: check enhanced graphs, optionally writing repaired output."""
    args = _parser().parse_args(argv)
    if args.max_errors < 0:
        _parser().error("--max-errors must be 0 or more")
    if args.fix and args.output != "-" and any(os.path.abspath(f) == os.path.abspath(args.output) for f in args.files):
        _parser().error("--output must not be one of the input files")
    report = sys.stderr if args.fix and args.output == "-" else sys.stdout
    fixer = _Fixer(args.output) if args.fix else None
    state = RunState()
    counts: dict[str, int] = {}
    shown = sentences = unreadable = failed = 0
    try:
        for path in args.files:
            if path != "-" and not os.path.exists(path):
                print(f"eud validate: {path}: no such file", file=sys.stderr)
                return 2
            for checked in progress(check_file(path, state, salvage=args.fix), desc=os.path.basename(path)):
                sentences += 1
                if checked.error is not None:
                    if checked.sentence is None:
                        unreadable += 1
                        if args.lenient:
                            if not args.quiet:
                                where = f"{path}:{checked.error.line}: {checked.error.message}"
                                print(f"warning: skipping unreadable sentence: {where}", file=sys.stderr)
                            continue
                        failed += 1
                    known = [p for p in checked.problems if p.testid in UNREADABLE_IDS]
                    checked.problems[:] = known or [checked.error]
                for problem in checked.problems:
                    counts[problem.testid] = counts.get(problem.testid, 0) + 1
                    if not args.quiet and (not args.max_errors or shown < args.max_errors):
                        print(problem.format("<stdin>" if path == "-" else path), file=report)
                        shown += 1
                if fixer and checked.sentence is not None:
                    fixer.add(checked.sentence, bool(checked.problems))
    except (ConlluError, UnicodeDecodeError, OSError, lzma.LZMAError) as err:
        print(f"eud validate: {err}", file=sys.stderr)
        return 1
    finally:
        if fixer:
            fixer.close()
    total = sum(counts.values())
    if not args.quiet:
        print(_summary(counts, sentences, unreadable, args.lenient, fixer), file=sys.stderr)
    if fixer:
        return 1 if failed else 0
    return 1 if total else 0


def _summary(counts: dict[str, int], sentences: int, unreadable: int, lenient: bool, fixer: _Fixer | None) -> str:
    total = sum(counts.values())
    text = f"{sentences} sentences: " + (
        "valid" if not total else f"{total} problems (" + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ")"
    )
    if unreadable and lenient:
        text += f"; {unreadable} unreadable sentences skipped"
    if fixer:
        text += f"; --fix repaired {fixer.repaired} and wrote {fixer.written} sentences"
    return "eud validate: " + text


class _Fixer:
    """Writes sentences repaired, adding basic-tree graphs only once the input has shown it has graphs."""

    def __init__(self, output: str) -> None:
        self.repair = repair_sentence
        self.stream = sys.stdout if output == "-" else open_text(output, "w")
        self.pending: list[Sentence] = []  # graph-less sentences seen before any graph
        self.seen_graph = False
        self.repaired = self.written = 0

    def _write(self, sentence: Sentence, repair: bool, dirty: bool = False) -> None:
        if (repair and self.repair(sentence)) or dirty:
            self.repaired += 1
        self.stream.write(format_sentence(sentence))
        self.written += 1

    def add(self, sentence: Sentence, dirty: bool = False) -> None:
        """Repair (if needed) and write one sentence, in input order; ``dirty``: it had problems."""
        if not has_enhanced_layer(sentence) and not self.seen_graph:
            self.pending.append(sentence)
            return
        if not self.seen_graph:
            self.seen_graph = True
            for waiting in self.pending:
                self._write(waiting, True)
            self.pending = []
        self._write(sentence, True, dirty)

    def close(self) -> None:
        """Flush sentences still waiting (a file with no graph anywhere stays without one)."""
        for waiting in self.pending:
            self._write(waiting, False)
        self.pending = []
        if self.stream is sys.stdout:
            self.stream.flush()
        else:
            self.stream.close()
