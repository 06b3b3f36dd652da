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

from eud.conllu import ConlluError, open_text, parse_conllu
from eud.graph import Sentence
from eud.validate.checks import Problem, check_sentence, has_enhanced_layer
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
            sentence = read_with_empty_labels(lines, name, problems)
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
        if error is None and any(p.testid in UNREADABLE_IDS for p in problems):
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
