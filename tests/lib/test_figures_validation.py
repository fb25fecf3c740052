"""Tests of mlrefined_lib.figures.validation (chapter 5, Agg backend)."""

import io

import numpy as np
import pytest
from search_results import grid_search_result

from mlrefined_lib import narrow
from mlrefined_lib.figures import validation as figures


def texts(ax):
    return [t.get_text() for t in ax.texts]


def png_width(fig):
    """Width in pixels of the figure as the notebooks show it (90 dpi, tight box)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    return int.from_bytes(buffer.getvalue()[16:20], "big")


# 9-point text at 90 dpi shown at 8 px: the widest PNG a phone's column shows readably.
PHONE_PNG_PX = narrow.PHONE_COLUMN_PX * (9 * 90 / 72) / narrow.MIN_PHONE_TEXT_PX


def test_field_map_default_lists_every_chapter_once():
    fig = figures.field_map()
    *columns, band = fig.axes
    assert len(columns) == 3
    assert fig._suptitle.get_text().startswith("where feature engineering sits")
    for ax in fig.axes:
        assert ax.get_xlim() == (0, 1) and ax.get_ylim() == (0, 1)
        assert not ax.axison
        assert len(ax.patches) == 1  # its box
        assert all(t.get_fontsize() >= 9 for t in ax.texts)
    for ax, (title, lines) in zip(columns, figures.FIELD_MAP.items()):
        assert texts(ax) == [title, *lines]
    assert texts(band) == figures.FIELD_BASE
    drawn = [t for ax in fig.axes for t in texts(ax)]
    numbers = [int(t.split()[0].split("-")[0]) for t in drawn
               if t[:1].isdigit()]
    assert sorted(numbers) == [1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]


def test_field_map_draws_the_given_columns():
    columns = {"a": ["one", "two"], "b": ["three"]}
    fig = figures.field_map(columns, ["base"])
    assert [texts(ax) for ax in fig.axes] == [["a", "one", "two"], ["b", "three"], ["base"]]
    # the band spans both columns
    assert fig.axes[2].get_subplotspec().colspan == range(0, 2)


def test_field_map_stacks_its_columns_on_a_phone():
    fig = figures.field_map()
    assert png_width(fig) > PHONE_PNG_PX  # too wide for a phone as it is ...
    cells, shape = narrow.panel_grid(fig)
    assert shape == (2, 3) and len(cells) == 4
    png = narrow.narrow_png(fig)  # ... so a phone gets its panels stacked
    assert png is not None and narrow._png_width(png) <= PHONE_PNG_PX


def test_one_standard_error_curve_draws_means_rule_and_choice():
    search = grid_search_result([30.0, 19.0, 18.8], [3.0, 2.0, 2.1], 2, 1, params=[1, 2, 3])
    fig = figures.one_standard_error_curve([1, 2, 3], search, "degree",
                                           "MSE", "title")
    (ax,) = fig.axes
    assert (ax.get_xlabel(), ax.get_ylabel(), ax.get_title()) == (
        "degree", "MSE", "title")
    means_line = ax.containers[0].lines[0]
    np.testing.assert_array_equal(means_line.get_xdata(), [1, 2, 3])
    np.testing.assert_array_equal(means_line.get_ydata(), [30.0, 19.0, 18.8])
    (rule,) = [line for line in ax.lines
               if line.get_label() == "best mean + its standard error"]
    assert rule.get_ydata()[0] == pytest.approx(20.9)
    (star,) = [line for line in ax.lines
               if line.get_label() == "one-standard-error choice"]
    assert list(star.get_xdata()) == [2] and list(star.get_ydata()) == [19.0]


def test_fold_counts_draws_one_bar_per_way_and_fold():
    fig = figures.fold_counts({"plain": [0, 5, 2], "stratified": [2, 3, 2]}, 7 / 3,
                              "rows of the class", "where the class lands")
    (ax,) = fig.axes
    plain, stratified = ax.containers
    assert [bar.get_height() for bar in plain] == [0, 5, 2]
    assert [bar.get_height() for bar in stratified] == [2, 3, 2]
    # side by side at each fold, the first way on the left of its fold
    assert all(a.get_x() < b.get_x() < a.get_x() + 1 for a, b in zip(plain, stratified))
    assert stratified[0].get_hatch() == "//" and plain[0].get_hatch() is None
    (share,) = [line for line in ax.lines if line.get_label().startswith("even share")]
    assert share.get_ydata()[0] == pytest.approx(7 / 3)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["even share: 2.33333", "plain", "stratified"]
    assert list(ax.get_xticks()) == [1, 2, 3]
    assert (ax.get_ylabel(), ax.get_title()) == ("rows of the class", "where the class lands")


class _Compared:
    def __init__(self, low, high, mean):
        self.interval, self.mean_difference = (low, high), mean


def test_paired_intervals_draws_each_interval_its_mean_and_zero_top_down():
    fig = figures.paired_intervals(["a − s", "b − s"], [_Compared(-1.1, 0.16, -0.47), _Compared(0.22, 2.91, 1.57)],
                                   "difference", "two questions")
    (ax,) = fig.axes
    bars = [line for line in ax.lines if line.get_label() == "95% interval" or line.get_linewidth() == 2.5]
    assert [tuple(b.get_xdata()) for b in bars] == [(-1.1, 0.16), (0.22, 2.91)]
    diamonds = [line for line in ax.lines if line.get_marker() == "D"]
    assert [float(d.get_xdata()[0]) for d in diamonds] == [-0.47, 1.57]
    assert any(tuple(line.get_xdata()) == (0, 0) for line in ax.lines)  # the line at 0
    assert ax.yaxis_inverted()  # the first label on top
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a − s", "b − s"]
    assert (ax.get_xlabel(), ax.get_title()) == ("difference", "two questions")


def test_paired_intervals_wants_a_label_per_comparison():
    with pytest.raises(ValueError, match="one label per comparison expected; found 1 labels and 2"):
        figures.paired_intervals(["a"], [_Compared(0, 1, 0.5), _Compared(0, 1, 0.5)], "x", "t")


def test_forward_chaining_draws_training_then_validation_and_scores():
    folds = [(np.arange(0, 10), np.arange(10, 15)), (np.arange(0, 15), np.arange(15, 20))]
    fig = figures.forward_chaining(folds, [3.25, 2.5], [0, 10], ["start", "later"], "day", "title")
    (ax,) = fig.axes
    widths = sorted((p.get_x(), p.get_width()) for p in ax.patches)
    assert widths == [(0, 10), (0, 15), (10, 5), (15, 5)]
    assert texts(ax) == ["MSE 3.2", "MSE 2.5"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["fold 1", "fold 2"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["start", "later"]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["training days", "validation days"]


@pytest.mark.parametrize("draw", [
    lambda: figures.fold_counts({"plain": [0, 5, 2, 3, 2, 3, 4, 1, 1, 3], "stratified": [2] * 10}, 2.3,
                                "snowy days in the fold", "Seattle weather, 10 folds: where the 23 snowy days land"),
    lambda: figures.paired_intervals(["grouped by model name", "grouped by maker"],
                                     [_Compared(-1.10, 0.16, -0.47), _Compared(0.22, 2.91, 1.57)],
                                     "grouped minus shuffled: MSE per car (mpg²)",
                                     "does grouping change the error? 95% paired intervals"),
    lambda: figures.forward_chaining(
        [(np.arange(0, 250 * i), np.arange(250 * i, 250 * i + 240)) for i in range(1, 6)],
        [18.0, 17.1, 16.4, 15.1, 15.7], [0, 365, 730, 1096, 1460],
        ["2012-01-01", "2012-12-31", "2013-12-31", "2015-01-01", "2015-12-31"], "day (Seattle, 2012–2015)",
        "forward chaining: every validation block follows its training"),
    lambda: figures.one_standard_error_curve(
        [1, 2, 3], grid_search_result([30.0, 19.0, 18.8], [3.0, 2.0, 2.1], 2, 1, params=[1, 2, 3]),
        "polynomial degree", "cross-validated MSE (mpg²)", "choosing the degree by 10-fold cross-validation"),
], ids=["fold_counts", "paired_intervals", "forward_chaining", "one_standard_error_curve"])
def test_single_panel_figures_fit_a_phone(draw):
    """Shown in a 390 px phone's column, the figure needs no sideways scroll and its text stays at 8 px or more."""
    assert png_width(draw()) <= PHONE_PNG_PX
