"""eud: a toolkit for enhanced Universal Dependencies.

Read and write CoNLL-U losslessly (:mod:`eud.conllu`), hold sentences with a
basic tree and an enhanced graph (:mod:`eud.graph`), validate and repair
enhanced graphs, convert basic trees to enhanced graphs, parse raw text, and
score systems the way the IWPT shared tasks did.
"""

from eud.conllu import ConlluError, format_sentence, parse_conllu, read_conllu, write_conllu
from eud.graph import ROOT, Edge, EmptyNode, EnhancedGraph, MultiwordToken, NodeId, Sentence, Word

__version__ = "0.1.0"

__all__ = [
    "ROOT",
    "ConlluError",
    "Edge",
    "EmptyNode",
    "EnhancedGraph",
    "MultiwordToken",
    "NodeId",
    "Sentence",
    "Word",
    "format_sentence",
    "parse_conllu",
    "read_conllu",
    "write_conllu",
]
