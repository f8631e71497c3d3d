"""Slow, obviously correct implementations used only by the tests.

Written from the document's rules, independently of builder/: boards are lists
of letters, clicks are applied square by square, searches are plain queues.
"""

from __future__ import annotations

from collections import deque
from functools import cache
from itertools import product

ADVANCE = {"R": "W", "W": "B", "B": "R"}


def plain_distances(source, moves) -> dict:
    """Fewest moves from ``source`` to every position ``moves`` reaches, by a plain queue
    over a dict: ``moves(position)`` lists the positions one move on.  Searching with the
    moves undone gives the fewest moves *to* ``source``."""
    return nearest_distances([source], moves)


def nearest_distances(sources, moves) -> dict:
    """``plain_distances`` from the nearest of several ``sources`` (say every goal)."""
    distance = dict.fromkeys(sources, 0)
    queue = deque(distance)
    while queue:
        here = queue.popleft()
        for there in moves(here):
            if there not in distance:
                distance[there] = distance[here] + 1
                queue.append(there)
    return distance


def parse(text: str) -> list[str]:
    return list(text.replace(".", ""))


def show(board: list[str], width: int) -> str:
    rows = ["".join(board[i : i + width]) for i in range(0, len(board), width)]
    return ".".join(rows)


def neighbours(square: int, width: int, height: int) -> list[int]:
    row, col = divmod(square, width)
    return [
        r * width + c
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if (r, c) != (row, col) and 0 <= r < height and 0 <= c < width
    ]


def click(board: list[str], square: int, width: int, height: int) -> list[str]:
    """R: the square alone advances; W: its neighbours; B: itself and its neighbours."""
    colour = board[square]
    advancing = []
    if colour in "RB":
        advancing.append(square)
    if colour in "WB":
        advancing += neighbours(square, width, height)
    result = list(board)
    for s in advancing:
        result[s] = ADVANCE[result[s]]
    return result


@cache
def clicked(board: tuple[str, ...], square: int, width: int, height: int) -> tuple[str, ...]:
    """``click`` on a board held as a tuple, remembered: a plain search meets each board
    once per last click, and the click's result does not depend on it."""
    return tuple(click(list(board), square, width, height))


@cache
def shown(board: tuple[str, ...], width: int) -> str:
    return show(list(board), width)


def may_click(board: list[str], square: int, method: str, width: int, height: int) -> bool:
    row = square // width
    if method == "unrestricted":
        return True
    if row == height - 1:
        return True
    return method == "hybrid" and row == height - 2 and board[square] == "R"


def in_space(board: list[str], method: str, width: int) -> bool:
    return method == "unrestricted" or set(board[-width:]) != {"B"}


@cache
def legal_clicks(board: tuple[str, ...], method: str, width: int, height: int
                 ) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """(square, board after) of every click ``method`` allows on ``board`` that stays in
    its space, whatever the last click was (a search meets a board once per last click:
    the rules are applied once per board)."""
    found = []
    for square in range(width * height):
        if may_click(board, square, method, width, height):
            after = clicked(board, square, width, height)
            if in_space(after, method, width):
                found.append((square, after))
    return tuple(found)


def distances_from(start: str, method: str, width: int, height: int) -> dict[str, int]:
    """Minimum clicks (>= 1) from start to every reachable board, by a plain forward
    BFS over (board, last clicked square) nodes."""
    first = (tuple(parse(start)), None)
    seen = {first: 0}
    queue = deque([first])
    best: dict[str, int] = {}
    while queue:
        node = queue.popleft()
        board, last = node
        for square, after in legal_clicks(board, method, width, height):
            if square == last:
                continue
            following = (after, square)
            if following not in seen:
                seen[following] = seen[node] + 1
                queue.append(following)
                best.setdefault(shown(after, width), seen[following])
    return best


def replay(start: str, clicks: list[int], method: str, width: int, height: int) -> list[str]:
    """The boards of a click sequence, checking every rule on the way."""
    board = parse(start)
    boards = [show(board, width)]
    last = None
    for square in clicks:
        assert square != last, f"square {square} clicked twice in succession"
        assert may_click(board, square, method, width, height), f"{method} forbids {square}"
        board = click(board, square, width, height)
        assert in_space(board, method, width), f"{show(board, width)} is outside {method}"
        boards.append(show(board, width))
        last = square
    return boards


def shortest_clicks(start: str, target: str, width: int, height: int, max_depth: int) -> int | None:
    """Minimum clicks (>= 1) from start to target by a plain forward BFS, or None if the
    target is farther than max_depth (unrestricted clicks)."""
    goal = tuple(parse(target))
    frontier = [(tuple(parse(start)), None)]
    seen = set(frontier)
    for depth in range(1, max_depth + 1):
        following = []
        for board, last in frontier:
            for square in range(width * height):
                if square == last:
                    continue
                after = clicked(board, square, width, height)
                if after == goal:
                    return depth
                node = (after, square)
                if node not in seen:
                    seen.add(node)
                    following.append(node)
        frontier = following
    return None


def distances_to(target: str, width: int, height: int) -> dict[str, int]:
    """Minimum clicks (>= 1) from every board to target, by a plain backward BFS over
    (board, last click) nodes, with the clicks reversed explicitly (small boards only):
    node (after, square) is reached from (board, last) for every board that clicking
    ``square`` turns into ``after`` and every last click but ``square``."""
    from itertools import product

    n = width * height
    boards_before: dict[tuple, list[tuple]] = {}
    for board in product("RWB", repeat=n):
        for square in range(n):
            boards_before.setdefault((clicked(board, square, width, height), square),
                                     []).append(board)
    goal = tuple(parse(target))
    distance = {(goal, square): 0 for square in range(n)}
    queue = deque(distance)
    while queue:
        node = queue.popleft()
        square = node[1]
        for board in boards_before.get(node, ()):
            for last in (None, *range(n)):
                before = (board, last)
                if last != square and before not in distance:
                    distance[before] = distance[node] + 1
                    queue.append(before)
    return {show(list(board), width): d for (board, last), d in distance.items() if last is None}


def spot_solutions(discs: dict[str, list[str]]) -> set[tuple]:
    """Every (centre, satellites by centre colour) of a Spot Colour set by trying every
    centre and every ordering of the other six discs (the document's constraints)."""
    from itertools import permutations

    def beside(spots, colour):
        i = spots.index(colour)
        return spots[i - 1], spots[(i + 1) % 6]  # (l, r) clockwise

    found = set()
    for centre, centre_spots in discs.items():
        others = [d for d in discs if d != centre]
        for order in permutations(others):
            ends = [beside(discs[d], c) for d, c in zip(order, centre_spots)]
            if all(ends[(k + 1) % 6][1] == ends[k][0] for k in range(6)):
                found.add((centre, tuple(sorted(zip(centre_spots, order)))))
    return found


def lucas_moves(arrangement: str) -> list[tuple[str, str, str]]:
    """(next arrangement, agent, move type) for every legal move, from the document's rules:
    a piece next to the gap shifts into it; a piece jumps over exactly one piece of the
    other colour into the gap."""
    gap = arrangement.index("_")
    found = []
    for source in (gap - 2, gap - 1, gap + 1, gap + 2):
        if not 0 <= source < len(arrangement):
            continue
        piece = arrangement[source]
        if abs(source - gap) == 2 and arrangement[(source + gap) // 2] == piece:
            continue
        cells = list(arrangement)
        cells[gap], cells[source] = piece, "_"
        found.append(("".join(cells), piece, "shift" if abs(source - gap) == 1 else "jump"))
    return found


def lucas_classic_moves(arrangement: str) -> list[str]:
    """The arrangements one move of the classic rule on: of ``lucas_moves``, those where
    an A moves right or a B left (the gap moves the other way)."""
    gap = arrangement.index("_")
    return [following for following, piece, _ in lucas_moves(arrangement)
            if (following.index("_") < gap) == (piece == "A")]


def lucas_shortest(start: str, goal: str) -> tuple[int, int]:
    """(fewest moves, number of shortest move sequences) by a plain BFS."""
    distance, ways = {start: 0}, {start: 1}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        for following, _, _ in lucas_moves(current):
            if following not in distance:
                distance[following] = distance[current] + 1
                ways[following] = 0
                queue.append(following)
            if distance[following] == distance[current] + 1:
                ways[following] += ways[current]
    return distance[goal], ways[goal]


def ball_moves(state: str, capacity: int) -> list[tuple[int, int, str]]:
    """Legal moves of a ball-tube state written as the document does (tubes top first)."""
    tubes = state.split("|")
    found = []
    for source, balls in enumerate(tubes):
        if not balls:
            continue
        for target, others in enumerate(tubes):
            if target == source or len(others) >= capacity:
                continue
            if others and others[0] != balls[0]:
                continue
            moved = list(tubes)
            moved[target] = balls[0] + others
            moved[source] = balls[1:]
            found.append((source, target, "|".join(moved)))
    return found


def ball_moves_to_clear(tubes: int, capacity: int, colours: int) -> dict[str, int]:
    """Fewest moves to clear every clearable state: enumerate all states, then a plain BFS
    backwards (by reversing the forward moves) from every cleared state."""
    from itertools import permutations, product

    letters = "rgbyopcw"[:colours]
    states = set()
    for fills in product(range(capacity + 1), repeat=tubes):
        if sum(fills) != colours * capacity:
            continue
        for order in set(permutations(letters * capacity)):
            parts, at = [], 0
            for fill in fills:
                parts.append("".join(order[at : at + fill]))
                at += fill
            states.add("|".join(parts))
    reverse: dict[str, list[str]] = {}
    for state in states:
        for _, _, following in ball_moves(state, capacity):
            reverse.setdefault(following, []).append(state)

    def cleared(state):
        return all(not t or (len(t) == capacity and len(set(t)) == 1) for t in state.split("|"))

    distance = {s: 0 for s in states if cleared(s)}
    queue = deque(distance)
    while queue:
        state = queue.popleft()
        for before in reverse.get(state, ()):
            if before not in distance:
                distance[before] = distance[state] + 1
                queue.append(before)
    return distance


def hanoi_moves(pegs: int):
    """A position's moves, from the rules: the top (smallest) disc of a peg goes onto an
    empty peg or a larger disc."""
    letters = "ABCD"[:pegs]

    def moves(here: str) -> list[str]:
        found = []
        for source, destination in product(letters, repeat=2):
            disc = here.find(source)
            if source == destination or disc < 0:
                continue
            blocking = here.find(destination)
            if 0 <= blocking < disc:
                continue
            found.append(here[:disc] + destination + here[disc + 1:])
        return found
    return moves


def sliding_moves(rows: int, columns: int):
    """A position's moves: swap the blank with each cell beside it."""
    def moves(here: tuple[int, ...]) -> list[tuple[int, ...]]:
        blank = here.index(0)
        row, column = divmod(blank, columns)
        found = []
        for other_row, other_column in ((row - 1, column), (row + 1, column),
                                        (row, column - 1), (row, column + 1)):
            if 0 <= other_row < rows and 0 <= other_column < columns:
                other = other_row * columns + other_column
                tiles = list(here)
                tiles[blank], tiles[other] = tiles[other], tiles[blank]
                found.append(tuple(tiles))
        return found
    return moves


# ---- the 2×2×2 cube: turns as sticker cycles (faces U R F D L B, four stickers each in
# reading order), not the plug-in's corner tables
_U, _R, _F, _D, _L, _B = (4 * k for k in range(6))
CUBE_CYCLES = {
    "U": [(_U + 0, _U + 1, _U + 3, _U + 2), (_F + 0, _L + 0, _B + 0, _R + 0),
          (_F + 1, _L + 1, _B + 1, _R + 1)],
    "R": [(_R + 0, _R + 1, _R + 3, _R + 2), (_U + 1, _B + 2, _D + 1, _F + 1),
          (_U + 3, _B + 0, _D + 3, _F + 3)],
    "F": [(_F + 0, _F + 1, _F + 3, _F + 2), (_U + 2, _R + 0, _D + 1, _L + 3),
          (_U + 3, _R + 2, _D + 0, _L + 1)],
}
"""Each cycle (a, b, c, d): a quarter turn clockwise takes the sticker at a to b, b to
c, c to d, d to a."""
SOLVED_STICKERS = "UUUURRRRFFFFDDDDLLLLBBBB"


def cube_turn(stickers: str, face: str) -> str:
    """The stickers after a quarter turn of ``face`` clockwise."""
    after = list(stickers)
    for cycle in CUBE_CYCLES[face]:
        for here, there in zip(cycle, cycle[1:] + cycle[:1]):
            after[there] = stickers[here]
    return "".join(after)


def cube_moves(metric: str):
    """A sticker string's moves: a quarter turn of U, R or F either way, and in the half
    metric a half turn too (any sticker may be hidden as '.': a turn moves it as any)."""
    def moves(stickers: str) -> list[str]:
        found = []
        for face in "URF":
            turned = stickers
            for times in range(1, 4):
                turned = cube_turn(turned, face)
                if metric == "half" or times != 2:
                    found.append(turned)
        return found
    return moves
