# The two commands of the README: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: demo test lint bench fuzz install install-dev messages serve worker clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# setup.py builds the C extension engine._solver (optional: without a compiler the pure-Python
# solver is used); editing its source must rebuild it.
$(VENV)/.installed: pyproject.toml setup.py engine/_solver.c | $(BIN)/python
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml setup.py engine/_solver.c | $(BIN)/python
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(VENV)/.installed $@

install: $(VENV)/.installed messages
install-dev: $(VENV)/.installed-dev messages

# Translations are compiled from the .po files at every install: no hand-made .mo is trusted.
# Without GNU gettext (msgfmt) the site still runs, in English only: say so and go on.
messages: | $(BIN)/python
	@if command -v msgfmt >/dev/null 2>&1; then \
		DEBUG=1 $(PY) manage.py compilemessages --ignore=.venv -v 0; \
	else \
		echo "warning: msgfmt (GNU gettext) is not installed: the pages stay in English;" \
			"install gettext for Catalan and Spanish (apt install gettext)" >&2; \
	fi

demo: install
	DEBUG=1 $(PY) manage.py migrate --no-input -v 0
	DEBUG=1 $(PY) manage.py demo --host $(HOST) --port $(PORT)
	DEBUG=1 $(PY) manage.py runserver $(HOST):$(PORT)

# The suite runs in parallel processes, one a core up to four (TEST_PROCESSES=0: in one); each
# has its own test database and Redis database (tests/conftest.py).
TEST_PROCESSES ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ $$n -gt 4 ] && n=4; echo $$n)

test: install-dev
	$(BIN)/ruff check .
	DEBUG=1 $(BIN)/pytest -n $(TEST_PROCESSES) --dist worksteal $(PYTEST_ARGS)

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	DEBUG=1 $(BIN)/mypy engine

bench: install-dev
	@set -e; for script in $$(grep -l "__main__" benchmarks/*.py); do echo "# $$script"; DEBUG=1 $(PY) $$script; done

# The long fuzz runs (tests marked `fuzz`: engine parser, API bodies, schemathesis); CI runs the
# same tests bounded. -s shows the figures (cases tried, outcomes, failures).
fuzz: install-dev
	DEBUG=1 FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-5000} $(BIN)/pytest -m fuzz -p no:randomly -s -q tests

worker: install
	$(BIN)/celery -A config worker -l info

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache build engine/_solver.*.so
