"""Synthetic regression data shared by the tests of the costs and the optimizers."""

from __future__ import annotations

import numpy as np


def noisy_linear(seed, num_points: int, weights, *, bias: float, noise: float):
    """Inputs ``x`` of shape (num_points, len(weights)) drawn from a standard normal, and outputs
    ``bias + x @ weights`` plus Gaussian noise of scale ``noise``.

    ``seed`` is a seed or a ``np.random.Generator`` (then drawn from, in that order: x, then the noise).
    """
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(num_points, len(weights)))
    y = bias + x @ np.asarray(weights, dtype=float) + noise * rng.normal(size=num_points)
    return x, y
