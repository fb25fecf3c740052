"""Figures of chapter 9, PCA-sphering.

Each function draws one figure of the chapter and returns the matplotlib
``Figure``; the notebook computes what is drawn and calls one function to draw
it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np

from mlrefined_lib import plotting

__all__ = [
    "sphering_stages",
    "uncorrelated_scatter",
    "digit_training_runs",
    "image_grid",
    "scree_and_reconstruction",
]


def sphering_stages(
    stages: Mapping[str, np.ndarray],
    eigenvalues,
    eigenvectors,
    *,
    xlim: tuple[float, float] = (-7, 9),
    ylim: tuple[float, float] = (-5, 7),
):
    """Four scatter plots of two-feature data, one per step of sphering
    (chapter 9).

    The second panel also draws the two eigenvectors of the covariance, each
    two standard deviations long in both directions.

    Parameters
    ----------
    stages : mapping of title -> array of shape (P, 2)
        Four stages, in order: raw, centred, rotated, sphered. The first two are
        labelled "feature 1/2", the last two "component 1/2".
    eigenvalues : array of shape (2,)
        Covariance eigenvalues, largest first.
    eigenvectors : array of shape (2, 2)
        The matching eigenvectors, in the columns.
    xlim, ylim : (low, high)
        The same limits for every panel.

    Returns
    -------
    matplotlib Figure
    """
    if len(stages) != 4:
        raise ValueError(f"stages must hold 4 arrays (raw, centred, rotated, sphered), got {len(stages)}.")
    fig, axes = plt.subplots(2, 2, figsize=(8, 7.4), sharex=True, sharey=True)
    axes = axes.ravel()
    for ax, (name, points), kind in zip(axes, stages.items(), ["feature"] * 2 + ["component"] * 2):
        ax.scatter(points[:, 0], points[:, 1], s=10, color="#4575b4", edgecolors="k", linewidths=0.2)
        ax.axhline(0, color="grey", lw=0.6)
        ax.axvline(0, color="grey", lw=0.6)
        ax.set_aspect("equal")
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        ax.set(title=name, xlabel=f"{kind} 1", ylabel=f"{kind} 2")
    for n, style in enumerate(["-", "--"]):
        arrow = 2 * np.sqrt(eigenvalues[n]) * np.asarray(eigenvectors)[:, n]
        axes[1].plot(
            [-arrow[0], arrow[0]],
            [-arrow[1], arrow[1]],
            style,
            color="#d7191c",
            lw=2.5,
            zorder=3,
            label=f"eigenvector {n + 1} (2 std each way)",
        )
    axes[1].legend(loc="upper left", fontsize=9)
    fig.suptitle("Sphering: centre, rotate onto the eigenvectors, divide by the standard deviations")
    fig.tight_layout()
    return fig


def uncorrelated_scatter(z, *, title: str = "Correlation 0, yet $z_{p,2}$ is almost a function of $z_{p,1}$"):
    """Scatter plot of two sphered features (chapter 9, uncorrelated is not
    independent).

    Parameters
    ----------
    z : array of shape (P, 2)
    title : str

    Returns
    -------
    matplotlib Figure
    """
    fig, ax = plt.subplots(figsize=(4.6, 3.6))
    ax.scatter(z[:, 0], z[:, 1], s=8, color="#4575b4", marker="o", label="sphered points")
    ax.set_xlabel("sphered feature $z_{p,1}$")
    ax.set_ylabel("sphered feature $z_{p,2}$")
    ax.set_title(title, fontsize=9)
    ax.legend(loc="upper center", fontsize=9)
    fig.tight_layout()
    return fig


def digit_training_runs(
    histories: Mapping[str, object],
    misclassified: Mapping[str, Sequence[int]],
    *,
    points: int,
):
    """Two panels for multiclass softmax runs on the digits (chapter 9): the
    training cost on a log scale, and the misclassified training images, against
    the step.

    Parameters
    ----------
    histories : mapping of label -> History
    misclassified : mapping of label -> sequence of int
        Misclassification count after each step of each run.
    points : int
        Number of training images, for the label of the right axis.

    Returns
    -------
    matplotlib Figure
    """
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.2, 3.2))
    plotting.cost_histories(
        histories, ax=left, log=True, title="Multiclass softmax cost, training set", ylabel="cost $g(w^t)$ (log scale)"
    )
    plotting.cost_histories(
        misclassified, ax=right, title="Misclassified training images", ylabel=f"misclassifications (of {points})"
    )
    fig.tight_layout()
    return fig


def image_grid(
    images,
    *,
    row_labels: Sequence[str],
    column_titles: Sequence[str],
    title: str,
    vmin: float | None = None,
    vmax: float | None = None,
    figsize: tuple[float, float] | None = None,
):
    """A grid of grey-scale images without ticks (chapter 9: whitened digits,
    digits rebuilt from k components).

    Parameters
    ----------
    images : array of shape (R, C, height, width)
        Row r, column c of the grid.
    row_labels : sequence of R str
        Written to the left of each row.
    column_titles : sequence of C str
        Written above the top row.
    title : str
        The figure's title.
    vmin, vmax : float, optional
        Grey scale limits shared by all images; by default each image uses its
        own range.
    figsize : (width, height), optional

    Returns
    -------
    matplotlib Figure
    """
    images = np.asarray(images)
    if images.ndim != 4:
        raise ValueError(f"images must have shape (rows, columns, height, width), got {images.shape}.")
    rows, columns = images.shape[:2]
    if len(row_labels) != rows or len(column_titles) != columns:
        raise ValueError(
            f"{rows} rows and {columns} columns need as many labels, got {len(row_labels)} and {len(column_titles)}."
        )
    fig, axes = plt.subplots(rows, columns, figsize=figsize or (1.4 * columns, 1.6 * rows + 0.4), squeeze=False)
    for r in range(rows):
        for c in range(columns):
            ax = axes[r, c]
            ax.imshow(images[r, c], cmap="gray_r", vmin=vmin, vmax=vmax)
            ax.set_xticks([])
            ax.set_yticks([])
            if r == 0:
                ax.set_title(column_titles[c], fontsize=9)
        axes[r, 0].set_ylabel(row_labels[r], fontsize=9)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def scree_and_reconstruction(
    ratios,
    training_errors,
    test_errors,
    *,
    total_variance: float,
    marked_k: int,
    fraction: float = 0.95,
):
    """Two panels for PCA as compression (chapter 9).

    Left: the explained variance ratio of each component as bars (the scree)
    and their cumulative sum on a second axis, with ``fraction`` and
    ``marked_k`` marked. Right: the mean squared reconstruction error per point
    against the number k of components, on the training points (from k = 0,
    where it is the total variance) and on the test points.

    Parameters
    ----------
    ratios : array of shape (N,)
        Explained variance ratio of each component, largest first.
    training_errors, test_errors : arrays of shape (N,)
        Reconstruction errors for k = 1, ..., N.
    total_variance : float
        The training error at k = 0.
    marked_k : int
        The k that keeps ``fraction`` of the variance.
    fraction : float

    Returns
    -------
    matplotlib Figure
    """
    ratios = np.asarray(ratios, dtype=float)
    k_values = np.arange(1, len(ratios) + 1)
    fig, (left, right) = plt.subplots(1, 2, figsize=(9.2, 3.3))
    left.bar(k_values, ratios, color="#91bfdb", edgecolor="k", linewidth=0.3, label="ratio of each component")
    twin = left.twinx()
    twin.plot(k_values, np.cumsum(ratios), "o-", ms=3, color="#d73027", label="cumulative (right axis)")
    twin.axhline(fraction, color="grey", ls="--", lw=1)
    twin.axvline(marked_k, color="grey", ls=":", lw=1)
    twin.annotate(
        f"{fraction:.0%} at k = {marked_k}",
        (marked_k, fraction),
        xytext=(marked_k + 3, 0.75),
        fontsize=9,
        arrowprops=dict(arrowstyle="->", lw=0.8),
    )
    twin.set_ylim(0, 1.02)
    twin.set_ylabel("cumulative fraction of the variance")
    left.set(xlabel="component k", ylabel="explained variance ratio",
             title="Digits: variance per component (scree) and cumulative")
    handles = left.get_legend_handles_labels()[0] + twin.get_legend_handles_labels()[0]
    left.legend(handles=handles, loc="center right", fontsize=9)
    right.plot(np.r_[0, k_values], np.r_[total_variance, training_errors], "o-", ms=3, label="training images")
    right.plot(k_values, test_errors, "s--", ms=3, label="test images (training PCA)")
    right.set_ylim(0, None)
    right.axvline(marked_k, color="grey", ls=":", lw=1)
    right.set(xlabel="number of components k", ylabel="mean squared error per image",
              title="Reconstruction error against k")
    right.legend(loc="upper right", fontsize=9)
    fig.tight_layout()
    return fig
