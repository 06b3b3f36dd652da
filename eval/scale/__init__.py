"""Benchmarks of scale: speed, start-up and memory of eud parse as users run it."""
