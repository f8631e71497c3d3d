"""The guide (docs/adding-a-puzzle.md) cannot drift from the code it teaches: every code
line of its Python examples is a line of the file the example names (its first comment),
comments and `...` (a part left out) aside."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "adding-a-puzzle.md").read_text()
EXAMPLES = re.findall(r"```python\n(.*?)```", GUIDE, re.DOTALL)


def code(line: str) -> str:
    return re.sub(r"\s+#.*$", "", line).strip()


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"example {n + 1}"
                                                   for n in range(len(EXAMPLES))])
def test_every_line_of_the_guides_examples_is_in_the_file_it_names(example):
    named = re.match(r"# ((?:builder|puzzles)/\S+\.py)", example)
    assert named, "an example names its file on its first line"
    source: set[str] = set()
    missing = []
    for line in example.splitlines():
        file = re.match(r"# ((?:builder|puzzles)/\S+\.py)", line)
        if file:
            source = {code(real) for real in (ROOT / file.group(1)).read_text().splitlines()}
            continue
        wanted = code(line)
        if wanted and not wanted.startswith(("#", "...")) and wanted not in source:
            missing.append(wanted)
    assert not missing, f"lines the code does not have: {missing}"


def test_the_guide_has_examples():
    assert len(EXAMPLES) >= 7
