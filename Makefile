# `make run` serves the site, `make test` runs the whole suite, `make test-fast` the quick part
# (lint and every test not marked slow: no browser, server or Redis); all set up .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-fast lint bench prepare serve

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

run: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py computers_resume
	$(PY) manage.py runserver $(HOST):$(PORT)

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Both runs in two pytest-xdist workers, each with its own test database (and Redis database,
# tests/conftest.py), a test file whole and in order in one worker (docs/deployment.md, "Tests and CI").
XDIST := -n 2 --dist loadfile

test: lint
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/pytest $(XDIST) --durations=10

# The browser tests are all marked slow (tests/browser/conftest.py), so -m leaves them out too.
test-fast: lint
	$(VENV)/bin/pytest -m "not slow" $(XDIST)

bench: $(VENV)/.installed
	$(PY) -m games.engine bench

# Production (see docs/deployment.md, "Production"): `make prepare` once per release, then one
# `make serve PORT=...` per daphne process, all on the same PostgreSQL and Redis.
prepare: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput
	$(PY) manage.py computers_resume

serve: $(VENV)/.installed
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) femkort_site.asgi:application
