"""The documents cannot go stale: every ```console block of README.md and docs/*.md is run,
and what each command prints must be what the block shows (the way sqlite-utils' tests
keep its documentation honest).

In a block, a line ``$ COMMAND`` starts an example and the lines after it, up to the next
``$`` line or the block's end, are what COMMAND prints (stdout, then stderr). Trailing
spaces and trailing blank lines are ignored; a line that is exactly ``...`` stands for one
or more lines left out; everything else is compared line for line. A ``#`` after the
command is a shell comment. The commands read the built tables through their default
``--data data``: each runs in a directory whose ``data`` is the tables the tests were
given (``TABLEBASE_DATA``, see ``data_dir``), in this process where
``tests/commands.py`` runs it so (``query sql`` has a process of its own), with this
project's own puzzles registered: a document shows what installing the project gives.

A console block only reads: a command that builds, serves or writes files belongs in a
```` ```sh ```` block, which is not run.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.commands import run_command

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```console\n(.*?)^```", re.DOTALL | re.MULTILINE)
LEFT_OUT = "..."


@dataclass(frozen=True)
class Example:
    document: str
    line: int
    command: str
    expected: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.document}:{self.line}"


def examples_in(path: Path) -> list[Example]:
    """Every ``$ COMMAND`` of the document's console blocks with the lines it prints."""
    text = path.read_text()
    found: list[Example] = []
    for block in BLOCK.finditer(text):
        first_line = text.count("\n", 0, block.start(1)) + 1
        current: tuple[int, str, list[str]] | None = None
        for offset, line in enumerate(block.group(1).splitlines()):
            if line.startswith("$ "):
                if current:
                    found.append(example(path, *current))
                current = (first_line + offset, line[2:], [])
            elif current is None:
                raise AssertionError(f"{path.name}:{first_line + offset}: a console block "
                                     "starts with a `$ command` line")
            else:
                current[2].append(line)
        if current:
            found.append(example(path, *current))
    return found


def example(path: Path, line: int, command: str, printed: list[str]) -> Example:
    return Example(str(path.relative_to(ROOT)), line, command, tuple(tidy(printed)))


def tidy(lines: list[str]) -> list[str]:
    """Lines without trailing spaces, and without the blank lines at the end."""
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def shows(expected: tuple[str, ...], printed: list[str]) -> bool:
    """``printed`` is ``expected`` line for line, a ``...`` line standing for one or more."""
    if not expected:
        return not printed
    if expected[0] == LEFT_OUT:
        return any(shows(expected[1:], printed[skipped:])
                   for skipped in range(1, len(printed) + 1))
    return bool(printed) and printed[0] == expected[0] and shows(expected[1:], printed[1:])


def only_reads(argv: list[str]) -> bool:
    """A command a console block may hold: a `query` that neither serves, writes files nor
    builds a table, or `builder build --list` (every other `builder` command builds, or
    reads every table, which no example should wait for)."""
    program, *args = argv
    if program == "query":
        return bool(args) and args[0] not in {"serve", "plot"} and "--build-table" not in args
    return program == "builder" and args[:1] == ["build"] and "--list" in args


EXAMPLES = [found for document in DOCUMENTS for found in examples_in(document)]


@pytest.fixture(scope="module")
def beside_the_tables(data_dir, tmp_path_factory) -> Path:
    """A directory whose ``data`` holds the tables `make tables` builds, and no other: the
    documents' commands use the default ``--data data``, and show what those tables
    answer (a pattern set `make bench` adds to the shared folder proves more)."""
    from builder import registry
    from builder.contract.puzzle import Building
    from builder.store import table_path

    folder = tmp_path_factory.mktemp("docs")
    data = folder / "data"
    data.mkdir()
    for entry in data_dir.resolve().iterdir():
        if entry.is_file():
            (data / entry.name).symlink_to(entry)
    for puzzle in registry.PUZZLES:
        for spec in Building.of(puzzle).default_tables():
            built = table_path(data_dir.resolve(), *spec.parts)
            if built.exists():
                link = table_path(data, *spec.parts)
                link.parent.mkdir(parents=True, exist_ok=True)
                link.symlink_to(built, target_is_directory=True)
    return folder


@pytest.fixture
def this_projects_puzzles(monkeypatch) -> None:
    """The registry as this project alone installs it: the documents show its own puzzles,
    not a plug-in installed beside it (the example package that `make test` installs)."""
    from importlib.metadata import distribution

    from builder import registry

    from builder import catalog

    own = {entry.name for entry in distribution("puzzle-tablebase").entry_points
           if entry.group == registry.ENTRY_POINT_GROUP}
    monkeypatch.setattr(registry, "PUZZLES",
                        tuple(puzzle for puzzle in registry.PUZZLES if puzzle.name in own))
    # the shared catalog holds the example plug-in's rows too: with fewer puzzles known it
    # would look out of date, and a read here would rewrite it under the other tests
    monkeypatch.setattr(catalog, "bring_up_to_date", lambda data_dir: None)


@pytest.mark.parametrize("example", EXAMPLES, ids=[found.name for found in EXAMPLES])
def test_every_console_example_prints_what_the_document_shows(example, beside_the_tables,
                                                                this_projects_puzzles,
                                                                monkeypatch):
    argv = shlex.split(example.command, comments=True)
    assert only_reads(argv), (f"{example.name}: `{example.command}` builds, serves or writes:"
                              " show it in a ```sh block, which is not run")
    monkeypatch.chdir(beside_the_tables)
    monkeypatch.setenv("TABLEBASE_DATA", str(beside_the_tables / "data"))
    done = run_command(*argv, timeout=60)
    printed = tidy((done.stdout + done.stderr).splitlines())
    if LEFT_OUT in example.expected:
        assert shows(example.expected, printed), (
            f"{example.name}: `{example.command}` printed\n" + "\n".join(printed))
    else:
        assert printed == list(example.expected), f"{example.name}: `{example.command}`"


PUZZLE_PAGES = ("tricolore", "ball-tubes", "lucas", "lightsout", "spots", "hanoi", "sliding",
                "klotski", "cube", "pegs", "rubik")


def test_the_readme_and_every_puzzles_page_have_examples():
    documents = {found.document for found in EXAMPLES}
    missing = {"README.md", *(f"docs/{page}.md" for page in PUZZLE_PAGES)} - documents
    assert not missing


def test_the_readme_is_read_in_five_minutes():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200


@pytest.mark.parametrize("expected, printed, same", [
    (("a", "...", "d"), ["a", "b", "c", "d"], True),
    (("a", "...", "d"), ["a", "d"], False),
    (("a", "b"), ["a", "b", "c"], False),
    (("a", "...", "c", "...", "e"), ["a", "b", "c", "d", "e"], True),
])
def test_a_left_out_line_stands_for_one_or_more_lines(expected, printed, same):
    assert shows(expected, printed) is same


@pytest.mark.parametrize("command, allowed", [
    ("query path WBWW.WBRB RRRR.RRRR", True),
    ("query sql 'SELECT 1'", True),
    ("builder build --list", True),
    ("query serve", False),
    ("query plot tricolore --out plots", False),
    ("query path RRRB.BRWR.WBWR.RRBW BRRR.RRRR.RRRR.RRRR --build-table", False),
    ("builder build klotski block", False),
    ("builder verify", False),
])
def test_a_console_block_holds_only_commands_that_read(command, allowed):
    assert only_reads(shlex.split(command)) is allowed


def test_the_performance_page_is_generated_from_every_row_of_bench_json():
    from bench.performance_doc import COMMAND, render

    rows = [{"name": "verify_whole_data", "product_s": 89.0, "baseline_s": None,
             "ratio": None, "notes": "the whole | data"},
            {"name": "something_new", "product_s": 0.0004, "baseline_s": 0.002,
             "ratio": 5.0, "notes": ""}]
    page = render(rows)
    assert COMMAND in page.splitlines()[2] and "2 rows now in `data/bench.json`" in page
    assert "| `verify_whole_data` | 89.00 s | – | – | the whole \\| data |" in page
    assert "| `something_new` | 400 µs | 2.0 ms | 5.00 |  |" in page
    assert "- Sparse tables: no rows yet (`bench/sparse.py`)" in page
