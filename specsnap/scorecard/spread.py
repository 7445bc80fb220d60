"""Several seeds of one tier and agent: mean and spread, and whether a change is beyond noise.

Each seed reorders the sprint and the agent's model samples differently, so the same agent scores
differently from seed to seed. A change against the base branch is called *beyond run-to-run
noise* when the 95% bootstrap confidence interval of the mean paired difference (this commit
minus the base, seed by seed) excludes zero. The bootstrap is seeded, so the verdict is a pure
function of the scores. With fewer than `MIN_PAIRS` seeds evaluated on both sides no verdict is
given: a percentile bootstrap over two values is overconfident.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

MIN_PAIRS = 3
RESAMPLES = 2000
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Spread:
    """How a score varies over seeds: mean, sample standard deviation (None for one), range."""

    count: int
    mean: float
    stdev: float | None
    low: float
    high: float


def spread_of(values: Sequence[float]) -> Spread:
    """The spread of `values` (at least one)."""
    if not values:
        raise ValueError("the spread of no values is undefined")
    stdev = statistics.stdev(values) if len(values) > 1 else None
    return Spread(len(values), statistics.fmean(values), stdev, min(values), max(values))


class Noise(Enum):
    NO_CHANGE = "no change"
    WITHIN = "within run-to-run noise"
    BEYOND = "beyond run-to-run noise"
    TOO_FEW = "too few seeds to tell"


@dataclass(frozen=True)
class Shift:
    """The mean change against the base over `pairs` seeds, with its confidence interval."""

    pairs: int
    mean: float
    low: float | None
    high: float | None
    noise: Noise


def shift_of(
    pairs: Sequence[tuple[float, float]],
    *,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    min_pairs: int = MIN_PAIRS,
    seed: int = 0,
) -> Shift:
    """The shift from base to current over `(current, base)` pairs of the same seeds."""
    differences = [current - base for current, base in pairs]
    if not differences:
        return Shift(0, 0.0, None, None, Noise.TOO_FEW)
    mean = statistics.fmean(differences)
    if all(d == 0 for d in differences):
        return Shift(len(differences), 0.0, 0.0, 0.0, Noise.NO_CHANGE)
    if len(differences) < min_pairs:
        return Shift(len(differences), mean, None, None, Noise.TOO_FEW)
    low, high = bootstrap_interval(differences, resamples, confidence, seed)
    noise = Noise.BEYOND if low > 0 or high < 0 else Noise.WITHIN
    return Shift(len(differences), mean, low, high, noise)


def bootstrap_interval(
    values: Sequence[float], resamples: int, confidence: float, seed: int
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of `values`."""
    rng = random.Random(seed)
    n = len(values)
    means = sorted(statistics.fmean(rng.choices(values, k=n)) for _ in range(resamples))
    tail = (1 - confidence) / 2
    low = means[math.floor(tail * resamples)]
    high = means[math.ceil((1 - tail) * resamples) - 1]
    return low, high
