"""One table for the book's cross-checks: what was compared, how far apart, within what tolerance.

Every chapter checks its own implementations against another library's
(scikit-learn, SciPy) or against a closed form, and reports the checks as one
compact table in its "In practice" section. :func:`agreement_table` prints that
table in one format for the whole book and fails, naming the rows, when a
comparison is outside its tolerance, so that a check can never pass in silence.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["agreement_table"]


def _shown(gap, tolerance) -> str:
    if isinstance(gap, numbers.Integral):
        return str(int(gap))
    return f"<= {tolerance:g}" if gap <= tolerance else f"{gap:.1e}"


def agreement_table(rows, title: str = "compared") -> None:
    """Print one line per comparison and raise if any is outside its tolerance.

    Parameters
    ----------
    rows : sequence of (str, number, number)
        ``(what was compared, largest difference, tolerance)``. A difference
        that is an integer (a count of mismatches, say) is printed as it is;
        a real one is printed as ``<= tolerance`` when within it, else its value.
    title : str
        The heading of the first column.

    Raises
    ------
    ValueError
        Before printing, for a row that is not three items, a difference or a
        tolerance that is not a finite number, or a negative tolerance.
    AssertionError
        After printing, naming every row whose difference exceeds its tolerance.
    """
    checked = []
    for row in rows:
        if isinstance(row, (str, bytes)) or len(row) != 3:
            raise ValueError(f"agreement_table: each row must be (what, largest difference, tolerance); found {row!r}.")
        what, gap, tolerance = row
        for name, value in (("largest difference", gap), ("tolerance", tolerance)):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not np.isfinite(value):
                raise ValueError(f"agreement_table: the {name} of {what!r} must be a finite number; found {value!r}.")
        if tolerance < 0:
            raise ValueError(f"agreement_table: the tolerance of {what!r} must be >= 0; found {tolerance!r}.")
        gap = int(gap) if isinstance(gap, numbers.Integral) else float(gap)
        checked.append((str(what), gap, float(tolerance)))
    width = max([len(title)] + [len(what) for what, _, _ in checked]) + 2
    print(f"{title:<{width}}{'largest difference':>19}{'tolerance':>11}{'agrees':>8}")
    for what, gap, tolerance in checked:
        print(f"{what:<{width}}{_shown(gap, tolerance):>19}{tolerance:>11g}{str(gap <= tolerance):>8}")
    failed = [what for what, gap, tolerance in checked if gap > tolerance]
    if failed:
        raise AssertionError(f"outside the tolerance: {', '.join(failed)}")
