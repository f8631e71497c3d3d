"""Cold start (issues 57 and 58): a search's pattern databases are decompressed once, into
an uncompressed copy in the data directory that later processes map instead of
decompressing the tables again (``builder.reader.mapped_copy``).  A copy is trusted only
as the tables it was made from and only as it was written: a tampered copy is made again
from the checked tables, a rewritten table is read anew, and a folder that cannot be
written still answers.  The 2x2x2 cube's pattern tables, copied from those `make tables`
built, stand for every pattern database (their copies are made with the size threshold
set to nothing); a new process is stood for by a new ``Tables`` and an empty search
cache."""

from __future__ import annotations

import json
import mmap
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from builder import patterns, reader, registry
from builder.reader import CorruptTableError, Tables
from builder.store import record_checksums

ONE_TURN = "UUUU.BBRR.RRFF.DDDD.FFLL.LLBB"
SOLVED = "UUUU.RRRR.FFFF.DDDD.LLLL.BBBB"


@pytest.fixture(scope="module")
def built(tmp_path_factory, data_for) -> Path:
    data = tmp_path_factory.mktemp("cold_start") / "data"
    shutil.copytree(data_for(registry.by_name("cube")) / "cube" / "patterns",
                    data / "cube" / "patterns")
    return data


@pytest.fixture
def data(built, tmp_path, monkeypatch) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(built, copy)
    monkeypatch.setattr(reader, "MAPPED_LEAST_BYTES", 0)
    monkeypatch.setattr(patterns, "_KEPT", {})
    return copy


def _search(data: Path):
    cube = registry.by_name("cube")
    return cube.pattern_search(Tables(data), "half", cube.parse("half", ONE_TURN),
                               cube.parse("half", SOLVED))


def _values(data: Path) -> np.ndarray:
    """What the search's kernel reads, as a new process would load it."""
    patterns._KEPT.clear()
    return patterns._estimates(Tables(data), _search(data)).values


def _table(data: Path, parts: tuple[str, ...]) -> Path:
    return data.joinpath(*parts[:-1], f"{parts[-1]}.zarr")


def _expected(data: Path) -> np.ndarray:
    """The search's distinct tables end to end, read by zarr itself."""
    import zarr

    distinct = dict.fromkeys((table.spec.parts, table.array)
                             for table in _search(data).patterns)
    return np.concatenate([zarr.open_array(_table(data, parts) / array, mode="r")[...]
                           for parts, array in distinct])


def _copies(data: Path) -> list[Path]:
    return sorted((data / reader.MAPPED_FOLDER).glob("*.npy"))


def _is_mapped(values: np.ndarray) -> bool:
    base = values
    while base is not None:
        if isinstance(base, mmap.mmap | np.memmap):
            return True
        base = getattr(base, "base", None)
    return False


def test_the_next_process_maps_what_the_search_read_instead_of_decompressing_it(
        data, monkeypatch):
    expected = _expected(data)
    assert np.array_equal(_values(data), expected)
    assert len(_copies(data)) == 1

    def decompressed(*_):
        raise AssertionError("a pattern table was decompressed again")

    with monkeypatch.context() as forbidden:
        forbidden.setattr(reader, "read_whole", decompressed)
        again = _values(data)
        assert _is_mapped(again) and np.array_equal(again, expected)
        from query.api import open_tablebase

        solution = open_tablebase(data).puzzle("cube", metric="half").path(ONE_TURN)
        assert len(solution.steps) == 1

    # a data folder that cannot be written: the tables are read, as before copies
    shutil.rmtree(data / reader.MAPPED_FOLDER)
    (data / reader.MAPPED_FOLDER).write_text("not a folder")
    read = _values(data)
    assert not _is_mapped(read) and np.array_equal(read, expected)


def _tamper_bytes(copy: Path) -> None:
    with open(copy, "r+b") as opened:
        opened.seek(-3, os.SEEK_END)
        last = opened.read()
        opened.seek(-3, os.SEEK_END)
        opened.write(bytes(value ^ 1 for value in last))


def _tamper_shape(copy: Path) -> None:
    np.save(copy, np.load(copy)[:-1], allow_pickle=False)


@pytest.mark.parametrize("tamper", [_tamper_bytes, _tamper_shape])
def test_a_tampered_copy_is_made_again_from_the_tables_never_served(data, tamper):
    """Its bytes or its shape changed, the file's times set back as they were (its inode
    change time cannot be): the next load reads the tables again."""
    expected = _expected(data)
    _values(data)
    (copy,) = _copies(data)
    before = os.stat(copy)
    tamper(copy)
    os.utime(copy, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert not np.array_equal(np.load(copy), expected)
    assert np.array_equal(_values(data), expected)
    (copy,) = _copies(data)
    assert np.array_equal(np.load(copy), expected)


def test_a_copy_is_checksummed_once_then_trusted_while_its_stamp_matches(data,
                                                                         monkeypatch):
    _values(data)
    (copy,) = _copies(data)
    checked = []
    whole_file = reader._file_crc32
    monkeypatch.setattr(reader, "_file_crc32",
                        lambda path: checked.append(Path(path)) or whole_file(path))
    _values(data)
    assert copy not in checked
    stamp = json.loads(copy.with_name(copy.name + ".verified").read_text())
    assert stamp["copy"][0] == copy.stat().st_size

    before = os.stat(copy)
    os.utime(copy, ns=(before.st_atime_ns, before.st_mtime_ns))  # the same times
    _values(data)
    assert checked.count(copy) == 1  # the inode change time differs: checked again
    _values(data)
    assert checked.count(copy) == 1

    # a table's chunk damaged behind its copy: the readers report it, as without copies
    chunk = next(path for path in (_table(data, _search(data).patterns[0].spec.parts)
                                   / "estimate").rglob("*") if path.is_file()
                 and path.name != "zarr.json")
    chunk.write_bytes(chunk.read_bytes()[::-1])
    with pytest.raises(CorruptTableError, match="checksum"):
        _values(data)


def test_a_table_rewritten_after_its_copy_was_made_is_read_anew(data):
    """A forged entry, the checksums recomputed: the old copy is never read for it; the
    table's own values are, and the search refuses them."""
    import zarr

    _values(data)
    (old,) = _copies(data)
    search = _search(data)
    table = _table(data, search.patterns[0].spec.parts)
    estimate = zarr.open_array(table / "estimate", mode="r+").with_config(
        {"write_empty_chunks": True})
    forged = estimate[...]
    entry = int(search.start[search.indices_at])
    forged[entry] = forged[entry] + 3
    estimate[...] = forged
    record_checksums(table)
    with pytest.raises(CorruptTableError, match="rebuild"):
        _values(data)
    (copy,) = _copies(data)
    assert copy != old
    assert np.array_equal(np.load(copy), _expected(data))
