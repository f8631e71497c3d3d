"""Lucas' classic rule as the engine's generic kernel calls it (plain Python the engine
compiles), over the dense ranking of ``rules.rank_of_code``: the moves themselves are
``rules.piece_moved``, the one statement of them.
Parameters: (n, direction): +1 the classic rule's moves (A right, B left), -1 those
moves undone (A left, B right: the positions one classic move before), 0 any piece either
way (the document's table's rule)."""

from __future__ import annotations

import numpy as np

from puzzles.lucas.rules import OFFSETS, code_of_rank, piece_moved, rank_of_code


def lucas_steps(position, parameters, out):
    n = parameters[0]
    direction = parameters[1]
    cells = 2 * n + 1
    code = code_of_rank(position, n)
    count = 0
    for offset in OFFSETS:
        following, legal, is_a = piece_moved(code, offset, cells)
        if not legal:
            continue
        forward = (offset < 0) == (is_a == 1)  # an A from the gap's left moves right
        if direction == 1 and not forward or direction == -1 and forward:
            continue
        out[count] = rank_of_code(following, n)
        count += 1
    return count


def classic_moves(position, parameters, out):
    """The classic rule's moves themselves (direction +1), whatever ``parameters`` says
    about direction: `builder verify` checks the recurrence over them."""
    forward = np.empty(2, np.int64)
    forward[0] = parameters[0]
    forward[1] = 1
    return lucas_steps(position, forward, out)
