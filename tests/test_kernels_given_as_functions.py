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


class _EveryTableStored:
    """Tables as ``search_for`` asks them: every pattern table stored (none is read)."""

    def stored(self, parts):
        return _Everything()


class _Everything:
    def __contains__(self, name):
        return True


def _sliding_search(board, node):
    from puzzles.sliding.rules import goal_with_blank_at
    from puzzles.sliding.tables import search_for

    goal = goal_with_blank_at(board[0] * board[1], 0)
    return search_for(_EveryTableStored(), board, node, goal, partition="6-6-3",
                      reflect=True, dual=True)


def test_the_sliding_tiles_give_their_kernels_as_plain_functions_of_a_numba_free_module():
    """The full tables' moves, the pattern databases' moves and the IDA* step are given as
    functions, plain Python (no numba dispatcher), from a module whose import loads no
    numba."""
    import subprocess
    import sys
    import types

    from builder import registry
    from puzzles.sliding.rules import goal_with_blank_at
    from puzzles.sliding.tables import pattern_table

    full = registry.by_name("sliding").table({"puzzle": "sliding", "rows": 2, "columns": 3})
    pattern = pattern_table(4, 4, 0, (1, 2, 3))
    kernels = [full.searches["blank0"].neighbours, pattern.searched["abstract"].neighbours]
    step = _sliding_search((4, 4), goal_with_blank_at(16, 0)).step
    assert isinstance(step, types.FunctionType)
    for found in (*(resolved(path) for path in kernels), step):
        assert type(found) is types.FunctionType and found.__module__ == "puzzles.sliding.search"
    imported = subprocess.run(
        [sys.executable, "-c", "import sys, puzzles.sliding.search; "
         "print('numba' in sys.modules)"], capture_output=True, text=True, check=True)
    assert imported.stdout.strip() == "False"


def test_a_plain_step_compiled_by_the_engine_moves_as_it_does_in_python():
    """The sliding tiles' IDA* step, compiled by the engine (``step_kernel``), writes the
    row it writes as Python, along a random walk on 4x4 with every look-up (reflection,
    duals); the board and its first patterns' indices are checked against the rules in
    words: the blank swaps with the cell above, below, left or right of it, and an index
    is the rank of the pattern's tiles' cells among arrangements in lexicographic order."""
    from builder.contract.patterns import step_kernel
    from puzzles.sliding.rules import goal_with_blank_at

    def beside(cell, way):
        row, column = divmod(cell, 4)
        row, column = ((row - 1, column), (row + 1, column), (row, column - 1),
                       (row, column + 1))[way]
        return row * 4 + column if 0 <= row < 4 and 0 <= column < 4 else -1

    def arrangement(places, total=16):
        rank = 0
        for index, place in enumerate(places):
            rank = rank * (total - index) + place - sum(other < place
                                                        for other in places[:index])
        return rank

    draw = random.Random(55)
    board = list(goal_with_blank_at(16, 0))
    for _ in range(40):
        blank = board.index(0)
        other = beside(blank, draw.choice([way for way in range(4) if beside(blank, way) >= 0]))
        board[blank], board[other] = board[other], 0
    search = _sliding_search((4, 4), tuple(board))
    compiled = step_kernel(search.step)
    assert step_kernel(search.step) is compiled  # compiled once a process
    parameters = np.array(search.parameters, np.int64)
    first = [table.spec.identity["tiles"] for table in search.patterns if table.group == 0]
    as_python = np.array([search.start, search.start], np.int64)
    as_compiled = as_python.copy()
    for _ in range(60):
        move = draw.randrange(4)
        blank = board.index(0)
        legal = search.step(as_python, 0, move, parameters)
        assert compiled(as_compiled, 0, move, parameters) == legal
        assert legal == (beside(blank, move) >= 0)
        if not legal:
            continue
        assert list(as_compiled[1]) == list(as_python[1])
        other = beside(blank, move)
        board[blank], board[other] = board[other], 0
        row = [int(entry) for entry in as_python[1]]
        assert row[:16] == board
        assert row[32:32 + len(first)] == [arrangement([board.index(tile) for tile in tiles])
                                           for tiles in first]
        as_python[0] = as_python[1]
        as_compiled[0] = as_compiled[1]


def test_the_sliding_step_is_compiled_where_the_tables_are_built():
    """`builder tables` imports a plug-in's ``kernel_modules`` after its build: the
    sliding tiles' name the module that compiles their plain IDA* step, so a user's first
    search does not."""
    import subprocess
    import sys

    from builder import registry
    from builder.contract.puzzle import Building

    modules = Building.of(registry.by_name("sliding")).kernel_modules()
    probe = ("import importlib, sys\n"
             f"for name in {list(modules)!r}: importlib.import_module(name)\n"
             "from builder.contract.patterns import _compiled_step_once\n"
             "print(_compiled_step_once.cache_info().currsize)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0 and done.stdout.split() == ["1"], done.stderr


CALLER = '''
from kernels_b import step_of


def moves(position, parameters, out):
    out[0] = position + step_of(position)
    return 1
'''


def test_a_kernel_compiles_anew_when_a_helper_in_another_file_changes(tmp_path):
    """numba's disk cache knows a kernel by its own file's time stamp alone: the engine's
    name for it carries a fingerprint of its helpers (and the data they read), so editing
    a helper in another module is never answered from a stale cache."""
    import os
    import subprocess
    import sys

    (tmp_path / "kernels_a.py").write_text(CALLER)
    helper = tmp_path / "kernels_b.py"
    script = ("import sys, numpy as np\n"
              "from builder.contract.specs import kernel\n"
              "from kernels_a import moves\n"
              "out = np.zeros(1, np.int64)\n"
              "kernel(moves)(np.int64(10), np.zeros(0, np.int64), out)\n"
              "print(int(out[0]))\n")
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
                   "PYTHONPATH": os.pathsep.join([str(tmp_path), os.getcwd()]),
                   "PYTHONDONTWRITEBYTECODE": "1"}
    answers = []
    for step in (1, 5):
        helper.write_text(f"def step_of(position):\n    return {step}\n")
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              env=environment, cwd=tmp_path, check=True)
        answers.append(int(done.stdout))
    assert answers == [11, 15]
    assert any((tmp_path / "cache").rglob("*.nbi"))  # compiled through the disk cache
