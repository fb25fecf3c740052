"""Tests of Holm's step-down adjustment (chapter 5's counting of comparisons)."""

import itertools

import numpy as np
import pytest

import mlrefined_lib as ml


def test_hand_computed_example():
    # sorted: 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 -> 0.02, 0.03, 0.06, 0.04;
    # the running maximum lifts the last to 0.06; back in the input order:
    adjusted = ml.holm([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(adjusted, [0.03, 0.06, 0.06, 0.02])


def test_one_p_value_is_unchanged_and_large_ones_cap_at_one():
    np.testing.assert_allclose(ml.holm([0.037]), [0.037])
    np.testing.assert_allclose(ml.holm([0.6, 0.7]), [1.0, 1.0])


def by_definition(p):
    """Holm written out term by term: adjusted p_(i) = max_{j<=i} min(1, (m-j+1) p_(j))."""
    m = len(p)
    order = sorted(range(m), key=lambda k: p[k])
    out = [0.0] * m
    for i in range(m):
        out[order[i]] = max(min(1.0, (m - j) * p[order[j]]) for j in range(i + 1))
    return out


@pytest.mark.parametrize("seed", range(5))
def test_matches_the_definition_keeps_order_and_is_monotone(seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0, 0.2, size=7)
    adjusted = ml.holm(p)
    np.testing.assert_allclose(adjusted, by_definition(list(p)))
    order = np.argsort(p)
    assert np.all(np.diff(adjusted[order]) >= 0)
    assert np.all(adjusted >= p)
    # permuting the input permutes the output the same way
    perm = rng.permutation(7)
    np.testing.assert_allclose(ml.holm(p[perm]), adjusted[perm])


def test_ties_get_equal_adjusted_values():
    for p in itertools.permutations([0.02, 0.02, 0.01]):
        adjusted = ml.holm(list(p))
        assert adjusted[p.index(0.01)] == pytest.approx(0.03)
        assert sorted(adjusted)[1:] == pytest.approx([0.04, 0.04])


@pytest.mark.parametrize("bad, found", [
    ([], "found none"),
    ([0.01, np.nan], "found nan at index 1"),
    ([0.01, 1.5], "found 1.5 at index 1"),
    ([-0.1], "found -0.1 at index 0"),
    ([[0.01, 0.02]], "found shape (1, 2)"),
    (["a", "b"], "found list"),
])
def test_bad_input_says_what_was_expected_and_found(bad, found):
    with pytest.raises(ValueError, match="p_values must") as error:
        ml.holm(bad)
    assert found in str(error.value)
