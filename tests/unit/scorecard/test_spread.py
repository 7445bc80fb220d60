"""Mean and spread over seeds; a change against the base beyond run-to-run noise, or not."""

from __future__ import annotations

import pytest

from specsnap.scorecard.spread import Noise, bootstrap_interval, shift_of, spread_of


def test_spread_of_several_seeds() -> None:
    spread = spread_of([0.5, 0.75, 1.0])
    assert spread.count == 3 and spread.mean == pytest.approx(0.75)
    assert spread.stdev == pytest.approx(0.25)
    assert (spread.low, spread.high) == (0.5, 1.0)
    assert spread_of([0.4]).stdev is None
    with pytest.raises(ValueError):
        spread_of([])


def test_a_consistent_gain_over_enough_seeds_is_beyond_noise() -> None:
    pairs = [(0.75, 0.5), (0.875, 0.625), (0.75, 0.625), (1.0, 0.75), (0.875, 0.5)]
    shift = shift_of(pairs)
    assert shift.noise is Noise.BEYOND and shift.pairs == 5
    assert shift.mean == pytest.approx(0.25)
    assert shift.low is not None and shift.high is not None and 0 < shift.low < shift.high


def test_a_mixed_change_is_within_noise() -> None:
    pairs = [(0.75, 0.5), (0.5, 0.75), (0.625, 0.625), (0.875, 0.75), (0.5, 0.625)]
    shift = shift_of(pairs)
    assert shift.noise is Noise.WITHIN
    assert shift.low is not None and shift.high is not None and shift.low < 0 < shift.high


def test_a_consistent_loss_is_beyond_noise_too() -> None:
    shift = shift_of([(0.25, 0.75), (0.375, 0.75), (0.25, 0.625)])
    assert shift.noise is Noise.BEYOND and shift.high is not None and shift.high < 0


def test_too_few_seeds_give_no_verdict_and_no_interval() -> None:
    shift = shift_of([(1.0, 0.5), (1.0, 0.5)])
    assert shift.noise is Noise.TOO_FEW and shift.low is None and shift.mean == 0.5
    assert shift_of([]).noise is Noise.TOO_FEW


def test_identical_scores_are_no_change_whatever_the_count() -> None:
    assert shift_of([(0.5, 0.5)]).noise is Noise.NO_CHANGE
    assert shift_of([(0.5, 0.5), (0.25, 0.25), (1.0, 1.0)]).noise is Noise.NO_CHANGE


def test_the_bootstrap_is_a_pure_function_of_its_inputs() -> None:
    values = [0.1, -0.05, 0.2, 0.0, 0.15]
    assert bootstrap_interval(values, 500, 0.95, 0) == bootstrap_interval(values, 500, 0.95, 0)
    low, high = bootstrap_interval(values, 2000, 0.95, 0)
    assert min(values) <= low <= high <= max(values)
    narrow = bootstrap_interval(values, 2000, 0.5, 0)
    assert low <= narrow[0] <= narrow[1] <= high
