"""The book's live widgets: sliders, choices and text boxes computed in the page (chapters 1 to 12).

Each widget ships what the page needs and an ES module computes the picture
for any value of its controls:

* :func:`quadratic_descent` (chapters 1, 7, 9): gradient descent on least squares;
* :func:`softmax_descent` (chapter 7): the softmax cost of blended inputs, its
  contours on a grid and the gradient-descent path;
* :func:`minibatch_descent` (chapter 2): mini-batch gradient descent with the
  library's seeded permutations;
* :func:`weight_scale` (chapter 3): the cost of ``w = s u`` for any ``s``;
* :func:`polynomial_fits` (chapter 4): each degree's fit, drawn as vectors;
* :func:`window_spectrogram` (chapter 6): the spectrogram for any window length;
* :func:`degree_folds` (chapter 5): the degree chosen by k-fold cross-validation,
  for any k and any seeded folds;
* :func:`boosting_rounds` (chapter 10): boosting's weights and costs round by round;
* :func:`penalty_geometry` (chapter 11): the exact lasso and ridge minimizers;
* :func:`category_codes` (chapter 6): a line over the categories' codes against one-hot.
* :func:`threshold_curve` (chapter 13): a decision threshold on the precision–recall
  curve, with the confusion matrix and each class's precision, recall and F1.
* :func:`text_features` (chapter 6): a typed sentence's bag of words, TF-IDF, similarities and score.
* :func:`edge_histograms` (chapter 6): per-patch edge histograms for any patch and block size.
* :func:`missing_values` (chapter 8): a share of one feature made missing (MCAR, MAR,
  MNAR) and filled by an imputer, against the truth.

One module per widget (``descent``, ``softmax``, ``minibatch``,
``weight_scale``, ``polynomials``, ``degree_folds``, ``spectrogram``, ``boosting``,
``penalty``, ``category_codes``, ``threshold``, ``missing_values``, ``text_features``,
``edge_histograms``); what they all
share is in ``_base``. Everything public is re-exported here, and every widget
keeps the ``_anywidget_id`` ``"mlrefined_lib.live.<class name>"`` whichever
module defines it. The rest of this docstring describes the first widget; the
others follow the same design (the same shipping of front ends, PNG fallback
and text description).

:func:`quadratic_descent` shows the contour plot of a least-squares cost of two
weights with the gradient-descent path on it. The reader drags the learning
rate (log scale), the number of steps, a blend of the inputs (raw →
standardized, or raw → standardized → sphered) and the starting point (click
or drag on the plot, or arrow keys), and the path is redrawn at once. Python
computes the quadratic form (:func:`blend_moments`) and the browser only
draws and iterates (the math is in ``mlrefined_lib/live/descent.py``).

**Where the front-end code comes from.** The widget is an ``anywidget``: its
front end is the ES module ``mlrefined_lib/static/quadratic_descent.js``,
shipped with the package (preceded by the code the widgets share,
``static/_shared.js``; see ``mlrefined_lib/_esm.py``).

* **JupyterLab 4 and Notebook 7**: the running kernel sends the module's text
  (the ``_esm`` trait, read from the installed package file) and anywidget's
  lab extension imports it. The code is the library's own file, sent by the
  kernel that the reader started.
* **The static book** (no kernel): the page's widget state also holds that
  text, but it is never evaluated. The book's loader,
  ``assets/widget-loader.js``, finds each widget by its ``_anywidget_id`` and
  imports the copy of its module that the book serves itself
  (``_static/vendor/mlrefined/``, written by ``tools/vendor_assets.py`` with
  ``mlrefined_lib._esm.module_text``, so it is the same text the kernel
  sends); any other anywidget gets a module that only says it needs a kernel.
* **No JavaScript**, or a notebook opened before it is run: the output also
  carries a PNG of the initial view (``image/png``, its alt text in the
  output's metadata) and a text description; in the built book,
  ``_ext/live_fallback.py`` puts that PNG in a ``<noscript>`` next to the view.

The controls sync their value to the kernel only when released (``change``),
and redraw locally on every ``input`` event.
"""

from __future__ import annotations

# The module constants (STATIC, ESM_PATH, the *_ANYWIDGET_ID, SOFTMAX_GRID, ...) are re-exported
# for the tests, tools and front-end notes that name them; they are not in __all__.
from .._esm import STATIC
from ._base import LiveWidget
from .boosting import BOOSTING_ANYWIDGET_ID, BOOSTING_ESM_PATH, BoostingRounds, boosting_rounds
from .degree_folds import (DEGREE_FOLDS_ANYWIDGET_ID, DEGREE_FOLDS_ESM_PATH, DegreeFolds, degree_folds,
                           shuffled_folds, shuffled_order)
from .descent import ANYWIDGET_ID, ESM_PATH, QuadraticDescent, _moments_at, blend_moments, quadratic_descent
from .minibatch import MINIBATCH_ANYWIDGET_ID, MinibatchDescent, minibatch_descent
from .penalty import PENALTY_ANYWIDGET_ID, PENALTY_ESM_PATH, PenaltyGeometry, penalized_minimizers, penalty_geometry
from .polynomials import POLYNOMIAL_ANYWIDGET_ID, POLYNOMIAL_ESM_PATH, PolynomialFits, polynomial_fits
from .softmax import SOFTMAX_ANYWIDGET_ID, SOFTMAX_GRID, SoftmaxDescent, softmax_descent
from .spectrogram import SPECTROGRAM_ANYWIDGET_ID, SPECTROGRAM_ESM_PATH, WindowSpectrogram, window_spectrogram
from .weight_scale import WEIGHT_SCALE_ANYWIDGET_ID, WEIGHT_SCALE_ESM_PATH, WeightScale, weight_scale
from .category_codes import CATEGORY_CODES_ANYWIDGET_ID, CATEGORY_CODES_ESM_PATH, CategoryCodes, category_codes
from .threshold import THRESHOLD_ANYWIDGET_ID, THRESHOLD_ESM_PATH, ThresholdCurve, threshold_curve
from .missing_values import (MISSING_VALUES_ANYWIDGET_ID, MISSING_VALUES_ESM_PATH, MissingValues, missing_order,
                             missing_rows, missing_values)
from .text_features import TEXT_FEATURES_ANYWIDGET_ID, TEXT_FEATURES_ESM_PATH, TextFeatures, text_features
from .edge_histograms import EDGE_HISTOGRAMS_ANYWIDGET_ID, EDGE_HISTOGRAMS_ESM_PATH, EdgeHistograms, edge_histograms

__all__ = ["QuadraticDescent", "quadratic_descent", "blend_moments", "SoftmaxDescent", "softmax_descent",
           "PenaltyGeometry", "penalty_geometry", "penalized_minimizers", "PolynomialFits", "polynomial_fits",
           "MinibatchDescent", "minibatch_descent", "WeightScale", "weight_scale",
           "WindowSpectrogram", "window_spectrogram", "DegreeFolds", "degree_folds", "shuffled_folds",
           "shuffled_order", "BoostingRounds", "boosting_rounds",
           "CategoryCodes", "category_codes",
           "ThresholdCurve", "threshold_curve",
           "MissingValues", "missing_values", "missing_order", "missing_rows",
           "TextFeatures", "text_features",
           "EdgeHistograms", "edge_histograms",
           ]
