"""Quinto / Lights Out: the linear algebra against brute force and the 5×5 search table."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
import zarr

from puzzles.lightsout.rules import LightsOut
from tests.test_cli import run


def brute_force(rows, cols, start, target):
    """Every click set (plain enumeration), with the reference click rule."""
    n = rows * cols

    def flip(state, button):
        row, col = divmod(button, cols)
        for r, c in ((row, col), (row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < rows and 0 <= c < cols:
                state ^= 1 << (r * cols + c)
        return state

    solutions = []
    for chosen in itertools.product((0, 1), repeat=n):
        state = start
        for button in range(n):
            if chosen[button]:
                state = flip(state, button)
        if state == target:
            solutions.append(tuple(b for b in range(n) if chosen[b]))
    return solutions


def test_3x3_has_the_single_solution_a_c_e_g_i(figures):
    board = LightsOut(3, 3)
    solution = board.solve(0, board.all_on)
    assert solution.count == 1 and solution.clicks == (0, 2, 4, 6, 8)
    assert brute_force(3, 3, 0, board.all_on) == [(0, 2, 4, 6, 8)]


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 3), (4, 4), (1, 5), (3, 4)])
def test_solution_counts_and_fewest_clicks_equal_brute_force(rows, cols):
    board = LightsOut(rows, cols)
    rng = np.random.default_rng(rows * 10 + cols)
    for _ in range(3):
        start, target = (int(x) for x in rng.integers(0, 1 << board.n_buttons, 2))
        expected = brute_force(rows, cols, start, target)
        solution = board.solve(start, target)
        assert solution.count == len(expected)
        if expected:
            assert len(solution.clicks) == min(len(s) for s in expected)
            assert board.press(start, solution.clicks) == target


def test_known_nullities():
    assert [LightsOut(n, n).nullity for n in range(1, 11)] == [0, 0, 0, 4, 2, 0, 0, 0, 8, 0]
    assert len(brute_force(4, 4, 0, 0)) == 2 ** LightsOut(4, 4).nullity


@pytest.mark.parametrize("rows, cols", [(1, 1), (2, 3), (3, 3), (4, 4), (3, 5)])
def test_the_click_set_kernel_equals_a_plain_breadth_first_search(rows, cols):
    """The kernel enumerates click sets; a breadth-first search over states (plain Python
    here) must find the same fewest clicks for every state, unreachable ones included."""
    from collections import deque

    from puzzles.lightsout.search import fewest_clicks

    board = LightsOut(rows, cols)
    expected = [255] * (1 << board.n_buttons)
    expected[0] = 0
    queue = deque([0])
    while queue:
        state = queue.popleft()
        for mask in board.click_masks:
            if expected[state ^ mask] == 255:
                expected[state ^ mask] = expected[state] + 1
                queue.append(state ^ mask)
    assert fewest_clicks(board.click_masks, board.n_buttons).tolist() == expected


def test_linear_algebra_agrees_with_the_5x5_search_table(data_dir):
    table = zarr.open_group(data_dir / "lightsout" / "tables.zarr", mode="r")["clicks_5x5"][...]
    board = LightsOut(5, 5)
    for state in np.random.default_rng(1).integers(0, 1 << 25, 20_000):
        solution = board.solve(int(state))
        assert solution.solvable == (table[state] != 255)
        if solution.solvable:
            assert len(solution.clicks) == table[state]
            assert board.press(int(state), solution.clicks) == 0


def test_summary_and_distribution_views(catalog):
    rows = catalog.execute("SELECT rows, cols, nullity, solvable_states, max_min_clicks "
                           "FROM lightsout_summary").fetchall()
    assert len(rows) == 100
    by_shape = {(r, c): (n, s, m) for r, c, n, s, m in rows}
    assert by_shape[(5, 5)] == (2, 2**23, 15)
    assert by_shape[(3, 3)] == (0, 512, 9)
    assert by_shape[(10, 10)][1] == 2**100
    (states,) = catalog.execute("SELECT sum(states) FROM lightsout_5x5_distribution").fetchone()
    assert states == 2**23


def test_cli_solves_the_documents_question(data_dir):
    result = run("query", "lightsout", "solve", "000.000.000", "--target", "111.111.111")
    assert result.returncode == 0
    assert result.stdout.splitlines()[2:5] == ["x . x", ". x .", "x . x"]
    answer = json.loads(run("query", "lightsout", "solve", "000.000.000", "--target",
                            "111.111.111", "--json").stdout)
    assert answer == {"solvable": True, "solutions": 1, "min_clicks": 5,
                      "min_clicks_exact": True, "clicks": [0, 2, 4, 6, 8]}


@pytest.mark.parametrize("args, words", [
    (("10000.00000.00000.00000.00000",), "no solution"),
    (("102.000",), "other than 0 and 1"),
    (("111.11",), "not 2 rows of 3"),
    (("111.111", "--target", "11.11"), "is not 2x3"),
])
def test_lightsout_bad_or_unsolvable_input_exits_nonzero(args, words):
    result = run("query", "lightsout", "solve", *args)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert words in result.stdout + result.stderr


def test_verify_checks_the_click_recurrence_and_finds_a_doubled_table(data_dir, tmp_path):
    from builder import registry, routine, verify
    from builder.contract.specs import TableSpec

    spec = registry.by_name("lightsout").table({})
    table = zarr.open_group(data_dir / "lightsout" / "tables.zarr", mode="r")["clicks_5x5"][...]
    for values, holds in ((table, True), (np.where(table == 255, table, table * 2), False)):
        routine.build_table(tmp_path, TableSpec(spec.parts, spec.identity,
                                                compute=lambda progress, v=values: {"clicks_5x5": v}),
                            force=True, progress=False)
        verdict = verify.verify_table(tmp_path / "lightsout" / "tables.zarr", 3,
                                      np.random.default_rng(0))
        assert verdict.ok == holds, verdict.detail
