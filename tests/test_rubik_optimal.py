"""The 3x3x3 cube proved optimal at depth (``puzzles/rubik/optimal*.py``,
``symmetry.py``): the 16 symmetries of D4h and the URF-DBL spin conjugate a cube as its
stickers say; the flip-slice coordinates fall into Kociemba's 64,430 classes; the
symmetry-reduced phase-1 table, searched a few levels from H, holds at every raw
coordinate (twist, flip, slice read from the stickers) the depth a plain breadth-first
search over those coordinates finds, the same at every symmetric image, and a backward
level finds what a forward one does; IDA* on it (a table cut off a few levels from H:
no test makes the whole one) finds the lengths Korf's pattern databases do, with one
thread and with two, and its paths replay on the sticker model; `query path` and the
Python API use it, proved or within a limit.  Where the whole table is stored, it is
checked at sampled entries and against Kociemba's published distribution."""

from __future__ import annotations

import json
from dataclasses import replace
from math import comb

import numpy as np
import pytest

from builder import patterns, registry
from builder.contract.errors import SearchLimitError
from builder.contract.work import search_budget
from puzzles.rubik import optimal, rules
from puzzles.rubik import optimal_kernels as kernels
from puzzles.rubik import symmetry as sym
from query.walk import Tables
from tests.test_rubik import LABELS, SOLVED, flat, play, scramble, shown
from tests.test_rubik_twophase import coordinates as sticker_coordinates

RUBIK = registry.by_name("rubik")
PHASE1_COUNTS = (1, 4, 50, 592, 7156, 87236, 1043817, 12070278, 124946368, 821605960,
                 1199128738, 58202444, 476)
"""Kociemba's published distribution of the 2,217,093,120 raw phase-1 coordinates by
their fewest turns into H."""
SEARCHED = 6
"""Levels of the test's table searched from H; every entry farther holds 7, a bound."""
SLICE_SOLVED = comb(8, 1) + comb(9, 2) + comb(10, 3) + comb(11, 4)


def random_position(rng, turns: int = 40):
    return RUBIK.parse("half", shown(play(flat(SOLVED), scramble(rng, turns))))


# ---- the symmetries


def test_every_symmetry_conjugates_as_its_piece_tables_say_and_keeps_solved():
    rng = np.random.default_rng(1)
    assert len(set(sym.D4H)) == 16 and sym.D4H[0] == ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    for matrix in (*sym.D4H, sym.SPIN_MATRIX):
        assert sym.conjugated(rules.SOLVED, matrix) == rules.SOLVED
        for _ in range(3):
            position = random_position(rng)
            assert sym.conjugated_pieces(position, matrix) == sym.conjugated(position, matrix)
    position = random_position(rng)
    assert sym.conjugated(position, sym.SPIN_MATRIX) == rules.spun(position)


def test_a_turn_of_a_conjugated_cube_is_the_turn_its_move_map_names():
    """On the test's sticker model: conjugating, then turning the mapped face (the other
    way where the symmetry mirrors), is turning, then conjugating."""
    rng = np.random.default_rng(2)
    for matrix in (*sym.D4H, sym.SPIN_MATRIX):
        mapped = sym.move_map(matrix)
        start = play(flat(SOLVED), scramble(rng, 30))
        seen = sym.conjugated(RUBIK.parse("half", shown(start)), matrix)
        for move, label in enumerate(LABELS["half"]):
            after = sym.conjugated(RUBIK.parse("half", shown(play(start, [label]))), matrix)
            expected = play(flat(rules.format_cube(seen)), [LABELS["half"][mapped[move]]])
            assert flat(rules.format_cube(after)) == expected


def test_the_flip_slice_coordinates_fall_into_kociembas_64430_classes():
    classes = sym.flip_slice_classes()
    assert len(classes.representative) == 64430 and len(classes.class_of) == 495 * 2048
    images = np.stack([sym.conjugated_flip_slices(matrix) for matrix in sym.D4H], axis=1)
    # each coordinate's symmetry takes it to its class's representative, the least image
    assert (images[np.arange(len(images)), classes.symmetry]
            == classes.representative[classes.class_of]).all()
    assert (classes.representative[classes.class_of] == images.min(axis=1)).all()
    # orbit and stabiliser: a class of s symmetries fixing its representative has 16 / s
    # members
    sizes = np.array([bin(int(mask)).count("1") for mask in classes.stabiliser])
    assert (sizes >= 1).all() and (16 % sizes == 0).all()
    assert np.bincount(classes.class_of).tolist() == (16 // sizes).tolist()


def test_conjugated_coordinates_are_those_read_from_the_conjugated_stickers():
    rng = np.random.default_rng(3)
    twists = sym.twist_conjugates()
    for number, matrix in enumerate(sym.D4H):
        flip_slices = sym.conjugated_flip_slices(matrix)
        for _ in range(4):
            position = random_position(rng)
            twist, flip, places, *_ = sticker_coordinates(flat(rules.format_cube(position)))
            image = sticker_coordinates(flat(rules.format_cube(sym.conjugated(position,
                                                                             matrix))))
            assert image[0] == twists[twist, number]
            assert image[2] * 2048 + image[1] == flip_slices[places * 2048 + flip]


# ---- the table, searched a few levels from H


@pytest.fixture(scope="module")
def partial() -> np.ndarray:
    """Levels 0 .. SEARCHED, every entry farther SEARCHED + 1 (a 141 MB array of bytes,
    in about two seconds: not the whole table's search)."""
    return optimal.distances(deepest=SEARCHED)


def entries(twists: np.ndarray, flip_slices: np.ndarray) -> np.ndarray:
    found = optimal.coordinates()
    packed = found.class_symmetry[flip_slices].astype(np.int64)
    return (packed >> 4) * 2187 + found.twist_conjugate[twists, packed & 15]


def raw_levels(depth: int) -> list[np.ndarray]:
    """Raw coordinates ``(slice * 2048 + flip) * 2187 + twist`` by their fewest turns into
    H, each level the unseen coordinates one turn from the one before (a plain
    breadth-first search with the two-phase move tables, no symmetry)."""
    from puzzles.rubik.twophase_search import FLIP_MOVES, SLICE_MOVES, TWIST_MOVES

    levels = [np.array([SLICE_SOLVED * 2048 * 2187], np.int64)]
    seen = set(levels[0].tolist())
    for _ in range(depth):
        codes = levels[-1]
        twist, rest = codes % 2187, codes // 2187
        flip, places = rest % 2048, rest // 2048
        after = ((SLICE_MOVES[places].astype(np.int64) * 2048 + FLIP_MOVES[flip]) * 2187
                 + TWIST_MOVES[twist]).ravel()
        fresh = np.setdiff1d(np.unique(after), np.fromiter(seen, np.int64))
        seen.update(fresh.tolist())
        levels.append(fresh)
    return levels


def test_the_table_near_h_equals_a_plain_search_over_raw_coordinates(partial):
    levels = raw_levels(SEARCHED)
    assert [len(level) for level in levels] == list(PHASE1_COUNTS[:SEARCHED + 1])
    written = 0
    for depth, codes in enumerate(levels):
        at = entries(codes % 2187, codes // 2187)
        assert (partial[at] == depth).all(), depth
        written += len(np.unique(at))
    # no entry holds a depth that no raw coordinate that near gave it
    assert int(np.count_nonzero(partial <= SEARCHED)) == written
    assert int(np.count_nonzero(partial == SEARCHED + 1)) == optimal.ENTRIES - written


def test_symmetric_coordinates_share_their_entrys_value(partial):
    rng = np.random.default_rng(4)
    codes = np.concatenate([level[:3000] for level in raw_levels(SEARCHED)])
    codes = np.concatenate([codes, rng.integers(0, 495 * 2048 * 2187, 3000)])
    twists, flip_slices = codes % 2187, codes // 2187
    value = partial[entries(twists, flip_slices)]
    conjugates = sym.twist_conjugates()
    for number, matrix in enumerate(sym.D4H):
        images = sym.conjugated_flip_slices(matrix)[flip_slices]
        assert (partial[entries(conjugates[twists, number], images)] == value).all()


def test_a_backward_level_finds_what_a_forward_level_finds(partial):
    found = optimal.coordinates()
    unseen = int(np.iinfo(np.uint8).max)  # any value no level reaches
    level = np.where(partial > SEARCHED - 1, unseen, partial).astype(np.uint8)
    first, last = 0, 3_000_000
    backward = level.copy()
    kernels.fill_level(SEARCHED - 1, backward, unseen, first, last, 1, found.class_symmetry,
                       found.representative, found.stabiliser, found.twist_conjugate)
    kernels.fill_level(SEARCHED - 1, level, unseen, 0, optimal.ENTRIES, 0,
                       found.class_symmetry, found.representative, found.stabiliser,
                       found.twist_conjugate)
    assert np.count_nonzero(level[first:last] == SEARCHED) > 1000
    assert np.array_equal(backward[first:last], level[first:last])
    assert np.array_equal(np.minimum(level, SEARCHED + 1), partial)


def test_the_flip_twist_bound_equals_a_plain_search():
    from puzzles.rubik.twophase_search import FLIP_MOVES, TWIST_MOVES

    expected = np.full(2048 * 2187, 255, np.uint8)
    expected[0] = 0
    level, depth = np.array([0]), 0
    while len(level):
        after = (FLIP_MOVES[level // 2187].astype(np.int64) * 2187
                 + TWIST_MOVES[level % 2187]).ravel()
        depth += 1
        expected[after[expected[after] == 255]] = depth
        level = np.flatnonzero(expected == depth)
    assert np.array_equal(optimal.flip_twist(), expected)


# ---- IDA* on the partial table


@pytest.fixture(scope="module")
def tables(data_for):
    return Tables(data_for(RUBIK))


@pytest.fixture
def made(partial, monkeypatch):
    """The search reads the partial table (where the whole one is stored too), and the
    start's fewest turns into H from it (the residues alone cannot say them past its
    levels)."""
    def start_turns(twist, flip, slice_, packed, class_symmetry, twist_conjugate):
        return int(partial[entries(np.array([twist]), np.array([slice_ * 2048 + flip]))[0]])

    residues = kernels.packed_residues(partial)
    monkeypatch.setattr(optimal, "residues", lambda tables, make=False: residues)
    monkeypatch.setattr(kernels, "phase1_distance", start_turns)
    # the inverse's bound reads a residue as the least distance past the two-phase
    # tables' bound: past the levels searched it may say too much
    monkeypatch.setattr(optimal, "INVERSE", False)
    return partial


def korf_length(tables, node, target=rules.SOLVED) -> int:
    from puzzles.rubik.tables import search_for

    search = search_for(tables, "half", node, target)
    return patterns.run(tables, search, progress=False).length


def optimal_path(tables, node, threads: int, target=rules.SOLVED):
    search = optimal.search_for(tables, node, target, threads=threads)
    assert search is not None and search.how == optimal.HOW
    return patterns.found_path(RUBIK, "half", node, search,
                               patterns.run(tables, search, progress=False))


def test_ida_on_the_table_finds_the_lengths_korfs_search_finds(tables, made):
    """8 to 11 turns scrambled; each found path replays on the sticker model."""
    rng = np.random.default_rng(57)
    for length in (8, 9, 10, 10, 11):
        labels = scramble(rng, length)
        start = play(flat(SOLVED), labels)
        node = RUBIK.parse("half", shown(start))
        expected = korf_length(tables, node)
        for threads in (1, 2):
            found = optimal_path(tables, node, threads)
            assert found.length == expected, (labels, threads)
            assert play(start, found.labels) == flat(SOLVED)


def test_a_target_other_than_solved_and_a_solved_start(tables, made):
    rng = np.random.default_rng(9)
    target = play(flat(SOLVED), scramble(rng, 12))
    start = play(target, scramble(rng, 7))
    node, goal = (RUBIK.parse("half", shown(cube)) for cube in (start, target))
    found = optimal_path(tables, node, 2, goal)
    assert play(start, found.labels) == target
    assert found.length == korf_length(tables, node, goal)
    assert optimal_path(tables, rules.SOLVED, 1).labels == ()


def test_a_node_budget_stops_the_search_naming_the_bound_it_proved(tables, made):
    node = RUBIK.parse("half", "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2")
    search = optimal.search_for(tables, node, rules.SOLVED, threads=2)
    with pytest.raises(SearchLimitError) as stopped:
        patterns.run(tables, replace(search, nodes=300_000), progress=False)
    assert "\n" not in str(stopped.value) and "budget of 300,000 nodes" in str(stopped.value)
    assert search.estimate <= stopped.value.lower_bound <= 20


def test_the_walk_answers_with_the_optimal_search_proved_or_within_a_limit(tables, made):
    from query.api import open_tablebase

    rubik = open_tablebase(tables.location).puzzle("rubik")
    scrambled = "F U' R2 D B' L U2 F'"
    proved = rubik.path(scrambled)
    assert proved.optimal and proved.how == optimal.HOW
    assert proved.length == korf_length(tables, RUBIK.parse("half", scrambled))
    deep = "R U F2 D' L B R2 U' F D2 L' B2 U R' F' D L2 B' U2 R F2 D' L U' B"
    limited = rubik.path(deep, budget=50_000)
    assert not limited.optimal and limited.lower_bound < limited.length <= 22
    with pytest.raises(SearchLimitError):
        rubik.path(deep, budget=50_000, optimal=True)


def test_without_the_table_a_limited_or_shallow_search_keeps_korfs(tables):
    assert optimal.residues(tables) is None or optimal.stored(tables)
    if optimal.stored(tables):
        pytest.skip("the table is stored here")
    node = RUBIK.parse("half", "R U R' U2")
    assert optimal.search_for(tables, node, rules.SOLVED) is None  # shallow: Korf's
    deep = RUBIK.parse("half", "R U F2 D' L B R2 U' F D2 L' B2 U R' F' D L2 B' U2 R F2")
    with search_budget(seconds=5):
        assert optimal.search_for(tables, deep, rules.SOLVED) is None  # too short to make it


# ---- the whole table, where it is stored


@pytest.fixture(scope="module")
def stored_residues(tables):
    if not optimal.stored(tables):
        pytest.skip("the optimal table is not stored (`builder build rubik optimal`)")
    return optimal.residues(tables)


def test_the_stored_table_holds_at_sampled_entries(stored_residues):
    assert optimal.check_sampled(stored_residues, 300, np.random.default_rng(5)) is None


def test_the_stored_table_has_kociembas_distribution(stored_residues, tables):
    """The raw coordinates its build counted at each depth, read through the classes."""
    attributes = tables.require(optimal.TABLE)
    assert tuple(attributes["coordinates_by_depth"]) == PHASE1_COUNTS
    assert sum(attributes["entries_by_depth"]) == optimal.ENTRIES


def test_the_stored_table_finds_korfs_lengths_with_the_inverse_bound(tables,
                                                                      stored_residues):
    rng = np.random.default_rng(12)
    for length in (9, 10, 11, 12):
        labels = scramble(rng, length)
        start = play(flat(SOLVED), labels)
        node = RUBIK.parse("half", shown(start))
        search = optimal.search_for(tables, node, rules.SOLVED, threads=2, inverse=True)
        found = patterns.found_path(RUBIK, "half", node, search,
                                    patterns.run(tables, search, progress=False))
        assert found.length == korf_length(tables, node), labels
        assert play(start, found.labels) == flat(SOLVED)


def test_query_path_proves_a_scramble_with_the_stored_table(tables, stored_residues):
    from tests.commands import run_command

    run = run_command("query", "path", "rubik:D2 L2 U2 F D2 U B U L R' L2 U", "--json",
                      "--data", str(tables.location), check=True)
    answer = json.loads(run.stdout)
    assert answer["optimal"] and answer["how"] == optimal.HOW and answer["length"] == 11
