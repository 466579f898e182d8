# quizapp — `make run` serves the app, `make test` runs the whole suite (see README.md).
# python3.11 where the machine has one beside a newer python3 (quizapp needs 3.11).
PYTHON ?= $(shell command -v python3.11 2>/dev/null || echo python3)
VENV := .venv
BIN := $(VENV)/bin
# `make run` installs what serving needs; `make test` adds torch, the test tools and psycopg.
RUN_STAMP := $(VENV)/.installed-run-stamp
STAMP := $(VENV)/.installed-stamp
# Pins for every distribution an install brings in, not only the ones pyproject.toml names.
CONSTRAINTS := constraints.txt
HOST ?= 127.0.0.1
PORT ?= 5000
IS_PY311 := import sys; sys.exit(sys.version_info[:2] != (3, 11))

.PHONY: install venv run test lint bench constraints clean

# A .venv made by another Python (3.12, say) goes, with its stamps, before make reads them: pip
# would refuse every install in it. A dry run (make -n) only says so.
DRY_RUN := $(findstring n,$(firstword -$(MAKEFLAGS)))
ifneq ($(shell test -x $(BIN)/python && ! $(BIN)/python -c '$(IS_PY311)' 2>/dev/null && echo stale),)
ifeq ($(DRY_RUN),)
$(info make: $(VENV) was made with another Python than 3.11; making it again)
$(shell rm -rf $(VENV))
else
$(info make: $(VENV) was made with another Python than 3.11; a real run would make it again)
endif
endif

venv:
	@$(PYTHON) -c '$(IS_PY311)' 2>/dev/null || { echo "make: $(PYTHON) is not Python 3.11, which quizapp needs; run make PYTHON=/path/to/python3.11 $(MAKECMDGOALS)" >&2; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml $(CONSTRAINTS) | venv
	$(BIN)/python -m pip install --quiet --upgrade -c $(CONSTRAINTS) pip
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml $(CONSTRAINTS) | venv
	$(BIN)/python -m pip install --quiet --upgrade -c $(CONSTRAINTS) pip
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: venv $(RUN_STAMP)
	mkdir -p -m 700 instance
	$(BIN)/quizapp db upgrade --directory migrations
	$(BIN)/quizapp content load
	$(BIN)/quizapp run --host $(HOST) --port $(PORT)

test: venv install
	$(BIN)/ruff check quizapp tests bench migrations
	$(BIN)/mypy
	$(BIN)/quizapp content check
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider

bench: install
	$(BIN)/python bench/engine_vs_torch.py
	$(BIN)/python bench/puzzles.py
	$(BIN)/python bench/server.py
	$(BIN)/python bench/request_costs.py
	$(BIN)/python bench/content_load.py
	$(BIN)/python bench/sets.py
	$(BIN)/python bench/teams.py

# After changing a pin in pyproject.toml: install without the old constraints (what is already
# installed stays unless the new pins move it), then write the environment back as constraints.
constraints:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	{ grep '^#' $(CONSTRAINTS); $(BIN)/python -m pip freeze --all --exclude-editable \
	    | sed -E 's/\+[A-Za-z0-9.]+$$//'; } > $(CONSTRAINTS).new
	mv $(CONSTRAINTS).new $(CONSTRAINTS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
