"""The whitespace around tokens, kept in MISC as UDPipe keeps it.

CoNLL-U itself records only whether a space follows a token (``SpaceAfter=No``
when none does).  UDPipe's tokenizer keeps the rest, so that the input text can
be rebuilt exactly, and eud writes the same attributes:

* ``SpacesAfter``: the whitespace after a token, when it is anything but one
  plain space (two spaces, a tab, a line break, a no-break space);
* ``SpacesBefore``: whitespace before the first token of a document;
* ``TokenRange``, on request (:func:`add_token_ranges`): ``start:end``, a token's
  character offsets in the input text, end exclusive.

The values of the first two escape a space as ``\\s``, a tab as ``\\t``, a
carriage return as ``\\r``, a line feed as ``\\n``, ``|`` as ``\\p`` and a backslash
as ``\\\\``, as UDPipe does; other whitespace (a no-break space) is written
``\\u00A0``, because udvalidate rejects whitespace in MISC.  ``# text`` keeps one
plain space wherever there is any whitespace, as UD asks.

UDPipe's tokenizer options ``normalized_spaces`` and ``ranges`` map to
:func:`normalize` and :func:`add_token_ranges`; :func:`rebuild` gives the text back.
"""

from __future__ import annotations

from collections.abc import Iterable

from eud.graph import MultiwordToken, Sentence, Word

ESCAPES = {"\\": "\\\\", "|": "\\p", " ": "\\s", "\t": "\\t", "\r": "\\r", "\n": "\\n"}
_UNESCAPES = {v[1]: k for k, v in ESCAPES.items()}


def escape(run: str) -> str:
    """A MISC value for a run of whitespace (UDPipe's escapes, ``\\uXXXX`` for other whitespace)."""
    return "".join(ESCAPES.get(c) or (f"\\u{ord(c):04X}" if c.isspace() else c) for c in run)


def unescape(value: str) -> str:
    """The whitespace a ``SpacesAfter`` or ``SpacesBefore`` value stands for."""
    out = []
    chars = iter(value)
    for c in chars:
        if c == "\\":
            nxt = next(chars, "")
            if nxt == "u":
                digits = "".join(next(chars, "") for _ in range(4))
                out.append(chr(int(digits, 16)) if len(digits) == 4 and _is_hex(digits) else "\\u" + digits)
            else:
                out.append(_UNESCAPES.get(nxt, "\\" + nxt))
        else:
            out.append(c)
    return "".join(out)


def _is_hex(digits: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in digits)


def after(run: str) -> str:
    """The MISC attribute for the whitespace after a token: ``_`` for one space, else
    ``SpaceAfter=No`` or ``SpacesAfter=...``."""
    if run == " ":
        return "_"
    return "SpaceAfter=No" if not run else "SpacesAfter=" + escape(run)


def with_attribute(misc: str, attribute: str) -> str:
    """``misc`` with ``attribute`` (``Name=value``, or ``_`` for none) added first."""
    items: Iterable[str] = [a for a in (attribute, misc) if a != "_"]
    return "|".join(items) or "_"


def token_lines(sentence: Sentence) -> list[Word | MultiwordToken]:
    """The lines that carry each token's MISC, in order: a multiword token's, or the word's."""
    starts = {t.first: t for t in sentence.tokens}
    out: list[Word | MultiwordToken] = []
    i = 1
    while i <= len(sentence.words):
        token = starts.get(i)
        out.append(token if token is not None else sentence.words[i - 1])
        i = token.last + 1 if token is not None else i + 1
    return out


def set_after(sentence: Sentence, run: str) -> None:
    """Record the whitespace ``run`` after the sentence's last token."""
    last = token_lines(sentence)[-1]
    last.misc = with_attribute("|".join(_without(last.misc, ("SpaceAfter", "SpacesAfter"))) or "_", after(run))


def set_before(sentence: Sentence, run: str) -> None:
    """Record the whitespace ``run`` before the sentence's first token (empty: no attribute)."""
    first = token_lines(sentence)[0]
    rest = "|".join(_without(first.misc, ("SpacesBefore",))) or "_"
    first.misc = with_attribute(rest, "SpacesBefore=" + escape(run)) if run else rest


def text_of(sentence: Sentence) -> str:
    """The sentence's ``# text``: its tokens, one plain space wherever whitespace follows one."""
    parts = []
    for line in token_lines(sentence):
        parts.append(line.form)
        if "SpaceAfter=No" not in line.misc.split("|"):
            parts.append(" ")
    return "".join(parts).rstrip()


def _without(misc: str, names: tuple[str, ...]) -> list[str]:
    return [a for a in misc.split("|") if a != "_" and a.split("=", 1)[0] not in names]


def normalize(sentences: Iterable[Sentence]) -> None:
    """Keep only ``SpaceAfter=No`` (UDPipe's ``normalized_spaces``), in place."""
    for sentence in sentences:
        for line in token_lines(sentence):
            value = _attributes(line.misc).get("SpacesAfter")
            rest = _without(line.misc, ("SpacesAfter", "SpacesBefore"))
            if value is not None and not unescape(value) and "SpaceAfter=No" not in rest:
                rest.insert(0, "SpaceAfter=No")
            line.misc = "|".join(rest) or "_"


def add_token_ranges(text: str, sentences: Iterable[Sentence], ignored: frozenset[str] = frozenset()) -> int:
    """Write ``TokenRange=start:end`` on each token found in ``text``, in order; returns how many.

    A token is looked for after the previous one, past whitespace and the ``ignored``
    characters, which may also sit inside it (for the segmenter's output, pass
    :data:`eud.segment.text.DROPPED`, the characters it drops).  Where a token is not found
    (its characters were changed, as NFC changes a decomposed accent), that token and the
    rest get no range.
    """
    pos, count = 0, 0
    for sentence in sentences:
        for line in token_lines(sentence):
            while pos < len(text) and (text[pos].isspace() or text[pos] in ignored):
                pos += 1
            start, end = pos, pos
            for ch in line.form:
                while end < len(text) and text[end] in ignored:
                    end += 1
                if end >= len(text) or text[end] != ch:
                    return count
                end += 1
            line.misc = "|".join(_without(line.misc, ("TokenRange",)) + [f"TokenRange={start}:{end}"])
            pos = end
            count += 1
    return count


def _attributes(misc: str) -> dict[str, str]:
    return dict(a.split("=", 1) for a in misc.split("|") if "=" in a)


def rebuild(sentences: Iterable[Sentence]) -> str:
    """The text the sentences were read from, as far as their MISC records it.

    A token without a spacing attribute is followed by one space, except the last
    one; with ``SpaceAfter=No`` by nothing.  For text that eud segmented, this is
    the input exactly, up to line ends read as ``\\n``, blank lines between
    paragraphs read as one, a line end after the last token, and the characters
    CoNLL-U cannot carry (``docs/text_hygiene.md``).
    """
    parts: list[str] = []
    implicit = False  # whether the last part is a space no attribute asked for
    for sentence in sentences:
        for line in token_lines(sentence):
            misc = _attributes(line.misc)
            parts.append(unescape(misc.get("SpacesBefore", "")) + line.form)
            implicit = False
            if "SpacesAfter" in misc:
                parts.append(unescape(misc["SpacesAfter"]))
            elif misc.get("SpaceAfter") != "No":
                parts.append(" ")
                implicit = True
    if implicit:
        parts.pop()
    return "".join(parts)
