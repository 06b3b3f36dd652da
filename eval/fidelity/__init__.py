"""Fidelity and speed of the tools that judge output: the evaluator against the official scorer, the validator against udvalidate, byte-exact round trips, fuzzing."""
