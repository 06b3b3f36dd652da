"""eud: a toolkit for enhanced Universal Dependencies.

Read and write CoNLL-U losslessly (:mod:`eud.conllu`), hold sentences with a
basic tree and an enhanced graph (:mod:`eud.graph`), validate and repair
enhanced graphs, convert basic trees to enhanced graphs, parse raw text, and
score systems the way the IWPT shared tasks did.

The Python API in three calls::

    import eud
    pipe = eud.load("en")                        # a language, treebank or model folder
    doc = pipe("Some text. More text.")          # a Document of parsed, enhanced Sentences
    scores = eud.evaluate("gold.conllu", "system.conllu")   # paths or sentences

Importing ``eud`` loads no torch: a model (and torch) loads at the first
``eud.load`` of it, and stays loaded.  ``eud.evaluate`` is the scoring package
made callable (see :mod:`eud.evaluate`); it is imported on first use, as is
``eud.spacy`` (:mod:`eud.spacy`, eud as a spaCy pipeline; needs spaCy).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from eud.conllu import ConlluError, format_sentence, parse_conllu, read_conllu, write_conllu
from eud.document import Document
from eud.graph import ROOT, Edge, EmptyNode, EnhancedGraph, MultiwordToken, NodeId, Sentence, Word
from eud.pipeline import Pipeline
from eud.registry import ModelNotFound, find_model

if TYPE_CHECKING:  # pragma: no cover
    from eud import evaluate

__version__ = "0.1.0"

__all__ = [
    "ROOT",
    "ConlluError",
    "Document",
    "Edge",
    "EmptyNode",
    "EnhancedGraph",
    "ModelNotFound",
    "MultiwordToken",
    "NodeId",
    "Pipeline",
    "Sentence",
    "Word",
    "evaluate",
    "find_model",
    "format_sentence",
    "load",
    "parse_conllu",
    "read_conllu",
    "write_conllu",
]


def load(model: str | os.PathLike, **options: Any) -> Pipeline:
    """The parsing pipeline for a language (``en``), treebank (``en_ewt``) or model folder, loaded once.

    ``options`` go to :meth:`eud.pipeline.Pipeline.load` (``graph_mode``,
    ``batch_words``, ``precision``, ``threads``).
    """
    return Pipeline.load(model, **options)


def __getattr__(name: str) -> Any:
    # The scorer and the spaCy pipeline are imported on first use, so ``import eud`` stays light
    # (and spaCy stays optional: ``eud.spacy.load`` needs ``pip install 'eud[spacy]'``).
    if name in ("evaluate", "spacy"):
        import importlib

        return importlib.import_module(f"eud.{name}")
    raise AttributeError(f"module 'eud' has no attribute {name!r}")


def _sentence_html(sentence: Sentence) -> str:
    """Jupyter's view of a sentence: its graph drawn by :mod:`eud.render` (imported on first display)."""
    from eud.render import sentence_html

    return sentence_html(sentence)


# eud.graph sits below the viewer (eud.render imports it), so the notebook hook is attached here, above both.
Sentence._repr_html_ = _sentence_html  # type: ignore[attr-defined]
