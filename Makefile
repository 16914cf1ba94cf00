# Two commands do all the set-up: `make lab` (or its headless twin `make demo`) and `make test`.
# Every target bootstraps .venv first; the stamp file makes the second run instant.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
PYTEST  := $(BIN)/python -m pytest

.PHONY: venv lab demo test test-fast test-browser notebooks bench maps lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,scale]'
	# jsonschema's optional rfc3987-syntax builds a grammar at import time (~3 s per process)
	-$(BIN)/python -m pip uninstall -y -q rfc3987-syntax
	touch $(STAMP)

venv: $(STAMP)

lab: $(STAMP)
	$(BIN)/workbench lab

demo: $(STAMP)
	$(BIN)/python -m workbench.demo

test: $(STAMP)
	$(BIN)/python -m ruff check workbench tests benchmarks
	$(PYTEST) -q
	$(PYTEST) -q -p no:playwright --nbval-lax --nbval-current-env notebooks

test-browser: $(STAMP)
	$(PYTEST) -q -m browser tests/browser

notebooks: $(STAMP)
	$(BIN)/python -m workbench.ui.notebook

test-fast: $(STAMP)
	$(PYTEST) -q -m "not slow" -p no:playwright

bench: $(STAMP)
	$(BIN)/python -m benchmarks

maps: $(STAMP)
	$(BIN)/python -m workbench.mapbuild

lint: $(STAMP)
	$(BIN)/python -m ruff check workbench tests benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
