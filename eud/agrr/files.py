"""AGRR-2019 files (Automatic Gapping Resolution for Russian) and their three metrics.

An AGRR file is tab-separated UTF-8 with a header row and (as distributed)
CRLF line ends, despite its ``.csv`` name.  Its columns are ``text``,
``class`` (1 = the sentence has gapping) and six span columns: ``cV`` (the
verb of the full clause), ``cR1``, ``cR2`` (the correlates), ``V`` (the gap, a
zero-width ``k:k``), ``R1``, ``R2`` (the remnants).  A span is
``start:end`` in characters of ``text`` (end exclusive); a cell holds several
spans separated by spaces when a sentence has several gapped clauses, and is
empty when ``class`` is 0.  :func:`read_agrr` and :func:`write_agrr` keep the
texts, the row order and the line ends byte for byte; a file with only the
text column (a blind test) reads fine.

The scores live in :mod:`eud.agrr.scoring`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

COLUMNS = ("text", "class", "cV", "cR1", "cR2", "V", "R1", "R2")
SPAN_COLUMNS = ("cV", "cR1", "cR2", "V", "R1", "R2")
RESOLUTION_COLUMNS = ("cV", "V")
# The fifth of AGRR dev held apart for tuning and reporting: rows whose
# 0-based index (header not counted) is a multiple of HOLDOUT_EVERY.
HOLDOUT_EVERY = 5

Span = tuple[int, int]


class AgrrError(ValueError):
    """A malformed AGRR file, naming the file and line."""


@dataclass
class AgrrRow:
    """One sentence of an AGRR file: its text, class and spans by column."""

    text: str
    cls: int = 0
    spans: dict[str, list[Span]] = field(default_factory=lambda: {c: [] for c in SPAN_COLUMNS})

    def cells(self) -> list[str]:
        """The row's cells in file order (span cells empty when the class is 0)."""
        spans = [format_spans(self.spans.get(c, [])) if self.cls else "" for c in SPAN_COLUMNS]
        return [self.text, str(self.cls), *spans]


@dataclass
class AgrrFile:
    """The rows of an AGRR file plus what is needed to write it back identically."""

    rows: list[AgrrRow]
    header: str = "\t".join(COLUMNS)
    newline: str = "\r\n"


def parse_spans(cell: str) -> list[Span]:
    """``"3:7 10:10"`` → ``[(3, 7), (10, 10)]``; raises ValueError on anything else."""
    out = []
    for item in cell.split():
        start, sep, end = item.partition(":")
        if not sep or not start.isdigit() or not end.isdigit() or int(end) < int(start):
            raise ValueError(f"bad span {item!r} (want start:end with start <= end)")
        out.append((int(start), int(end)))
    return out


def format_spans(spans: list[Span]) -> str:
    """``[(3, 7), (10, 10)]`` → ``"3:7 10:10"``."""
    return " ".join(f"{a}:{b}" for a, b in spans)


def read_agrr(path: str | Path) -> AgrrFile:
    """Read an AGRR file (tab-separated, header row; only the text column is required)."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise AgrrError(f"{name}: cannot read: {err.strerror}") from None
    if name.endswith(".xz"):
        import lzma

        data = lzma.decompress(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise AgrrError(f"{name}:{line}: invalid UTF-8 at byte {err.start}") from None
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(newline)
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise AgrrError(f"{name}: empty file (an AGRR file starts with a header row)")
    header = lines[0]
    names = header.split("\t")
    if names[0] != "text":
        raise AgrrError(f"{name}:1: the header must start with 'text', not {names[0]!r}")
    index = {n: i for i, n in enumerate(names)}
    rows = []
    for number, line in enumerate(lines[1:], 2):
        cells = line.split("\t")
        row = AgrrRow(cells[0])
        try:
            if "class" in index and index["class"] < len(cells) and cells[index["class"]].strip():
                value = cells[index["class"]].strip()
                if value not in ("0", "1"):
                    raise ValueError(f"class must be 0 or 1, not {value!r}")
                row.cls = int(value)
            for column in SPAN_COLUMNS:
                k = index.get(column)
                if k is not None and k < len(cells):
                    row.spans[column] = parse_spans(cells[k])
                    if any(b > len(row.text) for _, b in row.spans[column]):
                        raise ValueError(f"{column} span beyond the end of the text ({len(row.text)} characters)")
        except ValueError as err:
            raise AgrrError(f"{name}:{number}: {err}") from None
        rows.append(row)
    return AgrrFile(rows, header="\t".join(COLUMNS), newline=newline)


def write_agrr(agrr: AgrrFile, path: str | Path) -> None:
    """Write the rows with every column, atomically (no half-written file on error)."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    body = agrr.newline.join([agrr.header] + ["\t".join(r.cells()) for r in agrr.rows]) + agrr.newline
    tmp.write_bytes(body.encode("utf-8"))
    tmp.replace(target)


def held_apart(index: int) -> bool:
    """Whether row ``index`` (0-based, header not counted) is in the held-apart fifth."""
    return index % HOLDOUT_EVERY == 0
