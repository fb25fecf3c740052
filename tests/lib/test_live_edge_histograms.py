"""The edge-histogram widget of chapter 6 (patch and block size): what it ships and computes in
Python. The page's side is tested in Chromium by tests/book/test_widget_edge_histograms.py."""

from __future__ import annotations

import base64
import io
import json

import numpy as np
import pytest
from PIL import Image

from mlrefined_lib import live, widgets
from mlrefined_lib.histograms import edge_histogram, local_edge_histograms


@pytest.fixture(scope="module")
def pictures():
    rng = np.random.default_rng(5)
    ring = np.hypot(*np.mgrid[-13.5:14, -13.5:14]) - 8
    ring = np.clip(1.5 - np.abs(ring), 0, 1)  # a bright ring on dark paper
    square = np.ones((28, 28))
    square[6:20, 9:23] = 0.3  # a dark square on white paper
    return [("ring", ring), ("square", square), ("noise", rng.random((28, 28)))]


def test_the_page_gets_the_pixels_exactly(pictures):
    widget = widgets.edge_histograms(pictures, patch=4, block=3, image=1)
    config = json.loads(json.dumps(widget.config))  # what the page parses
    for (name, image), entry in zip(pictures, config["images"]):
        assert entry["name"] == name and (entry["rows"], entry["columns"]) == image.shape
        assert np.array_equal(np.array(entry["pixels"]).reshape(image.shape), image)
    assert [e["dark_paper"] for e in config["images"][:2]] == [True, False]
    assert (widget.patch, widget.block, widget.image) == (4, 3, 1)
    assert config["bins"] == 8 and config["max_block"] == 3 and config["min_patch"] == 2


@pytest.mark.parametrize("patch, block", [(2, 1), (2, 3), (5, 2), (7, 2), (9, 3), (14, 2), (28, 1)])
def test_features_are_local_edge_histograms_of_the_shown_image(pictures, patch, block):
    widget = widgets.edge_histograms(pictures, patch=patch, block=block, image=2)
    expected = local_edge_histograms(pictures[2][1], patch=patch, block=block)
    assert np.array_equal(widget.features(), expected)
    side = 28 // patch
    assert widget.feature_length() == expected.size == (side - block + 1) ** 2 * block**2 * 8


def test_patch_totals_are_the_unscaled_patch_histograms(pictures):
    widget = widgets.edge_histograms(pictures, patch=7, block=1, image=0)
    totals = widget.patch_totals()
    assert totals.shape == (4, 4, 8)
    per_patch = local_edge_histograms(pictures[0][1], patch=7, block=1).reshape(4, 4, 8)
    lengths = np.linalg.norm(totals, axis=2, keepdims=True)
    assert np.allclose(totals / np.where(lengths > 0, lengths, 1), per_patch, atol=1e-12)
    whole = widget.patch_totals(patch=28)[0, 0]
    assert np.allclose(whole / np.linalg.norm(whole), edge_histogram(pictures[0][1]), atol=1e-12)
    # one patch over the whole image: the feature vector is the image's edge histogram
    assert np.allclose(widget.features(patch=28, block=1), edge_histogram(pictures[0][1]), atol=1e-12)


@pytest.mark.parametrize("kwargs, message", [
    (dict(images=[]), "1 to 6"),
    (dict(images=42), "sequence of (name, image)"),
    (dict(images=[np.zeros((28, 28))]), "pair (name, image)"),
    (dict(images=[("a", np.zeros((28, 28, 3)))]), "2-D grey-scale"),
    (dict(images=[("a", np.full((28, 28), "x"))]), "2-D grey-scale"),
    (dict(images=[("a", np.full((28, 28), np.nan))]), "NaN or inf"),
    (dict(images=[("a", np.zeros((28, 28))), ("b", np.zeros((20, 28)))]), "shape of the first"),
    (dict(images=[("a", np.zeros((100, 100)))]), "2 to 96 pixels"),
    (dict(images=[("a", np.zeros((28, 28)))], patch=29), "patch"),
    (dict(images=[("a", np.zeros((28, 28)))], patch=1), "patch"),
    (dict(images=[("a", np.zeros((28, 28)))], patch=10, block=3), "patch * block must be at most 28"),
    (dict(images=[("a", np.zeros((28, 28)))], block=0), "block"),
    (dict(images=[("a", np.zeros((28, 28)))], block=4), "block"),
    (dict(images=[("a", np.zeros((28, 28)))], bins=1), "bins"),
    (dict(images=[("a", np.zeros((28, 28)))], image=1), "image"),
    (dict(images=[("a", np.zeros((28, 28)))], min_patch=8, max_block=4, patch=8, block=1), "min_patch * max_block"),
])
def test_bad_input_gets_a_clear_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        widgets.edge_histograms(**kwargs)


def test_the_still_picture_and_its_alt_text(pictures):
    widget = widgets.edge_histograms(pictures, patch=5, block=2, image=0)
    bundle, metadata = widget._repr_mimebundle_()
    image = Image.open(io.BytesIO(base64.b64decode(bundle["image/png"])))
    assert image.width >= 600 and metadata["image/png"]["alt"] == widget.description()
    text = widget.description()
    assert "ring (28 × 28 pixels)" in text and "5 × 5 patches of 5 × 5 pixels" in text
    assert "(159 pixels at the right and bottom unused)" in text  # 784 - 25 * 25
    assert f"{local_edge_histograms(pictures[0][1], 5, 2).size} numbers" in text
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == widget.model_id
    assert widget._anywidget_id == live.EDGE_HISTOGRAMS_ANYWIDGET_ID == "mlrefined_lib.live.EdgeHistograms"
