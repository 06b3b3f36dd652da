"""Gapping: the predicate elided in a coordinated clause, restored as an empty node.

The UD guidelines annotate gapping with ``orphan`` in the basic tree and an empty
node standing for the elided predicate in the enhanced graph
(https://universaldependencies.org/u/overview/specific-syntax.html#ellipsis,
https://universaldependencies.org/u/overview/enhanced-syntax.html#ellipsis).
This package holds everything about it that needs no neural network:

- :mod:`eud.gapping.rule`: the rule that builds the empty node from an ``orphan`` tree;
- :mod:`eud.gapping.correlates`: which word of the full clause each remnant contrasts with;
- :mod:`eud.gapping.checks`: shape checks that undo gapped clauses a parser posited where nothing was elided;
- :mod:`eud.gapping.repair`: the ordered tree repairs a parser's output goes through before the graph is built;
- :mod:`eud.gapping.dashes`: two of them, for gapped clauses a dash marks that the parser read without ``orphan``;
- :mod:`eud.gapping.augment`: synthetic gapped sentences for training.

Learned judges (``eud.nn.verifier``, ``eud.nn.parallelism``) live with the network and are
passed in; nothing here imports ``eud.nn``, torch or ``eud.enhance`` (the enhancer uses the rule).
"""
