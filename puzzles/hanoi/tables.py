"""The Tower of Hanoi's tables as data: one per number of pegs, an array per number of
discs towards all discs on the last peg, and a table towards any one position, searched
by the engine's breadth-first kernel over ``search.hanoi_moves``."""

from __future__ import annotations

from builder.contract.base import DistanceArray
from builder.contract.errors import shown
from builder.contract.specs import BreadthFirstSearch, TableSpec
from puzzles.hanoi.rules import MAX_DISCS, PEG_LETTERS, HanoiError, rank
from puzzles.hanoi.search import hanoi_moves


def search(pegs: int, discs: int, target: int) -> BreadthFirstSearch:
    # three pegs: 2**n - 1 moves between corners, past a byte from 8 discs on
    return BreadthFirstSearch(pegs**discs, (target,), hanoi_moves, pegs * (pegs - 1),
                              parameters=(pegs, discs), wide=pegs == 3)


def _check_pegs(pegs) -> None:
    if pegs not in (3, 4):
        raise HanoiError(f"{shown(str(pegs))} pegs: 3 or 4")


def towards_last_peg(pegs: int, top: int = MAX_DISCS) -> TableSpec:
    """``hanoi/{pegs}pegs``: array ``n{discs}`` for 1 to ``top`` discs."""
    _check_pegs(pegs)
    if not 1 <= top <= MAX_DISCS:
        raise HanoiError(f"{top} discs: from 1 to {MAX_DISCS}")
    last = PEG_LETTERS[pegs - 1]
    return TableSpec(
        ("hanoi", f"{pegs}pegs"),
        {"puzzle": "hanoi", "pegs": pegs, "max_discs": top},
        {f"n{discs}": search(pegs, discs, rank(pegs, last * discs))
         for discs in range(1, top + 1)},
        encoding=f"n{{discs}}[position]: fewest moves to all discs on peg {last}; "
                 f"position = sum(peg of disc d * {pegs}**d), disc 0 the smallest")


def towards(pegs: int, discs: int, goal: str) -> TableSpec:
    """``hanoi/{pegs}pegs/{goal}``: array ``moves`` towards one position."""
    _check_pegs(pegs)
    return TableSpec(
        ("hanoi", f"{pegs}pegs", goal),
        {"puzzle": "hanoi", "pegs": pegs, "discs": discs, "target": goal},
        {"moves": search(pegs, discs, rank(pegs, goal))},
        encoding=f"moves[position]: fewest moves to {goal}; position = sum(peg of "
                 f"disc d * {pegs}**d), disc 0 the smallest")


def distance_arrays(attributes: dict) -> list[DistanceArray]:
    """The catalog's view of a stored table's arrays."""
    pegs = attributes["pegs"]
    if "target" in attributes:
        return [DistanceArray(f"{pegs} pegs, {attributes['discs']} discs",
                              f"to {attributes['target']}", "moves")]
    last = PEG_LETTERS[pegs - 1]
    return [DistanceArray(f"{pegs} pegs, {discs} disc{'s' if discs > 1 else ''}",
                          f"to {last * discs}", f"n{discs}")
            for discs in range(1, attributes["max_discs"] + 1)]
