"""The 3×3×3 cube: its turns equal a sticker model written here (the usual facelet cycles,
not the plug-in's geometry); small pattern databases built by the engine equal a plain
search written here over the same abstraction and never exceed the true distances; the
kernels with fixed counts equal the general one; IDA* paths replay on the sticker model
and have the length a search from both ends finds; a target other than solved, the
quarter-turn metric, a budget, bad input and a missing table."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import deque
from dataclasses import replace
from functools import cache
from itertools import permutations
from math import factorial
from pathlib import Path

import numpy as np
import pytest
import zarr

from builder import patterns, registry
from builder.contract.errors import PuzzleInputError, QueryError
from builder.contract.work import search_budget
from builder.routine import build_table, table_path
from puzzles.rubik import short
from query.walk import Tables
from tests.commands import run_command

RUBIK = registry.by_name("rubik")
SOLVED = "UUUUUUUUU.RRRRRRRRR.FFFFFFFFF.DDDDDDDDD.LLLLLLLLL.BBBBBBBBB"
SUPERFLIP = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"

# ---- the sticker model: facelets numbered face by face (U R F D L B), 0-8 in reading order

FACE = "URFDLB"


def facelet(face: str, number: int) -> int:
    """The usual facelet U1..B9 (1-based within its face) as an index."""
    return FACE.index(face) * 9 + number - 1


SIDE_CYCLES = {  # a clockwise quarter turn: the stickers of each group move to the next one's
    "U": ("F1 F2 F3", "L1 L2 L3", "B1 B2 B3", "R1 R2 R3"),
    "D": ("F7 F8 F9", "R7 R8 R9", "B7 B8 B9", "L7 L8 L9"),
    "R": ("F3 F6 F9", "U3 U6 U9", "B7 B4 B1", "D3 D6 D9"),
    "L": ("U1 U4 U7", "F1 F4 F7", "D1 D4 D7", "B9 B6 B3"),
    "F": ("U7 U8 U9", "R1 R4 R7", "D3 D2 D1", "L9 L6 L3"),
    "B": ("U3 U2 U1", "L1 L4 L7", "D7 D8 D9", "R9 R6 R3"),
}


def sticker_turn(face: str) -> list[int]:
    """``goes[i]``: where the sticker at facelet i goes in a clockwise quarter turn."""
    goes = list(range(54))
    for row in range(3):  # the face itself: (row, column) to (column, 2 - row)
        for column in range(3):
            goes[facelet(face, row * 3 + column + 1)] = facelet(face, column * 3 + (2 - row) + 1)
    groups = [[facelet(name[0], int(name[1])) for name in group.split()]
              for group in SIDE_CYCLES[face]]
    for source, target in zip(groups, groups[1:] + groups[:1]):
        for here, there in zip(source, target):
            goes[here] = there
    return goes


TURNS = {face: sticker_turn(face) for face in FACE}


def turn(stickers: str, face: str, times: int) -> str:
    for _ in range(times):
        moved = [""] * 54
        for here, there in enumerate(TURNS[face]):
            moved[there] = stickers[here]
        stickers = "".join(moved)
    return stickers


def play(stickers: str, labels) -> str:
    for label in labels:
        stickers = turn(stickers, label[0], {"": 1, "2": 2, "'": 3}[label[1:]])
    return stickers


def flat(text: str) -> str:
    return text.replace(".", "")


def shown(stickers: str) -> str:
    return ".".join(stickers[start:start + 9] for start in range(0, 54, 9))


def relabel(stickers: str, name: str, colour: str) -> str:
    """One sticker recoloured."""
    at = facelet(name[0], int(name[1:]))
    return stickers[:at] + colour + stickers[at + 1:]


LABELS = {"half": [face + way for face in FACE for way in ("", "2", "'")],
          "quarter": [face + way for face in FACE for way in ("", "'")]}


def scramble(rng, length: int, metric: str = "half") -> list[str]:
    """Random turns, never the same face twice in a row."""
    labels = []
    while len(labels) < length:
        label = LABELS[metric][rng.integers(len(LABELS[metric]))]
        if not labels or labels[-1][0] != label[0]:
            labels.append(label)
    return labels


def ball(centre: str, radius: int, metric: str) -> dict[str, int]:
    """Every position at most ``radius`` turns from ``centre``, with its distance."""
    seen = {centre: 0}
    frontier = [centre]
    for depth in range(1, radius + 1):
        following = []
        for here in frontier:
            for label in LABELS[metric]:
                after = play(here, [label])
                if after not in seen:
                    seen[after] = depth
                    following.append(after)
        frontier = following
    return seen


def plain_distance(start: str, target: str, metric: str, radius: int = 3) -> int | None:
    """Fewest turns between two positions at most 2 × radius apart: a search from both
    ends that meet (None: farther)."""
    near_target = ball(target, radius, metric)
    near_start = ball(start, radius, metric)
    meetings = [near_start[position] + near_target[position] for position in near_start
                if position in near_target]
    return min(meetings) if meetings else None


# ---- the sticker model against the plug-in


def test_the_sticker_model_is_a_cube():
    """Each turn four times is nothing; R U R' U' six times is nothing; the superflip
    flips every edge and moves no piece."""
    solved = flat(SOLVED)
    for face in FACE:
        assert turn(solved, face, 4) == solved and turn(solved, face, 1) != solved
    assert play(solved, ["R", "U", "R'", "U'"] * 6) == solved
    assert play(solved, ["R", "U", "R'", "U'"] * 3) != solved
    flipped = play(solved, SUPERFLIP.split())

    def at(name: str) -> int:
        return facelet(name[0], int(name[1:]))

    for edge in EDGE_FACELETS:  # each edge in its place, its two stickers swapped
        first, second = edge.split()
        assert (flipped[at(first)], flipped[at(second)]) == (solved[at(second)],
                                                             solved[at(first)]), edge
    for corner in CORNER_FACELETS:  # each corner in its place, untwisted
        assert all(flipped[at(name)] == solved[at(name)] for name in corner.split()), corner


def test_the_plug_in_turns_as_the_sticker_model():
    rng = np.random.default_rng(46)
    for _ in range(30):
        labels = scramble(rng, 12)
        position = RUBIK.parse("half", " ".join(labels))
        assert flat(RUBIK.format("half", position)) == play(flat(SOLVED), labels)
        for move in RUBIK.moves("half", position):
            assert flat(RUBIK.format("half", move.state)) == play(play(flat(SOLVED), labels),
                                                                  [move.label])
        assert RUBIK.parse("half", RUBIK.format("half", position)) == position


def test_moves_are_singmaster_turns_in_each_metric():
    solved = RUBIK.parse("half", "solved")
    assert [move.label for move in RUBIK.moves("half", solved)] == LABELS["half"]
    assert [move.label for move in RUBIK.moves("quarter", solved)] == LABELS["quarter"]


@pytest.mark.parametrize("text, words", [
    ("UUUUUUUUU.RRRRRRRRR.FFFFFFFFF.DDDDDDDDD.LLLLLLLLL.BBBBBBBBX", "none of U R F D L B"),
    ("UUUUUUUUU.RRRRRRRRR.FFFFFFFFF.DDDDDDDDD.LLLLLLLLL", "neither six faces"),
    ("RUUUUUUUU.UFRRRRRRR.FFFFFFFFF.DDDDDDDDD.LLLLLLLLL.BBBBBBBBB", "no corner"),
    (shown(relabel(flat(SOLVED), "F3", "U")), "no corner has the stickers URU"),
    ("RRRRRRRRR.UUUUUUUUU.FFFFFFFFF.DDDDDDDDD.LLLLLLLLL.BBBBBBBBB", "centres read"),
    ("R U X", "turn 'X'"),
    ("R U r", "turn 'r'"),
    ("R3", "turn 'R3'"),
])
def test_bad_positions_are_one_line_errors(text, words):
    with pytest.raises(PuzzleInputError, match=words) as raised:
        RUBIK.parse("half", text)
    assert "\n" not in str(raised.value)


def twisted(stickers: str, corner: tuple[str, str, str]) -> str:
    """One corner's stickers turned in place."""
    places = [facelet(name[0], int(name[1])) for name in corner]
    moved = list(stickers)
    for here, there in zip(places, places[1:] + places[:1]):
        moved[there] = stickers[here]
    return "".join(moved)


def swapped(stickers: str, first: str, second: str) -> str:
    moved = list(stickers)
    for one, other in zip(first.split(), second.split()):
        a, b = facelet(one[0], int(one[1:])), facelet(other[0], int(other[1:]))
        moved[a], moved[b] = stickers[b], stickers[a]
    return "".join(moved)


@pytest.mark.parametrize("stickers, words", [
    (twisted(flat(SOLVED), ("U9", "R1", "F3")), "twisted in place"),
    (swapped(flat(SOLVED), "U8", "F2"), "flipped in place"),
    (swapped(flat(SOLVED), "U8 F2", "U6 R2"), "two pieces are swapped"),
    (relabel(flat(SOLVED), "L2", "U"), "no edge has the stickers UU"),
    (relabel(flat(SOLVED), "U4", "F"), "the edge FL appears twice"),
])
def test_positions_no_turns_reach_are_refused(stickers, words):
    with pytest.raises(PuzzleInputError, match=words):
        RUBIK.parse("half", shown(stickers))


# ---- small pattern databases against a plain search over the same abstraction

CORNER_FACELETS = ("U9 R1 F3", "U7 F1 L3", "U1 L1 B3", "U3 B1 R3",
                   "D3 F9 R7", "D1 L9 F7", "D7 B9 L7", "D9 R9 B7")
EDGE_FACELETS = ("U6 R2", "U8 F2", "U4 L2", "U2 B2", "D6 R8", "D2 F8", "D4 L8", "D8 B8",
                 "F6 R4", "F4 L6", "B6 L4", "B4 R6")
"""Each place's facelets (the usual tables), its U or D facelet first, else its F or B."""


def place_facets(table) -> list[list[int]]:
    return [[facelet(name[0], int(name[1])) for name in place.split()] for place in table]


CORNER_PLACES, EDGE_PLACES = place_facets(CORNER_FACELETS), place_facets(EDGE_FACELETS)


@cache
def arrangement_ranks(places: int, count: int) -> dict[tuple[int, ...], int]:
    return {arranged: rank for rank, arranged in enumerate(permutations(range(places), count))}


def sticker_moves(metric: str) -> list[list[int]]:
    """Where each sticker goes in each turn of a metric."""
    moves = []
    for label in LABELS[metric]:
        goes = list(range(54))
        for _ in range({"": 1, "2": 2, "'": 3}[label[1:]]):
            goes = [TURNS[label[0]][sticker] for sticker in goes]
        moves.append(goes)
    return moves


def plain_pattern_search(corners, edges, metric):
    """Fewest turns from every placement of the tracked pieces' first stickers to their
    home, by a breadth-first search that turns the stickers themselves; the result keyed
    by the facelet of each tracked corner's first sticker, then each edge's."""
    home = tuple([CORNER_PLACES[c][0] for c in corners] + [EDGE_PLACES[e][0] for e in edges])
    distance = {home: 0}
    queue = deque([home])
    moves = sticker_moves(metric)
    while queue:
        here = queue.popleft()
        for goes in moves:
            after = tuple(goes[sticker] for sticker in here)
            if after not in distance:
                distance[after] = distance[here] + 1
                queue.append(after)
    return distance


PLACE_OF = {sticker: (place, facets.index(sticker)) for table in (CORNER_PLACES, EDGE_PLACES)
            for place, facets in enumerate(table) for sticker in facets}


def plain_rank(stickers: tuple[int, ...], corners, edges) -> int:
    """The rank the encoding documents for a pattern by piece: corners' places, twists
    (base 3, the first lowest), edges' places, flips (bits, the first lowest)."""
    where = [PLACE_OF[sticker] for sticker in stickers]
    corner_part, edge_part = where[:len(corners)], where[len(corners):]
    rank = arrangement_ranks(8, len(corners))[tuple(p for p, _ in corner_part)]
    rank = rank * 3 ** len(corners) + sum(t * 3 ** k for k, (_, t) in enumerate(corner_part))
    rank = rank * len(arrangement_ranks(12, len(edges))) + arrangement_ranks(12, len(edges))[
        tuple(p for p, _ in edge_part)]
    return rank * 2 ** len(edges) + sum(f << k for k, (_, f) in enumerate(edge_part))


SMALL = [("half", "urf-dbl-ubr"), ("half", "ur-df-bl"), ("quarter", "ufl-uf-db"),
         ("quarter", "drb-ulb-dlf")]


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    data = tmp_path_factory.mktemp("rubik_patterns")
    for metric, pieces in SMALL:
        build_table(data, RUBIK.table_for(f"{metric}:{pieces}"), progress=False,
                    log=lambda *_: None)
    return data


@pytest.mark.parametrize("metric, pieces", SMALL)
def test_each_small_pattern_equals_a_plain_search_over_its_abstraction(small, metric, pieces):
    spec = RUBIK.table_for(f"{metric}:{pieces}")
    corners, edges = tuple(spec.identity["corners"]), tuple(spec.identity["edges"])
    expected = np.full(spec.searches["estimate"].states, 255)
    for stickers, turns in plain_pattern_search(corners, edges, metric).items():
        expected[plain_rank(stickers, corners, edges)] = turns
    stored = zarr.open_group(table_path(small, spec),
                             mode="r")["estimate"][...]
    assert np.array_equal(stored, expected)


def first_stickers(stickers: str, corners, edges) -> tuple[int, ...]:
    """Where each tracked piece's first sticker (its U or D colour, else F or B) is."""
    found = []
    for table, names, pieces in ((CORNER_PLACES, CORNER_FACELETS, corners),
                                 (EDGE_PLACES, EDGE_FACELETS, edges)):
        for piece in pieces:
            colours = {name[0] for name in names[piece].split()}
            facets = next(facets for facets in table
                          if {stickers[facet] for facet in facets} == colours)
            found.append(next(facet for facet in facets
                              if stickers[facet] == names[piece][0]))
    return tuple(found)


def test_small_patterns_never_exceed_the_distance_and_a_search_on_them_is_optimal(small):
    """At every position three turns from solved or closer (distances by the plain
    search) each small pattern's value is at most the distance; IDA* on them finds paths
    of exactly the plain distance."""
    near = ball(flat(SOLVED), 3, "half")
    specs = [RUBIK.table_for(f"half:{pieces}") for metric, pieces in SMALL if metric == "half"]
    for spec in specs:
        corners, edges = spec.identity["corners"], spec.identity["edges"]
        stored = zarr.open_group(table_path(small, spec),
                                 mode="r")["estimate"][...]
        for stickers, distance in near.items():
            assert stored[plain_rank(first_stickers(stickers, corners, edges), corners,
                                     edges)] <= distance
    from puzzles.rubik.tables import _search, named_pattern

    patterns_searched = [named_pattern("half", pieces) for metric, pieces in SMALL
                         if metric == "half"]
    tables, solved = Tables(small), RUBIK.parse("half", "solved")
    for stickers in list(near)[::300]:
        search = _search("half", RUBIK.parse("half", shown(stickers)), solved,
                         patterns_searched, "half", "small")
        assert patterns.run(tables, search, progress=False).length == near[stickers]


# ---- the kernels


def test_the_edge_kernels_with_fixed_counts_equal_the_general_one():
    from puzzles.rubik import search

    rng = np.random.default_rng(3)
    out, expected = np.empty(18, np.int64), np.empty(18, np.int64)
    for edges, name in ((6, "six_edge_moves"), (7, "seven_edge_moves")):
        spec = RUBIK.table({"metric": "half", "corners": [], "edges": list(range(edges))})
        assert spec.searches["estimate"].neighbours.endswith(":" + name)
        for quarter in (0, 1):
            parameters = np.array([quarter, 0, edges], np.int64)
            for state in rng.integers(0, spec.searches["estimate"].states, 300):
                count = getattr(search, name)(int(state), parameters, out)
                assert count == search.pattern_moves(int(state), parameters, expected)
                assert np.array_equal(out[:count], expected[:count])


def corner_position(state: int):
    """The position whose corners have the state ``state`` (as the encoding documents:
    a Lehmer code of the corner in each place times 3^7, plus seven twists) and whose
    edges are solved."""
    corners, rest = [], list(range(8))
    code, twist_code = divmod(state, 3 ** 7)
    for place in range(8):
        digit, code = divmod(code, factorial(7 - place))
        corners.append(rest.pop(digit))
    twists = [twist_code // 3 ** place % 3 for place in range(7)]
    return (tuple(corners), (*twists, -sum(twists) % 3), tuple(range(12)), (0,) * 12)


def test_the_corner_kernel_moves_the_corners_as_the_rules_do():
    from puzzles.rubik import search
    from puzzles.rubik.rules import corner_state_rank

    spec = RUBIK.table({"metric": "half", "corners": list(range(8)), "edges": []})
    assert spec.searches["estimate"].neighbours.endswith(":corner_moves")
    assert corner_state_rank(corner_position(12345678)) == 12345678
    out = np.empty(18, np.int64)
    for state in np.random.default_rng(5).integers(0, 88_179_840, 300):
        position = corner_position(int(state))
        for metric in ("half", "quarter"):
            count = search.corner_moves(int(state), np.array([int(metric == "quarter")]), out)
            assert out[:count].tolist() == [corner_state_rank(move.state)
                                            for move in RUBIK.moves(metric, position)]


def test_the_step_keeps_every_index_equal_to_the_rules_ranking():
    """Rows along random walks (from a start other than solved, towards a target other
    than solved): each look-up's index is the one ``rules.pattern_rank`` gives the
    relabelled position, or for a pattern of edges looked up on the inverse, the inverse
    position; in the fixed-count steps and the general one, and with small patterns."""
    from builder.contract.specs import resolved
    from puzzles.rubik.rules import edges_by_place, inverse, pattern_rank, relabelled
    from puzzles.rubik.tables import _search, named_pattern, pattern_set

    rng = np.random.default_rng(4)
    start, target = RUBIK.parse("half", "R U F' L2"), RUBIK.parse("half", "D B2 R'")
    small = [named_pattern("half", pieces) for _, pieces in SMALL]
    for metric in ("half", "quarter"):
        for name, specs in (("6-6", pattern_set("half", "6-6")),
                            ("7-7", pattern_set("half", "7-7")), ("small", small)):
            search = _search(metric, start, target, specs, "half", name)
            general = replace(search, step="puzzles.rubik.search:pattern_step")
            lookups = [(spec, False) for spec in specs] + [
                (spec, True) for spec in specs if not spec.options["corners"]]
            for chosen in (search, general):
                step = resolved(chosen.step)
                parameters = np.array(chosen.parameters, np.int64)
                rows = np.zeros((31, len(chosen.start)), np.int64)
                rows[0] = chosen.start
                position = start
                for depth in range(30):
                    move = int(rng.integers(chosen.moves))
                    assert step(rows, depth, move, parameters) == 1
                    position = RUBIK.moves(metric, position)[move].state
                    renamed = relabelled(position, target)
                    assert tuple(rows[depth + 1, :2]) == chosen.encode(position)
                    assert rows[depth + 1, 2] == edges_by_place(renamed)
                    assert [int(index) for index in rows[depth + 1, 3:]] == [
                        pattern_rank(inverse(renamed) if dual else renamed,
                                     tuple(spec.options["corners"]),
                                     tuple(spec.options["edges"]))
                        for spec, dual in lookups]


# ---- IDA* on the built pattern databases


@pytest.fixture(scope="module")
def cube_tables(data_for):
    return Tables(data_for(RUBIK))


def searched(tables, start: str, target: str = "solved", metric: str = "half"):
    """IDA* on Korf's pattern databases, which the plug-in runs past a short question."""
    from puzzles.rubik import rules
    from puzzles.rubik.tables import search_for

    node = RUBIK.parse(metric, start)
    goal = rules.SOLVED if target == "solved" else RUBIK.parse(metric, target)
    search = search_for(tables, metric, node, goal)
    return patterns.found_path(RUBIK, metric, node, search,
                               patterns.run(tables, search, progress=False))


def test_ida_lengths_equal_a_search_from_both_ends_and_paths_replay(cube_tables):
    rng = np.random.default_rng(46)
    for length in (1, 2, 3, 4, 5, 6, 6, 6):
        labels = scramble(rng, length)
        start = play(flat(SOLVED), labels)
        found = searched(cube_tables, " ".join(labels))
        assert found.length == plain_distance(start, flat(SOLVED), "half")
        assert play(start, found.labels) == flat(SOLVED)
        assert all(label in LABELS["half"] for label in found.labels)


def test_quarter_turns_count_half_turns_twice(cube_tables):
    rng = np.random.default_rng(8)
    for length in (2, 4, 6):
        labels = scramble(rng, length, "quarter")
        start = play(flat(SOLVED), labels)
        found = searched(cube_tables, " ".join(labels), metric="quarter")
        assert all(label in LABELS["quarter"] for label in found.labels)
        assert play(start, found.labels) == flat(SOLVED)
        assert found.length == plain_distance(start, flat(SOLVED), "quarter")
    assert searched(cube_tables, "R2", metric="quarter").labels in (("R", "R"), ("R'", "R'"))


def test_a_target_other_than_solved_is_reached_by_relabelling(cube_tables):
    rng = np.random.default_rng(9)
    for _ in range(3):
        target = play(flat(SOLVED), scramble(rng, 9))
        start = play(target, scramble(rng, 5))
        found = searched(cube_tables, shown(start), shown(target))
        assert play(start, found.labels) == target
        assert found.length == plain_distance(start, target, "half")


def test_query_path_prints_singmaster_turns_for_a_named_scramble(cube_tables):
    run = run_command("query", "path", "rubik:R U R' U2", "--json", "--data",
                      str(cube_tables.location), check=True)
    answer = json.loads(run.stdout)
    assert answer["puzzle"] == "rubik" and answer["optimal"] and answer["target"] == "solved"
    assert answer["length"] == 4 and answer["how"] == short.HOW  # no search of the tables
    start = play(flat(SOLVED), ["R", "U", "R'", "U2"])
    assert flat(answer["states"][0]) == start
    assert play(start, answer["moves"]) == flat(SOLVED) and answer["states"][-1] == SOLVED


# ---- a short question: no kernel loaded, no table read


def test_a_short_answer_is_the_plain_distance_and_the_path_ida_finds(cube_tables):
    """Scrambles of 0 to 6 turns in both metrics, to solved and to another target: within
    ``short.MOST`` turns the answer's length is the sticker model's search from both ends,
    its path replays, and it is the very path IDA* on the pattern databases finds; past
    it, no answer (the pattern search's)."""
    rng = np.random.default_rng(57)
    answered = 0
    for metric in ("half", "quarter"):
        for number, length in enumerate((0, 1, 2, 3, 4, 4, 5, 6)):
            target = flat(SOLVED) if number % 2 else play(flat(SOLVED), scramble(rng, 9))
            start = play(target, scramble(rng, length, metric))
            node, goal = (RUBIK.parse(metric, shown(cube)) for cube in (start, target))
            distance = plain_distance(start, target, metric)
            found = short.path(metric, node, goal)
            if distance > short.MOST:
                assert found is None, (metric, length)
                continue
            positions, labels = found
            assert len(labels) == distance and play(start, labels) == target
            assert [flat(RUBIK.format(metric, position)) for position in positions] == [
                play(start, labels[:step]) for step in range(len(labels) + 1)]
            assert labels == searched(cube_tables, shown(start), shown(target), metric).labels
            answered += 1
    assert answered >= 10


@pytest.mark.parametrize(("scramble_text", "short_question"), [
    ("R U", True), ("R U F D L", False)])
def test_a_short_question_loads_no_kernel_and_reads_no_table(cube_tables, scramble_text,
                                                             short_question):
    """`query path` in a process of its own: a cube at most ``short.MOST`` turns from solved
    is answered without numba, the IDA* kernels or zarr; one farther away (the control:
    the check sees them) by IDA*, which loads them."""
    start = play(flat(SOLVED), scramble_text.split())
    assert (plain_distance(start, flat(SOLVED), "half") <= short.MOST) == short_question
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(sorted(m for m in ('numba', 'builder.kernels.ida') "
        "if m in sys.modules)))\n"
        "from query.launch import main; sys.argv = ['query', 'path', "
        f"'rubik:{scramble_text}', '--data', {str(cube_tables.location)!r}]\n"
        "main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert ("(shortest, " + short.HOW + ")" in done.stdout) == short_question
    loaded = done.stdout.strip().splitlines()[-1]
    assert loaded == ("[]" if short_question else "['builder.kernels.ida', 'numba']")


def test_the_superflip_under_a_budget_names_the_bound_it_proved(cube_tables):
    node = RUBIK.parse("half", SUPERFLIP)
    with search_budget(nodes=200_000):  # a limit: no optimal table made at first use
        search = RUBIK.pattern_search(cube_tables, "half", node,
                                      RUBIK.parse_target("half", "solved"))
    with pytest.raises(QueryError) as stopped:
        patterns.run(cube_tables, replace(search, nodes=200_000), progress=False)
    message = str(stopped.value)
    assert "\n" not in message and "budget of 200,000 nodes" in message
    assert patterns.start_estimate(cube_tables, search) <= int(
        message.rsplit("at least ", 1)[1].split()[0]) <= 20


def test_bad_input_and_a_missing_table_are_one_line_errors(tmp_path):
    bad = run_command("query", "path", "rubik:R U Q", "--data", str(tmp_path))
    assert bad.returncode != 0 and len(bad.stderr.strip().splitlines()) == 1
    assert "turn 'Q'" in bad.stderr
    metric = run_command("query", "path", "rubik:R U", "--metric", "slice", "--data",
                         str(tmp_path))
    assert metric.returncode != 0 and "choose half or quarter" in metric.stderr
    missing = run_command("query", "path", "rubik:R U", "--data", str(tmp_path))
    assert missing.returncode != 0 and len(missing.stderr.strip().splitlines()) == 1
    assert "builder build rubik" in missing.stderr


# ---- the plug-in's words

def test_the_plug_in_names_no_storage_class_never_value_or_kernel_path():
    """What the engine owns (its storage classes and never values, a table's width), or a
    kernel named by its import path instead of given as the function, named nowhere in
    the plug-in (the scan of every plug-in, ``tests/test_plugin_vocabulary.py``)."""
    from tests.test_plugin_vocabulary import storage_words

    folder = Path(short.__file__).parent
    assert len(list(folder.glob("*.py"))) >= 9
    found = storage_words(folder)
    assert not found, found


def test_a_quick_hint_for_a_short_cube_is_its_shortest_path_with_no_search(cube_tables):
    """The page's quick hint (``approximate_path``) on a cube at most ``short.MOST`` turns
    from solved is the short search's path, shortest and proved so, not the two-phase
    solver's (which loads its kernels and reads its table)."""
    start = play(flat(SOLVED), "R U F".split())
    node = RUBIK.parse("half", shown(start))
    found = RUBIK.approximate_path(cube_tables, "half", node,
                                   RUBIK.parse_target("half", "solved"))
    assert found.how == short.HOW and found.optimal
    assert found.length == plain_distance(start, flat(SOLVED), "half") == 3
