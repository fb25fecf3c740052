"""The rounds of boosting, one at a time (chapter 10).

The reader moves the number of rounds m: features enter the model one by one
(the weight bars grow), and a point moves along the training cost and the
cross-validated cost of every round. Boosting on hundreds of rows with
cross-validation is more than a page should redo, so Python hands the page the
per-round numbers (the order of the features, their weights, the training
costs, the cross-validated means and standard errors) and the page computes
from them the model of round m (:meth:`mlrefined_lib.selection.BoostResult.full_weights`)
and what it draws.
"""

from __future__ import annotations

import numbers

import numpy as np
import traitlets

from .._esm import STATIC, module_text
from .._validation import check_scalar
from ._base import LiveWidget

#: The boosting-rounds widget of chapter 10.
BOOSTING_ESM_PATH = STATIC / "boosting_rounds.js"
BOOSTING_ANYWIDGET_ID = "mlrefined_lib.live.BoostingRounds"


class BoostingRounds(LiveWidget):
    """Boosting round by round: the weights of the model after ``rounds`` rounds, and its training
    and cross-validated costs; build it with :func:`boosting_rounds` (chapter 10). Synced value:
    ``rounds``."""

    anywidget_id = BOOSTING_ANYWIDGET_ID
    _esm = module_text("boosting_rounds.js")
    config = traitlets.Dict().tag(sync=True)
    rounds = traitlets.Int(0).tag(sync=True)

    def full_weights(self, rounds: int | None = None) -> np.ndarray:
        """Bias first, then one weight per feature (0 for those not chosen yet), after ``rounds`` rounds."""
        cfg = self.config
        m = self.rounds if rounds is None else rounds
        w = np.zeros(len(cfg["names"]) + 1)
        w[0] = cfg["weights"][0]
        w[1 + np.array(cfg["order"][:m], dtype=int)] = cfg["weights"][1 : m + 1]
        return w

    def description(self) -> str:
        cfg, m = self.config, self.rounds
        added = "the bias alone" if m == 0 else f"{m} feature(s), the last {cfg['names'][cfg['order'][m - 1]]}"
        return (f"{cfg['title']}, after round {m} ({added}): training cost {cfg['train'][m]:.4g}, cross-validated "
                f"cost {cfg['cv_means'][m]:.4g} ± {cfg['cv_errors'][m]:.3g}. Left, the weight of each feature in "
                f"the order boosting adds them; right, both costs against the round, with round {m} marked; the "
                f"lowest cross-validated mean is at round {cfg['best']} and the one-standard-error rule takes "
                f"round {cfg['chosen']}.")

    def to_png(self) -> bytes:
        import matplotlib.pyplot as plt

        from .. import plotting

        cfg, m = self.config, self.rounds
        order, names = cfg["order"], cfg["names"]
        weights = np.array(cfg["weights"][1:])
        shown = np.where(np.arange(len(order)) < m, weights, 0.0)
        fig, (left, right) = plt.subplots(1, 2, figsize=(8.8, 3.7))
        ypos = np.arange(len(order))[::-1]
        left.barh(ypos, shown, color=np.where(weights >= 0, "#2c7bb6", "#d7191c"))
        left.set_yticks(ypos, [names[n] for n in order])
        left.axvline(0, color="k", lw=0.8)
        span = np.abs(weights).max() * 1.1 or 1.0
        left.set(xlim=(-span, span), xlabel=cfg["weight_label"])
        left.set_title(f"round {m}: weights of the features added", fontsize=10)
        rounds = np.arange(len(cfg["train"]))
        right.plot(rounds, cfg["train"], "o-", color="#2c7bb6", ms=3, label=cfg["train_label"])
        right.errorbar(rounds, cfg["cv_means"], yerr=cfg["cv_errors"], fmt="s--", color="#e66101", ms=3,
                       capsize=2, label="cross-validated")
        right.plot([m, m], [cfg["train"][m], cfg["cv_means"][m]], "k", lw=0)
        right.scatter([m, m], [cfg["train"][m], cfg["cv_means"][m]], s=60, color="k", zorder=4)
        right.set(xlabel="round m", ylabel=cfg["cost_label"])
        right.legend(fontsize=9)
        right.set_title("cost after each round", fontsize=10)
        fig.tight_layout()
        return plotting.figure_to_png(fig, dpi=72)


def boosting_rounds(
    path,
    search,
    names,
    *,
    rounds: int = 0,
    cost_label: str = "mean squared error",
    weight_label: str = "weight (standardized input)",
    train_label: str = "training",
    title: str = "Boosting, round by round",
) -> BoostingRounds:
    """Build the boosting-rounds widget (chapter 10) from the library's results.

    Parameters
    ----------
    path : mlrefined_lib.BoostResult
        :func:`mlrefined_lib.selection.boost` on all the rows, R rounds: the order of the
        features, their weights and the training cost after each round.
    search : mlrefined_lib.GridSearchResult
        :func:`mlrefined_lib.cross_validation.grid_search` over the rounds ``0, 1, ..., R`` (in
        that order): the cross-validated cost of each round, its standard error,
        the lowest mean and the one-standard-error choice.
    names : sequence of str
        The names of the N features (the columns of the ``x`` boosted).
    rounds : int, 0 to R
        Initial number of rounds.

    Returns
    -------
    BoostingRounds

    Raises
    ------
    ValueError
        If ``search`` is not over the rounds 0 to R of ``path``, or ``names``
        does not have one name per feature.
    """
    num_rounds = len(path.order)
    if list(search.params) != list(range(num_rounds + 1)):
        raise ValueError(f"search must be over the rounds 0, 1, ..., {num_rounds} of path, in order; "
                         f"found params {list(search.params)!r}.")
    names = [str(n) for n in names]
    if len(names) != path.num_features:
        raise ValueError(f"names must hold one name per feature ({path.num_features}); found {len(names)}.")
    rounds = check_scalar(rounds, "rounds", numbers.Integral, min_val=0, max_val=num_rounds)
    values = [np.asarray(v, dtype=float) for v in (path.weights, path.costs, search.means, search.standard_errors)]
    if not all(np.all(np.isfinite(v)) for v in values):
        raise ValueError("the weights, costs, means and standard errors must be finite.")
    widget = BoostingRounds()
    widget.config = {
        "names": names, "order": [int(n) for n in path.order], "weights": values[0].tolist(),
        "train": values[1].tolist(), "cv_means": values[2].tolist(), "cv_errors": values[3].tolist(),
        "best": int(search.best_param), "chosen": int(search.one_standard_error_param),
        "cost": path.cost, "cost_label": str(cost_label), "weight_label": str(weight_label),
        "train_label": str(train_label), "title": str(title),
    }
    widget.rounds = int(rounds)
    return widget
