"""The neural parser: one network for tags, lemmas, the basic tree and the enhanced graph.

Modules, one idea each: :mod:`vocab` (label inventories), :mod:`lemma` (edit
scripts), :mod:`labels` (delexicalised enhanced labels), :mod:`mst`
(Chu-Liu/Edmonds), :mod:`biaffine` (scorers), :mod:`encoders` (transformer,
character and word encoders), :mod:`batching` (sentences → tensors),
:mod:`network` (the network and its loss), :mod:`predict` (scores → sentences),
:mod:`package` (save/load a model folder), :mod:`train` (``eud train``).

Everything here imports torch; the rest of eud never imports this package
unless a neural command runs.
"""
