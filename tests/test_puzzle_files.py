"""Puzzles declared by a TOML file, no code (`builder define`): each of the two files in
docs/puzzle-files checked against a breadth-first search written here over the file's
own permutations, its paths replayed by this module's own moves, and the file's checks
and `--remove` seen from the command line."""

from __future__ import annotations

import json
import os
import random
import shutil
import tomllib
from pathlib import Path

import pytest

from tests.commands import run_command

FILES = Path(__file__).resolve().parent.parent / "docs" / "puzzle-files"


def _stickers(solved: str) -> list[int]:
    return [at for at, ch in enumerate(solved) if ch.isascii() and ch.isalpha()]


class Reference:
    """A puzzle file read by this test alone: positions as whole notation strings."""

    def __init__(self, path: Path):
        self.file = tomllib.loads(path.read_text())
        self.name, self.solved = self.file["name"], self.file["solved"]
        self.places = _stickers(self.solved)
        self.moves = self.file["moves"]

    def after(self, notation: str, move: str) -> str:
        # place i takes what place moves[move][i] held
        written = list(notation)
        for place, source in enumerate(self.moves[move]):
            written[self.places[place]] = notation[self.places[source]]
        return "".join(written)

    def before(self, notation: str, move: str) -> str:
        written = list(notation)
        for place, source in enumerate(self.moves[move]):
            written[self.places[source]] = notation[self.places[place]]
        return "".join(written)

    def distances_to_solved(self) -> dict[str, int]:
        """Fewest moves to solved, by a search from solved over the moves undone."""
        found, frontier = {self.solved: 0}, [self.solved]
        while frontier:
            following = []
            for here in frontier:
                for move in self.moves:
                    there = self.before(here, move)
                    if there not in found:
                        found[there] = found[here] + 1
                        following.append(there)
            frontier = following
        return found


@pytest.fixture(scope="module")
def defined(tmp_path_factory):
    """A data directory with both files defined and built."""
    from builder import registry
    from builder.command_line import default_data

    data = tmp_path_factory.mktemp("files")
    for name in ("floppy", "turnstiles"):
        run_command("builder", "define", str(FILES / f"{name}.toml"), "--data", str(data),
                    check=True)
        run_command("builder", "build", name, "--data", str(data), "--quiet", check=True)
    yield data
    registry.use_data(default_data())  # the other tests' puzzles, not these


def _sql(data: Path, statement: str) -> list[dict]:
    done = run_command("query", "sql", statement, "--json", "--data", str(data), check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("name", ["floppy", "turnstiles"])
def test_a_file_puzzle_counts_what_a_search_of_its_moves_finds(defined, name):
    reference = Reference(FILES / f"{name}.toml")
    expected: dict[int, int] = {}
    for distance in reference.distances_to_solved().values():
        expected[distance] = expected.get(distance, 0) + 1
    rows = _sql(defined, "SELECT distance, states FROM distance_distribution "
                         f"WHERE puzzle = '{name}' ORDER BY distance")
    assert {row["distance"]: row["states"] for row in rows} == expected


@pytest.mark.parametrize("name", ["floppy", "turnstiles"])
def test_a_file_puzzles_paths_replay_at_the_searched_length(defined, name):
    reference = Reference(FILES / f"{name}.toml")
    distances = reference.distances_to_solved()
    for position in random.Random(7).sample(sorted(distances), 6):
        done = run_command("query", "path", f"{name}:{position}", "--json", "--data",
                           str(defined), check=True)
        found = json.loads(done.stdout)
        here = position
        for move in found["moves"]:
            here = reference.after(here, move)
        assert here == reference.solved
        assert found["length"] == distances[position] and found["optimal"]


def test_a_position_outside_the_solved_orbit_can_never_be_solved(defined):
    reference = Reference(FILES / "floppy.toml")
    distances = reference.distances_to_solved()
    # two stickers of the top face's middle row swapped with the bottom's: same letters
    swapped = list(reference.solved)
    swapped[4], swapped[16] = swapped[16], swapped[4]
    position = "".join(swapped)
    assert position not in distances
    done = run_command("query", "path", f"floppy:{position}", "--data", str(defined))
    assert done.returncode == 2
    assert "can never reach solved" in done.stderr and "Traceback" not in done.stderr


def test_the_python_api_answers_a_file_puzzle(defined):
    from query.api import open_tablebase

    reference = Reference(FILES / "turnstiles.toml")
    position = reference.after(reference.after(reference.solved, "a"), "d")
    with open_tablebase(defined) as tablebase:
        assert (tablebase.puzzle("turnstiles").distance(position)
                == reference.distances_to_solved()[position])


BROKEN = {
    "not a permutation": ('name = "bad"\nsolved = "AB-C"\n[moves]\nx = [0, 0, 2]\n',
                          "not a permutation"),
    "no moves": ('name = "bad"\nsolved = "AB-C"\n[moves]\n', "at least one move"),
    "a built-in's name": ('name = "sliding"\nsolved = "AB"\n[moves]\nx = [1, 0]\n',
                          "taken by an installed puzzle"),
    "not TOML": ("name = \n", "not TOML"),
    "a misspelt key": ('name = "bad"\nsolvd = "AB"\n[moves]\nx = [1, 0]\n',
                       "unknown key 'solvd'"),
    "a bad name": ('name = "Bad Name"\nsolved = "AB"\n[moves]\nx = [1, 0]\n', "name"),
    "too short a move": ('name = "bad"\nsolved = "ABC"\n[moves]\nx = [1, 0]\n',
                         "not a permutation"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_puzzle_file_is_one_line_and_exit_1_with_nothing_written(tmp_path, case):
    text, expected = BROKEN[case]
    data = tmp_path / "data"
    data.mkdir()
    (tmp_path / "bad.toml").write_text(text)
    done = run_command("builder", "define", str(tmp_path / "bad.toml"), "--data", str(data))
    assert done.returncode == 1
    assert expected in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert list(data.iterdir()) == []


def test_a_name_a_file_took_is_refused_and_remove_forgets_the_puzzle(tmp_path):
    data = tmp_path / "data"
    path = FILES / "turnstiles.toml"
    run_command("builder", "define", str(path), "--data", str(data), check=True)
    again = run_command("builder", "define", str(path), "--data", str(data))
    assert again.returncode == 1 and "--remove turnstiles" in again.stderr
    run_command("builder", "build", "turnstiles", "--data", str(data), "--quiet", check=True)
    assert _sql(data, "SELECT count(*) AS n FROM distance_distribution "
                      "WHERE puzzle = 'turnstiles'")[0]["n"] > 0
    run_command("builder", "define", "--remove", "turnstiles", "--data", str(data),
                check=True)
    assert not (data / "turnstiles").exists()
    gone = run_command("query", "path", "turnstiles:AAA.BBB.CCC", "--data", str(data))
    assert gone.returncode == 2 and "turnstiles" in gone.stderr
    assert _sql(data, "SELECT count(*) AS n FROM distance_distribution "
                      "WHERE puzzle = 'turnstiles'")[0]["n"] == 0
    shutil.rmtree(data)


def test_a_file_puzzle_has_its_deal_command_in_a_new_process(defined):
    done = run_command("query", "random", "floppy", "--distance", "3", "--seed", "1",
                       "--json", "--data", str(defined), env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    reference = Reference(FILES / "floppy.toml")
    (level,) = json.loads(done.stdout)
    assert reference.distances_to_solved()[level["position"]] == 3


def test_the_catalog_follows_the_puzzles_known_at_the_next_read(tmp_path):
    """A puzzle that goes (its file deleted by hand, as a package uninstalled) leaves the
    catalog's views at the next command that reads them, and comes back with its file:
    no `builder catalog` run by hand."""
    data = tmp_path / "data"
    for name in ("floppy", "turnstiles"):
        run_command("builder", "define", str(FILES / f"{name}.toml"), "--data", str(data),
                    check=True)
        run_command("builder", "build", name, "--data", str(data), "--quiet", check=True)
    listed = "SELECT DISTINCT puzzle FROM distance_distribution ORDER BY puzzle"
    assert [row["puzzle"] for row in _sql(data, listed)] == ["floppy", "turnstiles"]
    kept = (data / "defined" / "floppy.toml").read_bytes()
    (data / "defined" / "floppy.toml").unlink()
    assert [row["puzzle"] for row in _sql(data, listed)] == ["turnstiles"]
    (data / "defined" / "floppy.toml").write_bytes(kept)
    assert [row["puzzle"] for row in _sql(data, listed)] == ["floppy", "turnstiles"]


def test_a_running_server_plays_a_puzzle_defined_after_it_started(tmp_path):
    """`builder define` while `query serve` runs: the next request knows the puzzle, its
    path replays on the file's own moves (the reference search in this test)."""
    from fastapi.testclient import TestClient

    from builder import registry
    from builder.command_line import default_data
    from query.web import create_app

    data = tmp_path / "data"
    data.mkdir()
    try:
        client = TestClient(create_app(data))
        listed = client.get("/api/puzzles").json()
        assert "floppy" not in {puzzle["name"] for puzzle in listed}
        elsewhere = {"env": dict(os.environ)}  # another process, as a user's shell
        run_command("builder", "define", str(FILES / "floppy.toml"), "--data", str(data),
                    check=True, **elsewhere)
        run_command("builder", "build", "floppy", "--data", str(data), "--quiet", check=True,
                    **elsewhere)
        listed = client.get("/api/puzzles").json()
        assert "floppy" in {puzzle["name"] for puzzle in listed}
        reference = Reference(FILES / "floppy.toml")
        start = max(reference.distances_to_solved().items(), key=lambda item: item[1])[0]
        answer = client.get("/api/play/floppy/path", params={"state": start})
        assert answer.status_code == 200, answer.text
        assert answer.json()["length"] == reference.distances_to_solved()[start]
    finally:
        registry.use_data(default_data())  # the other tests' puzzles, not this one


def _cycle(places: int, *cycle: int) -> list[int]:
    """A move that carries each place of ``cycle`` to the next: place i then holds what
    place moves[i] held."""
    move = list(range(places))
    for at, place in enumerate(cycle):
        move[cycle[(at + 1) % len(cycle)]] = place
    return move


def test_a_file_whose_keys_take_two_words_counts_what_a_search_finds(tmp_path):
    """42 stickers of three colours: 3**42 positions' worth of key, past one 64-bit word,
    so the engine's two-word kernel (compiled from the same plain moves) searches it."""
    import zarr

    places = 42
    solved = "R" * 14 + "G" * 14 + "B" * 14
    moves = {"A": _cycle(places, 0, 14, 28), "B": _cycle(places, 0, 15, 29),
             "C": _cycle(places, 1, 14, 41)}
    path = tmp_path / "stripes.toml"
    path.write_text(f'name = "stripes"\nsummary = "three colours, three cycles"\n'
                    f'solved = "{solved}"\n[moves]\n'
                    + "".join(f"{name} = {move}\n" for name, move in moves.items()))
    data = tmp_path / "data"
    try:
        run_command("builder", "define", str(path), "--data", str(data), check=True)
        run_command("builder", "build", "stripes", "--data", str(data), "--quiet", check=True)
        expected: dict[int, int] = {}
        for distance in Reference(path).distances_to_solved().values():
            expected[distance] = expected.get(distance, 0) + 1
        rows = _sql(data, "SELECT distance, states FROM distance_distribution "
                          "WHERE puzzle = 'stripes' ORDER BY distance")
        assert {row["distance"]: row["states"] for row in rows} == expected
        assert 3 ** places > 2 ** 63 and len(expected) > 3
        stored = [zarr.open_group(found, mode="r").attrs.get("key_words")
                  for found in (data / "stripes").rglob("*.zarr")]
        assert 2 in stored
    finally:
        from builder import registry
        from builder.command_line import default_data

        registry.use_data(default_data())
