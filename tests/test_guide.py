"""The guide (docs/adding-a-puzzle.md) cannot drift from the code it teaches: every code
line of its Python and TOML examples is a line of the file the example names (its first
comment), comments and `...` (a part left out) aside; and every name of the contract (a
hook a plug-in may define, a core class, a part) is in it, as sqlite-utils'
tests/test_docs.py checks its plug-in hooks are documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from builder.contract.hooks import _core_classes, hooks
from builder.contract.puzzle import PARTS

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "adding-a-puzzle.md").read_text()
EXAMPLES = re.findall(r"```(?:python|toml)\n(.*?)```", GUIDE, re.DOTALL)
NAMED_FILE = re.compile(r"# ((?:builder|puzzles|docs|tests)/\S+\.(?:py|toml)|pyproject\.toml)")


def code(line: str) -> str:
    return re.sub(r"\s+#.*$", "", line).strip()


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"example {n + 1}"
                                                   for n in range(len(EXAMPLES))])
def test_every_line_of_the_guides_examples_is_in_the_file_it_names(example):
    assert NAMED_FILE.match(example), "an example names its file on its first line"
    source: set[str] = set()
    missing = []
    for line in example.splitlines():
        file = NAMED_FILE.match(line)
        if file:
            source = {code(real) for real in (ROOT / file.group(1)).read_text().splitlines()}
            continue
        wanted = code(line)
        if wanted and not wanted.startswith(("#", "...")) and wanted not in source:
            missing.append(wanted)
    assert not missing, f"lines the code does not have: {missing}"


def test_the_guide_has_examples():
    assert len(EXAMPLES) >= 7


def contract_names() -> set[str]:
    """Every hook a plug-in may define, and the core classes and parts declaring them."""
    return set(hooks()) | {kind.__name__ for kind in (*_core_classes(), *PARTS)}


def left_out(guide: str) -> list[str]:
    """The contract's names the guide never writes as code (`name`)."""
    return sorted(name for name in contract_names() if f"`{name}`" not in guide)


def test_every_name_of_the_contract_is_in_the_guide():
    assert not left_out(GUIDE), ("names of builder.contract.hooks.hooks() the guide "
                                 f"never writes as `name`: {left_out(GUIDE)}")


def test_the_contract_is_the_whole_contract():
    """The check covers what a plug-in writes: the notation, moves written once, keys, and
    every part and core class (an empty or partial list would pass any guide)."""
    names = contract_names()
    assert {"recognises", "parse", "format", "move_kernel", "move_label", "stored_distance",
            "encode", "decode", "kernel", "sparse_search", "renderer", "web_routes",
            "Puzzle", "WalkablePuzzle", "DensePuzzle", "KeyedPuzzle", "Walking",
            "Building", "Playing"} <= names
    assert len(names) > 60


@pytest.mark.parametrize("name", ["move_kernel", "sparse_search", "KeyedPuzzle", "Charting"])
def test_a_name_the_guide_drops_is_reported(name):
    assert left_out(GUIDE.replace(f"`{name}`", name)) == [name]
