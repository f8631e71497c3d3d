"""The moves of every puzzle file on keys, for the engine's sparse search (numba): one
kernel for all of them, compiled once and cached, each file's moves handed over as data
(``rules.kernel_parameters``).  A key is decoded into its digits once, and each move's
key is read off them through the permutation (``rules.moved`` on the notation).  Keys of
two words have theirs in ``search_wide.py``, compiled only where a file needs them."""

from __future__ import annotations

import numpy as np
from numba import njit

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
