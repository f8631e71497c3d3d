"""The web page as a player uses it, in a real headless Chromium: every puzzle with a
renderer played to its goal by the hints in exactly its par, Undo and Stop, the races
between Solve and every other action, keyboard play, a phone's viewport, an axe-core
accessibility scan, the API docs with the network blocked, and building a 4x4 target's
table from the page.  Screenshots of every game view land in tests/screenshots/."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

import pytest

from builder import registry
from builder.contract.puzzle import Playing, Walking, walkable
from query.walk import Tables, walk
from tests.browser import PAGE_WAIT, SCREENSHOTS, axe_findings, forget_games, kept_tab, served
from tests.commands import wait_for
from tests.walks import fewest_moves_from

PLAYABLE = [p.name for p in registry.PUZZLES if Playing.of(p).renderer]
WALKED = [p.name for p in registry.PUZZLES if Playing.of(p).renderer and walkable(p)]
WIDE, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


def text(page, selector: str) -> str:
    return page.text_content(selector) or ""


def made(page) -> int:
    return int(text(page, "#made"))


def wait_text(page, selector: str, pattern: str, timeout: float = PAGE_WAIT):
    """Wait for ``selector``'s text to match ``pattern``; a page that never gets there
    fails with what it showed instead (the status, the par), not only a timeout."""
    from playwright.sync_api import TimeoutError as PageTimeout

    try:
        page.wait_for_function(
            "([selector, pattern]) => new RegExp(pattern).test("
            "document.querySelector(selector).textContent)", arg=[selector, pattern],
            timeout=timeout)
    except PageTimeout:
        shown = {name: text(page, name) for name in dict.fromkeys((selector, "#status", "#par"))
                 if page.query_selector(name)}
        raise AssertionError(f"{selector} never matched {pattern!r} within {timeout / 1000:g} "
                             f"s; the page showed {shown} at {page.url}") from None


def until(page, condition) -> None:
    """Wait for ``condition`` (of what the page's events have told the test), letting the
    page run meanwhile; fails only where a page never gets there."""
    wait_for(condition, "the page's state", lambda: page.wait_for_timeout(50))


def open_game(page, server: str, puzzle: str, **shared) -> int | None:
    """The page on ``puzzle`` (a shared position if given); returns its par."""
    page.goto("about:blank")
    page.goto(f"{server}/#" + urlencode({"puzzle": puzzle, **shared}))
    wait_text(page, "#par", "needs \\d+|never")
    found = re.search(r"needs (\d+)", text(page, "#par"))
    return int(found.group(1)) if found else None


def shared_game(page) -> dict:
    """The game the page's URL holds (what a player would share)."""
    return dict(parse_qsl(page.url.split("#", 1)[1]))


def rules_of(game: dict):
    puzzle = registry.by_name(game["puzzle"])
    options = {k[len("option."):]: v for k, v in game.items() if k.startswith("option.")}
    variant = puzzle.variant(game["state"], game.get("target", ""), options)
    return puzzle, variant


def fewest_moves(game: dict, data_dir) -> int | None:
    """The par of a shared game, worked out in the test."""
    puzzle, variant = rules_of(game)
    start = Walking.of(puzzle).start_node(variant, puzzle.parse(variant, game["state"]))
    return fewest_moves_from(puzzle, variant, start, Walking.of(puzzle).parse_target(variant, game["target"]),
                             data_dir)


def replays_legally(game: dict, positions: list[str]) -> bool:
    """Each shown position follows from the one before by a legal move of the plug-in's
    rules, and the last is the target."""
    puzzle, variant = rules_of(game)
    node = Walking.of(puzzle).start_node(variant, puzzle.parse(variant, positions[0]))
    for following in positions[1:]:
        nexts = [m.state for m in puzzle.moves(variant, node)
                 if puzzle.format(variant, m.state) == following]
        if not nexts:
            return False
        node = nexts[0]
    return Walking.of(puzzle).at_target(variant, node, Walking.of(puzzle).parse_target(variant, game["target"]))


def as_a_new_tab(tab, server: str, viewport: dict):
    """A kept tab for one test, left after it as a new one would be: no interception,
    its own width, and none of the server's games kept in the tab's storage (a game
    opened again by its address would otherwise come back with its moves made)."""
    opened, errors = tab
    errors.clear()
    yield opened
    opened.unroute_all(behavior="ignoreErrors")
    forget_games(opened, server)
    opened.set_viewport_size(viewport)
    assert not errors, f"the page raised: {errors}"


@pytest.fixture(scope="module")
def desktop_tab(browser):
    with kept_tab(browser, WIDE) as tab:
        yield tab


@pytest.fixture(scope="module")
def phone_tab(browser):
    with kept_tab(browser, PHONE) as tab:
        yield tab


@pytest.fixture
def page(desktop_tab, server):
    yield from as_a_new_tab(desktop_tab, server, WIDE)


@pytest.fixture
def phone_page(phone_tab, server):
    yield from as_a_new_tab(phone_tab, server, PHONE)


LONGEST_PLAYED = 10
"""Steps a game is played by the page's hints (Klotski's first deal takes 81: each step is
a request and a drawing, and ten show what eighty do)."""


def on_the_way(game: dict, data_dir, steps: int) -> str:
    """The position ``steps`` moves along the engine's walk from a shared game's start."""
    puzzle, variant = rules_of(game)
    walking = Walking.of(puzzle)
    start = walking.start_node(variant, puzzle.parse(variant, game["state"]))
    found = walk(puzzle, Tables(data_dir), variant, start,
                 walking.parse_target(variant, game["target"]))
    return puzzle.format(variant, found.nodes[steps])


@pytest.mark.parametrize("puzzle", WALKED)
def test_every_puzzle_plays_to_its_goal_in_par_then_undo_and_stop(page, server, data_dir,
                                                                   puzzle):
    par = open_game(page, server, puzzle)
    game = shared_game(page)
    assert par == fewest_moves(game, data_dir), "the par is not the fewest moves"
    if par > LONGEST_PLAYED:  # played from a shared position on the way, as far out
        game["state"] = on_the_way(game, data_dir, par - LONGEST_PLAYED)
        par = open_game(page, server, puzzle, **{k: v for k, v in game.items()
                                                  if k != "puzzle"})
        assert par == LONGEST_PLAYED == fewest_moves(shared_game(page), data_dir)
    positions = [text(page, "#state-text")]
    for step in range(1, par + 1):
        page.click("#step")
        wait_text(page, "#made", f"^{step}$")
        positions.append(text(page, "#state-text"))
    wait_text(page, "#status", "Target reached")
    assert f"{par} " in text(page, "#status") and f"optimal {par}" in text(page, "#status")
    assert replays_legally(game, positions)
    page.click("#undo")
    wait_text(page, "#made", f"^{par - 1}$")
    assert text(page, "#state-text") == positions[-2]
    # the undone position's own answer in, which a busy machine may bring after the Stop
    wait_text(page, "#status", "remain")
    # Solve, then Stop: nothing moves after the Stop
    page.click("#solve")
    page.click("#stop")
    stopped = made(page)
    page.wait_for_timeout(900)
    assert made(page) == stopped and "Stopped" in text(page, "#status")


def assert_untouched_by_the_old_run(page) -> str:
    """A freshly dealt game stays as dealt while a cancelled Solve would have gone on,
    with no error shown; returns the dealt position."""
    dealt = text(page, "#state-text")
    page.wait_for_timeout(1200)
    assert made(page) == 0 and text(page, "#state-text") == dealt
    assert "warning" not in page.get_attribute("#status", "class")
    return dealt


def test_solve_races_with_every_other_action(page, server):
    open_game(page, server, "tricolore")
    # Solve then New: the new board stays as dealt
    page.click("#solve")
    wait_text(page, "#made", "^[1-9]")  # the run under way
    page.click("#new")
    wait_text(page, "#par", "needs")
    assert_untouched_by_the_old_run(page)
    # Solve twice: one run wins, it ends on the target in par, no error
    par = open_game(page, server, "tricolore")
    page.click("#solve")
    page.click("#solve")
    wait_text(page, "#status", "Target reached|cannot|not")
    page.wait_for_timeout(800)
    assert "Target reached" in text(page, "#status") and made(page) == par
    # Solve then Undo: the undo stands, nothing moves afterwards
    open_game(page, server, "tricolore")
    page.click("#solve")
    wait_text(page, "#made", "^[2-9]")
    page.click("#undo")
    page.wait_for_timeout(700)  # the undo's own redraw
    settled = (made(page), text(page, "#state-text"))
    page.wait_for_timeout(1200)
    assert (made(page), text(page, "#state-text")) == settled
    # Solve then switch puzzles: the ball game is not touched by the old run
    open_game(page, server, "tricolore")
    page.click("#solve")
    page.click('#puzzles button[data-puzzle="balls"]')
    wait_text(page, "#par", "needs")
    assert "|" in assert_untouched_by_the_old_run(page)
    # ball tubes: Solve then Deal
    page.click("#solve")
    wait_text(page, "#made", "^[1-9]")  # the run under way
    page.click("#new")
    wait_text(page, "#status", "remain")
    assert_untouched_by_the_old_run(page)


def test_a_tricolore_board_played_to_its_target_with_the_keyboard_only(page, server):
    par = open_game(page, server, "tricolore", **{"set.size": "4x2"})
    page.focus('#board [data-row="0"][data-col="0"]')
    at = (0, 0)
    for step in range(1, par + 1):
        page.keyboard.press("h")
        wait_text(page, "#status", "Hint: click square")
        square = int(re.search(r"square (\d+)", text(page, "#status")).group(1)) - 1
        row, col = divmod(square, 4)
        for _ in range(abs(row - at[0])):
            page.keyboard.press("ArrowDown" if row > at[0] else "ArrowUp")
        for _ in range(abs(col - at[1])):
            page.keyboard.press("ArrowRight" if col > at[1] else "ArrowLeft")
        at = (row, col)
        assert page.evaluate("document.activeElement.dataset.row + ',' + "
                             "document.activeElement.dataset.col") == f"{row},{col}"
        page.keyboard.press("Enter")
        wait_text(page, "#made", f"^{step}$")
        wait_text(page, "#status", "remains? at best|Target reached")
    wait_text(page, "#status", "Target reached")
    assert made(page) == par


@pytest.mark.parametrize("puzzle", PLAYABLE)
def test_every_view_starts_on_a_phones_first_screen_fits_it_is_accessible_and_photographed(
        phone_page, server, puzzle):
    SCREENSHOTS.mkdir(exist_ok=True)
    # opened on the phone, then turned to the desktop's width (the page redraws on a
    # resize): one load and one set of move values serve both views
    page = phone_page
    page.goto(f"{server}/#puzzle={puzzle}")
    page.wait_for_selector("#board *")
    top = page.evaluate("document.querySelector('#board').getBoundingClientRect().top")
    assert top < PHONE["height"] - 100, f"the board starts at {top}px"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    if walkable(registry.by_name(puzzle)):
        wait_text(page, "#par", "needs \\d+|never")
        page.click("#values")
        wait_text(page, "#status", "optimum|No move")
    else:
        page.click("#spots-solve")
        wait_text(page, "#status", "solution")
    for name, viewport in (("phone", PHONE), ("wide", WIDE)):
        if viewport is WIDE:
            page.set_viewport_size(WIDE)
            page.wait_for_function(f"window.innerWidth === {WIDE['width']}")
        page.screenshot(path=str(SCREENSHOTS / f"{puzzle}-{name}.png"), full_page=True)
        if viewport is PHONE:
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            smallest = page.evaluate("""() => Math.min(...[...document.querySelectorAll(
                'body *')].filter((e) => e.offsetParent !== null && [...e.childNodes].some(
                (n) => n.nodeType === 3 && n.textContent.trim())).map((e) =>
                parseFloat(getComputedStyle(e).fontSize)))""")
            assert smallest >= 14, f"text drawn at {smallest}px on a phone"
        # on a phone too: its layout scrolls where the desktop's does not (the charts)
        results = axe_findings(page)
        serious = [f"{v['id']}: {v['help']}" for v in results["violations"]
                   if v["impact"] in ("serious", "critical")]
        # axe leaves an aria-label on an element whose role takes none for a person to
        # judge: this page has none
        serious += [v["id"] for v in results["incomplete"] if v["id"] == "aria-prohibited-attr"]
        assert not serious, (name, serious)


def test_the_api_docs_render_with_the_network_blocked(page, server):
    """/docs and /redoc render with the network blocked and ask nothing of it (ReDoc's
    own script used to fetch its attribution logo from a CDN)."""
    outside: list[str] = []

    def only_the_server(route):
        if route.request.url.startswith(server) or route.request.url.startswith("data:"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_server)
    page.goto(f"{server}/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "Puzzle tablebases" in text(page, ".swagger-ui .info .title")
    page.goto(f"{server}/redoc")
    page.wait_for_selector("h1")
    assert "Puzzle tablebases" in text(page, "h1")
    page.wait_for_load_state("networkidle")  # the side menu's images load after the title
    assert not outside, outside


def test_a_4x4_target_without_a_table_plays_by_the_decomposition(page, server, data_dir):
    """No table for this target: hints come from the document's decomposition on request
    (instant, said to be not always optimal), and its moves reach the target legally."""
    start, target = "WBWW.WBRB.RRRR.BWRB", "RWBR.WBRW.BRWB.RWBW"
    par = open_game(page, server, "tricolore", state=start, target=target,
                    **{"option.method": "unrestricted", "set.size": "4x4"})
    game = shared_game(page)
    assert par == fewest_moves(game, data_dir)
    assert page.is_visible("#guide-box")
    page.select_option("#guide", "approximate")
    assert "decomposition" in text(page, "#status")
    page.click("#hint")
    wait_text(page, "#status", "^Hint \\(decomposition: not always optimal\\)")
    positions = [text(page, "#state-text")]
    # the board is drawn at once and the status only when the position's answer is back:
    # the loop ends on the board, and the status is then waited for
    while len(positions) == 1 or positions[-1] != target:
        page.click("#step")
        wait_text(page, "#made", f"^{len(positions)}$")
        positions.append(text(page, "#state-text"))
    wait_text(page, "#status", "Target reached")
    assert replays_legally(game, positions)
    assert f"{len(positions) - 1} clicks, optimal {par}" in text(page, "#status")
    page.click("#undo")
    wait_text(page, "#made", f"^{len(positions) - 2}$")
    page.select_option("#guide", "exact")
    page.click("#hint")
    wait_text(page, "#status", "^Hint \\(bidirectional search: optimal\\): ")


def test_spot_colour_discs_placed_checked_and_solved(page, server):
    """The document's set 1: a wrong placement is refused, the shown solution checks."""
    page.goto(f"{server}/#puzzle=spots&set.set=1")
    page.wait_for_selector("#spots-check")
    assert page.is_hidden("#hint") and page.is_hidden("#solve")
    page.click("#spots-check")
    wait_text(page, "#status", "Not yet|Solved")
    page.click("#spots-solve")
    wait_text(page, "#status", "1 solution;")
    page.click("#spots-check")
    wait_text(page, "#status", "^Solved")


def test_undo_is_drawn_at_once_and_a_cancelled_answer_is_dropped(page, server):
    """Positions answered slowly (a search on a busy server; here held in the browser):
    Undo shows the earlier position before any answer is back, and the request of an
    action cut short by the next one is aborted, not left to queue on the server."""
    open_game(page, server, "hanoi")
    page.click("#step")
    wait_text(page, "#made", "^1$")
    aborted, held = [], []
    page.on("requestfailed", lambda request: aborted.append(request.url))
    answers = re.compile(r".*/api/play/.*/(position|path).*")
    page.route(answers, lambda route: held.append(route))
    page.click("#step")
    # the path request reaches the route a moment after the click
    until(page, lambda: any("/path" in route.request.url for route in held))
    page.click("#undo")
    wait_text(page, "#made", "^0$")  # drawn while every answer is held
    assert any("/path" in route.request.url for route in held)
    until(page, lambda: any("/path" in url for url in aborted))  # reported a moment later
    page.unroute(answers)
    for route in held:
        with contextlib.suppress(Exception):  # the page aborted it meanwhile
            route.continue_()


@pytest.mark.parametrize(("puzzle", "taps", "after"), [
    ("pegs", ['[aria-label^="hole d2,"]', '[aria-label^="hole d4,"]'],
     "ooo.o_o.ooo_ooo.ooooooo.ooooooo.ooo.ooo"),
    ("klotski", ['[aria-label="cell 14, block G"]', '[aria-label="cell 18, empty"]'],
     "BAAC.BAAC.DEEF.D-GF.HI-J"),
    ("cube", ['[aria-label="turn R anticlockwise"]'], None),
])
def test_the_sparse_puzzles_play_by_tapping(page, server, puzzle, taps, after):
    """Pegs: a peg, then the hole to jump to; Klotski: a block, then the empty cell it
    moves into; the cube: a turn's button. A tap that makes no legal move says why."""
    open_game(page, server, puzzle)
    before = text(page, "#state-text")
    for tap in taps:
        page.click(f"#board {tap}")
    wait_text(page, "#made", "^1$")
    plugin, variant = rules_of(shared_game(page))
    legal = {plugin.format(variant, m.state)
             for m in plugin.moves(variant, plugin.parse(variant, before))}
    assert text(page, "#state-text") in legal
    if after:
        assert text(page, "#state-text") == after
    if puzzle == "pegs":
        page.click('#board [aria-label^="hole a3,"]')
        page.click('#board [aria-label^="hole a5,"]')
        wait_text(page, "#status", "No jump from a3 to a5")


def test_the_hanoi_hint_is_drawn_and_the_peg_names_are_readable(page, server):
    """The hinted pegs are outlined; a peg's name stands on white, not on the dark pole."""
    open_game(page, server, "hanoi")
    page.click("#hint")
    wait_text(page, "#status", "^Hint")
    hinted = page.query_selector_all("#board .peg.hinted")
    assert len(hinted) == 2
    assert all(p.evaluate("e => getComputedStyle(e).outlineStyle") != "none" for p in hinted)
    backgrounds = page.eval_on_selector_all(
        "#board .peg .tube-number", "names => names.map((e) => getComputedStyle(e).backgroundColor)")
    assert backgrounds and set(backgrounds) == {"rgb(255, 255, 255)"}


def test_lucas_says_which_rule_a_piece_breaks_and_fits_a_phone(phone_page, server):
    page = phone_page
    open_game(page, server, "lucas")
    assert "never over its own colour" in (page.text_content("#game-rules") or "")
    page.click('#board [aria-label^="cell 2,"]')  # the middle A: one A between it and the gap
    wait_text(page, "#status", "never jumps over its own colour")
    page.click('#board [aria-label^="cell 1,"]')
    wait_text(page, "#status", "pieces from the gap")
    for n in ("3", "6"):
        page.select_option("#setting-n", n)
        page.click("#new")
        wait_text(page, "#par", "needs")
        right = page.eval_on_selector_all("#board .cell",
                                          "cells => Math.max(...cells.map((c) => "
                                          "c.getBoundingClientRect().right))")
        assert right <= PHONE["width"], f"{n} a side: the row ends at {right}px"


def test_no_stale_text_after_a_switch_or_a_refused_target(page, server):
    """Spot Colour never shows Lights Out's facts; a bad custom target is refused in one
    line and the game on the board stands, with its par."""
    open_game(page, server, "lightsout")
    wait_text(page, "#extra", "solves? this board")
    page.click("text=Spot Colour discs")
    page.wait_for_selector("#spots-check")
    assert text(page, "#extra") == ""
    open_game(page, server, "tricolore")
    page.select_option("#setting-target", "custom")  # deals a game (to the default target)
    wait_text(page, "#par", "needs \\d+")
    board, par = text(page, "#state-text"), re.search(r"needs (\d+)", text(page, "#par"))[1]
    page.fill("#setting-custom", "WBXW.WBRB")
    page.press("#setting-custom", "Enter")
    page.click("#new")
    wait_text(page, "#status", "letter")
    assert text(page, "#state-text") == board
    assert f"needs {par} " in text(page, "#par")


def test_a_reload_keeps_the_moves_made_undo_and_the_par(page, server, data_dir):
    """Four moves, one of them not optimal, then a reload: the count, Undo and the par
    are the game's, so that finishing says how many moves it took against the par."""
    par = open_game(page, server, "hanoi")
    page.click("#board .peg >> nth=0")
    page.click("#board .peg >> nth=2")  # the smallest disc to peg C: not the optimal move
    wait_text(page, "#made", "^1$")
    assert fewest_moves(shared_game(page), data_dir) == par  # one move, the par unchanged
    for count in (2, 3, 4):
        page.click("#step")
        wait_text(page, "#made", f"^{count}$")
    before = text(page, "#state-text")
    page.reload()
    wait_text(page, "#made", "^4$")
    assert text(page, "#state-text") == before
    assert f"needs {par} " in text(page, "#par")
    page.click("#undo")
    wait_text(page, "#made", "^3$")


def test_back_returns_to_the_previous_puzzle_and_its_position(page, server):
    open_game(page, server, "hanoi")
    page.click("#step")
    wait_text(page, "#made", "^1$")
    position = text(page, "#state-text")
    page.click("#puzzles button[data-puzzle='sliding']")
    page.wait_for_function("() => location.hash.includes('puzzle=sliding')")
    page.go_back()
    wait_text(page, "#game-title", "Hanoi")
    wait_text(page, "#made", "^1$")
    assert text(page, "#state-text") == position


def test_keyboard_focus_stays_on_a_chosen_peg_and_a_skip_link_reaches_the_board(page,
                                                                                 server):
    open_game(page, server, "hanoi")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "skip"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.col") == "0"
    page.keyboard.press("Enter")  # peg A chosen: the board is drawn again
    assert page.evaluate("document.activeElement.dataset.col") == "0"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    wait_text(page, "#made", "^1$")


@pytest.mark.parametrize("puzzle", ["tricolore", "lightsout", "sliding"])
def test_marks_on_the_board_edges_are_not_clipped(page, server, puzzle):
    """#board scrolls sideways on a narrow screen, so it clips what sticks out of it: the
    value badges of the top row, the hint's outline on an edge square."""
    open_game(page, server, puzzle)
    page.click("#values")
    wait_text(page, "#status", "optimum|No move")
    page.click("#hint")
    wait_text(page, "#status", "^Hint")
    clipped = page.evaluate("""() => {
        const board = document.querySelector('#board').getBoundingClientRect();
        const outside = [];
        for (const e of document.querySelectorAll('#board .badge, #board .hinted')) {
            const r = e.getBoundingClientRect();
            const ring = e.classList.contains('hinted') ? 7 : 0;  // outline 5px + offset 2px
            if (r.top - ring < board.top || r.left - ring < board.left
                || r.right + ring > board.right) outside.push(e.className);
        }
        return outside;
    }""")
    assert clipped == []


def test_a_ball_deal_that_cannot_be_made_is_refused_at_once_and_the_game_stands(page,
                                                                               server):
    par = open_game(page, server, "balls")
    board = text(page, "#state-text")
    page.fill("#setting-colours", "14")
    page.fill("#setting-empty", "1")
    page.click("#new")
    wait_text(page, "#status", "add an empty tube")
    # at once: ended by the count of deals proven unclearable, not by a time limit
    assert "random deals tried, each proven unclearable" in text(page, "#status")
    assert text(page, "#state-text") == board and f"needs {par} " in text(page, "#par")
    # the settings shown are the game's on the board, not the deal refused
    assert "stands" in text(page, "#status")
    assert len(set(board) - {"|"}) == int(page.input_value("#setting-colours"))
    assert page.input_value("#setting-empty") == str(board.split("|").count(""))


def test_settings_that_do_not_apply_are_hidden(page, server):
    """The 4x2 method on a 4x4 board, the custom target field when the target is not
    custom: shown only when they apply."""
    open_game(page, server, "tricolore")
    assert page.is_visible("#setting-method") and page.is_hidden("#setting-custom")
    page.select_option("#setting-size", "4x4")
    wait_text(page, "#par", "needs \\d+|never")
    assert page.is_hidden("#setting-method")
    page.select_option("#setting-target", "custom")
    assert page.is_visible("#setting-custom")


def test_how_to_play_looks_tappable_and_charts_keep_their_size_on_a_phone(phone_page, server):
    page = phone_page
    open_game(page, server, "tricolore")
    marker = page.evaluate("getComputedStyle(document.querySelector('details summary'), "
                           "'::before').content")
    assert marker not in ("none", "normal", "")
    page.wait_for_function("[...document.querySelectorAll('img.chart')].every("
                           "(i) => i.complete && i.naturalWidth > 0)")
    widths = page.eval_on_selector_all("img.chart", "charts => charts.map((c) => c.width)")
    assert widths and min(widths) >= 480, widths
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_4x4_target_without_a_table_is_built_on_request_while_the_player_plays_on(
        page, tmp_path):
    """An empty data directory, on a server that allows builds on request: the page says
    no table exists (no server path, no shell command) and offers to build it; during the
    build the player plays on: the build's own line shows its level and seconds, the
    status is the game's, and the end says the hints are exact; the next step is a table
    walk; another puzzle's page shows nothing of it.  (One 4x4 build for both stories:
    each costs seconds of the suite.)"""
    from builder.catalog import refresh_catalog
    from builder.routine import build_table
    from puzzles.tricolore.tables import target_spec

    build_table(tmp_path, target_spec("RRR.RRR.RRR", 3, 3), progress=False)
    refresh_catalog(tmp_path)  # `query serve` wants some tables; none of them is 4x4
    start, target = "RRRR.RRRR.RRRR.RRRR", "RWRR.RRRR.RRRR.RRRB"
    with served(tmp_path, "--allow-builds", "1") as server:
        page.goto(f"{server}/#" + urlencode({"puzzle": "tricolore", "state": start,
                                              "target": target, "option.method":
                                              "unrestricted", "set.size": "4x4"}))
        wait_text(page, "#status", "[Nn]o table for this target")
        assert str(tmp_path) not in page.content() and "builder " not in text(page, "#status")
        assert "below" not in text(page, "#status")
        assert page.is_visible("#build")
        page.click("#build")
        page.wait_for_selector("#build-progress", state="visible")
        wait_text(page, "#build-status", "level \\d+.* \\d+ s")
        violations = axe_findings(page)["violations"]
        assert not [v["id"] for v in violations if v["impact"] in ("serious", "critical")]
        page.click("#board [data-row='0'][data-col='0']")  # play on during the build
        wait_text(page, "#made", "^1$")
        assert "Building" not in text(page, "#status")
        wait_text(page, "#build-status", "^Table built in \\d+ s: hints are exact now")
        page.wait_for_selector("#build", state="hidden")
        assert page.is_hidden("#build-progress")
        wait_text(page, "#status", "remains? at best\\.$|Target reached")
        assert (tmp_path / "tricolore" / "4x4" / "targets" / f"{target}.zarr").is_dir()
        answers = []  # a table walk now, not a search: what the server says answered it

        def heard(answer) -> None:
            answers.append(answer)

        page.on("response", heard)
        page.click("#step")
        wait_text(page, "#made", "^2$")
        wait_text(page, "#status", "remains? at best\\.$|Target reached")
        page.remove_listener("response", heard)
        said = [(answer.url.split("?")[0].rsplit("/", 1)[1], answer.json()) for answer in answers
                if "/api/play/tricolore/" in answer.url]
        assert said and all(body["how"] == "table walk" if kind == "path"
                            else body["answered_by"] == "table" for kind, body in said), said
        page.click("#puzzles button[data-puzzle='sliding']")
        page.wait_for_function("() => location.hash.includes('puzzle=sliding')")
        assert text(page, "#build-status") == "" and "Building" not in text(page, "#status")


# Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB
DEFICIENCIES = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def seen_in_lab(colour: str, deficiency: str) -> tuple[float, float, float]:
    """CIELAB (D65) of a colour as a viewer with the deficiency sees it."""
    import numpy as np

    channels = np.array([int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    linear = np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)
    linear = np.clip(np.array(DEFICIENCIES[deficiency]) @ linear, 0, 1)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ linear / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def test_the_ball_colours_stay_apart_for_colour_blind_players():
    """The page deals up to 14 colours: every pair stays at least 16 apart in CIELAB to
    normal sight and under simulated protanopia, deuteranopia and tritanopia (the
    palette before this test had a pair 4 apart under deuteranopia)."""
    import itertools
    import math

    import puzzles
    from puzzles.balls.rules import LETTERS

    source = (Path(puzzles.__file__).parent / "balls" / "renderer.js").read_text()
    colours = dict(re.findall(r'\b([a-z]): "(#[0-9a-f]{6})"', source))
    dealt = [colours[letter] for letter in LETTERS[:14]]
    closest = min((math.dist(seen_in_lab(a, kind), seen_in_lab(b, kind)), kind, a, b)
                  for kind in DEFICIENCIES for a, b in itertools.combinations(dealt, 2))
    assert closest[0] >= 16, closest


@pytest.mark.parametrize(("puzzle", "shared"), [("sliding", ""), ("lucas", "&set.n=6"),
                                                ("klotski", "")])
def test_the_numbered_sequence_marks_never_hide_each_other_on_a_phone(phone_page, server,
                                                                       puzzle, shared):
    """Each piece is marked with the next step that moves it (its words list them all),
    and no two marks overlap, even on Lucas' row of 13 narrow cells."""
    page = phone_page
    page.goto(f"{server}/#puzzle={puzzle}{shared}")
    wait_text(page, "#par", "needs")
    page.click("#sequence")
    wait_text(page, "#status", "numbered")
    overlapping = page.evaluate("""() => {
        const marks = [...document.querySelectorAll('#board .badge.step')]
            .map((e) => e.getBoundingClientRect());
        let pairs = 0;
        marks.forEach((a, i) => marks.slice(i + 1).forEach((b) => {
            if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1
                && b.top < a.bottom - 1) pairs += 1;
        }));
        return [marks.length, pairs];
    }""")
    assert overlapping[0] > 0 and overlapping[1] == 0, overlapping
    labels = page.eval_on_selector_all("#board [aria-label*='of the optimal sequence']",
                                       "cells => cells.map((c) => c.getAttribute('aria-label'))")
    assert any(" and " in label for label in labels) or puzzle == "klotski"


def test_water_sort_plays_on_the_page_by_pours(page, server):
    """Choosing water sort deals a game under pours: its par is the fewest pours (a plain
    search in tests/test_water.py's reference), and stepping to the goal pours."""
    from tests.test_water import fewest_pours, pours

    open_game(page, server, "balls")
    page.select_option("#setting-rules", "water")  # deals a game under the new rules
    page.wait_for_function("() => location.hash.includes('option.rules=water')")
    wait_text(page, "#par", "needs \\d+")
    game = shared_game(page)
    capacity = max(len(tube) for tube in game["state"].split("|"))
    par = int(re.search(r"needs (\d+)", text(page, "#par"))[1])
    assert par == fewest_pours(game["state"], capacity)
    here = game["state"]
    for step in range(1, par + 1):
        page.click("#step")
        wait_text(page, "#made", f"^{step}$")
        after = text(page, "#state-text")
        assert after in [state for *_, state in pours(here, capacity)]
        here = after
    wait_text(page, "#status", "Target reached")


def test_klotski_move_values_show_one_badge_a_block_with_its_best_move(page, server, data_dir):
    """Values on Klotski: a block with several moves (one cell or two, two ways) gets one
    badge, on its first cell, with the best value among its moves (worked out here from
    the plug-in's moves and the tables)."""
    from query.walk import Tables

    # three moves from the start: block D (two cells) moves, and H's two moves differ
    open_game(page, server, "klotski", state="BAAC.BAAC.DD-E.FGHE.FI-J", target="solved")
    page.click("#values")
    page.wait_for_selector("#board .badge.good")
    game = shared_game(page)
    puzzle, variant = rules_of(game)
    node = Walking.of(puzzle).start_node(variant, puzzle.parse(variant, game["state"]))
    goal = Walking.of(puzzle).parse_target(variant, game["target"])
    best: dict[str, int] = {}
    for move in puzzle.moves(variant, node):
        after = puzzle.distance(Tables(data_dir), variant, move.state, goal)
        block = move.label.split(" ")[0]
        best[block] = min(best.get(block, 10**6), 10**6 if after is None else after)
    marks = page.evaluate("""() => [...document.querySelectorAll('#board .badge.good, '
        + '#board .badge.bad')].map((b) => [b.parentElement.textContent.replace(b.textContent,
        '').trim()[0], b.textContent])""")
    shown = [block for block, _ in marks]
    assert sorted(shown) == sorted(best), (marks, best)  # one badge a block that moves
    overall = min(best.values())
    for block, words in marks:
        mark, value = words.split(" ", 1)
        assert int(value) == best[block]
        assert mark == ("✓" if best[block] == overall else "✗")
