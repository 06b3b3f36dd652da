"""eval.crossval on toy scorers whose cross-validated answer is known by hand."""

import pytest

from eval.crossval import best, cross_validate, fold_members


def accuracy_scorer(items):
    """Score a threshold t by the share of (x, label) items with (x >= t) == label."""
    def score(t, indices):
        return sum((items[i][0] >= t) == items[i][1] for i in indices) / len(indices)
    return score


def test_separable_threshold_is_found_in_every_fold():
    # Labels are x >= 5; every fold holds both sides, so every fold picks 5 and scores 1.0.
    items = [(x, x >= 5) for x in range(10)]
    folds = [x % 2 for x in range(10)]
    cv = cross_validate(folds, [0, 3, 5, 7], accuracy_scorer(items))
    assert cv.picks == [5, 5]
    assert cv.held == [1.0, 1.0]
    assert cv.mean == 1.0 and cv.sd == 0.0 and cv.optimism == 0.0
    assert cv.chosen_on_all == 5
    # Baseline threshold 0 calls everything positive: even x has 2 of 5 positives (6, 8), odd x 3 (5, 7, 9).
    assert cv.baseline_held == [0.4, 0.6]
    assert cv.gain == pytest.approx(0.5)


def test_optimism_of_a_choice_that_fits_noise():
    # Fold 0 rewards candidate "a", fold 1 rewards "b": each fold picks the other fold's
    # favourite, so the choosing score is 1 and the held score 0: optimism 1.
    table = {("a", 0): 1.0, ("a", 1): 0.0, ("b", 0): 0.0, ("b", 1): 1.0}
    folds = [0, 1]

    def score(c, indices):
        return sum(table[(c, folds[i])] for i in indices) / len(indices)

    cv = cross_validate(folds, ["a", "b"], score)
    assert cv.picks == ["b", "a"]
    assert cv.held == [0.0, 0.0]
    assert cv.choosing == [1.0, 1.0]
    assert cv.optimism == 1.0
    assert cv.chosen_on_all == "a"  # a tie on all folds goes to the first candidate
    assert cv.summary()["optimism"] == 1.0


def test_spread_and_custom_chooser():
    folds = [0, 0, 1, 1, 2, 2]
    values = [1, 1, 2, 2, 6, 6]

    def score(c, indices):
        return sum(values[i] for i in indices) / len(indices) + c

    cv = cross_validate(folds, [0, 1], score, choose=lambda indices: 0)
    assert cv.picks == [0, 0, 0]
    assert cv.held == [1.0, 2.0, 6.0]
    assert cv.mean == 3.0
    assert cv.sd == pytest.approx(2.6457513, rel=1e-6)
    # Choosing folds: {1,2}->4, {0,2}->3.5, {0,1}->1.5; mean 3.0 -> optimism 0.
    assert cv.optimism == pytest.approx(0.0)


def test_members_best_and_errors():
    assert fold_members([2, 0, 2, 1]) == {0: [1], 1: [3], 2: [0, 2]}
    assert best(["x", "y"], lambda c, idx: 1.0, [0]) == "x"
    with pytest.raises(ValueError):
        best([], lambda c, idx: 0.0, [0])
    with pytest.raises(ValueError):
        cross_validate([0, 0], ["x"], lambda c, idx: 0.0)
