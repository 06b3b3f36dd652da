"""udapi blocks that run eud inside a ``udapy`` chain.

Two blocks, named with udapi's leading dot for blocks outside udapi::

    udapy read.Conllu files=in.conllu .eud.udapi.Enhance lang=en write.Conllu > out.conllu
    udapy read.Conllu files=in.conllu .eud.udapi.Parse lang=en write.Conllu > out.conllu

:class:`~eud.udapi.enhance.Enhance` runs eud's rule-based enhancer,
:class:`~eud.udapi.parse.Parse` eud's parser; :mod:`eud.udapi.trees` moves
sentences between udapi trees and eud sentences.  Both blocks write the
enhanced graph into ``node.deps``, so the next block in the chain sees it
there (and in ``node.raw_deps``, which udapi derives from ``deps``).
"""
