"""Chu-Liu/Edmonds with one root child, checked against brute force on tiny random inputs."""

from __future__ import annotations

import itertools

import pytest

np = pytest.importorskip("numpy")
from eud.nn.mst import chu_liu_edmonds, decode_tree, tree_score


def _is_tree(heads: tuple[int, ...], one_root: bool) -> bool:
    n = len(heads)
    full = (-1,) + heads
    if one_root and sum(1 for h in heads if h == 0) != 1:
        return False
    for start in range(1, n + 1):
        seen, v = set(), start
        while v != 0:
            if v in seen:
                return False
            seen.add(v)
            v = full[v]
    return True


def _brute(scores: np.ndarray, one_root: bool) -> float:
    n = scores.shape[0] - 1
    best = -np.inf
    for heads in itertools.product(range(n + 1), repeat=n):
        if any(h == d + 1 for d, h in enumerate(heads)) or not _is_tree(heads, one_root):
            continue
        best = max(best, sum(scores[d + 1, h] for d, h in enumerate(heads)))
    return best


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_decoders_match_brute_force(n: int) -> None:
    rng = np.random.default_rng(n)
    for _ in range(40):
        scores = rng.normal(size=(n + 1, n + 1))
        heads = decode_tree(scores)
        assert _is_tree(tuple(heads[1:].tolist()), one_root=True)
        assert tree_score(scores, heads) == pytest.approx(_brute(scores, True))
        free = chu_liu_edmonds(scores)
        assert _is_tree(tuple(free[1:].tolist()), one_root=False)
        assert tree_score(scores, free) == pytest.approx(_brute(scores, False))


def test_one_root_is_enforced() -> None:
    # Both words prefer the root; the best single-root tree hangs word 2 from word 1.
    scores = np.array([[0, 0, 0], [5, 0, 1], [5, 2, 0]], dtype=float)
    assert decode_tree(scores).tolist() == [-1, 0, 1]
    assert chu_liu_edmonds(scores).tolist() == [-1, 0, 0]


def test_cycle_is_broken() -> None:
    # 1 and 2 prefer each other (a cycle); contraction must break it at the cheaper place.
    scores = np.array([[0, 0, 0], [1, 0, 10], [3, 10, 0]], dtype=float)
    assert decode_tree(scores).tolist() == [-1, 2, 0]


def _every_root(scores: np.ndarray) -> float:
    """The one-root optimum by trying every root child (the search decode_tree prunes)."""
    best = -np.inf
    for r in range(1, scores.shape[0]):
        s = scores.copy()
        s[1:, 0] = -1e30
        s[r, 0] = scores[r, 0]
        best = max(best, tree_score(scores, chu_liu_edmonds(s)))
    return best


@pytest.mark.parametrize("n", [6, 15, 40])
def test_pruned_root_search_is_exact(n: int) -> None:
    rng = np.random.default_rng(100 + n)
    for _ in range(20):
        scores = rng.normal(size=(n + 1, n + 1))
        scores[:, 0] += 2.0  # many words prefer the root, so the one-root search is needed
        heads = decode_tree(scores)
        assert _is_tree(tuple(heads[1:].tolist()), one_root=True)
        assert tree_score(scores, heads) == pytest.approx(_every_root(scores))
