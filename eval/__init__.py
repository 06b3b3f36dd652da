"""eud's benchmarks, one package per topic; each writes a JSON result under ``eval/results/``.

Run a benchmark as ``python -m eval.<topic>.<name>`` from the repository root.  Shared helpers
(paths, the CPU, the commit, writing a result) are in :mod:`eval.common`.
"""
