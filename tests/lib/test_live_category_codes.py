"""The widget of chapter 6's categories page (a line over the categories' codes against one-hot):
what it ships and computes in Python. The page's side is tested in Chromium by
tests/book/test_widget_category_codes.py."""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from PIL import Image

from mlrefined_lib import live, widgets

LEVELS = ["O", "A", "B", "AB"]


@pytest.fixture(scope="module")
def blood():
    rng = np.random.default_rng(5)
    types = rng.choice(LEVELS, size=120)
    means = {"O": 2.0, "A": 5.0, "B": 1.0, "AB": 4.0}
    y = np.array([means[t] for t in types]) + rng.normal(scale=0.5, size=120)
    return types, y


def group_means(types, y):
    return np.array([y[types == t].mean() for t in LEVELS])


@pytest.mark.parametrize("codes", [(0, 1, 2, 3), (3, 0, 2, 1), (0.5, 2.5, 0.0, 1.75), (1, 1, 2, 2)])
def test_the_line_is_polyfit_over_the_codes_and_one_hot_the_group_means(blood, codes):
    types, y = blood
    widget = widgets.category_codes(types, y, levels=LEVELS, codes=codes)
    c = np.array([codes[LEVELS.index(t)] for t in types], dtype=float)
    slope, intercept = np.polyfit(c, y, 1)
    w, predictions, mse = widget.ordinal_fit()
    assert np.allclose(w, [intercept, slope], rtol=1e-10, atol=1e-12)
    assert np.allclose(predictions, intercept + slope * np.array(codes, dtype=float), rtol=1e-10)
    assert mse == pytest.approx(np.mean((intercept + slope * c - y) ** 2), rel=1e-10)
    means, one_hot_mse = widget.one_hot_fit()
    assert np.allclose(means, group_means(types, y), rtol=1e-10)
    assert one_hot_mse == pytest.approx(np.mean((group_means(types, y)[[LEVELS.index(t) for t in types]] - y) ** 2),
                                        rel=1e-10)
    assert mse >= one_hot_mse - 1e-12
    assert widget.codes == [float(v) for v in codes] and widget.first_code == codes[0]


def test_the_line_reaches_one_hot_only_when_the_means_lie_on_it(blood):
    types, y = blood
    means = group_means(types, y)
    widget = widgets.category_codes(types, y, levels=LEVELS, code_range=(0, 6))
    _, one_hot_mse = widget.one_hot_fit()
    in_order = np.argsort(np.argsort(means)).astype(float)  # the order of the means, evenly spaced
    assert widget.ordinal_fit(in_order)[2] > one_hot_mse * 1.01
    assert widget.ordinal_fit(in_order)[2] < widget.ordinal_fit([0, 1, 2, 3])[2]
    assert widget.ordinal_fit(means)[2] == pytest.approx(one_hot_mse, rel=1e-10)  # each code its mean
    assert widget.ordinal_fit(2.0 - 0.5 * means)[2] == pytest.approx(one_hot_mse, rel=1e-10)  # any affine map
    flat_w, flat, flat_mse = widget.ordinal_fit([2, 2, 2, 2])
    assert np.allclose(flat, y.mean()) and flat_mse == pytest.approx(np.var(y))
    assert np.allclose(flat_w, np.linalg.pinv(np.column_stack([np.ones(len(y)), np.full(len(y), 2.0)])) @ y)


def test_the_page_gets_the_rows_and_python_follows_the_codes(blood):
    types, y = blood
    types_before, y_before = types.copy(), y.copy()
    widget = widgets.category_codes(list(types), y, levels=LEVELS)
    assert np.array_equal(types, types_before) and np.array_equal(y, y_before)
    cfg = widget.config
    assert cfg["levels"] == LEVELS and cfg["y"] == y.tolist()
    assert [LEVELS[k] for k in cfg["index"]] == list(types)
    assert cfg["code_range"] == [0.0, 3.0] and cfg["step"] == 0.05
    assert cfg["variance"] == pytest.approx(np.var(y))
    widget.first_code = 2.5
    assert widget.codes == [2.5, 1.0, 2.0, 3.0]
    default = widgets.category_codes(types, y)  # levels sorted
    assert default.config["levels"] == sorted(LEVELS)
    assert isinstance(widget, live.CategoryCodes) and widget._anywidget_id == "mlrefined_lib.live.CategoryCodes"


def test_the_output_carries_a_png_with_alt_text(blood):
    widget = widgets.category_codes(*blood, levels=LEVELS, codes=(1, 3, 0, 2))
    bundle, metadata = widget._repr_mimebundle_()
    png = base64.b64decode(bundle["image/png"])
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width >= 600 and len(png) < 80_000
    alt = metadata["image/png"]["alt"]
    _, _, mse = widget.ordinal_fit()
    assert alt == bundle["text/plain"] == widget.description()
    assert "O = 1, A = 3, B = 0, AB = 2" in alt and f"{mse:.3g}" in alt and "whatever the codes" in alt


@pytest.mark.parametrize("kwargs, message", [
    (dict(levels=["O"]), "at least 2"),
    (dict(levels=["O", "A", "A", "B", "AB"]), "must not repeat"),
    (dict(levels=["O", "A", "B"]), "'AB' of the rows is not one of levels"),
    (dict(levels=["O", "A", "B", "AB", "A2"]), "none for 'A2'"),
    (dict(levels=LEVELS, codes=(0, 1, 2)), "4 finite numbers"),
    (dict(levels=LEVELS, codes=(0, 1, np.nan, 3)), "4 finite numbers"),
    (dict(levels=LEVELS, codes=(0, 1, 2, 9), code_range=(0, 3)), "lie in code_range"),
    (dict(levels=LEVELS, code_range=(3, 0)), "code_range"),
    (dict(levels=LEVELS, step=0.0), "step"),
    (dict(levels=LEVELS, step=5.0), "step must not exceed"),
    (dict(levels=LEVELS, ylim=(2, 2)), "ylim"),
])
def test_bad_settings_raise_value_error(blood, kwargs, message):
    with pytest.raises(ValueError, match=message):
        widgets.category_codes(*blood, **kwargs)


def test_bad_data_raise_value_error(blood):
    types, y = blood
    with pytest.raises(ValueError, match="120 entries but y has 119"):
        widgets.category_codes(types, y[:-1])
    with pytest.raises(ValueError, match="finite"):
        widgets.category_codes(types, np.where(y > 4, np.inf, y))
    with pytest.raises(ValueError, match="1-D"):
        widgets.category_codes(types.reshape(60, 2), y)
    with pytest.raises(ValueError, match="1-D"):
        widgets.category_codes("OAB", y)
    with pytest.raises(ValueError, match="cannot be sorted"):
        widgets.category_codes(["a", 1] * 60, y)
