"""Check CoNLL-U files sentence by sentence, as ``eud validate`` does.

:func:`check_file` walks a (possibly compressed) file: it checks each
sentence's raw lines (:mod:`eud.validate.rows`), reads the sentence, checks its
graph (:func:`eud.validate.checks.check_sentence`) and, across sentences and
files, that graphs are in all sentences or none (``edeps-only-sometimes``).
The command (:mod:`eud.commands.validate`) prints what it finds and with
``--fix`` repairs sentences with :mod:`eud.validate.repair`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from eud.conllu import ConlluError, parse_conllu
from eud.graph import Sentence
from eud.progress import open_with_progress
from eud.validate.checks import Problem, check_sentence, has_enhanced_layer
from eud.validate.official import OfficialChecks
from eud.validate.rows import UNREADABLE_IDS, check_raw_rows, read_with_empty_labels, salvage_lines


@dataclass(slots=True)
class Checked:
    """One sentence of a file after checking: its problems, and the sentence unless unreadable."""

    line: int
    problems: list[Problem]
    sentence: Sentence | None
    error: Problem | None = None  # why the sentence could not be read


@dataclass(slots=True)
class RunState:
    """What checks need to remember across sentences and files (``edeps-only-sometimes``, sentence ids)."""

    seen_graph: int | None = None
    seen_no_graph: int | None = None
    official: OfficialChecks | None = None  # udvalidate's level-1/2 checks, when wanted
    crlf: bool = False


def _lines(path: str, name: str, seen: RunState) -> Iterator[str]:
    """The lines of a (possibly compressed) file, each ending in "\\n" but the last maybe not; CR LF noted in ``seen``."""
    with open_with_progress(path) as stream:
        # Bytes, decoded line by line, so that bad UTF-8 is reported with its line.
        for number, raw in enumerate(stream, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ConlluError(name, number, "invalid UTF-8") from None
            if line.endswith("\r\n"):
                seen.crlf = True
                line = line[:-2] + "\n"
            yield line


def _blocks(path: str, name: str, state: RunState) -> Iterator[tuple[int, list[str], list[Problem]]]:
    """Yield (first line number, content lines, udvalidate's findings) for each sentence of a file.

    Blocks are cut as udvalidate cuts them (a blank or whitespace-only line
    ends one), so the official findings line up with eud's.
    """
    state.crlf = False
    lines = _lines(path, name, state)
    if state.official is None:
        blocks: Iterator[tuple[list[str], list[Problem]]] = ((block, []) for block in _plain_blocks(lines))
    else:
        blocks = state.official.sentences(name, lines)
    first = 1
    for block, found in blocks:
        content = [line for line in block if line and not line.isspace()]
        if first == 1 and content and block[0] == content[0]:
            content[0] = content[0].removeprefix("\ufeff")
        start = first + next((i for i, line in enumerate(block) if line and not line.isspace()), 0)
        first += len(block)
        if content or found:
            yield start, content, found
    if state.official is not None:
        final = state.official.end_of_file(state.crlf)
        if final:
            yield first - 1, [], final


def _plain_blocks(lines: Iterator[str]) -> Iterator[list[str]]:
    # udvalidate's grouping (udtools.utils.next_sentence) without its checks.
    block: list[str] = []
    for line in lines:
        line = line.rstrip("\n")
        block.append(line)
        if not line or line.isspace():
            yield block
            block = []
    if block:
        yield block


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


def check_file(path: str, state: RunState | None = None, *, salvage: bool = False) -> Iterator[Checked]:
    """Check every sentence of a CoNLL-U file, yielding each with its problems.

    With ``state.official`` set, udvalidate's own level-1/2 findings come first
    (in udvalidate's order) and eud adds only what udvalidate does not check at
    that level (the two enhanced root-label rules, level 3 there).  Without it,
    only eud's enhanced-graph checks run.  An unreadable sentence comes with
    ``error`` set and no sentence; with ``salvage`` (for ``--fix``), a sentence
    broken only in its enhanced layer is read from :func:`salvage_lines` instead
    and comes with both.
    """
    state = state or RunState()
    name = "<stdin>" if path == "-" else path
    for first, lines, official in _blocks(path, name, state):
        checked = _check_lines(first, lines, name, state, salvage) if lines else Checked(first, [], None)
        if state.official is not None:
            extra = [p for p in checked.problems if p.level > state.official.level and p.testid != "unreadable"]
            if checked.error is not None and not official:
                # eud's reader refuses what udvalidate accepts: say so rather than pass it.
                official = [checked.error]
            checked.problems[:] = official + extra
            if checked.error is not None:
                checked.error = official[0]
        if lines or checked.problems:
            yield checked


def _check_lines(first: int, lines: list[str], name: str, state: RunState, salvage: bool) -> Checked:
    """eud's own checks of one sentence's lines (the enhanced graph, and whether eud can read it)."""
    rows = [(first + i, line.split("\t")) for i, line in enumerate(lines) if line[0] != "#"]
    problems = check_raw_rows(rows)
    error = None
    try:
        sentence: Sentence | None = parse_conllu("\n".join(lines) + "\n", name=name)[0]
    except ConlluError as err:
        line = first + err.line - 1 if err.line is not None else first
        error = Problem("unreadable", err.message, None, line)
        sentence = read_with_empty_labels(lines, name, problems)
    if sentence is None:
        if salvage:
            try:
                sentence = parse_conllu("\n".join(salvage_lines(lines)) + "\n", name=name)[0]
                sentence.line = first
            except ConlluError:
                pass
        return Checked(first, problems, sentence, error)
    sentence.line = first
    if error is None and any(p.testid in UNREADABLE_IDS for p in problems):
        # The reader let it through (it reads head "02" as 2), but udvalidate stops here.
        return Checked(first, problems, sentence)
    problems += check_sentence(sentence)
    first_row = rows[0][0] if rows else first
    switch = _all_or_none(has_enhanced_layer(sentence), first_row, state)
    if switch:
        problems.append(switch)
    problems.sort(key=lambda p: p.line if p.line is not None else first)
    return Checked(first, problems, sentence)
