"""The rules module against the document and against the tests' own reference rules."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzles.tricolore import METHODS, NO_CLICK, BoardError, MethodError, Tricolore
from tests import reference

HALF = Tricolore(4, 2)
boards_4x2 = st.integers(0, HALF.n_boards - 1)


def test_appendix_a_first_click_advances_the_diagonal_neighbour():
    assert HALF.format(HALF.click(HALF.parse("RRRB.BRWR"), 4)) == "WWRB.RWWR"


def test_appendix_a_top_half_replays(figures):
    top = figures["tricolore_4x4"]["appendix_a"]["top_half"]
    board = HALF.parse(top["boards"][0])
    for square, expected in zip(top["clicks"], top["boards"][1:]):
        board = HALF.click(board, square)
        assert HALF.format(board) == expected


def test_appendix_a_bottom_half_replays_under_hybrid(figures):
    bottom = figures["tricolore_4x4"]["appendix_a"]["bottom_half"]
    boards = reference.replay(bottom["boards"][0], bottom["clicks"], "hybrid", 4, 2)
    assert boards == bottom["boards"]


@given(boards_4x2)
def test_parse_and_format_round_trip(rank):
    assert HALF.parse(HALF.format(rank)) == rank


def test_ranks_sort_like_the_notation():
    names = list(HALF.format_many(HALF.all_boards()))
    translated = [n.translate(str.maketrans("RWB", "abc")) for n in names]
    assert translated == sorted(translated)


@given(boards_4x2, st.integers(0, 7))
def test_click_matches_the_reference_rules(rank, square):
    text = HALF.format(rank)
    expected = reference.show(reference.click(reference.parse(text), square, 4, 2), 4)
    assert HALF.format(HALF.click(rank, square)) == expected
    assert HALF.format(HALF.click_one(rank, square)) == expected


@pytest.mark.parametrize("method", METHODS)
def test_legal_moves_match_the_successor_table(method):
    table = HALF.successor_table(method)
    rng = np.random.default_rng(7)
    for rank in rng.integers(0, HALF.n_boards, 300):
        expected = [(s, int(b)) for s, b in enumerate(table[rank]) if b >= 0]
        assert sorted(HALF.legal_moves(int(rank), NO_CLICK, method)) == expected
        last = int(rng.integers(0, 8))
        assert sorted(HALF.legal_moves(int(rank), last, method)) == [
            m for m in expected if m[0] != last
        ]


@given(boards_4x2, st.sampled_from(METHODS))
def test_allowed_clicks_match_the_reference(rank, method):
    board = reference.parse(HALF.format(rank))
    allowed = HALF.allowed_clicks(np.array([rank]), method)[0]
    assert list(allowed) == [reference.may_click(board, s, method, 4, 2) for s in range(8)]


def test_hybrid_allows_red_top_squares_only():
    moves = dict(HALF.legal_moves(HALF.parse("RWBR.WWWW"), NO_CLICK, "hybrid"))
    assert sorted(moves) == [0, 3, 4, 5, 6, 7]


def test_no_click_ever_leaves_the_clicked_square_blue():
    boards = HALF.all_boards()
    for square in range(8):
        assert (HALF.colours(HALF.click(boards, square))[:, square] != 2).all()


@pytest.mark.parametrize("method", METHODS)
def test_symmetries_are_permutations(method):
    for perm in HALF.symmetries(method).values():
        assert sorted(perm) == list(range(8))


def test_square_boards_have_eight_symmetries():
    square = Tricolore(3, 3)
    perms = square.symmetries("unrestricted")
    assert len({tuple(p) for p in perms.values()}) == 8
    # every symmetry maps neighbours to neighbours
    for perm in perms.values():
        for s, around in enumerate(square.neighbours):
            assert {int(perm[a]) for a in around} == set(square.neighbours[int(perm[s])])


def test_mirror_classes_are_3321():
    assert int(HALF.mirror_canonical(HALF.all_boards()).sum()) == 3321


@pytest.mark.parametrize(
    "text", ["WBW.WBRB", "WBWW", "WBWW.WBRB.RRRR", "WBXW.WBRB", "", "WBWW.WBR1"]
)
def test_malformed_boards_are_refused(text):
    with pytest.raises(BoardError):
        HALF.parse(text)


def test_lowercase_boards_are_accepted():
    assert HALF.parse("wbww.wbrb") == HALF.parse("WBWW.WBRB")


def test_unknown_method_is_refused():
    with pytest.raises(MethodError):
        HALF.allowed_clicks(np.array([0]), "diagonal")
