"""The official scorer's ``--enhancements`` levels: which gold enhancement types to ignore.

Some treebanks lack some enhancement types; the IWPT scorer then rewrites or
drops those edges in gold and system alike before counting ELAS/EULAS.  This
module reproduces that rewriting as ``udtools.udeval`` does it, quirks included
(see :func:`apply_levels`).
"""

from __future__ import annotations

from collections.abc import Sequence

LEVELS = "123456"
# Level 6 ("no case information") strips the second part of these relations...
CASE_DEPRELS = frozenset({"obl", "nmod", "conj", "advcl"})
# ...unless it is one of these universal subtypes.
UNIVERSAL_EXTENSIONS = frozenset({"pass", "relcl", "xsubj"})


def normalize_levels(levels: str) -> str:
    """The digits that change anything (``0`` and ``3`` do not), e.g. ``"016"`` → ``"16"``."""
    return "".join(c for c in LEVELS if c in levels and c != "3")


def apply_levels(
    deps: list[tuple[int, str]], levels: str, *, word_index: int, basic_parent: int, deprel: str,
    file_deprel: Sequence[str], file_head: Sequence[int], offset: int,
) -> list[tuple[int, str]]:
    """Filter one word's enhanced deps for ``--enhancements`` levels, as the official scorer does.

    Levels: 1 no gapping (path labels become the basic relation), 2 no shared
    parents in coordination (a conj dependent keeps only its conj edge), 3 no
    shared dependents (a no-op in the official scorer: it compares a word
    object with a HEAD string, so it never fires; we keep that), 4 no control
    (drop nsubj* edges from an xcomp head), 5 no relative clauses (``ref``
    becomes the basic relation; edges from an ``acl`` head are dropped when
    that head's basic HEAD equals the dependent's position minus one, the
    official scorer's own off-by-one), 6 no case information (``obl:in`` →
    ``obl``).  ``word_index`` is the 0-based position in the sentence, whose
    first word is ``offset`` in the file whose basic DEPREL and HEAD columns
    (:class:`eud.evaluate.data.ScoringFile`'s ``deprel`` and ``head``, read up
    to this word) are ``file_deprel`` and ``file_head``.
    """
    if "1" in levels:
        out: list[tuple[int, str]] = []
        for head, label in deps:
            if ">" in label:
                out.append((basic_parent, deprel))
            elif (head, label) not in out:
                out.append((head, label))
        deps = out
    if "2" in levels:
        chosen = None
        for head, label in deps:
            if ">" not in label and label.startswith("conj"):
                chosen = [(head, label)]
        if chosen is not None:
            deps = chosen
    if "4" in levels:
        deps = [
            (head, label) for head, label in deps
            if not (head >= 0 and file_deprel[head] == "xcomp" and any(s.startswith("nsubj") for s in label.split(">")))
        ]
    if "5" in levels:
        out = []
        for head, label in deps:
            if label.split(">")[0] == "ref":
                out.append((basic_parent, deprel))
            elif head >= 0 and file_deprel[head].startswith("acl") and max(file_head[head] - offset + 1, 0) == word_index:
                continue
            else:
                out.append((head, label))
        deps = out
    if "6" in levels:
        out = []
        for head, label in deps:
            steps = []
            for step in label.split(">"):
                parts = step.split(":")
                if parts[0] in CASE_DEPRELS and len(parts) == 2 and parts[1] not in UNIVERSAL_EXTENSIONS:
                    step = parts[0]
                steps.append(step)
            out.append((head, ">".join(steps)))
        deps = out
    return deps
