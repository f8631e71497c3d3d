"""The zarr v3 layout of ``data/`` and its atomic publication.

Every table is one zarr group directory under ``data/`` (for example
``data/NAME/SHAPE/TABLE.zarr``).  A build writes into a hidden temporary
directory beside it and is renamed into place only when complete, with a
``complete`` attribute written last; a reader trusts a table only when that
attribute and the format version match (see ``builder.reader``).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import uuid
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from builder import __version__
from builder.contract.errors import OneLineError

TABLE_FORMAT = 3
"""Bumped whenever the meaning or layout of stored arrays changes: older tables are stale.
3: every chunk of an array's grid is written (none left out as "all fill value"), and the
checksum record covers every metadata file (``zarr.json``) as well as every chunk."""

ZSTD_LEVEL = 3


def table_path(data_dir: Path, *parts: str) -> Path:
    return Path(data_dir).joinpath(*parts[:-1], f"{parts[-1]}.zarr")


def read_attributes(path: Path) -> dict[str, Any] | None:
    """The group attributes of a published table, or None if there is none."""
    try:
        return json.loads((Path(path) / "zarr.json").read_text())["attributes"]
    except (OSError, ValueError, KeyError):
        return None


def is_current(path: Path, expected: dict[str, Any]) -> bool:
    """True when a complete table of this format exists with these parameters."""
    attributes = read_attributes(path)
    if not attributes or not attributes.get("complete"):
        return False
    if attributes.get("table_format") != TABLE_FORMAT:
        return False
    return all(attributes.get(key) == value for key, value in expected.items())


@contextlib.contextmanager
def publishing(path: Path) -> Iterator[Path]:
    """Yield a temporary directory to build a table in; rename it to ``path`` on success.

    On any error (or Ctrl-C) the temporary directory is removed and whatever was
    published before stays in place, untouched.
    """
    from builder import workspace

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = workspace.staging_name(path)
    workspace.staging_started(staging)
    try:
        yield staging
        record_checksums(staging)
        publish(staging, path)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        workspace.staging_finished(staging)


WRITE_EVERY_CHUNK = {"write_empty_chunks": True}
"""zarr leaves out a chunk that holds only the fill value; a table keeps every chunk of its
grid, so that a missing chunk file always means damage (a reader never supplies the fill
value for a chunk that vanished)."""


class TableWriter:
    """A zarr v3 group being written: arrays created up front, filled region by region
    (zstd-compressed), and marked ``complete`` by ``finish`` once everything is in."""

    def __init__(
        self,
        staging: Path,
        arrays: dict[str, tuple[tuple[int, ...], Any, tuple[int, ...]]],
        attributes: dict[str, Any],
    ):
        from builder.workspace import writing

        self.staging = Path(staging)
        with writing():
            self._create(staging, arrays, attributes)

    def _create(self, staging: Path, arrays: dict, attributes: dict[str, Any]) -> None:
        import zarr
        from zarr.codecs import ZstdCodec

        self.group = zarr.open_group(
            staging,
            mode="w",
            attributes={
                **attributes,
                "table_format": TABLE_FORMAT,
                "builder_version": __version__,
                "build_id": uuid.uuid4().hex,
                "arrays": sorted(arrays),
            },
        )
        self.arrays = {
            name: self.group.create_array(
                name,
                shape=shape,
                chunks=chunks,
                dtype=dtype,
                compressors=ZstdCodec(level=ZSTD_LEVEL),
                fill_value=0,
                config=WRITE_EVERY_CHUNK,
            )
            for name, (shape, dtype, chunks) in arrays.items()
        }

    def write(self, name: str, region: tuple, values: np.ndarray) -> None:
        from builder.workspace import writing

        array = self.arrays[name]
        if region != (...,) or array.ndim == 0 or array.shape[0] == 0:
            with writing():
                array[region] = values
            return
        self._write_chunks(name, array, values)

    def _write_chunks(self, name: str, array, values: np.ndarray) -> None:
        """A whole array written chunk file by chunk file, compressed on every core: the
        files zarr itself would write for the bytes-then-zstd arrays ``_create`` makes
        (edge chunks padded with the fill value, every chunk written), at about 4x the
        speed of zarr's own per-chunk machinery (bench row ``table_write_4x4_target``).  Each file is one hold of the write lock, so Ctrl-C
        never waits long."""
        from concurrent.futures import ThreadPoolExecutor

        from numcodecs import Zstd

        from builder.workspace import writing

        values = np.asarray(values)
        if values.shape != array.shape:
            raise ValueError(f"{name}: {values.shape} values for an array of {array.shape}")
        values = values.astype(array.dtype, copy=False)  # stored as the array's type
        metadata = array.metadata
        zstd = metadata.codecs[-1]
        compressor = Zstd(level=zstd.level, checksum=zstd.checksum)
        little_endian = values.dtype.newbyteorder("<")
        fill = metadata.fill_value
        chunk_shape = array.chunks
        grid = tuple(-(-size // chunk) for size, chunk in zip(array.shape, chunk_shape))

        def encode(coords: tuple[int, ...]) -> bytes:
            piece = values[tuple(slice(i * c, (i + 1) * c) for i, c in zip(coords, chunk_shape))]
            if piece.shape != chunk_shape:
                padded = np.full(chunk_shape, fill, little_endian)
                padded[tuple(slice(0, size) for size in piece.shape)] = piece
                piece = padded
            return compressor.encode(np.ascontiguousarray(piece, dtype=little_endian))

        folder = self.staging / name
        made: set[Path] = set()
        pool = ThreadPoolExecutor(os.cpu_count() or 1)
        try:
            coords_list = list(np.ndindex(grid))
            for coords, encoded in zip(coords_list, pool.map(encode, coords_list)):
                path = folder / metadata.encode_chunk_key(coords)
                with writing():
                    if path.parent not in made:
                        path.parent.mkdir(parents=True, exist_ok=True)
                        made.add(path.parent)
                    path.write_bytes(encoded)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def finish(self, **attributes: Any) -> None:
        from builder.workspace import writing

        with writing():
            self.group.attrs.update({**attributes, "complete": True})


SEALED_CATALOG = {"enable_external_access": False, "lock_configuration": True,
                  "memory_limit": "2GB"}
"""How every reader opens the DuckDB catalog (read-only besides): no file outside it can be
read or written, and no statement holds more than 2 GB (a query that would is an "out of
memory" error, not a machine that swaps).  One configuration for all, because DuckDB
refuses a second connection to a file with a different one in the same process."""

CHECKSUMS = "checksums.json"
"""Per table: crc32 of every file of it as written (each chunk, and each ``zarr.json``: the
group's attributes and every array's shape, type, fill value, chunk grid and key
separator), checked by `builder verify` and by the query side before it trusts a file."""

METADATA = "zarr.json"


def table_files(table: Path) -> list[str]:
    """Every file of a table directory (chunks and metadata, not the checksum record),
    relative to it."""
    table = Path(table)
    return sorted(path.relative_to(table).as_posix() for path in table.rglob("*")
                  if path.is_file() and path.name != CHECKSUMS)


def file_checksums(table: Path) -> dict[str, int]:
    """crc32 of every file of a table directory (keys relative to it)."""
    return {key: zlib.crc32((Path(table) / key).read_bytes()) for key in table_files(table)}


class DamagedTableError(OneLineError):
    """A published table whose chunks no longer match their recorded checksums."""


def expected_files(table: Path) -> list[str]:
    """The files a table must have, from its metadata: the group's ``zarr.json``, each
    array's, and every chunk of each array's grid (none is ever left out)."""
    table = Path(table)
    expected = [METADATA]
    for metadata_path in sorted(table.glob(f"*/{METADATA}")):
        array = metadata_path.parent.name
        expected.append(f"{array}/{METADATA}")
        metadata = json.loads(metadata_path.read_text())
        shape = metadata["shape"]
        chunk_shape = metadata["chunk_grid"]["configuration"]["chunk_shape"]
        separator = metadata["chunk_key_encoding"]["configuration"].get("separator", "/")
        if len(shape) != len(chunk_shape) or min(chunk_shape, default=1) < 1:
            raise ValueError(f"{array}: chunk grid {chunk_shape} for shape {shape}")
        grid = [-(-size // chunk) for size, chunk in zip(shape, chunk_shape)]
        expected += [f"{array}/" + separator.join(("c", *map(str, coords)))
                     for coords in np.ndindex(*grid)]
    return expected


def damaged_chunks(table: Path) -> list[str]:
    """Files of a published table that differ from its checksum record, are missing, were
    never recorded, or that its metadata calls for and neither the record nor the disk
    has; the record itself when it is missing or unreadable."""
    table = Path(table)
    try:
        recorded = json.loads((table / CHECKSUMS).read_text())["crc32"]
        if not isinstance(recorded, dict):
            raise TypeError
    except (OSError, ValueError, KeyError, TypeError):
        return [f"{CHECKSUMS} (missing or unreadable)"]
    damaged = [key for key, crc in recorded.items() if file_crc32(table / key) != crc]
    if damaged:
        return damaged  # the metadata may be what changed: the grid is not read from it
    damaged += [key for key in table_files(table) if key not in recorded]
    try:
        damaged += [f"{key} (missing)" for key in expected_files(table) if key not in recorded]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        damaged.append("an array's zarr.json (garbled)")
    return damaged


def check_intact(table: Path) -> None:
    """Raise DamagedTableError unless every file of ``table`` matches its record."""
    damaged = damaged_chunks(table)
    if damaged:
        raise DamagedTableError(f"table {table} is damaged ({', '.join(damaged[:3])}"
                                f"{'...' if len(damaged) > 3 else ''}): rebuild it with "
                                "--force (`make tables FORCE=1`)")


def record_checksums(table: Path) -> None:
    from builder.workspace import writing

    checksums = json.dumps({"crc32": file_checksums(table)})
    with writing():
        (Path(table) / CHECKSUMS).write_text(checksums)


def file_crc32(path: Path) -> int | None:
    """crc32 of a file of a table, None when absent."""
    try:
        return zlib.crc32(Path(path).read_bytes())
    except FileNotFoundError:
        return None


def finished_blocks(staging: Path) -> dict[int, dict]:
    """Records of chunk tasks whose chunks are still on disk exactly as they wrote them."""
    found = {}
    for record_path in sorted((Path(staging) / "blocks").glob("*.json")):
        try:
            record = json.loads(record_path.read_text())
        except ValueError:
            continue
        if all(file_crc32(Path(staging) / key) == crc for key, crc in record["crc32"].items()):
            found[record["task"]] = record
    return found


def resumable_staging(path: Path) -> Path:
    """The fixed place a resumable build of ``path`` keeps its finished blocks."""
    return Path(path).parent / f".{Path(path).name}.building"


class IncompleteBuildError(OneLineError):
    """A finished build whose staging lacks a file its arrays call for: never published."""


def missing_from_build(staging: Path) -> list[str]:
    """What a finished build in ``staging`` lacks before it may be published: its
    attributes marked complete, every array its writer created (``arrays``), every chunk
    of their grids, the checksum record and every file it records."""
    staging = Path(staging)
    attributes = read_attributes(staging)
    if attributes is None:
        return [METADATA]
    missing = [] if attributes.get("complete") else ["the 'complete' mark"]
    missing += [f"{name}/{METADATA}" for name in attributes.get("arrays", [])
                if not (staging / name / METADATA).is_file()]
    try:
        missing += [key for key in expected_files(staging) if not (staging / key).is_file()]
        recorded = json.loads((staging / CHECKSUMS).read_text())["crc32"]
    except (OSError, ValueError, KeyError, TypeError):
        return [*missing, CHECKSUMS]
    return missing + [key for key in recorded if not (staging / key).is_file()]


def publish(staging: Path, path: Path) -> None:
    """Rename a finished build into place once it is whole (``missing_from_build``; the
    previous table is retired, then removed)."""
    from builder.workspace import staging_name, writing

    missing = missing_from_build(staging)
    if missing:
        raise IncompleteBuildError(
            f"the build of {path.name} lost {', '.join(missing[:3])}"
            f"{'...' if len(missing) > 3 else ''} before it was published (was its "
            "staging removed by another process?): nothing was published; build it again")
    retired = staging_name(path, "retired")
    with writing():
        if path.exists():
            os.rename(path, retired)
        os.rename(staging, path)
    shutil.rmtree(retired, ignore_errors=True)


def write_table(
    staging: Path,
    arrays: dict[str, np.ndarray],
    chunks: dict[str, tuple[int, ...]],
    attributes: dict[str, Any],
) -> None:
    """Write whole in-memory arrays as one complete table."""
    writer = TableWriter(
        staging,
        {name: (values.shape, values.dtype, chunks[name]) for name, values in arrays.items()},
        attributes,
    )
    for name, values in arrays.items():
        writer.write(name, (...,), values)
    writer.finish()


def directory_size(path: Path) -> int:
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())
