"""Pattern databases and the exact search on them, as a plug-in declares them.

A pattern database is the distance table of an *abstraction* of a puzzle: only some
pieces tracked, the others indistinguishable.  Its values never exceed the real
distance, so they guide an exact search (IDA*) through puzzles far too large to
tabulate.  The plug-in declares both halves as data:

- each pattern's table is an ordinary ``TableSpec``: a ``BreadthFirstSearch`` over the
  dense ranking of the abstract states (the plug-in's ``neighbours`` moves only the
  tracked pieces; where the others move for free, an abstract state carries what they
  leave reachable, say the blank's region, so that every move costs one and the
  recurrence `builder verify` checks still holds), and, where the look-up ignores part of
  the abstract state, a ``Fold`` (the least over that part);
- ``PatternSearch`` says how the engine's IDA* kernel (``builder/kernels/ida.py``) walks
  the real puzzle: a start row, a numba ``step`` that makes one numbered move on a row and
  writes each pattern's index into the child, and which ``PatternTable`` each index reads.
  Values of the tables in one ``group`` add (disjoint patterns: every move moves one
  piece, counted by one pattern at most); groups combine by their maximum (another
  partition, or the same tables looked up on a symmetric image of the position).

The plug-in offers the search through ``Walking.pattern_search``; the engine loads the
tables through their checksums, searches, and replays the path through the plug-in's own
``moves`` (``encode`` names a walk node's row), so a path it returns is legal by
construction.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from math import perm
from typing import Any

from builder.contract.specs import TableSpec, compiled, resolved

NEVER = 255
"""What a pattern table holds for an abstract state that never reaches the goal."""


def arrangement_rank(places: list[int] | tuple[int, ...], total: int) -> int:
    """The rank of distinct ``places`` among all arrangements of as many of ``total``
    places in lexicographic order (a pattern's tracked pieces, say): each place's number
    among the places not used before it, weighted by the arrangements of the places after
    it (a permutation's Lehmer code when all are given)."""
    rank, used = 0, set()
    for index, place in enumerate(places):
        smaller = sum(1 for other in used if other < place)
        rank += (place - smaller) * perm(total - 1 - index, len(places) - 1 - index)
        used.add(place)
    return rank


def count_bits(mask):
    """The set bits of a non-negative mask, in the subset of Python numba compiles: the
    loop that clears the lowest bit, which LLVM recognises and compiles to one popcnt
    instruction, so no loop is left."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


def packed_rank(packed, count, weights, offset):
    """``arrangement_rank`` in the subset of Python numba compiles, for a kernel: the rank
    of ``count`` distinct places packed four bits each (the first in the low bits), the
    arrangement's weights at ``weights[offset:]``."""
    rank = 0
    used = 0
    for number in range(count):
        place = (packed >> (4 * number)) & 15
        rank += (place - count_bits(used & ((1 << place) - 1))) * weights[offset + number]
        used |= 1 << place
    return rank


def packed_unrank(rank, count, weights, offset):
    """``packed_rank`` undone: (the places packed four bits each, the mask of them)."""
    packed = 0
    used = 0
    for number in range(count):
        weight = weights[offset + number]
        digit = rank // weight
        rank -= digit * weight
        place = 0
        while True:  # the digit-th place not used yet
            if not (used >> place) & 1:
                if digit == 0:
                    break
                digit -= 1
            place += 1
        packed |= place << (4 * number)
        used |= 1 << place
    return packed, used


def step_signature():
    """The numba signature of every ``PatternSearch.step``: ``(rows: int64[:, ::1],
    depth: int64, move: int64, parameters: int64[::1]) -> int64``."""
    from numba import types

    return types.int64(types.int64[:, ::1], types.int64, types.int64, types.int64[::1])


def compiled_step(function: Callable) -> Callable:
    """A plug-in's step ``compiled`` for ``step_signature``.  The step's module is the one
    whose moves build the pattern tables, so `builder build` compiles it with them and a
    first search answers as fast as later ones."""
    return compiled(step_signature, function)


def step_kernel(step: Any) -> Callable:
    """A ``PatternSearch.step`` as the engine's IDA* calls it: ``resolved``, and where it is
    a plain Python function (written in the subset of Python numba compiles, with plain
    helpers of its own) compiled for ``step_signature`` at its first use in a process and
    cached on disk, its helpers inlined: IDA* calls the step once a node, and a step calls
    its helpers several times (a pattern's index on the child, its reflection's...)."""
    found = resolved(step)
    if isinstance(found, types.FunctionType):
        return _compiled_step_once(found)
    return found


@functools.cache
def _compiled_step_once(function: Callable) -> Callable:
    return compiled(step_signature, function, inline="always")


@dataclass(frozen=True)
class PatternTable:
    """One array of admissible estimates the search looks up: ``spec``'s array ``array``
    (``spec`` a ``Table`` of the puzzle's, kept as the engine's spec),
    uint8, indexed by the row's entry ``PatternSearch.indices_at + p`` for the p-th table
    of ``PatternSearch.patterns``."""

    spec: TableSpec
    array: str
    group: int = 0
    """Tables of one group add; groups combine by their maximum."""
    build: str = ""
    """What follows ``builder build NAME`` to make the table, for the missing table's
    advice."""

    def __post_init__(self):
        from builder.contract.puzzle import as_spec  # the contract imports this module

        object.__setattr__(self, "spec", as_spec(self.spec))


@dataclass(frozen=True)
class PatternSearch:
    """An exact search the engine runs by IDA* where no full table answers.

    A row is an int64 vector of the plug-in's making: the position (``goal``'s length
    first entries, compared with ``goal`` where the estimate is 0), anything its ``step``
    keeps up to date incrementally, and one index per pattern table from ``indices_at``.

    ``step`` is a function ``(rows: int64[:, ::1], depth: int64, move: int64, parameters:
    int64[::1]) -> int64``: plain Python the engine compiles on first use
    (``step_kernel``), so that making a search imports no numba, or one already compiled
    (``compiled_step``), or either named by import path (``"package.module:name"``).  It
    writes into ``rows[depth + 1]`` the row after move number ``move`` (``0 .. moves -
    1``) from ``rows[depth]`` and returns 1, or returns 0 when that move is not legal
    there.  ``redundant`` lists the (previous, next) move pairs never searched in
    sequence (a move that undoes the one before it).
    """

    start: tuple[int, ...]
    goal: tuple[int, ...]
    patterns: tuple[PatternTable, ...]
    step: Any
    moves: int
    encode: Callable[[Hashable], tuple[int, ...]]
    """A walk node's position as a row's first entries: how the engine finds, among the
    plug-in's ``moves``, the one each step of the found path made."""
    parameters: tuple[int, ...] = ()
    indices_at: int = 0
    redundant: tuple[tuple[int, int], ...] = ()
    longest: int = 254
    """The longest path searched for; past it, the search reports the bound it proved."""
    nodes: int = 1 << 62
    """The most nodes the search may generate before it answers with its bound."""
    seconds: float = float("inf")
    """The longest it may run (within a server's limit) before answering with its bound."""
    how: str = "IDA* on pattern databases"
    parity: bool = False
    """Every path to the goal has the parity of the first group's sum (each move changes
    it by one, as the tiles' taxicab distances), so a group whose sum has the other parity
    bounds it one higher; the first group's tables come first in ``patterns``."""
    passes: Callable[..., tuple[int, int, int, int]] | None = None
    """A plug-in's own depth-first pass in place of the engine's kernel, for an estimate
    no table of bytes expresses (values stored modulo 3, looked up by symmetry class) or a
    pass shared by threads: ``passes(rows, bound, nodes, stop, deadline, counted)``
    searches every path from ``rows[0]`` to cost ``bound`` as ``builder.kernels.ida``'s
    ``iteration`` does (at most ``nodes`` nodes; the one-byte flags ``stop`` and
    ``deadline`` end it; the nodes so far in ``counted[0]`` as it goes) and returns its
    ``(status, length, next bound, nodes)``; FOUND: rows ``0 .. length`` are the path,
    each row's first entries its position as ``encode`` gives it.  ``patterns`` is then
    empty and ``step`` unused: the engine reads no table."""
    estimate: int = 0
    """The estimate at the start, where ``passes`` searches."""
