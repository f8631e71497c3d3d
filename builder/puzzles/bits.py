"""Bit helpers the plug-ins' numba kernels share (inlined where they are called)."""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def popcount(mask):
    """The number of set bits."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True, inline="always")
def lowest_bit(mask):
    """The index of the lowest set bit (``mask`` must not be 0)."""
    index = 0
    while not (mask >> index) & 1:
        index += 1
    return index
