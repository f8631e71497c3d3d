"""The page played by sight, on a phone (390x844, touch): what each board draws is what
its position's notation says (a tube's top ball is the one a move takes, Klotski's blocks
carry the notation's letters), every board fits the screen with tap targets a finger can
hit and the hinted piece in view, taps and hints wait for the position they act on, and no
message shows a state code or contradicts the board.

One phone page serves the module's tests (a test opens its games on it), so that they
cost a page load each, not a browser."""

from __future__ import annotations

import json
import re
import urllib.request
from urllib.parse import urlencode

import pytest

from builder import registry
from builder.contract.puzzle import Walking
from tests.browser import axe_findings, kept_tab
from tests.commands import wait_for
from tests.test_web_app import PHONE, made, open_game, shared_game, text, wait_text

READ_CELLS = """() => [...document.querySelectorAll('#board .cell')].map((e) => {
    const r = e.getBoundingClientRect();
    const face = [...e.childNodes].filter((n) => !(n.classList && n.classList.contains('badge')))
        .map((n) => n.textContent).join('').trim();
    return [Math.round(r.top), Math.round(r.left), face, getComputedStyle(e).backgroundColor,
            e.className];
})"""
"""Every cell drawn on the board: where it is, its text, its colour, its marks."""

FIT = """() => {
    const board = document.querySelector('#board');
    const box = board.getBoundingClientRect();
    const taps = [...board.querySelectorAll('button, select')]
        .filter((e) => e.offsetParent !== null).map((e) => e.getBoundingClientRect());
    return {sideways: board.scrollWidth - board.clientWidth,
            page: document.documentElement.scrollWidth,
            smallest: Math.min(...taps.map((r) => Math.min(r.width, r.height))),
            outside: taps.filter((r) => r.left < box.left || r.right > box.right).length};
}"""

IN_VIEW = """() => [...document.querySelectorAll('#board .hinted, #board .landing')].every(
    (e) => { const r = e.getBoundingClientRect();
             return r.top >= 0 && r.bottom <= innerHeight
                 && r.left >= 0 && r.right <= innerWidth; })"""
"""Whether every hinted piece is on the screen."""

SLOW_POSITIONS = """() => {
    // every position answer arrives 400 ms late, as on a slow connection
    const real = window.fetch;
    window.fetch = async (...request) => {
        const answer = await real(...request);
        if (String(request[0]).includes('/position')) {
            await new Promise((resolve) => setTimeout(resolve, 400));
        }
        return answer;
    };
}"""


@pytest.fixture(scope="module")
def phone(browser):
    with kept_tab(browser, PHONE, has_touch=True, is_mobile=True) as (opened, errors):
        yield opened
    assert not errors, f"the page raised: {errors}"


def rows_of(cells: list) -> list[list]:
    """Cells as drawn, in rows from the top, each row from the left."""
    tops = sorted({cell[0] for cell in cells})
    return [sorted((c for c in cells if c[0] == top), key=lambda c: c[1]) for top in tops]


def fits_a_phone(page) -> None:
    fit = page.evaluate(FIT)
    assert fit["sideways"] <= 0 and fit["page"] <= PHONE["width"], fit
    assert fit["outside"] == 0, fit
    assert fit["smallest"] >= 44, fit


def api(server: str, path: str, **params) -> dict:
    with urllib.request.urlopen(f"{server}{path}?{urlencode(params)}", timeout=120) as answer:
        return json.load(answer)


# ---- every renderer draws what the state says ----------------------------------------
def drawn_tubes(page) -> list[str]:
    """Each tube's balls as drawn, from the top down."""
    return page.evaluate("""() => [...document.querySelectorAll('#board .tube')]
        .sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left)
        .map((tube) => [...tube.querySelectorAll('.ball')]
            .map((ball) => [ball.getBoundingClientRect().top, ball.textContent])
            .sort((a, b) => a[0] - b[0]).map((ball) => ball[1].toLowerCase()).join(''))""")


def test_the_ball_drawn_on_top_is_the_one_a_move_takes(phone, server):
    """The notation names a tube's balls from the top: the page draws them so, and a tap
    of tube 2 then tube 4 moves the ball drawn on top of tube 2 onto tube 4."""
    open_game(phone, server, "balls", state="grrg|rrbb|bggb|", target="cleared")
    phone.keyboard.press("Tab")  # the first Tab reaches the skip link
    assert phone.evaluate("document.activeElement.id") == "skip"
    before = drawn_tubes(phone)
    assert "|".join(before) == text(phone, "#state-text") == "grrg|rrbb|bggb|"
    fits_a_phone(phone)
    phone.tap('#board .tube[data-col="1"]')
    phone.tap('#board .tube[data-col="3"]')
    wait_text(phone, "#made", "^1$")
    after = drawn_tubes(phone)
    assert after[3] == before[1][0] and after[1] == before[1][1:]
    assert "|".join(after) == text(phone, "#state-text")
    # a dead position: its hint says so in words, never in the state's code
    open_game(phone, server, "balls", state="rrrg|rbb|bggb|g", target="cleared")
    phone.click("#hint")
    wait_text(phone, "#status", "never")
    assert "|" not in text(phone, "#status")


def test_the_hanoi_pegs_stand_in_one_row_with_their_discs_as_the_notation_says(phone,
                                                                              server):
    """Disc 1 is the smallest and is the notation's first letter; every peg stands in one
    row on a phone, 3 pegs or 4 (peg C used to wrap under A, 4 pegs stood 2x2)."""
    for state, target, pegs in (("ACBA", "CCCC", "3"), ("ADCBDBAC", "DDDDDDDD", "4")):
        open_game(phone, server, "hanoi", state=state, target=target,
                  **{"option.variant": pegs, "set.pegs": pegs, "set.discs": str(len(state))})
        drawn = phone.evaluate("""() => [...document.querySelectorAll('#board .peg')]
            .map((peg) => [peg.getBoundingClientRect().top, peg.getBoundingClientRect().left,
                [...peg.querySelectorAll('.disc')].map((d) => [d.getBoundingClientRect().top,
                    d.getBoundingClientRect().width, Number(d.textContent)])])""")
        assert len({round(top) for top, _, _ in drawn}) == 1, "the pegs do not stand in a row"
        read = [""] * len(state)
        for index, (_, _, discs) in enumerate(sorted(drawn, key=lambda peg: peg[1])):
            from_the_bottom = sorted(discs, reverse=True)
            widths = [width for _, width, _ in from_the_bottom]
            assert widths == sorted(widths, reverse=True), "a disc drawn on a smaller one"
            for _, _, disc in from_the_bottom:
                read[disc - 1] = "ABCD"[index]
        assert "".join(read) == state
        fits_a_phone(phone)


@pytest.mark.parametrize(("puzzle", "shared"), [
    ("tricolore", {"state": "RWBR.RWRB", "target": "RRRR.RRRR",
                   "option.method": "unrestricted"}),
    ("lightsout", {"set.size": "7x7"}),
    ("lucas", {"set.n": "3"}),
    ("lucas", {"set.n": "6"}),
    ("sliding", {}),
])
def test_every_grid_reads_as_its_notation_and_fits_a_phone(phone, server, puzzle, shared):
    """Read back from the screen, each board is its position; on a phone it does not
    scroll sideways (Lucas' last piece, Lights Out's last column were cut off) and every
    cell is at least 44 px (Lucas' were 25 px)."""
    open_game(phone, server, puzzle, **shared)
    state = text(phone, "#state-text")
    cells = phone.evaluate(READ_CELLS)
    if puzzle == "lucas":
        # a long row runs on in a second line, as text does
        read = "".join(c[2] or "_" for row in rows_of(cells) for c in row)
        assert read == state
    else:
        blank = {"tricolore": "", "lightsout": "0", "sliding": "0"}[puzzle]
        shown = {"on": "1", "": blank}
        read = ".".join("".join(shown.get(c[2], c[2]) for c in row) for row in rows_of(cells))
        assert read == state
    fits_a_phone(phone)
    if puzzle == "lightsout":  # 7x7: one click set, said in the singular
        wait_text(phone, "#extra", "click set")
        assert text(phone, "#extra").startswith("1 click set solves this board")


def test_peg_holes_carry_their_names_and_a_hint_outlines_both_ends_of_the_jump(phone,
                                                                             server):
    open_game(phone, server, "pegs")
    phone.keyboard.press("Tab")
    assert phone.evaluate("document.activeElement.id") == "skip"
    cells = phone.evaluate(READ_CELLS)
    lefts = sorted({c[1] for c in cells})
    holes, names = [], []
    for row, drawn in enumerate(rows_of(cells)):
        holes.append("".join("o" if c[3] != "rgb(255, 255, 255)" else "_" for c in drawn))
        names += [(c[2], f"{'abcdefg'[lefts.index(c[1])]}{row + 1}") for c in drawn]
    assert ".".join(holes) == text(phone, "#state-text")
    assert all(name == where for name, where in names), names
    fits_a_phone(phone)  # holes of 44 px at least (they were 42)
    phone.click("#hint")
    wait_text(phone, "#status", "^Hint")
    jump = re.search(r"peg on (\w\d) to (\w\d)", text(phone, "#status")).groups()
    outlined = phone.evaluate("""() => ['hinted', 'landing'].map((mark) =>
        [...document.querySelectorAll('#board .cell.' + mark)].map((e) =>
            e.textContent.replace('hint', '').trim()))""")
    assert outlined == [[jump[0]], [jump[1]]]
    assert phone.evaluate(IN_VIEW)


# ---- Klotski's letters are the notation's; its sequence follows the blocks -----------
def blocks_drawn(page) -> dict[str, list[int]]:
    """Each letter drawn on the Klotski board -> the cells (0-19) it is drawn on."""
    cells = [c for row in rows_of(page.evaluate(READ_CELLS)) for c in row]
    found: dict[str, list[int]] = {}
    for index, cell in enumerate(cells):
        if cell[2]:
            found.setdefault(cell[2], []).append(index)
    return found


def blocks_of(state: str) -> list[list[int]]:
    letters = state.replace(".", "")
    return sorted([i for i, ch in enumerate(letters) if ch == letter]
                  for letter in set(letters) - {"-"})


def test_klotski_blocks_are_drawn_as_written_and_the_sequence_marks_the_blocks_that_move(
        phone, server):
    open_game(phone, server, "klotski")
    before = blocks_drawn(phone)
    assert sorted(before.values()) == blocks_of(text(phone, "#state-text"))
    phone.tap('#board [aria-label="cell 14, block G"]')
    phone.tap('#board [aria-label="cell 18, empty"]')
    wait_text(phone, "#made", "^1$")
    after = blocks_drawn(phone)
    written = text(phone, "#state-text").replace(".", "")
    assert after == {letter: [i for i, at in enumerate(written) if at == letter]
                     for letter in set(written) - {"-"}}  # the notation's letters
    fits_a_phone(phone)
    # the numbered sequence: each block's mark is the first step that moves it
    phone.click("#sequence")
    wait_text(phone, "#status", "numbered")
    assert len(text(phone, "#status")) < 120, "the sequence's words fill the screen"
    game = shared_game(phone)
    path = api(server, "/api/play/klotski/path", state=game["state"], target="solved",
               metric=game["option.metric"])
    # each step's block followed by where it is: the one block whose cells change
    names = {tuple(cells): name for name, cells in after.items()}
    movers = []
    for move in path["moves"]:
        now = {tuple(cells) for cells in blocks_of(move["state"])}
        gone = [cells for cells in names if cells not in now]
        arrived = [cells for cells in now if cells not in names]
        assert len(gone) == len(arrived) == 1
        movers.append(names.pop(gone[0]))
        names[arrived[0]] = movers[-1]
    first_move = {name: movers.index(name) + 1 for name in set(movers)}
    marks = phone.evaluate("""() => [...document.querySelectorAll('#board .badge.step')]
        .map((b) => [b.parentElement.textContent.replace(b.textContent, '').trim(),
                     Number(b.textContent)])""")
    assert dict(marks) == first_move
    words = phone.eval_on_selector_all("#sequence-list li",
                                       "items => items.map((i) => i.textContent)")
    assert [re.match(r"move block (\w)", w)[1] for w in words] == movers
    # a hint's block is on the screen (the board runs below a phone's first screen)
    phone.click("#hint")
    wait_text(phone, "#status", "^Hint")
    assert phone.evaluate(IN_VIEW)


def test_the_cube_net_reads_as_its_notation_and_a_hinted_turn_is_in_view(phone, server):
    cube = registry.by_name("cube")
    variant = cube.variant("UUUU.RRRR.FFFF.DDDD.LLLL.BBBB", "solved", {"metric": "half"})
    turned = cube.moves(variant, Walking.of(cube).start_node(
        variant, cube.parse(variant, "UUUU.RRRR.FFFF.DDDD.LLLL.BBBB")))[0]
    state = cube.format(variant, turned.state)
    open_game(phone, server, "cube", state=state, target="solved", **{"option.metric": "half"})
    stickers = phone.evaluate("""() => [...document.querySelectorAll('#board .sticker')]
        .map((e) => [Math.round(e.getBoundingClientRect().top),
                     Math.round(e.getBoundingClientRect().left), e.textContent])""")
    tops, lefts = sorted({s[0] for s in stickers}), sorted({s[1] for s in stickers})
    at = {(tops.index(top), lefts.index(left)): letter for top, left, letter in stickers}
    net = {"U": (0, 2), "R": (2, 4), "F": (2, 2), "D": (4, 2), "L": (2, 0), "B": (2, 6)}
    read = ".".join("".join(at[(row + i // 2, col + i % 2)] for i in range(4))
                    for row, col in net.values())
    assert read == state
    assert text(phone, "#status") == "1 turn remains at best."
    fits_a_phone(phone)
    phone.click("#hint")
    wait_text(phone, "#status", "^Hint")
    assert text(phone, "#status").endswith("1 turn remains.")
    assert phone.evaluate(IN_VIEW)


# ---- nothing acts on a stale position -----------------------------------------------
def test_a_setting_typed_then_hint_deals_its_game_first(phone, server):
    """A custom target typed without Enter, then Hint: the hint is for the game that
    target asks for, with its par, and the hinted square can be clicked (a target
    refused: no hint, the refusal stays said); a ball colour count typed, then Hint: the
    board has that many colours."""
    open_game(phone, server, "tricolore", **{"set.size": "4x2"})
    phone.select_option("#setting-target", "custom")
    wait_text(phone, "#par", "needs \\d+")
    board = text(phone, "#state-text")
    phone.fill("#setting-custom", "WBXW.WBRB")  # refused: the hint is not given
    phone.click("#hint")
    wait_text(phone, "#status", "letter")
    phone.wait_for_timeout(300)
    assert "letter" in text(phone, "#status") and text(phone, "#state-text") == board
    phone.fill("#setting-custom", "WBWB.BWBW")
    phone.click("#hint")
    wait_text(phone, "#status", "^Hint")
    assert text(phone, "#target-text") == "WBWB.BWBW"
    assert re.search(r"needs \d+", text(phone, "#par"))
    hinted = phone.eval_on_selector_all("#board .cell.hinted", "cells => cells.map("
                                        "(c) => [c.className, c.dataset.row, c.dataset.col])")
    assert len(hinted) == 1 and "forbidden" not in hinted[0][0]
    phone.click(f'#board [data-row="{hinted[0][1]}"][data-col="{hinted[0][2]}"]')
    wait_text(phone, "#made", "^1$")
    assert "cannot" not in text(phone, "#status")
    open_game(phone, server, "balls")
    phone.fill("#setting-colours", "5")
    phone.click("#hint")
    wait_text(phone, "#status", "^Hint")
    assert len(set(text(phone, "#state-text")) - {"|"}) == 5
    assert re.search(r"needs \d+", text(phone, "#par"))


LATE_SEARCHES = """() => {
    // a position's own search answers 1.5 s late; window.searchesEnded counts the searches
    // ended (answered, once the page has acted on the answer, or abandoned)
    window.searchesEnded = 0;
    const real = window.fetch;
    window.fetch = async (...request) => {
        if (!String(request[0]).includes('search=true')) return real(...request);
        try {
            const answer = await real(...request);
            await new Promise((resolve) => setTimeout(resolve, 1500));
            return answer;
        } finally {
            setTimeout(() => { window.searchesEnded += 1; }, 0);
        }
    };
}"""


def test_a_hint_asked_during_a_deal_is_not_said_over_by_the_dealt_games_search(phone,
                                                                            server):
    """Hint asked while a typed setting's game is dealt: the dealt game's search for its
    fewest moves (here answering late) ends with the hint, as any search does at an
    action, and never says the position's words over the hint's."""
    open_game(phone, server, "balls")
    phone.evaluate(LATE_SEARCHES)
    phone.fill("#setting-colours", "5")
    phone.click("#hint")
    wait_text(phone, "#status", "^Hint")
    phone.wait_for_function("window.searchesEnded >= 1")
    said = text(phone, "#status")
    assert said.startswith("Hint") and "optimal: optimal" not in said, said
    assert phone.query_selector("#board .hinted")


def test_quick_taps_on_a_slow_connection_all_count_and_a_hint_waits_for_the_click(
        phone, server):
    open_game(phone, server, "lightsout", state="00000.00000.00000.00000.00000",
              target="00000.00000.00000.00000.00000")
    phone.evaluate(SLOW_POSITIONS)
    phone.tap('#board [data-row="0"][data-col="0"]')
    phone.tap('#board [data-row="4"][data-col="4"]')
    wait_text(phone, "#made", "^2$")
    wait_text(phone, "#status", "remain")
    assert text(phone, "#state-text") == "11000.10000.00000.00001.00011"
    assert page_lit(phone) == "11000.10000.00000.00001.00011"
    open_game(phone, server, "tricolore", state="RWBR.RWRB", target="RRRR.RRRR",
              **{"option.method": "unrestricted"})
    phone.evaluate(SLOW_POSITIONS)
    phone.click('#board [data-row="0"][data-col="1"]')
    phone.click("#hint")
    wait_text(phone, "#status", "^Hint")
    forbidden = phone.eval_on_selector_all("#board .cell.forbidden",
                                           "cells => cells.map((c) => c.dataset.col)")
    assert forbidden == ["1"]  # the square just clicked
    assert "square 2;" not in text(phone, "#status")


def page_lit(page) -> str:
    return ".".join("".join("1" if c[2] == "on" else "0" for c in row)
                    for row in rows_of(page.evaluate(READ_CELLS)))


# ---- hints, messages and history -----------------------------------------------------
def test_a_4x4_custom_target_hints_by_the_exact_search_when_it_is_fast(phone, server):
    """No table for this target: the exact search answers at once, so it is the hints'
    default, and the 'Hints from' box and the typed target are whole on a phone."""
    target = "RWBR.WBRW.BRWB.RWBW"
    par = open_game(phone, server, "tricolore", state="WBWW.WBRB.RRRR.BWRB", target=target,
                    **{"option.method": "unrestricted", "set.size": "4x4",
                       "set.target": "custom", "set.custom": target})
    assert phone.input_value("#guide") == "exact"
    assert "seconds" not in text(phone, "#status")
    phone.click("#hint")
    wait_text(phone, "#status", "^Hint")
    assert text(phone, "#status").endswith(f"{par} clicks remain.")
    whole = phone.evaluate("""() => {
        const select = document.querySelector('#guide');
        const words = document.createElement('span');
        words.style.font = getComputedStyle(select).font;
        words.textContent = [...select.options].reduce((a, o) => o.text.length > a.length
                                                       ? o.text : a, '');
        document.body.appendChild(words);
        const wide = words.getBoundingClientRect().width;
        words.remove();
        const input = document.querySelector('#setting-custom');
        return [select.getBoundingClientRect().right <= innerWidth,
                wide + 16 <= select.getBoundingClientRect().width,
                input.scrollWidth <= input.clientWidth];
    }""")
    assert whole == [True, True, True]


def test_no_message_contradicts_the_board(phone, server):
    """At the target, no move is said to keep the optimum; Spot Colour shows no par of
    the puzzle before and a reload keeps its discs placed."""
    par = open_game(phone, server, "tricolore", state="RRBB.RRBB", target="RRRR.RRRR",
                    **{"option.method": "unrestricted"})
    assert par == 1
    phone.click("#step")
    wait_text(phone, "#status", "Target reached")
    phone.click("#values")
    wait_text(phone, "#status", "every move leads away")
    badges = phone.eval_on_selector_all("#board .badge", "b => b.map((e) => e.textContent)")
    assert badges and not any("✓" in badge for badge in badges)
    phone.click("#puzzles button[data-puzzle='spots']")
    phone.wait_for_selector("#spots-check")
    assert text(phone, "#par") == ""
    phone.select_option("#spots-centre", "3")
    phone.select_option("#spots-at-2", "1")
    phone.wait_for_function("() => location.hash.includes('context=3')")
    phone.reload()
    phone.wait_for_selector("#spots-check")
    assert phone.input_value("#spots-centre") == "3" and phone.input_value("#spots-at-2") == "1"


def test_stop_abandons_a_long_deal_and_keeps_the_game_and_its_settings(phone, server):
    par = open_game(phone, server, "balls")
    board = text(phone, "#state-text")
    held = []  # a deal that takes long: its request is held
    phone.route(re.compile(r".*/api/balls/random.*"), lambda route: held.append(route))
    phone.fill("#setting-colours", "14")
    phone.click("#new")
    wait_text(phone, "#status", "^Dealing…")
    # Stop while the deal's request is in flight: the route holds it once the page sends
    # it (Playwright calls the route while the test waits on the page)
    wait_for(lambda: bool(held), "the deal's request, held",
             pause=lambda: phone.wait_for_timeout(20))
    assert text(phone, "#par") == "" and phone.is_enabled("#stop")
    phone.click("#stop")
    assert text(phone, "#status") == "Stopped: the game on the board stands."
    assert text(phone, "#state-text") == board and f"needs {par} " in text(phone, "#par")
    assert phone.input_value("#setting-colours") == str(len(set(board) - {"|"}))
    phone.unroute(re.compile(r".*/api/balls/random.*"))
    assert held and phone.is_disabled("#stop")


def test_back_after_typing_an_address_returns_to_the_puzzle_before(phone, server):
    open_game(phone, server, "tricolore")
    phone.evaluate("location.hash = 'puzzle=hanoi'")  # as typed in the address bar
    wait_text(phone, "#game-title", "Hanoi")
    wait_text(phone, "#par", "needs")
    phone.go_back()
    wait_text(phone, "#game-title", "Tricolore")
    assert shared_game(phone)["puzzle"] == "tricolore"
    assert made(phone) == 0


# ---- the 15-puzzle, answered by search ------------------------------------------------
SLIDING = registry.by_name("sliding")
FIFTEEN = (4, 4)
FIFTEEN_GOAL = "1,2,3,4.5,6,7,8.9,10,11,12.13,14,15,0"
DEALT_AT_MOST = 50
"""The renderer deals the 4x4 board this many slides from the goal at most."""
KORF_3 = "14,7,8,2.13,11,10,4.9,12,5,0.3,6,1,15"
"""Korf's instance 3 (59 moves): a search long enough to watch."""

SEEN_SEARCHING = """() => {
    // every progress line shown under the status, and the bar's range, kept as they come
    window.seenSearching = [];
    new MutationObserver(() => {
        const box = document.querySelector('#search-box');
        if (!box.hidden) window.seenSearching.push([
            document.querySelector('#search-words').textContent,
            document.querySelector('#search-progress').max]);
    }).observe(document.querySelector('#search-words'), {childList: true, subtree: true,
                                                         characterData: true});
}"""


def fifteen_drawn(page) -> str:
    """The 4x4 board read from the screen, in the notation (a row's numbers joined by
    ',', the blank 0)."""
    return ".".join(",".join(cell[2] or "0" for cell in row)
                    for row in rows_of(page.evaluate(READ_CELLS)))


PROVED_HOW = (r"(IDA\* on pattern databases|a beam search on pattern databases; IDA\* on "
              r"pattern databases finds none shorter)")
"""How a 15-puzzle's proved answer was found: by the exact search, or by the quick path
the exact search proved none shorter than."""


def dealt_fifteen_puzzle(page, server) -> int:
    """A 4x4 deal opened with the page's long searches held until its first answer is on
    the page, so that the par comes at once: proved by that answer, or first the quick
    path's bounds, not yet proved, then the par the search proves, between them."""
    from tests.test_page_cube_answer import hold_long_searches, release

    held = hold_long_searches(page, "sliding")
    try:
        page.goto("about:blank")
        page.goto(f"{server}/#" + urlencode({"puzzle": "sliding", "set.board": "4x4"}))
        wait_text(page, "#par", r"needs \d+|^Par: not yet proved optimal")
        quick = re.fullmatch(r"Par: not yet proved optimal \(at most (\d+) moves, at least "
                             r"(\d+)\)\.", text(page, "#par"))
        if quick:
            most, least = map(int, quick.groups())
            assert text(page, "#status").startswith(
                f"Not yet proved optimal (at most {most} moves, at least {least}): a beam "
                "search on pattern databases answered at once")
            release(page, held)
            wait_text(page, "#par", r"needs \d+")
        par = int(re.search(r"needs (\d+)", text(page, "#par")).group(1))
        assert not quick or least <= par <= most
        return par
    finally:
        page.unroute_all(behavior="ignoreErrors")


def plays_a_dealt_fifteen_puzzle(page, server) -> None:
    """A 4x4 deal: drawn as its notation says, its par answered best so far then proved
    (and said so), a hint whose move is legal, outlined on its tile and one move nearer
    by the search, move values that mark the same tile, tap targets a finger can hit, no
    axe violation."""
    par = dealt_fifteen_puzzle(page, server)
    state = text(page, "#state-text")
    assert fifteen_drawn(page) == state and text(page, "#target-text") == FIFTEEN_GOAL
    assert 0 < par <= DEALT_AT_MOST
    assert re.match(f"{par} moves remain at best, found by an exact search \\({PROVED_HOW}\\)",
                    text(page, "#status")), text(page, "#status")
    page.click("#hint")
    wait_text(page, "#status", "^Hint")
    hint = text(page, "#status")
    assert re.match(f"Hint \\({PROVED_HOW}: optimal\\): slide tile ", hint), hint
    assert hint.endswith(f"; {par} moves remain.")
    tile, way = re.search(r"slide tile (\d+) (\w+);", hint).groups()
    here = SLIDING.parse(FIFTEEN, state)
    after = next(move.state for move in SLIDING.moves(FIFTEEN, here)
                 if move.label == f"{tile} {way}")  # one of the rules' moves
    outlined = page.eval_on_selector_all(
        "#board .cell.hinted", "cells => cells.map((c) => c.firstChild.textContent)")
    assert outlined == [tile]
    nearer = api(server, "/api/play/sliding/position", state=SLIDING.format(FIFTEEN, after))
    assert (nearer["answered_by"], nearer["distance"]) == ("search", par - 1)
    page.click("#values")
    wait_text(page, "#status", "optimum")
    kept = page.eval_on_selector_all(
        "#board .cell", "cells => cells.filter((c) => c.querySelector('.badge.good'))"
                        ".map((c) => c.firstChild.textContent)")
    assert tile in kept
    smallest = page.evaluate("""() => Math.min(...[...document.querySelectorAll(
        '#board button, .controls button, .controls select')].filter((e) =>
        e.offsetParent !== null).map((e) => {
            const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); }))""")
    assert smallest >= 44
    violations = axe_findings(page)["violations"]
    assert not [v["id"] for v in violations if v["impact"] in ("serious", "critical")]


def test_the_fifteen_puzzle_on_a_phone_is_drawn_hinted_and_valued_by_the_search(phone,
                                                                                 server):
    plays_a_dealt_fifteen_puzzle(phone, server)
    fits_a_phone(phone)  # two-digit tiles in 44 px cells at least, nothing sideways
    assert phone.evaluate("""() => [...document.querySelectorAll('#board .cell span')]
        .every((face) => face.scrollWidth <= face.parentElement.clientWidth)""")


def test_the_fifteen_puzzle_on_a_desktop_is_drawn_hinted_and_valued_by_the_search(
        browser, server):
    from tests.test_web_app import WIDE

    context = browser.new_context(viewport=WIDE)
    try:
        plays_a_dealt_fifteen_puzzle(context.new_page(), server)
    finally:
        context.close()


def test_a_long_search_shows_its_bound_and_later_positions_say_how_they_are_answered(
        phone, server):
    """A shared 4x4 position far from its target: while its par is searched, a bar and
    the bound being searched show under the status.  After a move the position is
    searched again, or, where the par's search took over a second (as it does here but
    on a fast machine), not after every move, which the status says in words: never
    the missing table's message."""
    phone.goto("about:blank")
    phone.goto(f"{server}/#" + urlencode({"puzzle": "sliding", "state": KORF_3,
                                          "target": "0,1,2,3.4,5,6,7.8,9,10,11.12,13,14,15",
                                          "set.board": "4x4"}))
    phone.wait_for_selector("#search-words", state="attached")
    phone.evaluate(SEEN_SEARCHING)
    wait_text(phone, "#par", "needs \\d+")
    assert "needs 59 moves" in text(phone, "#par") and phone.is_hidden("#search-box")
    seen = phone.evaluate("window.seenSearching")
    assert any(re.match(r"Searching: bound \d+ moves, [\d,]+ nodes searched; ", words)
               for words, _ in seen), seen
    assert {limit for _, limit in seen} == {15}
    phone.tap('#board [aria-label="tile 4"]')  # beside the blank
    wait_text(phone, "#made", "^1$")
    wait_text(phone, "#status", "not worked out after every move|^(58|60) moves remain at best, "
              "found by an exact search \\(IDA\\* on pattern databases\\)")
    assert "make tables" not in text(phone, "#status")
