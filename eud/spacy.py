"""eud as a spaCy pipeline: eud's segmenter and parser are the ``nlp`` object's tokenizer.

::

    import eud.spacy
    nlp = eud.spacy.load("en")      # a language, treebank or model folder, as eud.load takes
    doc = nlp("John ate an apple and Mary a pear.")
    [(t.text, t.dep_, t.head.text) for t in doc]          # the basic tree
    doc._.empty_nodes                                      # [<EmptyNode 5.1 'ate'>]
    print(doc._.conllu)                                    # what `eud parse` writes

As spacy-stanza does for Stanza, the tokenizer runs the whole parser, so a
``Doc`` comes out annotated: spaCy tokens are UD syntactic words, with
``pos_`` (UPOS), ``tag_`` (XPOS), ``lemma_``, ``morph`` (FEATS), ``head`` and
``dep_`` from the basic tree.  The root follows spaCy's convention (the one
``spacy convert`` uses for CoNLL-U): its ``head`` is itself and its ``dep_`` is
``ROOT``; every other label is the UD one.  Sentence boundaries (``doc.sents``)
are eud's.  The rest of UD lives in extension attributes:

- ``token._.enhanced``: the word's enhanced heads, a list of ``(head, label)``
  with ``head`` a ``Token``, an :class:`EmptyNode`, or None for the root;
- ``doc._.empty_nodes`` (and ``span._.empty_nodes`` for the sentences a span
  covers): the empty nodes (https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis),
  each with its id (``"8.1"``), columns, ``copy_of`` (the token its
  ``CopyOf`` names), ``heads`` and ``dependents``;
- ``doc._.conllu`` (and ``span._.conllu``): the CoNLL-U that ``eud parse``
  writes for the same text, multiword tokens (``won't`` = ``wo`` + ``n't``)
  with their surface form.  The CoNLL-U is what the other attributes are read
  from, so a ``Doc`` keeps them through ``to_bytes``/``from_bytes``.

Whitespace that is not one plain space after a token becomes a whitespace
token (``pos_`` ``SPACE``, attached to the word before it with ``dep``), as
spaCy's own tokenizer makes them, so ``doc.text`` is the input text (up to
what eud's segmenter normalises, see :func:`eud.spaces.rebuild`).  Where a
multiword token's words do not spell its surface (``zum`` = ``zu`` + ``dem``),
the words are kept, separated by a space, and ``doc.text`` differs there.

``nlp.pipe(texts)`` parses the texts through :meth:`eud.pipeline.Pipeline.stream`,
so sentences of several texts share network batches; it runs in one process.
The ``[nlp.tokenizer]`` section of ``nlp.config`` names eud's model, so
``nlp.to_disk(path)`` and, once ``eud.spacy`` is imported, ``spacy.load(path)``
work as for any spaCy pipeline.
spaCy is an optional dependency (``pip install 'eud[spacy]'``); ``import eud``
does not import it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

try:
    import spacy
    from spacy.language import Language
    from spacy.tokens import Doc, Span, Token
    from spacy.util import DummyTokenizer
except ImportError as err:  # pragma: no cover - the extra is not installed
    raise ImportError(f"eud.spacy needs spaCy: pip install 'eud[spacy]' ({err})") from err

from eud.conllu import format_sentence, parse_conllu
from eud.document import Document
from eud.graph import MultiwordToken, NodeId, Sentence
from eud.pipeline import Pipeline, chunked
from eud.spaces import token_lines, unescape

__all__ = ["EmptyNode", "EudTokenizer", "load"]

TOKENIZER = "eud.Tokenizer.v1"


def load(model: str | os.PathLike, *, graph_mode: str | None = None, batch_words: int = 1000,
         precision: str = "auto", threads: int = 0, lang: str | None = None) -> Language:
    """A ``spacy.Language`` whose tokenizer parses with eud's model for ``model`` (see :func:`eud.load`).

    The spaCy language is the model's (``en`` gives ``spacy.lang.en.English``
    with its stop words and lexical attributes), or spaCy's multi-language
    class for a language spaCy does not have.
    """
    pipeline = Pipeline.load(model, graph_mode=graph_mode, batch_words=batch_words, precision=precision,
                             threads=threads, lang=lang)
    name = os.path.abspath(model) if os.path.isdir(model) else os.fspath(model)  # a saved config works from anywhere
    options = {"model": name, "graph_mode": graph_mode, "batch_words": batch_words,
               "precision": precision, "threads": threads, "lang": lang}
    config = {"nlp": {"tokenizer": {"@tokenizers": TOKENIZER, **options}}}
    return _language_class(_spacy_code(lang or pipeline.language)).from_config(config)


def _spacy_code(language: str) -> str:
    code = language.split("_")[0]
    try:
        spacy.util.get_lang_class(code)
    except ImportError:
        return "xx"  # spaCy's MultiLanguage
    return code


@spacy.registry.tokenizers(TOKENIZER)
def create_tokenizer(model: str, graph_mode: str | None = None, batch_words: int = 1000, precision: str = "auto",
                     threads: int = 0, lang: str | None = None) -> Callable[[Language], EudTokenizer]:
    """spaCy's factory for the tokenizer named in the ``[nlp.tokenizer]`` config section."""

    def make(nlp: Language) -> EudTokenizer:
        pipeline = Pipeline.load(model, graph_mode=graph_mode, batch_words=batch_words, precision=precision,
                                 threads=threads, lang=lang)
        return EudTokenizer(nlp.vocab, pipeline)

    return make


class EudTokenizer(DummyTokenizer):
    """Text in, an annotated ``Doc`` out: eud's segmenter, parser and enhancer (see the module docstring)."""

    def __init__(self, vocab: Any, pipeline: Pipeline) -> None:
        self.vocab = vocab
        self.pipeline = pipeline

    def __call__(self, text: str) -> Doc:
        return self.to_doc(self.pipeline.parse_text(text))

    def pipe(self, texts: Iterable[str], batch_size: int = 256) -> Iterator[Doc]:
        """One ``Doc`` per text, in order; the sentences of several texts share network batches."""
        for document in self.pipeline.stream(texts, batch_sentences=batch_size):
            yield self.to_doc(document)

    def to_doc(self, document: Document) -> Doc:
        """The spaCy ``Doc`` of a parsed eud document."""
        conllu = document.to_conllu()
        words = _parsed(conllu).words  # the attributes are read back the same way
        if not words:
            doc = Doc(self.vocab, words=[])
        else:
            doc = Doc(self.vocab, words=[w.text for w in words], spaces=[w.space for w in words],
                      heads=[w.head for w in words], deps=[w.dep for w in words], pos=[w.pos for w in words],
                      tags=[w.tag for w in words], lemmas=[w.lemma for w in words],
                      morphs=[w.morph for w in words])
        doc._.conllu = conllu
        return doc


# -- the layout: which spaCy token each word is --------------------------------


@dataclass(slots=True)
class _Token:
    text: str
    space: bool
    head: int  # absolute index, as spaCy's Doc takes it
    dep: str
    pos: str | None
    tag: str
    lemma: str
    morph: str


@dataclass(slots=True)
class _Layout:
    sentences: list[Sentence]
    words: list[_Token]
    index: dict[tuple[int, int], int]  # (sentence, word id) -> token index
    node: list[tuple[int, int] | None]  # token index -> (sentence, word id); None for whitespace
    spans: list[tuple[int, int]]  # per sentence: first and last token index of its words


def _cell(value: str) -> str:
    return "" if value == "_" else value


def _attributes(misc: str) -> dict[str, str]:
    return dict(a.split("=", 1) for a in misc.split("|") if "=" in a)


def _whitespace(text: str, head: int) -> _Token:
    return _Token(text, False, head, "dep", "SPACE", "_SP", text, "")


def _layout(sentences: list[Sentence]) -> _Layout:
    """Where each word, and each run of extra whitespace, goes in the spaCy ``Doc``."""
    words: list[_Token] = []
    index: dict[tuple[int, int], int] = {}
    node: list[tuple[int, int] | None] = []
    leading: list[int] = []  # whitespace tokens before the first word, attached to it
    last_line = token_lines(sentences[-1])[-1] if sentences else None
    for s, sentence in enumerate(sentences):
        for line in token_lines(sentence):
            misc = _attributes(line.misc)
            before = unescape(misc.get("SpacesBefore", ""))
            if before:
                leading.append(len(words))
                words.append(_whitespace(before, -1))
                node.append(None)
            if "SpacesAfter" in misc:
                after = unescape(misc["SpacesAfter"])
            else:
                after = "" if misc.get("SpaceAfter") == "No" or line is last_line else " "
            ids = range(line.first, line.last + 1) if isinstance(line, MultiwordToken) else [line.id]
            spelt = "".join(sentence.word(i).form for i in ids) == line.form
            for i in ids:
                word = sentence.word(i)
                index[(s, i)] = len(words)
                node.append((s, i))
                space = after.startswith(" ") if i == ids[-1] else not spelt
                words.append(_Token(word.form, space, -1, word.deprel, _cell(word.upos) or None, _cell(word.xpos),
                                    word.lemma if word.lemma != "_" or word.form == "_" else "",
                                    _cell(word.feats)))
            extra = after.removeprefix(" ")
            if extra:
                words.append(_whitespace(extra, len(words) - 1))
                node.append(None)
    for (s, i), k in index.items():
        head = sentences[s].word(i).head
        if not head:
            words[k].head, words[k].dep = k, "ROOT"
        else:
            words[k].head = index[(s, head)]
    for k in leading:
        words[k].head = k + 1
    spans = []
    for s, sentence in enumerate(sentences):
        spans.append((index[(s, 1)], index[(s, len(sentence.words))]))
    return _Layout(sentences, words, index, node, spans)


@functools.lru_cache(maxsize=32)
def _parsed(conllu: str) -> _Layout:
    return _layout(parse_conllu(conllu, name="doc._.conllu"))


def _annotation(doc: Doc) -> _Layout:
    """The layout of a ``Doc`` that eud made, read from its ``doc._.conllu``."""
    conllu = doc._.conllu
    if conllu is None:
        raise ValueError("this Doc was not made by eud's tokenizer (doc._.conllu is None)")
    layout = _parsed(conllu)
    if len(layout.words) != len(doc):
        raise ValueError(f"this Doc has {len(doc)} tokens, eud made {len(layout.words)}: "
                         "it was retokenized, so eud's annotation no longer fits it")
    return layout


# -- the extension attributes ------------------------------------------------------


class EmptyNode:
    """An empty node of a ``Doc``: a word of the enhanced graph that is not in the text."""

    __slots__ = ("doc", "node", "sentence")

    def __init__(self, doc: Doc, sentence: int, node: NodeId) -> None:
        self.doc = doc
        self.sentence = sentence  # the index of its sentence in doc.sents
        self.node = node

    def _row(self) -> Any:
        return _annotation(self.doc).sentences[self.sentence].node(self.node)

    @property
    def id(self) -> str:
        """The CoNLL-U id, e.g. ``"8.1"``."""
        return f"{self.node[0]}.{self.node[1]}"

    form = property(lambda self: self._row().form, doc="FORM")
    lemma = property(lambda self: self._row().lemma, doc="LEMMA")
    upos = property(lambda self: self._row().upos, doc="UPOS")
    xpos = property(lambda self: self._row().xpos, doc="XPOS")
    feats = property(lambda self: self._row().feats, doc="FEATS")
    misc = property(lambda self: self._row().misc, doc="MISC")

    @property
    def copy_of(self) -> Token | None:
        """The token that MISC ``CopyOf`` names (the word the empty node copies), if any."""
        target = _attributes(self.misc).get("CopyOf", "")
        if not target.isdigit():
            return None
        return _resolve(self.doc, _annotation(self.doc), self.sentence, (int(target), 0))

    @property
    def heads(self) -> list[tuple[Token | EmptyNode | None, str]]:
        """Incoming enhanced edges: ``(head, label)``, ``head`` None for the root."""
        return _edges_in(self.doc, self.sentence, self.node)

    @property
    def dependents(self) -> list[tuple[Token | EmptyNode, str]]:
        """Outgoing enhanced edges: ``(dependent, label)``."""
        layout = _annotation(self.doc)
        edges = layout.sentences[self.sentence].enhanced.dependents(self.node)
        return [(_resolve(self.doc, layout, self.sentence, dep), label) for _, dep, label in sorted(edges)]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, EmptyNode) and other.doc is self.doc and other.sentence == self.sentence
                and other.node == self.node)

    def __hash__(self) -> int:
        return hash((id(self.doc), self.sentence, self.node))

    def __repr__(self) -> str:
        return f"<EmptyNode {self.id} {self.form!r}>"


def _resolve(doc: Doc, layout: _Layout, sentence: int, node: NodeId) -> Any:
    """The root (None), a word's ``Token`` or an :class:`EmptyNode`."""
    if node == (0, 0):
        return None
    if node[1]:
        return EmptyNode(doc, sentence, node)
    return doc[layout.index[(sentence, node[0])]]


def _edges_in(doc: Doc, sentence: int, node: NodeId) -> list[tuple[Any, str]]:
    layout = _annotation(doc)
    edges = layout.sentences[sentence].enhanced.heads(node)
    return [(_resolve(doc, layout, sentence, head), label) for head, _, label in sorted(edges)]


def _token_enhanced(token: Token) -> list[tuple[Any, str]]:
    where = _annotation(token.doc).node[token.i]
    if where is None:
        return []
    sentence, word = where
    return _edges_in(token.doc, sentence, (word, 0))


def _covered(span: Doc | Span) -> list[int]:
    """The sentences whose words all lie inside the span (all of them for a Doc)."""
    layout = _annotation(span.doc if isinstance(span, Span) else span)
    start, end = (span.start, span.end) if isinstance(span, Span) else (0, len(span))
    return [s for s, (first, last) in enumerate(layout.spans) if start <= first and last < end]


def _empty_nodes(span: Doc | Span) -> list[EmptyNode]:
    doc = span.doc if isinstance(span, Span) else span
    layout = _annotation(doc)
    return [EmptyNode(doc, s, e.node) for s in _covered(span) for e in layout.sentences[s].empty_nodes]


def _span_conllu(span: Span) -> str:
    layout = _annotation(span.doc)
    return "".join(format_sentence(layout.sentences[s]) for s in _covered(span))


Doc.set_extension("conllu", default=None, force=True)
Doc.set_extension("empty_nodes", getter=_empty_nodes, force=True)
Span.set_extension("conllu", getter=_span_conllu, force=True)
Span.set_extension("empty_nodes", getter=_empty_nodes, force=True)
Token.set_extension("enhanced", getter=_token_enhanced, force=True)


# -- nlp.pipe through Pipeline.stream ------------------------------------------------


class _Streaming:
    """Mixed into the spaCy language class: ``pipe`` hands the texts to eud's tokenizer in batches."""

    def pipe(self, texts: Iterable[Any], *, as_tuples: bool = False, batch_size: int | None = None,
             n_process: int = 1, **options: Any) -> Iterator[Any]:
        """spaCy's ``Language.pipe``, with the texts parsed together by eud (in this process)."""
        if n_process != 1:
            raise ValueError("eud's spaCy pipeline runs in one process (n_process=1); eud batches the texts itself")
        size = batch_size or self.batch_size  # type: ignore[attr-defined]
        if as_tuples:
            pairs = ((doc, context) for items in chunked(texts, size)
                     for doc, (_, context) in zip(self._docs([t for t, _ in items]), items, strict=True))
            return super().pipe(pairs, as_tuples=True, batch_size=batch_size, **options)  # type: ignore[misc]
        docs = (doc for items in chunked(texts, size) for doc in self._docs(items))
        return super().pipe(docs, batch_size=batch_size, **options)  # type: ignore[misc]

    def _docs(self, items: list[Any]) -> list[Any]:
        """Docs for a batch of texts and Docs, in order; the texts go through one stream."""
        tokenizer = self.tokenizer  # type: ignore[attr-defined]
        texts = [item for item in items if isinstance(item, str)]
        for text in texts:
            if len(text) > self.max_length:  # type: ignore[attr-defined]
                raise ValueError(f"a text of {len(text)} characters is over nlp.max_length ({self.max_length})")  # type: ignore[attr-defined]
        parsed = iter(tokenizer.pipe(texts) if isinstance(tokenizer, EudTokenizer) else map(tokenizer, texts))
        return [next(parsed) if isinstance(item, str) else item for item in items]


@functools.cache
def _language_class(code: str) -> type[Language]:
    base = spacy.util.get_lang_class(code)
    return type(f"Eud{base.__name__}", (_Streaming, base), {"__module__": __name__})
