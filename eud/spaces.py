"""The whitespace around tokens, kept in MISC as UDPipe keeps it.

CoNLL-U itself records only whether a space follows a token (``SpaceAfter=No``
when none does).  UDPipe's tokenizer keeps the rest, so that the input text can
be rebuilt exactly, and eud writes the same attributes:

* ``SpacesAfter``: the whitespace after a token, when it is anything but one
  plain space (two spaces, a tab, a line break, a no-break space);
* ``SpacesBefore``: whitespace before the first token of a document.

Their values escape a space as ``\\s``, a tab as ``\\t``, a carriage return as
``\\r``, a line feed as ``\\n``, ``|`` as ``\\p`` and a backslash as ``\\\\``, as
UDPipe does; other whitespace (a no-break space) is written ``\\u00A0``, because
udvalidate rejects whitespace in MISC.  ``# text`` keeps one plain space
wherever there is any whitespace, as UD asks.
"""

from __future__ import annotations

from collections.abc import Iterable

from eud.graph import Sentence

ESCAPES = {"\\": "\\\\", "|": "\\p", " ": "\\s", "\t": "\\t", "\r": "\\r", "\n": "\\n"}
_UNESCAPES = {v[1]: k for k, v in ESCAPES.items()}


def escape(spaces: str) -> str:
    """A MISC value for a run of whitespace (UDPipe's escapes, ``\\uXXXX`` for other whitespace)."""
    return "".join(ESCAPES.get(c) or (f"\\u{ord(c):04X}" if c.isspace() else c) for c in spaces)


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


def after(spaces: str) -> str:
    """The MISC attribute for the whitespace after a token: ``_`` for one space, else
    ``SpaceAfter=No`` or ``SpacesAfter=...``."""
    if spaces == " ":
        return "_"
    return "SpaceAfter=No" if not spaces else "SpacesAfter=" + escape(spaces)


def with_attribute(misc: str, attribute: str) -> str:
    """``misc`` with ``attribute`` (``Name=value``, or ``_`` for none) added first."""
    items: Iterable[str] = [a for a in (attribute, misc) if a != "_"]
    return "|".join(items) or "_"


def _attributes(misc: str) -> dict[str, str]:
    return dict(a.split("=", 1) for a in misc.split("|") if "=" in a)


def rebuild(sentences: Iterable[Sentence]) -> str:
    """The text the sentences were read from, as far as their MISC records it.

    A token without a spacing attribute is followed by one space; with
    ``SpaceAfter=No`` by nothing.  For text that eud segmented, this is the input
    exactly, up to line ends read as ``\\n``, blank lines between paragraphs read as
    one, and the characters CoNLL-U cannot carry (``docs/text_hygiene.md``).
    """
    parts: list[str] = []
    for sentence in sentences:
        starts = {t.first: t for t in sentence.tokens}
        i = 1
        while i <= len(sentence.words):
            token = starts.get(i)
            line = token if token is not None else sentence.words[i - 1]
            i = token.last + 1 if token is not None else i + 1
            misc = _attributes(line.misc)
            parts.append(unescape(misc.get("SpacesBefore", "")) + line.form)
            if "SpacesAfter" in misc:
                parts.append(unescape(misc["SpacesAfter"]))
            elif misc.get("SpaceAfter") != "No":
                parts.append(" ")
    return "".join(parts)
