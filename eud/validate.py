"""Check enhanced graphs the way UD's level-2 validation (``udvalidate --level 2``) does.

Two kinds of checks, because the reader keeps the graph but not the raw DEPS
cells:

* :func:`check_sentence` checks a :class:`~eud.graph.Sentence` (what every
  writer in eud calls on its output): self-loops, relation labels, empty-node
  numbering and columns, heads that point nowhere, the two root-label rules, and
  that every node is reachable from the root through the enhanced graph.
* :func:`check_raw_rows` checks the raw lines of one sentence for what only the
  text shows: DEPS syntax, DEPS order (by head, then by relation), repeated
  entries, and empty-node placement (the reader rejects bad placement outright).

Test ids are udvalidate's own, so results can be compared one to one.  The two
root rules (``enhanced-0-is-not-root``, ``enhanced-root-is-not-0``) are level 3
in udvalidate; they are checked here too (``Problem.level`` says so) because
every graph eud writes must satisfy them.  ``edeps-only-sometimes`` needs the
whole file and is checked by :func:`main`.  The basic tree, features, MISC and
sentence metadata are not checked: this module is about the enhanced layer.
"""

from __future__ import annotations

import argparse
import functools
import lzma
import os
import re
import sys
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from eud.conllu import ConlluError, format_sentence, open_text, parse_conllu
from eud.graph import ROOT, NodeId, Sentence, format_id
from eud.progress import progress

# The 37 universal relations, plus "ref", which only the enhanced graph uses.
UNIVERSAL_RELATIONS = frozenset(
    ["acl", "advcl", "advmod", "amod", "appos", "aux", "case", "cc", "ccomp", "clf", "compound", "conj", "cop", "csubj", "dep", "det", "discourse", "dislocated", "expl", "fixed", "flat", "goeswith", "iobj", "list", "mark", "nmod", "nsubj", "nummod", "obj", "obl", "orphan", "parataxis", "punct", "reparandum", "root", "vocative", "xcomp", "ref"]
)

# Test ids that concern the enhanced layer (the ones eud checks), with their udvalidate level.
ENHANCED_TESTIDS: dict[str, int] = {
    "invalid-deps": 2,
    "invalid-ehead": 2,
    "unknown-ehead": 2,
    "unsorted-deps": 2,
    "unsorted-deps-2": 2,
    "repeated-deps": 2,
    "deps-self-loop": 2,
    "invalid-edeprel": 2,
    "unknown-eudeprel": 2,
    "empty-node-nonempty-field": 2,
    "misplaced-empty-node": 1,
    "unconnected-egraph": 2,
    "edeps-only-sometimes": 2,
    "enhanced-0-is-not-root": 3,
    "enhanced-root-is-not-0": 3,
}


@dataclass(frozen=True, slots=True)
class Problem:
    """One validation finding: udvalidate's test id, a message, and where it is."""

    testid: str
    message: str
    node: NodeId | None = None
    line: int | None = None

    @property
    def level(self) -> int:
        """The udvalidate level of this test (eud-only tests count as level 2)."""
        return ENHANCED_TESTIDS.get(self.testid, 2)

    def format(self, source: str | None) -> str:
        """``file:line: [testid] message``, as ``eud validate`` prints it."""
        return f"{source or '<input>'}:{self.line if self.line is not None else '?'}: [{self.testid}] {self.message}"


# -- labels ------------------------------------------------------------------

_LETTER_CATEGORIES = frozenset(("Ll", "Lm", "Lo", "Mn", "Mc", "Me"))


def _is_ascii_lower(part: str) -> bool:
    return bool(part) and part.isascii() and part.isalpha() and part.islower()


def _is_unicode_part(part: str) -> bool:
    # Lowercase/caseless letters and marks, single underscores between them.
    if not part:
        return False
    for chunk in part.split("_"):
        if not chunk or any(unicodedata.category(c) not in _LETTER_CATEGORIES for c in chunk):
            return False
    return True


def edeprel_is_valid(label: str) -> bool:
    """Whether an enhanced relation is well formed: ``udeprel[:subtype][:prep][:case]``.

    The universal part and the subtype and case are ASCII lowercase; the one
    optional lexical part (a preposition or case marker) may hold any lowercase or
    caseless letters with single underscores inside, as UD's validator allows.
    """
    first, *rest = label.split(":")
    if not _is_ascii_lower(first) or len(rest) > 3:
        return False
    if len(rest) <= 1:
        return not rest or _is_unicode_part(rest[0])
    if len(rest) == 2:
        return (_is_ascii_lower(rest[0]) and _is_unicode_part(rest[1])) or (
            _is_unicode_part(rest[0]) and _is_ascii_lower(rest[1])
        )
    return _is_ascii_lower(rest[0]) and _is_unicode_part(rest[1]) and _is_ascii_lower(rest[2])


@functools.lru_cache(maxsize=8192)
def label_problem(label: str) -> str | None:
    """The test id that an enhanced relation label fails, or None when it is fine."""
    # Cached: a treebank uses a few hundred labels, and this runs on every edge eud writes.
    if not edeprel_is_valid(label):
        return "invalid-edeprel"
    if label.partition(":")[0] not in UNIVERSAL_RELATIONS:
        return "unknown-eudeprel"
    return None


# -- the graph -----------------------------------------------------------------


def node_lines(sentence: Sentence) -> dict[NodeId, int]:
    """The file line of every word and empty node, as :func:`eud.conllu.format_sentence` writes them.

    Empty when the sentence does not know its line (it was built in code).
    """
    if sentence.line is None:
        return {}
    line = sentence.line + len(sentence.comments)
    token_starts = {t.first for t in sentence.tokens}
    out: dict[NodeId, int] = {}
    for node in sentence.nodes():
        if node[1] == 0 and node[0] in token_starts:
            line += 1
        out[node] = line
        line += 1
    return out


def reachable(sentence: Sentence, start: NodeId = ROOT, seen: set[NodeId] | None = None) -> set[NodeId]:
    """Every node reachable from ``start`` through the enhanced graph (``start`` included).

    With ``seen``, that set is extended in place (and returned): nodes already in
    it are not walked again.
    """
    graph = sentence.enhanced
    seen = set() if seen is None else seen
    seen.add(start)
    stack = [start]
    while stack:
        for edge in graph.dependents(stack.pop()):
            if edge.dep not in seen:
                seen.add(edge.dep)
                stack.append(edge.dep)
    return seen


def has_enhanced_layer(sentence: Sentence) -> bool:
    """Whether the sentence has any trace of an enhanced graph (edges or empty nodes)."""
    return bool(sentence.enhanced) or bool(sentence.empty_nodes)


def _check_empty_nodes(sentence: Sentence, add) -> None:
    n_words = len(sentence.words)
    expected: dict[int, int] = {}
    for empty in sorted(sentence.empty_nodes, key=lambda e: e.node):
        want = expected.get(empty.major, 0) + 1
        expected[empty.major] = want
        if not 0 <= empty.major <= n_words or empty.minor != want:
            add(
                "misplaced-empty-node",
                f"empty node {empty.id} is misnumbered: expected {empty.major}.{want} "
                f"(numbering restarts at 1 after each of the words 0..{n_words})",
                empty.node,
            )
        for column, value in (("HEAD", empty.head), ("DEPREL", empty.deprel)):
            if value != "_":
                add("empty-node-nonempty-field", f"empty node {empty.id} must have '_' in {column}, not {value!r}", empty.node)


def check_sentence(sentence: Sentence) -> list[Problem]:
    """Check the enhanced layer of one sentence; an empty list means it is valid.

    A sentence with neither enhanced edges nor empty nodes has no enhanced layer,
    which UD allows (but not in some sentences of a file only: see :func:`main`).
    """
    found: list[tuple[str, str, NodeId | None]] = []

    def add(testid: str, message: str, node: NodeId | None = None) -> None:
        found.append((testid, message, node))

    if sentence.empty_nodes:
        _check_empty_nodes(sentence, add)
    if has_enhanced_layer(sentence):
        _check_graph(sentence, add)
    if not found:
        return []
    # Line numbers only once something is wrong: this runs on every sentence eud writes.
    lines = node_lines(sentence)
    first_line = None if sentence.line is None else sentence.line + len(sentence.comments)
    problems = [Problem(t, m, n, lines.get(n, first_line) if n else first_line) for t, m, n in found]
    problems.sort(key=lambda p: (p.line if p.line is not None else -1))
    return problems


def _where(head: NodeId, dep: NodeId, label: str) -> str:
    return f"{format_id(head)}:{label} of {format_id(dep)}"


def _check_graph(sentence: Sentence, add) -> None:
    graph = sentence.enhanced
    nodes = sentence.nodes()
    known = set(nodes)
    known.add(ROOT)
    self_loops: list[NodeId] = []
    for head, dep, label in graph:
        if dep not in known:
            add("unknown-edep", f"edge {format_id(head)}→{format_id(dep)} ({label}) goes to a node not in the sentence")
            continue
        if head == dep:
            if dep not in self_loops:
                self_loops.append(dep)
        elif head not in known:
            add("unknown-ehead", f"enhanced head {format_id(head)} of {format_id(dep)} is not in the sentence", dep)
        bad = label_problem(label)
        if bad == "invalid-edeprel":
            add(bad, f"invalid enhanced relation {_where(head, dep, label)}", dep)
        elif bad:
            add(bad, f"unknown universal relation {label.partition(':')[0]!r} in {_where(head, dep, label)}", dep)
        is_root = label == "root" or label.startswith("root:")
        if head == ROOT and not is_root:
            add("enhanced-0-is-not-root", f"an edge from the root must be labelled root: {_where(head, dep, label)}", dep)
        elif head != ROOT and is_root:
            add("enhanced-root-is-not-0", f"only an edge from the root may be labelled root: {_where(head, dep, label)}", dep)
    for node in self_loops:
        add("deps-self-loop", f"{format_id(node)} is its own enhanced head", node)
    seen = reachable(sentence)
    if len(seen) <= len(nodes):
        unreachable = [node for node in nodes if node not in seen]
        ids = ", ".join(format_id(n) for n in unreachable)
        add("unconnected-egraph", f"enhanced graph is not connected: {ids} not reachable from the root", unreachable[0])


# -- raw DEPS cells ---------------------------------------------------------------

_WORD_ID = re.compile(r"[1-9][0-9]*")
_EMPTY_ID = re.compile(r"([0-9]+)\.([1-9][0-9]*)")
_MWT_ID = re.compile(r"([1-9][0-9]*)-([1-9][0-9]*)")
_EHEAD = re.compile(r"(0|[1-9][0-9]*)(\.[1-9][0-9]*)?")

Row = tuple[int, list[str]]


def _id_tuple(text: str) -> tuple[int, int]:
    major, _, minor = text.partition(".")
    return int(major), int(minor or 0)


def _check_placement(rows: list[Row], add) -> None:
    """Empty nodes numbered 1, 2, 3… right after their word, before the next multiword token."""
    current_word, next_empty, token_first = 0, 1, 0
    for line, cols in rows:
        ident = cols[0]
        empty = _EMPTY_ID.fullmatch(ident)
        if not empty:
            next_empty = 1
            if _WORD_ID.fullmatch(ident):
                current_word = int(ident)
            elif (mwt := _MWT_ID.fullmatch(ident)):
                token_first = int(mwt.group(1))
            continue
        major, minor = int(empty.group(1)), int(empty.group(2))
        if major != current_word or minor != next_empty:
            add("misplaced-empty-node", f"empty node {ident} out of place: expected {current_word}.{next_empty}", line)
        elif token_first > major:
            add("misplaced-empty-node", f"empty node {ident} must come before the multiword token starting at {token_first}", line)
        next_empty += 1


def check_raw_rows(rows: list[Row]) -> list[Problem]:
    """Check the raw lines of one sentence (``(line number, columns)``) for DEPS syntax and order.

    As in udvalidate, a DEPS cell that cannot be parsed or names a head that does
    not exist stops the order checks for the whole sentence.
    """
    problems: list[Problem] = []

    def add(testid: str, message: str, line: int) -> None:
        problems.append(Problem(testid, message, None, line))

    rows = [(line, cols) for line, cols in rows if len(cols) == 10]
    _check_placement(rows, add)
    if problems:
        return problems  # udvalidate stops at this level-1 error too
    ids = {cols[0] for _, cols in rows if _WORD_ID.fullmatch(cols[0]) or _EMPTY_ID.fullmatch(cols[0])}
    parsed: list[tuple[int, str, list[list[str]]]] = []
    for line, cols in rows:
        if cols[8] == "_" or _MWT_ID.fullmatch(cols[0]):
            continue
        items = [item.split(":", 1) for item in cols[8].split("|")]
        if any(len(item) != 2 for item in items):
            add("invalid-deps", f"cannot parse DEPS {cols[8]!r}: each entry must be HEAD:RELATION", line)
            continue
        for head, _ in items:
            # Both can fire for one head ("02"), as in udvalidate.
            if not _EHEAD.fullmatch(head):
                add("invalid-ehead", f"invalid enhanced head {head!r} in DEPS {cols[8]!r}", line)
            if head != "0" and head not in ids:
                add("unknown-ehead", f"enhanced head {head!r} in DEPS {cols[8]!r} is not in the sentence", line)
        parsed.append((line, cols[8], items))
    if any(p.testid in ("invalid-deps", "invalid-ehead", "unknown-ehead") for p in problems):
        return problems
    for line, cell, items in parsed:
        heads = [_id_tuple(head) for head, _ in items]
        if heads != sorted(heads):
            add("unsorted-deps", f"DEPS not sorted by head: {cell!r}", line)
            continue
        for (head, label), (prev_head, prev_label) in zip(items[1:], items):
            if head == prev_head and label < prev_label:
                add("unsorted-deps-2", f"DEPS entries of head {head} not sorted by relation: {cell!r}", line)
            elif head == prev_head and label == prev_label:
                add("repeated-deps", f"DEPS repeat the entry {head}:{label}: {cell!r}", line)
    return problems


# -- files and the command line ---------------------------------------------------------


@dataclass(slots=True)
class Checked:
    """One sentence of a file after checking: its problems, and the sentence unless unreadable."""

    line: int
    problems: list[Problem]
    sentence: Sentence | None
    error: Problem | None = None  # why the sentence could not be read


@dataclass(slots=True)
class RunState:
    """What ``edeps-only-sometimes`` needs to remember across sentences and files."""

    seen_graph: int | None = None
    seen_no_graph: int | None = None


def _blocks(path: str) -> Iterator[tuple[int, list[str]]]:
    """Yield (first line number, lines) for each sentence of a (possibly compressed) file."""
    block: list[str] = []
    first = 0
    name = "<stdin>" if path == "-" else path
    with open_text(path) as text:
        # Bytes, decoded line by line, so that bad UTF-8 is reported with its line.
        for number, raw in enumerate(text.buffer, 1):
            try:
                line = raw.decode("utf-8").rstrip("\n")
            except UnicodeDecodeError:
                raise ConlluError(name, number, "invalid UTF-8") from None
            if number == 1:
                line = line.removeprefix("\ufeff")
            if line:
                if not block:
                    first = number
                block.append(line)
            elif block:
                yield first, block
                block = []
    if block:
        yield first, block


def _all_or_none(has_layer: bool, line: int, state: RunState) -> Problem | None:
    # Like udvalidate, complain once when the file switches between having and not having graphs.
    if has_layer and state.seen_graph is None:
        state.seen_graph = line
        if state.seen_no_graph is not None:
            return Problem("edeps-only-sometimes", f"enhanced graph here, but line {state.seen_no_graph} has none", None, line)
    elif not has_layer and state.seen_no_graph is None:
        state.seen_no_graph = line
        if state.seen_graph is not None:
            return Problem("edeps-only-sometimes", f"no enhanced graph here, but line {state.seen_graph} has one", None, line)
    return None


# The reader refuses sentences with these problems; they are reported instead of its error.
_UNREADABLE_IDS = frozenset(("invalid-deps", "invalid-ehead", "unknown-ehead", "misplaced-empty-node"))


def salvage_lines(lines: list[str]) -> list[str]:
    """Raw lines of one sentence made readable where only the enhanced layer breaks them.

    Empty nodes are renumbered by position (DEPS references follow), and DEPS
    entries that cannot be parsed or point to no node are dropped; repair then
    reconnects what lost its heads.  Other breakage is left for the reader to report.
    """
    rows = [line.split("\t") for line in lines if line[0] != "#"]
    if any(len(cols) != 10 for cols in rows):
        return lines
    mapping: dict[str, str] = {}
    current, count = 0, 0
    for cols in rows:
        if _WORD_ID.fullmatch(cols[0]):
            current, count = int(cols[0]), 0
        elif _EMPTY_ID.fullmatch(cols[0]):
            count += 1
            new = f"{current}.{count}"
            mapping.setdefault(cols[0], new)
            cols[0] = new
    known = {cols[0] for cols in rows if not _MWT_ID.fullmatch(cols[0])} | {"0"}
    for cols in rows:
        if cols[8] == "_" or _MWT_ID.fullmatch(cols[0]):
            continue
        kept = []
        for item in cols[8].split("|"):
            head, colon, label = item.partition(":")
            head = mapping.get(head, head)
            if colon and label and _EHEAD.fullmatch(head) and head in known:
                kept.append(f"{head}:{label}")
        cols[8] = "|".join(kept) or "_"
    out = [line for line in lines if line[0] == "#"]
    return out + ["\t".join(cols) for cols in rows]


EMPTY_LABEL = "<empty>"


def _read_with_empty_labels(lines: list[str], name: str, problems: list[Problem]) -> Sentence | None:
    """Read a sentence whose DEPS has empty relations (``2:``), which udvalidate checks as invalid labels.

    The reader refuses them; with a stand-in label that fails the same checks, the
    sentence can still be checked like any other.  None if it is broken otherwise.
    """
    if any(p.testid in _UNREADABLE_IDS for p in problems):
        return None
    fixed = []
    for line in lines:
        cols = line.split("\t")
        if line[0] != "#" and len(cols) == 10 and cols[8] != "_":
            cols[8] = "|".join(item + EMPTY_LABEL if item.endswith(":") else item for item in cols[8].split("|"))
            line = "\t".join(cols)
        fixed.append(line)
    try:
        return parse_conllu("\n".join(fixed) + "\n", name=name)[0]
    except ConlluError:
        return None


def check_file(path: str, state: RunState | None = None, *, salvage: bool = False) -> Iterator[Checked]:
    """Check every sentence of a CoNLL-U file, yielding each with its problems.

    An unreadable sentence comes with ``error`` set and no sentence; with
    ``salvage`` (for ``--fix``), a sentence broken only in its enhanced layer is
    read from :func:`salvage_lines` instead and comes with both.
    """
    state = state or RunState()
    name = "<stdin>" if path == "-" else path
    for first, lines in _blocks(path):
        rows = [(first + i, line.split("\t")) for i, line in enumerate(lines) if line[0] != "#"]
        problems = check_raw_rows(rows)
        error = None
        try:
            sentence: Sentence | None = parse_conllu("\n".join(lines) + "\n", name=name)[0]
        except ConlluError as err:
            line = first + err.line - 1 if err.line is not None else first
            error = Problem("unreadable", err.message, None, line)
            sentence = _read_with_empty_labels(lines, name, problems)
        if sentence is None:
            if salvage:
                try:
                    sentence = parse_conllu("\n".join(salvage_lines(lines)) + "\n", name=name)[0]
                    sentence.line = first
                except ConlluError:
                    pass
            yield Checked(first, problems, sentence, error)
            continue
        sentence.line = first
        if error is None and any(p.testid in _UNREADABLE_IDS for p in problems):
            # The reader let it through (it reads head "02" as 2), but udvalidate stops here.
            yield Checked(first, problems, sentence)
            continue
        problems += check_sentence(sentence)
        first_row = rows[0][0] if rows else first
        switch = _all_or_none(has_enhanced_layer(sentence), first_row, state)
        if switch:
            problems.append(switch)
        problems.sort(key=lambda p: p.line if p.line is not None else first)
        yield Checked(first, problems, sentence)


EPILOG = """\
Each problem is printed as  FILE:LINE: [TESTID] message  with udvalidate's test
ids, e.g. [unsorted-deps], [deps-self-loop], [unconnected-egraph].  Checked:
DEPS syntax and order, self-loops, relation labels, empty-node numbering and
columns, connectivity from the root, graphs present in all sentences or none,
and the two root-label rules (level 3 in udvalidate).  The basic tree,
features and metadata are not checked (use udvalidate for those).

--fix writes every sentence, repaired where needed (see eud.repair), to -o OUT
or stdout (problems then go to stderr).  Sentences broken only in DEPS or
empty-node ids are salvaged; sentences without a graph get the basic tree once
the input has shown it has graphs.

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
                    known = [p for p in checked.problems if p.testid in _UNREADABLE_IDS]
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
        from eud.repair import repair_sentence  # repair imports this module

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
