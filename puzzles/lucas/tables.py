"""Lucas' tables: the classic rule's (``lucas/forward``, the engine's generic kernel over
``dense_rank``) and the document's (``lucas/tables``, the level search of ``levels.py``),
the size check before a build, the catalog's ``lucas_summary``, and `builder verify`'s
sample check."""

from __future__ import annotations

from math import comb

import numpy as np

from builder.contract.puzzle import Table
from builder.contract.specs import BreadthFirstSearch
from puzzles.lucas.rules import (
    FORWARD,
    Lucas,
    LucasError,
    dense_rank,
)


def forward_search(rules: Lucas, target: int) -> BreadthFirstSearch:
    from puzzles.lucas.search import classic_moves, lucas_steps

    # neighbours: the arrangements one classic move before (moves undone); moves: after
    return BreadthFirstSearch((2 * rules.n + 1) * comb(2 * rules.n, rules.n),
                              (dense_rank(rules, target),), lucas_steps, 4,
                              parameters=(rules.n, -1), moves=classic_moves)


DOCUMENT_MAX_N = 10
"""`make tables` searches n = 1 .. 10 (3.9 million arrangements at n = 10)."""
BYTES_PER_STATE = 80
"""The document search's arrays per arrangement: code, distance, path count, jump bounds,
and the temporaries of one level's four moves."""
MEMORY_BUDGET = 4 * 2**30

VIEWS = """
CREATE VIEW lucas_summary AS
SELECT n, states, reachable_states, moves,
       CASE WHEN fewest_jumps = most_jumps THEN fewest_jumps END AS jumps,
       CASE WHEN fewest_jumps = most_jumps THEN moves - fewest_jumps END AS shifts,
       optimal_solutions
FROM lucas_runs ORDER BY n;
"""


MAX_N_SHOWN = 100
"""Past this, --max-n is refused before its arrangements are counted."""


def check_size(max_n: int) -> None:
    """Refuse, with the numbers, a document table that is empty or would not fit."""
    if max_n < 1:
        raise LucasError(f"--max-n {max_n}: at least 1 (n = 1 .. max-n are searched)")
    if max_n > MAX_N_SHOWN:  # the count below would overflow a float before the budget says no
        raise LucasError(f"--max-n {max_n}: n = {max_n} has more than 10^{MAX_N_SHOWN // 2} "
                         f"arrangements, far over the {MEMORY_BUDGET / 2**30:.0f} GiB budget "
                         "(n <= 11 fits)")
    largest = (2 * max_n + 1) * comb(2 * max_n, max_n)
    needed = largest * BYTES_PER_STATE
    if needed > MEMORY_BUDGET:
        raise LucasError(f"--max-n {max_n}: n = {max_n} has {largest:,.4g} arrangements and "
                         f"needs about {needed / 2**30:,.4g} GiB, over the "
                         f"{MEMORY_BUDGET / 2**30:.0f} GiB budget (n <= 11 fits)")


def document_arrays(max_n: int, progress: bool) -> tuple[dict, dict]:
    """Every arrangement of n = 1 .. max_n searched from the standard start and from the
    goal; the summary (moves, jumps, shifts, optimal solutions) comes from the search."""
    from tqdm import tqdm

    from puzzles.lucas.levels import lucas_search

    arrays, summary = {}, []
    for n in tqdm(range(1, max_n + 1), desc="lucas n", unit="n", disable=not progress):
        rules = Lucas(n)
        start, goal = rules.parse(rules.start), rules.parse(rules.goal)
        from_start, paths, fewest, most = lucas_search(rules, start)
        to_goal = lucas_search(rules, goal)[0]
        goal_rank = int(rules.rank(np.array([goal]))[0])
        moves = int(from_start[goal_rank])
        summary.append({
            "n": n, "states": len(rules.codes),
            "reachable_states": int((from_start >= 0).sum()), "moves": moves,
            "fewest_jumps": int(fewest[goal_rank]), "most_jumps": int(most[goal_rank]),
            "optimal_solutions": int(paths[goal_rank]),
            "shifts": moves - int(fewest[goal_rank]),
        })
        arrays.update({f"n{n}_codes": rules.codes, f"n{n}_from_start": from_start,
                       f"n{n}_to_goal": to_goal})
    return arrays, {"summary": summary}


def document_table(max_n: int) -> Table:
    check_size(max_n)
    return Table("lucas", "tables", {"max_n": max_n},
                 make=lambda progress: document_arrays(max_n, progress),
                 distances={f"n{n}_to_goal": (f"n={n}", "to goal")
                            for n in range(1, max_n + 1)},
                 about="per n: codes (sorted state codes = ranking; code = gap * 2**cells + "
                       "mask of A cells), from_start / to_goal: moves from the standard "
                       "start / to the inverted goal, -1 = unreachable")


DENSE_RANK = "rank = gap * C(2n, n) + colex rank of the A cells among the non-gap cells"
"""How the classic rule's tables rank an arrangement (the engine adds what "never" is)."""


def verify_sample(attributes: dict, read, samples: int, rng) -> str | None:
    if attributes.get("rule") == FORWARD:
        return None
    drawn = rng.integers(1, attributes["max_n"] + 1, samples)
    for n in np.unique(drawn):
        rules = Lucas(int(n))
        codes = read(f"n{n}_codes")
        if not np.array_equal(codes, rules.codes):
            return f"n{n}_codes: not every arrangement in ascending order"
        arrays = {"from_start": (read(f"n{n}_from_start"), rules.parse(rules.start)),
                  "to_goal": (read(f"n{n}_to_goal"), rules.parse(rules.goal))}
        for name, (moves, source) in arrays.items():  # whole: a shifted forgery keeps
            if np.flatnonzero(moves == 0).tolist() != [  # the recurrence elsewhere
                    int(np.searchsorted(codes, source))]:
                return f"n{n}_{name}: 0 moves is not exactly at {rules.format(source)}"
        for index in rng.integers(0, len(codes), int((drawn == n).sum())):
            name = "from_start" if rng.integers(2) else "to_goal"
            moves, source = arrays[name]
            after = [int(moves[rules.rank(following[legal])[0]])
                     for following, legal, _, _ in rules.moves(codes[[index]])
                     if legal[0]]
            reachable = [value for value in after if value >= 0]
            expected = (0 if codes[index] == source else
                        min(reachable) + 1 if reachable else -1)
            if int(moves[index]) != expected:
                return (f"n{n}_{name}: {rules.format(int(codes[index]))} holds "
                        f"{int(moves[index])}, the recurrence gives {expected}")
    return None
