"""_ext/lean_code.py: highlighted code in fewer elements, every character drawn as before in both modes."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "_ext"))
import lean_code  # noqa: E402

STYLES = ("a11y-high-contrast-light", "a11y-high-contrast-dark")
CODE = '''import numpy as np  # a comment

def f(x, *, k=5):
    """Docstring."""
    print(f"{x.mean():.2f} and {k!r}", 'single', 3.5e-2, None)
    return [v ** 2 for v in x if v is not None]
'''
def block_of(code: str, style: str = STYLES[0]) -> str:
    return highlight(code, PythonLexer(), HtmlFormatter(style=style, nowrap=True))


@pytest.fixture(scope="module")
def theme():
    return lean_code.looks_of([HtmlFormatter(style=name).get_style_defs(".highlight") for name in STYLES])


def test_every_character_is_drawn_as_before_in_both_modes_with_fewer_spans(theme):
    looks, plain = theme
    before = block_of(CODE)
    after = lean_code.lean(before, looks, plain)
    assert lean_code.drawn(after, looks, plain) == lean_code.drawn(before, looks, plain)
    assert html.unescape(re.sub(r"<[^>]+>", "", after)) == CODE
    spans_before, spans_after = before.count("<span"), after.count("<span")
    assert spans_after < spans_before / 2, (spans_before, spans_after)


def test_names_punctuation_and_whitespace_become_plain_text_and_alike_neighbours_one_span(theme):
    looks, plain = theme
    after = lean_code.lean(block_of("print(f\"{x}\")\n"), looks, plain)
    assert not re.search(r'class="(n|p|w)"', after), after
    # the f-string's prefix, quote and brace are drawn alike: one span
    assert '<span class="sa">f"{</span>' in after, after


def test_a_class_another_stylesheet_styles_is_left_alone(theme):
    looks, plain = theme
    block = '<span class="gp">&gt;&gt;&gt; </span><span class="gp">... </span><span class="n">x</span>'
    assert lean_code.lean(block, looks, plain) == '<span class="gp">&gt;&gt;&gt; </span><span class="gp">... </span>x'


def test_classes_drawn_differently_in_one_mode_stay_apart():
    # Two classes alike in the light style but not in the dark one must not be joined.
    light = ".highlight { color: #000 }\n.highlight .a { color: #f00 }\n.highlight .b { color: #f00 }\n"
    dark = ".highlight { color: #fff }\n.highlight .a { color: #0f0 }\n.highlight .b { color: #00f }\n"
    looks, plain = lean_code.looks_of([light, dark])
    block = '<span class="a">x</span><span class="b">y</span><span class="a">z</span><span class="a">w</span>'
    assert lean_code.lean(block, looks, plain) == '<span class="a">x</span><span class="b">y</span><span class="a">zw</span>'


def test_a_bold_class_is_not_plain_even_in_the_text_colour():
    css = ".highlight { color: #000 }\n.highlight .k { color: #000; font-weight: bold }\n"
    looks, plain = lean_code.looks_of([css, css])
    assert lean_code.lean('<span class="k">def</span>', looks, plain) == '<span class="k">def</span>'


HANGING = '''def fit_the_model(weights, features, targets):
    """A docstring long enough to be wrapped on a phone,
    over two lines."""

    for step in range(100):
        weights = weights - 0.1 * gradient(weights, features, targets)
    return weights
'''


def nests(block: str) -> bool:
    depth = 0
    for tag in re.findall(r"<(/?)span\b", block):
        depth += -1 if tag else 1
        if depth < 0:
            return False
    return depth == 0


def test_each_line_that_may_wrap_is_a_box_with_its_indentation_and_nothing_else_changes(theme):
    looks, plain = theme
    before = lean_code.lean(block_of(HANGING), looks, plain)
    after = lean_code.hang(before)
    assert html.unescape(re.sub(r"<[^>]+>", "", after)) == HANGING
    assert lean_code.drawn(after, looks, plain) == lean_code.drawn(before, looks, plain)
    assert nests(after), after
    long_lines = [line for line in HANGING.split("\n") if len(line) > lean_code.SHORT_LINE]
    assert after.count('class="code-line"') == len(long_lines) == 5
    # Split at the newlines (each stays inside its line's box): each piece is the closing tags
    # of the line before, then this line's box (if it has one) and its text.
    for line, piece in zip(HANGING.split("\n"), after.split("\n")):
        indent = len(line) - len(line.lstrip(" "))
        box = f'<span class="code-line" style="--indent: {indent}">' if indent else '<span class="code-line">'
        assert re.sub(r"^(</span>)*", "", piece).startswith(box) == (len(line) > lean_code.SHORT_LINE), (line, piece)


def test_blank_and_short_lines_get_no_box(theme):
    looks, plain = theme
    block = lean_code.lean(block_of("x = f(\n    a,\n)\n\ny = 2\n"), looks, plain)
    assert lean_code.hang(block) == block
