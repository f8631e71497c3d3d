"""The example third-party plug-in, Rush Hour (``tests/example_plugin``: a package of its
own, which `make test` installs): reached only through its entry point, never imported
here.  Its tables, built by `builder build`, equal a breadth-first search written here on
board strings; it is in every listing, command, the catalog and the page while installed,
and gone from all of them when Python runs on a site-packages folder without the files
its installation wrote (as after `pip uninstall`); installed but unimportable, it is one
warning and every other puzzle works."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from builder import registry
from tests import reference
from tests.commands import CommandProcess, run_command

EXAMPLE = Path(__file__).parent / "example_plugin"
DISTRIBUTION = "rushhour-tablebase"
CARDS = {"easy": "BB---C.D--E-C.DAAE-C.D--E--.F---GG.F-HHH-",
         "hard": "BCDDEF.BC--EF.BAAG-H.IIIG-H.JKKK-H.J-LLMM"}
"""The example's cards, as its renderer and docstring give them."""

# ---- an independent search on board strings: six rows of six cells joined by '.', a
# letter per car, '-' empty; the red car A is out when it covers the last two cells of
# the third row


def slides(board: str) -> list[str]:
    """Every board one move on: a car slid one or more cells along its line."""
    cells = board.replace(".", "")
    found = []
    for letter in sorted(set(cells) - {"-"}):
        spots = [i for i, ch in enumerate(cells) if ch == letter]
        lying = spots[1] - spots[0] == 1
        for step in ((-1, 1) if lying else (-6, 6)):
            moved = spots
            while True:
                moved = [spot + step for spot in moved]
                entering = moved[0] if step < 0 else moved[-1]
                if not (0 <= entering < 36) or (lying and entering // 6 != spots[0] // 6):
                    break
                if cells[entering] != "-":
                    break
                after = ["-" if ch == letter else ch for ch in cells]
                for spot in moved:
                    after[spot] = letter
                found.append(".".join("".join(after[r * 6:r * 6 + 6]) for r in range(6)))
    return found


def is_out(board: str) -> bool:
    return board.split(".")[2][4:] == "AA"


def fewest_moves_out(start: str) -> dict[str, int]:
    """Every board reachable from ``start`` with its fewest moves until the red car is
    out (slides can be undone: a search from every board with the car out)."""
    reached = reference.plain_distances(start, slides)
    distance = reference.nearest_distances(
        [board for board in reached if is_out(board)], slides)
    assert set(distance) == set(reached)
    return distance


@pytest.fixture(scope="module")
def searched() -> dict[str, dict[str, int]]:
    return {card: fewest_moves_out(start) for card, start in CARDS.items()}


@pytest.fixture(scope="module")
def installed():
    """The example's installation (its files in site-packages), or the suite fails saying
    how to install it."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        return distribution(DISTRIBUTION)
    except PackageNotFoundError:
        pytest.fail(f"{DISTRIBUTION} is not installed: `make test` installs it "
                    "(pip install -e tests/example_plugin)")


@pytest.fixture(scope="module")
def built(tmp_path_factory, installed) -> Path:
    """A data directory holding the example's default tables, built by the command line."""
    data = tmp_path_factory.mktemp("rushhour")
    done = run_command("builder", "build", "rushhour", "--data", str(data), "--quiet")
    assert done.returncode == 0, done.stderr
    return data


def test_the_cards_figures_from_the_search_written_here(searched):
    """The cards are small: a few thousand positions; every one can get the car out."""
    figures = {card: (len(boards), boards[CARDS[card]], max(boards.values()))
               for card, boards in searched.items()}
    assert figures == {"easy": (1247, 8, 9), "hard": (1988, 18, 18)}


def test_the_example_reaches_the_registry_through_its_own_entry_point(installed):
    import tomllib

    (entry,) = [e for e in installed.entry_points if e.group == registry.ENTRY_POINT_GROUP]
    assert (entry.name, entry.value) == ("rushhour", "rushhour_tablebase:RushHourPuzzle")
    declared = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    assert declared["name"] == DISTRIBUTION
    assert declared["entry-points"][registry.ENTRY_POINT_GROUP] == {"rushhour": entry.value}
    own = tomllib.loads((EXAMPLE.parents[1] / "pyproject.toml").read_text())["project"]
    assert "rushhour" not in own["entry-points"][registry.ENTRY_POINT_GROUP]
    puzzle = registry.by_name("rushhour")
    module = sys.modules[type(puzzle).__module__]
    assert Path(module.__file__).parent == EXAMPLE / "src" / "rushhour_tablebase"


def test_no_test_imports_the_example_s_module():
    """Its tests reach it through the registry: a test that imported it would register
    nothing, and would hide a broken entry point."""
    import ast

    for path in Path(__file__).parent.glob("*.py"):
        text = path.read_text()
        if "rushhour_tablebase" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [alias.name for alias in node.names] + [getattr(node, "module", "")]
                assert not any((name or "").startswith("rushhour_tablebase")
                               for name in names), path.name


@pytest.mark.parametrize("card", CARDS)
def test_its_tables_equal_the_search_written_here(built, searched, card):
    import duckdb

    from builder.store import SEALED_CATALOG
    from query.api import open_tablebase

    distance = searched[card]
    with duckdb.connect(str(built / "catalog.duckdb"), read_only=True,
                        config=dict(SEALED_CATALOG)) as catalog:
        summary = catalog.execute(
            "SELECT states, reachable, max_distance FROM table_summary WHERE puzzle = "
            "'rushhour' AND variant = ?", [card]).fetchall()
        spread = catalog.execute(
            "SELECT distance, states FROM distance_distribution WHERE puzzle = 'rushhour' "
            "AND variant = ?", [card]).fetchall()
    assert summary == [(len(distance), len(distance), max(distance.values()))]
    assert dict(spread) == Counter(distance.values())
    boards = sorted(distance)
    sample = [boards[i] for i in np.random.default_rng(4).choice(len(boards), 60)]
    with open_tablebase(built) as tablebase:
        rushhour = tablebase.puzzle("rushhour")
        for board in [CARDS[card], *sample]:
            assert rushhour.distance(board) == distance[board], board
        path = rushhour.path(CARDS[card])
    here = CARDS[card]
    for step in path.steps:
        assert step.position in slides(here), (here, step)
        here = step.position
    assert path.length == distance[CARDS[card]] and is_out(here)


def test_query_walks_it_and_its_prefix_form_is_the_same_answer(built, searched):
    """Every board of both cards is recognised by the example alone (no built-in puzzle
    reads six rows of six): ``rushhour:BOARD`` names it all the same, as for any
    puzzle."""
    puzzle = registry.by_name("rushhour")
    for boards in searched.values():
        assert all(registry.recognising(board) == [puzzle] for board in boards)
    plain = run_command("query", "path", CARDS["hard"], "--json", "--data", str(built))
    assert plain.returncode == 0, plain.stderr
    named = run_command("query", "path", f"rushhour:{CARDS['hard']}", "solved", "--json",
                        "--data", str(built))
    assert json.loads(named.stdout) == json.loads(plain.stdout)
    assert json.loads(plain.stdout)["length"] == searched["hard"][CARDS["hard"]]
    wrong = run_command("query", "distance", CARDS["easy"], "solved", "--card", "hard",
                        "--data", str(built))
    assert wrong.returncode == 2 and "cars of card hard" in wrong.stderr
    assert len(wrong.stderr.strip().splitlines()) == 1


# ---- installed and uninstalled: the same commands, run by this environment's Python on
# its own site-packages folder or on one without the example's files

SITE = Path(sysconfig.get_paths()["purelib"])
PAGE = """import json, sys
from fastapi.testclient import TestClient
from query.web import create_app
client = TestClient(create_app(sys.argv[-1]))
renderer = client.get("/renderers/rushhour.js")
print(json.dumps({"puzzles": [p["name"] for p in client.get("/api/puzzles").json()],
                  "renderer": renderer.text if renderer.status_code == 200 else None}))
"""
def site_without(files: set[Path], folder: Path) -> Path:
    """A site-packages folder of links to every entry of this environment's but
    ``files``."""
    folder.mkdir()
    for entry in SITE.iterdir():
        if entry not in files:
            (folder / entry.name).symlink_to(entry)
    return folder


def run_in_one_process(site_folder: Path, commands: list[tuple[str, ...]], cwd: Path
                       ) -> list[subprocess.CompletedProcess]:
    """``commands`` (console script names, or ``-c CODE``, with their arguments) run in
    order by one Python whose only site-packages is ``site_folder``; the process itself
    must end cleanly, with nothing on its own stderr."""
    with CommandProcess(site_folder=site_folder, cwd=cwd) as process:
        done = [process.run(*command, timeout=300) for command in commands]
        assert process.finish() == (0, "")
    return done


def its_files(installed) -> set[Path]:
    """What installing the example wrote into site-packages (its RECORD: what `pip
    uninstall` removes), by top-level entry."""
    return {SITE / Path(str(file)).parts[0] for file in installed.files}


@pytest.mark.parametrize("present", [True, False], ids=["installed", "uninstalled"])
def test_installed_it_is_in_every_listing_and_uninstalled_it_is_gone(
        tmp_path, built, installed, present, searched):
    import shutil

    folder = SITE if present else site_without(its_files(installed), tmp_path / "site")
    data = tmp_path / "data"
    shutil.copytree(built, data)

    card = CARDS["easy"]
    commands = {"listed": ("builder", "build", "--list"), "commands": ("builder", "--help"),
                "path help": ("query", "path", "--help"),
                "checked": ("builder", "verify", "rushhour", "--data", str(data)),
                "walked": ("query", "distance", f"rushhour:{card}", "solved", "--data", str(data)),
                "catalogued": ("builder", "catalog", "--data", str(data)),
                "page": ("-c", PAGE, str(data)),
                "views": ("query", "sql", "SELECT DISTINCT puzzle FROM table_summary", "--data",
                          str(data))}
    refused = {"checked", "walked"}  # without the example: "no such puzzle" (exit 2)
    ran = dict(zip(commands, run_in_one_process(folder, list(commands.values()), tmp_path)))
    for name, done in ran.items():
        assert done.returncode == (0 if present or name not in refused else 2), (name, done)
        assert "warning" not in done.stderr and "Traceback" not in done.stderr, done.stderr

    # what `builder tables` and `make tables` build: every line of `builder build --list`
    listed = ran["listed"].stdout.splitlines()
    assert ("rushhour   2 tables: easy, hard" in listed) == present
    assert len(listed) == len(registry.PUZZLES) - (not present)
    assert (" rushhour " in ran["commands"].stdout) == present
    assert (f"query path {card} solved" in ran["path help"].stdout) == present
    assert ("no puzzle 'rushhour'" in ran["checked"].stderr) != present
    fewest = searched["easy"][card]  # the test's own search's
    assert ran["walked"].stdout.strip() == (str(fewest) if present else "")
    assert ("is no puzzle's notation" in ran["walked"].stderr) != present
    assert ("rushhour" in ran["views"].stdout) == present
    page = json.loads(ran["page"].stdout)
    assert ("rushhour" in page["puzzles"]) == present
    assert len(page["puzzles"]) == len(registry.PUZZLES) - (not present)
    shipped = (EXAMPLE / "src" / "rushhour_tablebase" / "renderer.js").read_text()
    assert page["renderer"] == (shipped if present else None)


def test_installed_but_unimportable_it_is_one_warning_and_every_other_puzzle_works(
        tmp_path, installed, data_dir):
    """Its metadata left, its module gone (the path file that reaches the source folder
    removed): the entry point fails to load."""
    reaching = {file for file in its_files(installed) if file.suffix == ".pth"}
    assert reaching, "an editable install reaches its source through a .pth file"
    folder = site_without(reaching, tmp_path / "site")
    listed, walked = run_in_one_process(folder, [
        ("builder", "build", "--list"),
        ("query", "distance", "WBWW.WBRB", "RRRR.RRRR", "--data", str(data_dir))], tmp_path)
    lines = listed.stderr.strip().splitlines()
    assert listed.returncode == 0 and len(lines) == 1, listed.stderr
    assert lines[0].startswith("warning: plug-in rushhour (rushhour_tablebase:RushHourPuzzle"
                               f", package {DISTRIBUTION}) cannot be loaded: "
                               "ModuleNotFoundError"), lines
    assert len(listed.stdout.splitlines()) == len(registry.PUZZLES) - 1
    assert walked.returncode == 0 and walked.stdout.strip() == "7", walked.stderr
