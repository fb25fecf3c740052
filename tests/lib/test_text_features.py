"""Unit tests of mlrefined_lib.histograms.character_features (spam-style counts, chapter 6)."""

import numpy as np
import pytest

from mlrefined_lib.histograms import character_features


def test_counts_by_hand():
    documents = ["FREE money!!! Click *now*", "no shouting here.", "Best. Film. EVER!"]
    expected = np.array(
        [
            [3, 2, 5, 4],  # F R E E, C: longest run "FREE"
            [0, 0, 0, 0],
            [1, 0, 6, 4],  # B, F, E V E R: longest run "EVER"
        ],
        dtype=float,
    )
    features = character_features(documents)
    assert features.shape == (3, 4)
    assert features.dtype == float
    np.testing.assert_array_equal(features, expected)


@pytest.mark.parametrize(
    "text, capitals, longest",
    [
        ("NO WAY!", 5, 3),           # a space ends a run
        ("ABC1DEF", 6, 3),           # so does a digit
        ("aBcDe", 2, 1),             # capitals that never touch
        ("abcABCDabAB", 6, 4),       # the longest run is in the middle
        ("xyzABCDE", 5, 5),          # a run that reaches the end of the text
        ("ÉCOLE été", 5, 5),         # non-ASCII capitals count
        ("", 0, 0),
        ("12345 !!! ***", 0, 0),
    ],
)
def test_capital_counts_and_longest_run(text, capitals, longest):
    features = character_features([text])
    assert features[0, 2] == capitals
    assert features[0, 3] == longest


def test_exclamation_and_asterisk_counts_only_those_characters():
    features = character_features(["!?!*.*,*", "¡Hola!", "** bold ** and * star"])
    np.testing.assert_array_equal(features[:, 0], [2, 1, 0])
    np.testing.assert_array_equal(features[:, 1], [3, 0, 5])


def test_rows_are_independent_of_the_other_documents():
    documents = ["HELLO there!", "*", "Quiet"]
    together = character_features(documents)
    one_by_one = np.vstack([character_features([d]) for d in documents])
    np.testing.assert_array_equal(together, one_by_one)


def test_input_list_is_not_changed_and_tuples_and_generators_work():
    documents = ["ABC!", "x*y"]
    saved = list(documents)
    from_list = character_features(documents)
    assert documents == saved
    np.testing.assert_array_equal(character_features(tuple(documents)), from_list)
    np.testing.assert_array_equal(character_features(d for d in documents), from_list)


def test_non_string_document_names_its_index_and_type():
    with pytest.raises(ValueError, match=r"documents\[2\] is a float"):
        character_features(["ok", "fine", 3.5])
    with pytest.raises(ValueError, match=r"documents\[0\] is a NoneType"):
        character_features([None])
    with pytest.raises(ValueError, match=r"documents\[1\] is a bytes"):
        character_features(["ok", b"BYTES!"])


def test_single_string_and_empty_input_are_rejected():
    with pytest.raises(ValueError, match="single string"):
        character_features("LOUD TEXT!")
    with pytest.raises(ValueError, match="empty"):
        character_features([])
