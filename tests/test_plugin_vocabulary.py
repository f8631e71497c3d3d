"""A plug-in declares; the engine stores.  No plug-in file names a storage class of the
engine's (a table spec, a catalog's distance array, what a computation hands the build
routine, a fold), a "never" value by its constant, the width of a stored distance, or a
kernel by a "module:function" string: an own search declares a ``Table`` and is handed
``unreached`` arrays, and kernels are given as functions."""

from __future__ import annotations

import re
from pathlib import Path

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
STORAGE = re.compile(r"\b(TableSpec|DistanceArray|Computed|Fold|NEVER_IN_BYTES|"
                     r"NEVER_IN_16_BITS)\b|\bwide\s*=|[\"']puzzles\.[\w.]+:")


def storage_words(root: Path = PUZZLES) -> list[tuple[str, int, str]]:
    """(file under ``root``, line number, stripped line) of every line of a plug-in's
    Python that names one of the engine's storage words."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if STORAGE.search(line):
                found.append((path.relative_to(root).as_posix(), number, line.strip()))
    return found


def test_no_plugin_file_speaks_storage():
    assert not storage_words(), ("plug-in lines naming the engine's storage (declare a "
                                 f"Table; use unreached and never_of): {storage_words()}")


def test_the_scan_finds_each_word_where_it_is_written(tmp_path):
    """Not vacuous: it reads every plug-in, and finds each word (not a longer name)."""
    assert len(list(PUZZLES.rglob("*.py"))) > 40
    lines = ["from builder.contract.specs import TableSpec", "x = DistanceArray('a', 'b', 'c')",
             "return Computed(arrays)", "fold = Fold('abstract', 3)",
             "UNSET = NEVER_IN_BYTES", "never = NEVER_IN_16_BITS",
             "search = Search(4, wide=True)", 'kernel = "puzzles.rubik.search:step"',
             'KERNELS = "puzzles.rubik.twophase_search:"']
    harmless = ["TableSpecial = 1", "a_wide_board = 2", "wider = 3", "text = 'a:b'",
                "NEVER_IN_BYTES_COUNT = 4", "Folder = 5",
                'build = f"{metric}:patterns"', "module = 'puzzles.rubik.search'"]
    (tmp_path / "plugin.py").write_text("\n".join(lines + harmless) + "\n")
    assert [line for _, _, line in storage_words(tmp_path)] == lines
