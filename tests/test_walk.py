"""Stored distances against an independent plain BFS; paths replay legally and have
the tabled length; distances are invariant under the rules' symmetries."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzles.tricolore import METHODS, Tricolore
from query.walk import Tables, UnreachableError
from tests import reference
from tests.walks import tricolore_path

HALF = Tricolore(4, 2)
UNREACHABLE = 255


@functools.cache
def stored_clicks(data_dir, method) -> np.ndarray:
    import zarr

    return zarr.open_group(data_dir / "tricolore" / "4x2" / f"{method}.zarr", mode="r")["clicks"][
        ...
    ]


@pytest.mark.parametrize("method", METHODS)
def test_stored_rows_equal_a_plain_forward_bfs(data_dir, method):
    clicks = stored_clicks(data_dir, method)
    rng = np.random.default_rng(2026 + METHODS.index(method))
    starts = [int(s) for s in rng.integers(0, HALF.n_boards, 4)]
    starts.append(HALF.parse("RRRR.BBBB"))  # bottom all blue: a start outside hybrid's space
    names = HALF.format_many(HALF.all_boards())
    for start in starts:
        expected = reference.distances_from(str(names[start]), method, 4, 2)
        row = clicks[start]
        got = {str(names[t]): int(row[t]) for t in np.flatnonzero(row != UNREACHABLE)}
        assert got == expected, HALF.format(start)


@pytest.mark.parametrize("method", METHODS)
def test_distances_are_invariant_under_the_symmetries(data_dir, method):
    clicks = stored_clicks(data_dir, method)
    boards = HALF.all_boards()
    symmetries = HALF.symmetries(method)
    assert len(symmetries) == (4 if method == "unrestricted" else 2)
    for name, perm in symmetries.items():
        moved = HALF.apply_symmetry(boards, perm)
        assert np.array_equal(clicks[np.ix_(moved, moved)], clicks), name


def test_hybrid_is_not_invariant_under_the_flip(data_dir):
    # A check that the symmetry test can fail: hybrid treats the rows differently.
    clicks = stored_clicks(data_dir, "hybrid")
    flip = HALF.symmetries("unrestricted")["flip"]
    moved = HALF.apply_symmetry(HALF.all_boards(), flip)
    assert not np.array_equal(clicks[np.ix_(moved, moved)], clicks)


@pytest.mark.parametrize("method", METHODS)
def test_paths_replay_legally_with_the_tabled_length(data_dir, method):
    table = Tables(data_dir)
    clicks = stored_clicks(data_dir, method)

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers(0, HALF.n_boards - 1), st.integers(0, HALF.n_boards - 1))
    def check(start, target):
        tabled = int(clicks[start, target])
        if tabled == UNREACHABLE:
            with pytest.raises(UnreachableError):
                tricolore_path(table, HALF, start, target, method)
            return
        found = tricolore_path(table, HALF, start, target, method)
        assert found.length == tabled >= 1
        boards = reference.replay(HALF.format(start), list(found.clicks), method, 4, 2)
        assert boards[-1] == HALF.format(target)
        assert boards == [HALF.format(b) for b in found.boards]

    check()


def test_appendix_a_halves_are_optimal(data_dir, figures):
    appendix = figures["tricolore_4x4"]["appendix_a"]
    for half, method in (("top_half", "unrestricted"), ("bottom_half", "hybrid")):
        boards = appendix[half]["boards"]
        found = tricolore_path(data_dir, HALF, HALF.parse(boards[0]), HALF.parse(boards[-1]), method)
        assert found.length == len(appendix[half]["clicks"])
    assert len(appendix["top_half"]["clicks"]) + len(appendix["bottom_half"]["clicks"]) == 17


def test_a_start_equal_to_the_target_gets_its_shortest_return(data_dir):
    board = HALF.parse("RRRR.RRRR")
    found = tricolore_path(data_dir, HALF, board, board, "unrestricted")
    expected = reference.distances_from("RRRR.RRRR", "unrestricted", 4, 2)["RRRR.RRRR"]
    assert found.length == expected >= 2
