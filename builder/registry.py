"""The one list of puzzles: every plug-in that an installed package registers in the entry
point group ``puzzle_tablebase.puzzles`` (``NAME = "module:Class"``, the built-in ones in
this project's pyproject.toml like any other package's), each checked against the contract
(``builder.contract``) as it is loaded.  Everything that works "for every puzzle"
(`query path` dispatch, `query moves`, the listings, `make tables`) reads this list and
names no puzzle itself.  A process lists the entry points from a cache file while the
installed packages are as they were (``cached_entry_points``)."""

from __future__ import annotations

import re
import sys

from builder import dense_tables, keyed_tables  # noqa: F401 (the engine's derived tables)
from builder.contract.base import PuzzleOption
from builder.contract.errors import OneLineError, PuzzleInputError, shown
from builder.contract.hooks import check_hooks
from builder.contract.puzzle import Describing, Puzzle

ENTRY_POINT_GROUP = "puzzle_tablebase.puzzles"

PROJECT = "puzzle-tablebase"
"""The package whose entry points are the built-in puzzles: no other package's may take
one of their names, whichever is listed first."""


class PluginError(OneLineError):
    """An installed plug-in that cannot be loaded: its module fails to import, its value is
    no puzzle class, or its name is not the puzzle's."""


def _plugin(entry) -> Puzzle:
    """The puzzle an entry point names, made and checked against the contract; a
    PluginError (one line, naming the entry point and its package) otherwise."""
    where = _where(entry)
    try:
        plugin = entry.load()
    except Exception as error:  # noqa: BLE001 (any failure of a third party's import is one line)
        raise PluginError(f"{where} cannot be loaded: {type(error).__name__}: "
                          f"{str(error)[:200]}") from None
    if not (isinstance(plugin, type) and issubclass(plugin, Puzzle)):
        raise PluginError(f"{where} is not a puzzle class (a subclass of "
                          "builder.contract.base.Puzzle)")
    try:
        puzzle = plugin()
    except TypeError as error:  # a core hook left abstract, say
        raise PluginError(f"{where} cannot be made: {str(error)[:200]}") from None
    if puzzle.name != entry.name:
        raise PluginError(f"{where} names its puzzle {puzzle.name!r}: the entry point's "
                          "name must be the puzzle's")
    try:
        registered((puzzle,))
    except OneLineError as error:
        raise PluginError(f"{where}: {error}") from None
    return puzzle


def _where(entry) -> str:
    """An entry point as a warning names it: its name, value and package."""
    package = getattr(getattr(entry, "dist", None), "name", None)
    return f"plug-in {entry.name} ({entry.value}" + (f", package {package})" if package
                                                     else ")")


def is_built_in(entry) -> bool:
    """Whether an entry point is one of this project's own puzzles (``PROJECT``'s)."""
    package = getattr(getattr(entry, "dist", None), "name", None) or ""
    return package.lower().replace("_", "-").replace(".", "-") == PROJECT


def load_plugins(warn=None, listed=None) -> tuple[Puzzle, ...]:
    """One instance of every plug-in class registered in ``ENTRY_POINT_GROUP``, by name.
    One that cannot be loaded, breaks the contract or takes a name already taken is left
    out with a one-line warning (``warn``, default: on stderr): every other puzzle works.
    A built-in puzzle's name is never another package's, whatever the order the entry
    points are listed in.  ``listed``: the group's entry points (default: as
    ``importlib.metadata`` finds them now)."""
    if listed is None:
        from importlib.metadata import entry_points

        listed = entry_points(group=ENTRY_POINT_GROUP)
    if warn is None:
        def warn(message: str) -> None:
            print(f"warning: {message}", file=sys.stderr, flush=True)
    entries = sorted(listed, key=lambda e: (e.name, not is_built_in(e)))
    built_in = {entry.name for entry in entries if is_built_in(entry)}
    found: dict[str, Puzzle] = {}
    for entry in entries:
        if entry.name in built_in and not is_built_in(entry):
            warn(f"{_where(entry)} takes the name of the built-in puzzle {entry.name}: it "
                 "is left out; rename it")
            continue
        try:
            puzzle = _plugin(entry)
        except PluginError as error:
            warn(f"{error}; it is left out")
            continue
        if puzzle.name in found:
            warn(f"{_where(entry)} takes the name of {type(found[puzzle.name]).__module__}"
                 ": it is left out; rename one")
            continue
        found[puzzle.name] = puzzle
    return tuple(found.values())


def registered(puzzles: tuple[Puzzle, ...]) -> tuple[Puzzle, ...]:
    """``puzzles`` once each is checked against the contract: every public member a hook
    (``builder.contract.hooks.check_hooks``: a misspelled one is a one-line error naming the
    nearest hook) and no two sharing a name."""
    names: set[str] = set()
    for puzzle in puzzles:
        check_hooks(type(puzzle))
        if puzzle.name in names:
            raise PuzzleInputError(f"two plug-ins are named {puzzle.name!r}: rename one")
        names.add(puzzle.name)
    return puzzles


FILES_ENTRY_POINT_GROUP = "puzzle_tablebase.puzzle_files"
"""Where a package offers to make puzzles from files (``SUFFIX = "module:function"``, the
function taking a file's text and a name for messages and returning a puzzle, or raising
a one-line error): the built-in permutation puzzles take ``toml``."""

DEFINED_FOLDER = "defined"
"""The folder of a data directory holding its puzzle files (`builder define`)."""

NAME_OF_FILE = re.compile(r"[a-z][a-z0-9-]{0,39}")
"""A puzzle file's name (and its puzzle's): lower-case letters, digits and '-'."""


def file_makers() -> dict[str, object]:
    """The function that makes a puzzle from a file, by file suffix."""
    from importlib.metadata import entry_points

    makers = {}
    for entry in sorted(entry_points(group=FILES_ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            makers[entry.name] = entry.load()
        except Exception as error:  # noqa: BLE001 (a third party's import, one line)
            print(f"warning: puzzle files *.{entry.name} ({entry.value}) cannot be loaded: "
                  f"{type(error).__name__}: {str(error)[:200]}", file=sys.stderr)
    return makers


def puzzle_from_file(path, makers: dict | None = None) -> Puzzle:
    """The puzzle a puzzle file defines, checked against the contract; a one-line error
    (``PuzzleInputError``) naming the file and its first problem otherwise."""
    from pathlib import Path

    path = Path(path)
    makers = file_makers() if makers is None else makers
    suffix = path.suffix.lstrip(".")
    if suffix not in makers:
        raise PuzzleInputError(f"{path.name}: puzzle files are "
                               f"{', '.join('*.' + s for s in makers) or 'not supported'}")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PuzzleInputError(f"{path.name}: cannot be read "
                               f"({getattr(error, 'strerror', None) or error})") from None
    try:
        puzzle = makers[suffix](text, path.name)
    except OneLineError:
        raise
    except Exception as error:  # noqa: BLE001 (a third party's maker, one line)
        raise PuzzleInputError(f"{path.name}: {type(error).__name__}: "
                               f"{str(error)[:200]}") from None
    if not isinstance(puzzle, Puzzle):
        raise PuzzleInputError(f"{path.name}: its maker gave no puzzle")
    check_hooks(type(puzzle))
    return puzzle


def defined_in(directory, installed: tuple[Puzzle, ...], warn=None) -> tuple[Puzzle, ...]:
    """The puzzles the files kept in a data directory define (``DEFINED_FOLDER``), by
    name; a file that no longer defines a puzzle, or whose name an installed puzzle took
    since, is left out with a one-line warning."""
    from pathlib import Path

    folder = Path(directory) / DEFINED_FOLDER
    try:
        files = sorted(folder.iterdir()) if folder.is_dir() else []
    except OSError:
        files = []
    if not files:
        return ()
    if warn is None:
        def warn(message: str) -> None:
            print(f"warning: {message}", file=sys.stderr, flush=True)
    makers = file_makers()
    taken = {puzzle.name for puzzle in installed}
    found = []
    for path in files:
        if path.name.startswith(".") or path.suffix.lstrip(".") not in makers:
            continue
        try:
            puzzle = puzzle_from_file(path, makers)
        except OneLineError as error:
            warn(f"puzzle file {error}; it is left out")
            continue
        if puzzle.name in taken or path.stem != puzzle.name:
            warn(f"puzzle file {path.name} defines {puzzle.name!r}, "
                 + ("a name another puzzle has" if puzzle.name in taken
                    else "not its file's name") + "; it is left out")
            continue
        taken.add(puzzle.name)
        found.append(puzzle)
    return tuple(found)


class _ListedEntry:
    """An entry point as the cache (``cached_entry_points``) keeps it: what the registry
    reads of one (name, value, package) and ``load`` as ``importlib.metadata``'s."""

    def __init__(self, group: str, name: str, value: str, package: str | None):
        self.group, self.name, self.value = group, name, value
        self.dist = None if package is None else _Package(package)

    def load(self):
        import importlib

        match = _ENTRY_VALUE.match(self.value)
        loaded = importlib.import_module(match.group("module"))
        for attribute in filter(None, (match.group("attr") or "").split(".")):
            loaded = getattr(loaded, attribute)
        return loaded


class _Package:
    def __init__(self, name: str):
        self.name = name


_ENTRY_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?"
                          r"((?P<extras>\[.*\])\s*)?$")
"""An entry point's value, as ``importlib.metadata.EntryPoint.pattern`` reads it."""

ENTRY_POINTS_CACHE_VARIABLE = "TABLEBASE_ENTRY_POINTS_CACHE"
"""Names the file that keeps the plug-ins' entry points between processes (default: one
per Python environment under $XDG_CACHE_HOME, else ~/.cache); empty: no cache."""


def _cache_file():
    import os
    import zlib
    from pathlib import Path

    named = os.environ.get(ENTRY_POINTS_CACHE_VARIABLE)
    if named is not None:
        return Path(named) if named else None
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    environment = format(zlib.crc32(sys.prefix.encode()), "08x")
    return Path(home) / "puzzle-tablebase" / f"entry-points-{environment}.json"


def _installed_stamp() -> list:
    """What ``importlib.metadata`` reads to list entry points, as names, times and sizes:
    the packages' metadata folders in every folder on ``sys.path`` (one installed or
    removed changes the list) with their ``entry_points.txt`` (one rewritten in place
    changes its time), and every other entry of ``sys.path`` (a zip file) as a whole."""
    import os

    stamp: list = []
    for entry in sys.path:
        where = os.path.abspath(entry or ".")
        try:
            with os.scandir(where) as children:
                names = sorted(child.name for child in children
                               if child.name.endswith((".dist-info", ".egg-info", ".egg")))
        except NotADirectoryError:
            try:
                found = os.stat(where)
                stamp.append([where, found.st_mtime_ns, found.st_size])
            except OSError:
                stamp.append([where])
            continue
        except OSError:
            stamp.append([where])
            continue
        packages = []
        for name in names:
            listing = os.path.join(where, name, *(("EGG-INFO",) if name.endswith(".egg")
                                                  else ()), "entry_points.txt")
            try:
                listed = os.stat(listing)
                packages.append([name, listed.st_mtime_ns, listed.st_size])
            except OSError:
                packages.append([name])
        stamp.append([where, packages])
    return [sys.prefix, sys.version, stamp]


def _other_path(listing, stamp: list) -> bool:
    """Whether a cached listing is another ``sys.path``'s, to keep beside this one's (an
    older listing of this path is stale; a damaged one is dropped)."""
    try:
        return [entry[0] for entry in listing["stamp"][-1]] != [entry[0] for entry in stamp[-1]]
    except (LookupError, TypeError):
        return False


CACHED_STAMPS = 8
"""Listings a cache file keeps, the latest first: one per ``sys.path`` a command starts
with (a console script's, ``python -c``'s in each folder...)."""


def cached_entry_points(group: str) -> list:
    """``group``'s entry points as ``importlib.metadata`` lists them, from a cache file
    while nothing it read has changed (``_installed_stamp``): importing
    ``importlib.metadata`` and scanning every installed package is a large part of a
    short command's start.  A cache that cannot be read or written is ignored."""
    import json

    cache = _cache_file()
    stamp = _installed_stamp()
    kept: list = []
    if cache is not None:
        try:
            kept = json.loads(cache.read_text(encoding="utf-8"))
            for listing in kept:
                if listing["stamp"] == stamp and group in listing["groups"]:
                    return [_ListedEntry(group, *entry) for entry in listing["groups"][group]]
        except (OSError, ValueError, KeyError, TypeError):
            kept = []
    from importlib.metadata import entry_points

    groups = {name: [[entry.name, entry.value,
                      getattr(getattr(entry, "dist", None), "name", None)]
                     for entry in entry_points(group=name)]
              for name in (ENTRY_POINT_GROUP, FILES_ENTRY_POINT_GROUP, group)}
    if cache is not None:
        import os

        try:
            others = [listing for listing in kept if _other_path(listing, stamp)]
            cache.parent.mkdir(parents=True, exist_ok=True)
            written = cache.with_name(f"{cache.name}.{os.getpid()}")
            written.write_text(json.dumps([{"stamp": stamp, "groups": groups},
                                           *others[:CACHED_STAMPS - 1]]), encoding="utf-8")
            os.replace(written, cache)
        except (OSError, ValueError, KeyError, TypeError):
            pass
    return [_ListedEntry(group, *entry) for entry in groups[group]]


INSTALLED: tuple[Puzzle, ...] = load_plugins(listed=cached_entry_points(ENTRY_POINT_GROUP))
"""Every installed plug-in that loads, by name."""

_defined_from: tuple = ()
"""The data directory (and its puzzle files' times) that ``PUZZLES`` was read from."""


def use_data(directory) -> tuple[Puzzle, ...]:
    """``PUZZLES`` for a data directory: the installed plug-ins and the puzzles its files
    define (read again only when its files changed)."""
    global PUZZLES, _defined_from
    from pathlib import Path

    folder = Path(directory) / DEFINED_FOLDER
    try:
        stamp = (str(Path(directory).resolve()),
                 tuple((p.name, p.stat().st_mtime_ns) for p in sorted(folder.iterdir()))
                 if folder.is_dir() else ())
    except OSError:
        stamp = (str(directory), ())
    if stamp != _defined_from:
        PUZZLES = INSTALLED + defined_in(directory, INSTALLED)
        _defined_from = stamp
    return PUZZLES


PUZZLES: tuple[Puzzle, ...] = INSTALLED
"""Every puzzle known: the installed plug-ins, then the puzzles defined by the files of
the data directory in use (``use_data``)."""


def _startup_data():
    from builder.command_line import default_data

    return default_data()


use_data(_startup_data())


def by_name(name: str) -> Puzzle:
    for puzzle in PUZZLES:
        if puzzle.name == name:
            return puzzle
    raise PuzzleInputError(f"no puzzle {shown(name)}: choose one of "
                           f"{', '.join(p.name for p in PUZZLES)}")


_FAULTY_RECOGNISERS: set[str] = set()
"""The puzzles whose ``recognises`` has raised in this process (each warned of once)."""


def recognising(text: str) -> list[Puzzle]:
    """The puzzles whose notation ``text`` is.  A plug-in whose ``recognises`` raises
    claims nothing (one warning line naming it, once): every other puzzle is found as
    without it, and ``NAME:STATE`` still names it."""
    return [puzzle for puzzle in PUZZLES if _claims(puzzle, text)]


def _claims(puzzle: Puzzle, text: str) -> bool:
    try:
        return bool(puzzle.recognises(text))
    except Exception as error:  # noqa: BLE001 (a third party's fault must not spread)
        if puzzle.name not in _FAULTY_RECOGNISERS:
            _FAULTY_RECOGNISERS.add(puzzle.name)
            print(f"warning: plug-in {puzzle.name} ({type(puzzle).__module__}): its "
                  f"recognises raised {type(error).__name__}: {str(error)[:200]}; it claims "
                  f"no text (write {puzzle.name}:STATE)", file=sys.stderr, flush=True)
        return False


def named_prefix(text: str) -> tuple[Puzzle | None, str]:
    """``NAME:STATE`` split into the puzzle named and the state's own notation (the form
    that cannot clash); (None, text) for a text without a registered name before a
    colon."""
    name, colon, rest = text.partition(":")
    if colon:
        for puzzle in PUZZLES:
            if puzzle.name == name.strip().lower():
                return puzzle, rest
    return None, text


def resolve(text: str, forced: str | None = None) -> tuple[Puzzle, str]:
    """The plug-in whose notation ``text`` is, and the text in that notation: named by a
    ``NAME:`` prefix, by ``forced`` (`--puzzle`), else the one puzzle that recognises it;
    a one-line error when none or several do, or when the prefix and ``forced``
    disagree."""
    named, rest = named_prefix(text)
    if named is not None:
        if forced is not None and by_name(forced) is not named:
            raise PuzzleInputError(f"{shown(text)} is written as {named.name} notation, but "
                                   f"--puzzle says {forced}: give one of them")
        return named, rest
    if forced is not None:
        return by_name(forced), text
    found = recognising(text)
    if len(found) == 1:
        return found[0], text
    if not found:
        examples = "; ".join(f"{p.name}: {Describing.of(p).example[0]}" for p in PUZZLES
                             if Describing.of(p).example[1])
        raise PuzzleInputError(f"{shown(text)} is no puzzle's notation ({examples})")
    names = [p.name for p in found]
    state = text.strip() if len(text.strip()) <= 20 else "STATE"
    raise PuzzleInputError(
        f"{shown(text)} is the notation of {', '.join(names[:-1])} and {names[-1]}: write "
        f"NAME:STATE to say which ({' or '.join(f'{name}:{state}' for name in names)}), "
        "or give --puzzle NAME")


def choose(text: str, forced: str | None = None) -> Puzzle:
    """The plug-in whose notation ``text`` is (``resolve`` without the text)."""
    return resolve(text, forced)[0]


def in_notation(puzzle: Puzzle, text: str) -> str:
    """``text`` in ``puzzle``'s own notation: a ``NAME:`` prefix naming it is dropped, one
    naming another puzzle is an error."""
    named, rest = named_prefix(text)
    if named is None:
        return text
    if named is not puzzle:
        raise PuzzleInputError(f"{shown(text)} is {named.name} notation, not {puzzle.name}")
    return rest


def check_options(puzzle: Puzzle, options: dict) -> dict:
    """``options`` if the puzzle takes every one that was given; a one-line error naming
    the puzzles that do take it otherwise."""
    for option, value in options.items():
        if value is not None and option not in option_names(puzzle):
            takers = [p.name for p in PUZZLES if option in option_names(p)]
            raise PuzzleInputError(f"--{option} does not apply to {puzzle.name} positions "
                                   f"(it is for {', '.join(takers) or 'no puzzle'}): leave "
                                   "it out")
    return options


def option_names(puzzle: Puzzle) -> tuple[str, ...]:
    return tuple(option.name for option in Describing.of(puzzle).options)


def all_options() -> dict[str, list[tuple[Puzzle, PuzzleOption]]]:
    """Every option any registered puzzle declares, by name, with the puzzles that take
    it (two puzzles may share a name: two may both take ``variant``)."""
    found: dict[str, list[tuple[Puzzle, PuzzleOption]]] = {}
    for puzzle in PUZZLES:
        for option in Describing.of(puzzle).options:
            found.setdefault(option.name, []).append((puzzle, option))
    return found
