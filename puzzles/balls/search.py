"""Ball-tube tables over symmetry classes: enumerate every class, then a backward
breadth-first search from the cleared class.

Classes, keys and the tube-code tables are defined by the rules (``__init__.py``); this
module only applies them.  A class's representative has its tube codes ascending, so
enumerating non-decreasing code sequences with the right colour counts, in lexicographic
order, meets every class's key in ascending order: a sequence is kept when no colour
relabelling makes it smaller (it is then its class's key), with the class's number of
labelled states, k! T! / |stabiliser|.

The search is level-synchronous and parallel over the classes of one level: each
undoes every move of a representative (the top ball of a tube that holds it alone or on
its own colour goes back to another tube with room), names the class reached by its
key, finds the key by binary search and marks it one move further.  Two threads may
mark one class in the same level; they write the same value.  Imported lazily.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from builder.contract.base import never_of, unreached
from puzzles.balls.tables import MOST_MOVES


@njit(cache=True, inline="always")
def _sorted_key(codes, relabelling, radix, scratch):
    """Key of ``codes`` under one colour relabelling: relabel, sort ascending, pack."""
    n = codes.shape[0]
    for i in range(n):
        value = relabelling[codes[i]]
        j = i
        while j > 0 and scratch[j - 1] > value:
            scratch[j] = scratch[j - 1]
            j -= 1
        scratch[j] = value
    key = 0
    for i in range(n):
        key += scratch[i] * radix[i]
    return key


@njit(cache=True, inline="always")
def _smallest_first_tube(codes, code_length, normal_form):
    """The smallest code any relabelling gives a shortest non-empty tube: the first
    non-empty code of the class key."""
    shortest, smallest = 1 << 30, 1 << 62
    for i in range(codes.shape[0]):
        length = code_length[codes[i]]
        if length == 0:
            continue
        if length < shortest or (length == shortest and normal_form[codes[i]] < smallest):
            shortest, smallest = length, normal_form[codes[i]]
    return smallest


@njit(cache=True, inline="always")
def _class_key(codes, code_length, normal_form, normalising_starts, normalising_rows,
               relabellings, radix, scratch):
    """The class key: the smallest sorted key over the relabellings that can achieve it,
    those turning some tube into the key's first non-empty code (the tube's colours in
    first-appearance order; the colours it lacks in any order)."""
    smallest = _smallest_first_tube(codes, code_length, normal_form)
    best = -1
    for i in range(codes.shape[0]):
        code = codes[i]
        if normal_form[code] != smallest or code_length[code] == 0:
            continue
        repeated = False
        for j in range(i):
            repeated = repeated or codes[j] == code
        if repeated:
            continue
        for at in range(normalising_starts[code], normalising_starts[code + 1]):
            key = _sorted_key(codes, relabellings[normalising_rows[at]], radix, scratch)
            if best < 0 or key < best:
                best = key
    return best


@njit(cache=True, nogil=True)
def _factorial(n):
    result = 1
    for i in range(2, n + 1):
        result *= i
    return result


@njit(cache=True, nogil=True)
def _classes_from(prefix, tubes, capacity, colours, code_length, code_colour_counts,
                  normal_form, normalising_starts, normalising_rows,
                  relabellings, radix, count_only, keys, states):
    """Classes whose representative's tube codes start with ``prefix``: their number, and
    (unless ``count_only``) their keys and labelled-state counts, ascending."""
    n_codes = code_length.shape[0]
    balls = capacity * colours
    symmetries = _factorial(colours) * _factorial(tubes)
    codes = np.zeros(tubes, dtype=np.int64)
    used = np.zeros((tubes + 1, colours), dtype=np.int64)
    placed = np.zeros(tubes + 1, dtype=np.int64)
    scratch = np.zeros(tubes, dtype=np.int64)
    found = 0
    depth = 0
    codes[0] = prefix[0]
    while depth >= 0:
        code = codes[depth]
        if code >= n_codes or (depth < prefix.shape[0] and code != prefix[depth]):
            depth -= 1
            if depth >= 0:
                codes[depth] += 1
            continue
        length = code_length[code]
        after = placed[depth] + length
        later = tubes - depth - 1
        # later tubes are at least this long (codes ascend by length) and at most full
        fits = after + later * length <= balls and after + later * capacity >= balls
        for colour in range(colours):
            used[depth + 1, colour] = used[depth, colour] + code_colour_counts[code, colour]
            if used[depth + 1, colour] > capacity:
                fits = False
        if after + later * length > balls:  # every longer code fails too
            depth -= 1
            if depth >= 0:
                codes[depth] += 1
            continue
        # the first non-empty tube of a key is its colours' first-appearance form
        if length > 0 and (depth == 0 or code_length[codes[depth - 1]] == 0):
            fits = fits and normal_form[code] == code
        if not fits:
            codes[depth] += 1
            continue
        placed[depth + 1] = after
        if depth < tubes - 1:
            depth += 1
            codes[depth] = prefix[depth] if depth < prefix.shape[0] else code
            continue
        # a complete non-decreasing sequence: keep it if it is its class's key
        key = 0
        for i in range(tubes):
            key += codes[i] * radix[i]
        # compare with every relabelling that could give a smaller or equal key (as in
        # _class_key); those equal to it fix the class
        smallest, fixing = True, 0
        first = _smallest_first_tube(codes, code_length, normal_form)
        for i in range(tubes):
            code = codes[i]
            if not smallest or normal_form[code] != first or code_length[code] == 0:
                continue
            if i > 0 and codes[i - 1] == code:
                continue
            for at in range(normalising_starts[code], normalising_starts[code + 1]):
                other = _sorted_key(codes, relabellings[normalising_rows[at]], radix, scratch)
                if other < key:
                    smallest = False
                    break
                if other == key:
                    fixing += 1
        if smallest:
            if not count_only:
                stabiliser = fixing
                run = 1
                for i in range(1, tubes):  # tube permutations among equal tubes
                    run = run + 1 if codes[i] == codes[i - 1] else 1
                    stabiliser *= run
                keys[found] = key
                states[found] = symmetries // stabiliser
            found += 1
        codes[depth] += 1
    return found


@njit(cache=True, nogil=True, parallel=True)
def _count_classes(prefixes, tubes, capacity, colours, code_length, code_colour_counts,
                   normal_form, normalising_starts, normalising_rows,
                   relabellings, radix):
    counts = np.zeros(prefixes.shape[0], dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    for task in prange(prefixes.shape[0]):
        counts[task] = _classes_from(prefixes[task], tubes, capacity, colours, code_length,
                                     code_colour_counts, normal_form,
                                     normalising_starts, normalising_rows, relabellings,
                                     radix, True, empty, empty)
    return counts


@njit(cache=True, nogil=True, parallel=True)
def _fill_classes(counts, prefixes, tubes, capacity, colours, code_length, code_colour_counts,
                  normal_form, normalising_starts, normalising_rows,
                  relabellings, radix):
    starts = np.zeros(counts.shape[0] + 1, dtype=np.int64)
    starts[1:] = np.cumsum(counts)
    keys = np.empty(starts[-1], dtype=np.int64)
    states = np.empty(starts[-1], dtype=np.int64)
    for task in prange(counts.shape[0]):
        if counts[task]:
            _classes_from(prefixes[task], tubes, capacity, colours, code_length,
                          code_colour_counts, normal_form, normalising_starts,
                          normalising_rows, relabellings, radix, False,
                          keys[starts[task]: starts[task + 1]],
                          states[starts[task]: starts[task + 1]])
    return keys, states


@njit(cache=True, inline="always")
def _position(keys, key):
    low, high = 0, keys.shape[0]
    while low < high:
        middle = (low + high) >> 1
        if keys[middle] < key:
            low = middle + 1
        else:
            high = middle
    return low


@njit(cache=True, nogil=True, parallel=True)
def _expand_level(level, never, keys, moves, tubes, capacity, n_codes, code_length, code_top,
                  code_pop, code_push, code_last_arrival, normal_form, normalising_starts,
                  normalising_rows, relabellings, radix):
    """Mark every unmarked class (still ``never``) one reverse move from a class at
    ``level``; returns how many classes were at ``level`` and how many keys reached were not
    in ``keys`` (a broken class key: never expected)."""
    at_level = 0
    strays = 0
    for index in prange(keys.shape[0]):
        if moves[index] != level:
            continue
        at_level += 1
        codes = np.empty(tubes, dtype=np.int64)
        before = np.empty(tubes, dtype=np.int64)
        scratch = np.empty(tubes, dtype=np.int64)
        key = keys[index]
        for i in range(tubes):
            codes[i] = key // radix[i] % n_codes
        for arrived in range(tubes):  # the tube the last ball arrived on
            if not code_last_arrival[codes[arrived]]:
                continue
            if arrived > 0 and codes[arrived] == codes[arrived - 1]:
                continue  # an identical tube gives the same classes
            ball = code_top[codes[arrived]]
            for left in range(tubes):  # the tube it came from
                if left == arrived or code_length[codes[left]] == capacity:
                    continue
                if left > 0 and left - 1 != arrived and codes[left] == codes[left - 1]:
                    continue
                for i in range(tubes):
                    before[i] = codes[i]
                before[arrived] = code_pop[codes[arrived]]
                before[left] = code_push[codes[left], ball]
                reached = _class_key(before, code_length, normal_form, normalising_starts,
                                     normalising_rows, relabellings, radix, scratch)
                position = _position(keys, reached)
                if position == keys.shape[0] or keys[position] != reached:
                    strays += 1
                elif moves[position] == never:
                    moves[position] = level + 1
    return at_level, strays


def normal_forms(rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per tube code: its smallest relabelled code (its colours in first-appearance order)
    and, as CSR ``starts``/``rows``, the relabellings that give it."""
    normal_form = rules.colour_relabellings.min(axis=0)
    hits = rules.colour_relabellings == normal_form  # (relabellings, codes)
    codes_of_hits, rows = np.nonzero(hits.T)
    starts = np.searchsorted(codes_of_hits, np.arange(rules.n_codes + 1))
    return normal_form, starts.astype(np.int64), rows.astype(np.int64)


def enumerate_classes(rules, progress=None) -> tuple[np.ndarray, np.ndarray]:
    """Every class's key (ascending) and its number of labelled states.
    ``progress(tasks_done, tasks)`` is called after each batch of tasks."""
    codes = np.arange(rules.n_codes)
    # tasks: every ascending pair of first two codes, in key order
    width = min(2, rules.tubes)
    prefixes = np.stack(np.meshgrid(*[codes] * width, indexing="ij"), -1).reshape(-1, width)
    prefixes = prefixes[np.all(np.diff(prefixes, axis=1) >= 0, axis=1)]
    tables = (rules.tubes, rules.capacity, rules.colours, rules.code_length,
              rules.code_colour_counts, *normal_forms(rules),
              rules.colour_relabellings, rules.key_radix)
    keys, states = [], []
    batches = np.array_split(prefixes, min(len(prefixes), 64))
    for done, batch in enumerate(batches, 1):
        counts = _count_classes(batch, *tables)
        found = _fill_classes(counts, batch, *tables)
        keys.append(found[0])
        states.append(found[1])
        if progress is not None:
            progress(done, len(batches))
    return np.concatenate(keys), np.concatenate(states)


def moves_to_clear(rules, keys: np.ndarray, progress=None) -> np.ndarray:
    """Fewest moves to be cleared for every class in ``keys`` (``never_of(moves)``: cannot
    be cleared).  ``progress(level, classes_at_level)`` is called once per level."""
    moves = unreached(len(keys), MOST_MOVES)
    never = never_of(moves)
    moves[np.searchsorted(keys, rules.cleared_key())] = 0
    tables = (rules.tubes, rules.capacity, rules.n_codes, rules.code_length, rules.code_top,
              rules.code_pop, rules.code_push, rules.code_last_arrival, *normal_forms(rules),
              rules.colour_relabellings, rules.key_radix)
    level = 0
    while level < MOST_MOVES:
        at_level, strays = _expand_level(level, never, keys, moves, *tables)
        if strays:
            raise RuntimeError(f"balls {rules.name}: {strays} states reached at level "
                               f"{level + 1} have keys no enumerated class holds")
        if progress is not None:
            progress(level, at_level)
        if at_level == 0:
            break
        level += 1
    return moves
