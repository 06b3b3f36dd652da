"""Maximum spanning trees: Chu-Liu/Edmonds with exactly one child of the root.

Scores are a square matrix ``scores[dep, head]`` over nodes ``0..n`` where
node 0 is the root; row 0 is ignored.  :func:`decode_tree` returns
``heads[1..n]`` (``heads[0]`` is -1) maximising the summed score under the UD
constraint that exactly one word hangs from the root.
"""

from __future__ import annotations

import numpy as np

NEG = -1e30


def _find_cycle(heads: np.ndarray) -> list[int] | None:
    """A cycle in a head array (node 0 is the root), or None."""
    n = len(heads)
    state = np.zeros(n, dtype=np.int8)  # 0 new, 1 on the current path, 2 done
    state[0] = 2
    for start in range(1, n):
        path = []
        v = start
        while state[v] == 0:
            state[v] = 1
            path.append(v)
            v = heads[v]
        if state[v] == 1:
            return path[path.index(v):]
        for u in path:
            state[u] = 2
    return None


def chu_liu_edmonds(scores: np.ndarray) -> np.ndarray:
    """The maximum spanning arborescence rooted at node 0 (any number of root children)."""
    n = scores.shape[0]
    s = scores.astype(np.float64, copy=True)
    np.fill_diagonal(s, NEG)
    s[0, :] = NEG
    s[0, 0] = 0.0
    heads = s.argmax(axis=1)
    heads[0] = -1
    cycle = _find_cycle(np.where(heads < 0, 0, heads))
    if cycle is None:
        return heads
    in_cycle = np.zeros(n, dtype=bool)
    in_cycle[cycle] = True
    outside = [v for v in range(n) if not in_cycle[v]]  # includes the root, at index 0
    c = len(outside)  # index of the contracted node
    cyc = np.array(cycle)
    out_arr = np.array(outside)
    sub = np.full((c + 1, c + 1), NEG)
    sub[:c, :c] = s[np.ix_(out_arr, out_arr)]
    # An outside word headed by the cycle: best cycle member as its head.
    to_cycle = s[np.ix_(out_arr, cyc)]  # [outside, cycle]
    sub[:c, c] = to_cycle.max(axis=1)
    best_head_in_cycle = cyc[to_cycle.argmax(axis=1)]
    # The cycle headed by an outside node: break the cycle where it gains most.
    gain = s[np.ix_(cyc, out_arr)] - s[cyc, heads[cyc]][:, None]  # [cycle, outside]
    sub[c, :c] = gain.max(axis=0)
    entering = cyc[gain.argmax(axis=0)]
    sub_heads = chu_liu_edmonds(sub)
    result = heads.copy()
    for i, v in enumerate(outside):
        if v == 0:
            continue
        h = sub_heads[i]
        result[v] = best_head_in_cycle[i] if h == c else outside[h]
    h = sub_heads[c]
    result[entering[h]] = outside[h]
    return result


def tree_score(scores: np.ndarray, heads: np.ndarray) -> float:
    """The summed score of a head array."""
    return float(scores[np.arange(1, len(heads)), heads[1:]].sum())


def decode_tree(scores: np.ndarray) -> np.ndarray:
    """The best tree with exactly one root child.

    Chu-Liu/Edmonds first; when its tree has several root children, the best
    one-root tree is the best over the choice of that child.  Candidates are
    tried in order of an upper bound (their root score plus every other word's
    best non-root head) and the search stops once no bound can beat the best
    tree found, so it stays exact while usually trying one or two.
    """
    n = scores.shape[0]
    heads = chu_liu_edmonds(scores)
    if n <= 2 or int((heads[1:] == 0).sum()) == 1:
        return heads
    words = scores[1:, 1:].astype(np.float64, copy=True)
    np.fill_diagonal(words, NEG)
    best_word_head = words.max(axis=1)  # each word's best non-root head
    bound = scores[1:, 0] + best_word_head.sum() - best_word_head
    best, best_score = heads, -np.inf
    for r in np.argsort(-bound) + 1:
        if bound[r - 1] <= best_score:
            break
        s = scores.astype(np.float64, copy=True)
        s[1:, 0] = NEG
        s[r, 0] = scores[r, 0]
        cand = chu_liu_edmonds(s)
        score = tree_score(scores, cand)
        if score > best_score:
            best, best_score = cand, score
    return best
