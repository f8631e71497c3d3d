"""Lights Out's own kernel: the fewest clicks from all off (state 0) to every state of a
board, states as bit sets, never where unreachable.  Imported only when a table is built.

Clicks commute and a second click on a button undoes the first, so a shortest solution
clicks a set of buttons once each, and the fewest clicks to a state are the fewest
buttons of any click set giving it.  Every click set is visited once, in Gray-code order
(one button toggled per step, so the state changes by one xor): 2**n steps with one
table update each, where a breadth-first search over the same table tests n neighbours
of each state."""

from __future__ import annotations

import numpy as np
from numba import njit

from builder.contract.base import NEVER_IN_BYTES

UNREACHABLE = NEVER_IN_BYTES


@njit(cache=True, nogil=True)
def _fewest_clicks(masks, n_bits):
    fewest = np.full(1 << n_bits, UNREACHABLE, dtype=np.uint8)
    fewest[0] = 0
    chosen, clicks, state = 0, 0, 0
    for step in range(1, 1 << n_bits):
        button = 0  # the Gray code toggles the lowest set bit of the step count
        while not (step >> button) & 1:
            button += 1
        chosen ^= 1 << button
        clicks += 1 if (chosen >> button) & 1 else -1
        state ^= masks[button]
        fewest[state] = min(fewest[state], clicks)
    return fewest


def fewest_clicks(masks, n_bits: int) -> np.ndarray:
    """Fewest clicks from state 0 to every state (a click xors its button's mask)."""
    if n_bits > 30:
        raise MemoryError(f"2^{n_bits} states do not fit a table here (at most 2^30)")
    return _fewest_clicks(np.asarray(masks, dtype=np.int64), n_bits)
