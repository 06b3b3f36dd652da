"""The parsing pipeline: text or CoNLL-U in, parsed and enhanced sentences out.

One :class:`Pipeline` holds one loaded model package (the parser and, when
the package has one, its ``segmenter/``).  Everything that parses goes
through it: ``eud parse``, the Python API (``eud.load``), the HTTP server, the
udapi block and the cluster engine.  ``Pipeline.load`` keeps loaded models,
so a second load of the same folder costs nothing::

    pipe = Pipeline.load("en")                  # or a folder: Pipeline.load("models/en_ewt")
    doc = pipe.parse_text("Some text. More text.")
    print(doc.to_conllu())

Input kinds: raw text (split by the segmenter), presegmented raw text (one
sentence a line; the segmenter only tokenizes), tokenised text (one sentence
a line, words split at spaces) and CoNLL-U (the tokenisation, comments,
multiword tokens, FORM and MISC are kept; every other column is predicted).
:func:`enhance` runs the rule-based enhancer alone, with no model.
Torch is imported only when a model loads.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from eud.conllu import parse_conllu, read_conllu
from eud.document import Document
from eud.graph import Sentence
from eud.registry import models_dir, resolve_model, shared_encoder_language

FORMATS = ("conllu", "text", "tokenized", "presegmented")
CONLLU_SUFFIXES = (".conllu", ".conll", ".conllu.xz", ".conllu.gz", ".conllu.bz2")

T = TypeVar("T")


def guess_format(path: str) -> str:
    """``conllu`` for a CoNLL-U file name or content, else ``text`` (``-`` peeks at stdin)."""
    if path.endswith(CONLLU_SUFFIXES):
        return "conllu"
    if path == "-":
        head = sys.stdin.buffer.peek(4096)[:4096].decode("utf-8", "replace")
    else:
        try:
            with open(path, "rb") as f:
                head = f.read(4096).decode("utf-8", "replace")
        except OSError:
            return "text"
    for line in head.splitlines():
        if line.strip():
            return "conllu" if line.startswith("#") or line.count("\t") == 9 else "text"
    return "text"


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Lists of up to ``size`` consecutive items."""
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


@functools.lru_cache(maxsize=32)
def enhancer(lang: str, *, repair: bool = True) -> Any:
    """The rule-based :class:`eud.enhance.Enhancer` for a language or treebank code, built once."""
    from eud.enhance import Enhancer, find_profile

    return Enhancer(find_profile(lang), repair=repair)


def enhance(sentences: Iterable[Sentence], lang: str, *, repair: bool = True) -> list[Sentence]:
    """Enhanced graphs for basic trees, by the rules of the ``lang`` profile (``en``, ``cs_cac``), in place."""
    rules = enhancer(lang, repair=repair)
    return rules.enhance_all(list(sentences))


def read_tokenized_source(source: str | os.PathLike, *, errors: str = "strict") -> Iterator[Sentence]:
    """Unparsed sentences of a tokenised file (one sentence a line; a blank line starts a paragraph)."""
    from eud.segment import read_tokenized
    from eud.segment.text import paragraphs

    def lines() -> Iterator[str]:
        for number, paragraph in enumerate(paragraphs(source, errors=errors)):
            if number:
                yield ""  # a blank line between paragraphs: # newpar
            yield from paragraph.split("\n")

    return read_tokenized(lines())


class Pipeline:
    """A loaded model package: parses raw text, tokenised text or CoNLL-U; see the module docstring."""

    _loaded: ClassVar[dict[tuple[Any, ...], Pipeline]] = {}  # loaded once per process, by folder and options
    # The network of a package, shared by the pipelines of its languages (a multilingual model loads once).
    _networks: ClassVar[dict[tuple[Path, str], tuple[Any, Any, dict[str, Any]]]] = {}

    def __init__(self, predictor: Any, folder: Path, name: str) -> None:
        """Use :meth:`load`; ``predictor`` is an :class:`eud.nn.predict.Predictor`."""
        self.predictor = predictor
        self.folder = folder
        self.name = name  # as the caller spelt it, for messages
        self._segmenter: Any = None

    @classmethod
    def load(cls, model: str | os.PathLike, *, graph_mode: str | None = None, batch_words: int = 1000,
             precision: str = "auto", threads: int = 0, lang: str | None = None) -> Pipeline:
        """Load a model folder, treebank code or language code once; later calls return the same pipeline.

        ``lang`` (a language or treebank code) picks the language of a multilingual model
        given as a folder; a code given as ``model`` does that by itself.

        ``threads`` (0: torch's choice) sets torch's CPU threads for the process.
        Raises :class:`eud.registry.ModelNotFound`, ``ImportError`` without torch,
        and ``ValueError`` (:class:`eud.nn.package.PackageError`) for a broken package.
        """
        folder, language = resolve_model(model)
        if lang:
            language = lang
        import torch

        if threads:
            torch.set_num_threads(threads)
        key = (folder.resolve(), language, graph_mode, batch_words, precision)
        if key not in cls._loaded:
            from eud.nn.lexicon import Lemmatizer
            from eud.nn.morphology import FeatsChoice
            from eud.nn.package import load_package
            from eud.nn.predict import Predictor
            from eud.nn.verifier import GappingVerifier

            network = (folder.resolve(), precision)
            if network not in cls._networks:
                cls._networks[network] = load_package(folder)
            net, vocabs, config = cls._networks[network]
            if "lang" not in vocabs:
                language = str(config.get("language", ""))  # a one-language model parses with its own profile
            elif not language:
                language = shared_encoder_language(config)  # a shared-encoder package parses its own language
            if "languages" in config and not language:
                # A multilingual folder named by path: which of its languages is not for us to guess.
                raise ValueError(f"{folder}: a multilingual model (languages: {', '.join(config['languages'])}); "
                                 "say which language to parse (eud parse --lang CODE --model FOLDER)")
            table_lang = language.split("_")[0] if "languages" in config else None
            predictor = Predictor(net, vocabs, config, graph_mode=graph_mode, batch_words=batch_words,
                                  precision=precision, lemmatizer=Lemmatizer.load(folder, lang=table_lang),
                                  language=language, verifier=GappingVerifier.load(folder, config),
                                  feats=FeatsChoice.load(folder, vocabs["feats"], lang=table_lang))
            cls._loaded[key] = cls(predictor, folder, str(model))
        return cls._loaded[key]

    @property
    def language(self) -> str:
        """The language (or treebank) code the model's config names, e.g. ``en``."""
        return str(self.predictor.config.get("language", ""))

    @property
    def segmenter(self) -> Any:
        """The package's :class:`eud.segment.Segmenter`, loaded on first use."""
        if self._segmenter is None:
            folder = self.folder / "segmenter"
            if not folder.is_dir() and self.language:
                # Models without their own segmenter use the shared one of their language.
                folder = models_dir() / "segmenters" / self.language.split("_")[0]
            if not folder.is_dir():
                raise ValueError(f"{self.name}: this model has no segmenter/ folder, so it cannot read raw text; "
                                 "use --input-format conllu or tokenized")
            from eud.segment import Segmenter

            self._segmenter = Segmenter.load(folder)
        return self._segmenter

    # -- reading: unparsed sentences ---------------------------------------

    def read(self, source: str | os.PathLike, input_format: str, *, errors: str = "strict") -> Iterator[Sentence]:
        """Unparsed sentences of a file (``-`` for stdin) in one of :data:`FORMATS`, lazily."""
        if input_format == "conllu":
            return read_conllu(source)
        if input_format == "tokenized":
            return read_tokenized_source(source, errors=errors)
        if input_format not in ("text", "presegmented"):
            raise ValueError(f"unknown input format {input_format!r}; known: {', '.join(FORMATS)}")
        from eud.segment.text import lines, paragraphs

        segmenter = self.segmenter
        if input_format == "presegmented":
            return segmenter.segment_lines(lines(source, errors=errors))
        return segmenter.segment(paragraphs(source, errors=errors))

    # -- parsing -------------------------------------------------------------

    def parse_sentences(self, sentences: list[Sentence]) -> list[Sentence]:
        """Predict every column but FORM and MISC, and the enhanced graph, in place."""
        return self.predictor.annotate(sentences)

    def parse_file(self, source: str | os.PathLike, input_format: str | None = None, *, errors: str = "strict",
                   chunk: int = 2000) -> Iterator[Sentence]:
        """Parsed sentences of a file, read and parsed ``chunk`` sentences at a time, in input order."""
        fmt = input_format or guess_format(os.fspath(source))
        for part in chunked(self.read(source, fmt, errors=errors), chunk):
            yield from self.parse_sentences(part)

    def parse_text(self, text: str) -> Document:
        """Raw text (paragraphs split at blank lines) -> a parsed document."""
        return Document(self.parse_sentences(list(self.segmenter.segment(text))))

    def parse_tokenized(self, text: str) -> Document:
        """Tokenised text (one sentence a line, words split at spaces) -> a parsed document."""
        from eud.segment import read_tokenized

        return Document(self.parse_sentences(list(read_tokenized(text.splitlines()))))

    def parse_conllu(self, text: str) -> Document:
        """CoNLL-U text -> a parsed document that keeps its tokenisation, comments and MISC."""
        return Document(self.parse_sentences(parse_conllu(text)))

    __call__ = parse_text

    def stream(self, texts: Iterable[str], *, batch_sentences: int = 256) -> Iterator[Document]:
        """One parsed document per raw text, in input order; sentences of several texts share network batches."""
        pending: list[list[Sentence]] = []
        waiting = 0
        for text in texts:
            pending.append(list(self.segmenter.segment(text)))
            waiting += len(pending[-1])
            if waiting >= batch_sentences:
                yield from self._flush(pending)
                pending, waiting = [], 0
        yield from self._flush(pending)

    def _flush(self, pending: list[list[Sentence]]) -> Iterator[Document]:
        self.parse_sentences([s for doc in pending for s in doc])
        for sentences in pending:
            yield Document(sentences)

    def enhance(self, sentences: Iterable[Sentence]) -> list[Sentence]:
        """Rule-based enhanced graphs for basic trees, in the model's language (see :func:`enhance`)."""
        return enhance(sentences, self.language)

    def __repr__(self) -> str:
        return f"<Pipeline {self.folder} ({self.language or 'no language'})>"
