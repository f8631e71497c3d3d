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

from builder.contract.base import never_of, unreached


@njit(cache=True, nogil=True)
def _fewest_clicks(masks, n_bits, fewest, never):
    fewest[0] = 0
    chosen, clicks, state = 0, 0, 0
    for step in range(1, 1 << n_bits):
        button = 0  # the Gray code toggles the lowest set bit of the step count
        while not (step >> button) & 1:
            button += 1
        chosen ^= 1 << button
        clicks += 1 if (chosen >> button) & 1 else -1
        state ^= masks[button]
        if fewest[state] == never or clicks < fewest[state]:
            fewest[state] = clicks


def fewest_clicks(masks, n_bits: int) -> np.ndarray:
    """Fewest clicks from state 0 to every state (a click xors its button's mask)."""
    if n_bits > 30:
        raise MemoryError(f"2^{n_bits} states do not fit a table here (at most 2^30)")
    fewest = unreached(1 << n_bits, most=n_bits)  # no state needs more clicks than buttons
    _fewest_clicks(np.asarray(masks, dtype=np.int64), n_bits, fewest, never_of(fewest))
    return fewest
