"""The moves of every puzzle file on keys, for the engine's sparse search: one function
for all of them, each file's moves handed over as data (``rules.kernel_parameters``), in
plain Python the engine compiles (and caches) where a table is built.  A key is decoded
into its digits once, and each move's key is read off them through the permutation
(``rules.moved`` on the notation).  Keys of two words have theirs in
``search_wide.py``."""

from __future__ import annotations

import numpy as np

HEADER = 4
"""Parameters before the permutations: places, base, places in the low word, moves."""


def _one_word(key, parameters, out, undone):
    places, base, moves = parameters[0], parameters[1], parameters[3]
    # the digits and the moved words in one function: a hot loop with no calls in it
    digits = np.empty(places, np.int64)
    for place in range(places):
        digits[place] = key % base
        key //= base
    offset = HEADER + (moves * places if undone else 0)
    for move in range(moves):
        first = offset + move * places
        word = 0
        for place in range(places - 1, -1, -1):
            word = word * base + digits[parameters[first + place]]
        out[move] = word
    return moves


def forward(key, parameters, out):
    """The keys one move after ``key``, in the order of the file's moves."""
    return _one_word(key, parameters, out, False)


def backward(key, parameters, out):
    """The keys one move before ``key`` (each move undone)."""
    return _one_word(key, parameters, out, True)
