"""Corrupt valid CoNLL-U in one of many ways, one fault per variant, for differential validation tests.

A file is a list of sentence blocks; a block is its lines without newlines,
ending with the empty line.  Each fault kind takes one block (and the whole
file, for faults that need another sentence) and returns the broken block, or
``None`` when the sentence cannot carry that fault (no features to reorder, no
multiword token...).  :func:`variants` draws (kind, broken text) pairs from a
valid file.  The expected test id is not part of the fault: the point is to see
whether ``eud validate`` and ``udvalidate`` agree on whatever the fault causes.
"""

from __future__ import annotations

import lzma
import random
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

Block = list[str]
Fault = Callable[[Block, random.Random, list[Block]], Block | None]


def split_blocks(text: str) -> list[Block]:
    """A valid file's sentences, each with its lines and a final empty line."""
    blocks, block = [], []
    for line in text.split("\n")[:-1]:
        block.append(line)
        if not line:
            blocks.append(block)
            block = []
    return blocks


def read_text(path: str | Path) -> str:
    """A (possibly .xz) file's text."""
    with (lzma.open(path, "rt", encoding="utf-8") if str(path).endswith(".xz") else open(path, encoding="utf-8")) as f:
        return f.read()


def join_blocks(blocks: list[Block]) -> str:
    """The file text of blocks."""
    return "".join(line + "\n" for block in blocks for line in block)


def _words(block: Block) -> list[int]:
    """Indices (in block) of the basic-word lines."""
    return [i for i, line in enumerate(block) if line and line[0].isdigit() and line.split("\t", 1)[0].isdigit()]


def _cols(block: Block, i: int) -> list[str]:
    return block[i].split("\t")


def _set(block: Block, i: int, col: int, value: str) -> Block:
    cols = _cols(block, i)
    cols[col] = value
    out = list(block)
    out[i] = "\t".join(cols)
    return out


def _pick(rng: random.Random, items: list[int]) -> int | None:
    return rng.choice(items) if items else None


def _heads(block: Block) -> dict[int, int]:
    return {int(_cols(block, i)[0]): int(_cols(block, i)[6]) for i in _words(block)}


def _line_of(block: Block, word: int) -> int:
    return next(i for i in _words(block) if int(_cols(block, i)[0]) == word)


# -- the basic tree ------------------------------------------------------------


def cycle(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """Hang a word below one of its own descendants."""
    heads = _heads(block)
    pairs = []
    for word in heads:
        node = heads[word]
        while node:
            pairs.append((node, word))  # word is a descendant of node
            node = heads[node]
    if not pairs:
        return None
    ancestor, descendant = rng.choice(pairs)
    return _set(block, _line_of(block, ancestor), 6, str(descendant))


def self_head(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A word that is its own head."""
    i = _pick(rng, _words(block))
    return None if i is None else _set(block, i, 6, _cols(block, i)[0])


def two_roots(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A second word attached to 0 as root."""
    i = _pick(rng, [i for i in _words(block) if _cols(block, i)[6] != "0"])
    return None if i is None else _set(_set(block, i, 6, "0"), i, 7, "root")


def head_out_of_range(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """HEAD beyond the last word."""
    i = _pick(rng, _words(block))
    return None if i is None else _set(block, i, 6, str(len(_words(block)) + 3))


def head_not_number(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """HEAD that is not an integer."""
    i = _pick(rng, _words(block))
    return None if i is None else _set(block, i, 6, rng.choice(["x", "-1", "1.5", "_"]))


def root_not_root(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """The word attached to 0 under another label (a level-2 pass, level-3 error)."""
    i = _pick(rng, [i for i in _words(block) if _cols(block, i)[6] == "0"])
    return None if i is None else _set(block, i, 7, "nsubj")


# -- lines and blank lines -------------------------------------------------------


def extra_blank_line(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """Two empty lines after a sentence."""
    return block + [""]


def blank_line_inside(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """An empty line that splits a sentence in two."""
    words = _words(block)
    if len(words) < 2:
        return None
    cut = rng.choice(words[1:])
    return block[:cut] + [""] + block[cut:]


def whitespace_line(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """The sentence ends with a line of spaces instead of an empty one."""
    return block[:-1] + [rng.choice([" ", "\t", "  "])]


def trailing_space(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """Space after the last column of a word line."""
    i = _pick(rng, _words(block))
    return None if i is None else block[:i] + [block[i] + " "] + block[i + 1 :]


def missing_column(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A word line with nine columns."""
    i = _pick(rng, _words(block))
    return None if i is None else block[:i] + ["\t".join(_cols(block, i)[:9])] + block[i + 1 :]


def empty_column(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """An empty cell (not '_')."""
    i = _pick(rng, _words(block))
    return None if i is None else _set(block, i, rng.choice([2, 3, 5, 9]), "")


def comment_inside(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A comment line between word lines."""
    words = _words(block)
    if len(words) < 2:
        return None
    at = rng.choice(words[1:])
    return block[:at] + ["# note"] + block[at:]


def swapped_lines(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """Two neighbouring word lines in the wrong order."""
    words = _words(block)
    pairs = [i for i in words if i + 1 in words]
    if not pairs:
        return None
    i = rng.choice(pairs)
    return block[:i] + [block[i + 1], block[i]] + block[i + 2 :]


def bad_word_id(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A word id that is not a number."""
    i = _pick(rng, _words(block))
    return None if i is None else _set(block, i, 0, rng.choice(["a", "0", "1a"]))


# -- metadata --------------------------------------------------------------------


def _without(block: Block, prefix: str) -> Block | None:
    kept = [line for line in block if not line.startswith(prefix)]
    return kept if len(kept) < len(block) else None


def missing_sent_id(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """No ``# sent_id``."""
    return _without(block, "# sent_id")


def missing_text(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """No ``# text``."""
    return _without(block, "# text ")


def duplicate_sent_id(block: Block, rng: random.Random, everything: list[Block]) -> Block | None:
    """The sent_id of another sentence of the file."""
    ids = [line for b in everything for line in b if line.startswith("# sent_id") and b is not block]
    own = [i for i, line in enumerate(block) if line.startswith("# sent_id")]
    if not ids or not own:
        return None
    out = list(block)
    out[own[0]] = rng.choice(ids)
    return out


def text_mismatch(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """``# text`` that differs from the forms by one letter."""
    at = [i for i, line in enumerate(block) if line.startswith("# text = ")]
    if not at:
        return None
    out = list(block)
    out[at[0]] = out[at[0]] + "Q"
    return out


def second_text(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """Two ``# text`` lines."""
    at = [i for i, line in enumerate(block) if line.startswith("# text = ")]
    return None if not at else block[: at[0] + 1] + [block[at[0]]] + block[at[0] + 1 :]


# -- columns ---------------------------------------------------------------------


def lowercase_upos(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """UPOS in lower case."""
    i = _pick(rng, _words(block))
    return None if i is None else _set(block, i, 3, _cols(block, i)[3].lower())


def unknown_upos(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A tag that is not one of the 17."""
    i = _pick(rng, _words(block))
    return None if i is None else _set(block, i, 3, "NOUNX")


def _with_feats(block: Block, n: int) -> list[int]:
    return [i for i in _words(block) if _cols(block, i)[5] != "_" and len(_cols(block, i)[5].split("|")) >= n]


def unsorted_features(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """Features out of alphabetical order."""
    i = _pick(rng, _with_feats(block, 2))
    return None if i is None else _set(block, i, 5, "|".join(reversed(_cols(block, i)[5].split("|"))))


def repeated_feature(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """The same feature twice."""
    i = _pick(rng, _with_feats(block, 1))
    if i is None:
        return None
    feats = _cols(block, i)[5].split("|")
    return _set(block, i, 5, "|".join(sorted(feats + [feats[0]], key=str.lower)))


def bad_feature(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A feature written without '=' or in lower case."""
    i = _pick(rng, _words(block))
    return None if i is None else _set(block, i, 5, rng.choice(["case=Nom", "Case", "Case=nom", "Case=Nom,Nom"]))


def space_in_form(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A space inside FORM."""
    i = _pick(rng, [i for i in _words(block) if len(_cols(block, i)[1]) > 1])
    if i is None:
        return None
    form = _cols(block, i)[1]
    return _set(block, i, 1, form[0] + " " + form[1:])


def space_in_lemma_edge(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A LEMMA starting with a space."""
    i = _pick(rng, _words(block))
    return None if i is None else _set(block, i, 2, " " + _cols(block, i)[2])


def control_char_in_form(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A NUL or other control character in FORM."""
    i = _pick(rng, _words(block))
    return None if i is None else _set(block, i, 1, _cols(block, i)[1] + rng.choice(["\x00", "\x07", "\x1b", "\u200b"]))


def decomposed_form(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """FORM in NFD (a letter followed by a combining accent)."""
    i = _pick(rng, _words(block))
    if i is None:
        return None
    return _set(block, i, 1, unicodedata.normalize("NFD", _cols(block, i)[1] + "é"))


def mwt_filled(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A multiword-token line with LEMMA, UPOS or HEAD filled (a new one is made if the sentence has none)."""
    ranges = [i for i, line in enumerate(block) if line[:1].isdigit() and "-" in line.split("\t", 1)[0]]
    if ranges:
        i = rng.choice(ranges)
        return _set(block, i, rng.choice([2, 3, 6, 7]), rng.choice(["x", "NOUN", "1"]))
    return None


def deprel_unknown(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A DEPREL that is not a universal relation."""
    i = _pick(rng, [i for i in _words(block) if _cols(block, i)[6] != "0"])
    return None if i is None else _set(block, i, 7, "subject")


def deprel_bad_format(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """A DEPREL in upper case."""
    i = _pick(rng, [i for i in _words(block) if _cols(block, i)[6] != "0"])
    return None if i is None else _set(block, i, 7, _cols(block, i)[7].upper())


def misc_empty_attribute(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """An empty MISC attribute between bars, or a repeated one."""
    i = _pick(rng, _words(block))
    if i is None:
        return None
    misc = _cols(block, i)[9]
    return _set(block, i, 9, rng.choice(["Gloss=a||Hi=b", "SpaceAfter=No|SpaceAfter=No"]) if misc == "_" else misc + "|")


# -- the enhanced graph ----------------------------------------------------------


def deps_unsorted(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """DEPS entries in the wrong order."""
    i = _pick(rng, [i for i in _words(block) if "|" in _cols(block, i)[8]])
    return None if i is None else _set(block, i, 8, "|".join(reversed(_cols(block, i)[8].split("|"))))


def deps_self_loop(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """DEPS with the word as its own head."""
    i = _pick(rng, _words(block))
    if i is None:
        return None
    word = _cols(block, i)[0]
    entries = sorted(_cols(block, i)[8].split("|") + [f"{word}:dep"], key=lambda e: (float(e.split(":")[0]), e))
    return _set(block, i, 8, "|".join(entries))


def deps_unknown_head(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """DEPS pointing at a word that does not exist."""
    i = _pick(rng, _words(block))
    return None if i is None else _set(block, i, 8, f"{len(_words(block)) + 2}:dep")


def deps_bad_syntax(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """DEPS that cannot be parsed."""
    i = _pick(rng, _words(block))
    return None if i is None else _set(block, i, 8, rng.choice(["2nsubj", "2:", ":nsubj", "2:nsubj|"]))


def deps_dropped(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """DEPS of every word of a sentence removed (the file has graphs elsewhere)."""
    out = list(block)
    for i in _words(block):
        out = _set(out, i, 8, "_")
    return out


def deps_unconnected(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """The enhanced root edge replaced, so nothing is reachable from the root."""
    i = _pick(rng, [i for i in _words(block) if _cols(block, i)[8].startswith("0:root")])
    if i is None or len(_words(block)) < 2:
        return None
    other = next(int(_cols(block, j)[0]) for j in _words(block) if j != i)
    return _set(block, i, 8, f"{other}:dep")


def deps_label_case(block: Block, rng: random.Random, _: list[Block]) -> Block | None:
    """An enhanced relation in upper case."""
    i = _pick(rng, [i for i in _words(block) if _cols(block, i)[8] not in ("_", "")])
    if i is None:
        return None
    head, _, label = _cols(block, i)[8].split("|")[0].partition(":")
    rest = _cols(block, i)[8].split("|")[1:]
    return _set(block, i, 8, "|".join([f"{head}:{label.upper()}"] + rest))


FAULTS: dict[str, Fault] = {
    f.__name__: f
    for f in [
        cycle, self_head, two_roots, head_out_of_range, head_not_number, root_not_root,
        extra_blank_line, blank_line_inside, whitespace_line, trailing_space, missing_column, empty_column,
        comment_inside, swapped_lines, bad_word_id,
        missing_sent_id, missing_text, duplicate_sent_id, text_mismatch, second_text,
        lowercase_upos, unknown_upos, unsorted_features, repeated_feature, bad_feature, space_in_form,
        space_in_lemma_edge, control_char_in_form, decomposed_form, mwt_filled, deprel_unknown,
        deprel_bad_format, misc_empty_attribute,
        deps_unsorted, deps_self_loop, deps_unknown_head, deps_bad_syntax, deps_dropped, deps_unconnected,
        deps_label_case,
    ]
}  # fmt: skip
# Faults of the file rather than of one sentence.
FILE_FAULTS = ("missing_final_newline", "crlf", "bom", "bad_utf8")


def corrupt(text: str, kind: str, rng: random.Random) -> bytes | None:
    """``text`` (a valid file) with one fault of ``kind``, as bytes; ``None`` if no sentence can carry it."""
    if kind == "missing_final_newline":
        return text.removesuffix("\n").encode()
    if kind == "crlf":
        return text.replace("\n", "\r\n").encode()
    if kind == "bom":
        return b"\xef\xbb\xbf" + text.encode()
    if kind == "bad_utf8":
        at = rng.randrange(len(text))
        return text[:at].encode() + b"\xff" + text[at:].encode()
    blocks = split_blocks(text)
    order = list(range(len(blocks)))
    rng.shuffle(order)
    for at in order:
        broken = FAULTS[kind](blocks[at], rng, blocks)
        if broken is not None and broken != blocks[at]:
            return join_blocks(blocks[:at] + [broken] + blocks[at + 1 :]).encode()
    return None


def all_kinds() -> list[str]:
    """Every fault kind, sentence faults then file faults."""
    return list(FAULTS) + list(FILE_FAULTS)


def variants(blocks: list[Block], count: int, seed: int = 0, window: int = 3) -> Iterator[tuple[str, bytes]]:
    """``count`` (kind, broken file) pairs: small windows of consecutive sentences, kinds in turn."""
    rng = random.Random(seed)
    kinds = all_kinds()
    made = tries = 0
    while made < count and tries < count * 20:
        tries += 1
        kind = kinds[tries % len(kinds)]
        start = rng.randrange(max(1, len(blocks) - window))
        broken = corrupt(join_blocks(blocks[start : start + window]), kind, rng)
        if broken is not None:
            made += 1
            yield kind, broken


# -- the two validators ------------------------------------------------------------

Verdict = tuple[bool, str | None]  # (valid, test id of the first error)


def udvalidate_verdict(path: str, level: int = 2) -> Verdict:
    """What ``udvalidate --lang ud --level N PATH`` says, run in-process (same code as the command)."""
    from udtools.state import State

    from eud.validate.official import validator

    try:
        state = validator(level).validate_files([path], State())
    except UnicodeDecodeError:
        return False, "<invalid-utf8>"  # udvalidate stops with a traceback
    errors = [incident for incident in state.error_tracker if incident.is_error()]
    return (not errors, errors[0].testid if errors else None)


def udvalidate_command_verdict(path: str, level: int = 2) -> Verdict:
    """The same, through the real ``udvalidate`` command (slow: a process per file)."""
    import re
    import subprocess

    done = subprocess.run(
        ["udvalidate", "--lang", "ud", "--level", str(level), "--max-err", "0", path],
        capture_output=True, text=True, errors="replace", check=False,
    )  # fmt: skip
    if "UnicodeDecodeError" in done.stderr:
        return False, "<invalid-utf8>"
    first = re.search(r"\]: \[L\d \w+ ([\w-]+)\]", done.stderr)
    return done.returncode == 0, first.group(1) if first else None


def eud_verdict(path: str, level: int = 2) -> Verdict:
    """What ``eud validate --level N PATH`` says (in-process), the test id read from its first problem line."""
    import contextlib
    import io

    from eud.commands.validate import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--level", str(level), path])
    if "invalid UTF-8" in err.getvalue():
        return code == 0, "<invalid-utf8>"
    first = out.getvalue().split("\n", 1)[0]
    testid = first.split(": [", 1)[1].split("]", 1)[0] if ": [" in first else None
    return code == 0, testid
