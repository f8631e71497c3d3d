"""The page played by sight, on a phone (390x844, touch): what each board draws is what
its position's notation says (a tube's top ball is the one a move takes, Klotski's blocks
keep their letters), every board fits the screen with tap targets a finger can hit and
the hinted piece in view, taps and hints wait for the position they act on, and no
message shows a state code or contradicts the board.

One phone page serves the module's tests (a test opens its games on it), so that they
cost a page load each, not a browser."""

from __future__ import annotations

import re

import pytest

from tests.test_web_app import PHONE, open_game, text, wait_text

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


@pytest.fixture(scope="module")
def phone(browser):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
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
    before = drawn_tubes(phone)
    assert "|".join(before) == text(phone, "#state-text") == "grrg|rrbb|bggb|"
    fits_a_phone(phone)
    phone.tap('#board .tube[data-col="1"]')
    phone.tap('#board .tube[data-col="3"]')
    wait_text(phone, "#made", "^1$")
    after = drawn_tubes(phone)
    assert after[3] == before[1][0] and after[1] == before[1][1:]
    assert "|".join(after) == text(phone, "#state-text")


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


def test_peg_holes_carry_their_names_and_a_hint_outlines_both_ends_of_the_jump(phone,
                                                                             server):
    open_game(phone, server, "pegs")
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
