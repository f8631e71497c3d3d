"""Moves compiled for you: a plug-in gives its moves as plain Python functions (helpers of
its own included), the specs keep them as import paths, and the engine compiles what it
runs.  Expected values come from running the same functions as Python."""

from __future__ import annotations

import random

import numpy as np
import pytest

from builder.contract.puzzle import KeyKernel, MoveKernel
from builder.contract.specs import (
    BreadthFirstSearch,
    ChunkTasks,
    SparseSearch,
    kernel,
    kernel_path,
    resolved,
)


def _rotated(word, width):
    """A helper of the kernel's own, plain Python."""
    return ((word << 1) | (word >> (width - 1))) & ((1 << width) - 1)


def _flipped(word, bit):
    return word ^ (1 << bit)


def rotate_or_flip(word, parameters, out):
    """Moves on a ring of ``parameters[0]`` bits: rotate by one, or flip any bit."""
    width = parameters[0]
    out[0] = _rotated(word, width)
    for bit in range(width):
        out[1 + bit] = _flipped(word, bit)
    return width + 1


def test_a_plain_kernel_that_calls_plain_helpers_compiles_and_runs_as_python():
    compiled = kernel(rotate_or_flip)
    assert compiled is not rotate_or_flip and hasattr(compiled, "py_func")
    width = 9
    parameters = np.array([width], np.int64)
    draw = random.Random(5)
    for _ in range(50):
        word = draw.randrange(1 << width)
        as_python, as_compiled = np.zeros(width + 1, np.int64), np.zeros(width + 1, np.int64)
        count = rotate_or_flip(word, parameters, as_python)
        assert compiled(np.int64(word), parameters, as_compiled) == count == width + 1
        assert list(as_compiled) == list(as_python)
        # the rules in words: one rotation, then each bit flipped
        assert as_python[0] == ((word << 1) | (word >> (width - 1))) & ((1 << width) - 1)
        assert sorted(as_python[1:]) == sorted(word ^ (1 << bit) for bit in range(width))


def test_specs_keep_a_function_as_its_import_path_and_give_it_back():
    path = f"{__name__}:rotate_or_flip"
    assert kernel_path(rotate_or_flip) == path
    assert resolved(path) is rotate_or_flip
    search = BreadthFirstSearch(512, (0,), rotate_or_flip, 10, parameters=(9,),
                                moves=rotate_or_flip)
    assert search.neighbours == path and search.moves == path
    # a spec made from the function equals one made from its path: a resumed or
    # re-checked build compares them
    assert search == BreadthFirstSearch(512, (0,), path, 10, parameters=(9,), moves=path)
    assert SparseSearch((0,), rotate_or_flip, 10).successors == path
    assert SparseSearch((0,), rotate_or_flip, 10).plain is False
    assert KeyKernel(rotate_or_flip, 10, predecessors=rotate_or_flip).predecessors == path
    assert MoveKernel(rotate_or_flip, (9,), 10).function == path
    tasks = ChunkTasks((4,), (4,), {"a": "uint8"}, rotate_or_flip, ((1,),))
    assert tasks.function == path


def test_a_plain_python_start_stays_a_callable():
    def moves(key):
        return [key + 1]

    assert SparseSearch((0,), moves, 0).successors is moves
    assert SparseSearch((0,), moves, 0).plain is True


def test_a_kernel_that_no_import_can_reach_is_refused_in_one_line():
    def local_moves(word, parameters, out):
        return 0

    with pytest.raises(TypeError, match="top level of its module"):
        BreadthFirstSearch(4, (0,), local_moves, 1)


def test_the_built_in_kernels_run_alike_compiled_and_as_python():
    """Peg solitaire's jumps (with their key helper) and the 2x2x2 cube's turns are plain
    Python: compiled by the engine they give what they give as Python."""
    from puzzles.cube.search import cube_moves
    from puzzles.pegs import rules
    from puzzles.pegs.search import canonical, jumps

    draw = random.Random(11)
    start = rules.START
    for moves, parameters, keys in (
            (jumps, (), [canonical(start ^ draw.getrandbits(33) & start)
                         for _ in range(30)]),
            (cube_moves, (1,), [])):
        values = np.array(parameters or (0,), np.int64)
        if not keys:  # cube keys reached by turning the solved cube's at random
            out = np.zeros(9, np.int64)
            from puzzles.cube import rules as cube_rules

            key = cube_rules.encode(cube_rules.SOLVED)
            for _ in range(30):
                count = cube_moves(key, values, out)
                key = int(out[draw.randrange(count)])
                keys.append(key)
        compiled = kernel(moves)
        for key in keys:
            as_python, as_compiled = np.zeros(80, np.int64), np.zeros(80, np.int64)
            count = moves(key, values, as_python)
            assert compiled(np.int64(key), values, as_compiled) == count
            assert list(as_compiled[:count]) == list(as_python[:count])


def test_moves_then_canonical_compile_into_one_kernel_that_keys_every_position():
    """Peg solitaire writes its jumps on positions and its key once each; the engine's
    kernel is the jumps, then the key of each position reached.  The key is checked
    against the eight symmetries of the square written out here."""
    from builder.contract.specs import Canonical
    from puzzles.pegs import rules
    from puzzles.pegs.search import canonical, jumps

    def images(mask):
        squares = [rules.SQUARES[hole] for hole in range(rules.HOLES) if mask >> hole & 1]
        turns = [lambda r, c: (r, c), lambda r, c: (c, 6 - r), lambda r, c: (6 - r, 6 - c),
                 lambda r, c: (6 - c, r), lambda r, c: (r, 6 - c), lambda r, c: (6 - r, c),
                 lambda r, c: (c, r), lambda r, c: (6 - c, 6 - r)]
        return [sum(1 << rules.INDEX[turn(*square)] for square in squares) for turn in turns]

    both = kernel(Canonical(kernel_path(jumps), kernel_path(canonical)))
    draw = random.Random(3)
    out = np.zeros(80, np.int64)
    for _ in range(40):
        mask = rules.START & ~draw.getrandbits(33) | (1 << rules.CENTRE)
        count = both(np.int64(mask), np.zeros(0, np.int64), out)
        raw = np.zeros(80, np.int64)
        assert jumps(mask, np.zeros(0, np.int64), raw) == count
        assert list(out[:count]) == [min(images(int(after))) for after in raw[:count]]
