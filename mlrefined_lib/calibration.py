"""Predicted probabilities that mean what they say (chapter 13).

Resampling the training rows (oversampling, SMOTE, undersampling) changes the
share of each class the model sees, and its probabilities follow that share,
not the real one. Two tools:

* :func:`reliability_table` bins the predicted probabilities and compares each
  bin's mean prediction with how often the class really occurred there (the
  numbers behind a reliability diagram);
* :func:`prior_shift` corrects probabilities for a known change of class
  shares by Bayes' rule: ``p'_k ∝ p_k · π_k(true) / π_k(trained)``.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ._validation import check_scalar

__all__ = ["prior_shift", "ReliabilityTable", "reliability_table"]


def _as_probabilities(p, name: str) -> np.ndarray:
    arr = np.asarray(p, dtype=float)
    if arr.ndim not in (1, 2) or arr.size == 0:
        raise ValueError(f"{name} must be a 1-D array (probability of class 1) or a 2-D array (P, K) of class "
                         f"probabilities; found shape {arr.shape}.")
    if not np.all(np.isfinite(arr)) or np.any((arr < 0) | (arr > 1)):
        raise ValueError(f"{name} must hold probabilities in [0, 1]; found values outside (or NaN).")
    if arr.ndim == 2 and not np.allclose(arr.sum(axis=1), 1.0, atol=1e-6):
        raise ValueError(f"each row of {name} must sum to 1 (one probability per class); the first row that does "
                         f"not sums to {arr.sum(axis=1)[~np.isclose(arr.sum(axis=1), 1.0, atol=1e-6)][0]:.6g}.")
    return arr


def _as_prior(prior, classes: int, name: str) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(prior, dtype=float))
    if classes == 2 and arr.shape == (1,):
        arr = np.array([1 - arr[0], arr[0]])
    if arr.shape != (classes,) or np.any(arr <= 0) or np.any(arr >= 1) or not np.isclose(arr.sum(), 1.0):
        raise ValueError(f"{name} must be the share of class 1 (binary) or {classes} class shares in (0, 1) that "
                         f"sum to 1; found {prior!r}.")
    return arr


def prior_shift(probabilities, trained_prior, true_prior) -> np.ndarray:
    """Correct predicted probabilities for class shares that differ from training (chapter 13).

    A model fitted on rows where class k had share ``π_k(trained)`` (after
    oversampling, say) and used where it has share ``π_k(true)`` should report
    ``p'_k = p_k · w_k / Σ_j p_j · w_j`` with ``w_k = π_k(true)/π_k(trained)``.
    It assumes that resampling changed only the class shares, not what each
    class looks like (SMOTE's synthetic rows bend that a little).

    Parameters
    ----------
    probabilities : array of shape (P,) or (P, K)
        Probability of class 1 (binary) or of each class.
    trained_prior, true_prior : float or array of shape (K,)
        The share of class 1 (binary) or of every class, in the training
        rows the model saw and where it is used.

    Returns
    -------
    array of the same shape as ``probabilities``

    Raises
    ------
    ValueError
        For values outside [0, 1], rows that do not sum to 1, or priors that
        are not shares.
    """
    p = _as_probabilities(probabilities, "probabilities")
    classes = 2 if p.ndim == 1 else p.shape[1]
    weights = _as_prior(true_prior, classes, "true_prior") / _as_prior(trained_prior, classes, "trained_prior")
    if p.ndim == 1:
        return p * weights[1] / (p * weights[1] + (1 - p) * weights[0])
    shifted = p * weights
    return shifted / shifted.sum(axis=1, keepdims=True)


@dataclass(repr=False)
class ReliabilityTable:
    """Predicted against observed frequency, bin by bin (chapter 13).

    Attributes
    ----------
    edges : array of shape (B + 1,)
    counts : int array of shape (B,)
        Rows per bin (empty bins are kept, with NaN means).
    predicted : array of shape (B,)
        Mean predicted probability in each bin.
    observed : array of shape (B,)
        Share of rows of the class in each bin.
    """

    edges: np.ndarray
    counts: np.ndarray
    predicted: np.ndarray
    observed: np.ndarray

    @property
    def calibration_error(self) -> float:
        """Mean absolute gap between predicted and observed, weighted by the rows in each bin (the expected calibration error)."""
        used = self.counts > 0
        weights = self.counts[used] / self.counts[used].sum()
        return float(np.sum(weights * np.abs(self.predicted[used] - self.observed[used])))

    def __repr__(self) -> str:
        lines = [f"{'bin':>13s}{'rows':>7s}{'predicted':>11s}{'observed':>10s}"]
        for b in range(len(self.counts)):
            span = f"{self.edges[b]:.2f}-{self.edges[b + 1]:.2f}"
            if self.counts[b]:
                lines.append(f"{span:>13s}{self.counts[b]:>7d}{self.predicted[b]:>11.3f}{self.observed[b]:>10.3f}")
            else:
                lines.append(f"{span:>13s}{0:>7d}{'-':>11s}{'-':>10s}")
        lines.append(f"expected calibration error {self.calibration_error:.3f}")
        return "\n".join(lines)


def reliability_table(y, probabilities, bins: int = 10) -> ReliabilityTable:
    """Bin predicted probabilities into equal-width bins and compare with what happened (chapter 13).

    Bin b holds the rows whose probability lies in ``(b/B, (b+1)/B]`` (the first
    bin includes 0). Its mean prediction and its observed share of class 1
    are what scikit-learn's ``calibration_curve(strategy="uniform")`` returns
    for its non-empty bins.

    Parameters
    ----------
    y : array of shape (P,) of 0/1 labels
    probabilities : array of shape (P,)
        Predicted probability of class 1.
    bins : int >= 1

    Returns
    -------
    ReliabilityTable

    Raises
    ------
    ValueError
        For labels other than 0/1, probabilities outside [0, 1], or lengths that differ.
    """
    p = _as_probabilities(probabilities, "probabilities")
    if p.ndim != 1:
        raise ValueError(f"probabilities must be 1-D (probability of class 1); found shape {p.shape}.")
    labels = np.asarray(y, dtype=float)
    if labels.shape != p.shape:
        raise ValueError(f"y and probabilities must have one entry per row; found shapes {labels.shape} and {p.shape}.")
    if not np.all(np.isin(labels, (0.0, 1.0))):
        raise ValueError("y must hold 0/1 labels (1 for the class whose probability is given).")
    bins = check_scalar(bins, "bins", numbers.Integral, min_val=1)
    edges = np.linspace(0, 1, bins + 1)
    which = np.searchsorted(edges[1:-1], p, side="left")
    counts = np.bincount(which, minlength=bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        predicted = np.bincount(which, weights=p, minlength=bins) / counts
        observed = np.bincount(which, weights=labels, minlength=bins) / counts
    return ReliabilityTable(edges, counts, predicted, observed)
