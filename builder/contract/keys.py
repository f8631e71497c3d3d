"""Keys of sparse tables as numpy arrays, one 64-bit word or two.

A keyed plug-in encodes a position as a non-negative integer: below 2**63 by default
(``int64`` arrays), or below 2**128 where it declares ``key_words = 2``.  Two-word keys
are held as 16-byte records of their high and low words, both big-endian, so that numpy
sorts, dedupes, compares and binary-searches them bytewise in numeric order
(``np.sort``, ``np.searchsorted`` and ``np.unique`` work on them as on ``int64``); a
table stores them as an ``(n, 2)`` uint64 array, high word first, chunked by rows.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

WIDE = np.dtype("V16")
"""A two-word key: high and low word, each big-endian."""
_BIG_WORDS = np.dtype(">u8")
_MASK = (1 << 64) - 1
KEY_WORDS = (1, 2)


def key_dtype(words: int) -> np.dtype:
    """The array type of keys of ``words`` 64-bit words."""
    if words not in KEY_WORDS:
        raise ValueError(f"keys are 1 or 2 64-bit words, not {words}")
    return np.dtype(np.int64) if words == 1 else WIDE


def key_limit(words: int) -> int:
    """One more than the largest key of ``words`` words."""
    return 1 << 63 if words == 1 else 1 << 128


def empty_keys(words: int) -> np.ndarray:
    return np.empty(0, key_dtype(words))


def keys_of(values: Iterable[int], words: int) -> np.ndarray:
    """Python integers (each a plug-in's ``encode``) as a key array."""
    if words == 1:
        return np.asarray(list(values) if not isinstance(values, np.ndarray) else values,
                          dtype=np.int64)
    values = list(values)
    split = np.empty((len(values), 2), _BIG_WORDS)
    split[:, 0] = [value >> 64 for value in values]
    split[:, 1] = [value & _MASK for value in values]
    return split.view(WIDE).reshape(-1)


def ints_of(keys: np.ndarray) -> list[int]:
    """A key array as Python integers (what a plug-in's ``decode`` takes)."""
    if keys.dtype != WIDE:
        return [int(key) for key in keys.tolist()]
    return [(high << 64) | low for high, low in words_of(keys).tolist()]


def words_of(keys: np.ndarray) -> np.ndarray:
    """Two-word keys as an ``(n, 2)`` uint64 array in this machine's byte order, high word
    first: what a table stores and a numba kernel takes."""
    return keys.view(_BIG_WORDS).reshape(-1, 2).astype(np.uint64)


def keys_of_words(words: np.ndarray) -> np.ndarray:
    """An ``(n, 2)`` uint64 array of high and low words (a stored chunk, a kernel's output)
    as two-word keys."""
    return np.ascontiguousarray(words, dtype=_BIG_WORDS).view(WIDE).reshape(-1)


def sortable(stored: np.ndarray) -> np.ndarray:
    """Keys as a table stores them (1-D int64, or ``(n, 2)`` words) as a key array."""
    return keys_of_words(stored) if stored.ndim == 2 else stored


def storable(keys: np.ndarray) -> np.ndarray:
    """A key array as a table stores it."""
    return words_of(keys) if keys.dtype == WIDE else keys


def words_in(keys: np.ndarray) -> int:
    return 2 if keys.dtype == WIDE else 1
