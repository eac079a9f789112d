# The single entry point. Every target installs what it needs into .venv first.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev

.PHONY: all install docs analyze test test-browser lint bench bench-compare lab clean report simulate-10k fuzz

all: analyze

## uv installs the ~100 packages of the dev extras: it fetches them in parallel and writes no
## bytecode, where pip fetches them one by one and compiles all 9,600 modules (a minute of CPU;
## the tests import a third of them, compiled once as they run: see `test`). pip stays in the
## venv for `make report` and `make lab`. --system-certs: the machine's CA store, as pip uses.
$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "exact needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet 'uv>=0.13.9,<0.14'
	$(VENV)/bin/uv pip install --quiet --system-certs --python $(PY) -e '.[dev,scale]'
	@touch $@

install: $(STAMP)

## The PDF math reports, one per game, into reports/build/ (needs only the `report` extra:
## typst, whose wheel carries the compiler, and matplotlib).
REPORT_STAMP := $(VENV)/.installed-report

$(REPORT_STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "exact needs Python 3.11 or newer")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[report]'
	@touch $@

## Each report is built by the command a user runs for their own configuration (`exact report
## GAME -o FILE.pdf --xlsx FILE.xlsx`, README: Reports and notebooks), one game per target, so
## `make -j2 report` builds two at once; each PDF's reproduction section prints its command.
REPORT_GAMES := punto-banco nine-and-nines century21

report: $(addprefix report-,$(REPORT_GAMES))

report-%: $(REPORT_STAMP)
	mkdir -p reports/build
	$(PY) -m exact report $* -o reports/build/$*.pdf --xlsx reports/build/$*.xlsx

## The documentation site from docs/ into docs/_build/html (open index.html there), offline:
## warnings are errors, every cross-reference checked (-n). The commands the pages show run in
## `make test` (tests/system/test_readme_commands.py), and so does this build
## (tests/system/test_docs.py); a few seconds.
docs: $(STAMP)
	$(PY) -m sphinx -W --keep-going -n -q -b html docs docs/_build/html
	@echo "the site: docs/_build/html/index.html"

## The main analysis: exact return tables of the 8-deck Punto Banco bets.
analyze: $(STAMP)
	$(PY) -m exact analyze punto-banco --decks 8

## Test files run in parallel on every core; a file's tests share one worker (and so its
## module fixtures), except the reports' tests, one group per report (tests/conftest.py hands
## out the groups, the long ones first). Bytecode is written (PYTHONDONTWRITEBYTECODE emptied,
## should the environment set it): a module is compiled once, not in every process that
## imports it (the workers, and the hundreds of command lines the tests start).
test: $(STAMP)
	$(PY) -m ruff check exact tests analyses docs
	$(VENV)/bin/lint-imports
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n auto --dist loadgroup --no-loadscope-reorder

## A long fuzz campaign (issue 11): FUZZ_CASES generated cases (default 20,000) of every
## command, random seed printed (FUZZ_SEED=N repeats a run), each command's depth (cases run,
## finished with exit 0, refused with exit 2, other); failures go to fuzz-failures/.
fuzz: $(STAMP)
	$(PY) tests/fuzz_campaign.py

## ruff, the import layers (import-linter, pyproject.toml), the import graph with the imports
## inside functions (tests/system/test_architecture.py) and mypy (strict on the core; ~1 min cold).
lint: $(STAMP)
	$(PY) -m ruff check exact tests analyses docs
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -p no:xdist -q tests/system/test_architecture.py
	$(PY) -m mypy

bench: $(STAMP)
	$(PY) tests/benchmark.py

## Before and after: the same commands (fresh processes, alternating, medians) timed for the
## revision BASE and this checkout, e.g. `make bench-compare BASE=07da3a8`; with
## ARGS=--instructions, instructions counted under valgrind instead (they repeat within 1%).
bench-compare: $(STAMP)
	$(PY) tests/bench_compare.py $(BASE) $(ARGS)

## 10,000 8-deck shoes, exact per-round edges of Dragon 7 and Panda 8, on the local cores.
simulate-10k: $(STAMP)
	$(PY) -m exact simulate punto-banco --shoes 10000 --seed 20261130 \
		--bet dragon-7 --bet panda-8 --workers 2

## JupyterLab on the notebooks of analyses/ (jupytext percent scripts: a double-click opens one
## as a notebook, by the default-viewer setting of analyses/jupyterlab-overrides.json copied into
## the venv's app settings). As root, usual in containers, it passes --allow-root.
## LAB_ARGS adds options (the browser test: --no-browser --port=N ...); LAB_DIR serves another
## folder (the browser test serves a copy, so that JupyterLab's autosave never rewrites analyses/).
LAB_DIR ?= analyses
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings

lab: $(STAMP)
	$(PY) -m pip install --quiet -e '.[lab]'
	mkdir -p $(LAB_SETTINGS)
	cp analyses/jupyterlab-overrides.json $(LAB_SETTINGS)/overrides.json
	$(VENV)/bin/jupyter lab $(LAB_DIR) $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

## The designer in a real browser: `make lab` started on 127.0.0.1, Debian's Chromium driven by
## Playwright opens the designer notebook, runs it, moves a pay and sees the edge change.
## Needs /usr/bin/chromium (Debian's chromium package; installed here when run as root).
test-browser: $(LAB_STAMP)
	$(VENV)/bin/uv pip install --quiet --system-certs --python $(PY) -e '.[lab,browser]'
	test -x /usr/bin/chromium || { test "$$(id -u)" = 0 && apt-get install -y -q chromium; } \
		|| { echo "make test-browser needs Debian's chromium (apt-get install chromium)"; exit 2; }
	EXACT_BROWSER_TESTS=1 $(PY) -m pytest -p no:xdist -q tests/lab/test_designer_browser.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache reports/build
