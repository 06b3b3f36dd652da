"""Which treebank's enhanced conventions a text follows, read off its basic relations.

Some languages have treebanks that spell the enhanced graph differently.  The Polish ones are the
clearest case: pl_lfg adds the case marker to oblique and nominal modifier labels (``obl:w``), as
the enhanced UD guidelines ask (https://universaldependencies.org/u/overview/enhanced-syntax.html#case-information),
while pl_pdb keeps the basic label (``obl``).  A graph in the wrong convention loses about one edge
in ten, although both are valid.  At parse time only the language is known, as in the IWPT shared
tasks, so the convention has to be recognised from the text itself.

The basic trees carry it: pl_pdb uses relation subtypes that pl_lfg never uses (``obl:arg``,
``nmod:arg``, ``advmod:emph``, ...), and a parser trained on both treebanks reproduces them on text
like pl_pdb's far more often than on text like pl_lfg's.  A stretch of text follows the *marked*
convention when, among the sentences around a sentence (``window`` on each side), the share that
use one of its relations reaches ``share``; otherwise it follows the *default* convention.  A
document follows one convention, so the window is wide; a single sentence is judged by itself.

A language profile enables this with a ``[conventions]`` table (``converters/pl.toml``)::

    [conventions]
    default = "pl_lfg"      # the profile used when the evidence is lacking
    marked = "pl_pdb"       # the profile whose relations are the evidence
    relations = ["obl:arg", "nmod:arg"]
    share = 0.15
    window = 400
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


class ConventionsError(ValueError):
    """A ``[conventions]`` table that cannot be used (names the key and the problem)."""


@dataclass(frozen=True)
class Conventions:
    """Two treebank profiles of one language and the evidence that tells them apart."""

    default: str
    marked: str
    relations: frozenset[str]
    share: float
    window: int

    @classmethod
    def from_table(cls, table: dict, where: str) -> Conventions:
        """Read a profile's ``[conventions]`` table; ConventionsError names what is wrong."""
        missing = [k for k in ("default", "marked", "relations", "share", "window") if k not in table]
        if missing:
            raise ConventionsError(f"{where}: [conventions] lacks {', '.join(missing)} "
                                   '(e.g. default = "pl_lfg", marked = "pl_pdb", relations = ["obl:arg"], '
                                   "share = 0.15, window = 200)")
        relations = table["relations"]
        if not (isinstance(relations, list) and relations and all(isinstance(r, str) for r in relations)):
            raise ConventionsError(f"{where}: conventions.relations must be a non-empty list of relations")
        share, window = table["share"], table["window"]
        if not (isinstance(share, (int, float)) and 0 < share <= 1):
            raise ConventionsError(f"{where}: conventions.share must be a number in (0, 1], got {share!r}")
        if not (isinstance(window, int) and window >= 0):
            raise ConventionsError(f"{where}: conventions.window must be a whole number >= 0, got {window!r}")
        return cls(str(table["default"]), str(table["marked"]), frozenset(relations), float(share), window)

    def choose(self, relations: Sequence[Collection[str]]) -> list[str]:
        """The profile name for each sentence, given each sentence's basic relations (in text order)."""
        marked = [not self.relations.isdisjoint(rels) for rels in relations]
        seen = [0]
        for m in marked:
            seen.append(seen[-1] + m)
        n, w = len(marked), self.window
        out = []
        for i in range(n):
            lo, hi = max(0, i - w), min(n, i + w + 1)
            out.append(self.marked if (seen[hi] - seen[lo]) >= self.share * (hi - lo) else self.default)
        return out
