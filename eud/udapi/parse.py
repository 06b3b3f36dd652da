"""``.eud.udapi.Parse``: eud's neural parser as a udapi block.

Usage::

    udapy read.Conllu files=in.conllu .eud.udapi.Parse lang=en write.Conllu > out.conllu
    udapy read.Conllu files=in.conllu .eud.udapi.Parse model=models/en_ewt write.Conllu
    udapy read.Conllu files=in.conllu .eud.udapi.Parse model=models/cs_cac lang=cs_fictree write.Conllu
    udapy read.Sentences files=in.txt ignore_empty_lines=1 .eud.udapi.Parse lang=en tokenize=1 write.Conllu

It predicts what ``eud parse --input-format conllu`` predicts, on the words
the trees already have: LEMMA, UPOS, XPOS, FEATS, the basic tree (HEAD,
DEPREL) and the enhanced graph (``node.deps``, empty nodes for gapping) of
UD's enhanced dependencies
(https://universaldependencies.org/u/overview/enhanced-syntax.html).  FORM,
MISC, multiword tokens and comments are left alone.  A document's trees are
parsed together in batches, so the model sees as many sentences at a time as
``eud parse`` does.

With ``tokenize=1`` (as in udapi's ``udpipe.Base``), a tree that has a text
but no words yet (``read.Sentences``: a sentence a line) is tokenized first
by the model's segmenter, one sentence per tree, multiword tokens included;
without it such trees are left alone.  It needs torch and a model package
(``lang=`` finds a shipped one, see :func:`eud.registry.find_model`).
"""

from __future__ import annotations

from typing import Any

from udapi.core.block import Block

from eud import spaces
from eud.pipeline import Pipeline, chunked
from eud.udapi.trees import add_words, to_sentence, write_basic, write_enhanced


class Parse(Block):
    """Tag and parse each tree's words with an eud model, basic tree and enhanced graph."""

    def __init__(self, lang: str | None = None, model: str | None = None, chunk: int | str = 2000,
                 tokenize: bool | str = False, **kwargs: Any) -> None:
        """``lang``: language or treebank code of a shipped model; ``model``: a model folder (with
        ``lang``: the language a multilingual folder parses); ``tokenize``: tokenize trees that
        have a text and no words."""
        super().__init__(**kwargs)
        if not (lang or model):
            raise ValueError("eud.udapi.Parse needs lang=CODE, model=DIR, or both for a multilingual model")
        if model:
            self.pipeline = Pipeline.load(str(model), lang=str(lang) if lang else None)
        else:
            self.pipeline = Pipeline.load(str(lang))
        self.chunk = int(chunk)
        self.tokenize = str(tokenize) not in ("0", "False", "false", "")

    def process_document(self, document: Any) -> None:
        """Parse every tree of the document, ``chunk`` trees at a time."""
        if self.tokenize:
            self._tokenize([tree for bundle in document.bundles for tree in bundle
                            if not tree.descendants and self._should_process_tree(tree)])
        trees = [tree for bundle in document.bundles for tree in bundle
                 if tree.descendants and self._should_process_tree(tree)]
        for part in chunked(trees, self.chunk):
            sentences = self.pipeline.parse_sentences([to_sentence(tree) for tree in part])
            for tree, sentence in zip(part, sentences):
                write_basic(tree, sentence)
                write_enhanced(tree, sentence)

    def _tokenize(self, trees: list[Any]) -> None:
        """Give each tree with a text the words the segmenter makes of it (one sentence a tree)."""
        from eud.segment.text import clean_text

        # The same test as the segmenter's, so that each tree left in gets exactly one sentence.
        todo = [t for t in trees if clean_text(t.text or "", keep_spaces=True).strip()]
        sentences = self.pipeline.segmenter.segment_lines(t.text for t in todo)
        for tree, sentence in zip(todo, sentences):
            spaces.set_after(sentence, " ")  # each tree's text stands alone
            add_words(tree, sentence)
            # Odd whitespace stays in MISC (SpacesAfter); the text becomes what CoNLL-U allows.
            tree.text = spaces.text_of(sentence)
