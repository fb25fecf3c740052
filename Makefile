# Feature Engineering, Refined: build, test and serve the book.
#
#   make book      build the HTML book into _build/html (executes notebooks, cached)
#   make pdf       the whole book as one PDF (after make book): _build/pdf/, copied into _build/html/
#   make test      run every test layer (library, nbval in the Binder environment, strict build, HTML, browser,
#                  JupyterLab, student, wheel, nbgrader, Colab's versions)
#   make lab       open the chapters in JupyterLab
#   make student   student edition (solutions stripped) in _build/student/
#   make nbgrader  nbgrader course (source/<chapter>/<notebook>.ipynb) in _build/nbgrader/
#   make bench     benchmarks -> benchmarks/RESULTS.md
#   make text      rewrite the text pairs (text/NN_slug/*.md) of the chapter notebooks, instructors.md's exercise table
#                  and reference.md's import map
#
# Needs only Python 3.11, git and make; everything else is installed here.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
STAMP  := $(VENV)/.installed
NOTEBOOKS := $(shell git ls-files 'chapters/*.ipynb' 2>/dev/null || find chapters -name '*.ipynb' -not -path '*checkpoint*')
JB_FLAGS ?= --keep-going
# Set by tools/vendor_assets.py --cdn when npm is missing.
BOOK_CONFIG = $$(test -f _build/_config.cdn.yml && echo --config _build/_config.cdn.yml)

.PHONY: help venv assets execute book strict-book pdf test test-lib test-nbval test-html test-student test-standalone test-binder binder-venv test-jupyter test-colab \
        lab student bench clean chromium bubblewrap nbgrader test-nbgrader text

help:
	@sed -n '3,14p' Makefile

# ---------------------------------------------------------------- environment
$(STAMP): requirements.txt requirements-dev.txt pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $@

venv: $(STAMP)

# MathJax and the theme's icons, served by the book itself, and the
# live widgets' modules, written from mlrefined_lib/static/
assets: assets/vendor/.stamp

assets/vendor/.stamp: $(STAMP) package.json package-lock.json tools/vendor_assets.py tools/js/bootstrap-lean.js mlrefined_lib/static/*.js
	@if command -v npm >/dev/null 2>&1; then \
	    npm ci --no-audit --no-fund --loglevel=error && \
	    $(PY) tools/vendor_assets.py && rm -f _build/_config.cdn.yml && touch $@; \
	else \
	    $(PY) tools/vendor_assets.py --cdn _build/_config.cdn.yml; \
	fi

# ---------------------------------------------------------------------- book
# The notebooks run first, two at a time, into Jupyter Book's cache (tools/prefill_cache.py):
# the build then finds them all there and executes none itself.
book: $(STAMP) assets
	$(PY) tools/prefill_cache.py $(NOTEBOOKS)
	$(BIN)/jupyter-book build . $(JB_FLAGS) $(BOOK_CONFIG)
	@echo "The book is at: file://$(CURDIR)/_build/html/index.html"

# Warnings are errors; a failing cell fails the build and names the notebook.
# EXECUTE=off builds from the outputs stored in the notebooks instead of running
# them again: `make test` does this right after nbval has compared every stored
# output with a fresh run (tests/harness checks that a failing cell still fails
# an executing build).
EXECUTE ?= cache
strict-book: $(STAMP) assets
	@config=$$(test -f _build/_config.cdn.yml && echo _build/_config.cdn.yml || echo _config.yml); \
	if [ "$(EXECUTE)" != cache ]; then \
	    sed 's/^\(  execute_notebooks:\).*/\1 "$(EXECUTE)"/' $$config > .config.execute.yml; \
	    grep -q 'execute_notebooks: "$(EXECUTE)"' .config.execute.yml || { echo "strict-book: could not set execute_notebooks" >&2; exit 1; }; \
	    config=.config.execute.yml; \
	fi; \
	if [ "$(EXECUTE)" = cache ]; then $(PY) tools/prefill_cache.py $(NOTEBOOKS) || exit 1; fi; \
	echo "jupyter-book build . -W -n --keep-going --config $$config"; \
	$(BIN)/jupyter-book build . -W -n --keep-going --config $$config

# The whole book as one PDF, from the built HTML (run `make book` or
# `make strict-book` first): Debian's chromium prints each page of _toc.yml with
# the book's print stylesheet, pypdf joins them with a bookmark per chapter.
# Writes _build/pdf/feature-engineering-refined.pdf and copies it into
# _build/html/, where the landing page links to it.
pdf: $(STAMP) chromium
	$(PY) tools/pdf.py

# Re-execute notebooks in a fresh kernel and store their outputs:
#   make execute                      (every chapter)
#   make execute NB=chapters/01_gradient_descent/gradient_descent.ipynb
execute: $(STAMP)
	$(PY) tools/run_notebooks.py --write $(or $(NB),$(NOTEBOOKS))

# ---------------------------------------------------------------------- tests
# Each layer, timed (the seconds of every layer are printed again at the end).
LAYERS := test-lib test-nbval "strict-book EXECUTE=off" pdf test-student test-html test-jupyter test-standalone \
          "test-nbgrader NBGRADER_VENV=.venv-binder" test-colab
test: $(STAMP) assets
	@times=""; for layer in $(LAYERS); do \
	    start=$$(date +%s); \
	    echo "$(MAKE) $$layer"; $(MAKE) $$layer || exit 1; \
	    times="$$times  $$layer: $$(( $$(date +%s) - start )) s\n"; \
	    echo "make test: $$layer took $$(( $$(date +%s) - start )) s"; \
	done; \
	printf "make test: every layer passed.\n$$times"

test-lib: $(STAMP) bubblewrap
	$(BIN)/pytest tests/lib tests/harness -q -p no:cacheprovider -n $(JOBS)

# Notebooks are stored with outputs; nbval re-runs them and compares. It runs in
# the Binder environment (below), so one run checks both the stored outputs and
# that requirements.txt alone runs every chapter.
# Two workers, each running whole notebooks (--dist loadfile keeps a notebook's cells in order).
JOBS ?= 2
# Notebooks run JOBS at a time, so each kernel's BLAS gets one thread: a kernel per core
# with two BLAS threads each oversubscribes the cores and nearly doubles the time (the
# printed numbers are the same, as nbval checks).
ONE_BLAS_THREAD := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
test-nbval: binder-venv
	$(ONE_BLAS_THREAD) .venv-binder/bin/pytest --nbval $(NOTEBOOKS) --nbval-sanitize-with tests/nbval_sanitize.cfg -q -p no:cacheprovider \
	    -n $(JOBS) --dist loadfile

# Built-HTML checks, the browser test and the printed book (needs the strict build and `make pdf` first).
# JOBS workers, each with its own Chromium and a whole group at a time (tests/book/conftest.py: a test
# file, or one device's half of the longest files; a group's pages stay in order). One a core: four
# workers took 895 s against 611 s for two, on clean runs of the same book. The 25 slowest tests are printed.
test-html: $(STAMP) chromium
	$(BIN)/pytest tests/book -q -p no:cacheprovider -rs -n $(JOBS) --dist loadgroup --no-loadscope-reorder --durations=25

# In a real JupyterLab and Notebook 7, in Debian's chromium: exercises render (jupyterlab-myst) and every
# kind of live widget talks to a kernel both ways.
test-jupyter: $(STAMP) chromium
	$(BIN)/pytest tests/jupyter -q -p no:cacheprovider -rs

test-student: $(STAMP) assets
	$(MAKE) student
	$(BIN)/pytest tests/student -q -p no:cacheprovider

# The wheel, installed in a fresh venv outside the clone, finds its data (Colab, plain pip).
test-standalone: $(STAMP)
	$(BIN)/pytest tests/standalone -q -p no:cacheprovider -rs

# nbgrader runs in its own venv (never in $(VENV)): generate_assignment, then
# autograde of the solutions, the unchanged release and wrong answers, side by
# side, and of tampered copies and attacks on chapter 1. The course runs student
# code only inside bubblewrap and grades its check cells apart from it
# (mlrefined_lib/checks/_isolated.py, _sandbox.py).
# `make test` reuses the Binder venv (requirements.txt is installed there
# already, and nbval has finished with it) instead of building another.
NBGRADER_VENV ?= .venv-nbgrader
$(NBGRADER_VENV)/.installed: requirements.txt pyproject.toml
	@test -x $(NBGRADER_VENV)/bin/python || $(PYTHON) -m venv $(NBGRADER_VENV)
	$(NBGRADER_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(NBGRADER_VENV)/bin/python -m pip install --quiet nbgrader==0.9.6 -r requirements.txt
	@touch $@

test-nbgrader: $(STAMP) $(NBGRADER_VENV)/.installed bubblewrap
	$(MAKE) nbgrader
	$(ONE_BLAS_THREAD) NBGRADER_VENV=$(CURDIR)/$(NBGRADER_VENV) JOBS=$(JOBS) $(BIN)/pytest tests/nbgrader -q -p no:cacheprovider -rs -s

# Colab on its own versions (tests/colab/colab_versions.txt, dated): a fresh venv
# of Colab's published versions, a kernel that has imported numpy and pandas
# before the notebook starts (each notebook's kernel in its own hard-linked
# copy of that venv), the notebook's own first cell (as tools/first_cell.py
# writes it) installing the locally built wheel, then the notebook top to
# bottom, its outputs compared by nbval with the stored ones. Also: the floors
# of pyproject.toml are the versions tested here (tests/colab/test_floors.py).
# The notebooks run here under a second OpenBLAS kernel, older than the machine's own
# (tools/blas_kernel.py), so that nbval passes under two kernels in one `make test`; none
# where the machine sets OPENBLAS_CORETYPE itself (it is never changed), which it says.
# SECOND_BLAS_KERNEL=NAME names the second kernel outright.
test-colab: $(STAMP)
	@start=$$(date +%s); \
	kernel=$$($(PY) tools/blas_kernel.py) && \
	$(PY) tests/colab/colab_env.py && \
	$(BIN)/pytest tests/colab -q -p no:cacheprovider -rs && \
	{ [ -z "$$kernel" ] || OPENBLAS_CORETYPE=$$kernel .venv-colab/base/bin/python tools/blas_kernel.py --check $$kernel; } && \
	$(ONE_BLAS_THREAD) JUPYTER_PATH=$(CURDIR)/.venv-colab/kernels env $${kernel:+OPENBLAS_CORETYPE=$$kernel} \
	    $(BIN)/pytest --nbval .venv-colab/run --nbval-kernel-name colab-emulated \
	    --nbval-sanitize-with .venv-colab/nbval_sanitize.cfg --nbval-kernel-startup-timeout 180 -q -p no:cacheprovider \
	    -n $(JOBS) --dist loadfile && \
	$(PY) tests/colab/colab_env.py --report; status=$$?; \
	echo "test-colab: $$(( $$(date +%s) - start )) s"; exit $$status

# Binder installs only requirements.txt, on the Python that runtime.txt names
# (python-3.11): a fresh venv of that Python gets exactly that, then the test
# runner (pytest, nbval, pytest-xdist at the versions of requirements-dev.txt),
# and pip must not have changed any version that requirements.txt installed.
RUNTIME_PYTHON := $(shell sed -n 's/^python-\([0-9][0-9.]*\)[[:space:]]*$$/\1/p' runtime.txt 2>/dev/null)
BINDER_PYTHON ?= python$(RUNTIME_PYTHON)
binder-venv:
	@test -n "$(RUNTIME_PYTHON)" || { echo "runtime.txt must hold one line like python-3.11" >&2; exit 1; }
	@$(BINDER_PYTHON) -c 'import sys; found = "%d.%d" % sys.version_info[:2]; sys.exit(0 if found == "$(RUNTIME_PYTHON)" else "binder-venv: runtime.txt asks for Python $(RUNTIME_PYTHON) but $(BINDER_PYTHON) is Python " + found)' \
	    || { echo "binder-venv: needs Python $(RUNTIME_PYTHON) (runtime.txt) as $(BINDER_PYTHON); set BINDER_PYTHON=/path/to/python$(RUNTIME_PYTHON)" >&2; exit 1; }
	rm -rf .venv-binder
	$(BINDER_PYTHON) -m venv .venv-binder
	.venv-binder/bin/python -m pip install --quiet -r requirements.txt
	.venv-binder/bin/python -m pip freeze --exclude-editable | sort > .venv-binder/binder-freeze.txt
	grep -E '^(pytest|nbval|pytest-xdist)==' requirements-dev.txt > .venv-binder/test-tools.txt
	.venv-binder/bin/python -m pip install --quiet -r .venv-binder/test-tools.txt
	@.venv-binder/bin/python -m pip freeze --exclude-editable | sort | comm -23 .venv-binder/binder-freeze.txt - > .venv-binder/changed.txt; \
	    if [ -s .venv-binder/changed.txt ]; then echo "binder-venv: installing the test runner changed what Binder installs:" >&2; cat .venv-binder/changed.txt >&2; exit 1; fi

# Kept as a name: the Binder check is the nbval run above.
test-binder: test-nbval

# Debian's chromium for the browser test: installed when we are root.
# The course grades student code inside bubblewrap (mlrefined_lib/checks/_sandbox.py).
bubblewrap:
	@if ! command -v bwrap >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Debian's bubblewrap for the grading sandbox"; \
	    (apt-get install -y -q bubblewrap >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q bubblewrap >/dev/null)); \
	fi

chromium:
	@if ! command -v chromium >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Debian's chromium for the browser test"; \
	    (apt-get install -y -q chromium >/dev/null 2>&1 || (apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null)); \
	fi

# --------------------------------------------------------------- other tools
# Every notebook has a text pair (MyST markdown, no outputs) that reviewers
# read as a diff; tests/harness/test_text_pairs.py fails when one is stale.
text: $(STAMP)
	$(PY) tools/text_pairs.py
	$(PY) tools/exercise_table.py
	$(PY) tools/import_map.py

lab: $(STAMP)
	$(BIN)/jupyter lab chapters

# The student edition's notebooks (_build/student/chapters) stay without outputs, as students get
# them; an executed copy (_build/student-run, JOBS notebooks at a time, the slowest first) is what
# its HTML shows: each check failing helpfully on its stub.
student: $(STAMP) assets
	$(PY) tools/student_edition.py --out _build/student
	rm -rf _build/student-build _build/student/html _build/student-run
	cp -r _build/student _build/student-run
	$(ONE_BLAS_THREAD) $(PY) tools/run_notebooks.py --write --jobs $(JOBS) \
	    _build/student-run/chapters/06_histogram_features/images.ipynb _build/student-run/chapters/06_histogram_features/text.ipynb \
	    $$(ls _build/student-run/chapters/*/*.ipynb | grep -v -e /images.ipynb -e /text.ipynb)
	sed -i 's/^\(  execute_notebooks:\).*/\1 "off"/' _build/student-run/_config.yml
	grep -q 'execute_notebooks: "off"' _build/student-run/_config.yml
	$(BIN)/jupyter-book build _build/student-run --path-output _build/student-build -W -n --keep-going $(BOOK_CONFIG)
	mv _build/student-build/_build/html _build/student/html
	@echo "Student edition: notebooks in _build/student/chapters, HTML at file://$(CURDIR)/_build/student/html/index.html"

nbgrader: $(STAMP)
	$(PY) tools/nbgrader_export.py --out _build/nbgrader
	@echo "nbgrader course: cd _build/nbgrader && nbgrader generate_assignment '*'"

bench: $(STAMP) assets
	$(PY) benchmarks/run.py

clean:
	rm -rf _build .venv-binder .venv-nbgrader .venv-colab assets/vendor
