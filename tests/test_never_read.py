""""Never" is the engine's: a plug-in reads a stored or computed distance as a number or
None, without naming the value the array stores (its type's largest).  The expected
values come from the graph's rule, stated in the test."""

from __future__ import annotations

import numpy as np
import pytest

from builder import routine
from builder.contract.base import stored_distances
from builder.contract.specs import BreadthFirstSearch, TableSpec
from query.walk import Tables

STATES = 40


def back_two(state, parameters, out):
    """The states one move before ``state`` when a move adds 2 (mod 40): odd states never
    reach 0."""
    out[0] = (state - 2) % 40
    return 1


def _spec(wide: bool) -> TableSpec:
    return TableSpec(("evens", "wide" if wide else "narrow"), {"puzzle": "evens", "wide": wide},
                     {"steps": BreadthFirstSearch(STATES, (0,), back_two, 1, wide=wide)})


def test_a_stored_never_reads_as_none_and_a_distance_as_itself(tmp_path):
    for wide in (False, True):
        routine.build_table(tmp_path, _spec(wide), progress=False)
        tables = Tables(tmp_path)
        table = ("evens", "wide" if wide else "narrow")
        for state in range(STATES):
            # a move adds 2: state s reaches 0 after (40 - s) / 2 moves when even
            expected = None if state % 2 else ((STATES - state) % STATES) // 2
            assert tables.distance(table, "steps", state) == expected, (wide, state)


def test_stored_distances_maps_each_types_largest_value_to_none():
    assert stored_distances(np.array([0, 3, 255], np.uint8)) == [0, 3, None]
    assert stored_distances(np.array([255, 65535, 7], np.uint16)) == [255, None, 7]


def back_one(state, parameters, out):
    """The state one move before ``state`` when a move adds 1 (mod ``parameters[0]``)."""
    out[0] = (state - 1) % parameters[0]
    return 1


@pytest.mark.parametrize("states", [200, 600])
def test_the_engine_chooses_the_width_where_a_spec_leaves_it(states):
    """``wide=None``: bytes where every distance fits a byte, else 16 bits; the distances
    are the ring's own (state s is (states - s) % states moves from 0)."""
    from builder.contract.specs import kernel
    from builder.kernels.graph_bfs import breadth_first

    found = breadth_first(states, [0], kernel(back_one), 1, (states,), wide=None)
    assert found.dtype == (np.uint8 if states - 1 < 255 else np.uint16)
    assert found.tolist() == [(states - state) % states for state in range(states)]


def forward_one(key, parameters, out):
    """A chain of ``parameters[0]`` keys: one move from k to k + 1 (the last stays)."""
    if key + 1 < parameters[0]:
        out[0] = key + 1
        return 1
    return 0


def back_one_chain(key, parameters, out):
    if key > 0:
        out[0] = key - 1
        return 1
    return 0


@pytest.mark.parametrize(("length", "shards"), [(200, 1), (260, 1)])
def test_a_sparse_search_takes_bytes_where_they_hold_every_distance(tmp_path, length, shards):
    """A chain from key 0 to its last key: key k is length - 1 - k moves from the end, and
    the engine stores bytes only where the longest of those fits one."""
    from builder.contract.specs import SparseSearch
    from builder.sparse import sparse_search

    search = SparseSearch((0,), forward_one, 1, targets=(length - 1,),
                          predecessors=back_one_chain, parameters=(length,), shards=shards)
    keys, distance = sparse_search(search, tmp_path)
    assert keys.tolist() == list(range(length))
    assert distance.dtype == (np.uint8 if length - 1 < 254 else np.uint16)
    assert distance.tolist() == [length - 1 - key for key in range(length)]
