"""The moves of puzzle files whose keys take two words (``search.py`` for one), for the
engine's sparse search: the same kernel on a key's high and low word."""

from __future__ import annotations

import numpy as np
from numba import njit, types

from puzzles.permutation.search import _HEADER, _digits_of, _moved_word

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
