"""Bit helpers the plug-ins' numba kernels share (inlined where they are called).

Both are branch-free: the kernels call them once per board in their hottest loops, where a
loop over the bits costs a mispredicted branch per board."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

_ODD = np.uint64(0x5555555555555555)
_PAIRS = np.uint64(0x3333333333333333)
_NIBBLES = np.uint64(0x0F0F0F0F0F0F0F0F)
_BYTES = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def popcount(mask):
    """The number of set bits of a non-negative mask (SWAR; LLVM makes it one popcnt)."""
    bits = np.uint64(mask)
    bits = bits - ((bits >> np.uint64(1)) & _ODD)
    bits = (bits & _PAIRS) + ((bits >> np.uint64(2)) & _PAIRS)
    bits = (bits + (bits >> np.uint64(4))) & _NIBBLES
    return np.int64((bits * _BYTES) >> np.uint64(56))


@njit(cache=True, inline="always")
def lowest_bit(mask):
    """The index of the lowest set bit (``mask`` must not be 0)."""
    return np.int64(trailing_zeros(np.uint64(mask)))

