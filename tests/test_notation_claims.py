"""What each puzzle's notation claims, and what happens around the claims: every built-in
claims only the alphabet and shapes it really uses (docs/cli.md lists them, checked
here), two claimants of one text are settled by ``NAME:STATE``, a built-in's name is
never taken by an installed package, and a plug-in that fails inside ``recognises`` or
``moves`` is reported by name without breaking any other puzzle."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from builder import registry
from builder.contract.base import Move
from builder.contract.errors import PuzzleInputError
from builder.contract.puzzle import Describing, OwnSearch, WalkablePuzzle
from tests.commands import run_command

ROOT = Path(__file__).resolve().parent.parent
CLAIMS_HEADING = "### What each notation claims"
CLAIM = re.compile(r"^- `(?P<name>[a-z0-9-]+)`: (?P<claims>.+?)(, e\.g\. `(?P<example>[^`]+)`)?$")
SHARED = re.compile(r"^Shared by two built-ins: (?P<texts>(`[^`]+`(, | and )?)+)", re.MULTILINE)


def built_ins() -> list:
    """The registered puzzles this project's own package declares."""
    from importlib.metadata import entry_points

    names = {entry.name for entry in entry_points(group=registry.ENTRY_POINT_GROUP)
             if registry.is_built_in(entry)}
    return [puzzle for puzzle in registry.PUZZLES if puzzle.name in names]


def register(monkeypatch, puzzles: tuple) -> None:
    """``puzzles`` as the registered ones, also for a command that reads its data
    directory's puzzle files (which adds them to the installed plug-ins)."""
    monkeypatch.setattr(registry, "PUZZLES", puzzles)
    monkeypatch.setattr(registry, "INSTALLED", puzzles, raising=False)
    monkeypatch.setattr(registry, "_defined_from", (), raising=False)


def documented_claims() -> tuple[dict[str, str], list[str]]:
    """docs/cli.md's list: each puzzle's example text by name, and the texts it says two
    built-ins share."""
    text = (ROOT / "docs" / "cli.md").read_text()
    assert CLAIMS_HEADING in text
    section = text.split(CLAIMS_HEADING, 1)[1].split("\n#", 1)[0]
    examples = {found["name"]: found["example"] for line in section.splitlines()
                if (found := CLAIM.match(line))}
    found = SHARED.search(section)
    return examples, re.findall(r"`([^`]+)`", found["texts"]) if found else []


def test_the_documented_claims_name_every_built_in_and_each_example_is_its_alone():
    examples, _ = documented_claims()
    assert sorted(examples) == sorted(p.name for p in built_ins())
    for puzzle in built_ins():
        if Describing.of(puzzle).example[1]:  # a puzzle with positions claims its example
            assert registry.recognising(examples[puzzle.name]) == [puzzle], puzzle.name
        else:  # one without (Spot Colour) claims nothing
            assert examples[puzzle.name] is None
            assert not any(puzzle.recognises(text) for text in ("", "a", "1.2", "RW.BR"))


def test_short_texts_two_built_ins_claim_are_exactly_the_documented_ones():
    """Every text of up to three characters over the built-ins' alphabets and
    separators: the ones two built-ins claim are the ones the document lists."""
    _, documented = documented_claims()
    alphabet = "ABCDRWUFLbgr_o.|01-2' x"
    puzzles = built_ins()
    shared = []
    for length in (1, 2, 3):
        for letters in itertools.product(alphabet, repeat=length):
            text = "".join(letters)
            if sum(1 for puzzle in puzzles if puzzle.recognises(text)) > 1:
                shared.append(text.strip())  # spaces around a text change nothing
    assert sorted(set(shared)) == sorted(documented)


@pytest.mark.parametrize("text", [
    "GGGG.YYYY.OOOO.BBBB",    # a pyraminx's four faces
    "WBWX.WBRB",              # rows of letters other than R, W and B
    "o_",                     # peg letters are no Lucas pieces
    "XY_Z",
    "ooo.ooo.ooooooo.ooooooo.ooo_ooo.ooooooo.ooooooo.ooo.ooo",  # a larger cross
    "RRRRRRRRR.UUUUUUUUU.FFFFFFFFF.DDDDDDDDD.LLLLLLLLL.XXXXXXXXX",
    "R1R|WW",                 # tubes hold letters only
])
def test_texts_in_no_built_in_alphabet_or_shape_are_claimed_by_none(text):
    assert [p.name for p in built_ins() if p.recognises(text)] == []


def test_tricolore_claims_its_three_letters_in_dotted_rows_only():
    tricolore = registry.by_name("tricolore")
    assert tricolore.recognises("WBWW.WBRB") and tricolore.recognises("rwbb.bbbb")
    assert tricolore.recognises("RRRR.RRR")  # a row too short is its parse error to name
    assert not tricolore.recognises("RWB")  # a single row: tricolore:RWB says it
    assert not tricolore.recognises("GGGG.YYYY.OOOO.BBBB")
    assert not tricolore.recognises("WBWX.WBRB")
    cube_letters_only = "RRRR.RRRR.BBBB.BBBB.RRRR.BBBB"  # no cube: it shows six colours
    assert [p.name for p in built_ins() if p.recognises(cube_letters_only)] == ["tricolore"]


def test_a_text_two_built_ins_claim_names_both_and_the_prefix_that_settles_it():
    with pytest.raises(PuzzleInputError) as clash:
        registry.resolve("D")
    message = str(clash.value)
    assert "\n" not in message and "hanoi and rubik" in message
    assert "hanoi:D" in message and "rubik:D" in message
    assert registry.resolve("hanoi:D") == (registry.by_name("hanoi"), "D")
    assert registry.resolve("rubik:D") == (registry.by_name("rubik"), "D")


# --- a built-in's name is never taken ---------------------------------------------------

class FakeEntry:
    """An entry point as importlib.metadata lists it: a name, a value, its package."""

    def __init__(self, name: str, value: str, package: str, plugin: type):
        self.name, self.value, self.group = name, value, registry.ENTRY_POINT_GROUP
        self.dist = SimpleNamespace(name=package)
        self.module = value.partition(":")[0]
        self._plugin = plugin

    def load(self):
        return self._plugin


def _impostor_sliding() -> type:
    sliding = type(registry.by_name("sliding"))
    return type("Impostor", (sliding,), {
        "__module__": "impostor",
        "distance": lambda self, tables, board, node, target: 0})


@pytest.mark.parametrize("impostor_first", [True, False])
def test_an_installed_package_never_takes_a_built_in_name_whatever_the_order(
        monkeypatch, impostor_first):
    from importlib import metadata

    real = list(metadata.entry_points(group=registry.ENTRY_POINT_GROUP))
    impostor = FakeEntry("sliding", "impostor:Impostor", "impostor-tiles",
                         _impostor_sliding())
    listed = [impostor, *real] if impostor_first else [*real, impostor]
    # an entry point's name sorts the list: the impostor's must not win by listing first
    monkeypatch.setattr(metadata, "entry_points",
                        lambda group=None: [e for e in listed if e.group == group])
    warnings: list[str] = []
    loaded = registry.load_plugins(warn=warnings.append)
    by_name = {puzzle.name: puzzle for puzzle in loaded}
    assert type(by_name["sliding"]).__module__ == "puzzles.sliding"
    assert sorted(by_name) == sorted(entry.name for entry in real)
    assert len(warnings) == 1 and "\n" not in warnings[0]
    assert "impostor-tiles" in warnings[0] and "impostor:Impostor" in warnings[0]
    assert "built-in" in warnings[0] and "left out" in warnings[0]


# --- a faulty plug-in breaks nothing else ------------------------------------------------

class LampsSearch(OwnSearch):
    """Lamps's own tables, read and catalogued as a plug-in's own search."""

    def distance(self, tables, lamps, state, target):
        return (state ^ target).bit_count()


class Lamps(WalkablePuzzle):
    """Lamps in a row, any one toggled by a move: the fewest moves are the lamps that
    differ (written here as a plug-in would be, without tables)."""

    own_search = LampsSearch

    name = "lamps"
    summary = "lamps in a row"
    example = ("0110", "0000")

    def recognises(self, text):
        return set(text) <= {"0", "1"}

    def variant(self, start, target, options):
        return len(start)

    def parse(self, lamps, text):
        return int(text, 2)

    def format(self, lamps, state):
        return format(state, f"0{lamps}b")

    def default_target(self, lamps):
        return "0" * lamps

    def moves(self, lamps, state):
        return [Move(str(i), state ^ 1 << i) for i in range(lamps)]


class RaisingRecognition(Lamps):
    name = "broken"

    def recognises(self, text):
        raise KeyError(text)


def test_a_plug_in_whose_recognises_raises_is_skipped_with_one_warning(monkeypatch, capsys):
    register(monkeypatch, (RaisingRecognition(), *registry.PUZZLES))
    monkeypatch.setattr(registry, "_FAULTY_RECOGNISERS", set(), raising=False)  # none yet
    for puzzle in built_ins():
        text, target = Describing.of(puzzle).example
        if target:
            assert registry.resolve(text) == (puzzle, text)
            assert registry.recognising(text) == [puzzle]
    warned = [line for line in capsys.readouterr().err.splitlines() if line]
    assert len(warned) == 1 and "broken" in warned[0] and "KeyError" in warned[0]
    broken = registry.by_name("broken")
    assert registry.resolve("broken:0110") == (broken, "0110")  # still named outright


@pytest.mark.parametrize("moves, said", [
    (lambda self, lamps, state: {}[state], "KeyError"),
    (lambda self, lamps, state: None, "not a list of moves"),
    (lambda self, lamps, state: [1, 2], "not a list of moves"),
])
def test_a_plug_in_whose_moves_fail_is_one_line_naming_it_on_the_command_line(
        monkeypatch, tmp_path, moves, said):
    faulty = type("Faulty", (Lamps,), {"moves": moves})()
    register(monkeypatch, (*registry.PUZZLES, faulty))
    for command in ("moves", "path"):
        done = run_command("query", command, "lamps:0110", "--data", str(tmp_path))
        assert done.returncode != 0 and done.stdout == ""
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "plug-in lamps" in lines[0] and said in lines[0]
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("moves, said", [
    (lambda self, pegs, state: {}[state], "KeyError"),
    (lambda self, pegs, state: [Move("a", state), "garbage"], "not a list of moves"),
])
def test_a_plug_in_whose_moves_fail_is_a_json_error_naming_it_on_the_web(
        monkeypatch, tmp_path, moves, said):
    """The web's puzzle names are fixed when it starts: the faulty plug-in stands in for
    Hanoi, with a distance of its own (no table read)."""
    from fastapi.testclient import TestClient

    from query.web import create_app

    hanoi = type(registry.by_name("hanoi"))
    faulty = type("FaultyHanoi", (hanoi,), {
        "moves": moves,
        "distance": lambda self, tables, variant, node, target: 3,
        "distances": lambda self, tables, variant, nodes, target: [2 for _ in nodes]})()
    register(monkeypatch, tuple(faulty if p.name == "hanoi" else p
                                for p in registry.PUZZLES))
    client = TestClient(create_app(tmp_path), raise_server_exceptions=False)
    for endpoint in ("position", "path"):
        answer = client.get(f"/api/play/hanoi/{endpoint}", params={"state": "AAA"})
        assert 400 <= answer.status_code < 600, answer.text
        assert answer.headers["content-type"].startswith("application/json")
        detail = answer.json()["detail"]
        assert "plug-in hanoi" in detail and said in detail and "\n" not in detail
