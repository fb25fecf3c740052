"""Tests of mlrefined_lib.figures.imputation (chapter 8, Agg backend)."""

from types import SimpleNamespace

import numpy as np

from mlrefined_lib.figures import imputation as figures


def test_mean_fill_histograms_stacks_the_filled_entries():
    observed = np.array([22.0, 31.0, 33.0, 48.0])
    fig = figures.mean_fill_histograms(observed, 33.5, 3, np.arange(20, 60, 5),
                                       "x (feet)")
    left, right = fig.axes
    assert left.get_title() == "Observed entries only (4 houses)"
    assert right.get_title() == "After mean imputation"
    heights = [p.get_height() for p in left.patches]
    assert heights == list(np.histogram(observed, np.arange(20, 60, 5))[0])
    # the bin [30, 35) holds 2 observed entries and the 3 filled ones
    filled = [(p.get_x(), p.get_y(), p.get_height()) for p in right.patches
              if p.get_height() > 0 and p.get_hatch() == "//"]
    assert filled == [(30.0, 2.0, 3.0)]
    assert left.get_xlabel() == right.get_xlabel() == "x (feet)"
    assert left.get_ylabel() == "number of houses"
    legend = [t.get_text() for t in right.get_legend().get_texts()]
    assert legend == ["observed", "filled with the mean (3)"]


def test_nan_kinds_stacks_none_and_missing():
    fig = figures.nan_kinds(["a", "b (numeric)"], [10, 0], [2, 5], "t")
    (ax,) = fig.axes
    widths = [p.get_width() for p in ax.patches]
    lefts = [p.get_x() for p in ax.patches]
    assert widths == [10, 0, 2, 5] and lefts == [0, 0, 10, 0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert dict(zip(ax.get_yticks(), labels)) == {1: "a", 0: "b (numeric)"}
    assert ax.get_xscale() == "symlog"
    assert ax.get_title() == "t"


def test_filled_on_the_mean_draws_three_groups_and_the_fill_value():
    train = (np.array([100.0, 150.0]), np.array([30.0, 20.0]))
    filled = (np.array([104.5]), np.array([25.0]))
    test = (np.array([90.0]), np.array([33.0]))
    fig = figures.filled_on_the_mean(train, filled, test, 104.5)
    (ax,) = fig.axes
    for collection, data in zip(ax.collections, (train, test, filled)):
        np.testing.assert_array_equal(collection.get_offsets(),
                                      np.column_stack(data))
    assert list(ax.lines[0].get_xdata()) == [104.5, 104.5]
    assert (ax.get_xlabel(), ax.get_ylabel()) == (
        "horsepower", "fuel economy (miles per gallon)")


def test_imputer_comparison_draws_scores_and_pairs():
    scores = {"mean": SimpleNamespace(mean=40.0, standard_error=2.0),
              "5-NN": SimpleNamespace(mean=13.0, standard_error=1.0)}
    comparisons = {("mean", "5-NN"): SimpleNamespace(
        interval=(24.0, 30.0), mean_difference=27.0)}
    fig = figures.imputer_comparison(scores, comparisons, [("mean", "5-NN")])
    left, right = fig.axes
    points = left.containers[0].lines[0]
    np.testing.assert_array_equal(points.get_xdata(), [40.0, 13.0])
    assert [t.get_text() for t in left.get_yticklabels()] == ["mean", "5-NN"]
    np.testing.assert_array_equal(right.lines[0].get_xdata(), [24.0, 30.0])
    assert list(right.lines[1].get_xdata()) == [27.0]
    assert [t.get_text() for t in right.get_yticklabels()] == ["mean − 5-NN"]
    assert left.yaxis_inverted() and right.yaxis_inverted()


def test_nan_kinds_fits_a_phone_column():
    """The book shows a one-panel figure at 72% of its width or more (assets/figures.js): with 27 long
    labels the picture must stay within 342 / 0.72 = 475 px at the book's 90 dpi."""
    import io

    import matplotlib.pyplot as plt
    from PIL import Image

    labels = [f"Garage.Yr.Blt.{n} (numeric)" for n in range(27)]
    with plt.rc_context({"figure.dpi": 90, "font.size": 10}):
        fig = figures.nan_kinds(labels, np.full(27, 2000), np.full(27, 30),
                                "Ames housing: the two kinds of NaN, column by column")
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", bbox_inches="tight")
        plt.close(fig)
    width = Image.open(io.BytesIO(buffer.getvalue())).size[0]
    assert width * 0.72 <= 342, width
