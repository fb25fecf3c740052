"""Every chapter notebook starts with the same cell, which installs what is missing.

The cell comes from ``tools/first_cell.py``; it must be the first code cell of
every notebook, exactly as generated, with the tag that hides it in the HTML
book, no outputs, and an install line that names the repository of
``_config.yml``. The landing page's Colab paragraph must name the same
repository and a real Colab address.
"""

import re
import sys
import tomllib
from pathlib import Path

import nbformat
import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
import first_cell  # noqa: E402

NOTEBOOKS = first_cell.notebooks()


def config_url():
    return yaml.safe_load((REPO / "_config.yml").read_text())["repository"]["url"].rstrip("/")


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 14, [str(p) for p in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_first_code_cell_is_the_generated_one(path):
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code, f"{path.name} has no code cell"
    first = code[0]
    assert first.source == first_cell.cell_source(), (
        f"{path.name}: the first code cell is not the one tools/first_cell.py writes; run python tools/first_cell.py")
    assert first.metadata.get("tags") == first_cell.TAGS, f"{path.name}: tags {first.metadata.get('tags')}"
    assert first.outputs == [], f"{path.name}: the install cell should print nothing where everything is installed"
    # the setup cell (imports the library) follows it
    assert "import mlrefined_lib" in code[1].source, f"{path.name}: the second code cell is not the setup cell"
    # it opens the notebook's setup: the "## Setup" heading (or the setup cell) follows it
    following = notebook.cells[notebook.cells.index(first) + 1]
    assert following is code[1] or following.source.startswith("## Setup"), f"{path.name}: followed by {following.source[:40]!r}"
    # exactly one install cell
    assert sum(first_cell.is_first_cell(cell) for cell in notebook.cells) == 1


def test_install_line_names_the_repository_of_config():
    url = config_url()
    source = first_cell.cell_source()
    (line,) = [line.strip() for line in source.splitlines() if "%pip" in line]
    assert line == '%pip install --quiet "mlrefined_lib[book] @ git+{repository}"'
    # the Colab layer (tests/colab) runs this very cell with only the requirement swapped
    local = first_cell.cell_source(requirement="mlrefined_lib[book] @ file:///w/x.whl")
    assert local == source.replace("git+{repository}", "file:///w/x.whl")
    assert f'repository = "{url}"' in source.splitlines()
    # nothing else in the cell spells an address
    assert source.count("https://") == 1


def test_cell_checks_the_library_and_every_package_of_the_book_extra():
    source = first_cell.cell_source()
    listed = re.findall(r'"([A-Za-z_]\w*)"', source.split("needed = [", 1)[1].split("]", 1)[0])
    extra = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["book"]
    assert listed[0] == "mlrefined_lib"
    assert len(listed) == len(extra) + 1 and len(set(listed)) == len(listed), listed
    for module in listed:  # every name is a real import name (all are installed for the book's tests)
        __import__(module)


def test_cell_stops_with_one_message_when_pip_changed_an_imported_package():
    """The restart check: the versions of every imported distribution before and
    after pip, and one short message (no traceback) naming Colab's menu."""
    source = first_cell.cell_source()
    assert "packages_distributions()" in source and "if module in sys.modules" in source
    assert "_render_traceback_" in source and "raise RestartNeeded(" in source
    assert "Runtime > Restart session" in first_cell.RESTART
    # the message stays short: one sentence of what happened, one of what to do
    assert len(first_cell.RESTART.format(changed="numpy, pandas")) < 260
    assert max(len(line) for line in source.splitlines()) <= 80


def test_generated_cell_changes_with_the_config(tmp_path):
    """The URL is read from _config.yml, not written into the tool."""
    for name in ("pyproject.toml",):
        (tmp_path / name).write_text((REPO / name).read_text())
    text = (REPO / "_config.yml").read_text().replace(config_url(), "https://github.com/someone/fork")
    (tmp_path / "_config.yml").write_text(text)
    assert 'repository = "https://github.com/someone/fork"' in first_cell.cell_source(tmp_path)
    (tmp_path / "_config.yml").write_text("repository:\n  url: ''\n")
    with pytest.raises(ValueError, match="repository.url"):
        first_cell.repository_url(tmp_path)


def test_landing_page_colab_line_is_real():
    text = (REPO / "intro.md").read_text()
    assert first_cell.colab_line() in text, "intro.md's Colab paragraph is stale: run python tools/first_cell.py"
    url = config_url()
    owner_repo = url.removeprefix("https://github.com/")
    match = re.search(r"\((https://colab\.research\.google\.com/github/([^)]*))\)", text)
    assert match, "intro.md links to no notebook on Colab"
    target = match.group(2)
    assert target.startswith(owner_repo + "/blob/"), target
    notebook = target.split("/blob/", 1)[1].split("/", 1)[1]
    assert (REPO / notebook).is_file(), f"the Colab link points at {notebook}, which does not exist"
    assert f"git+{url}" in text
    assert not re.search(r"<repository|placeholder|example\.org|TODO", text, re.I)


def test_check_mode_reports_a_stale_notebook_and_the_update_fixes_it(tmp_path, capsys):
    for name in ("pyproject.toml", "_config.yml", "intro.md"):
        (tmp_path / name).write_text((REPO / name).read_text())
    chapter = tmp_path / "chapters" / "01_x"
    chapter.mkdir(parents=True)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# T"),
                                               nbformat.v4.new_markdown_cell("## Setup\n\nThe setup cell."),
                                               nbformat.v4.new_code_cell("import mlrefined_lib")])
    nbformat.write(notebook, chapter / "x.ipynb")
    assert first_cell.main(["--check"], root=tmp_path) == 1
    assert "stale: chapters/01_x/x.ipynb" in capsys.readouterr().err
    assert first_cell.main([], root=tmp_path) == 0
    assert first_cell.main(["--check"], root=tmp_path) == 0
    cells = nbformat.read(chapter / "x.ipynb", as_version=4).cells
    assert [c.cell_type for c in cells] == ["markdown", "code", "markdown", "code"]  # before "## Setup"
    assert cells[1].source == first_cell.cell_source(tmp_path)
    assert first_cell.update(chapter / "x.ipynb", tmp_path) is False  # a second run changes nothing
    # an older version of the cell is replaced, not duplicated
    notebook = nbformat.read(chapter / "x.ipynb", as_version=4)
    notebook.cells[1].source = notebook.cells[1].source.replace("--quiet ", "")
    nbformat.write(notebook, chapter / "x.ipynb")
    assert first_cell.main(["--check"], root=tmp_path) == 1
    assert first_cell.update(chapter / "x.ipynb", tmp_path) is True
    assert len(nbformat.read(chapter / "x.ipynb", as_version=4).cells) == 4
