# kifu — the two commands that matter on a fresh machine: `make run` and `make test`.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
KIFU := $(BIN)/kifu
DB ?= kifu.db

.PHONY: install lock soak run test test-unit test-e2e bench lint golden docs browser clean mutate i18n

$(BIN)/python:
	@command -v $(PY) >/dev/null 2>&1 || { echo "need $(PY) (Python 3.11)"; exit 1; }
	$(PY) -m venv $(VENV)

# Exactly the versions in requirements.lock (what the suite last passed with), then kifu itself
# without resolving anything again; `make lock` refreshes the lock (then run `make test` before
# committing it). tests/core/test_lock.py compares what is installed with the lock.
$(STAMP): pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/python -m pip install -q --require-virtualenv -r requirements.lock
	$(BIN)/python -m pip install -q --no-deps -e .
	touch $(STAMP)

install: $(STAMP)

lock: install
	$(BIN)/uv pip compile pyproject.toml --extra test --extra postgres --python-version 3.11 --universal \
	  --custom-compile-command "make lock" -q -o requirements.lock
	$(MAKE) install

# The browser the page tests drive: Debian's chromium (Playwright cannot download one here).
browser:
	@{ test -x /usr/bin/chromium && fc-list 2>/dev/null | grep -qi "noto sans cjk"; } || { \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium fonts-noto-cjk; }

run: install
	@$(BIN)/python -m recorder.tools.demo --db $(DB) --serve

# The suite runs inside a throwaway PostgreSQL cluster so every store test runs on both backends.
# Test files run in parallel (pytest-xdist): two workers a core, because the suite waits more than
# it computes (browsers, servers, subprocesses: one worker a core left half the CPU idle, issue 38).
# TEST_JOBS=0 runs them in this one process.
# .ci/warm-bytecode first: kifu and the tests compiled once, not once a worker and a subprocess;
# .ci/in-tmpfs: the tests' temporary stores in memory (SQLite's fsyncs no wait, as PostgreSQL's are off).
TEST_JOBS ?= $(shell echo $$(( $$(nproc) * 2 )))
test: install browser
	.ci/warm-bytecode $(BIN)/python
	.ci/in-tmpfs .ci/with-postgres $(BIN)/python -m pytest -n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

# The suite N times in a row on a machine kept busy (BUSY busy-loop processes beside it, more
# test workers than cores), each run in a random order of its own: prints each run's result,
# seed and time, and exits non-zero if any run failed. `make soak N=3 BUSY=2` (TEST_JOBS as `make test`).
N ?= 3
BUSY ?= 2
soak: install browser
	.ci/warm-bytecode $(BIN)/python
	N=$(N) BUSY=$(BUSY) TEST_JOBS=$(TEST_JOBS) .ci/in-tmpfs .ci/soak

test-unit: install
	$(BIN)/python -m pytest tests --ignore=tests/e2e

# The paths users hit, each beside its baseline (recorder/tools/bench/), on SQLite and on a
# throwaway PostgreSQL started with fsync on (the tests' cluster runs without it), so both
# backends commit as durably as SQLite's WAL with synchronous=FULL; then the README's table.
bench: install
	KIFU_PG_FSYNC=on .ci/with-postgres sh -c '$(KIFU) bench -o bench/results.json --pg "$$KIFU_TEST_PG" --readme'

lint: install
	$(BIN)/ruff check recorder projections exports tests
	$(BIN)/mypy projections recorder exports

# Mutation testing (mutmut) of the core modules in mutation.toml, each against its tests, on a
# copy of HEAD: `make mutate`, or one module: `make mutate MODULE=recorder/logformat.py`.
mutate: install
	$(BIN)/python -m tests.mutate_tool $(if $(MODULE),--module $(MODULE)) $(if $(JOBS),--jobs $(JOBS))

golden: install
	$(BIN)/python -m tests.golden_tool --write

# The gettext catalog of what a person reads (exports/i18n.py): extract, merge into ja, compile.
LOCALE := exports/locale
i18n: install
	$(BIN)/pybabel extract -F $(LOCALE)/babel.cfg -k N_ --no-location --sort-output --project kifu -o $(LOCALE)/kifu.pot .
	$(BIN)/pybabel update -i $(LOCALE)/kifu.pot -d $(LOCALE) -D kifu -l ja --no-fuzzy-matching --ignore-obsolete
	$(BIN)/pybabel compile -d $(LOCALE) -D kifu -l ja --statistics

docs: install
	$(BIN)/python -m recorder.tools.docgen --write

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
