"""The decision-threshold widget of chapter 12: what it ships, what it computes in Python
(against scikit-learn's metrics), its checks and its still picture. The page's side is tested
in Chromium by tests/book/test_widget_threshold_curve.py."""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from PIL import Image
from sklearn.metrics import confusion_matrix, precision_recall_curve, precision_recall_fscore_support

from mlrefined_lib import live, widgets


@pytest.fixture(scope="module")
def scored():
    rng = np.random.default_rng(5)
    labels = rng.random(200) < 0.15
    scores = np.clip(0.25 * labels + rng.beta(2, 5, size=200), 0, 1)
    scores[:6] = scores[6:12]  # a few ties
    return scores, labels


def test_threshold_curve_ships_the_scores_and_labels(scored):
    scores, labels = scored
    widget = widgets.threshold_curve(scores, labels, threshold=0.4, positive="snow", negative="not snow",
                                     score_label="Pr(snow)", marks={"argmax": (0.5, 0.25)})
    cfg = widget.config
    assert cfg["scores"] == scores.tolist() and cfg["labels"] == labels.astype(int).tolist()
    assert cfg["range"] == [0.0, 1.0] and cfg["marks"] == {"argmax": [0.5, 0.25]}
    assert widget.threshold == 0.4 and widget.anywidget_id == "mlrefined_lib.live.ThresholdCurve"
    assert widgets.ThresholdCurve is live.ThresholdCurve


@pytest.mark.parametrize("threshold", [0.0, 0.2, 0.35, "tie", 0.6, 1.0])
def test_confusion_and_class_scores_equal_scikit_learn(scored, threshold):
    scores, labels = scored
    t = float(scores[3]) if threshold == "tie" else threshold
    widget = live.threshold_curve(scores, labels, threshold=t)
    called = scores >= t
    assert np.array_equal(widget.confusion(), confusion_matrix(labels, called, labels=[False, True]))
    p, r, f, _ = precision_recall_fscore_support(labels, called, labels=[False, True], zero_division=0)
    assert np.abs(widget.class_scores() - np.column_stack([p, r, f])).max() <= 1e-12


def test_the_curve_and_the_best_threshold_equal_scikit_learn(scored):
    scores, labels = scored
    widget = live.threshold_curve(scores, labels)
    precision, recall, thresholds = precision_recall_curve(labels, scores)
    mine = widget.curve()
    theirs = np.column_stack([thresholds, precision[:-1], recall[:-1]])[::-1]
    assert mine.shape == theirs.shape and np.abs(mine - theirs).max() <= 1e-12
    f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-12)
    best = np.argmax(f1[:-1])
    assert widget.best_threshold() == pytest.approx((thresholds[best], f1[best]), abs=1e-12)


def test_the_still_picture_and_its_alt_text(scored):
    scores, labels = scored
    widget = live.threshold_curve(scores, labels, threshold=0.3, positive="snow", negative="not snow", unit="days")
    bundle, metadata = widget._repr_mimebundle_()
    png = base64.b64decode(bundle["image/png"])
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width >= 600 and len(png) < 80_000
    alt = metadata["image/png"]["alt"]
    (tn, fp), (fn, tp) = confusion_matrix(labels, scores >= 0.3)
    assert alt == bundle["text/plain"] == widget.description()
    assert f"{tp} of the {tp + fn} snow days are found" in alt and f"{fp} of the {tn + fp} not snow days" in alt


def test_bad_input_raises_value_error(scored):
    scores, labels = scored
    with pytest.raises(ValueError, match=r"scores must be a 1-D array .* found shape \(2, 100\)"):
        live.threshold_curve(scores.reshape(2, 100), labels)
    with pytest.raises(ValueError, match="with NaN or inf"):
        live.threshold_curve(np.r_[scores[:-1], np.nan], labels)
    with pytest.raises(ValueError, match=r"labels must have the shape of scores \(200,\); found \(199,\)"):
        live.threshold_curve(scores, labels[:-1])
    with pytest.raises(ValueError, match=r"labels must be 0 or 1 .*found values such as \[0, 1, 2\]"):
        live.threshold_curve(scores, np.r_[labels[:-1], 2].astype(int))
    with pytest.raises(ValueError, match="labels must hold both classes; found only 0"):
        live.threshold_curve(scores, np.zeros(200))
    with pytest.raises(ValueError, match="threshold"):
        live.threshold_curve(scores, labels, threshold=1.5)
    with pytest.raises(ValueError, match="threshold"):
        live.threshold_curve(scores, labels, threshold=np.nan)
    with pytest.raises(ValueError, match=r"marks\['usual'\] must be \(precision, recall\)"):
        live.threshold_curve(scores, labels, marks={"usual": (0.5, 1.2)})
