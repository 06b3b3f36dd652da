"""``eud validate``: check CoNLL-U files sentence by sentence, and with ``--fix`` repair them.

:func:`eud.validate.files.check_file` finds the problems; this module prints
them and with ``--fix`` writes every sentence, repaired by
:mod:`eud.validate.repair` where needed.
"""

from __future__ import annotations

import argparse
import contextlib
import lzma
import os
import sys
from typing import TextIO

from eud.atomic import atomic_text
from eud.commands.errors import add_lenient_options, input_error
from eud.conllu import ConlluError, format_sentence
from eud.graph import Sentence
from eud.validate.checks import has_enhanced_layer
from eud.validate.files import RunState, check_file
from eud.validate.official import LEVELS, OfficialChecks
from eud.validate.repair import repair_sentence

EPILOG = """\
Each problem is printed as  FILE:LINE: [TESTID] message  with udvalidate's test
ids, e.g. [missing-sent-id], [non-tree], [unsorted-deps], [unconnected-egraph].
Levels 1 and 2 are UD's own checks (udtools, the library behind udvalidate,
run in-process with --lang ud): format, Unicode, ids, the basic tree, UPOS,
FEATS, DEPREL, DEPS and MISC syntax, metadata, blank lines, the final newline,
and the enhanced graph.  eud adds the two enhanced root-label rules (level 3
in udvalidate) at level 2.  --level 1 runs only the format checks.

--fix writes every sentence, repaired where needed (see eud.validate.repair),
to -o OUT or stdout (problems then go to stderr).  Sentences broken only in
DEPS or empty-node ids are salvaged; sentences without a graph get the basic
tree once the input has shown it has graphs.

exit status: 0 valid, 1 problems found (with --fix: a sentence could not be
read and was not written), 2 usage error or missing input file.  With --fix
and -o OUT, OUT appears only when the run completes.

examples:
  eud validate en_ewt-ud-dev.conllu.xz
  eud validate --quiet out.conllu && echo valid
  eud validate --fix -o fixed.conllu parsed.conllu      # repair and write
  eud validate --lenient --max-errors 20 big.conllu     # skip unreadable sentences
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="eud validate",
        description="Check CoNLL-U as UD's validator does (levels 1-2), and with --fix repair enhanced graphs.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="CoNLL-U files (.xz/.gz/.bz2 ok, - for stdin)")
    parser.add_argument("--level", type=int, choices=LEVELS, default=2, help="UD validation level (default: 2)")
    parser.add_argument("--fix", action="store_true", help="write every sentence, repaired where needed")
    parser.add_argument("-o", "--output", default="-", metavar="OUT", help="where --fix writes (default: stdout)")
    add_lenient_options(parser)
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing; only the exit status tells")
    parser.add_argument("--max-errors", type=int, default=0, metavar="N", help="print at most N problems (0: all)")
    return parser


class _Abort(Exception):
    """Stops a --fix run so that its output file is not created."""


def main(argv: list[str] | None = None) -> int:
    """``eud validate``: check CoNLL-U files, optionally writing repaired output."""
    args = _parser().parse_args(argv)
    if args.max_errors < 0:
        _parser().error("--max-errors must be 0 or more")
    if args.fix and args.output != "-" and any(os.path.abspath(f) == os.path.abspath(args.output) for f in args.files):
        _parser().error("--output must not be one of the input files")
    missing = [path for path in args.files if path != "-" and not os.path.exists(path)]
    if missing:
        print(f"eud validate: {missing[0]}: no such file", file=sys.stderr)
        return 2
    report = sys.stderr if args.fix and args.output == "-" else sys.stdout
    run = _Run(args, report)
    try:
        with atomic_text(args.output) if args.fix else contextlib.nullcontext() as stream:
            run.fixer = _Fixer(stream) if args.fix else None
            run.check_all()
            if run.fixer:
                run.fixer.close()
                if run.failed:
                    raise _Abort
    except _Abort:
        pass
    except (ConlluError, UnicodeDecodeError, OSError, lzma.LZMAError) as err:
        return input_error("eud validate", err)
    total = sum(run.counts.values())
    if not args.quiet:
        print(_summary(run), file=sys.stderr)
    if run.failed or (run.unreadable and args.lenient != "ok"):
        return 1
    return 0 if args.fix or not total else 1


class _Run:
    """One ``eud validate`` run over all its files: prints problems and counts them."""

    def __init__(self, args: argparse.Namespace, report: TextIO) -> None:
        self.args = args
        self.report = report
        self.state = RunState(official=OfficialChecks(args.level))
        self.fixer: _Fixer | None = None
        self.counts: dict[str, int] = {}
        self.shown = self.sentences = self.unreadable = self.failed = 0

    def check_all(self) -> None:
        """Check every file, printing problems (and with --fix, writing sentences)."""
        args = self.args
        for path in args.files:
            name = "<stdin>" if path == "-" else path
            for checked in check_file(path, self.state, salvage=args.fix):  # its bar counts bytes
                self.sentences += checked.sentence is not None or checked.error is not None
                if checked.error is not None and checked.sentence is None:
                    self.unreadable += 1
                    if args.lenient:
                        if not args.quiet:
                            where = f"{name}:{checked.error.line}: [{checked.error.testid}] {checked.error.message}"
                            print(f"eud validate: skipped unreadable sentence: {where}", file=sys.stderr)
                        continue
                    self.failed += 1
                for problem in checked.problems:
                    self.counts[problem.testid] = self.counts.get(problem.testid, 0) + 1
                    if not args.quiet and (not args.max_errors or self.shown < args.max_errors):
                        print(problem.format(name), file=self.report)
                        self.shown += 1
                if self.fixer and checked.sentence is not None:
                    self.fixer.add(checked.sentence, bool(checked.problems))


def _summary(run: _Run) -> str:
    counts, sentences, unreadable, lenient, fixer = run.counts, run.sentences, run.unreadable, run.args.lenient, run.fixer
    total = sum(counts.values())
    text = f"{sentences} sentences: " + (
        "valid" if not total else f"{total} problems (" + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ")"
    )
    if unreadable and lenient:
        text += f"; {unreadable} unreadable sentences skipped"
    if fixer and run.failed:
        text += f"; --fix wrote nothing: {run.failed} sentences could not be read (--lenient skips them)"
    elif fixer:
        text += f"; --fix repaired {fixer.repaired} and wrote {fixer.written} sentences"
    return "eud validate: " + text


class _Fixer:
    """Writes sentences repaired, adding basic-tree graphs only once the input has shown it has graphs."""

    def __init__(self, stream: TextIO) -> None:
        self.repair = repair_sentence
        self.stream = stream
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
