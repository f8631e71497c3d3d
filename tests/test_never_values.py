""""Never" is the engine's: no plug-in file writes the value a distance array stores for
it (the largest of its unsigned type: 255 in bytes, 65535 in 16 bits).  A plug-in reads
stored arrays through ``never_of`` / ``stored_distances``, and its own kernels fill arrays
from ``unreached`` and are handed ``never_of(array)`` (``tests/test_plugin_vocabulary.py``:
not even the engine's constants are named).  The few numbers that are not a never value
are listed here, each with its reason."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from builder.contract.base import NEVER_IN_16_BITS, NEVER_IN_BYTES, never_of

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
LITERAL = re.compile(r"\b(255|65535)\b")

ALLOWED = {
    ("balls/cli.py", '"(implies --clearable).", min=0, max=255)] = 0,'):
        "bounds what a user may ask for (`--min-moves`), not a stored value",
    ("balls/web.py", "def random_deal(min_moves: int = Query(0, ge=0, le=255),"):
        "the same bound on the web API's `min_moves`",
}
"""(file under puzzles/, its stripped line) -> why that 255 or 65535 may stay."""


def literals(root: Path = PUZZLES) -> list[tuple[str, str]]:
    """(file under ``root``, stripped line) of every line of a plug-in's Python that
    writes 255 or 65535 as a number of its own."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        for line in path.read_text().splitlines():
            if LITERAL.search(line):
                found.append((path.relative_to(root).as_posix(), line.strip()))
    return found


def test_no_plugin_file_writes_a_never_value():
    unexplained = [hit for hit in literals() if hit not in ALLOWED]
    assert not unexplained, ("plug-in lines that write 255 or 65535 (use never_of, "
                             f"stored_distances, or unreached for an own kernel): {unexplained}")


def test_every_allowed_literal_is_still_there():
    """An entry whose line is gone (fixed or moved) is dropped from the list, so the list
    never excuses a line it was not written for."""
    found = set(literals())
    assert not [entry for entry in ALLOWED if entry not in found]


def test_the_scan_sees_the_plugins_and_a_literal(tmp_path):
    """Not vacuous: it reads every plug-in's files, and finds a literal where one is
    written (and not in a longer number, a name or a mask)."""
    assert len(list(PUZZLES.rglob("*.py"))) > 40
    (tmp_path / "kernel.py").write_text("UNREACHABLE = 255\nWIDE = 65535\nSIZE = 2550\n"
                                        "MASK = 0xFF\nname_255 = 1\n")
    assert literals(tmp_path) == [("kernel.py", "UNREACHABLE = 255"),
                                  ("kernel.py", "WIDE = 65535")]


def test_the_named_nevers_are_the_largest_value_of_each_width():
    assert NEVER_IN_BYTES == int(np.iinfo(np.uint8).max)
    assert NEVER_IN_16_BITS == int(np.iinfo(np.uint16).max)
    assert never_of(np.zeros(3, np.uint8)) == NEVER_IN_BYTES
    assert never_of(np.zeros(3, np.uint16)) == NEVER_IN_16_BITS
    assert np.full(2, NEVER_IN_BYTES, np.uint8).tolist() == [255, 255]
