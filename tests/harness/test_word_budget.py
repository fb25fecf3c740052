"""The book's prose stays within its word budget (tools/word_count.py), and the counting rules hold."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("word_count", ROOT / "tools" / "word_count.py")
word_count = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(word_count)


def test_the_prose_is_within_the_budget():
    counts = word_count.counts()
    total = sum(counts.values())
    largest = sorted(counts.items(), key=lambda item: -item[1])[:3]
    assert total <= word_count.BUDGET, (
        f"the prose holds {total:,} words, {total - word_count.BUDGET:,} over the budget of "
        f"{word_count.BUDGET:,}; the largest: {largest} (python tools/word_count.py)")


def opening_pages() -> set[str]:
    """The chapter pages of _toc.yml with sections below them: they hold only the chapter's opening."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return {f"{entry['file']}.ipynb" for part in toc["parts"] for entry in part["chapters"] if entry.get("sections")}


def test_every_chapter_and_the_intro_are_counted():
    counts = word_count.counts(per_notebook=True)
    notebooks = sorted(str(path.relative_to(ROOT)) for path in ROOT.glob("chapters/*/*.ipynb"))
    assert sorted(name for name in counts if name.endswith(".ipynb")) == notebooks
    assert "intro.md" in counts
    openings = opening_pages()
    assert openings <= set(counts), openings
    assert all(count > (200 if name in openings else 500) for name, count in counts.items()), counts


def test_sentences_count_their_words():
    assert word_count.words("Three short words.") == 3
    assert word_count.words("## A heading\n\n* one item\n* and — another") == 6
    # a link's text counts, its address and an image do not
    assert word_count.words("See [chapter 5](../05_validation/validation.ipynb). ![a plot](p.png)") == 3


def test_inline_math_and_code_are_one_word_and_display_math_none():
    assert word_count.words("The weight $w_{n}$ of `ml.k_fold(10, k=5)` rises.") == 6
    assert word_count.words("Before\n\n$$\nw = (X^\\top X)^{-1} X^\\top y\n$$\n\nafter.") == 2
    assert word_count.words("It costs \\$5 and \\$6.") == 5


def test_code_comments_and_directive_options_are_not_prose():
    text = "\n".join([
        "Before the code.",
        "```python",
        "for step in range(10): print(step)",
        "```",
        "<!-- a note for the authors, not the reader -->",
        "````{exercise} Folds by hand",
        ":label: ex-ch5-folds",
        ":class: dropdown",
        "",
        "Write the folds.",
        "```",
        "folds = contiguous_folds(10, 3)",
        "```",
        "````",
        "```{solution-start} ex-ch5-folds",
        ":class: dropdown",
        "```",
        "Count them.",
        "```{solution-end}",
        "```",
        "```{eval-rst}",
        ".. automodule:: mlrefined_lib.validation",
        "   :members:",
        "```",
    ])
    # "Before the code." 3, the title 3, "Write the folds." 3, "Count them." 2
    assert word_count.words(text) == 11


def test_the_exercise_table_of_instructors_md_is_left_out(tmp_path):
    page = tmp_path / "instructors.md"
    page.write_text("Two words\n<!-- exercises -->\n| 1 | one two three |\n<!-- /exercises -->\nthen three more\n")
    assert word_count.words(word_count.page_text(page)) == 5


def test_the_check_fails_over_the_budget(tmp_path, monkeypatch, capsys):
    chapter = tmp_path / "chapters" / "01_x"
    chapter.mkdir(parents=True)
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Title\n\n" + "word " * 40),
        nbformat.v4.new_code_cell("print('not prose ' * 100)"),
    ])
    nbformat.write(notebook, chapter / "x.ipynb")
    (tmp_path / "intro.md").write_text("An intro of six words here.\n")
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: intro\nchapters:\n  - file: chapters/01_x/x\n")
    assert sum(word_count.counts(tmp_path).values()) == 6 + 1 + 40
    monkeypatch.setattr(word_count, "ROOT", tmp_path)
    monkeypatch.setattr(word_count, "OUTSIDE", ())
    monkeypatch.setattr(word_count, "BUDGET", 46)
    assert word_count.main(["--check"]) == 1
    assert "47 words, over the budget of 46" in capsys.readouterr().err
    monkeypatch.setattr(word_count, "BUDGET", 47)
    assert word_count.main(["--check"]) == 0
