# Two commands for a newcomer: `make run` and `make test`. Nothing but Python 3.11+ is needed:
# with no DATABASE_URL the app uses SQLite, with no REDIS_URL Celery runs tasks in-process.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# Test processes (pytest-xdist): one per core; PYTEST_WORKERS=0 runs the suite in this one process.
PYTEST_WORKERS ?= auto
DATA_FILES := $(wildcard data/real_cards/*.json) $(wildcard data/practice/*.json) $(wildcard data/practice/games/*.json)

.PHONY: run test lint format worker setup data messages

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

setup: $(VENV)/.installed

# Runs on every start, so it only adds: the shipped cards the catalog lacks (--only-new: a card an
# admin imported a newer wording of keeps it), and rules revisions without admin edits (load_rules
# keeps and reports those; `load_rules --force` overwrites them on purpose).
data: setup
	DEBUG=$${DEBUG:-1} $(PY) manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(PY) manage.py load_rules
	DEBUG=$${DEBUG:-1} $(PY) manage.py load_factions
	$(if $(DATA_FILES),DEBUG=$${DEBUG:-1} $(PY) manage.py import_cards --only-new $(DATA_FILES))

run: data
	DEBUG=$${DEBUG:-1} $(PY) manage.py runserver 127.0.0.1:$(PORT)

test: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

format: setup
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

worker: setup
	@test -n "$$REDIS_URL" || (echo "Set REDIS_URL (e.g. redis://127.0.0.1:6379/0) to run a worker." && exit 1)
	$(VENV)/bin/celery -A gatesite worker --loglevel=info

# Translations (README, "Languages"): extract every string into locale/ja/LC_MESSAGES/django.po,
# then compile it into the committed django.mo. Needs GNU gettext (apt-get install -y gettext).
messages: setup
	DEBUG=$${DEBUG:-1} $(PY) manage.py makemessages -l ja --no-location --no-obsolete $(addprefix --ignore=,.venv .git bench tests staticfiles node_modules *.egg-info)
	DEBUG=$${DEBUG:-1} $(PY) manage.py compilemessages -l ja --ignore=.venv
