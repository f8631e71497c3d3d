"""The moves of every puzzle file on keys, for the engine's sparse search (numba): one
kernel for all of them, compiled once and cached, each file's moves handed over as data
(``rules.kernel_parameters``).  A key is decoded into its digits once, and each move's
key is read off them through the permutation (``rules.moved`` on the notation)."""

from __future__ import annotations

import numpy as np
from numba import njit, types

from builder.contract.specs import compiled_moves

_HEADER = 4
"""Parameters before the permutations: places, base, places in the low word, moves."""


@njit(cache=True, inline="always")
def _digits_of(low_word, high_word, parameters, digits):
    places, base, low = parameters[0], parameters[1], parameters[2]
    for place in range(places):
        if place < low:
            digits[place] = low_word % base
            low_word //= base
        else:
            digits[place] = high_word % base
            high_word //= base


@njit(cache=True, inline="always")
def _moved_word(digits, parameters, first, begin, end):
    """The word of places ``begin:end`` after the permutation starting at ``first``."""
    base = parameters[1]
    word = 0
    for place in range(end - 1, begin - 1, -1):
        word = word * base + digits[parameters[first + place]]
    return word


@njit(cache=True, inline="always")
def _one_word(key, parameters, out, undone):
    places, moves = parameters[0], parameters[3]
    digits = np.empty(places, np.int64)
    _digits_of(key, 0, parameters, digits)
    offset = _HEADER + (moves * places if undone else 0)
    for move in range(moves):
        out[move] = _moved_word(digits, parameters, offset + move * places, 0, places)
    return moves


def forward(key, parameters, out):
    return _one_word(key, parameters, out, False)


def backward(key, parameters, out):
    return _one_word(key, parameters, out, True)


forward = compiled_moves(forward)
backward = compiled_moves(backward)


_WIDE = types.int64(types.uint64[::1], types.int64[::1], types.uint64[:, ::1])
"""The engine's type of moves on two-word keys (``builder.kernels.graph_bfs.WIDE_MOVES``)."""


@njit(cache=True, inline="always")
def _two_words(key, parameters, out, undone):
    places, low, moves = parameters[0], parameters[2], parameters[3]
    digits = np.empty(places, np.int64)
    _digits_of(np.int64(key[1]), np.int64(key[0]), parameters, digits)
    offset = _HEADER + (moves * places if undone else 0)
    for move in range(moves):
        first = offset + move * places
        out[move, 0] = np.uint64(_moved_word(digits, parameters, first, low, places))
        out[move, 1] = np.uint64(_moved_word(digits, parameters, first, 0, low))
    return moves


@njit(_WIDE, cache=True)
def forward_wide(key, parameters, out):
    return _two_words(key, parameters, out, False)


@njit(_WIDE, cache=True)
def backward_wide(key, parameters, out):
    return _two_words(key, parameters, out, True)
