"""``.eud.udapi.Enhance``: eud's rule-based enhancer as a udapi block.

Usage::

    udapy read.Conllu files=in.conllu .eud.udapi.Enhance lang=en write.Conllu > out.conllu
    udapy read.Conllu files=in.conllu .eud.udapi.Enhance profile=converters/cs_cac.toml write.Conllu

It implements the UD guidelines for enhanced dependencies
(https://universaldependencies.org/u/overview/enhanced-syntax.html): gapping
with empty nodes, shared parents and dependents in coordination, controlled
subjects, relative clauses and case-marked labels, as ``eud enhance`` does,
with the same language profiles (``converters/``).  Each tree gets the
enhanced graph that ``eud enhance`` writes for it: edges in ``node.deps``,
empty nodes (gapping) in ``root.empty_nodes``, and so the same DEPS column in
``write.Conllu``'s output.

What it cannot do: it reads only the basic tree (FORM, LEMMA, UPOS, FEATS,
HEAD, DEPREL), so enhanced edges or empty nodes already in the input are
replaced, not merged; it processes one zone's trees one at a time and does not
look across sentences; the rules' limits are those of :mod:`eud.enhance`.
"""

from __future__ import annotations

from typing import Any

from udapi.core.block import Block

from eud.udapi.trees import to_sentence, write_enhanced


class Enhance(Block):
    """Replace each tree's enhanced graph with the one eud's rules build from its basic tree."""

    def __init__(self, lang: str | None = None, profile: str | None = None, repair: bool | str = True,
                 **kwargs: Any) -> None:
        """``lang``: language or treebank code (``en``, ``cs_cac``); or ``profile``: a profile TOML file."""
        super().__init__(**kwargs)
        from eud.enhance import Enhancer, find_profile, load_profile

        if bool(lang) == bool(profile):
            raise ValueError("eud.udapi.Enhance needs lang=CODE or profile=FILE (one of them)")
        chosen = load_profile(profile) if profile else find_profile(str(lang))
        self.enhancer = Enhancer(chosen, repair=str(repair).lower() not in ("0", "false", "no"))

    def process_tree(self, tree: Any) -> None:
        """Enhance one tree in place (a tree without words is left as it is)."""
        if not tree.descendants:
            return
        sentence = to_sentence(tree)
        self.enhancer.enhance(sentence)
        write_enhanced(tree, sentence)
