"""Helpers shared by the tests and the benchmarks: Hypothesis strategies and fuzzed properties, and corrupted-file faults for validator differential tests."""
