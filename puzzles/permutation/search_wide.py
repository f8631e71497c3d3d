"""The moves of puzzle files whose keys take two words (``search.py`` for one), for the
engine's sparse search: a key is a row of its high and low word, and so is each key
written (the engine compiles it for moves on two-word keys)."""

from __future__ import annotations

import numpy as np

from puzzles.permutation.search import HEADER


def _two_words(key, parameters, out, undone):
    places, base, low, moves = parameters[0], parameters[1], parameters[2], parameters[3]
    digits = np.empty(places, np.int64)
    low_word, high_word = np.int64(key[1]), np.int64(key[0])
    for place in range(places):
        if place < low:
            digits[place] = low_word % base
            low_word //= base
        else:
            digits[place] = high_word % base
            high_word //= base
    offset = HEADER + (moves * places if undone else 0)
    for move in range(moves):
        first = offset + move * places
        high = 0
        for place in range(places - 1, low - 1, -1):
            high = high * base + digits[parameters[first + place]]
        word = 0
        for place in range(low - 1, -1, -1):
            word = word * base + digits[parameters[first + place]]
        out[move, 0] = np.uint64(high)
        out[move, 1] = np.uint64(word)
    return moves


def forward_wide(key, parameters, out):
    """The two-word keys one move after ``key``."""
    return _two_words(key, parameters, out, False)


def backward_wide(key, parameters, out):
    """The two-word keys one move before ``key``."""
    return _two_words(key, parameters, out, True)
