# Two commands matter: `make run` starts the app, `make test` runs every test.
# Each builds .venv the first time and reuses it afterwards (the stamp file
# changes only when pyproject.toml or setup.py does).
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
BIN := $(VENV)/bin

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/fieldops $(ARGS)

# One worker per core, each test file on one worker (its module fixtures built once).
test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n auto --dist loadfile $(PYTEST_ARGS)

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m bench $(ARGS)

# What CI checks before the tests (and the pre-commit hooks before a commit).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info
