"""UD's own level-1 and level-2 checks, run in-process through ``udtools``.

Why delegate: ``udtools`` is the official validator (``udvalidate``) as a
library.  Calling its ``Validator.validate_sentence`` on eud's lines gives, by
construction, the same findings with the same test ids as ``udvalidate
--level 1|2 --lang ud`` (format, Unicode, ids, the basic tree, UPOS/FEATS/
DEPREL/DEPS/MISC syntax, metadata, blank lines, the final newline).  Writing
these ~80 tests again would be slower to get exactly right and would drift as
UD updates them; measured on en_ewt test (eval/journal/, "Validation parity")
the official checks take about 3 s of the 3.5 s of ``eud validate``, an
acceptable price for exact agreement.  eud keeps its own code for what it adds:
the enhanced-graph checks of :mod:`eud.validate.checks` (including the two
root-label rules, level 3 in udvalidate) and ``--fix``.

:class:`OfficialChecks` streams: lines go in one sentence at a time and the
findings come out right away (udtools' incident store is emptied after each
sentence), so memory stays flat apart from the set of sentence ids that the
uniqueness test must remember.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from types import SimpleNamespace

from udtools import Validator
from udtools.state import State
from udtools.utils import next_sentence

from eud.validate.checks import Problem

LEVELS = (1, 2)


@functools.cache
def validator(level: int) -> Validator:
    """udtools' validator for ``--lang ud`` at ``level``, silent; loading its data takes half a second, so once."""
    # All per-run memory lives in a State, so one Validator serves every run.
    return Validator(lang="ud", level=level, output=None, max_store=0)


class OfficialChecks:
    """udvalidate's checks up to ``level`` (1 or 2, language-independent ``--lang ud``) over one run of files."""

    def __init__(self, level: int = 2) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be 1 or 2, not {level}")
        self.level = level
        self.validator = validator(level)
        self.state = State()

    def _drain(self) -> list[Problem]:
        found = [
            Problem(incident.testid, str(incident.message), None, incident.lineno, incident.level)
            for incident in self.state.error_tracker
            if incident.is_error()
        ]
        self.state.error_tracker.clear()
        return found

    def sentences(self, name: str, lines: Iterable[str]) -> Iterator[tuple[list[str], list[Problem]]]:
        """Group a file's lines (newlines stripped) as udvalidate does; yield (lines, findings) per sentence.

        Each yielded block includes its terminating empty line if there is one.
        """
        self.state.current_file_name = name
        for block in next_sentence(self.state, lines):
            self.validator.validate_sentence(block, self.state)
            yield block, self._drain()

    def end_of_file(self, crlf: bool) -> list[Problem]:
        """The findings only the whole file shows (``non-unix-newline``)."""
        self.validator.check_newlines(self.state, SimpleNamespace(newlines="\r\n" if crlf else "\n"))
        return self._drain()

    def end(self) -> list[Problem]:
        """The findings only the whole run shows."""
        self.validator.validate_end(self.state)
        return self._drain()
