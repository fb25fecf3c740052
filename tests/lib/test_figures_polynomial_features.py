"""Tests of mlrefined_lib.figures.polynomial_features (chapter 4, Agg backend)."""

from types import SimpleNamespace

import numpy as np
import pytest
from search_results import grid_search_result

from mlrefined_lib.figures import polynomial_features as figures

GRID = np.linspace(-3, 3, 7)
TRUE = 0.5 * GRID**2
TRAIN = (np.array([-1.0, 0.0, 1.0]), np.array([1.0, 0.2, 1.4]))
VAL = (np.array([-2.0, 2.0]), np.array([2.1, 2.2]))
LIMITS = ((-3.2, 3.2), (-2.0, 13.0))


def test_fits_by_degree_draws_data_and_fits():
    fits = {"degree 1 fit": GRID + 1, "degree 2 fit": TRUE}
    fig = figures.fits_by_degree(GRID, TRUE, TRAIN, VAL, fits, ["a", "b"],
                                 *LIMITS)
    axes = fig.axes
    assert len(axes) == 2
    assert [ax.get_title() for ax in axes] == ["a", "b"]
    for ax, fit in zip(axes, fits.values()):
        assert ax.get_xlabel() == "input $x$"
        assert ax.get_ylabel() == "output $y$"
        assert ax.get_xlim() == LIMITS[0] and ax.get_ylim() == LIMITS[1]
        np.testing.assert_array_equal(ax.lines[0].get_ydata(), TRUE)
        np.testing.assert_array_equal(ax.lines[-1].get_ydata(), fit)
        np.testing.assert_array_equal(
            ax.collections[0].get_offsets(), np.column_stack(TRAIN))
        np.testing.assert_array_equal(
            ax.collections[1].get_offsets(), np.column_stack(VAL))
    labels = [t.get_text() for t in axes[0].get_legend().get_texts()]
    assert labels == ["true curve", "training", "validation", "degree 1 fit"]


def test_degree_slider_frames_move_the_fit_and_markers():
    fits = {1: GRID, 2: TRUE, 3: TRUE + 1}
    train_errors, val_errors = np.array([3.0, 1.0, 0.9]), np.array([2.8, 0.7,
                                                                    1.2])
    frame = figures.degree_slider_frames(GRID, TRUE, TRAIN, VAL, fits,
                                         train_errors, val_errors, 1.0,
                                         *LIMITS, (0.1, 1e8))
    fig = frame(2)
    assert fig is frame.figure
    left, right = fig.axes
    np.testing.assert_array_equal(left.lines[-1].get_ydata(), TRUE)
    assert left.get_title() == "degree 2: train MSE 1.000, validation MSE 0.7"
    np.testing.assert_array_equal(right.lines[0].get_ydata(), train_errors)
    np.testing.assert_array_equal(right.lines[1].get_ydata(), val_errors)
    assert list(right.lines[-2].get_data()[1]) == [1.0]
    assert list(right.lines[-1].get_data()[1]) == [0.7]
    assert right.get_ylim() == (0.1, 1e8) and right.get_xlim() == (0, 4)
    assert right.get_yscale() == "log"
    assert right.get_xlabel() == "degree"


def test_learning_curves_one_panel_per_curve():
    curve = SimpleNamespace(sizes=np.array([10, 20]),
                            train_errors=np.array([0.5, 0.8]),
                            validation_errors=np.array([30.0, 1.2]))
    fig = figures.learning_curves([curve, curve], ["one", "two"], 1.0)
    assert len(fig.axes) == 2
    assert [ax.get_title() for ax in fig.axes] == ["one", "two"]
    ax = fig.axes[0]
    np.testing.assert_array_equal(ax.lines[0].get_xdata(), [10, 20])
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), [30.0, 1.2])
    assert ax.get_ylim() == pytest.approx((0.2, 1e4))
    assert ax.get_ylabel() == "mean squared error (log scale)"
    assert ax.get_xlabel() == "training points $P$"


def test_bias_variance_draws_fits_and_parts():
    fits_low = np.column_stack([GRID, GRID + 1])
    fits_high = np.column_stack([TRUE, TRUE - 1])
    parts = np.array([[2.0, 0.1, 3.1], [0.0, 0.2, 1.2]])
    fig = figures.bias_variance(GRID, TRUE, fits_low, fits_high, ["lo", "hi"],
                                [1, 2], parts, 1.0, *LIMITS)
    left, right = fig.axes
    assert left.get_title() == "fits to 2 simulated training sets"
    np.testing.assert_array_equal(left.lines[1].get_ydata(), GRID + 1)
    np.testing.assert_array_equal(left.lines[3].get_ydata(), TRUE - 1)
    assert left.get_xlim() == LIMITS[0]
    np.testing.assert_array_equal(right.lines[0].get_ydata(), [2.0, 0.0])
    np.testing.assert_array_equal(right.lines[1].get_ydata(), [0.1, 0.2])
    np.testing.assert_allclose(right.lines[3].get_ydata(), [3.1, 1.2])
    np.testing.assert_array_equal(right.lines[4].get_ydata(), [3.1, 1.2])
    assert right.get_title() == "bias falls, variance grows"


def test_early_stopping_run_draws_costs_and_three_fits():
    costs, val = np.array([5.0, 2.0, 1.0, 0.8]), np.array([5.0, 2.0, 0.9, 1.5])
    fits = {"best": GRID, "last": TRUE, "exact": TRUE + 1}
    fig = figures.early_stopping_run(costs, val, 2, "run", GRID, TRUE, TRAIN,
                                     fits, *LIMITS)
    left, right = fig.axes
    assert left.get_title() == "run"
    np.testing.assert_array_equal(left.lines[0].get_ydata(), costs[1:])
    np.testing.assert_array_equal(left.lines[1].get_ydata(), val[1:])
    assert list(left.lines[2].get_data()[1]) == [0.9]
    assert [line.get_label() for line in right.lines[1:]] == list(fits)
    for line, fit in zip(right.lines[1:], fits.values()):
        np.testing.assert_array_equal(line.get_ydata(), fit)
    assert right.get_ylim() == LIMITS[1]
    assert "3 training points" in [t.get_text() for t in
                                   right.get_legend().get_texts()]


def test_noisy_validation_curve_marks_rise_and_best():
    val = np.array([3.0, 2.0, 2.5, 1.0, 1.2])
    fig = figures.noisy_validation_curve(val + 0.1, val, 2, 3)
    (ax,) = fig.axes
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), val)
    assert list(ax.lines[2].get_data()[0]) == [1]
    assert list(ax.lines[3].get_data()[1]) == [1.0]
    assert ax.get_ylim() == pytest.approx((0.3, 20))
    assert ax.get_xlabel() == "epoch"


def test_penalty_choice_marks_both_choices():
    lambdas = np.array([10.0, 1.0, 0.1])
    search = grid_search_result([3.0, 1.0, 1.2], [0.5, 0.4, 0.6], 1, 0)
    fig = figures.penalty_choice(lambdas, search, [2.0, 0.8, 0.5],
                                 [2.5, 1.1, 1.4], [2.4, 1.0, 1.3])
    (ax,) = fig.axes
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), [3.0, 1.0, 1.2])
    np.testing.assert_array_equal(ax.lines[3].get_ydata(), [2.4, 1.0, 1.3])
    assert list(ax.lines[4].get_data()[0]) == [10.0]
    assert list(ax.lines[5].get_data()[0]) == [1.0]
    assert ax.get_ylim() == pytest.approx((0.2, 25))
    assert ax.get_xscale() == "log"
    assert ax.get_title() == "ridge on degree 8, 15 points: choosing the penalty"


def test_why_validation_rises_one_panel_per_run_with_its_own_scale():
    falls = SimpleNamespace(train_costs=np.array([9.0, 3.0, 1.0, 0.5]),
                            validation_costs=np.array([9.0, 3.0, 1.2, 4.0]),
                            best_epoch=2)
    climbs = SimpleNamespace(train_costs=np.array([9.0, 8.0, 30.0, 900.0]),
                             validation_costs=np.array([9.0, 7.0, 20.0, 600.0]),
                             best_epoch=1)
    fig = figures.why_validation_rises([falls, climbs], ["overfitting", "too large a step"])
    left, right = fig.axes
    assert [ax.get_title() for ax in fig.axes] == ["overfitting", "too large a step"]
    for ax, run in zip(fig.axes, (falls, climbs)):
        assert ax.get_xscale() == ax.get_yscale() == "log"
        train, val, star = ax.lines
        np.testing.assert_array_equal(train.get_xdata(), [1, 2, 3])  # epoch 0 left out
        np.testing.assert_array_equal(train.get_ydata(), run.train_costs[1:])
        np.testing.assert_array_equal(val.get_ydata(), run.validation_costs[1:])
        assert list(star.get_xdata()) == [run.best_epoch]
        assert list(star.get_ydata()) == [run.validation_costs[run.best_epoch]]
        assert star.get_label() == f"best epoch ({run.best_epoch})"
    assert left.get_ylabel() == "mean squared error (log scale)"
    # each panel keeps its own scale
    assert right.get_ylim()[1] > 100 > left.get_ylim()[1]
