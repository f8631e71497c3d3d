"""The kernels' LLVM-level steps against plain Python: bytes to a 64-bit mask and back."""

import numpy as np
import pytest
from numba import njit, prange

from builder.contract.intrinsics import expand_or, mask_of, prefetch, take_next


@njit(cache=True)
def _masks(values, starts, value):
    out = np.empty(starts.shape[0], dtype=np.uint64)
    for index in range(starts.shape[0]):
        prefetch(values, starts[index])  # asks for a line, changes nothing
        out[index] = mask_of(values, starts[index], value)
    return out


@njit(cache=True)
def _expanded(size, starts, words, value):
    out = np.zeros(size, dtype=np.uint8)
    for index in range(starts.shape[0]):
        expand_or(out, starts[index], words[index], value)
    return out


@pytest.mark.parametrize("value", [1, 0x80, 0x5A, 0xFF])
def test_mask_of_sets_bit_j_where_byte_j_has_a_bit_of_the_value(value):
    rng = np.random.default_rng(value)
    values = rng.integers(0, 256, 300).astype(np.uint8)
    values[100:164] = 0  # a run with no bit of any value
    starts = np.array([0, 1, 37, 100, 236], dtype=np.int64)
    got = _masks(values, starts, np.uint8(value))
    for start, mask in zip(starts, got):
        expected = sum(1 << j for j in range(64) if values[start + j] & value)
        assert int(mask) == expected, start


@pytest.mark.parametrize("value", [1, 0x40, 0x81])
def test_expand_or_ors_the_value_into_byte_j_where_bit_j_is_set(value):
    rng = np.random.default_rng(value)
    starts = np.array([0, 3, 64, 70, 131], dtype=np.int64)  # overlapping runs OR together
    words = rng.integers(0, 2**63, len(starts), dtype=np.int64).astype(np.uint64) * np.uint64(2)
    words[1] |= np.uint64(1) | np.uint64(1 << 63)  # the run's first and last bytes
    got = _expanded(200, starts, words, np.uint8(value))
    expected = np.zeros(200, dtype=np.uint8)
    for start, word in zip(starts, words):
        for j in range(64):
            if (int(word) >> j) & 1:
                expected[start + j] |= value
    assert np.array_equal(got, expected)


def test_a_mask_expanded_gives_back_the_bytes_it_was_taken_from():
    values = (np.random.default_rng(7).random(64) < 0.5).astype(np.uint8) * np.uint8(4)
    mask = _masks(values, np.array([0], dtype=np.int64), np.uint8(4))
    assert np.array_equal(_expanded(64, np.array([0], dtype=np.int64), mask, np.uint8(4)),
                          values)


@njit(cache=True, parallel=True)
def _shared_out(n_items, n_threads):
    """Each thread takes the next item number until none is left, counting what it takes."""
    counter = np.zeros(1, dtype=np.int64)
    taken = np.zeros(n_items, dtype=np.int64)
    for _ in prange(n_threads):
        item = take_next(counter, 0)
        while item < n_items:
            taken[item] += 1
            item = take_next(counter, 0)
    return taken


def test_threads_taking_the_next_number_take_every_item_once():
    # a plain read-add-write would let two threads take one item (a count of 2) and
    # skip none; an unshared counter would give every item to every thread
    assert (_shared_out(200_000, 2) == 1).all()
