"""Checks that the exercise cells call, one module per chapter.

Each ``check_*`` function runs a student's function on fresh data, compares
the result with an independent reference and either prints a short
confirmation or raises :class:`CheckFailed` with a message that says what is
wrong and, where it can tell, why. A function that still raises
``NotImplementedError`` (the stub of the student edition) gets its own
message. Notebooks use them as ``from mlrefined_lib import checks`` then
``checks.check_least_squares_gradient(least_squares_gradient)``.

Every check is defined under ``@graded`` (in the private module
``_grading``: one-line failures, the library functions an exercise rules
out, tampering found and undone); the reference computations that several
chapters share are in ``_reference``. The nbgrader course does not trust the
student's process: it runs the same checks in nbgrader's process, with the
student's functions called in a child process (``_isolated``, wired into
``nbgrader autograde`` by ``_nbgrader``).
"""

import sys

from . import _grading
from ._grading import CheckFailed
from ._reference import check_close
from .ch01_gradient_descent import check_descend_until_flat, check_least_squares_gradient
from .ch02_stochastic_gradient_descent import check_minibatches, check_sgd_epoch
from .ch03_classification_costs import (
    check_cross_entropy_gradient,
    check_input_at_probability,
    check_multilabel_log_loss,
)
from .ch04_polynomial_features import (
    check_pair_products,
    check_polynomial_feature_count,
    check_softmax_early_stopping,
)
from .ch05_validation import check_contiguous_folds, check_one_standard_error_rule
from .ch06_histogram_features import (
    check_bag_of_words_by_hand,
    check_chord_peaks,
    check_collision_share,
    check_one_hot_by_hand,
    check_rotation_shift,
    check_spam_feature_groups,
    check_tfidf_by_hand,
    check_train_and_test,
)
from .ch07_standard_normalization import (
    check_equal_width_bins,
    check_largest_convergent_alpha,
    check_predictions,
    check_robust_scale,
    check_standardized_condition_number,
    check_stump,
    check_training_ranks,
)
from .ch08_imputation import (
    check_chained_equations,
    check_gap_shift,
    check_gappy_softmax,
    check_knn_fill,
    check_train_median_impute,
)
from .ch09_pca_sphering import (
    check_components_for_variance,
    check_diagonal_newton_step,
    check_hessian_condition_numbers,
    check_zca_whiten,
)
from .ch10_boosting import check_boost_by_residual, check_one_weight_newton
from .ch11_regularization import (
    check_group_rise,
    check_l1_proximal_step,
    check_pick_lambda,
    check_ridge_mean_form,
)
from .ch12_pipeline import check_date_features, check_encode_with_train_categories
from .ch13_imbalance_thresholds import check_matching_threshold, check_smote_one_class

__all__ = [
    "CheckFailed",
    "check_close",
    # chapter 1
    "check_least_squares_gradient",
    "check_descend_until_flat",
    # chapter 2
    "check_sgd_epoch",
    "check_minibatches",
    # chapter 3
    "check_cross_entropy_gradient",
    "check_input_at_probability",
    "check_multilabel_log_loss",
    # chapter 4
    "check_polynomial_feature_count",
    "check_pair_products",
    "check_softmax_early_stopping",
    # chapter 5
    "check_contiguous_folds",
    "check_one_standard_error_rule",
    # chapter 6
    "check_one_hot_by_hand",
    "check_collision_share",
    "check_chord_peaks",
    "check_bag_of_words_by_hand",
    "check_spam_feature_groups",
    "check_tfidf_by_hand",
    "check_rotation_shift",
    "check_train_and_test",
    # chapter 7
    "check_standardized_condition_number",
    "check_predictions",
    "check_largest_convergent_alpha",
    "check_robust_scale",
    "check_training_ranks",
    "check_equal_width_bins",
    "check_stump",
    # chapter 8
    "check_train_median_impute",
    "check_gappy_softmax",
    "check_knn_fill",
    "check_gap_shift",
    "check_chained_equations",
    # chapter 9
    "check_diagonal_newton_step",
    "check_hessian_condition_numbers",
    "check_zca_whiten",
    "check_components_for_variance",
    # chapter 10
    "check_boost_by_residual",
    "check_one_weight_newton",
    # chapter 11
    "check_l1_proximal_step",
    "check_ridge_mean_form",
    "check_pick_lambda",
    "check_group_rise",
    # chapter 12
    "check_date_features",
    "check_encode_with_train_categories",
    # chapter 13
    "check_smote_one_class",
    "check_matching_threshold",
]

# Snapshot of what the checks rely on, compared before every check (see _grading).
_grading.seal(sys.modules[__name__])
