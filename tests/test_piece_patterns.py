"""Pattern databases the engine derives from a puzzle's declared ``Pieces``, on a puzzle
written here that no plug-in knows: six pieces that flip, turned by two cycles.  Each
pattern's table equals a breadth-first search over its abstract states written here
(ranked by this module's own enumeration), never exceeds the distance of a position it
stands for, and IDA* on the tables finds every distance a plain search of the whole
puzzle finds.  And a declaration whose moves cannot be undone by moves is refused."""

from __future__ import annotations

from itertools import permutations
from math import perm

import numpy as np
import pytest
import zarr

from builder import patterns, registry  # noqa: F401 (registry loads the keyed engine)
from builder.contract.base import Move
from builder.contract.errors import PuzzleInputError
from builder.contract.puzzle import GOAL, KeyedPuzzle, KeyedSearch, Pieces, as_spec
from builder.routine import build_table, table_path
from query.walk import Tables

NAMES = ("a", "b", "c", "d", "e", "f")
SOLVED = (tuple(range(6)), (0,) * 6)


def cycle(places: tuple[int, ...], flipped_at: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each place of ``places`` takes the piece of the one before it; the piece arriving
    at ``flipped_at`` turns over."""
    taken = list(range(6))
    for at, place in enumerate(places):
        taken[place] = places[at - 1]
    gained = [int(place == flipped_at) for place in range(6)]
    return tuple(taken), tuple(gained)


def undone(move):
    taken, gained = move
    back, lost = [0] * 6, [0] * 6
    for place, source in enumerate(taken):
        back[source] = place
        lost[source] = gained[place] % 2
    return tuple(back), tuple(lost)


TURN_A = cycle((0, 1, 2), 0)
TURN_B = cycle((2, 3, 4, 5), 3)
MOVES = (TURN_A, undone(TURN_A), TURN_B, undone(TURN_B))
PATTERNS = (("a", "b", "c"), ("d", "e", "f"))


def moved(node, move):
    taken, gained = move
    places, flips = node
    return (tuple(places[taken[p]] for p in range(6)),
            tuple((flips[taken[p]] + gained[p]) % 2 for p in range(6)))


class FlipSearch(KeyedSearch):
    def pieces(self, variant):
        return Pieces(NAMES, MOVES, orientations=2, patterns=PATTERNS)


class Flips(KeyedPuzzle):
    """Positions as (the piece in each place, each place's flip)."""

    own_search = FlipSearch
    name = "flips-test"
    summary = "test flips"
    example = ("abcdef/000000", "solved")

    def recognises(self, text):
        return "/" in text

    def variant(self, start, target, options):
        return "turns"

    def parse(self, variant, text):
        letters, flips = text.split("/")
        return tuple(NAMES.index(ch) for ch in letters), tuple(int(ch) for ch in flips)

    def format_position(self, variant, node):
        return "".join(NAMES[p] for p in node[0]) + "/" + "".join(map(str, node[1]))

    def moves(self, variant, node):
        return [Move(label, moved(node, move)) for label, move in zip("AaBb", MOVES)]

    def encode(self, variant, node):
        places, flips = node
        return sum(p << (3 * i) for i, p in enumerate(places)) | sum(
            f << (18 + i) for i, f in enumerate(flips))

    def decode(self, variant, key):
        return (tuple((key >> (3 * i)) & 7 for i in range(6)),
                tuple((key >> (18 + i)) & 1 for i in range(6)))

    def starts(self, variant):
        return [SOLVED]

    def targets(self, variant):
        return [SOLVED]

    def table_variants(self):
        return ["turns"]

    def variant_name(self, variant):
        return variant

    def variant_named(self, name):
        return "turns"


PUZZLE = Flips()


def plain_distances() -> dict:
    found, frontier = {SOLVED: 0}, [SOLVED]
    while frontier:
        following = []
        for node in frontier:
            for move in MOVES:
                there = moved(node, move)
                if there not in found:
                    found[there] = found[node] + 1
                    following.append(there)
        frontier = following
    return found


def seen(node, tracked):
    places, flips = node
    return tuple((places.index(piece), flips[places.index(piece)]) for piece in tracked)


def index_of(state) -> int:
    """An abstract state's entry, by this module's own enumeration: the tracked pieces'
    places as an arrangement in lexicographic order, then their flips as binary digits,
    the first piece's most significant."""
    arrangements = {places: rank for rank, places in
                    enumerate(permutations(range(6), len(state)))}
    flips = int("".join(str(flip) for _, flip in state), 2)
    return arrangements[tuple(place for place, _ in state)] * 2 ** len(state) + flips


def stored_estimates(data, names) -> np.ndarray:
    spec = as_spec(PUZZLE.table({"variant": "turns", "pieces": list(names)}))
    return zarr.open_group(table_path(data, spec), mode="r")["estimate"][...]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("flips")
    for table in PUZZLE.default_tables():
        build_table(folder, table, progress=False, log=lambda *_: None)
    return folder


def test_the_engine_declares_the_default_patterns_beside_the_full_table():
    parts = [spec.parts for spec in PUZZLE.default_tables()]
    assert parts == [("flips-test", "turns"), ("flips-test", "patterns", "turns", "a-b-c"),
                     ("flips-test", "patterns", "turns", "d-e-f")]
    assert [spec.parts[-1] for spec in PUZZLE.table_for("turns:b-e")] == ["b-e"]
    with pytest.raises(PuzzleInputError, match="1 to 5 distinct pieces"):
        PUZZLE.table_for("a-b-c-d-e-f")


@pytest.mark.parametrize("names", PATTERNS)
def test_a_pattern_table_equals_a_search_over_its_abstract_states(data, names):
    tracked = tuple(NAMES.index(name) for name in names)
    start = seen(SOLVED, tracked)
    found, frontier = {start: 0}, [start]
    while frontier:  # the abstract moves: where each tracked piece goes, and its flip
        following = []
        for state in frontier:
            for taken, gained in MOVES:
                goes = [taken.index(place) for place, _ in state]
                there = tuple((to, (flip + gained[to]) % 2)
                              for to, (_, flip) in zip(goes, state))
                if there not in found:
                    found[there] = found[state] + 1
                    following.append(there)
        frontier = following
    expected = np.full(perm(6, len(tracked)) * 2 ** len(tracked), -1)
    for state, distance in found.items():
        expected[index_of(state)] = distance
    stored = stored_estimates(data, names)
    reached = expected >= 0
    assert np.array_equal(stored[reached], expected[reached])
    assert (stored[~reached] == np.iinfo(stored.dtype).max).all()


def test_ida_on_the_patterns_finds_every_distance_of_a_plain_search(data):
    distances = plain_distances()
    tables = Tables(data)
    nodes = sorted(distances)
    for at in np.random.default_rng(5).choice(len(nodes), 40, replace=False):
        node = nodes[at]
        search = PUZZLE.pattern_search(tables, "turns", node, GOAL)
        expected = max(int(stored_estimates(data, names)[index_of(seen(
            node, tuple(NAMES.index(name) for name in names)))]) for names in PATTERNS)
        assert patterns.start_estimate(tables, search) == expected <= distances[node]
        found = patterns.found_path(PUZZLE, "turns", node, search,
                                    patterns.run(tables, search))
        assert found.length == distances[node], PUZZLE.format_position("turns", node)
        replayed = node  # each step one of the puzzle's moves, as it labels it
        for label, there in zip(found.labels, found.nodes[1:]):
            replayed = moved(replayed, MOVES["AaBb".index(label)])
            assert replayed == there
        assert replayed == SOLVED


def test_pieces_whose_moves_cannot_be_undone_are_refused():
    with pytest.raises(PuzzleInputError, match="undoing"):
        Pieces(NAMES, (TURN_A,), orientations=2)


def test_a_step_of_the_search_keeps_every_patterns_index(data):
    """The step (run here as the plain Python the engine compiles) writes the row after a
    move: the position, and each pattern's entry as this module enumerates them."""
    tables = Tables(data)
    nodes = sorted(plain_distances())
    for at in np.random.default_rng(8).choice(len(nodes), 20, replace=False):
        node = nodes[at]
        search = PUZZLE.pattern_search(tables, "turns", node, GOAL)
        for number, move in enumerate(MOVES):
            rows = np.zeros((2, len(search.start)), dtype=np.int64)
            rows[0] = search.start
            search.step(rows, 0, number, np.asarray(search.parameters, dtype=np.int64))
            after = moved(node, move)
            indices = [index_of(seen(after, tuple(NAMES.index(n) for n in names)))
                       for names in PATTERNS]
            assert rows[1].tolist() == [*after[0], *after[1], *indices]
