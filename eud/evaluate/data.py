"""The scorer's view of a CoNLL-U file: flat per-word columns, as the official IWPT scorer reads them.

:func:`read_for_scoring` (a file) and :func:`load_for_scoring` (sentences)
build one :class:`ScoringFile` whose words are numbered across the whole file
(or across one chunk of it, see below).
What is kept, and how, follows ``udtools.udeval``:

* characters are the token FORMs with Unicode Zs characters (spaces) deleted;
  a multiword token contributes its own FORM, its words share its span;
* DEPREL keeps only its universal part (``obl:tmod`` → ``obl``), FEATS only
  universal features, sorted;
* DEPS are read after :func:`eud.collapse.collapsed_edges` (so users pass
  ordinary files), in the order a written DEPS cell has, then filtered by the
  official ``--enhancements`` levels (:mod:`eud.evaluate.levels`).

Heads are word indices in the ScoringFile; :data:`ROOT_HEAD` marks the root and
:data:`NO_HEAD` the basic parent of a root word, which the official scorer
substitutes in levels 1 and 5 and which therefore never matches anything.

Unlike the official scorer, a sentence with several roots or a cycle in its
basic tree is scored rather than rejected (every metric is per word, so it
is well defined); a word without HEAD is an error, as there.

Sentences come one at a time from :mod:`eud.evaluate.sources`.  A
:class:`Builder` can hand out what it has built so far and go on with an empty
file (:meth:`Builder.take`): that is how :mod:`eud.evaluate.chunks` scores
large files in pieces.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from eud.evaluate.align import WordSpans
from eud.evaluate.levels import apply_levels, normalize_levels
from eud.evaluate.sources import SentenceRows, file_label, rows_from_file, rows_from_sentences
from eud.graph import Sentence

ROOT_HEAD = -1
NO_HEAD = -2

CONTENT_DEPRELS = frozenset({
    "nsubj", "obj", "iobj", "csubj", "ccomp", "xcomp", "obl", "vocative", "expl", "dislocated", "advcl",
    "advmod", "discourse", "nmod", "appos", "nummod", "acl", "amod", "conj", "fixed", "flat", "compound",
    "list", "parataxis", "orphan", "goeswith", "reparandum", "root", "dep",
})
FUNCTIONAL_DEPRELS = frozenset({"aux", "cop", "mark", "det", "clf", "case", "cc"})
UNIVERSAL_FEATURES = frozenset({
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender", "Animacy", "Number", "Case",
    "Definite", "Degree", "VerbForm", "Mood", "Tense", "Aspect", "Voice", "Evident", "Polarity", "Person",
    "Polite",
})

_SPACE = re.compile(r"\s")


class ScoringError(ValueError):
    """Input the scorer cannot use (no HEAD, empty FORM, texts that differ)."""


def strip_spaces(form: str) -> str:
    """Delete Unicode Zs characters, as the official scorer does before comparing texts."""
    if _SPACE.search(form) is None:
        return form
    return "".join(c for c in form if unicodedata.category(c) != "Zs")


def universal_feats(feats: str) -> str:
    """Universal features only, sorted, joined by ``|`` (``""`` when none)."""
    return "|".join(sorted(f for f in feats.split("|") if f.split("=", 1)[0] in UNIVERSAL_FEATURES))


def universal_path(label: str) -> str:
    """``conj:and>nsubj:pass`` → ``conj>nsubj``: the universal part of each step."""
    if ">" not in label:
        return label.partition(":")[0]
    return ">".join(step.partition(":")[0] for step in label.split(">"))


@dataclass(slots=True)
class ScoringFile:
    """One file (or one chunk of it) as the scorer sees it; word lists are indexed by the word's number in it.

    Token, sentence and word spans are offsets in the non-space characters of the whole input.
    """

    path: str
    text: str = ""
    token_start: list[int] = field(default_factory=list)
    token_end: list[int] = field(default_factory=list)
    sent_start: list[int] = field(default_factory=list)
    sent_end: list[int] = field(default_factory=list)
    # Index of the first word of each sentence, and the line where the sentence starts.
    sent_first_word: list[int] = field(default_factory=list)
    sent_line: list[int] = field(default_factory=list)
    spans: WordSpans = field(default_factory=WordSpans)
    upos: list[str] = field(default_factory=list)
    xpos: list[str] = field(default_factory=list)
    feats: list[str] = field(default_factory=list)
    lemma: list[str] = field(default_factory=list)
    # Universal DEPREL (what is scored) and the full one (for the enhancement types).
    deprel: list[str] = field(default_factory=list)
    full_deprel: list[str] = field(default_factory=list)
    head: list[int] = field(default_factory=list)
    functional_children: list[list[int]] = field(default_factory=list)
    # Enhanced dependencies of each word: (head, full label, universal label).
    deps: list[list[tuple[int, str, str]]] = field(default_factory=list)
    # Sentences that had empty nodes, as read (uncollapsed), by sentence number.
    with_empty_nodes: dict[int, Sentence] = field(default_factory=dict)

    @property
    def n_words(self) -> int:
        """Number of words in the file."""
        return len(self.head)

    @property
    def n_sentences(self) -> int:
        """Number of sentences in the file."""
        return len(self.sent_start)


class Builder:
    """Appends sentences to a ScoringFile; caches the per-string normalizations (most strings repeat).

    Word and sentence numbers count from the start of the current file (see
    :meth:`take`); character offsets count from the start of the input.
    """

    def __init__(self, path: str, levels: str) -> None:
        self.out = ScoringFile(path)
        self.levels = normalize_levels(levels)
        # Non-space characters read so far, and the current file's pieces of text.
        self.index = 0
        self.pieces: list[str] = []
        self._feats: dict[str, str] = {"_": ""}
        self._udeprel: dict[str, str] = {}
        self._upath: dict[str, str] = {}

    def add(self, sentence: SentenceRows) -> None:
        """Add one sentence: word rows, multiword tokens, DEPS per word (collapsed)."""
        rows, tokens, deps, where, line = sentence.rows, sentence.tokens, sentence.deps, sentence.where, sentence.line
        out = self.out
        offset = len(out.head)
        n = len(rows)
        if not n:
            raise ScoringError(f"{where}: sentence has no words")
        if sentence.uncollapsed is not None:
            out.with_empty_nodes[len(out.sent_start)] = sentence.uncollapsed
        out.sent_first_word.append(offset)
        out.sent_line.append(line)
        out.sent_start.append(self.index)
        columns = list(zip(*rows))
        forms = columns[1]
        if tokens:
            self._add_tokens_with_mwts(forms, tokens, where)
        else:
            self._add_plain_tokens(forms, where)
        out.lemma.extend(columns[2])
        out.upos.extend(columns[3])
        out.xpos.extend(columns[4])
        feats_cache = self._feats
        for feats in columns[5]:
            ufeats = feats_cache.get(feats)
            if ufeats is None:
                ufeats = feats_cache[feats] = universal_feats(feats)
            out.feats.append(ufeats)
        udeprel_cache = self._udeprel
        udeprels = []
        for deprel in columns[7]:
            udeprel = udeprel_cache.get(deprel)
            if udeprel is None:
                udeprel = udeprel_cache[deprel] = deprel.partition(":")[0]
            udeprels.append(udeprel)
        out.deprel.extend(udeprels)
        out.full_deprel.extend(columns[7])
        heads = []
        for wid, head in enumerate(columns[6], 1):
            if head == "0":
                heads.append(ROOT_HEAD)
            elif head == "_":
                raise ScoringError(f"{where}: word {wid} ({forms[wid - 1]!r}) has no HEAD; the scorer needs one")
            else:
                heads.append(offset + int(head) - 1)
        out.head.extend(heads)
        children: list[list[int]] = [[] for _ in range(n)]
        for i, head in enumerate(heads):
            if head >= 0 and udeprels[i] in FUNCTIONAL_DEPRELS:
                children[head - offset].append(offset + i)
        out.functional_children.extend(children)
        upath = self._upath
        levels = self.levels
        for i, items in enumerate(deps):
            if len(items) > 1:
                items.sort()
            word_deps = [(offset + h - 1 if h else ROOT_HEAD, label) for h, label in items]
            if levels and word_deps:
                basic = heads[i]
                word_deps = apply_levels(
                    word_deps, levels, word_index=i, basic_parent=basic if basic >= 0 else NO_HEAD,
                    deprel=udeprels[i], file_deprel=out.deprel, file_head=out.head, offset=offset,
                )
            row = []
            for h, label in word_deps:
                ulabel = upath.get(label)
                if ulabel is None:
                    ulabel = upath[label] = universal_path(label)
                row.append((h, label, ulabel))
            out.deps.append(row)
        out.sent_end.append(self.index)

    def _add_plain_tokens(self, forms: tuple[str, ...], where: str) -> None:
        """Every word is its own token."""
        out, spans = self.out, self.out.spans
        texts = [strip_spaces(f) for f in forms] if _SPACE.search("".join(forms)) else forms
        index = self.index
        starts = []
        for wid, text in enumerate(texts, 1):
            if not text:
                raise ScoringError(f"{where}: empty FORM (word {wid}); the scorer needs the text")
            starts.append(index)
            index += len(text)
        ends = starts[1:] + [index]
        self.pieces.extend(texts)
        self.index = index
        out.token_start.extend(starts)
        out.token_end.extend(ends)
        spans.start.extend(starts)
        spans.end.extend(ends)
        spans.multi.extend([False] * len(texts))
        spans.form.extend([t.lower() for t in texts])

    def _add_tokens_with_mwts(self, forms: tuple[str, ...], tokens: dict[int, tuple[int, str]], where: str) -> None:
        """Words and multiword tokens; the words of a multiword token share its span."""
        out, spans = self.out, self.out.spans
        token_last = token_start = token_end = 0
        index = self.index
        multi = False
        for wid, form in enumerate(forms, 1):
            if wid > token_last:
                token = tokens.get(wid)
                text = strip_spaces(token[1] if token is not None else form)
                if not text:
                    raise ScoringError(f"{where}: empty FORM (word {wid}); the scorer needs the text")
                self.pieces.append(text)
                token_start, token_end = index, index + len(text)
                index = token_end
                out.token_start.append(token_start)
                out.token_end.append(token_end)
                if token is not None:
                    token_last = token[0]
                    multi = True
                    lowered = form.lower()
                else:
                    multi = False
                    lowered = text.lower()
            else:
                lowered = form.lower()
            spans.start.append(token_start)
            spans.end.append(token_end)
            spans.multi.append(multi)
            spans.form.append(lowered)
        self.index = index

    def take(self) -> ScoringFile:
        """The file built so far; later sentences go to a new, empty file (same path, offsets go on)."""
        out = self.out
        out.text = "".join(self.pieces)
        self.out = ScoringFile(out.path)
        self.pieces = []
        return out


def load_for_scoring(sentences: Iterable[Sentence], path: str, levels: str = "") -> ScoringFile:
    """Prepare sentences for scoring, all in one file; ``levels`` are official ``--enhancements`` digits."""
    builder = Builder(path, levels)
    for sentence in rows_from_sentences(sentences):
        builder.add(sentence)
    return builder.take()


def read_for_scoring(path: str | os.PathLike, levels: str = "") -> ScoringFile:
    """Read a whole CoNLL-U file (``.xz``/``.gz``/``.bz2``, ``-`` for stdin) and prepare it for scoring."""
    builder = Builder(file_label(path), levels)
    for sentence in rows_from_file(path):
        builder.add(sentence)
    return builder.take()
