"""Check the raw lines of one CoNLL-U sentence for what only the text shows.

The reader keeps the enhanced graph, not the DEPS cells as written, and refuses
sentences whose DEPS or empty-node ids it cannot make sense of.  So before a
sentence is read, :func:`check_raw_rows` checks its lines for DEPS syntax, DEPS
order (by head, then by relation), repeated entries and empty-node placement,
with udvalidate's test ids.  Of the sentences the reader refuses,
:func:`read_with_empty_labels` still reads those whose only fault is an empty
relation (``2:``), so that they can be checked like any other, and
:func:`salvage_lines` makes those broken only in their enhanced layer readable
for ``eud validate --fix``.
"""

from __future__ import annotations

import re

from eud.conllu import ConlluError, parse_conllu
from eud.graph import Sentence
from eud.validate.checks import Problem

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


# The reader refuses sentences with these problems; they are reported instead of its error.
UNREADABLE_IDS = frozenset(("invalid-deps", "invalid-ehead", "unknown-ehead", "misplaced-empty-node"))


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


def read_with_empty_labels(lines: list[str], name: str, problems: list[Problem]) -> Sentence | None:
    """Read a sentence whose DEPS has empty relations (``2:``), which udvalidate checks as invalid labels.

    The reader refuses them; with a stand-in label that fails the same checks, the
    sentence can still be checked like any other.  None if it is broken otherwise.
    """
    if any(p.testid in UNREADABLE_IDS for p in problems):
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
