"""Benchmarks of ``eud serve``: load, faults and shutdown, on loopback only."""
