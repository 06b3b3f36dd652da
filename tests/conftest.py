"""Shared test helpers: where the shared UD data is, how to skip without it, and a headless Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from eval.helpers.browser import Browser, chromium_path

REPO = Path(__file__).resolve().parents[1]
SHARED_UD = REPO.parent / "shared" / "data" / "ud"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def shared_files(pattern: str = "*/*.conllu.xz") -> list[Path]:
    """Treebank files under ../shared/data/ud matching ``pattern`` (empty when absent)."""
    if not SHARED_UD.is_dir():
        return []
    return sorted(SHARED_UD.glob(pattern))


def needs_shared(paths: list[Path]) -> None:
    """Skip the calling test, with a clear reason, when the shared data is missing."""
    if not paths:
        pytest.skip(f"shared UD data not found at {SHARED_UD} (it sits beside the repo in CI)")


@pytest.fixture
def fixtures() -> Path:
    """The folder of small hand-written CoNLL-U fixtures."""
    return FIXTURES


@pytest.fixture(scope="module")
def one_torch_thread():
    """Run a module's tests on one torch thread: two threads on a busy 2-core machine can be 50x slower."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for a test module; skips, saying why, when it is missing or cannot start."""
    if chromium_path() is None:
        pytest.skip("chromium is not installed (apt-get install -y --no-install-recommends chromium; .ci/run does it)")
    try:
        started = Browser()
    except (RuntimeError, OSError, ImportError) as err:
        pytest.skip(f"chromium could not start: {type(err).__name__}: {err}")
    with started as b:
        yield b
