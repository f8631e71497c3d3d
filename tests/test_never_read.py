""""Never" is the engine's: a plug-in reads a stored or computed distance as a number or
None, without naming the value the array stores (its type's largest).  The expected
values come from the graph's rule, stated in the test."""

from __future__ import annotations

import numpy as np

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
