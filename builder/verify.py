"""`builder verify`: re-check every chunk's checksum, then re-derive the entries
independently of the kernels that built them: every breadth-first array and every sparse
table of a spec against its shortest-path recurrence (an entry is 1 + the best of its
moves' entries) at every entry (``builder.kernels.recurrence``), then the plug-in's own
check at a random sample.  Names no puzzle.

Which checks run is decided by where a table is, never by what it says about itself: its
folder names the plug-in and the spec that plug-in declares there (`query` reads a table
by its folder), a table whose attributes describe another table is refused, and every
table a spec describes is re-derived from that spec.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from builder import store
from builder.contract.puzzle import Building, Verifying


@dataclass
class Verdict:
    table: Path
    ok: bool
    detail: str


def check_chunks(table: Path) -> list[str]:
    """Chunk files whose bytes no longer match the recorded checksum (or are missing)."""
    return store.damaged_chunks(table)


REBUILD = "rebuild it (`make tables FORCE=1`)"


def _as_stored(value):
    """A value as a table's attributes hold it (JSON: a tuple is a list)."""
    return json.loads(json.dumps(value, default=str))


def table_spec(table: Path, attributes: dict, data_dir: Path | None = None
               ) -> tuple[object, object, str | None]:
    """(plug-in, spec, what is wrong or None) of a stored table, decided by its place:
    the plug-in its top folder names, and the spec its attributes describe, which must
    lie at its path (a path may hold a table of other parameters: a smaller build), else
    the one the plug-in declares there (``default_tables``); its attributes must hold
    that spec's identity.  Spec None: no spec describes it and none is declared there
    (a table gathered from records).  Without ``data_dir`` (a table checked alone, its
    place unknown): the spec its attributes describe."""
    from builder import registry
    from builder.contract.errors import PuzzleInputError

    place = None
    if data_dir is not None:
        relative = Path(table).relative_to(data_dir)
        place = (*relative.parts[:-1], relative.name.removesuffix(".zarr"))
    name = place[0] if place else attributes.get("puzzle")
    try:
        puzzle = registry.by_name(str(name))
    except PuzzleInputError:
        return None, None, (f"no installed plug-in is named {str(name)[:40]!r}, so nothing "
                            "can check it: remove it or install its plug-in")
    if attributes.get("puzzle") != puzzle.name:
        return puzzle, None, (f"its attributes name puzzle {attributes.get('puzzle')!r}, its "
                              f"folder {puzzle.name!r} (a table moved or forged): {REBUILD}")
    try:  # the stored attributes hold the identity the table was built from
        spec = Building.of(puzzle).table(attributes)
    except (PuzzleInputError, KeyError, TypeError, ValueError):
        spec = None  # garbled, or a table no spec describes alone
    if place and spec is not None and tuple(spec.parts) != place:
        return puzzle, None, (f"its attributes describe the table of folder "
                              f"{'/'.join(spec.parts)}.zarr, not of the folder it is in "
                              f"(a table moved or forged; `query` reads a table by its "
                              f"folder): {REBUILD}")
    if spec is None and place:
        spec = next((declared for declared in Building.of(puzzle).default_tables()
                     if tuple(declared.parts) == place), None)
    for key, value in (spec.identity.items() if spec is not None else ()):
        if attributes.get(key) != _as_stored(value):
            return puzzle, None, (f"its attributes hold {key}={str(attributes.get(key))[:60]}, "
                                  f"the table its folder names {str(_as_stored(value))[:60]} "
                                  f"(a table moved or forged): {REBUILD}")
    return puzzle, spec, None


def sample_spec_table(table: Path, attributes: dict, samples: int, rng, puzzle, spec,
                      data_dir: Path | None = None) -> tuple[str | None, str]:
    """A table checked against ``spec`` (``table_spec``): each of its breadth-first
    arrays (or its sparse search) obeys, at every state, "0 exactly at a source; otherwise
    1 + the least value one move on"; where the plug-in searches on pattern databases,
    their estimates never exceed the table's distances at ``samples`` sampled positions;
    then the plug-in's own sample check.  (What is wrong or None, what was checked.)"""
    import zarr

    group = zarr.open_group(table, mode="r")
    checked = ""
    if spec is not None:
        for name, shape in _declared_shapes(spec).items():
            stored = tuple(group[name].shape) if name in group else None
            if stored != shape:
                return (f"{name} has shape {list(stored) if stored else 'none'}, the table's "
                        f"spec declares {list(shape)}: rebuild it (`make tables FORCE=1`)"), ""
        checked += "; shapes as declared"
    if attributes.get("ascending"):
        problem = _check_ascending(group, attributes["ascending"])
        checked += "; " + ", ".join(attributes["ascending"]) + " ascending and indexed"
        if problem:
            return problem, checked
    if spec is not None and spec.sparse is not None:
        started = time.perf_counter()
        problem = _check_sparse(spec, group)
        checked += (f"; keys ascending and indexed; recurrence holds at every one of "
                    f"{group['distance'].shape[0]:,} positions, 0 exactly at the targets "
                    f"({time.perf_counter() - started:.1f} s)")
        if problem:
            return problem, checked
    if spec is not None and spec.searches:
        started = time.perf_counter()
        problem = _check_searches(spec, group)
        states = sum(search.states for search in spec.searches.values() if search.folded == 1)
        folded = [name for name, search in spec.searches.items() if search.folded > 1]
        checked += ((f"; recurrence holds at every one of {states:,} states" if states else "")
                    + "".join(f"; {name} equal to its search run again" for name in folded)
                    + f" ({time.perf_counter() - started:.1f} s)")
        checked += "".join(f"; {name} the least of every {fold.width} of {fold.source}"
                           for name, fold in spec.folds.items())
        if problem:
            return problem, checked
    if spec is not None and (spec.sparse is not None or spec.searches):
        from builder.patterns import check_estimates
        from builder.reader import Tables

        problem, what = check_estimates(puzzle,
                                        Tables(data_dir or table.parents[len(spec.parts) - 1]),
                                        attributes, lambda array: group[array][...],
                                        samples, rng)
        checked += what
        if problem:
            return problem, checked
    own = Verifying.of(puzzle).verify_checks(attributes)
    if own:
        checked += f"; {own}: holds on {samples} sampled entries"
    return Verifying.of(puzzle).verify_sample(attributes, lambda array: group[array][...], samples,
                                rng), checked


def _declared_shapes(spec) -> dict[str, tuple[int, ...]]:
    """The shape a spec fixes for each of its arrays (its searches' and chunk tasks')."""
    shapes = {name: (search.states // search.folded,) for name, search in spec.searches.items()}
    shapes.update({name: (spec.searches[fold.source].states // fold.width,)
                   for name, fold in spec.folds.items()})
    if spec.tasks is not None:
        shapes.update({name: tuple(spec.tasks.shape) for name in spec.tasks.arrays})
    return shapes


def _check_ascending(group, names: list[str]) -> str | None:
    """Each array an own table declares ascending strictly is, and its index is the first
    key of every chunk of it (``Table.ascending``)."""
    from builder.contract.puzzle import INDEX_SUFFIX

    for name in names:
        keys = group[name][...]
        if keys.size > 1 and not (keys[1:] > keys[:-1]).all():
            return f"{name} is not strictly ascending"
        index = group[f"{name}{INDEX_SUFFIX}"][...]
        if not np.array_equal(index, keys[::group[name].chunks[0]]):
            return f"{name}{INDEX_SUFFIX} is not the first key of every chunk of {name}"
    return None


def _check_sparse(spec, group) -> str | None:
    """A sparse table: keys strictly ascending, its index the first key of every chunk,
    0 exactly at the targets its search picks, and at every position "1 + the least
    distance one move on" (a position the table lacks is never, where the table holds
    what reaches the targets; where it holds what its starts reach, it is damage)."""
    from builder.contract.keys import ints_of, key_dtype, keys_of, sortable
    from builder.kernels.recurrence import UNHELD
    from builder.sparse import distinct, sparse_chunk, targets_in

    search = spec.sparse
    keys, distance = sortable(group["keys"][...]), group["distance"][...]
    if len(keys) != len(distance):
        return f"keys hold {len(keys)} entries, distance {len(distance)}"
    if keys.dtype != key_dtype(search.key_words):
        return f"keys are not of {search.key_words} word(s)"
    if not np.array_equal(distinct(keys), keys):
        return "keys are not strictly ascending"
    if not np.array_equal(sortable(group["key_index"][...]), keys[::sparse_chunk(spec)]):
        return "key_index is not the first key of every chunk of keys"
    never = int(np.iinfo(distance.dtype).max)  # bytes or 16 bits, as the search stored them
    # without starts the table holds what reaches the given targets: they are its roots
    targets = (targets_in(search, keys) if search.starts
               else distinct(keys_of(search.targets, search.key_words)))
    zeros = keys[distance == 0]
    if not np.array_equal(zeros, targets):
        wrong = np.setxor1d(zeros, targets)[:1]
        return (f"key {ints_of(wrong)[0]} holds "
                f"{int(distance[np.searchsorted(keys, wrong)[0]])}, but 0 is exactly the "
                "targets")
    index, expected = _first_broken_sparse(search, keys, distance, never)
    if index < 0:
        return None
    key = ints_of(keys[index:index + 1])[0]
    if expected == UNHELD:
        return f"key {key}: a move leads to a key the table does not hold"
    return f"key {key} holds {int(distance[index])}, the recurrence gives {expected}"


def _first_broken_sparse(search, keys: np.ndarray, distance: np.ndarray, never: int
                         ) -> tuple[int, int]:
    """The first entry of a sparse table that breaks the recurrence and the value it
    should hold, or (-1, 0): by the plug-in's numba moves, or its plain-Python ones."""
    from builder.contract.keys import words_of
    from builder.kernels import recurrence

    is_target = np.ascontiguousarray(distance == 0)
    wide_distance = np.ascontiguousarray(distance, dtype=np.uint16)
    closed = bool(search.starts)
    if search.plain:
        return _first_broken_plain(search, keys, wide_distance, is_target, never)
    from builder.contract.specs import kernel as moves_kernel

    parameters = np.ascontiguousarray(search.parameters, dtype=np.int64)
    kernel, stored = ((recurrence.first_broken_sparse_wide, words_of(keys))
                      if search.key_words == 2 else (recurrence.first_broken_sparse, keys))
    return recurrence.in_parts(kernel, (moves_kernel(search.successors), parameters,
                                        np.ascontiguousarray(stored), wide_distance,
                                        is_target, np.int64(never),
                                        np.int64(search.most_moves), closed), len(keys))


def _first_broken_plain(search, keys: np.ndarray, distance: np.ndarray,
                        is_target: np.ndarray, never: int) -> tuple[int, int]:
    """``_first_broken_sparse`` for plain-Python moves (a plug-in's start, small tables)."""
    from builder.contract.keys import ints_of, keys_of
    from builder.kernels.recurrence import UNHELD

    for index, key in enumerate(ints_of(keys)):
        if is_target[index]:
            expected = 0
        else:
            after = keys_of(list(search.successors(key)), search.key_words)
            where = np.minimum(np.searchsorted(keys, after), len(keys) - 1)
            held = keys[where] == after
            if search.starts and not held.all():
                return index, UNHELD
            values = distance[where[held]]
            values = values[values != never]
            expected = int(values.min()) + 1 if len(values) else never
        if int(distance[index]) != expected:
            return index, expected
    return -1, 0


def _check_searches(spec, group) -> str | None:
    """Every breadth-first array of a spec: 0 exactly at its sources, and at every state
    "1 + the least value one move on" (never where no move reaches a source)."""
    from builder.contract.specs import kernel as moves_kernel
    from builder.kernels.recurrence import first_broken_dense, in_parts

    for name, search in spec.searches.items():
        if search.folded > 1:
            problem = _check_folded(name, search, group)
            if problem:
                return problem
            continue
        stored = group[name][...]
        distance = np.ascontiguousarray(stored, dtype=np.uint16)
        sources = {int(source) for source in search.sources}
        never = int(np.iinfo(stored.dtype).max)  # a search the engine widens keeps 16 bits
        # 0 exactly at the sources, checked whole: a forgery that shifts every entry keeps
        # the recurrence at every other state
        zeros = np.flatnonzero(distance == 0)
        if zeros.tolist() != sorted(sources):
            wrong = min(set(zeros.tolist()) ^ sources)
            return (f"{name}: state {wrong} holds {int(distance[wrong])}, but 0 is exactly "
                    "the search's sources")
        state, expected = in_parts(first_broken_dense, (
            moves_kernel(search.moves or search.neighbours),
            np.ascontiguousarray(search.parameters, dtype=np.int64), distance,
            np.ascontiguousarray(distance == 0), np.int64(never),
            np.int64(search.most_neighbours)), len(distance))
        if state >= 0:
            return (f"{name}: state {state} holds {int(distance[state])}, the recurrence "
                    f"gives {expected}")
    return _check_folds(spec, group)


def _check_folded(name: str, search, group) -> str | None:
    """A folded search's array (``BreadthFirstSearch.folded``) equal, entry for entry, to
    the same search run again: no recurrence holds between the least values of runs."""
    from builder.compute import search_array

    stored = group[name][...]
    expected = search_array(name, search)[1]
    if not np.array_equal(stored, expected):
        entry = int(np.flatnonzero(stored != expected)[0])
        return (f"{name}: entry {entry} holds {int(stored[entry])}, the search run again "
                f"gives {int(expected[entry])}")
    return None


def _check_folds(spec, group) -> str | None:
    """Every folded array: at every entry, the least of its run of the searched array
    (which the recurrence has just checked)."""
    from builder.compute import least_of_runs

    for name, fold in spec.folds.items():
        stored = group[name][...]
        expected = least_of_runs(group[fold.source][...], fold.width)
        if not np.array_equal(stored, expected):
            entry = int(np.flatnonzero(stored != expected)[0])
            return (f"{name}: entry {entry} holds {int(stored[entry])}, the least of its "
                    f"{fold.width} entries of {fold.source} is {int(expected[entry])}")
    return None


def verify_table(table: Path, samples: int, rng, data_dir: Path | None = None) -> Verdict:
    """One table's verdict: complete, of this format, intact, the table its place in
    ``data_dir`` names (``table_spec``), and re-derived from its spec (its distance
    histograms are compared with the catalog's by ``verify_catalog``)."""
    attributes = store.read_attributes(table)
    if attributes is None:
        return Verdict(table, False, "zarr.json is missing or unreadable: rebuild it "
                                     "(`make tables FORCE=1`)")
    if not attributes.get("complete"):
        return Verdict(table, False, "incomplete table")
    if attributes.get("table_format") != store.TABLE_FORMAT:
        return Verdict(table, False, f"table format {attributes.get('table_format')!r}, this "
                                     f"builder writes {store.TABLE_FORMAT}: rebuild it "
                                     "(`make tables FORCE=1`)")
    if not (table / store.CHECKSUMS).exists():
        return Verdict(table, False, "no checksum record: rebuild it (`make tables FORCE=1`)")
    broken = check_chunks(table)
    if broken:
        return Verdict(table, False, f"corrupted chunks: {', '.join(broken[:5])}")
    checked = "checksums ok"
    puzzle, spec, problem = table_spec(table, attributes, data_dir)
    if problem is None and (spec is not None
                            or Verifying.of(puzzle).verify_checks(attributes)):
        problem, what = sample_spec_table(table, attributes, samples * 100, rng, puzzle, spec,
                                          data_dir)
        checked += what
    return Verdict(table, problem is None, problem or checked)


def verify_catalog(data_dir: Path, tables_ok: bool = True) -> tuple[Verdict, list[str]]:
    """The catalog opens, is current for the tables it was made from, every one of its
    views answers, and (while every table is intact) each of its rows equals those of a
    catalog made afresh from the tables.  Also: the tables whose distance histograms in
    the catalog differ from the fresh one's (their arrays or their rows were altered)."""
    import duckdb

    from builder.catalog import catalog_is_current, catalog_path

    path = catalog_path(data_dir)
    if not path.is_file():
        return Verdict(path, False, "missing: rebuild it (`builder catalog`)"), []
    try:
        with duckdb.connect(str(path), read_only=True,
                            config=dict(store.SEALED_CATALOG)) as con:
            views = [name for (name,) in con.execute(
                "SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()]
            for view in views:
                con.execute(f'SELECT count(*) FROM "{view}"').fetchone()
    except duckdb.Error as error:
        message = (str(error).splitlines() or [type(error).__name__])[0][:200]
        return Verdict(path, False, f"unreadable ({message}): rebuild it "
                                    "(`builder catalog --force`)"), []
    if not catalog_is_current(data_dir):
        return Verdict(path, False, "stale (the tables changed since it was made): rebuild "
                                    "it (`builder catalog`)"), []
    if not tables_ok:
        return Verdict(path, True, f"current; all {len(views)} views answer; its rows are "
                                   "not compared with the tables while any is damaged"), []
    differing, sources = _differs_from_a_fresh_catalog(data_dir)
    if differing:
        return Verdict(path, False, f"{', '.join(differing[:3])} differ from the rows the "
                                    "tables give (the catalog or a table was altered): "
                                    "rebuild it (`builder catalog --force`)"), sources
    return Verdict(path, True, f"current; all {len(views)} views answer; every row equals "
                               "a catalog made afresh from the tables"), []


def _differs_from_a_fresh_catalog(data_dir: Path) -> tuple[list[str], list[str]]:
    """The catalog's tables and views that differ from those of a catalog made afresh from
    the tables (in a temporary directory: each table compared by its row count and the
    sum of its rows' hashes, each view by its SQL), and the sources whose
    ``table_distances`` rows differ."""
    import tempfile

    from builder import catalog

    with tempfile.TemporaryDirectory(prefix="verify-catalog-") as scratch:
        fresh = Path(scratch) / catalog.CATALOG_NAME
        catalog.write_fresh_catalog(data_dir, fresh)
        expected, expected_histograms = _fingerprints(fresh)
    found, found_histograms = _fingerprints(catalog.catalog_path(data_dir))
    differing = sorted(name for name in expected.keys() | found.keys()
                       if expected.get(name) != found.get(name))
    sources = sorted(source for source in expected_histograms.keys() | found_histograms.keys()
                     if expected_histograms.get(source) != found_histograms.get(source))
    return differing, sources


def _fingerprints(path: Path) -> tuple[dict[str, tuple], dict[str, set]]:
    """Per table: (rows, sum of row hashes); per view: its SQL.  And per source, its
    ``table_distances`` rows."""
    import duckdb

    with duckdb.connect(str(path), read_only=True, config=dict(store.SEALED_CATALOG)) as con:
        tables = [name for (name,) in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE NOT internal").fetchall()]
        found = {name: con.execute(f'SELECT count(*), sum(hash(t)::HUGEINT) FROM "{name}" AS t'
                                   ).fetchone() for name in tables}
        found.update({name: (sql,) for name, sql in con.execute(
            "SELECT view_name, sql FROM duckdb_views() WHERE NOT internal").fetchall()})
        histograms: dict[str, set] = {}
        for source, *row in con.execute('SELECT source, variant, "table", distance, states '
                                        "FROM table_distances").fetchall():
            histograms.setdefault(source, set()).add(tuple(row))
    return found, histograms


def verify(data_dir: Path, samples: int = 3, seed: int = 0, puzzle: str | None = None
           ) -> list[Verdict]:
    """A verdict per table found (and per table the catalog was made from that is gone),
    then the catalog's; with ``puzzle``, its tables alone (and the catalog)."""
    rng = np.random.default_rng(seed)
    verdicts = []
    from builder.catalog import table_directories

    tables = table_directories(Path(data_dir))  # symlinked folders too, as the catalog
    if puzzle is not None:  # by folder, as `query` finds a puzzle's tables
        tables = [table for table in tables
                  if table.relative_to(data_dir).parts[0] == puzzle]
    if not tables:
        return []
    for table in tables:
        try:
            verdicts.append(verify_table(table, samples, rng, Path(data_dir)))
        except Exception as error:  # noqa: BLE001 (a damaged table is a FAIL line, not a crash)
            verdicts.append(Verdict(table, False, f"unreadable ({type(error).__name__}: "
                                                  f"{str(error)[:150]}): rebuild it"))
    present = {table.relative_to(data_dir).as_posix() for table in tables}
    for source in catalogued_tables(data_dir):
        if source not in present and (puzzle is None or source.split("/")[0] == puzzle):
            verdicts.append(Verdict(Path(data_dir) / source, False,
                                    "missing: the catalog was made from it; rebuild it "
                                    "(`make tables`)"))
    catalog_verdict, altered = verify_catalog(data_dir, all(v.ok for v in verdicts))
    for source in altered:
        table = Path(data_dir) / source
        verdicts = [Verdict(table, False, "its distance histogram differs from the catalog's "
                                          "rows for it (a table or the catalog was altered): "
                                          "rebuild it, then the catalog (`builder catalog "
                                          "--force`)") if v.table == table else v
                    for v in verdicts]
    return [*verdicts, catalog_verdict]


def catalogued_tables(data_dir: Path) -> list[str]:
    """The path under the data directory of every table the catalog was made from
    (``catalog_sources``)."""
    import duckdb

    from builder.catalog import catalog_path

    try:
        with duckdb.connect(str(catalog_path(data_dir)), read_only=True,
                            config=dict(store.SEALED_CATALOG)) as con:
            sources = con.execute("SELECT source FROM catalog_sources").fetchall()
    except duckdb.Error:
        return []  # verify_catalog reports the catalog itself
    return [source for (source,) in sources]
