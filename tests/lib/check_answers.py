"""Right answers to every exercise check (one per check, in chapter order), for the contract test
(test_checks_contract.py) and the tests of the checks' hints (test_checks_hints.py).

Each is written independently of the check's own reference; several use the library where the
exercise allows it.
"""

from __future__ import annotations

import re
import warnings
from math import comb

import numpy as np

import mlrefined_lib as ml
from mlrefined_lib.histograms import hann_window
from mlrefined_lib.imputation import mean_imputer
from mlrefined_lib.normalizers import standard_normalizer


def x_ext(x):
    return np.column_stack([np.ones(len(x)), x])


# ---------------------------------------------------------------- chapter 1


def least_squares_gradient(x, y, w):
    x_tilde = x_ext(x)
    return 2.0 / len(x) * x_tilde.T @ (x_tilde @ w - y)


def descend_until_flat(gradient, w0, alpha, tol, max_its):
    w = np.array(w0, dtype=float)
    steps = 0
    while steps < max_its:
        direction = gradient(w)
        if np.linalg.norm(direction) <= tol:
            break
        w = w - alpha * direction
        steps += 1
    return w, steps


# ---------------------------------------------------------------- chapter 2


def sgd_step(x, y, w, alpha, p):
    """One stochastic gradient step of least squares on point p (a new array)."""
    residual = w[0] + x[p] @ w[1:] - y[p]
    return w - alpha * 2 * residual * np.concatenate([[1.0], x[p]])


def sgd_epoch(x, y, w, alpha, order):
    w = np.array(w, dtype=float)
    for p in order:
        w = sgd_step(x, y, w, alpha, p)
    return w


def batches(order, batch_size):
    """``order`` cut into consecutive batches of ``batch_size`` (the last one may be smaller)."""
    return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]


def minibatches(num_points, batch_size, rng):
    return batches(rng.permutation(num_points), batch_size)


# ---------------------------------------------------------------- chapter 3


def sigmoid(t):
    return 1 / (1 + np.exp(-t))


def cross_entropy_gradient(x, y, w):
    x_tilde = x_ext(x)
    return x_tilde.T @ (sigmoid(x_tilde @ w) - y) / len(x)


def input_at_probability(w, p):
    return (np.log(p / (1 - p)) - w[0]) / w[1]


def multilabel_log_loss(x, labels, weights):
    scores = x_ext(x) @ weights
    charges = np.where(labels == 1, np.log1p(np.exp(-scores)), np.log1p(np.exp(scores)))
    return charges.mean(axis=0).sum()


# ---------------------------------------------------------------- chapter 4


def num_features(n, q):
    return comb(n + q, q)


def pair_products(x):
    """Written with a mask over the outer products (independent of the check's scikit-learn reference)."""
    n = x.shape[1]
    upper = np.triu(np.ones((n, n), dtype=bool), k=1)   # row-major order: (0, 1), (0, 2), ..., (1, 2), ...
    return (x[:, :, None] * x[:, None, :])[:, upper]


def softmax_early_stopping(x_train, y_train, x_val, y_val, alpha, epochs):
    """Written with the library (independent of the check's plain-NumPy reference)."""
    classes = int(max(y_train.max(), y_val.max())) + 1
    g_train = ml.multiclass_softmax(x_train, y_train, classes)
    g_val = ml.multiclass_softmax(x_val, y_val, classes)
    result = ml.early_stopping(g_train, g_val, np.zeros((x_train.shape[1] + 1, classes)), alpha, epochs,
                               len(x_train))
    return result.best_weights, result.best_epoch


# ---------------------------------------------------------------- chapter 5


def contiguous_folds(num_points, k):
    everything = np.arange(num_points)
    sizes = [num_points // k + (1 if i < num_points % k else 0) for i in range(k)]
    start, folds = 0, []
    for size in sizes:
        val = everything[start : start + size]
        folds.append((np.setdiff1d(everything, val), val))
        start += size
    return folds


def one_standard_error_choice(means, errors):
    means = np.asarray(means)
    best = int(np.argmin(means))
    return int(np.flatnonzero(means <= means[best] + errors[best])[0])


# ---------------------------------------------------------------- chapter 6


def one_hot_by_hand(values, categories):
    encoded = np.zeros((len(values), len(categories)))
    for p, value in enumerate(values):
        if value not in categories:
            raise ValueError(f"unknown category {value!r}")
        encoded[p, categories.index(value)] = 1.0
    return encoded


def expected_collision_share(distinct, columns):
    return 1.0 - (1.0 - 1.0 / columns) ** (distinct - 1)


def magnitudes(signal):
    return np.abs(np.fft.rfft(signal * hann_window(signal.size)))


def chord_peaks(signal, rate, count):
    spectrum = magnitudes(signal)
    inner = np.arange(1, spectrum.size - 1)
    peaks = inner[(spectrum[inner] > spectrum[inner - 1]) & (spectrum[inner] >= spectrum[inner + 1])]
    strongest = peaks[np.argsort(spectrum[peaks])[::-1][:count]]
    return np.sort(np.fft.rfftfreq(signal.size, d=1 / rate)[strongest])


def word_counts(documents, vocabulary, stop_words, *, lower=True, drop=True):
    stop = set(stop_words) if drop else set()
    column = {word: v for v, word in enumerate(vocabulary)}
    counts = np.zeros((len(documents), len(vocabulary)))
    for p, document in enumerate(documents):
        text = document.lower() if lower else document
        for token in re.findall(r"[A-Za-z0-9]+", text):
            if token not in stop and token in column:
                counts[p, column[token]] += 1
    return counts


def unit_rows(counts):
    lengths = np.sqrt((counts**2).sum(axis=1, keepdims=True))
    return np.divide(counts, lengths, out=np.zeros_like(counts), where=lengths > 0)


def bag_of_words_by_hand(documents, vocabulary, stop_words):
    return unit_rows(word_counts(documents, vocabulary, stop_words))


def spam_prepare(x_train, x_test, *, log=True, stats="train"):
    train = np.log1p(x_train) if log else x_train
    test = np.log1p(x_test) if log else x_test
    if stats == "train":
        transform = ml.standard_normalizer(train)[0]
        return transform(train), transform(test)
    if stats == "own":
        return ml.standard_normalizer(train)[0](train), ml.standard_normalizer(test)[0](test)
    return train, test


def spam_train(x_train, y_train, x_test, y_test, alpha, steps, *, count_on="test", **options):
    train, test = spam_prepare(x_train, x_test, **options)
    history = ml.gradient_descent(ml.softmax(train, y_train), np.zeros(train.shape[1] + 1), alpha, steps)
    w = history.final_weights
    if count_on == "test":
        return w, ml.misclassifications(test, y_test)(w)
    return w, ml.misclassifications(train, y_train)(w)


def train_and_count_errors(x_train, y_train, x_test, y_test, alpha, steps):
    return spam_train(x_train, y_train, x_test, y_test, alpha, steps)


def idf_weights(source, *, smooth=True, outer_one=True, log=np.log, df=True):
    documents = source.shape[0]
    frequency = (np.count_nonzero(source, axis=0) if df else source.sum(axis=0)).astype(float)
    with np.errstate(divide="ignore"):
        ratio = (1.0 + documents) / (1.0 + frequency) if smooth else documents / frequency
    return log(ratio) + (1.0 if outer_one else 0.0)


def tfidf_by_hand(train_counts, test_counts):
    idf = idf_weights(train_counts)
    return unit_rows(train_counts * idf), unit_rows(test_counts * idf)


def shift_for_rotation(before, after):
    distances = [np.linalg.norm(np.roll(before, k) - after) for k in range(len(before))]
    return int(np.argmin(distances))


def train_and_test(features_train, y_train, features_test, y_test, alpha, epochs, batch_size):
    keep = features_train.std(axis=0) > 0
    normalize, _ = ml.standard_normalizer(features_train[:, keep])
    inputs_train, inputs_test = normalize(features_train[:, keep]), normalize(features_test[:, keep])
    classes = int(y_train.max()) + 1
    g = ml.multiclass_softmax(inputs_train, y_train, classes)
    history = ml.minibatch_gradient_descent(g, np.zeros((inputs_train.shape[1] + 1, classes)), alpha, epochs,
                                            batch_size, seed=0)
    mistakes = ml.misclassifications(inputs_test, y_test)(history.weights[-1])
    return 1 - mistakes / len(y_test)


# ---------------------------------------------------------------- chapter 7


def condition_number_of(z):
    eigenvalues = np.linalg.eigvalsh(2 / len(z) * x_ext(z).T @ x_ext(z))
    return eigenvalues.max() / eigenvalues.min()


def standardized_condition_number(x):
    return condition_number_of((x - x.mean(axis=0)) / x.std(axis=0))


PREDICTION_INPUTS = np.array([[1.0], [2.0]])
PREDICTION_EXPECTED = np.array([10.0, 20.0])


def predict(new_inputs):
    """check_predictions takes the inputs and the expected values too: PREDICTION_INPUTS, PREDICTION_EXPECTED."""
    return 10 * new_inputs[:, 0]


def largest_grid_alpha(x, gammas):
    x_ext = np.column_stack([np.ones(len(x)), x])
    limit = 2 / np.linalg.eigvalsh(2 / len(x) * x_ext.T @ x_ext).max()
    below = [10.0**-gamma for gamma in sorted(gammas) if 10.0**-gamma < limit]
    return below[0] if below else None


def robust_scale(x_train, x_new):
    median = np.median(x_train, axis=0)
    iqr = np.percentile(x_train, 75, axis=0) - np.percentile(x_train, 25, axis=0)
    return (x_new - median) / iqr


def training_ranks(x_train, x_new):
    return np.column_stack([np.searchsorted(np.sort(x_train[:, n]), x_new[:, n], side="right") / len(x_train)
                            for n in range(x_train.shape[1])])


def equal_width_bins(x_train, x_new, bins):
    edges = np.linspace(x_train.min(), x_train.max(), bins + 1)
    which = np.clip(np.searchsorted(edges, x_new, side="right") - 1, 0, bins - 1)
    return np.eye(bins)[which]


def stump(x_train, y_train, x_new):
    from sklearn.tree import DecisionTreeRegressor

    tree = DecisionTreeRegressor(max_depth=1).fit(x_train[:, None], y_train)
    return tree.predict(x_new[:, None])


# ---------------------------------------------------------------- chapter 8


def fill_with_training_medians(x_train, x_new):
    medians = np.nanmedian(x_train, axis=0)
    return np.where(np.isnan(x_train), medians, x_train), np.where(np.isnan(x_new), medians, x_new)


def train_softmax(x_train, y_train, normalize, alpha, steps):
    filled = mean_imputer(x_train)(x_train)
    if normalize:
        filled = standard_normalizer(filled)[0](filled)
    return ml.gradient_descent(ml.softmax(filled, y_train), np.zeros(x_train.shape[1] + 1), alpha, steps).costs


def knn_fill(x_train, x_new, k):
    filled = x_new.copy()
    for row in range(len(x_new)):
        gaps = np.isnan(x_new[row])
        if gaps.any():
            distances = np.sqrt(np.sum((x_train[:, ~gaps] - x_new[row, ~gaps]) ** 2, axis=1))
            nearest = np.argsort(distances)[:k]
            filled[row, gaps] = x_train[nearest][:, gaps].mean(axis=0)
    return filled


def gap_shift(x, column, other):
    gone = np.isnan(x[:, column])
    values = x[:, other]
    return (values[gone].mean() - values[~gone].mean()) / values.std()


def chained_equations(x, rounds):
    from sklearn.experimental import enable_iterative_imputer  # noqa: F401
    from sklearn.impute import IterativeImputer
    from sklearn.linear_model import LinearRegression

    imputer = IterativeImputer(estimator=LinearRegression(), max_iter=rounds, tol=0, initial_strategy="mean",
                               imputation_order="ascending")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                   # no early stop with tol=0: sklearn warns
        return imputer.fit_transform(x)


# ---------------------------------------------------------------- chapter 9


def diagonal_newton_step(x, y, w):
    x_tilde = x_ext(x)
    gradient = 2 / len(x) * x_tilde.T @ (x_tilde @ w - y)
    return w - gradient / (2 / len(x) * np.sum(x_tilde**2, axis=0))


def hessian_condition_numbers(x):
    def kappa(inputs):
        eigenvalues = np.linalg.eigvalsh(2 / len(inputs) * x_ext(inputs).T @ x_ext(inputs))
        return eigenvalues.max() / eigenvalues.min()

    standardized = ml.standard_normalizer(x)[0](x)
    return kappa(x), kappa(standardized), kappa(ml.pca_sphere(standardized)[0](standardized))


def zca_whiten(x_train, x_new, divide_by=np.sqrt, centre=True, stats_from_new=False, rotate_back=True, ddof=0):
    """Right with the defaults; the keywords make the typical mistakes."""
    source = x_new if stats_from_new else x_train
    mean = source.mean(axis=0)
    centred = source - mean
    eigenvalues, eigenvectors = np.linalg.eigh(centred.T @ centred / (len(source) - ddof))
    whitening = eigenvectors @ np.diag(1 / divide_by(eigenvalues))
    if rotate_back:
        whitening = whitening @ eigenvectors.T
    return ((x_new - mean) if centre else x_new) @ whitening


def components_for_variance(x, fraction):
    centred = x - x.mean(axis=0)
    eigenvalues = np.sort(np.linalg.eigvalsh(centred.T @ centred / len(x)))[::-1]
    cumulative = np.cumsum(eigenvalues / eigenvalues.sum())
    return int(np.argmax(cumulative >= fraction)) + 1


# ---------------------------------------------------------------- chapter 10


def boost_by_residual(x, y, rounds):
    residual = y - y.mean()
    order, weights = [], [y.mean()]
    for _ in range(rounds):
        scores = (x.T @ residual) ** 2 / np.sum(x**2, axis=0)
        scores[order] = -np.inf
        best = int(np.argmax(scores))
        weight = x[:, best] @ residual / (x[:, best] @ x[:, best])
        residual = residual - weight * x[:, best]
        order.append(best)
        weights.append(weight)
    return np.array(order), np.array(weights)


def one_weight_newton(offset, column, y):
    v = 0.0
    for _ in range(50):
        m = y * (offset + v * column)
        s = 1 / (1 + np.exp(m))
        step = -np.mean(y * column * s) / np.mean(column**2 * s * (1 - s))
        v -= step
    return v


# ---------------------------------------------------------------- chapter 11


def l1_proximal_step(w, t):
    return np.r_[w[0], np.sign(w[1:]) * np.maximum(np.abs(w[1:]) - t, 0.0)]


def ridge_by_hand(x, y, alpha):
    """Summed-cost ridge written out (the exercise rules out calling reg.ridge)."""
    x_tilde = x_ext(x)
    penalty = alpha * np.eye(x_tilde.shape[1])
    penalty[0, 0] = 0.0
    return np.linalg.lstsq(x_tilde.T @ x_tilde + penalty, x_tilde.T @ y, rcond=None)[0]


def ridge_mean_form(x, y, lam):
    return ridge_by_hand(x, y, len(x) * lam)


def pick_lambda(x_train, y_train, x_val, y_val, lams):
    path = ml.l1_path(x_train, y_train, lams)
    errors = [np.mean((w[0] + x_val @ w[1:] - y_val) ** 2) for w in path.weights]
    return lams[int(np.argmin(errors))], path.weights[int(np.argmin(errors))]


def group_rise(w, x, y, columns, order):
    shuffled = x.copy()
    shuffled[:, columns] = x[order][:, columns]
    return np.mean((w[0] + shuffled @ w[1:] - y) ** 2) - np.mean((w[0] + x @ w[1:] - y) ** 2)


# ---------------------------------------------------------------- chapter 12


def date_features(stamps):
    return np.column_stack([stamps.dt.year, stamps.dt.month, stamps.dt.hour, stamps.dt.day_of_week])


def encode_with_train_categories(train_values, new_values):
    categories = sorted(set(train_values))
    encoded = np.array([[1.0 if v == c else 0.0 for c in categories] for v in new_values])
    return encoded, categories


def smote_one_class(members, count, k, seed, *, self_included=False, neighbours_from_all=False, step=(0.0, 1.0)):
    """Right with the defaults; the keywords make the typical mistakes."""
    rng = np.random.default_rng(seed)
    distances = ((members[:, None] - members[None]) ** 2).sum(axis=2)
    order = np.argsort(distances, axis=1, kind="stable")
    if neighbours_from_all:
        near = order[:, 1:]
    else:
        near = order[:, :k] if self_included else order[:, 1:k + 1]
    start = rng.integers(len(members), size=count)
    chosen = near[start, rng.integers(near.shape[1], size=count)]
    t = rng.uniform(*step, size=count)[:, None]
    return members[start] + t * (members[chosen] - members[start])


def matching_threshold(theta, trained_share, true_share):
    # corrected odds = raw odds * (true odds / trained odds); solve for the raw threshold
    odds = theta / (1 - theta) * (trained_share / (1 - trained_share)) / (true_share / (1 - true_share))
    return odds / (1 + odds)
