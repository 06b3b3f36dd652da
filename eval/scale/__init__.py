"""Scale: speed, start-up and memory of ``eud parse`` as users run it; peak memory against input size, Dask workers, and the Python API on many short texts."""
