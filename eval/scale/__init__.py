"""Scale: peak memory against input size, Dask workers, and the Python API on many short texts."""
