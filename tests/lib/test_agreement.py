"""mlrefined_lib.agreement_table: the book's one format for cross-checks, and it fails loudly."""

from __future__ import annotations

import numpy as np
import pytest

import mlrefined_lib as ml


def test_prints_one_aligned_line_per_row(capsys):
    ml.agreement_table([("weights - w*", 3e-12, 1e-8), ("zero pattern, places that differ", np.int64(0), 0)],
                       title="compared with scikit-learn")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("compared with scikit-learn") and lines[0].endswith("largest difference  tolerance  agrees")
    assert lines[1].split() == ["weights", "-", "w*", "<=", "1e-08", "1e-08", "True"]
    assert lines[2].split()[-3:] == ["0", "0", "True"]
    assert len({len(line) for line in lines}) == 1  # aligned columns


def test_a_row_outside_its_tolerance_is_printed_then_fails(capsys):
    with pytest.raises(AssertionError, match="outside the tolerance: b, c$"):
        ml.agreement_table([("a", 1e-9, 1e-8), ("b", 2e-3, 1e-8), ("c", 2, 0)])
    out = capsys.readouterr().out
    assert "2.0e-03" in out and out.count("False") == 2


@pytest.mark.parametrize("row, message", [
    (("a", 1.0), "must be \\(what, largest difference, tolerance\\)"),
    ("abc", "must be \\(what, largest difference, tolerance\\)"),
    (("a", np.nan, 1e-8), "largest difference of 'a' must be a finite number; found nan"),
    (("a", True, 1), "largest difference of 'a' must be a finite number; found True"),
    (("a", 0.0, -1.0), "tolerance of 'a' must be >= 0"),
])
def test_bad_rows_are_refused_before_printing(row, message, capsys):
    with pytest.raises(ValueError, match=message):
        ml.agreement_table([("fine", 0.0, 1.0), row])
    assert capsys.readouterr().out == ""
