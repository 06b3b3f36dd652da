"""The scorer's view of a CoNLL-U file: flat per-word columns, as the official IWPT scorer reads them.

:func:`load_for_scoring` turns the sentences of a file into one
:class:`ScoringFile` whose words are numbered across the whole file.  What it
keeps, and how, follows ``udtools.udeval``:

* characters are the token FORMs with Unicode Zs characters (spaces) deleted;
  a multiword token contributes its own FORM, its words share its span;
* DEPREL keeps only its universal part (``obl:tmod`` → ``obl``), FEATS only
  universal features, sorted;
* DEPS are read after :func:`eud.collapse.collapsed_edges` (so users pass
  ordinary files), in the order a written DEPS cell has, and then filtered by
  the official ``--enhancements`` levels (see :func:`apply_levels`).

Heads are global word indices; :data:`ROOT_HEAD` marks the root and
:data:`NO_HEAD` the basic parent of a root word, which the official scorer
substitutes in levels 1 and 5 and which therefore never matches anything.

Unlike the official scorer, a sentence with several roots or a cycle in its
basic tree is scored rather than rejected (every metric is per word, so it
is well defined); a word without HEAD is an error, as there.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable

from eud.align import WordSpans
from eud.collapse import collapsed_edges
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
# Level 6 ("no case information") strips the second part of these relations...
CASE_DEPRELS = frozenset({"obl", "nmod", "conj", "advcl"})
# ...unless it is one of these universal subtypes.
UNIVERSAL_EXTENSIONS = frozenset({"pass", "relcl", "xsubj"})
LEVELS = "123456"

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
    """One file as the scorer sees it; word lists are indexed by the word's number in the file."""

    path: str
    text: str = ""
    token_start: list[int] = field(default_factory=list)
    token_end: list[int] = field(default_factory=list)
    sent_start: list[int] = field(default_factory=list)
    sent_end: list[int] = field(default_factory=list)
    # Index of the first word of each sentence.
    sent_first_word: list[int] = field(default_factory=list)
    spans: WordSpans = field(default_factory=WordSpans)
    upos: list[str] = field(default_factory=list)
    xpos: list[str] = field(default_factory=list)
    feats: list[str] = field(default_factory=list)
    lemma: list[str] = field(default_factory=list)
    deprel: list[str] = field(default_factory=list)
    head: list[int] = field(default_factory=list)
    functional_children: list[list[int]] = field(default_factory=list)
    # Enhanced dependencies of each word: (head, full label, universal label).
    deps: list[list[tuple[int, str, str]]] = field(default_factory=list)
    # The sentences as read (not collapsed), for the scores beyond the official ones.
    sentences: list[Sentence] = field(default_factory=list)

    @property
    def n_words(self) -> int:
        """Number of words in the file."""
        return len(self.head)


def apply_levels(
    deps: list[tuple[int, str]], levels: str, *, word_index: int, basic_parent: int, deprel: str,
    file: ScoringFile, offset: int,
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
    first word is ``offset`` in ``file``.
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
            if not (head >= 0 and file.deprel[head] == "xcomp" and any(s.startswith("nsubj") for s in label.split(">")))
        ]
    if "5" in levels:
        out = []
        for head, label in deps:
            if label.split(">")[0] == "ref":
                out.append((basic_parent, deprel))
            elif head >= 0 and file.deprel[head].startswith("acl") and max(file.head[head] - offset + 1, 0) == word_index:
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


def load_for_scoring(sentences: Iterable[Sentence], path: str, levels: str = "") -> ScoringFile:
    """Read sentences into a :class:`ScoringFile`; ``levels`` are official ``--enhancements`` digits."""
    levels = "".join(c for c in levels if c in LEVELS and c != "3")
    out = ScoringFile(path)
    pieces: list[str] = []
    index = 0
    spans = out.spans
    for sentence in sentences:
        out.sentences.append(sentence)
        offset = len(out.head)
        out.sent_first_word.append(offset)
        out.sent_start.append(index)
        mwt_by_first = {t.first: t for t in sentence.tokens} if sentence.tokens else {}
        token_last = 0
        token_start = token_end = 0
        n = len(sentence.words)
        for word in sentence.words:
            wid = word.id
            if wid > token_last:
                token = mwt_by_first.get(wid)
                form = strip_spaces(token.form if token is not None else word.form)
                if not form:
                    raise ScoringError(f"{sentence.where()}: empty FORM in sentence {sentence.sent_id or ''} "
                                       f"(word {wid}); the scorer needs the text")
                pieces.append(form)
                token_start, token_end = index, index + len(form)
                index = token_end
                out.token_start.append(token_start)
                out.token_end.append(token_end)
                if token is not None:
                    token_last = token.last
                    multi = True
                    lowered = word.form.lower()
                else:
                    multi = False
                    lowered = form.lower()
            else:
                multi = True
                lowered = word.form.lower()
            spans.start.append(token_start)
            spans.end.append(token_end)
            spans.multi.append(multi)
            spans.form.append(lowered)
            out.upos.append(word.upos)
            out.xpos.append(word.xpos)
            out.feats.append(universal_feats(word.feats))
            out.lemma.append(word.lemma)
            out.deprel.append(word.deprel.partition(":")[0])
            head = word.head
            if head is None:
                raise ScoringError(f"{sentence.where()}: word {wid} ({word.form!r}) has no HEAD; the scorer needs one")
            out.head.append(offset + head - 1 if head else ROOT_HEAD)
            out.functional_children.append([])
        for i in range(offset, offset + n):
            head = out.head[i]
            if head >= 0 and out.deprel[i] in FUNCTIONAL_DEPRELS:
                out.functional_children[head].append(i)
        _add_deps(out, sentence, offset, levels)
        out.sent_end.append(index)
    out.text = "".join(pieces)
    return out


def _add_deps(out: ScoringFile, sentence: Sentence, offset: int, levels: str) -> None:
    n = len(sentence.words)
    per_word: list[list[tuple[tuple[int, int], str]]] = [[] for _ in range(n)]
    edges = collapsed_edges(sentence) if sentence.empty_nodes else sentence.enhanced
    for head, dep, label in edges:
        if dep[1] == 0 and 1 <= dep[0] <= n and head[1] == 0:
            per_word[dep[0] - 1].append((head, label))
    for i, items in enumerate(per_word):
        if len(items) > 1:
            items.sort()
        deps = [(offset + h[0] - 1 if h[0] else ROOT_HEAD, label) for h, label in items]
        if levels and deps:
            deps = apply_levels(
                deps, levels, word_index=i, basic_parent=out.head[offset + i] if out.head[offset + i] >= 0 else NO_HEAD,
                deprel=out.deprel[offset + i], file=out, offset=offset,
            )
        out.deps.append([(h, label, universal_path(label)) for h, label in deps])
