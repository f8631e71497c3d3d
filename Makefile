# Two commands do all the set-up on a fresh machine:
#   make tables   creates .venv, installs the project, builds every table into data/
#   make test     the same, then runs the test suite
VENV ?= .venv
DATA ?= data
PYTHON ?= python3
INSTALLED := $(VENV)/.installed
TEST_TOOLS := $(VENV)/.installed-test-tools

.PHONY: tables test bench clean-data

# The tables need the project alone; the test tools (a browser driver among them) come
# with `make test`.  Bytecode is compiled once, after pip (whose own compiling goes one
# file at a time), on every core and with PYTHONDONTWRITEBYTECODE lifted: where that is
# set, as on CI, Python never keeps what it compiles, so each of the hundreds of
# processes the builder and the tests start would compile every module it imports again.
COMPILE = PYTHONDONTWRITEBYTECODE= $(VENV)/bin/python -m compileall -q -j 0

$(INSTALLED): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-compile -e .
	$(COMPILE) $(VENV)/lib builder query puzzles > /dev/null
	touch $@

# with the tools, the example plug-in packaged on its own (tests/example_plugin), which
# its tests reach through its entry point as any installed package's
$(TEST_TOOLS): $(INSTALLED) tests/example_plugin/pyproject.toml
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-compile -e '.[test]' \
		-e tests/example_plugin
	$(COMPILE) $(VENV)/lib builder query puzzles tests bench > /dev/null
	touch $@

tables: $(INSTALLED)
	$(VENV)/bin/builder tables --data $(DATA) $(if $(FORCE),--force)
	$(VENV)/bin/query stats tricolore --data $(DATA)

# three test processes on the 2-core machine, idle ones stealing work (pytest-xdist): part
# of the suite waits (servers, a browser, subprocesses), so a third process fills the
# cores better than two, and a fourth adds nothing.  The tables are built after the test
# tools (the example plug-in among them) are installed, in that order even under `make -j`:
# the example's tables are among those the tests read.
test: $(TEST_TOOLS)
	$(MAKE) tables
	TABLEBASE_DATA=$(abspath $(DATA)) $(VENV)/bin/pytest -n 3 --dist worksteal

bench: tables
	$(VENV)/bin/python bench/run.py --full-build --data $(DATA)
	$(VENV)/bin/python bench/dask_scaling.py --width 4 --height 2 --method hybrid --data $(DATA)
	$(VENV)/bin/python bench/balls_solver.py --data $(DATA)
	$(VENV)/bin/python bench/busy_machine.py --data $(DATA)
	$(VENV)/bin/python bench/sparse.py --data $(DATA)
	$(VENV)/bin/python bench/verify.py --data $(DATA)
	$(VENV)/bin/python bench/levels.py --data $(DATA)
	$(VENV)/bin/python bench/plain_start.py --data $(DATA)
	$(VENV)/bin/python bench/puzzle_files.py --data $(DATA)
	$(VENV)/bin/python bench/korf.py --data $(DATA)
	$(VENV)/bin/builder build rubik half:7-7 --data $(DATA) --quiet
	$(VENV)/bin/python bench/rubik.py --data $(DATA)
	$(VENV)/bin/pip install -q kociemba || echo "kociemba not installed: the two-phase rows have no baseline"
	$(VENV)/bin/python bench/twophase.py --data $(DATA)
	$(VENV)/bin/builder build rubik optimal --data $(DATA) --quiet
	$(VENV)/bin/python bench/rubik_optimal.py --data $(DATA)
	$(VENV)/bin/python bench/setup_commands.py --data $(DATA)
	$(VENV)/bin/python bench/performance_doc.py --data $(DATA)

clean-data:
	rm -rf $(DATA)/tricolore $(DATA)/catalog.duckdb
