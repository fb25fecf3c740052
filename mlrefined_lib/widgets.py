"""The book's live widgets: sliders, choices and text boxes computed in the page (chapters 1 to 12).

Every teaching slider of the book is a widget of :mod:`mlrefined_lib.live`:
Python computes what the page needs (moments, data, permutations, fitted
weights, a signal) and the page's own module computes the picture for any
value of the slider, in Jupyter and in the static HTML book alike (see
:mod:`mlrefined_lib.live` for how the front ends are shipped). This module
is the one name the chapters use for them, ``widgets``.
"""

from __future__ import annotations

from .live import (  # the continuous widgets, re-exported
    BoostingRounds,
    DegreeFolds,
    MinibatchDescent,
    PenaltyGeometry,
    PolynomialFits,
    QuadraticDescent,
    SoftmaxDescent,
    WeightScale,
    WindowSpectrogram,
    CategoryCodes,
    category_codes,
    boosting_rounds,
    degree_folds,
    minibatch_descent,
    penalty_geometry,
    polynomial_fits,
    quadratic_descent,
    softmax_descent,
    weight_scale,
    window_spectrogram,
    ThresholdCurve,
    threshold_curve,
)
from .live import MissingValues, missing_values  # chapter 8
from .live import TextFeatures, text_features  # chapter 6, text
from .live import EdgeHistograms, edge_histograms

__all__ = [
    "quadratic_descent", "QuadraticDescent",
    "softmax_descent", "SoftmaxDescent",
    "minibatch_descent", "MinibatchDescent",
    "weight_scale", "WeightScale",
    "polynomial_fits", "PolynomialFits",
    "window_spectrogram", "WindowSpectrogram",
    "penalty_geometry", "PenaltyGeometry",
    "degree_folds", "DegreeFolds",
    "boosting_rounds", "BoostingRounds",
    "category_codes", "CategoryCodes",
    "threshold_curve", "ThresholdCurve",
    "missing_values", "MissingValues",
    "text_features", "TextFeatures",
    "edge_histograms", "EdgeHistograms",
]
