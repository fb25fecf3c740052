"""Every chapter notebook has an up-to-date text pair under text/ (tools/text_pairs.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("text_pairs", ROOT / "tools" / "text_pairs.py")
text_pairs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(text_pairs)


@pytest.mark.parametrize("notebook", text_pairs.notebooks(), ids=lambda p: p.parent.name + "/" + p.stem)
def test_pair_is_in_sync(notebook):
    pair = text_pairs.pair_of(notebook)
    assert pair.exists(), f"{pair.relative_to(ROOT)} is missing: run `make text`"
    assert pair.read_text(encoding="utf-8") == text_pairs.text_of(notebook), (
        f"{pair.relative_to(ROOT)} is out of sync with {notebook.relative_to(ROOT)}: run `make text`"
    )


def test_no_orphan_text_files():
    orphans = [p for p in text_pairs.problems() if p.endswith("has no notebook")]
    assert not orphans, orphans


def test_text_holds_code_and_prose_but_no_outputs():
    notebook = text_pairs.notebooks()[0]
    text = text_pairs.text_of(notebook)
    assert "```{code-cell}" in text
    assert '"outputs"' not in text and "image/png" not in text
