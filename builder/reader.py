"""Opening built tables for reading, with one clear error per problem a user can fix.

The query path must start fast, so this module reads our zarr v3 arrays directly
(``zarr.json`` metadata plus zstd-compressed chunk files, the only codecs the
builder writes) instead of importing zarr, which alone costs several times a
numpy import.  ``tests/test_store.py`` checks this reader against zarr itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import zlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import numpy as np

from builder.contract.errors import (  # noqa: F401  (re-exported: the engine's errors)
    CorruptTableError,
    MissingTableError,
    QueryError,
    StaleTableError,
)
from builder.contract.keys import WIDE, sortable, words_in

TABLE_FORMAT = 3
"""Must equal builder.store.TABLE_FORMAT (a test keeps them together)."""


CHUNK_CACHE_BYTES = 64 * 2**20
"""Decompressed chunks kept per array: a long-lived process (a server) holds a whole
4×2 table after warming up, and a path query then reads no file at all."""


def _read_json(path: Path) -> tuple[dict, bytes]:
    """A table's metadata, parsed, and its bytes (for ``_check_metadata``); a missing,
    unreadable or garbled file is a one-line error."""
    try:
        raw = Path(path).read_bytes()
        found = json.loads(raw.decode())
    except FileNotFoundError:
        raise CorruptTableError(f"{path} is missing: rebuild the table "
                                "(`make tables FORCE=1`)") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        reason = getattr(error, "strerror", None) or type(error).__name__
        raise CorruptTableError(f"{path} is unreadable ({reason}): rebuild the table "
                                "(`make tables FORCE=1`)") from None
    if not isinstance(found, dict):
        raise CorruptTableError(f"{path} is not a JSON object: rebuild the table "
                                "(`make tables FORCE=1`)")
    return found, raw


READABLE_TYPES = {"uint8": np.dtype("<u1"), "uint16": np.dtype("<u2"),
                  "int32": np.dtype("<i4"), "int64": np.dtype("<i8"),
                  "uint64": np.dtype("<u8")}  # uint64: the words of two-word keys


def _check_metadata(path: Path, raw: bytes, table: Path) -> None:
    """``path`` (a group's or an array's ``zarr.json``) as the builder recorded it: a
    metadata file is recorded like a chunk (shape, type, fill value, chunk grid and key
    separator decide what every chunk means)."""
    key = path.relative_to(table).as_posix()
    _check_recorded(str(path), raw, _table_checksums(table / "checksums.json").get(key))


def _check_recorded(what: str, raw: bytes, expected: int | None) -> None:
    """A file's bytes against the checksum its table recorded for it (None: none)."""
    if expected is None:
        raise CorruptTableError(f"{what} is not in the table's checksum record: rebuild the "
                                "table (`make tables FORCE=1`)")
    if zlib.crc32(raw) != expected:
        raise CorruptTableError(f"{what} is corrupted (checksum mismatch): rebuild the table "
                                "(`make tables FORCE=1`)")


def _table_checksums(path: Path) -> dict[str, int]:
    """A table's recorded chunk checksums, parsed once per process for all its arrays (a
    republished table is a new file, so its inode and time name it).  Every table has
    them: a missing or unreadable record is an error, never a reason to stop checking."""
    try:
        stamp = path.stat()
    except OSError:
        raise CorruptTableError(f"{path} is missing: the table's chunks cannot be checked; "
                                "rebuild it (`make tables FORCE=1`)") from None
    return _parsed_checksums(str(path), stamp.st_ino, stamp.st_mtime_ns)


@lru_cache(maxsize=16)
def _parsed_checksums(path: str, inode: int, modified: int) -> dict[str, int]:
    try:
        recorded = json.loads(Path(path).read_text())["crc32"]
        if not all(isinstance(crc, int) for crc in recorded.values()):
            raise ValueError
        return recorded
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise CorruptTableError(f"{path} is unreadable: the table's chunks cannot be "
                                "checked; rebuild it (`make tables FORCE=1`)") from None


_per_thread = threading.local()


def _decompressor():
    """This thread's zstd decompressor: one ``ZstdDecompressor`` must never be used by two
    threads at once (a server sharing one crashed, or reported intact chunks damaged)."""
    found = getattr(_per_thread, "decompressor", None)
    if found is None:
        import zstandard

        found = _per_thread.decompressor = zstandard.ZstdDecompressor()
    return found


class ColumnChunkedArray:
    """A 2-D zarr v3 array (uint8 or little-endian int64) chunked along columns, read one
    chunk at a time."""

    def __init__(self, path: Path, vector: bool | None = False):
        """``vector``: a 1-D array read as one column; None: so if it is 1-D."""
        self.path = path
        metadata, raw = _read_json(path / "zarr.json")
        try:
            self._read_metadata(metadata, vector)
        except (KeyError, TypeError, IndexError, AttributeError, ValueError):
            raise CorruptTableError(f"{path / 'zarr.json'} is garbled: rebuild the table "
                                    "(`make tables FORCE=1`)") from None
        _check_metadata(path / "zarr.json", raw, path.parent)
        chunk_bytes = self.chunk_shape[0] * self.chunk_shape[1] * self.dtype.itemsize
        self._chunk = lru_cache(maxsize=max(4, CHUNK_CACHE_BYTES // chunk_bytes))(self._read_chunk)
        self._checksums: dict[str, int] | None = None

    def _read_metadata(self, metadata: dict, vector: bool) -> None:
        path = self.path
        codecs = [codec["name"] for codec in metadata["codecs"]]
        endian = metadata["codecs"][0].get("configuration", {}).get("endian", "little")
        if (metadata["data_type"] not in READABLE_TYPES or endian != "little"
                or codecs not in (["bytes", "zstd"], ["bytes"])):
            raise StaleTableError(
                f"{path} uses an encoding this query does not read ({metadata['data_type']}, "
                f"{codecs}); rebuild it with `make tables FORCE=1`"
            )
        self.shape = tuple(metadata["shape"])
        self.chunk_shape = tuple(metadata["chunk_grid"]["configuration"]["chunk_shape"])
        if vector is None:
            vector = len(self.shape) == 1
        if vector:  # a vector's chunk c/i is read as row chunk i of a one-column array
            if len(self.shape) != 1:
                raise StaleTableError(f"{path} is not a vector")
            self.shape, self.chunk_shape = self.shape + (1,), self.chunk_shape + (1,)
        self.vector = vector
        self.dtype = READABLE_TYPES[metadata["data_type"]]
        self.compressed = "zstd" in codecs
        self.separator = metadata["chunk_key_encoding"]["configuration"].get("separator", "/")
        if min(self.chunk_shape) < 1 or len(self.shape) != 2 or len(self.chunk_shape) != 2:
            raise ValueError("chunk shape")

    def _expected_crc32(self, key: str) -> int | None:
        """The checksum the builder recorded for a chunk (None: it recorded none)."""
        if self._checksums is None:
            self._checksums = _table_checksums(self.path.parent / "checksums.json")
        return self._checksums.get(f"{self.path.name}/{key}")

    def _read_chunk(self, row_chunk: int, column_chunk: int) -> np.ndarray:
        parts = ("c", str(row_chunk)) if self.vector else ("c", str(row_chunk), str(column_chunk))
        key = self.separator.join(parts)
        try:
            with open(f"{self.path}/{key}", "rb") as chunk_file:  # cheaper than pathlib
                raw = chunk_file.read()
        except FileNotFoundError:  # the builder writes every chunk of the grid
            raise CorruptTableError(f"chunk {self.path / key} is missing: rebuild the "
                                    "table (`make tables FORCE=1`)") from None
        _check_recorded(f"chunk {self.path / key}", raw, self._expected_crc32(key))
        if self.compressed:
            import zstandard

            try:
                raw = _decompressor().decompress(raw)
            except zstandard.ZstdError as error:
                raise CorruptTableError(f"chunk {self.path / key} is damaged: {error}") from None
        size = self.chunk_shape[0] * self.chunk_shape[1] * self.dtype.itemsize
        if len(raw) != size:
            raise CorruptTableError(f"chunk {self.path / key} has {len(raw)} bytes, not {size}")
        return np.frombuffer(raw, dtype=self.dtype).reshape(self.chunk_shape)

    def column(self, column: int) -> np.ndarray:
        if not 0 <= column < self.shape[1]:
            raise CorruptTableError(f"{self.path}: column {column} is outside the array's "
                                    f"{self.shape[1]:,}: rebuild the table "
                                    "(`make tables FORCE=1`)")
        if self.chunk_shape[0] < self.shape[0]:
            raise StaleTableError(f"{self.path} is not chunked by whole columns")
        if self.chunk_shape[0] != self.shape[0]:  # the builder makes them equal
            raise CorruptTableError(f"{self.path / 'zarr.json'} claims {self.shape[0]:,} rows "
                                    f"in chunks of {self.chunk_shape[0]:,}: rebuild the "
                                    "table (`make tables FORCE=1`)")
        chunk = self._chunk(0, column // self.chunk_shape[1])
        return chunk[: self.shape[0], column % self.chunk_shape[1]]


def read_whole(path: Path) -> np.ndarray | None:
    """A whole 1-D or 2-D array of a stored table, read chunk by chunk by this module
    (every chunk's checksum checked): much faster than zarr for arrays of many small
    chunks.  None for an array of another rank, type or encoding (read it with zarr)."""
    rank = len(_read_json(path / "zarr.json")[0].get("shape", ()))  # checked by the array
    if rank not in (1, 2):
        return None
    try:
        array = ColumnChunkedArray(path, vector=rank == 1)
    except StaleTableError:  # a type or encoding this module does not read
        return None
    (rows, columns), (chunk_rows, chunk_columns) = array.shape, array.chunk_shape
    whole = np.empty((rows, columns), dtype=array.dtype)
    for row in range(0, rows, chunk_rows):
        for column in range(0, columns, chunk_columns):
            chunk = array._read_chunk(row // chunk_rows, column // chunk_columns)
            whole[row:row + chunk_rows, column:column + chunk_columns] = chunk[
                :min(chunk_rows, rows - row), :min(chunk_columns, columns - column)]
    return whole[:, 0] if array.vector else whole


MAPPED_FOLDER = ".mapped"
"""Hidden folder of the data directory holding uncompressed copies of what a search reads
(``mapped_copy``); derived data only: removing it costs one decompression at next use."""
MAPPED_LEAST_BYTES = 1 << 20
"""Arrays smaller than this in all are decompressed at every read (a millisecond): no copy."""


def mapped_copy(data_dir: Path, sources: list[tuple[Path, str]], length: int,
                make: Callable[[], np.ndarray]) -> np.ndarray:
    """The 1-D byte arrays ``sources`` ((table folder, array) pairs, ``length`` entries in
    all) end to end, memory-mapped from an uncompressed copy in the data directory's
    ``MAPPED_FOLDER``, so that every process shares the same pages instead of
    decompressing them into memory of its own; ``make`` reads them through the checked
    chunk readers where there is no good copy, and the copy is written from it (temporary
    file, then renamed).

    A copy is named after the checksum record of what it was made from (a rebuilt or
    altered table never finds the old copy) and after its own crc32.  It is opened only
    with the shape and type asked for; its crc32, and every file of its sources against
    their record, are checked whenever the stamp beside it does not match the files'
    sizes, times and inodes, and the stamp is written once they pass.  A copy that fails
    is removed and made again from the tables; a data directory that cannot be written
    gets ``make``'s arrays, as before there were copies."""
    if length < MAPPED_LEAST_BYTES:
        return make()
    data_dir = Path(data_dir)
    places = [Path(os.path.relpath(table, data_dir)).as_posix() for table, _ in sources]
    records = []
    for (table, array), place in zip(sources, places):
        recorded = _table_checksums(table / "checksums.json")
        files = sorted((key, crc) for key, crc in recorded.items()
                       if key == "zarr.json" or key.startswith(f"{array}/"))
        if not any(key.startswith(f"{array}/") for key, _ in files):
            return make()  # no such array: the readers say so in their words
        records.append((place, array, files))
    import hashlib

    named = hashlib.sha256(json.dumps([[place, array] for place, array, _ in records])
                           .encode()).hexdigest()[:16]
    made_from = hashlib.sha256(json.dumps(records).encode()).hexdigest()[:16]
    folder = data_dir / MAPPED_FOLDER
    watched = [table / "checksums.json" for table, _ in sources] + [
        table / key for (table, _), (_, _, files) in zip(sources, records) for key, _ in files]
    for copy in sorted(folder.glob(f"{named}-{made_from}-*.npy")):
        values = _opened_copy(copy, length, watched, records, sources)
        if values is not None:
            return values
    values = make()
    try:
        return _written_copy(folder, f"{named}-{made_from}", values, watched)
    except OSError:  # a read-only or full disk: this process keeps what it read
        return values


def _stat_stamp(path: Path) -> list[int]:
    """What changes whenever a file's bytes do, whoever changed them (a time set back by
    hand still leaves a new inode change time)."""
    found = os.stat(path)
    return [found.st_size, found.st_mtime_ns, found.st_ino, found.st_ctime_ns]


def _stamp(copy: Path, watched: list[Path]) -> dict:
    return {"copy": _stat_stamp(copy), "sources": [_stat_stamp(path) for path in watched]}


def _file_crc32(path: Path) -> int:
    crc = 0
    with open(path, "rb") as opened:
        while block := opened.read(1 << 24):
            crc = zlib.crc32(block, crc)
    return crc


def _opened_copy(copy: Path, length: int, watched: list[Path], records: list,
                 sources: list[tuple[Path, str]]) -> np.ndarray | None:
    """A copy mapped; None where it fails its checks (it is removed) or where a file of
    its sources differs from their record (left for ``make``'s readers to name)."""
    stamp_path = copy.with_name(copy.name + ".verified")
    try:
        values = np.load(copy, mmap_mode="c", allow_pickle=False)
        if values.ndim != 1 or values.dtype != np.uint8 or len(values) != length:
            raise ValueError(f"{copy} is not {length:,} bytes")
        try:
            trusted = json.loads(stamp_path.read_text()) == _stamp(copy, watched)
        except (OSError, ValueError):
            trusted = False
        if not trusted:
            try:
                if any(_file_crc32(table / key) != crc
                       for (table, _), (_, _, files) in zip(sources, records)
                       for key, crc in files):
                    return None
            except OSError:
                return None
            if _file_crc32(copy) != int(copy.stem.rsplit("-", 1)[1], 16):
                raise ValueError(f"{copy} differs from its checksum")
            with contextlib.suppress(OSError):  # a read-only folder: checked each time
                _write_atomically(stamp_path, json.dumps(_stamp(copy, watched)).encode())
        return values.view(np.ndarray)
    except (OSError, ValueError, EOFError):
        for path in (copy, stamp_path):
            with contextlib.suppress(OSError):
                path.unlink()
        return None


def _write_atomically(path: Path, content: bytes) -> None:
    from builder.workspace import staging_name

    temporary = staging_name(path)
    try:
        temporary.write_bytes(content)
        os.replace(temporary, path)
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()


def _written_copy(folder: Path, name: str, values: np.ndarray, watched: list[Path]
                  ) -> np.ndarray:
    """``values`` written as the copy named ``name`` and its crc32, stamped, older copies
    of the same arrays removed; the copy mapped."""
    from builder.workspace import staging_name

    folder.mkdir(exist_ok=True)
    temporary = staging_name(folder / f"{name}.npy")
    try:
        with open(temporary, "wb") as written:
            np.save(written, np.ascontiguousarray(values), allow_pickle=False)
        copy = folder / f"{name}-{_file_crc32(temporary):08x}.npy"
        os.replace(temporary, copy)
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
    _write_atomically(copy.with_name(copy.name + ".verified"),
                      json.dumps(_stamp(copy, watched)).encode())
    for older in folder.glob(f"{name.split('-')[0]}-*"):  # the same arrays, as they were
        if not older.name.startswith(copy.name):
            with contextlib.suppress(OSError):
                older.unlink()
    return np.load(copy, mmap_mode="c", allow_pickle=False).view(np.ndarray)


class ChunkedVector:
    """A 1-D zarr v3 array read element by element (or chunk by chunk) through cached
    chunks; or a 2-D one chunked by whole rows (two-word keys), read chunk by chunk."""

    def __init__(self, path: Path):
        self.path = path
        self._reader = ColumnChunkedArray(path, vector=None)
        self.rows = not self._reader.vector
        if self.rows and self._reader.chunk_shape[1] != self._reader.shape[1]:
            raise StaleTableError(f"{path} is not chunked by whole rows")
        self.chunk_size = self._reader.chunk_shape[0]
        self.length = self._reader.shape[0]
        dtype = self._reader.dtype
        self.never = int(np.iinfo(dtype).max) if dtype.kind == "u" else None
        """The value a breadth-first array stores for "never": its type's largest."""

    def __getitem__(self, index: int) -> int:
        if not 0 <= index < self.length:
            raise CorruptTableError(f"{self.path}: position {index} is outside the array's "
                                    f"{self.length:,} entries: rebuild the table "
                                    "(`make tables FORCE=1`)")
        if self.rows:
            raise StaleTableError(f"{self.path} holds rows, not single values")
        chunk = self._reader._chunk(index // self.chunk_size, 0)
        return int(chunk[index % self.chunk_size, 0])

    def chunk(self, number: int) -> np.ndarray:
        """Chunk ``number``'s values (the last chunk cut to the array's length; rows of a
        row-chunked array)."""
        values = self._reader._chunk(number, 0)
        values = values if self.rows else values[:, 0]
        return values[: max(0, self.length - number * self.chunk_size)]

    def whole(self) -> np.ndarray:
        return read_whole(self.path)  # past the chunk cache: it keeps what walks reuse


def open_group(path: Path, expected: dict) -> dict:
    """Attributes of a complete, current table at ``path``; a QueryError otherwise."""
    path = Path(path)
    if not (path / "zarr.json").exists():
        raise MissingTableError(f"no table at {path}: run `make tables`")
    metadata, raw = _read_json(path / "zarr.json")
    attributes = metadata.get("attributes", {})
    if not isinstance(attributes, dict):
        raise CorruptTableError(f"{path / 'zarr.json'} has no attributes: rebuild the table "
                                "(`make tables FORCE=1`)")
    if not attributes.get("complete"):
        raise StaleTableError(f"table {path} is incomplete: run `make tables FORCE=1`")
    if attributes.get("table_format") != TABLE_FORMAT:
        raise StaleTableError(
            f"table {path} has format {attributes.get('table_format')}, this query reads "
            f"format {TABLE_FORMAT}: run `make tables FORCE=1`"
        )
    _check_metadata(path / "zarr.json", raw, path)  # the attributes as the builder wrote
    for key, value in expected.items():
        value = json.loads(json.dumps(value, default=str))  # as stored: a tuple is a list
        if attributes.get(key) != value:
            raise StaleTableError(f"table {path} has {key}={attributes.get(key)!r}, not "
                                  f"{value!r}: rebuild it (`make tables FORCE=1`)")
    return attributes


def sorted_positions(sorted_keys: ChunkedVector, first_keys: np.ndarray, keys: np.ndarray,
                     path: Path, absent_ok: bool = False) -> np.ndarray:
    """Where each of ``keys`` sits in the ascending array ``sorted_keys``, found through
    ``first_keys`` (the first key of each chunk): one chunk read per chunk touched.  A key
    the table lacks means it is damaged, unless ``absent_ok`` (a sparse table holds only
    the positions its search found): then its place is -1.  Keys of two words
    (``builder.contract.keys``) are stored as rows of two and looked up as such."""
    if not (isinstance(keys, np.ndarray) and keys.dtype == WIDE):
        keys = np.asarray(keys, dtype=np.int64)
    first_keys = sortable(first_keys)
    if first_keys.dtype != keys.dtype:
        raise StaleTableError(f"table {path} keys its positions in "
                              f"{words_in(first_keys)} word(s), the plug-in in "
                              f"{words_in(keys)}: rebuild it (`make tables FORCE=1`)")
    chunks = np.maximum(np.searchsorted(first_keys, keys, side="right") - 1, 0)
    found = np.empty(len(keys), dtype=np.int64)
    for number in np.unique(chunks):
        chosen = chunks == number
        in_chunk = sortable(sorted_keys.chunk(int(number)))
        at = np.minimum(np.searchsorted(in_chunk, keys[chosen]), len(in_chunk) - 1)
        held = in_chunk[at] == keys[chosen]
        if not held.all() and not absent_ok:
            raise CorruptTableError(f"table {path} lacks a key it should hold: rebuild it "
                                    "(`make tables FORCE=1`)")
        found[chosen] = np.where(held, number * sorted_keys.chunk_size + at, -1)
    return found


def open_catalog(data_dir: Path):
    """The DuckDB catalog, read-only and sealed: no file outside it can be read or written
    (external access off, the configuration locked so SQL cannot turn it back on)."""
    import duckdb

    from builder.catalog import bring_up_to_date

    catalog = Path(data_dir) / "catalog.duckdb"
    if not catalog.is_file():
        raise MissingTableError(f"no catalog at {catalog}: run `make tables`")
    bring_up_to_date(Path(data_dir))
    try:
        from builder.store import SEALED_CATALOG

        return duckdb.connect(str(catalog), read_only=True, config=dict(SEALED_CATALOG))
    except duckdb.Error as error:
        raise CorruptTableError(f"catalog {catalog} cannot be opened "
                                f"({str(error).splitlines()[0][:200]}): rebuild it with "
                                "`builder catalog --force`") from None


class Tables:
    """The engine's ``TableLookup`` (``builder/contract/base.py``): any stored array of any
    table, by table path parts and array name, through the checked chunk readers, opened
    once and cached.  Plug-ins read their tables only through it."""

    def __init__(self, data_dir: Path):
        self.data_dir = Path(data_dir)
        self._groups: dict[tuple, dict] = {}
        self._arrays: dict[tuple, ColumnChunkedArray | ChunkedVector] = {}
        self._lock = threading.Lock()
        self._computed: dict[tuple, dict] = {}

    @property
    def location(self) -> str:
        return str(self.data_dir)

    def path(self, table: tuple[str, ...]) -> Path:
        return self.data_dir.joinpath(*table[:-1], f"{table[-1]}.zarr")

    def looked_in(self) -> str:
        """The data folder as a missing table's error names it, saying so where it is
        not a folder at all (a mistyped ``--data``)."""
        if not self.data_dir.exists():
            return f"{self.data_dir}, which does not exist"
        if not self.data_dir.is_dir():
            return f"{self.data_dir}, a file, not a folder"
        return str(self.data_dir)

    def require(self, table: tuple[str, ...], expected: dict | None = None,
                missing: str | None = None) -> dict:
        key = (table, json.dumps(expected or {}, sort_keys=True, default=str))
        with self._lock:
            if key not in self._groups:
                path = self.path(table)
                if not (path / "zarr.json").exists():
                    raise MissingTableError(
                        f"{missing} (looked in {self.looked_in()})" if missing else
                        f"no table {'/'.join(table)} in {self.looked_in()}: run `make tables`")
                self._groups[key] = open_group(path, expected or {})
            return self._groups[key]

    def _array(self, table: tuple[str, ...], array: str, vector: bool, missing: str | None):
        key = (table, array, vector)
        with self._lock:
            found = self._arrays.get(key)
        if found is None:
            self.require(table, missing=missing)
            path = self.path(table) / array
            found = ChunkedVector(path) if vector else ColumnChunkedArray(path)
            with self._lock:
                found = self._arrays.setdefault(key, found)
        return found

    def value(self, table: tuple[str, ...], array: str, index: int,
              missing: str | None = None) -> int:
        vector = self._array(table, array, True, missing)
        if not 0 <= index < vector.length:
            raise CorruptTableError(f"table {self.path(table)}: position {index} is outside "
                                    f"{array} ({vector.length:,} entries): rebuild it")
        return vector[index]

    def distance(self, table: tuple[str, ...], array: str, index: int,
                 missing: str | None = None) -> int | None:
        vector = self._array(table, array, True, missing)
        found = self.value(table, array, index, missing)
        return None if found == vector.never else found

    def column_value(self, table: tuple[str, ...], array: str, row: int, column: int,
                     missing: str | None = None) -> int:
        values = self._array(table, array, False, missing).column(column)
        if not 0 <= row < len(values):
            raise CorruptTableError(f"table {self.path(table)}: row {row} is outside {array} "
                                    f"({len(values):,} rows): rebuild it")
        return int(values[row])

    def column(self, table: tuple[str, ...], array: str, column: int,
               missing: str | None = None) -> np.ndarray:
        return self._array(table, array, False, missing).column(column)

    def vector(self, table: tuple[str, ...], array: str,
               missing: str | None = None) -> ChunkedVector:
        return self._array(table, array, True, missing)

    def describe(self, table: tuple[str, ...]) -> str:
        return str(self.path(table))

    def mapped(self, arrays: list[tuple[tuple[str, ...], str]], length: int,
               make: Callable[[], np.ndarray]) -> np.ndarray:
        """``mapped_copy`` of byte arrays named by table path parts and array name."""
        return mapped_copy(self.data_dir, [(self.path(parts), array) for parts, array in arrays],
                           length, make)

    def stored(self, folder: tuple[str, ...]) -> list[str]:
        return sorted(path.name.removesuffix(".zarr")
                      for path in self.data_dir.joinpath(*folder).glob("*.zarr")
                      if not path.name.startswith("."))

    COMPUTED_KEPT = 4
    """Tables computed at query time kept in memory (the most recent ones)."""

    def computed(self, spec) -> dict:
        """A spec's arrays computed now by the engine's kernels, kept for the next call
        (``TableLookup.computed``); the numba kernels are imported only here."""
        import json

        from builder.contract.puzzle import as_spec

        spec = as_spec(spec)

        key = (spec.parts, json.dumps(spec.identity, sort_keys=True, default=str))
        with self._lock:
            found = self._computed.get(key)
        if found is None:
            from builder.compute import compute_arrays

            found = compute_arrays(spec)
            with self._lock:
                self._computed[key] = found
                while len(self._computed) > self.COMPUTED_KEPT:
                    self._computed.pop(next(iter(self._computed)))
        return found

    def position(self, table: tuple[str, ...], keys: str, key: int, first_keys: str,
                 missing: str | None = None) -> int:
        """Where ``key`` sits in the ascending array ``keys`` (``sorted_positions``)."""
        return int(self.positions(table, keys, [key], first_keys, missing)[0])

    def positions(self, table: tuple[str, ...], keys: str, wanted, first_keys: str,
                  missing: str | None = None, absent_ok: bool = False) -> np.ndarray:
        sorted_keys = self._array(table, keys, True, missing)
        firsts = self._array(table, first_keys, True, missing)
        with self._lock:
            index = self._arrays.get((table, first_keys, "whole"))
            if index is None:
                index = self._arrays[(table, first_keys, "whole")] = firsts.whole()
        return sorted_positions(sorted_keys, index, wanted, self.path(table), absent_ok)
