# quizapp — `make run` serves the app, `make test` runs the whole suite (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# Pins for every distribution an install brings in, not only the ones pyproject.toml names.
CONSTRAINTS := constraints.txt
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: install run test lint bench constraints clean

$(STAMP): pyproject.toml $(CONSTRAINTS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade -c $(CONSTRAINTS) pip
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	mkdir -p instance
	$(BIN)/quizapp db upgrade --directory migrations
	$(BIN)/quizapp content load
	$(BIN)/quizapp run --host $(HOST) --port $(PORT)

test: install
	$(BIN)/ruff check quizapp tests bench migrations
	$(BIN)/quizapp content check
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider

bench: install
	$(BIN)/python bench/engine_vs_torch.py
	$(BIN)/python bench/puzzles.py
	$(BIN)/python bench/server.py
	$(BIN)/python bench/request_costs.py

# After changing a pin in pyproject.toml: install without the old constraints (what is already
# installed stays unless the new pins move it), then write the environment back as constraints.
constraints:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	{ grep '^#' $(CONSTRAINTS); $(BIN)/python -m pip freeze --all --exclude-editable \
	    | sed -E 's/\+[A-Za-z0-9.]+$$//'; } > $(CONSTRAINTS).new
	mv $(CONSTRAINTS).new $(CONSTRAINTS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
