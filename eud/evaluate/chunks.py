"""Cut a gold and a system file into pieces that can be scored one by one, with the counts of the whole.

The official scorer aligns the words of the two files over the whole text
(:mod:`eud.evaluate.align`), so a naive cut could change the alignment.  Both
files are read in parallel, a sentence at a time, always on the side that has
read fewer non-space characters, and the texts are compared as they come.  A
*cut* is made after a sentence end that both files reach at the same
character offset ``C``, when the next sentence of neither file starts with a
multiword token.  Such a cut changes no count:

* Tokens and Sentences match spans by their start; every span before the cut
  starts before ``C``, every span after it at ``C`` or later.
* Word alignment.  The whole-file aligner may reach the cut on one side first
  (say gold is at its first word after the cut, system still before it).  It
  then only skips the system words left before the cut: the next gold word
  starts at ``C`` or later, so it is never the smaller start, and it is not in
  a multiword token, so no multiword span opens there (a span opened by a
  system multiword token ends by ``C`` and takes no gold word starting at
  ``C``).  Both sides then stand at the cut, and what follows is aligned
  exactly as from the start of a file.  The condition on multiword tokens is
  needed: a gold multiword token right after the cut opens a span that takes
  in the system words still left before it, and the official LCS may align
  one of them with a gold word after the cut (``tests/test_evaluate_chunks.py``
  has such a case).
* Every other metric counts aligned word pairs, edges or empty nodes of
  sentences, and heads never leave their sentence, so counts add up.

A chunk is cut only once it holds ``min_words`` gold words, so that per-chunk
overhead stays small; memory then depends on the chunk, not on the file.  A
system that never ends a sentence where gold does (one sentence for the whole
text) still makes one big chunk.

When the texts differ the error is the one whole-file scoring gives (the same
character offset, snippets and sentence lines), raised as soon as the
difference is read.  A broken sentence further on in either file is then not
reached; whole-file scoring read both files first and reported that instead.
Likewise, errors while reading come in reading order, the two files
interleaved, where whole-file scoring reported gold's before the system's.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator

from eud.evaluate.align import first_difference
from eud.evaluate.data import Builder, ScoringError, ScoringFile
from eud.evaluate.sources import SentenceRows

# Gold words per chunk before a cut is looked for.
DEFAULT_CHUNK_WORDS = 5000
# Characters of each text shown when the texts differ.
SNIPPET = 20


def text_difference(at: int, gold: tuple[str, str], system: tuple[str, str]) -> ScoringError:
    """The error for texts that differ at non-space character ``at``; each side is (text from ``at``, where)."""
    return ScoringError(
        f"the texts differ at non-space character {at}: gold {gold[0][:SNIPPET]!r} ({gold[1]}) "
        f"vs system {system[0][:SNIPPET]!r} ({system[1]})"
    )


class _Side:
    """One of the two files while it is read: the chunk being filled, one sentence of look-ahead,
    and the text read but not yet compared with the other file's."""

    def __init__(self, sentences: Iterator[SentenceRows], builder: Builder) -> None:
        self._sentences = sentences
        self.builder = builder
        self.next: SentenceRows | None = next(sentences, None)
        # The text from offset ``unchecked_from`` to ``pos``: not yet compared.
        self.unchecked = ""
        self.unchecked_from = 0
        # Line of the last sentence of the chunks already handed out (None: none yet).
        self._last_line: int | None = None

    @property
    def pos(self) -> int:
        """Non-space characters read so far."""
        return self.builder.index

    @property
    def done(self) -> bool:
        """True when every sentence has been read."""
        return self.next is None

    @property
    def words(self) -> int:
        """Words in the chunk being filled."""
        return self.builder.out.n_words

    def read(self) -> None:
        """Add the next sentence to the chunk."""
        assert self.next is not None
        before = len(self.builder.pieces)
        self.builder.add(self.next)
        self.unchecked += "".join(self.builder.pieces[before:])
        self.next = next(self._sentences, None)

    def checked(self, n: int) -> None:
        """The first ``n`` unchecked characters equal the other file's."""
        self.unchecked = self.unchecked[n:]
        self.unchecked_from += n

    def take(self) -> ScoringFile:
        """Hand out the chunk; the next one starts empty."""
        chunk = self.builder.take()
        if chunk.sent_line:
            self._last_line = chunk.sent_line[-1]
        return chunk

    def text_at(self, at: int) -> tuple[str, str]:
        """(the text from ``at`` on, the sentence it is in), reading on until the snippet is complete."""
        while not self.done and self.pos < at + SNIPPET:
            self.read()
        chunk = self.builder.out
        # The sentence starting last at or before ``at``: in this chunk (which starts at or before the
        # first unchecked character), or the last one handed out when this chunk has none.
        k = bisect.bisect_right(chunk.sent_start, at) - 1
        line = chunk.sent_line[k] if k >= 0 else self._last_line
        where = f"{chunk.path}: no sentences" if line is None else f"sentence at {chunk.path}:{line}"
        start = at - self.unchecked_from
        return self.unchecked[start:start + SNIPPET], where


def _compare(gold: _Side, system: _Side) -> None:
    """Compare the text both sides have read and not yet compared; raise where it differs."""
    n = min(len(gold.unchecked), len(system.unchecked))
    if not n:
        return
    if gold.unchecked[:n] != system.unchecked[:n]:
        at = gold.unchecked_from + first_difference(gold.unchecked[:n], system.unchecked[:n])
        raise text_difference(at, gold.text_at(at), system.text_at(at))
    gold.checked(n)
    system.checked(n)


def aligned_chunks(
    gold: Iterator[SentenceRows], system: Iterator[SentenceRows], gold_builder: Builder, system_builder: Builder,
    *, min_words: int = DEFAULT_CHUNK_WORDS,
) -> Iterator[tuple[ScoringFile, ScoringFile]]:
    """Pairs of (gold chunk, system chunk) with the same text; scored one by one, they add up to the whole.

    Raises ScoringError where the texts differ (and whatever reading raises).
    At least one pair is yielded, empty when both files are.
    """
    g, s = _Side(gold, gold_builder), _Side(system, system_builder)
    while True:
        if g.pos == s.pos:
            if g.done and s.done:
                break
            if g.words >= max(min_words, 1) and not _starts_with_multiword_token(g, s):
                yield g.take(), s.take()
        if g.pos < s.pos or (g.pos == s.pos and not g.done):
            behind = g
        else:
            behind = s
        if behind.done:
            # One text is a prefix of the other.
            at = behind.pos
            raise text_difference(at, g.text_at(at), s.text_at(at))
        behind.read()
        _compare(g, s)
    yield g.take(), s.take()


def _starts_with_multiword_token(gold: _Side, system: _Side) -> bool:
    """True when the next sentence of either side starts with a multiword token (no cut before it)."""
    return any(side.next is not None and side.next.starts_with_multiword_token for side in (gold, system))
