"""_ext/search_index.py reads a formula as the text it shows, for the search index's excerpts.

The built book's check (tests/book/test_search.py) reads every formula of every page; these
cases pin the rules without a build: a command written against a wrapped group keeps its
own symbol, and wrappers, fractions, roots and shown braces read as they are drawn."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("search_index", ROOT / "_ext" / "search_index.py")
search_index = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(search_index)


@pytest.mark.parametrize("tex, text", [
    (r"x_1 = \text{level} + 0.15\cdot\text{contrast}", "x_1 = level + 0.15\u00b7contrast"),
    (r"a\cdot\mathrm{b}", "a\u00b7b"),
    (r"\hat{\text{x}}_p", "x_p"),
    (r"\sqrt{\text{a}}", "\u221a(a)"),
    (r"\frac{\text{a}}{b}", "(a)/(b)"),
    (r"y \in \{0, 1\}", "y \u2208 {0, 1}"),
    (r"\operatorname{sig}(m)", "sig(m)"),
    (r"X_{\text{c}} = U \Xi V^\top", "X_c = U \u039e V\u1d40"),
])
def test_formulas_read_as_they_are_drawn(tex, text):
    assert search_index.readable_math(tex) == text
