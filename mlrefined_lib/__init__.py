"""mlrefined_lib: the tested helper library of the book *Feature Engineering, Refined*.

Modules by topic (math separate from drawing):

* :mod:`~mlrefined_lib.costs` — cost functions of a linear model;
* :mod:`~mlrefined_lib.optimizers` — gradient descent (full and mini-batch) and Newton's method;
* :mod:`~mlrefined_lib.normalizers` — standard, min-max and PCA-sphering;
* :mod:`~mlrefined_lib.imputation` — filling gaps with training statistics;
* :mod:`~mlrefined_lib.polynomials` — polynomial features and interactions;
* :mod:`~mlrefined_lib.splines` — bins and splines;
* :mod:`~mlrefined_lib.model_selection` — learning curves and early stopping (chapter 4);
* :mod:`~mlrefined_lib.cross_validation` — folds, cross-validation and tuning (chapter 5);
* :mod:`~mlrefined_lib.comparison` — two models on the same folds or rows: corrected t-interval, McNemar (chapter 5);
* :mod:`~mlrefined_lib.guards` — :class:`MethodWarning`, issued when a tuning or comparison sees a fault of method;
* :mod:`~mlrefined_lib.histograms` — one-hot, bag of words, edge histograms, spectrograms;
* :mod:`~mlrefined_lib.selection` — feature selection by boosting;
* :mod:`~mlrefined_lib.regularization` — ridge, lasso and elastic-net paths;
* :mod:`~mlrefined_lib.importance` — permutation importance;
* :mod:`~mlrefined_lib.calibration` — reliability tables and the prior-shift correction;
* :mod:`~mlrefined_lib.pipeline` — splitting, resampling and a leak-free preprocessing pipeline;
* :mod:`~mlrefined_lib.plotting` — contour plots, cost histories, histograms;
* :mod:`~mlrefined_lib.widgets` — the book's sliders, the one name the chapters use for them;
* :mod:`~mlrefined_lib.live` — how those widgets are built: each computes its picture in the page;
* :mod:`~mlrefined_lib.datasets` — loaders for the book's ``datasets/``;
* :mod:`~mlrefined_lib.checks` — the checks that exercise cells call.

Private helpers: ``_validation`` holds the input checks every module shares
(shapes, finite values, names from a list, and ``check_scalar``, the one rule
for numeric arguments); ``static/`` holds the widgets' JavaScript front ends.
"""

import types

from .costs import (
    cross_entropy,
    least_absolute_deviations,
    least_squares,
    misclassifications,
    model,
    multiclass_softmax,
    softmax,
)
from .costs import class_probabilities, sigmoid
from .histograms import (
    bag_of_words,
    character_features,
    edge_histogram,
    edge_maps,
    hash_columns,
    hash_features,
    local_edge_histograms,
    one_hot,
    spectrogram,
    tfidf,
)
from .imputation import iterative_imputer, knn_imputer, make_missing, mean_imputer, missing_mask, missingness
from .model_selection import EarlyStoppingResult, LearningCurve, early_stopping, learning_curve
from .cross_validation import (
    CrossValidationResult,
    GridSearchResult,
    NestedCrossValidationResult,
    cross_validate,
    grid_search,
    k_fold,
    nested_cross_validate,
    time_folds,
)
from .comparison import (
    McNemarResult,
    PairedComparison,
    Replicates,
    TestScoreCheck,
    TestSetComparison,
    bootstrap_replicates,
    compare_fold_scores,
    compare_test_score,
    holm,
    mcnemar_test,
    paired_comparison,
    paired_test_set,
)
from .polynomials import (
    interaction_features,
    num_interactions,
    num_polynomial_features,
    polynomial_features,
    polynomial_powers,
)
from .splines import bin_features, spline_features
from .normalizers import explained_variance, minmax_normalizer, pca, pca_sphere, standard_normalizer
from .normalizers import box_cox, log_transform, quantile_transform, robust_normalizer, yeo_johnson
from .regularization import elastic_net_path, l1_path, ridge
from .pipeline import (
    Pipeline,
    decompose_datetimes,
    features_and_target,
    identifier_columns,
    random_oversample,
    smote,
    train_validation_test_split,
    uncommon_features,
    unseen_categories,
)
from .guards import MethodWarning
from .selection import BoostResult, boost, tuned_fit
from .importance import PermutationImportance, permutation_importance
from .calibration import ReliabilityTable, prior_shift, reliability_table
from .agreement import agreement_table
from .optimizers import (
    SCHEDULES,
    DivergenceWarning,
    History,
    MinibatchHistory,
    gradient_descent,
    learning_schedule,
    minibatch_gradient_descent,
    newtons_method,
)

__version__ = "0.1.0"

# Everything imported above is the package's public API, in the order of the imports.
__all__ = [name for name, value in globals().items()
           if not name.startswith("_") and not isinstance(value, types.ModuleType)]
