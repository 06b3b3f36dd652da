"""Gapping: the rule and the parsers against treebank empty nodes, false alarms on text without gapping, and the fitted checks (verifier, orphan bias, parallelism)."""
