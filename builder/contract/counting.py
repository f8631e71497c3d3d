"""Counting the values of a large unsigned array, for the catalog's histograms (numpy only:
the catalog is read where numba is not loaded)."""

from __future__ import annotations

import numpy as np

COUNT_SLICE = 1 << 20


def value_counts(values: np.ndarray, minlength: int = 0) -> np.ndarray:
    """How many entries of an unsigned integer array hold each value (index: the value),
    a slice at a time: ``np.bincount`` on the whole would first copy it as int64, eight
    bytes per entry (on a table of 731 million entries, 344 MB and most of a second).  At least
    ``minlength`` entries."""
    values = np.asarray(values).ravel()
    counts = np.zeros(minlength, np.int64)
    for first in range(0, values.size, COUNT_SLICE):
        part = np.bincount(values[first:first + COUNT_SLICE])
        if part.size > counts.size:
            part[:counts.size] += counts
            counts = part
        else:
            counts[:part.size] += part
    return counts
