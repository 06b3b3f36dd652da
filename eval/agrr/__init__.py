"""AGRR-2019, the Russian gapping shared task: its fixed split scored with its own metrics."""
