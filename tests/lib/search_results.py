"""A stand-in for a grid search's result, for the tests of the figures that draw one.

It holds what the figures read of a :class:`mlrefined_lib.cross_validation.GridSearchResult`
(the means, their standard errors and the two choices) with values a test picks, so the test
knows each drawn number without running a search.
"""

from __future__ import annotations

from types import SimpleNamespace


def grid_search_result(means, standard_errors, best_index: int, one_standard_error_index: int, params=None):
    """The means and standard errors per parameter and the indices of both choices; given ``params``,
    also the chosen values ``best_param`` and ``one_standard_error_param``."""
    result = SimpleNamespace(means=list(means), standard_errors=list(standard_errors), best_index=best_index,
                             one_standard_error_index=one_standard_error_index)
    if params is not None:
        result.best_param = params[best_index]
        result.one_standard_error_param = params[one_standard_error_index]
    return result
