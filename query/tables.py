"""Opening built tables for reading, with one clear error per problem a user can fix.

The query path must start fast, so this module reads our zarr v3 arrays directly
(``zarr.json`` metadata plus zstd-compressed chunk files, the only codecs the
builder writes) instead of importing zarr, which alone costs several times a
numpy import.  ``tests/test_tables.py`` checks this reader against zarr itself.
"""

from __future__ import annotations

import json
import zlib
from functools import lru_cache
from pathlib import Path

import numpy as np

TABLE_FORMAT = 2
"""Must equal builder.store.TABLE_FORMAT (a test keeps them together)."""


CHUNK_CACHE_BYTES = 64 * 2**20
"""Decompressed chunks kept per array: a long-lived process (a server) holds a whole
4×2 table after warming up, and a path query then reads no file at all."""


class QueryError(Exception):
    """Anything a user should be told in one line (the CLI prints it and exits 2)."""


class MissingTableError(QueryError, KeyError):
    """The table a query needs has not been built."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class StaleTableError(QueryError):
    """A table exists but was built by another format or is incomplete."""


class CorruptTableError(QueryError):
    """A table's contents contradict themselves (a chunk is damaged)."""


def _read_json(path: Path) -> dict:
    return json.loads(path.read_text())


class ColumnChunkedArray:
    """A 2-D uint8 zarr v3 array chunked along columns, read one chunk at a time."""

    def __init__(self, path: Path, vector: bool = False):
        self.path = path
        metadata = _read_json(path / "zarr.json")
        codecs = [codec["name"] for codec in metadata["codecs"]]
        if metadata["data_type"] != "uint8" or codecs not in (["bytes", "zstd"], ["bytes"]):
            raise StaleTableError(
                f"{path} uses an encoding this query does not read ({metadata['data_type']}, "
                f"{codecs}); rebuild it with `make tables FORCE=1`"
            )
        self.shape = tuple(metadata["shape"])
        self.chunk_shape = tuple(metadata["chunk_grid"]["configuration"]["chunk_shape"])
        if vector:  # a vector's chunk c/i is read as row chunk i of a one-column array
            if len(self.shape) != 1:
                raise StaleTableError(f"{path} is not a vector")
            self.shape, self.chunk_shape = self.shape + (1,), self.chunk_shape + (1,)
        self.vector = vector
        self.fill_value = metadata["fill_value"]
        self.compressed = "zstd" in codecs
        self.separator = metadata["chunk_key_encoding"]["configuration"].get("separator", "/")
        chunk_bytes = self.chunk_shape[0] * self.chunk_shape[1]
        self._chunk = lru_cache(maxsize=max(4, CHUNK_CACHE_BYTES // chunk_bytes))(self._read_chunk)
        self._checksums: dict[str, int] | None = None

    def _expected_crc32(self, key: str) -> int | None:
        """The checksum the builder recorded for a chunk (None: no record, older table)."""
        if self._checksums is None:
            try:
                self._checksums = json.loads(
                    (self.path.parent / "checksums.json").read_text())["crc32"]
            except (OSError, ValueError, KeyError):
                self._checksums = {}
        return self._checksums.get(f"{self.path.name}/{key}")

    def _read_chunk(self, row_chunk: int, column_chunk: int) -> np.ndarray:
        parts = ("c", str(row_chunk)) if self.vector else ("c", str(row_chunk), str(column_chunk))
        key = self.separator.join(parts)
        try:
            raw = (self.path / key).read_bytes()
        except FileNotFoundError:
            if self._expected_crc32(key) is not None:
                raise CorruptTableError(f"chunk {self.path / key} is missing: rebuild the "
                                        "table (`make tables FORCE=1`)") from None
            return np.full(self.chunk_shape, self.fill_value, dtype=np.uint8)
        expected = self._expected_crc32(key)
        if expected is not None and zlib.crc32(raw) != expected:
            raise CorruptTableError(f"chunk {self.path / key} is corrupted (checksum mismatch): "
                                    "rebuild the table (`make tables FORCE=1`)")
        if self.compressed:
            import zstandard

            try:
                raw = zstandard.ZstdDecompressor().decompress(raw)
            except zstandard.ZstdError as error:
                raise CorruptTableError(f"chunk {self.path / key} is damaged: {error}") from None
        size = self.chunk_shape[0] * self.chunk_shape[1]
        if len(raw) != size:
            raise CorruptTableError(f"chunk {self.path / key} has {len(raw)} bytes, not {size}")
        return np.frombuffer(raw, dtype=np.uint8).reshape(self.chunk_shape)

    def column(self, column: int) -> np.ndarray:
        if self.chunk_shape[0] < self.shape[0]:
            raise StaleTableError(f"{self.path} is not chunked by whole columns")
        chunk = self._chunk(0, column // self.chunk_shape[1])
        return chunk[: self.shape[0], column % self.chunk_shape[1]]


class ChunkedVector:
    """A 1-D uint8 zarr v3 array read element by element through cached chunks."""

    def __init__(self, path: Path):
        self.path = path
        self._reader = ColumnChunkedArray(path, vector=True)
        self.chunk_size = self._reader.chunk_shape[0]

    def __getitem__(self, index: int) -> int:
        chunk = self._reader._chunk(index // self.chunk_size, 0)
        return int(chunk[index % self.chunk_size, 0])


def open_group(path: Path, expected: dict) -> dict:
    """Attributes of a complete, current table at ``path``; a QueryError otherwise."""
    path = Path(path)
    if not (path / "zarr.json").exists():
        raise MissingTableError(f"no table at {path}: run `make tables`")
    attributes = _read_json(path / "zarr.json").get("attributes", {})
    if not attributes.get("complete"):
        raise StaleTableError(f"table {path} is incomplete: run `make tables FORCE=1`")
    if attributes.get("table_format") != TABLE_FORMAT:
        raise StaleTableError(
            f"table {path} has format {attributes.get('table_format')}, this query reads "
            f"format {TABLE_FORMAT}: run `make tables FORCE=1`"
        )
    for key, value in expected.items():
        if attributes.get(key) != value:
            raise StaleTableError(f"table {path} has {key}={attributes.get(key)!r}, not {value!r}")
    return attributes


class TricoloreTable:
    """The all-pairs tables of one Tricolore board shape and method."""

    def __init__(self, data_dir: Path, width: int, height: int, method: str):
        self.path = Path(data_dir) / "tricolore" / f"{width}x{height}" / f"{method}.zarr"
        if not (self.path / "zarr.json").exists():
            built = sorted(p.name for p in (Path(data_dir) / "tricolore").glob("*x*"))
            hint = f" (built shapes: {', '.join(built)})" if built else ""
            raise MissingTableError(
                f"no {method} table for {width}x{height} Tricolore boards in {data_dir}{hint}: "
                f"run `make tables` or `builder tricolore --width {width} --height {height}`"
            )
        self.attributes = open_group(
            self.path, {"puzzle": "tricolore", "width": width, "height": height, "method": method}
        )
        self.clicks = ColumnChunkedArray(self.path / "clicks")
        self.sole_click = ColumnChunkedArray(self.path / "sole_click")
        self.clicks_avoiding_sole = ColumnChunkedArray(self.path / "clicks_avoiding_sole")

    def target_columns(self, target: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(clicks, sole_click, clicks_avoiding_sole) from every start to ``target``."""
        return (
            self.clicks.column(target),
            self.sole_click.column(target),
            self.clicks_avoiding_sole.column(target),
        )


class TricoloreTargetTable:
    """Exact distances from every board to one target (boards too large for all pairs)."""

    def __init__(self, data_dir: Path, width: int, height: int, target_name: str):
        self.path = (
            Path(data_dir) / "tricolore" / f"{width}x{height}" / "targets" / f"{target_name}.zarr"
        )
        if not (self.path / "zarr.json").exists():
            raise MissingTableError(
                f"no exact table towards {target_name} in {data_dir}: build it with "
                f"`builder tricolore4x4 --target {target_name}`, or ask for "
                "`--method decomposition` (not optimal)"
            )
        self.attributes = open_group(
            self.path,
            {"puzzle": "tricolore", "width": width, "height": height, "target": target_name},
        )
        self.target_name = target_name
        self.clicks = ChunkedVector(self.path / "clicks")
        self.sole_click = ChunkedVector(self.path / "sole_click")
        self.clicks_avoiding_sole = ChunkedVector(self.path / "clicks_avoiding_sole")

    def target_columns(self, target: int):
        return self.clicks, self.sole_click, self.clicks_avoiding_sole


def target_table_names(data_dir: Path, width: int, height: int) -> list[str]:
    folder = Path(data_dir) / "tricolore" / f"{width}x{height}" / "targets"
    return sorted(p.name.removesuffix(".zarr") for p in folder.glob("*.zarr"))


class BallsTable:
    """Fewest moves to be cleared for every state of one (T, c, k) ball-tube game."""

    def __init__(self, data_dir: Path, tubes: int, capacity: int, colours: int):
        name = f"{tubes}_{capacity}_{colours}"
        self.path = Path(data_dir) / "balls" / f"{name}.zarr"
        if not (self.path / "zarr.json").exists():
            built = sorted(p.name.removesuffix(".zarr")
                           for p in (Path(data_dir) / "balls").glob("*.zarr"))
            raise MissingTableError(
                f"no ball-tube table for {tubes} tubes of {capacity} with {colours} colours"
                f"{' (built: ' + ', '.join(built) + ')' if built else ''}: run `builder balls "
                f"--tubes {tubes} --capacity {capacity} --colours {colours}`"
            )
        self.attributes = open_group(self.path, {"puzzle": "balls", "tubes": tubes,
                                                 "capacity": capacity, "colours": colours})
        self.moves_to_clear = ChunkedVector(self.path / "moves_to_clear")
