"""The registry and the generic engine over it: every puzzle's notation is recognised by
that puzzle alone, and for every walkable puzzle the generic walk replays legally, has
the tabled length, and `query moves` agrees with it."""

from __future__ import annotations

import doctest
import json
import subprocess

import numpy as np
import pytest

from builder import registry
from builder.contract import puzzle as contract
from builder.contract.errors import PuzzleInputError
from builder.contract.puzzle import Charting, Describing, Playing, Walking, walkable
from puzzles.lightsout.rules import LightsOut
from query.walk import Tables, distance_between, move_values, walk
from tests.commands import run_command
from tests.walks import fewest_moves_from

WALKABLE = [p for p in registry.PUZZLES if walkable(p)]


def test_the_interface_example_runs():
    tried = doctest.testmod(contract)
    assert tried.attempted >= 4 and tried.failed == 0


@pytest.mark.parametrize("puzzle", [p for p in registry.PUZZLES if Describing.of(p).example[1]],
                         ids=lambda p: p.name)
def test_each_example_is_recognised_by_its_puzzle_alone(puzzle):
    assert registry.recognising(Describing.of(puzzle).example[0]) == [puzzle]
    assert registry.choose(Describing.of(puzzle).example[0]) is puzzle


def test_two_puzzles_recognising_one_text_is_an_error_naming_both(monkeypatch):
    twin = type("Twin", (type(registry.by_name("tricolore")),), {"name": "twin"})()
    monkeypatch.setattr(registry, "PUZZLES", (*registry.PUZZLES, twin))
    with pytest.raises(PuzzleInputError, match="tricolore and twin: write NAME:STATE"):
        registry.choose("WBWW.WBRB")
    assert registry.choose("WBWW.WBRB", forced="twin") is twin


def example_game(puzzle):
    """(variant, start, target) of the puzzle's own example pair."""
    start_text, target_text = Describing.of(puzzle).example
    variant = puzzle.variant(start_text, target_text, {})
    return (variant, puzzle.parse(variant, start_text),
            Walking.of(puzzle).parse_target(variant, target_text))


@pytest.mark.parametrize("puzzle", WALKABLE, ids=lambda p: p.name)
def test_generic_walk_replays_legally_with_the_tabled_length(puzzle, data_for):
    """The length is the table's, or the search's where no table holds the puzzle."""
    tables = Tables(data_for(puzzle))
    variant, start, target = example_game(puzzle)
    found = walk(puzzle, tables, variant, start, target)
    node = Walking.of(puzzle).start_node(variant, start)
    assert found.nodes[0] == node
    assert found.length == distance_between(puzzle, tables, variant, start, target) > 0
    if found.how != "table walk":  # the search's length is the same code's: a plain one's
        assert found.length == fewest_moves_from(puzzle, variant, node, target, tables)
    for label, following in zip(found.labels, found.nodes[1:]):
        assert (label, following) in {(m.label, m.state) for m in puzzle.moves(variant, node)}
        node = following
    assert Walking.of(puzzle).at_target(variant, node, target)


@pytest.mark.parametrize("puzzle", WALKABLE, ids=lambda p: p.name)
def test_move_values_obey_the_shortest_path_recurrence(puzzle, data_for):
    data_dir = data_for(puzzle)
    variant, start, target = example_game(puzzle)
    node = Walking.of(puzzle).start_node(variant, start)
    here, values = move_values(puzzle, Tables(data_dir), variant, node, target)
    reachable = [v.distance for v in values if v.distance is not None]
    assert here == min(reachable) + 1


def _query(*arguments, data_dir) -> subprocess.CompletedProcess:
    return run_command("query", *arguments, "--data", str(data_dir))


@pytest.mark.parametrize("puzzle", WALKABLE, ids=lambda p: p.name)
def test_query_distance_and_solvable_equal_the_walked_path_for_every_puzzle(puzzle, data_for):
    data_dir = data_for(puzzle)
    variant, start, target = example_game(puzzle)
    length = walk(puzzle, Tables(data_dir), variant, start, target).length
    distance = _query("distance", *Describing.of(puzzle).example, "--json", data_dir=data_dir)
    assert distance.returncode == 0, distance.stderr
    assert json.loads(distance.stdout)[Describing.of(puzzle).unit] == length
    solvable = _query("solvable", *Describing.of(puzzle).example, "--json", data_dir=data_dir)
    assert solvable.returncode == 0, solvable.stderr
    answer = json.loads(solvable.stdout)
    assert answer[Describing.of(puzzle).goal_words[0]] is True and answer[Describing.of(puzzle).unit] == length


def test_an_unreachable_target_is_one_line_and_exit_1_for_solvable(data_for):
    data_dir = data_for(registry.by_name("tricolore"))
    never = _query("solvable", "RRRR.RRRR", "BBBB.BBBB", data_dir=data_dir)
    assert never.returncode == 1 and "can never be solved" in never.stdout
    distance = _query("distance", "RRRR.RRRR", "BBBB.BBBB", data_dir=data_dir)
    assert distance.returncode == 2 and "never blue afterwards" in distance.stderr


def test_the_walk_falls_back_to_the_plug_ins_search_where_no_table_answers(tmp_path,
                                                                          data_for):
    """An empty data directory: Tricolore 4x4 pairs are answered by its bidirectional
    search (checked against the rules by replaying), ball tubes by their solver, puzzles
    without a search say the table is missing."""
    from builder.contract.errors import MissingTableError
    from tests import reference

    tricolore = registry.by_name("tricolore")
    start, target = "RRRR.RRRR.RRRR.RRRB", "RRRR.RRRR.RRRR.RRRR"
    game = tricolore.variant(start, target, {})
    found = walk(tricolore, Tables(tmp_path), game, game.rules.parse(start),
                 game.rules.parse(target))
    assert found.how == "bidirectional search" and found.length >= 1
    clicks = [int(label) for label in found.labels]
    assert reference.replay(start, clicks, "unrestricted", 4, 4)[-1] == target
    balls = registry.by_name("balls")  # its solver, proven optimal: the table's length
    variant, first, goal = example_game(balls)
    searched = walk(balls, Tables(tmp_path), variant, first, goal)
    tabled = walk(balls, Tables(data_for(balls)), variant, first, goal)
    assert "proven optimal" in searched.how and searched.length == tabled.length
    hanoi = registry.by_name("hanoi")
    variant, first, goal = example_game(hanoi)
    with pytest.raises(MissingTableError):
        walk(hanoi, Tables(tmp_path), variant, first, goal)


def test_the_web_mounts_each_plug_ins_endpoints_and_charts(data_for):
    data_dir = data_for(*registry.PUZZLES)  # the charts read every puzzle's tables
    from fastapi.testclient import TestClient

    from query.web import create_app

    client = TestClient(create_app(data_dir))
    paths = client.get("/openapi.json").json()["paths"]
    for puzzle in registry.PUZZLES:
        router = Playing.of(puzzle).web_routes(Tables(data_dir))
        mounted = {f"/api/{puzzle.name}{route.path}" for route in
                   (router.routes if router is not None else [])}
        assert mounted <= set(paths), puzzle.name
        for chart in Charting.of(puzzle).figure_names:
            answer = client.get(f"/api/{puzzle.name}/plots/{chart}.svg")
            assert answer.status_code == 200 and answer.text.lstrip().startswith("<?xml")
    assert client.get("/api/nothing/plots/x.svg").status_code == 400


def test_lights_out_walk_has_the_fewest_clicks_of_the_algebra(data_for):
    puzzle = registry.by_name("lightsout")
    rules = LightsOut(5, 5)
    tables = Tables(data_for(puzzle))
    for start, target in np.random.default_rng(5).integers(0, 2**25, (20, 2)):
        solution = rules.solve(int(start), int(target))
        if not solution.solvable:
            assert puzzle.distance(tables, rules, int(start), int(target)) is None
            continue
        found = walk(puzzle, tables, rules, int(start), int(target))
        assert found.length == len(solution.clicks)  # nullity 2: the minimum is exact


def test_query_moves_json_marks_the_moves_that_keep_the_optimum(data_for):
    data_dir = data_for(registry.by_name("tricolore"))
    result = run_command("query", "moves", "WBWW.WBRB", "RRRR.RRRR", "--json",
                         "--data", str(data_dir))
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["distance"] == 7 and len(answer["moves"]) == 8
    optimal = {m["move"] for m in answer["moves"] if m["optimal"]}
    path = json.loads(run_command("query", "path", "WBWW.WBRB", "RRRR.RRRR",
                                  "--json", "--data", str(data_dir)).stdout)
    assert str(path["clicks"][0]) in optimal
    assert all(m["distance"] >= 6 for m in answer["moves"])


def test_query_path_walks_a_lights_out_board(data_for):
    data_dir = data_for(registry.by_name("lightsout"))
    result = run_command("query", "path", "10000.00000.00000.00000.00001",
                         "00000.00000.00000.00000.00000", "--json", "--data", str(data_dir))
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    rules = LightsOut(5, 5)
    state = rules.parse(answer["start"])
    assert rules.press(state, [int(m) for m in answer["moves"]]) == 0
    assert answer["length"] == len(rules.solve(state, 0).clicks)


def test_generic_views_cover_every_table_and_add_up(data_for):
    import duckdb

    from builder.store import SEALED_CATALOG

    with duckdb.connect(str(data_for(*registry.PUZZLES) / "catalog.duckdb"), read_only=True,
                        config=dict(SEALED_CATALOG)) as catalog:
        _check_the_generic_views(catalog)


def _check_the_generic_views(catalog) -> None:
    summary = catalog.execute('SELECT puzzle, variant, "table", states, reachable, '
                              "max_distance FROM table_summary").fetchall()
    # every puzzle whose positions are walked has distance tables (Spot Colour has none)
    assert {row[0] for row in summary} == {p.name for p in registry.PUZZLES if walkable(p)}
    for puzzle, variant, table, states, reachable, _ in summary:
        (total,) = catalog.execute(
            'SELECT sum(states) FROM distance_distribution WHERE puzzle = ? AND variant = ? '
            'AND "table" = ?', [puzzle, variant, table]).fetchone()
        assert total == states and 0 <= reachable <= states


@pytest.mark.parametrize("puzzle, variant, table, states, reachable, max_distance", [
    ("balls", "4_4_3", "to cleared", 1_212_750, 801_396, None),  # the ball document
    ("lucas", "n=3", "to goal", 7 * 20, 7 * 20, None),            # (2n+1) C(2n, n)
    ("lightsout", "5x5", "from all off", 2**25, 2**23, 15),        # nullity 2
    ("tricolore", "4x4 unrestricted", "to RRRR.RRRR.RRRR.RRRR", 3**16, 3**16, 12),
    ("tricolore", "4x2 unrestricted", "all pairs", 3**16, None, 10),
])
def test_generic_views_reproduce_known_figures(data_for, puzzle, variant, table, states,
                                               reachable, max_distance):
    import duckdb

    from builder.store import SEALED_CATALOG

    catalog = data_for(registry.by_name(puzzle)) / "catalog.duckdb"
    with duckdb.connect(str(catalog), read_only=True, config=dict(SEALED_CATALOG)) as con:
        row = con.execute('SELECT states, reachable, max_distance FROM table_summary WHERE '
                          'puzzle = ? AND variant = ? AND "table" = ?',
                          [puzzle, variant, table]).fetchone()
    assert row is not None and row[0] == states
    assert reachable is None or row[1] == reachable
    assert max_distance is None or row[2] == max_distance


def test_a_named_prefix_chooses_the_puzzle_and_two_readings_name_the_prefix_form(monkeypatch):
    assert registry.resolve("sliding:123.456.780") == (registry.by_name("sliding"),
                                                      "123.456.780")
    assert registry.resolve("WBWW.WBRB") == (registry.by_name("tricolore"), "WBWW.WBRB")
    twin = type("Twin", (type(registry.by_name("tricolore")),), {"name": "twin"})()
    monkeypatch.setattr(registry, "PUZZLES", (*registry.PUZZLES, twin))
    with pytest.raises(PuzzleInputError, match="tricolore:WBWW.WBRB or twin:WBWW.WBRB"):
        registry.resolve("WBWW.WBRB")
    assert registry.resolve("twin:WBWW.WBRB")[0] is twin
    with pytest.raises(PuzzleInputError, match="--puzzle says tricolore"):
        registry.resolve("twin:WBWW.WBRB", forced="tricolore")


def test_a_prefixed_state_is_answered_like_the_plain_one_everywhere(data_for):
    import json

    from fastapi.testclient import TestClient

    from query.web import create_app

    data_dir = data_for(registry.by_name("sliding"))

    def query(*args: str) -> dict:
        done = run_command("query", *args, "--json", "--data", str(data_dir))
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    plain = query("path", "867.254.301", "123.456.780")
    assert query("path", "sliding:867.254.301") == plain  # the default goal, by name
    assert query("path", "sliding:867.254.301", "sliding:123.456.780") == plain
    client = TestClient(create_app(data_dir))
    answered = client.get("/api/play/sliding/position",
                          params={"state": "sliding:867.254.301"}).json()
    assert answered["distance"] == plain["length"] == 31


def test_a_misspelled_hook_is_refused_in_one_line_naming_the_nearest_hook():
    """A plug-in's public member that no part of the contract declares would be silently
    ignored: registering it is refused, naming the hook it was probably meant to be."""
    from builder.contract.base import Move
    from builder.contract.hooks import UnknownHookError
    from builder.contract.puzzle import WalkablePuzzle

    class Lamps(WalkablePuzzle):
        name = "lamps"

        def recognises(self, text):
            return set(text) <= {"0", "1"}

        def variant(self, start, target, options):
            return len(start)

        def parse(self, lamps, text):
            return int(text, 2)

        def format(self, lamps, state):
            return format(state, f"0{lamps}b")

        def moves(self, lamps, state):
            return [Move(str(i), state ^ 1 << i) for i in range(lamps)]

        def defualt_target(self, lamps):
            return "0" * lamps

    with pytest.raises(UnknownHookError) as refused:
        registry.registered((Lamps(),))
    message = str(refused.value)
    assert "\n" not in message and "'defualt_target'" in message
    assert "did you mean default_target?" in message

    del Lamps.defualt_target  # spelled right, or not at all, it registers
    Lamps.default_target = lambda self, lamps: "0" * lamps
    assert registry.registered((Lamps(),))[0].name == "lamps"

    # a member of its own search, defined on the puzzle, is refused and sent there
    Lamps.distance = lambda self, tables, lamps, state, target: (state ^ target).bit_count()
    with pytest.raises(UnknownHookError) as refused:
        registry.registered((Lamps(),))
    message = str(refused.value)
    assert "\n" not in message and "'distance'" in message and "own_search" in message


def test_a_puzzle_declares_at_most_thirty_names_and_its_own_search_the_rest():
    """The contract a person reads whole: the names a puzzle class may define are at most
    30 (the aim of the declared contract), the rest of what the engine reads is its own
    search's, and no name is both."""
    from builder.contract import hooks

    declared, searched = hooks.puzzle_hooks(), hooks.search_hooks()
    assert len(declared) <= 30, sorted(declared)
    assert not set(declared) & set(searched)
    assert {"name", "parse", "format", "moves", "encode", "positions", "own_search"} <= set(
        declared)


def test_every_hook_is_declared_in_the_one_contract_module():
    """Each part of the contract lives in builder.contract, and every registered plug-in's
    public members are hooks declared there."""
    from builder.contract import hooks

    assert all(part.__module__ == "builder.contract.puzzle" for part in contract.PARTS)
    assert all(core.__module__ == "builder.contract.puzzle" for core in hooks._core_classes())
    declared, searched = hooks.puzzle_hooks(), hooks.search_hooks()
    for puzzle in registry.PUZZLES:
        package = type(puzzle).__module__  # the plug-in's package, wherever it is installed
        search = type(puzzle).own_search
        for kind, allowed in ((type(puzzle), declared), (search, searched)):
            for cls in kind.__mro__:
                if cls.__module__ == package or cls.__module__.startswith(package + "."):
                    assert {name for name in vars(cls) if not name.startswith("_")} <= set(
                        allowed), (puzzle.name, cls)


def test_a_dense_plug_in_that_writes_no_moves_is_refused_in_one_line():
    """A dense puzzle gives its moves once, as ``moves`` or as ``move_kernel``: one that
    gives neither is refused when it is registered, naming both."""
    from builder.contract.hooks import UnknownHookError
    from builder.contract.puzzle import DensePuzzle

    class Moveless(DensePuzzle):
        name = "moveless"

        def recognises(self, text):
            return False

        def variant(self, start, target, options):
            return 0

        def parse(self, variant, text):
            return 0

        def format(self, variant, state):
            return ""

        def stored_distance(self, variant, node, target):
            return None

    with pytest.raises(UnknownHookError, match="neither moves nor move_kernel"):
        registry.registered((Moveless(),))
