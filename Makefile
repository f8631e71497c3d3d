# Two commands do all the set-up on a fresh machine:
#   make tables   creates .venv, installs the project, builds every table into data/
#   make test     the same, then runs the test suite
VENV ?= .venv
DATA ?= data
PYTHON ?= python3
INSTALLED := $(VENV)/.installed
TEST_TOOLS := $(VENV)/.installed-test-tools

.PHONY: tables test bench clean-data

# --no-compile: bytecode is compiled on first import, for the modules used (pip compiling
# every installed file took a third of the install's time).  The tables need the project
# alone; the test tools (a browser driver among them) come with `make test`: a fresh
# `make tables` installs in 38 s instead of 48 s.
$(INSTALLED): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-compile -e .
	touch $@

$(TEST_TOOLS): $(INSTALLED)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-compile -e '.[test]'
	touch $@

tables: $(INSTALLED)
	$(VENV)/bin/builder tables --data $(DATA) $(if $(FORCE),--force)
	$(VENV)/bin/query stats tricolore --data $(DATA)

# three test processes on the 2-core machine, idle ones stealing work (pytest-xdist): a
# fifth of the suite waits (servers, a browser, subprocesses), so a third process fills
# it: 682 tests in 223 s with -n auto, 209 s with -n 3 --dist worksteal
test: tables $(TEST_TOOLS)
	TABLEBASE_DATA=$(abspath $(DATA)) $(VENV)/bin/pytest -n 3 --dist worksteal

bench: tables
	$(VENV)/bin/python bench/run.py --full-build --data $(DATA)
	$(VENV)/bin/python bench/dask_scaling.py --width 4 --height 2 --method hybrid --data $(DATA)
	$(VENV)/bin/python bench/balls_solver.py --data $(DATA)
	$(VENV)/bin/python bench/busy_machine.py --data $(DATA)
	$(VENV)/bin/python bench/sparse.py --data $(DATA)

clean-data:
	rm -rf $(DATA)/tricolore $(DATA)/catalog.duckdb
