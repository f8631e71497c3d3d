"""The `query` and `builder` command lines as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from builder import registry
from builder.contract.puzzle import Describing, Walking, walkable
from tests import reference
from tests.commands import run_command

BIN = Path(sys.executable).parent


def run(*args, data_dir=None) -> subprocess.CompletedProcess:
    extra = ["--data", str(data_dir)] if data_dir else []
    return run_command(*args, *extra)


def test_path_prints_the_appendix_style_table(data_dir):
    result = run("query", "path", "WBWW.WBRB", "RRRR.RRRR", data_dir=data_dir)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("WBWW.WBRB -> RRRR.RRRR: 7 clicks")
    assert lines[1].split() == ["step", "board", "click"]
    assert lines[2].split()[:2] == ["init", "WBWW.WBRB"]
    assert lines[-1].split() == ["7", "RRRR.RRRR", "done"]


@pytest.mark.parametrize("method", ["unrestricted", "hybrid", "restricted"])
def test_path_json_replays(data_dir, method):
    result = run("query", "path", "WBWW.WBRB", "RRRR.RRRR", "--method", method, "--json",
                 data_dir=data_dir)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert set(answer) == {"puzzle", "start", "target", "method", "length", "how", "optimal",
                           "clicks", "boards"}  # the one printer's (round 9 added three)
    assert answer["puzzle"] == "tricolore" and answer["optimal"]
    assert answer["method"] == method and answer["length"] == len(answer["clicks"])
    assert reference.replay("WBWW.WBRB", answer["clicks"], method, 4, 2) == answer["boards"]
    assert answer["boards"][-1] == "RRRR.RRRR"


def test_distance_and_its_json(data_dir):
    assert run("query", "distance", "RRRR.RRRR", "WWWW.WWWW", data_dir=data_dir).stdout == "4\n"
    answer = json.loads(
        run("query", "distance", "WBWW.WBRB", "RRRR.RRRR", "--json", data_dir=data_dir).stdout
    )
    assert answer == {"start": "WBWW.WBRB", "target": "RRRR.RRRR", "method": "unrestricted",
                      "clicks": 7}


def test_sql_json_and_csv(data_dir):
    statement = "SELECT * FROM tricolore_max_clicks_range ORDER BY method"
    rows = json.loads(run("query", "sql", statement, "--json", data_dir=data_dir).stdout)
    assert rows[0] == {"method": "hybrid", "least_max_clicks": 10, "most_max_clicks": 12}
    csv_lines = run("query", "sql", statement, "--csv", data_dir=data_dir).stdout.splitlines()
    assert csv_lines[0] == "method,least_max_clicks,most_max_clicks"
    assert csv_lines[3] == "unrestricted,7,10"


def test_stats_prints_the_document_tables(data_dir):
    out = run("query", "stats", "tricolore", data_dir=data_dir).stdout
    assert "Total   21785760     6560    100%" in out
    assert "Total   21520080     6480    100%" in out
    assert "Average Clicks 5.6" in out and "Average Clicks 7.3" in out


@pytest.mark.parametrize(
    "args, words",
    [
        (("path", "tricolore:WBXW.WBRB", "RRRR.RRRR"), "letters 'X'"),
        (("path", "WBXW.WBRB", "RRRR.RRRR"), "no puzzle's notation"),  # X: none's letter
        (("path", "WBWW.WBR", "RRRR.RRRR"), "not 2 rows of 4"),
        (("path", "WBWW.WBRB", "RRRR.RRRR", "--method", "diagonal"), "unknown method"),
        (("path", "WBWW.WBRB", "BBBB.BBBB"), "cannot be reached"),
        (("path", "WBWW.WBRB", "RWRW.BBBB", "--method", "hybrid"), "hybrid method"),
        (("path", "WBWW.WBRB", "RWRW.BBBB", "--method", "restricted"), "restricted method"),
        (("distance", "WBWW.WBRB", "BBBB.BBBB"), "cannot be reached"),
        (("path", "WBW.WBR", "RRR.RRR"), "no unrestricted table for 3x2"),
        (("sql", "SELECT * FROM no_such_view"), "SQL error"),
    ],
)
def test_bad_input_gets_one_line_and_a_nonzero_exit(data_dir, args, words):
    result = run("query", *args, data_dir=data_dir)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert words in result.stderr


def test_missing_tables_say_run_make_tables(tmp_path):
    result = run("query", "path", "WBWW.WBRB", "RRRR.RRRR", data_dir=tmp_path)
    assert result.returncode != 0 and "make tables" in result.stderr
    result = run("query", "stats", "tricolore", data_dir=tmp_path)
    assert result.returncode != 0 and "make tables" in result.stderr


def all_commands(app, prefix):
    import typer

    group = typer.main.get_command(app)
    stack = [(prefix, group)]
    while stack:
        path, command = stack.pop()
        children = getattr(command, "commands", None)
        if children:
            stack += [((*path, name), child) for name, child in children.items()]
        else:
            yield path


def test_every_command_has_help_with_an_example():
    """In process (typer's runner: a process per command would cost a second each); the
    installed entry points themselves are run by the other tests."""
    from typer.testing import CliRunner

    from builder.cli import app as builder_app
    from query.cli import app as query_app

    apps = {"query": query_app, "builder": builder_app}
    commands = [*all_commands(query_app, ("query",)), *all_commands(builder_app, ("builder",))]
    assert len(commands) >= 20
    runner = CliRunner()
    for command in commands:
        result = runner.invoke(apps[command[0]], [*command[1:], "--help"])
        assert result.exit_code == 0, command
        assert "Example" in result.output, command


HEAVY_FREE_PATHS = [("WBWW.WBRB", "RRRR.RRRR"),
                    *[Describing.of(puzzle).example for puzzle in registry.PUZZLES if walkable(puzzle)]]
SEARCHED = {"rubik"}
"""Puzzles whose example no stored table holds (the 3x3x3 cube's): answered by a search."""


@pytest.mark.parametrize(("start", "target"), HEAVY_FREE_PATHS)
def test_query_path_does_not_import_heavy_modules(data_dir, start, target):
    """A walk over stored tables of any puzzle imports no zarr, duckdb, numba or dask; nor
    does the cube's search for its example, a few turns from solved (no kernel loaded)."""
    from query.walk import Tables, walk

    puzzle = registry.choose(start)
    variant = puzzle.variant(start, target, {})
    found = walk(puzzle, Tables(data_dir), variant, puzzle.parse(variant, start),
                 Walking.of(puzzle).parse_target(variant, target))
    searched = puzzle.name in SEARCHED
    assert (found.how != "table walk") == searched, found.how
    allowed: list[str] = []
    # printed at exit: the command line ends the process itself (builder.command_line)
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(sorted(m for m in ('zarr', 'duckdb', 'numba', 'dask') "
        "if m in sys.modules)))\n"
        "from query.cli import main; sys.argv = ['query', 'path', "
        f"{start!r}, {target!r}, '--data', {str(data_dir)!r}]\n"
        "main()\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.stdout.strip().splitlines()[-1] == str(allowed)


def test_builder_refuses_boards_too_large_for_all_pairs(tmp_path):
    result = run("builder", "tricolore", "--width", "4", "--height", "4", data_dir=tmp_path)
    assert result.returncode != 0
    assert "does not fit" in result.stderr and "Traceback" not in result.stderr


def test_4x4_path_without_a_table_uses_bidirectional_search(data_dir):
    result = run("query", "path", "RRRB.BRWR.WBWR.RRBW", "WRRR.RRRR.RRRR.RRRR", "--json",
                 data_dir=data_dir)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    boards = reference.replay(answer["start"], answer["clicks"], "unrestricted", 4, 4)
    assert boards[-1] == "WRRR.RRRR.RRRR.RRRR" and answer["length"] == len(answer["clicks"])


def test_4x4_decomposition_json_labels_each_click(data_dir):
    result = run("query", "path", "RRRB.BRWR.WBWR.RRBW", "RRRR.RRRR.RRRR.RRRR", "--method",
                 "decomposition", "--json", data_dir=data_dir)
    answer = json.loads(result.stdout)
    assert answer["length"] == 17 and answer["halves"] == ["top"] * 8 + ["bottom"] * 9


@pytest.mark.parametrize("args", [
    ("path", "WBWW.WBRB", "RRRR.RRRR"),
    ("path", "WBXW.WBRB", "RRRR.RRRR"),  # bad input: exit 2, one line
    ("solvable", "rrgg|ggrr|", "--json"),
    ("moves", "WBWW.WBRB"),  # a usage error
])
def test_a_command_run_in_this_process_answers_as_its_console_script(data_dir, args):
    """The tests run most `query` commands in their own process (tests/commands.py): the
    same stdout, stderr and exit code as the installed console script."""
    from tests.commands import runs_in_process

    assert runs_in_process("query", args, {})
    ours = run("query", *args, data_dir=data_dir)
    theirs = subprocess.run([str(BIN / "query"), *args, "--data", str(data_dir)],
                            capture_output=True, text=True, check=False)
    assert (ours.returncode, ours.stdout, ours.stderr) == (
        theirs.returncode, theirs.stdout, theirs.stderr)


@pytest.mark.parametrize(("program", "typed", "meant"), [("query", "pth", "path"),
                                                         ("builder", "biuld", "build")])
def test_a_misspelled_command_is_one_line_naming_the_command_once(program, typed, meant):
    done = run_command(program, typed)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].count(f"Did you mean '{meant}'?") == 1, done.stderr


def test_build_list_keeps_a_puzzle_to_a_line_and_lists_one_puzzle_whole():
    from builder.contract.puzzle import Building

    every = run_command("builder", "build", "--list")
    assert every.returncode == 0 and all(len(line) <= 100 for line in every.stdout.splitlines())
    hanoi = run_command("builder", "build", "hanoi", "--list")
    expected = ["/".join(spec.parts) for spec in
                Building.of(registry.by_name("hanoi")).default_tables()]
    assert hanoi.returncode == 0 and hanoi.stdout.splitlines() == expected
    assert len(expected) > 10 and f"{len(expected)} tables" in every.stdout


def test_one_move_is_said_in_the_singular():
    done = run_command("query", "path", "123.456.708", "123.456.780")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "123.456.708 -> 123.456.780: 1 move (shortest, table walk)"
