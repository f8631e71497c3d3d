"""The page plays a puzzle that ships no renderer: the two puzzle files of docs/puzzle-files,
defined and built in a data directory of their own, are offered by the page and drawn by
the generic board (a cell per letter, in the notation's rows; a button per move), and
their moves, Undo, hints and shared addresses do what the file's permutations say, as
worked out here by this module's own reading of the file (``Reference``)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from query.web import create_app
from tests.browser import forget_games, kept_tab, served
from tests.commands import run_command
from tests.test_puzzle_files import FILES, Reference
from tests.test_web_app import WIDE, made, open_game, shared_game, text, wait_text

NAMES = ["floppy", "turnstiles"]

DRAWN = """() => [...document.querySelectorAll('#board .notation-board .sticker')].map((e) => {
    const r = e.getBoundingClientRect();
    return [Math.round(r.top), Math.round(r.left), e.textContent,
            getComputedStyle(e).backgroundColor];
})"""
"""The generic board's cells as drawn: where each is, its text and its colour."""

MOVE_BUTTONS = """() => [...document.querySelectorAll('#board button.cell')].map((e) =>
    [...e.childNodes].filter((n) => !(n.classList && n.classList.contains('badge')))
        .map((n) => n.textContent).join('').trim())"""


@pytest.fixture(scope="module")
def defined(tmp_path_factory):
    """A data directory with both files defined and built, and nothing else."""
    from builder import registry
    from builder.command_line import default_data

    data = tmp_path_factory.mktemp("generic")
    for name in NAMES:
        run_command("builder", "define", str(FILES / f"{name}.toml"), "--data", str(data),
                    check=True)
        run_command("builder", "build", name, "--data", str(data), "--quiet", check=True)
    yield data
    registry.use_data(default_data())  # the other tests' puzzles, not these


@pytest.fixture(scope="module")
def references() -> dict[str, tuple[Reference, dict[str, int]]]:
    found = {}
    for name in NAMES:
        reference = Reference(FILES / f"{name}.toml")
        found[name] = (reference, reference.distances_to_solved())
    return found


def letters(notation: str) -> str:
    return "".join(sign for sign in notation if sign.isalpha())


def some_position(distances: dict[str, int], distance: int) -> str:
    return sorted(position for position, found in distances.items() if found == distance)[0]


@pytest.mark.parametrize("name", NAMES)
def test_a_file_puzzle_is_played_through_the_api(defined, references, name):
    """In a server made after the web modules were imported (the file's puzzle joined the
    registry since): listed with the generic board, its moves and their values those of
    the file's permutations, its path one that replays to solved."""
    reference, distances = references[name]
    client = TestClient(create_app(defined))
    listed = {p["name"]: p for p in client.get("/api/puzzles").json()}
    assert listed[name]["renderer"] == "/static/generic.js" and listed[name]["walkable"]
    start = some_position(distances, 4)
    answer = client.get(f"/api/play/{name}/position",
                        params={"state": start, "target": "solved", "values": True})
    assert answer.status_code == 200, answer.text
    position = answer.json()
    assert position["distance"] == 4 and position["answered_by"] == "table"
    assert {move["label"]: (move["state"], move["distance"]) for move in position["moves"]} \
        == {label: (reference.after(start, label), distances[reference.after(start, label)])
            for label in reference.moves}
    path = client.get(f"/api/play/{name}/path", params={"state": start}).json()
    here = start
    for step in path["moves"]:
        here = reference.after(here, step["label"])
        assert step["state"] == here
    assert here == reference.solved and path["length"] == 4 and path["optimal"]
    unknown = client.get("/api/play/nosuch/position", params={"state": start})
    assert unknown.status_code == 422
    detail = unknown.json()["detail"]
    assert "nosuch" in detail and name in detail and "\n" not in detail


@pytest.fixture(scope="module")
def server(defined):
    with served(defined) as address:
        yield address


@pytest.fixture(scope="module")
def page(browser):
    with kept_tab(browser, WIDE) as (opened, errors):
        yield opened
        assert not errors, f"the page raised: {errors}"


def drawn_rows(page) -> list[str]:
    """The board's letters row by row, each row from the left."""
    cells = page.evaluate(DRAWN)
    tops = sorted({cell[0] for cell in cells})
    return ["".join(cell[2] for cell in sorted((c for c in cells if c[0] == top),
                                               key=lambda c: c[1])) for top in tops]


def notation_rows(notation: str) -> list[str]:
    return [letters(row) for row in notation.split(".")]


def wait_drawn(page, notation: str) -> None:
    page.wait_for_function(
        "(expected) => [...document.querySelectorAll('#board .notation-board .sticker')]"
        ".map((e) => e.textContent).join('') === expected", arg=letters(notation))


@pytest.mark.parametrize("name", NAMES)
def test_a_file_puzzle_is_offered_drawn_and_played_on_the_generic_board(
        page, server, references, name):
    reference, distances = references[name]
    page.goto("about:blank")
    page.goto(f"{server}/")
    page.wait_for_selector(f'#puzzles button[data-puzzle="{name}"]')
    start = some_position(distances, 4)
    assert open_game(page, server, name, state=start, target="solved") == 4
    # one cell per letter, in the notation's rows; one colour per letter
    assert drawn_rows(page) == notation_rows(start)
    colours = {}
    for _, _, letter, colour in page.evaluate(DRAWN):
        colours.setdefault(letter, set()).add(colour)
    assert all(len(found) == 1 for found in colours.values()), colours
    assert len({found.pop() for found in colours.values()}) == len(colours)
    wait_text(page, "#status", "remain")
    assert sorted(page.evaluate(MOVE_BUTTONS)) == sorted(reference.moves)

    # a move tapped: the file's permutation applied
    tapped = sorted(reference.moves)[0]
    moved = reference.after(start, tapped)
    page.get_by_role("button", name=f"move {tapped}", exact=True).click()
    wait_text(page, "#made", "^1$")
    assert text(page, "#state-text") == moved
    wait_drawn(page, moved)
    assert drawn_rows(page) == notation_rows(moved)
    wait_text(page, "#status", "remain|Target reached")

    # Undo: the start again
    page.click("#undo")
    wait_text(page, "#made", "^0$")
    assert text(page, "#state-text") == start
    wait_drawn(page, start)
    wait_text(page, "#status", "remain")

    # a hint names a move that leaves one move fewer
    page.click("#hint")
    wait_text(page, "#status", "^Hint")
    hinted = page.evaluate(
        "() => [...document.querySelectorAll('#board button.hinted')].map((e) => "
        "e.childNodes[0].textContent)")
    assert len(hinted) == 1
    assert f"move {hinted[0]}" in text(page, "#status")
    assert distances[reference.after(start, hinted[0])] == 3

    # the hinted move made; its address, opened as a new tab would, is the same game
    page.get_by_role("button", name=re.compile(f"^move {re.escape(hinted[0])}\\b")).click()
    wait_text(page, "#made", "^1$")
    wait_text(page, "#status", "remain")
    game = shared_game(page)
    after = reference.after(start, hinted[0])
    assert game["puzzle"] == name and game["state"] == after
    address = page.url
    forget_games(page, server)  # as a new tab opens it: no moves made kept
    page.goto(address)
    wait_text(page, "#par", "needs 3 ")
    assert text(page, "#state-text") == after
    assert made(page) == 0
    wait_drawn(page, after)
    assert drawn_rows(page) == notation_rows(after)


@pytest.mark.parametrize("name", NAMES)
def test_a_file_puzzles_first_deal_is_a_position_its_par_away(page, server, references,
                                                               name):
    """The generic board deals by walking the moves from the file's example: the par
    the page shows is the dealt position's fewest moves."""
    _, distances = references[name]
    page.goto("about:blank")
    par = open_game(page, server, name)
    dealt = text(page, "#state-text")
    assert par == distances[dealt] and 0 < par <= 5
    assert drawn_rows(page) == notation_rows(dealt)
