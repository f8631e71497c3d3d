"""Table specs as data: what a plug-in declares so that the engine's one build routine
(``builder/routine.py``) can make its tables: where a table lives and what makes a stored
copy current (``TableSpec``), arrays the generic breadth-first kernel fills
(``BreadthFirstSearch``), arrays a plug-in's own kernel makes (``compute``, returning
arrays or a ``Computed``), and arrays made block by block by chunk tasks (``ChunkTasks``
of ``TaskBlock``s).  Kernels are named by import path (``resolved``), so a spec is plain
data that imports no numba."""

from __future__ import annotations

import functools
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def compiled(signature: Callable[[], Any], function: Callable,
             inline: str = "never") -> Callable:
    """``function`` compiled by numba for ``signature()`` when its module is first imported,
    and cached on disk: compiled then, with the tables whose build imports that module,
    not at the first use a user meets (seconds for a large kernel, in every process that
    meets it before the cache holds it).  Plain functions of the plug-in's own that it calls
    are compiled with it (``numba_ready``, ``inline`` as there)."""
    from numba import njit

    return njit(signature(), cache=True)(numba_ready(function, inline))


def moves_signature():
    """The numba signature of a moves kernel (``BreadthFirstSearch.neighbours``,
    ``SparseSearch.successors``): ``(state: int64, parameters: int64[::1], out:
    int64[::1]) -> int64``, the number of states written into ``out``."""
    from numba import types

    return types.int64(types.int64, types.int64[::1], types.int64[::1])


def compiled_moves(function: Callable) -> Callable:
    """A moves kernel ``compiled`` for ``moves_signature``.  A kernel that builds a default
    table is compiled by `make tables` anyway; one that only a check (`builder verify`), a
    table searched on request or a further table uses is compiled at that first use
    unless declared so in a module a default table's build imports (its own kernel's)."""
    return compiled(moves_signature, function)


def _kernels_as_paths(spec: Any, *names: str) -> None:
    """A frozen spec's kernels given as functions, kept as their import paths."""
    for name in names:
        object.__setattr__(spec, name, kernel_path(getattr(spec, name)))


@dataclass(frozen=True)
class BreadthFirstSearch:
    """An array the engine's generic kernel fills: the fewest moves from every state
    (``0 .. states - 1``) to the nearest of ``sources``, 255 where none is reachable.

    ``neighbours`` is a numba ``@njit`` function ``(state: int64, parameters:
    int64[::1], out: int64[::1]) -> int64`` writing into ``out`` the states one move
    *before* ``state`` (the states from which one move reaches it; for a puzzle whose
    moves can be undone, simply its moves) and returning how many it wrote, at most
    ``most_neighbours``.  ``parameters`` carries the variant (say a number of discs), so one
    function serves every size.  The engine calls it once per state, compiled and cached:
    a plug-in writes no search loop of its own.  Distances are bytes (255: never) unless
    ``wide`` (16 bits, 65535: never) for puzzles whose positions lie more than 254 moves
    apart.
    """

    states: int
    sources: tuple[int, ...]
    neighbours: Any
    """The numba function, or its import path ``"package.module:name"``: a spec is then
    plain data, and making one (to find a table's path) imports no numba."""
    most_neighbours: int
    parameters: tuple[int, ...] = ()
    wide: bool | None = False
    """16-bit distances (for positions more than 254 moves apart); None: the engine
    chooses, bytes where every distance fits."""
    moves: Any = None
    """The states one move *after* a state, same signature, when they are not simply
    ``neighbours`` (moves that cannot be undone); `builder verify` checks the recurrence
    "distance = 1 + the least distance after a move" with it."""
    folded: int = 1
    """Above 1, the array holds for every run of ``folded`` consecutive states the fewest
    moves from any of them (``states // folded`` bytes, as a ``Fold`` of the whole array),
    searched with a bit a state: a pattern database whose abstract states are too many to
    hold a distance each.  `builder verify` searches it again to check it."""

    def __post_init__(self):
        _kernels_as_paths(self, "neighbours", "moves")


MAX_SHARDS = 4096
"""The most partitions a sparse search may have (``SparseSearch.shards``)."""


@dataclass(frozen=True)
class SparseSearch:
    """A sparse table's search (``builder/sparse.py``): positions as non-negative integer
    keys (the plug-in's encoding: below 2**63 in one word, or below 2**128 in
    ``key_words`` = 2, ``builder.contract.keys``), the table holding every position
    reachable from ``starts`` (or, with no starts, every position that reaches a
    target), each with its fewest moves to the nearest target: the ``targets`` given,
    and the positions found that ``goal`` picks.

    ``successors`` is a numba function ``(key: int64, parameters: int64[::1], out:
    int64[::1]) -> int64`` writing the keys one move after ``key`` (at most
    ``most_moves``), named by import path (``"package.module:function"``); or a plain
    Python callable from a key to an iterable of keys: the plain-Python start, the same
    table built slower, in this process.  ``predecessors``: the keys one move *before*,
    the same way, where the moves cannot simply be undone (None: ``successors``).
    ``goal``: a function ``(keys: int64 array, parameters) -> bool array``, by import
    path or callable.  With two-word keys a kernel has the type
    ``builder.kernels.graph_bfs.WIDE_MOVES`` (a key is a row of its high and low word,
    uint64) and ``goal`` takes an ``(n, 2)`` uint64 array of such rows.  ``shards``: the
    partitions of the level-synchronous search (more shards, less memory per task; the
    table is the same bytes).  Distances are bytes (255: never) where every one fits a
    byte, else 16 bits (65535: never), unless ``wide`` says which.
    """

    starts: tuple[int, ...]
    successors: Any
    most_moves: int
    targets: tuple[int, ...] = ()
    goal: Any = None
    predecessors: Any = None
    parameters: tuple[int, ...] = ()
    wide: bool | None = None
    """16-bit distances; None (the default): the engine chooses, bytes where every
    distance fits one."""
    shards: int = 1
    memory: int | None = None
    """Bytes a shard's task may hold: where a level would need more, the search starts
    again in as many more shards as it needs (None: ``shards`` as given).  Not part of
    the table."""
    key_words: int = 1
    """64-bit words per key: 1, or 2 for keys up to 128 bits."""

    def __post_init__(self):
        _kernels_as_paths(self, "successors", "predecessors", "goal")

    @property
    def plain(self) -> bool:
        """Built from plain-Python moves (no kernel)."""
        return not is_kernel(self.successors)


SPARSE_ARRAYS = ("keys", "distance", "key_index")
"""A sparse table's arrays: ascending ``keys``, each one's ``distance``, and the first key
of every chunk of ``keys`` (``key_index``, read whole: where to look a key up)."""


def kernel_path(function: Any) -> Any:
    """A kernel given as a function (plain Python, or already compiled by numba) as its
    import path ``"package.module:name"``, which a spec keeps: a spec stays plain data that
    pickles to a worker and compares equal from one process to the next, and its kernel is
    imported and compiled only where a table is built or searched (``kernel``).  A path, or
    any other value, is returned as it is: so is a plain-Python start's function of a key
    alone that no import reaches (it runs in this process only)."""
    python = getattr(function, "py_func", function)
    if not isinstance(python, types.FunctionType):
        return function
    module, name = python.__module__, getattr(python, "plain_name", python.__qualname__)
    found = sys.modules.get(module)
    for part in name.split("."):
        found = getattr(found, part, None)
    if found is not function:
        if python.__code__.co_argcount < 3:  # not (position, parameters, out): not a kernel
            return function
        raise TypeError(f"kernel {module}.{name}: define it at the top level of its module, "
                        "so that the engine can import it where it builds (a worker "
                        "process included)")
    return f"{module}:{name}"


@dataclass(frozen=True)
class Canonical:
    """Moves then, on every position they reach, ``canonical`` (a symmetry's least image:
    the key): the kernel the engine compiles from a plug-in's moves on positions and its
    key of a position, each written once (``KeyKernel.canonical``).  Both by import path."""

    moves: str
    canonical: str


def is_kernel(moves: Any) -> bool:
    """True for moves the engine compiles (an import path, or ``Canonical``), False for a
    plain-Python start's callable."""
    return isinstance(moves, (str, Canonical))


def resolved(function: Any) -> Any:
    """A kernel given as ``"package.module:name"``, imported; any other value as it is."""
    if isinstance(function, str):
        from importlib import import_module

        module, _, name = function.partition(":")
        found = import_module(module)
        for part in name.split("."):
            found = getattr(found, part)
        return found
    return function


def run_moves(function: Any, position: int, most: int,
               parameters: tuple[int, ...] = ()) -> list[int]:
    """A moves kernel run as Python (a walk's moves from the function the tables' search
    compiles): the positions it writes from ``position``, in its order, at most ``most``.
    Example: ``run_moves(jumps, mask, 76)``."""
    import numpy as np

    out = np.empty(most, np.int64)
    count = resolved(function)(int(position), np.asarray(parameters, np.int64), out)
    return out[:count].tolist()


def kernel(function: Any, key_words: int = 1) -> Any:
    """A moves kernel (``BreadthFirstSearch.neighbours``, ``SparseSearch.successors``):
    ``resolved``, and where it is a plain Python function (moves written once, in the
    subset of Python numba compiles, which the walk also runs as Python) compiled for
    ``moves_signature`` (on keys of two words, ``key_words`` = 2: for
    ``wide_moves_signature``) and cached on disk, once per process, with every plain
    function of its own it calls (``numba_ready``)."""
    if isinstance(function, Canonical):
        return _canonical_kernel(function)
    found = resolved(function)
    if isinstance(found, types.FunctionType):
        return _compiled_once(found) if key_words == 1 else _compiled_wide_once(found)
    return found


def wide_moves_signature():
    """The numba signature of moves on keys of two words (``SparseSearch.key_words`` = 2):
    ``(key: uint64[::1] (high, low), parameters: int64[::1], out: uint64[:, ::1]) ->
    int64``, a row of two words per key written."""
    from numba import types

    return types.int64(types.uint64[::1], types.int64[::1], types.uint64[:, ::1])


@functools.cache
def _compiled_wide_once(function: Callable) -> Callable:
    return compiled(wide_moves_signature, function)


def _moves_then_canonical(position, parameters, out):
    count = MOVES(position, parameters, out)  # noqa: F821 (given by _canonical_kernel)
    for at in range(count):
        out[at] = CANONICAL(out[at])  # noqa: F821
    return count


@functools.cache
def _canonical_kernel(both: Canonical) -> Callable:
    """``Canonical`` compiled: a copy of ``_moves_then_canonical`` naming the plug-in's two
    functions compiled, cached on disk under a name of its own (numba's cache tells
    functions apart by their names)."""
    from numba import njit

    moves, canonical = resolved(both.moves), resolved(both.canonical)
    helpers = {"MOVES": _compiled_plain(moves), "CANONICAL": _compiled_plain(canonical)}
    template = _moves_then_canonical
    ready = types.FunctionType(template.__code__, {**template.__globals__, **helpers},
                               template.__name__)
    ready.__qualname__ = "moves_then_canonical__" + "__".join(
        "".join(ch if ch.isalnum() else "_" for ch in path)
        for path in (both.moves, both.canonical)) + "__" + "".join(
        fingerprint(function) for function in (moves, canonical)
        if isinstance(function, types.FunctionType))
    return njit(moves_signature(), cache=True)(ready)


def _compiled_plain(function: Callable) -> Callable:
    """A plain function compiled as a helper (a numba function as it is)."""
    return _compiled_helper(function) if isinstance(function, types.FunctionType) else function


@functools.cache
def _compiled_once(function: Callable) -> Callable:
    return compiled_moves(function)


def numba_ready(function: Callable, inline: str = "never") -> Callable:
    """``function`` as numba can compile it: where it calls plain Python functions (a
    plug-in's helpers, written without numba), a copy of it that calls their compiled
    versions instead, each made ready the same way.  So a plug-in writes its moves and
    their helpers once, in plain Python that the walk runs as it is, and imports no numba
    (the engine compiles them where a table is built or searched).  ``inline``: numba's
    option for the helpers, "always" to inline them into their callers where LLVM would
    leave the calls (and their arrays' reference counts) in a hot loop."""
    helpers = {name: _compiled_helper(value, inline)
               for name in sorted(_global_names(function.__code__))
               if isinstance(value := function.__globals__.get(name), types.FunctionType)
               and value is not function}
    ready = types.FunctionType(function.__code__, {**function.__globals__, **helpers},
                               function.__name__, function.__defaults__, function.__closure__)
    # numba's disk cache knows a function by its name and its own file's time stamp: the
    # name carries a fingerprint of what else the compiled code holds (helpers from other
    # files, global tables made from other modules' data), so a change there compiles anew
    ready.__qualname__ = f"{function.__qualname__}__{fingerprint(function)}"
    ready.__module__, ready.__doc__ = function.__module__, function.__doc__
    ready.plain_name = function.__qualname__  # its name in its module (``kernel_path``)
    return ready


def fingerprint(function: Callable) -> str:
    """A short hash of what compiling ``function`` freezes into its machine code: its own
    code, the values of the global numbers and arrays it reads, and, the same way, every
    plain function it calls."""
    import hashlib

    digest = hashlib.sha256()
    _fingerprint_into(digest, function, set())
    return digest.hexdigest()[:12]


def _fingerprint_into(digest: Any, function: Callable, seen: set[int]) -> None:
    import numpy as np

    if id(function) in seen:
        return
    seen.add(id(function))
    _code_into(digest, function.__code__)
    for name in sorted(_global_names(function.__code__)):
        value = function.__globals__.get(name)
        digest.update(name.encode())
        if isinstance(value, types.FunctionType):
            _fingerprint_into(digest, value, seen)
        elif isinstance(value, np.ndarray):
            digest.update(str(value.dtype).encode() + repr(value.shape).encode())
            digest.update(np.ascontiguousarray(value).tobytes())
        elif isinstance(value, (bool, int, float, complex, str, bytes, tuple)):
            digest.update(repr(value).encode())


def _code_into(digest: Any, code: types.CodeType) -> None:
    digest.update(code.co_code)
    digest.update(repr(code.co_names).encode())
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            _code_into(digest, constant)
        else:
            digest.update(repr(constant).encode())


@functools.cache
def _compiled_helper(function: Callable, inline: str = "never") -> Callable:
    from numba import njit

    return njit(cache=True, inline=inline)(numba_ready(function, inline))


def _global_names(code: types.CodeType) -> set[str]:
    """The global names a function's code (its nested code included) may read."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _global_names(constant)
    return names


@dataclass(frozen=True)
class Fold:
    """An array made from one of the table's breadth-first arrays: the least of every run
    of ``width`` consecutive entries of ``source``.  A pattern database searched over
    abstract states that carry a part its look-up ignores (ranked last, say the blank's
    cell) is folded so: the search's array keeps the recurrence `builder verify` checks,
    the fold is the ``width`` times smaller estimate a search reads."""

    source: str
    width: int


@dataclass(frozen=True)
class Computed:
    """What a spec's ``compute`` made: arrays, and small JSON attributes stored beside
    them (figures the computation yields that no array holds)."""

    arrays: dict[str, Any]
    attributes: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TaskBlock:
    """What one chunk task made: a block of every array of its ``ChunkTasks``, all at one
    ``offset``, and small JSON ``facts`` (a maximum found...) for ``ChunkTasks.finish``."""

    offset: tuple[int, ...]
    arrays: dict[str, Any]
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ChunkTasks:
    """Arrays too large to make in one go, made block by block by independent tasks that
    the engine runs on its executor (in this process, or on Dask workers) and writes into a
    staging table as they finish.  Each finished task leaves a record with the checksums of
    the chunks it wrote, so an interrupted build resumes: tasks whose chunks still verify
    are not run again.

    ``function`` (``"package.module:name"``, importable on a worker) is called with one
    tuple of ``arguments`` and returns a ``TaskBlock``; a block should cover whole chunks,
    and no two tasks may write the same chunk.
    """

    shape: tuple[int, ...]
    """The shape every array shares."""
    chunks: tuple[int, ...]
    arrays: dict[str, str]
    """Array name → numpy dtype name (``"uint8"``)."""
    function: str
    arguments: tuple[tuple, ...]
    finish: Callable[[list[dict]], dict[str, Any]] | None = None
    """Attributes of the finished table from every task's ``facts`` (in task order)."""

    def __post_init__(self):
        _kernels_as_paths(self, "function")


@dataclass(frozen=True)
class TableSpec:
    """One stored table, as data: where it lives, what it is, and how its arrays are made.

    The engine's one build routine runs it: is a current table with this ``identity``
    stored? → fill ``searches`` by the generic kernel and call ``compute`` (a plug-in's own
    kernel) → write every array in chunks of ``chunk`` entries → publish atomically → update
    the catalog for this table only.  ``identity`` must hold ``"puzzle"``, and
    ``Building.table(attributes)`` gives this spec back from a stored table's attributes
    (which hold the identity; verify uses that).
    """

    parts: tuple[str, ...]
    """The table's path under the data directory, without ``.zarr``: ("lamps", "12")."""
    identity: dict[str, Any]
    """What the table is; a stored table with the same identity and format is current."""
    searches: dict[str, BreadthFirstSearch] = field(default_factory=dict)
    """Arrays filled by the engine's generic breadth-first kernel."""
    folds: dict[str, Fold] = field(default_factory=dict)
    """Arrays folded from ``searches`` (a pattern database's estimates)."""
    compute: Callable[..., dict[str, Any] | Computed] | None = None
    """Arrays (numpy) made by the plug-in itself, if any: called with ``progress`` (True:
    it may show progress bars), and a ``TableLookup`` over the data directory being built
    as second argument when ``reads_tables``, it returns the arrays, or a ``Computed`` when
    the work also yields attributes (a per-size summary...)."""
    reads_tables: bool = False
    """True for a table derived from other stored tables (``compute(progress, tables)``)."""
    sparse: SparseSearch | None = None
    """A sparse table's search (arrays ``SPARSE_ARRAYS``), instead of ``searches``."""
    tasks: ChunkTasks | None = None
    """Arrays made by chunk tasks (resumable, runnable on a cluster), instead of
    ``searches`` and ``compute``."""
    attributes: dict[str, Any] = field(default_factory=dict)
    """Descriptive attributes stored beside the identity (the rules in words...), not
    part of what makes the table current."""
    encoding: str = ""
    """How to read the arrays (stored in the table's attributes)."""
    chunk: int = 1 << 18
    """Entries per chunk: a walk reads one chunk per position it looks up."""
    chunks: dict[str, int] = field(default_factory=dict)
    """Entries per chunk of particular arrays, where not ``chunk`` (an index read whole)."""
    summarise: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """Extra attributes worked out from the finished arrays (small, JSON)."""
