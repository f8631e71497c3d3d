"""A plug-in's terminal drawing (`query path --draw`) says what its notation says: each
drawing is read back here, by rules written in the test, into the notation it was drawn
from, over the positions of a whole path."""

from __future__ import annotations

import json

import pytest

from builder import registry
from builder.contract.puzzle import Describing, Printing
from tests.commands import run_command


def read_klotski(drawn: str) -> str:
    rows = drawn.splitlines()[1:-1]
    return ".".join(row[2:-2].replace(" ", "").replace(".", "-") for row in rows)


def read_sliding(drawn: str) -> str:
    return ".".join("".join("0" if cell.strip(".") == "" else cell for cell in row.split())
                    for row in drawn.splitlines())


def read_hanoi(drawn: str) -> str:
    peg_of = {}
    for line in drawn.splitlines():
        peg, _, discs = line.partition(" |")
        discs = [int(disc) for disc in discs.split()]
        assert discs == sorted(discs, reverse=True), "a larger disc on a smaller one"
        peg_of.update({disc: peg for disc in discs})
    return "".join(peg_of[disc] for disc in sorted(peg_of))


def read_lightsout(drawn: str) -> str:
    return ".".join(row.replace(" ", "").replace("#", "1").replace(".", "0")
                    for row in drawn.splitlines())


def read_balls(drawn: str) -> str:
    rows = drawn.splitlines()[:-1]
    columns = [[row[4 * tube + 1] for row in rows] for tube in range(len(rows[0]) // 4 + 1)]
    return "|".join("".join(ball for ball in column if ball != " ") for column in columns)


READERS = {"klotski": read_klotski, "sliding": read_sliding, "hanoi": read_hanoi,
           "lightsout": read_lightsout, "balls": read_balls}


@pytest.mark.parametrize("name", sorted(READERS))
def test_every_drawing_of_a_path_reads_back_as_its_position(name, data_for):
    puzzle = registry.by_name(name)
    start, target = Describing.of(puzzle).example
    data = data_for(puzzle)
    # towards the example's target, or the goal where the target is a goal word
    question = [f"{name}:{start}"] + ([f"{name}:{target}"] if target[0].isdigit()
                                      or target.isupper() else [])
    path = run_command("query", "path", *question, "--json", "--data", str(data))
    assert path.returncode == 0, path.stderr
    answer = json.loads(path.stdout)
    positions = answer[Printing.of(puzzle).path_words[2]]
    variant = puzzle.variant(start, question[-1].partition(":")[2] if len(question) > 1
                             else "", {})
    for position in positions:
        if position == "cleared":
            continue
        drawn = Printing.of(puzzle).drawing(variant, puzzle.parse(variant, position))
        assert READERS[name](drawn) == position
    printed = run_command("query", "path", *question, "--draw", "--data", str(data))
    assert printed.stdout.count("\ninit: the start\n") == 1
    assert printed.stdout.count(": after ") >= answer["length"] - (name == "balls")


def test_a_puzzle_without_a_drawing_prints_its_path_alone(data_for):
    tricolore = registry.by_name("tricolore")
    assert Printing.of(tricolore).drawing(None, None) == ""
    done = run_command("query", "path", "WBWW.WBRB", "RRRR.RRRR", "--draw", "--data",
                       str(data_for(tricolore)))
    assert done.returncode == 0 and ": the start" not in done.stdout
