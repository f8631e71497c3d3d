"""The zarr v3 layout of ``data/`` and its atomic publication.

Every table is one zarr group directory under ``data/`` (for example
``data/tricolore/4x2/unrestricted.zarr``).  A build writes into a hidden temporary
directory beside it and is renamed into place only when complete, with a
``complete`` attribute written last; a reader trusts a table only when that
attribute and the format version match (see ``query.tables``).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from builder import __version__

TABLE_FORMAT = 1
"""Bumped whenever the meaning or layout of stored arrays changes: older tables are stale."""

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
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.parent / f".{path.name}.building-{uuid.uuid4().hex[:8]}"
    try:
        yield staging
        retired = path.parent / f".{path.name}.retired-{uuid.uuid4().hex[:8]}"
        if path.exists():
            os.rename(path, retired)
        os.rename(staging, path)
        shutil.rmtree(retired, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def write_table(
    staging: Path,
    arrays: dict[str, tuple[np.ndarray, tuple[int, ...], dict[str, Any]]],
    attributes: dict[str, Any],
) -> None:
    """Write named arrays (data, chunk shape, array attributes) as one zarr v3 group,
    zstd-compressed; the group's ``complete`` flag is set after every array is written."""
    import zarr
    from zarr.codecs import ZstdCodec

    group = zarr.open_group(
        staging,
        mode="w",
        attributes={
            **attributes,
            "table_format": TABLE_FORMAT,
            "builder_version": __version__,
            "build_id": uuid.uuid4().hex,
        },
    )
    for name, (values, chunks, array_attributes) in arrays.items():
        array = group.create_array(
            name,
            shape=values.shape,
            chunks=chunks,
            dtype=values.dtype,
            compressors=ZstdCodec(level=ZSTD_LEVEL),
            fill_value=0,
            attributes=array_attributes,
        )
        array[...] = values
    group.attrs["complete"] = True


def directory_size(path: Path) -> int:
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())
