"""The page played on a phone (390x844, touch) as issue 56's player found it: each section
below guards one item of the issue's list, named in its heading (a search must never hold
play up, one lettering of Klotski's blocks, badges that cover no label, ...).

One phone page serves the module's tests, as in tests/test_page_sight.py; the server's
record of each search (/api/searches) tells whether a search the page left has stopped."""

from __future__ import annotations

import json
import math
import re
import time
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from tests.browser import forget_games, kept_tab
from tests.test_web_app import PHONE, text, wait_text

FIFTEEN = "1,2,3,4.5,6,7,8.9,10,11,12.13,14,15,0"
HARD_FIFTEEN = "0,12,9,13.15,11,10,14.3,7,2,5.4,8,6,1"
"""A 15-puzzle 80 moves from its target, which the server's limit stops the search of: the
page answers it at once with a quick path not proved optimal, then searches on."""
NOT_YET_PROVED = r"^Par: not yet proved optimal \(at most \d+ moves, at least \d+\)\.$"
"""The par of a position answered at once by its quick path while the search runs on."""


@pytest.fixture(scope="module")
def phone(browser):
    with kept_tab(browser, PHONE, has_touch=True, is_mobile=True) as (opened, errors):
        asked: list[str] = []
        opened.on("request", lambda request: asked.append(request.url))
        opened.asked = asked  # the addresses the page has asked for
        yield opened
    assert not errors, f"the page raised: {errors}"


def open_page(page, server: str, puzzle: str, **shared) -> None:
    """The page on ``puzzle`` (a shared game if given), once its board is drawn."""
    forget_games(page, server)  # the games of the tests before
    page.asked.clear()
    page.goto(f"{server}/#" + urlencode({"puzzle": puzzle, **shared}))
    page.wait_for_selector("#board *")


def searching(page) -> None:
    """Wait until the page shows a search running (its progress line)."""
    page.wait_for_function("() => !document.querySelector('#search-box').hidden")


def watches(page, kind: str) -> list[str]:
    """The names of the searches the page has asked the server for (``kind``: position
    or path), in order."""
    found = []
    for url in page.asked:
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        if parts.path.endswith(f"/{kind}") and query.get("watch"):
            found.append(query["watch"][0])
    return found


def search_state(server: str, watch: str) -> dict:
    try:
        with urllib.request.urlopen(f"{server}/api/searches/{watch}", timeout=120) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:  # not started yet
        return {"state": f"unknown ({error.code})"}


def wait_ended(server: str, watch: str, most_seconds: float = 120.0) -> dict:
    """The server's record of search ``watch`` once it has ended (the test fails if it
    runs on: a search nobody reads must stop)."""
    deadline = time.monotonic() + most_seconds
    while True:
        record = search_state(server, watch)
        if record["state"] == "ended" or time.monotonic() > deadline:
            assert record["state"] == "ended", f"search {watch} still {record['state']}"
            return record
        time.sleep(0.1)


def slid(state: str, tile: str) -> str:
    """The 15-puzzle position after ``tile`` slides into the blank next to it."""
    assert _beside_blank(state, tile), (state, tile)
    rows = [row.split(",") for row in state.split(".")]
    cells = [cell for row in rows for cell in row]
    blank, at = cells.index("0"), cells.index(tile)
    width = len(rows[0])
    cells[blank], cells[at] = tile, "0"
    return ".".join(",".join(cells[i:i + width]) for i in range(0, len(cells), width))


def _beside_blank(state: str, tile: str) -> bool:
    """True when ``tile`` is in a cell next to the blank (above, below or in its row)."""
    rows = [row.split(",") for row in state.split(".")]
    cells = [cell for row in rows for cell in row]
    blank, at = cells.index("0"), cells.index(tile)
    width = len(rows[0])
    return abs(blank - at) == width or (abs(blank - at) == 1 and blank // width == at // width)


def open_hard_fifteen(page, server: str) -> str:
    """The page on ``HARD_FIFTEEN``, once its quick path is the par and the search for a
    shorter one shows its progress: the watch of that search."""
    open_page(page, server, "sliding", state=HARD_FIFTEEN, target=FIFTEEN,
              **{"set.board": "4x4"})
    wait_text(page, "#par", NOT_YET_PROVED)
    searching(page)
    return watches(page, "path")[-1]


# ---- item 1: a tap always moves, a search never holds play up, Stop stops it ----------
def test_a_tap_moves_the_tile_while_the_par_is_searched_and_ends_that_search(phone,
                                                                            server):
    """The quick path is the par at once; the search for a shorter one runs on while the
    player plays, and a tap ends it (the par keeps the quick path's bounds)."""
    par_search = open_hard_fifteen(phone, server)
    assert search_state(server, par_search)["state"] == "running"
    par = text(phone, "#par")
    phone.tap('#board [aria-label="tile 15"]')
    wait_text(phone, "#made", "^1$")
    assert text(phone, "#state-text") == slid(HARD_FIFTEEN, "15")
    wait_ended(server, par_search)  # the server's search stopped with the page's request
    assert text(phone, "#par") == par
    # and back: the tap is made at once again, whatever is searched meanwhile
    phone.tap('#board [aria-label="tile 15"]')
    wait_text(phone, "#made", "^2$")
    assert text(phone, "#state-text") == HARD_FIFTEEN


def test_stop_stops_the_par_search_and_a_hint_search_and_play_goes_on(phone, server):
    """Stop ends the search that improves the par; a hint then comes at once from the
    quick path, not proved, and starts the search again, which Stop ends too."""
    par_search = open_hard_fifteen(phone, server)
    assert phone.is_enabled("#stop")
    phone.click("#stop")
    wait_text(phone, "#status", "^Stopped")
    wait_ended(server, par_search)
    assert phone.is_disabled("#stop") and phone.is_hidden("#search-box")
    phone.click("#hint")
    wait_text(phone, "#status", r"^Hint \(.+\), not yet proved optimal \(at most \d+ moves, "
              r"at least \d+\): slide tile \d+ \w+; the server searches on for the optimum\.$")
    searching(phone)
    hint_search = watches(phone, "path")[-1]
    assert hint_search != par_search and phone.is_enabled("#stop")
    phone.click("#stop")
    wait_text(phone, "#status", "^Stopped")
    wait_ended(server, hint_search)
    phone.tap('#board [aria-label="tile 12"]')
    wait_text(phone, "#made", "^1$")
    assert text(phone, "#state-text") == slid(HARD_FIFTEEN, "12")


COUNT_GROWS_WITHIN_A_BOUND = """() => {
    // true once the progress line has shown two counts of nodes for one bound
    const words = document.querySelector('#search-words').textContent;
    const found = /bound (\\d+) moves, ([\\d,]+) nodes/.exec(words);
    if (!found) return false;
    window.countsSeen = window.countsSeen || {};
    const seen = window.countsSeen[found[1]] = window.countsSeen[found[1]] || new Set();
    seen.add(found[2]);
    return seen.size > 1;
}"""


def test_a_long_bounds_node_count_grows_while_it_is_searched(phone, server):
    """The count of nodes searched moves on within one bound (it stood still for 12 s
    on one bound while only the seconds moved), while the quick path stands as the par."""
    par_search = open_hard_fifteen(phone, server)
    phone.wait_for_function(COUNT_GROWS_WITHIN_A_BOUND, polling=100)
    assert re.match(NOT_YET_PROVED, text(phone, "#par"))
    phone.click("#stop")
    wait_ended(server, par_search)


SLOW_SEARCHES = """(start) => {
    // every search of a position, but the start's, answers 1.5 s late, as on a busy
    // server: its distance searched, or its path (the quick one and the search's)
    const real = window.fetch;
    window.fetch = async (...request) => {
        const answer = await real(...request);
        const asked = new URL(String(request[0]), location.href);
        const searches = asked.searchParams.get('search') === 'true'
            || asked.pathname.endsWith('/path');
        if (searches && asked.searchParams.get('state') !== start) {
            await new Promise((resolve) => setTimeout(resolve, 1500));
        }
        return answer;
    };
}"""


# ---- item 2: what a search found stays known; the time quoted is the search's --------
SHUFFLE = "15 11 10 9 5 1 2 3 7 8 4 7 8 6 9 14 13 5 14 9 6 8 3 6 8 4 12 15 11 10".split()
"""Tiles slid from the 15-puzzle's target: a start whose search takes milliseconds (its
fewest moves are a few dozen), so that only the searches the test slows are slow, however
busy the machine."""


def test_a_position_returned_to_keeps_its_searched_distance_and_a_slow_search_its_time(
        phone, server, data_dir):
    from query.api import open_tablebase

    start = FIFTEEN
    for tile in SHUFFLE:
        start = slid(start, tile)
    with open_tablebase(data_dir) as tablebase:
        fifteen = tablebase.puzzle("sliding")
        away = {tile: fifteen.distance(slid(start, tile), FIFTEEN)
                - fifteen.distance(start, FIFTEEN)
                for tile in map(str, range(1, 16)) if _beside_blank(start, tile)}
    # both tiles move away from the target: their positions are on no optimal path the
    # page has learned, so only a search answers them
    first, second = [tile for tile, change in away.items() if change == 1][:2]
    shared = {"state": start, "target": FIFTEEN, "set.board": "4x4"}
    open_page(phone, server, "sliding", **shared)  # the server's tables read once, first
    wait_text(phone, "#par", r"needs \d+")
    open_page(phone, server, "sliding", **shared)
    wait_text(phone, "#par", r"needs \d+")
    par = int(text(phone, "#par").split("needs ")[1].split()[0])
    assert text(phone, "#status").startswith(f"{par} moves remain at best")
    phone.evaluate(SLOW_SEARCHES, start)
    phone.tap(f'#board [aria-label="tile {first}"]')
    wait_text(phone, "#made", "^1$")
    wait_text(phone, "#status", f"^({par - 1}|{par + 1}) moves remain at best")  # slowly
    phone.click("#undo")
    wait_text(phone, "#made", "^0$")
    wait_text(phone, "#status", f"^{par} moves remain at best|not worked out")
    assert text(phone, "#status").startswith(f"{par} moves remain at best")
    # a position not searched yet: the time quoted is the slow search's, not the start's
    phone.tap(f'#board [aria-label="tile {second}"]')
    wait_text(phone, "#made", "^1$")
    wait_text(phone, "#status", "not worked out after every move")
    quoted = float(text(phone, "#status").split("about ")[1].split(" s")[0])
    assert quoted >= 1.5, text(phone, "#status")


# ---- item 3: Klotski's one lettering ----------------------------------------------------
READ_LETTERS = """() => [...document.querySelectorAll('#board .cell')].map((e) =>
    [...e.childNodes].filter((n) => !(n.classList && n.classList.contains('badge')))
        .map((n) => n.textContent).join('').trim() || '-').join('')"""
"""The Klotski board as drawn, cell by cell in reading order ('-' a hole)."""

def lettered(cells: str) -> str:
    """Klotski's rule for writing a position, worked out here: the 2x2 block A, the
    others B, C, ... in the reading order of their top-left cells."""
    blocks: dict[str, list[int]] = {}
    for index, letter in enumerate(cells):
        if letter != "-":
            blocks.setdefault(letter, []).append(index)
    ordered = sorted(blocks.values(), key=lambda covered: covered[0])
    names = iter("BCDEFGHIJKLMNOP")
    written = ["-"] * len(cells)
    for covered in ordered:
        name = "A" if len(covered) == 4 else next(names)
        for index in covered:
            written[index] = name
    return "".join(written)


def moved(cells: str, start: int, into: int) -> str:
    """``cells`` after the block covering ``start`` slides so as to cover ``into`` (one
    cell down, left, right or up: the offset between the two cells)."""
    letter, offset = cells[start], into - start
    covered = [i for i, at in enumerate(cells) if at == letter]
    after = ["-" if at == letter else at for at in cells]
    for index in covered:
        after[index + offset] = letter.lower()
    return "".join(after).upper()


def test_klotski_letters_its_blocks_one_way_on_the_board_the_line_and_a_shared_link(
        phone, server, browser):
    open_page(phone, server, "klotski")
    wait_text(phone, "#status", "remain")
    cells = lettered(phone.evaluate(READ_LETTERS))
    # G down, then the block on cell 15 left, then J left (cells numbered from 1)
    for count, (start, into) in enumerate(((14, 18), (15, 14), (20, 19)), 1):
        phone.tap(f'#board [aria-label^="cell {start},"]')
        phone.tap(f'#board [aria-label="cell {into}, empty"]')
        cells = lettered(moved(cells, start - 1, into - 1))
        wait_text(phone, "#made", f"^{count}$")
        assert phone.evaluate(READ_LETTERS) == cells
        assert text(phone, "#state-text").replace(".", "") == cells
    shared = phone.url
    assert f"state={'.'.join(cells[i:i + 4] for i in range(0, 20, 4))}" in shared
    # the shared link opened elsewhere (a tab of its own) draws the same letters
    with kept_tab(browser, PHONE, has_touch=True, is_mobile=True) as (elsewhere, errors):
        elsewhere.goto(shared)
        wait_text(elsewhere, "#status", "remain")
        assert elsewhere.evaluate(READ_LETTERS) == cells
        assert not errors
    # a hint names the block by the letter drawn on it
    phone.click("#hint")
    wait_text(phone, "#status", "^Hint")
    letter = text(phone, "#status").split("move block ")[1][0]
    hinted = phone.eval_on_selector_all(
        "#board .cell.hinted", "cells => cells.map((c) => c.firstChild.textContent)")
    assert hinted and set(hinted) == {letter}


# ---- item 4: move-value badges on one line, off every label ---------------------------
BADGES = """() => {
    // every badge on the board: whether its text runs on two lines, and which words of
    // the board (a hole's name, a piece's letter, a turn, a sticker) it lies over
    const board = document.querySelector('#board');
    const boxes = (node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return [...range.getClientRects()];
    };
    const words = [];
    const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.textContent.trim() && !node.parentElement.closest('.badge')) {
            words.push(...boxes(node).map((box) => [node.textContent.trim(), box]));
        }
    }
    const over = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
        && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const badges = [...board.querySelectorAll('.badge')];
    return {
        count: badges.length,
        wrapped: badges.filter((badge) => new Set(boxes(badge).map(
            (box) => Math.round(box.top))).size > 1).map((badge) => badge.textContent),
        covering: badges.flatMap((badge) => words.filter(
            ([, box]) => over(badge.getBoundingClientRect(), box)).map(
            ([word]) => [badge.textContent, word])),
    };
}"""


@pytest.mark.parametrize(("puzzle", "shared"), [
    ("pegs", {}),
    ("lucas", {"set.n": "6"}),
    ("rubik", {}),
    ("cube", {}),
])
def test_move_value_badges_stay_on_one_line_and_cover_no_label(phone, server, puzzle,
                                                               shared):
    open_page(phone, server, puzzle, **shared)
    wait_text(phone, "#par", r"needs \d+")
    phone.click("#values")
    wait_text(phone, "#status", "^Moves marked")
    found = phone.evaluate(BADGES)
    assert found["count"] > 0
    assert found["wrapped"] == [] and found["covering"] == [], found


# ---- item 8: the cube net's faces apart; every turn on a desktop's first screen --------
STICKERS = """() => [...document.querySelectorAll('#board .sticker')].map((e) => {
    const box = e.getBoundingClientRect();
    return [box.left, box.top, box.right, box.bottom];
})"""


def apart(one: list[float], other: list[float]) -> float:
    """The gap between two boxes side by side or one above the other (0 where they
    overlap or meet)."""
    across = max(other[0] - one[2], one[0] - other[2])
    down = max(other[1] - one[3], one[1] - other[3])
    return max(across, down, 0.0)


def test_the_cube_nets_faces_stand_apart_and_every_turn_shows_on_a_desktop(phone, server,
                                                                             browser):
    for puzzle, side in (("rubik", 3), ("cube", 2)):
        open_page(phone, server, puzzle)
        wait_text(phone, "#par", r"needs \d+")
        stickers = phone.evaluate(STICKERS)
        faces = [stickers[i:i + side * side] for i in range(0, len(stickers), side * side)]
        within = max(min(apart(one, other) for other in face if other is not one)
                     for face in faces for one in face)
        between = min(apart(one, other) for f, face in enumerate(faces) for one in face
                      for g, other_face in enumerate(faces) if g != f for other in other_face)
        assert between >= within + 3, (puzzle, within, between)
    with kept_tab(browser, {"width": 1280, "height": 800}) as (desktop, errors):
        desktop.goto(f"{server}/#puzzle=rubik")
        wait_text(desktop, "#par", r"needs \d+")
        lowest = desktop.eval_on_selector_all(
            '#board [role="group"] button',
            "turns => Math.max(...turns.map((t) => t.getBoundingClientRect().bottom))")
        assert desktop.evaluate("scrollY") == 0
        assert lowest <= 800, f"the last turns end at {lowest}px"
        assert not errors


# ---- item 5: letters above the hatching; Lucas says what hatching means, and breaks
# its row away from the gap ---------------------------------------------------------------
HATCHED_LETTERS = """() => [...document.querySelectorAll('#board .cell.forbidden')]
    .filter((cell) => cell.textContent.trim()).map((cell) => {
        // what is drawn on top at the middle of the cell's letter
        const range = document.createRange();
        range.selectNodeContents([...cell.childNodes].find((n) => n.textContent.trim()));
        const box = range.getBoundingClientRect();
        const top = document.elementFromPoint((box.left + box.right) / 2,
                                              (box.top + box.bottom) / 2);
        return [cell.textContent.trim(), top === cell ? 'the hatched cell' : top.tagName];
    })"""


def test_hatching_never_covers_a_letter_and_lucas_says_what_it_means(phone, server):
    open_page(phone, server, "lucas", **{"set.n": "3"})
    wait_text(phone, "#par", r"needs \d+")
    assert "hatched" in text(phone, "#game-rules").lower()
    lucas = phone.evaluate(HATCHED_LETTERS)
    assert [letter for letter, _ in lucas] == ["A", "A", "B", "B"]  # all but the two inner
    open_page(phone, server, "tricolore", **{"set.size": "4x2"})
    wait_text(phone, "#par", r"needs \d+")
    phone.tap('#board [data-row="1"][data-col="2"]')
    wait_text(phone, "#made", "^1$")
    phone.wait_for_selector("#board .cell.forbidden")  # the square just clicked
    tricolore = phone.evaluate(HATCHED_LETTERS)
    assert tricolore
    for letter, on_top in lucas + tricolore:
        assert on_top == "SPAN", f"the hatching is drawn over {letter}"


def test_lucas_long_row_runs_on_with_the_gap_inside_a_line(phone, server):
    open_page(phone, server, "lucas", **{"set.n": "6"})
    wait_text(phone, "#par", r"needs \d+")
    cells = phone.evaluate("""() => [...document.querySelectorAll('#board .cell')].map(
        (e) => [Math.round(e.getBoundingClientRect().top), e.textContent.trim()])""")
    assert len({top for top, _ in cells}) > 1  # a phone runs 13 cells on in lines
    gap = next(i for i, (_, letter) in enumerate(cells) if not letter)
    assert cells[gap - 1][0] == cells[gap][0] == cells[gap + 1][0], cells


# ---- item 6: a listed ball move's mark stands by its words ------------------------------
MARK_GAPS = """() => [...document.querySelectorAll('#board .move-list li')].map((item) => {
    const range = document.createRange();
    range.selectNodeContents(item.firstChild);
    const words = range.getBoundingClientRect();
    const mark = item.querySelector('.badge').getBoundingClientRect();
    return [mark.left - words.right, Math.abs(mark.top - words.top) < words.height];
})"""


def test_ball_move_marks_stand_by_their_moves_on_a_phone_and_a_desktop(phone, server):
    open_page(phone, server, "balls", state="grrg|rrbb|bggb|", target="cleared")
    wait_text(phone, "#par", r"needs \d+")
    phone.click("#values")
    wait_text(phone, "#status", "^Moves marked")
    try:
        for width in (PHONE["width"], 1280):
            phone.set_viewport_size({"width": width, "height": PHONE["height"]})
            phone.wait_for_function(f"innerWidth === {width}")
            gaps = phone.evaluate(MARK_GAPS)
            assert gaps and all(0 <= gap <= 24 and level for gap, level in gaps), (width, gaps)
    finally:
        phone.set_viewport_size(PHONE)


# ---- item 7: Spot Colour's discs drawn as placed; its keys are its own ---------------
PLACED = """() => {
    // each disc drawn: its centre, the number in its middle, and its spots (the chips'
    // letter of each spot's colour, the spot's centre)
    const letterOf = new Map([...document.querySelectorAll('#board .disc-row .spot')].map(
        (chip) => [getComputedStyle(chip).backgroundColor, chip.textContent]));
    const middle = (e) => { const r = e.getBoundingClientRect();
                            return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; };
    return [...document.querySelectorAll('#board svg[role="img"] g')].map((disc) => ({
        at: middle(disc.querySelector('circle')),
        number: Number([...disc.querySelectorAll('text')].pop().textContent),
        spots: [...disc.querySelectorAll('circle')].slice(1).map((spot) =>
            [letterOf.get(getComputedStyle(spot).fill), middle(spot)]),
    }));
}"""


def clockwise_from_top(centre: list[float], points: list[list[float]]) -> list[int]:
    """The order of ``points`` round ``centre``, clockwise on the screen from the top."""
    def angle(point):
        return math.degrees(math.atan2(point[1] - centre[1], point[0] - centre[0])
                            + math.pi / 2) % 360
    return sorted(range(len(points)), key=lambda i: angle(points[i]))


def test_spot_colour_draws_the_discs_as_placed_and_lists_only_its_own_keys(phone, server):
    open_page(phone, server, "spots", **{"set.set": "1"})
    phone.wait_for_selector("#spots-check")
    phone.click("details summary")
    rules = phone.evaluate("() => [...document.querySelectorAll('details p')]"
                           ".filter((p) => p.offsetParent !== null).map((p) => p.textContent)"
                           ".join(' ')")
    assert not re.search(r"\b[hsuvo] (hint|step|undo|move values|the optimal)", rules), rules
    rows = phone.eval_on_selector_all("#board .disc-row", "rows => rows.map((r) => "
                                      "[...r.querySelectorAll('.spot')].map((s) => s.textContent)"
                                      ".join(''))")
    for centre_disc in ("1", "4"):
        phone.select_option("#spots-centre", centre_disc)
        placed = phone.evaluate(PLACED)
        chosen = [int(phone.input_value(f"#spots-at-{k}")) for k in range(1, 7)]
        assert len(placed) == 7 and all(len(disc["spots"]) == 6 for disc in placed)
        middle = min(placed, key=lambda d: max(abs(d["at"][0] - o["at"][0]) + abs(
            d["at"][1] - o["at"][1]) for o in placed))  # the one nearest all the others
        assert middle["number"] == int(centre_disc)
        spots = [letter for letter, _ in middle["spots"]]
        order = clockwise_from_top(middle["at"], [at for _, at in middle["spots"]])
        assert "".join(spots[i] for i in order) == rows[int(centre_disc) - 1]
        satellites = [d for d in placed if d is not middle]
        around = clockwise_from_top(middle["at"], [d["at"] for d in satellites])
        for k, index in enumerate(around):
            satellite = satellites[index]
            assert satellite["number"] == chosen[k]
            facing = min(satellite["spots"], key=lambda spot: math.dist(spot[1], middle["at"]))
            assert facing[0] == rows[int(centre_disc) - 1][k]  # its spot of that colour inward
            own = [letter for letter, _ in satellite["spots"]]
            round_it = clockwise_from_top(satellite["at"], [at for _, at in satellite["spots"]])
            read = "".join(own[i] for i in round_it)
            assert read in rows[chosen[k] - 1] * 2  # its spots clockwise, as listed


# ---- item 9: every message a sentence ------------------------------------------------
def starts_a_sentence(said: str) -> bool:
    return bool(said) and said[0].isupper() and said.rstrip()[-1] in ".!?…"


def test_messages_from_a_board_and_from_the_server_are_sentences(phone, server):
    said = []
    # a ball move the rules refuse (the board's own words)
    open_page(phone, server, "balls", state="grrg|rrbb|bggb|", target="cleared")
    wait_text(phone, "#par", r"needs \d+")
    phone.click('#board .tube[data-col="0"]')
    phone.click('#board .tube[data-col="1"]')
    wait_text(phone, "#status", "not legal")
    said.append(text(phone, "#status"))
    # a placement the server refuses (its one-line message, a command line's)
    open_page(phone, server, "spots", **{"set.set": "1"})
    phone.wait_for_selector("#spots-check")
    phone.select_option("#spots-at-1", "1")  # disc 1 in the centre and at spot 1
    phone.click("#spots-check")
    wait_text(phone, "#status", "disc once")
    said.append(text(phone, "#status"))
    # a game the server refuses: a custom target with a letter no square has
    open_page(phone, server, "tricolore", **{"set.size": "4x2"})
    wait_text(phone, "#par", r"needs \d+")
    phone.select_option("#setting-target", "custom")
    wait_text(phone, "#par", r"needs \d+")
    phone.fill("#setting-custom", "WBXW.WBRB")
    phone.press("#setting-custom", "Enter")
    phone.click("#new")
    wait_text(phone, "#status", "letter")
    said.append(text(phone, "#status"))
    assert all(starts_a_sentence(words) for words in said), said
