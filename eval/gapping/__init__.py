"""Gapping benchmarks under one protocol: fixed folds over the GAPPING corpus, every choice made inside them."""
