"""Sliding tiles' pattern databases and the exact search on them, as data for the engine
(``builder.contract.patterns``).

A pattern tracks the tiles a partition's cells hold in the goal; its table is a
breadth-first search over its abstract states (the tiles' cells and the blank's region,
``search.pattern_neighbours``): the fewest moves *of its tiles* to their goal cells, the
other tiles moving for free.  Folded over the blank's region, it is the estimate the
search reads.  Disjoint patterns add (a move moves one tile); with the reflection about
the main diagonal, the same tables looked up on the reflected position are a second sum,
and the search takes the larger.  A target is relabelled onto the goal with its blank's
cell, or turned half a turn onto the goal with the blank in the opposite cell, whichever
has its tables stored.
"""

from __future__ import annotations

from dataclasses import replace
from math import perm

from builder.contract.patterns import PatternSearch, PatternTable, arrangement_rank
from builder.contract.puzzle import Table
from builder.contract.specs import BreadthFirstSearch
from puzzles.sliding.rules import (
    MAX_CELLS,
    MOST_PATTERN_TILES,
    PARTITIONS,
    SlidingError,
    abstract_rank,
    dual_allowed,
    goal_cell,
    goal_with_blank_at,
    partition_named,
    reflection,
    written,
)
from puzzles.sliding.search import pattern_neighbours, pattern_step

MOVES = 4
"""The blank goes up, down, left or right: the adapter's moves, in its order."""
UNDOING = ((0, 1), (1, 0), (2, 3), (3, 2))


def default_blank(rows: int, columns: int) -> int:
    """The goal's blank cell the default pattern tables are built for: the first cell on
    4×4 (Korf's goal), else the last (the default goal); each also answers the opposite
    cell's targets, half a turn round."""
    return 0 if (rows, columns) == (4, 4) else rows * columns - 1


def default_partition(rows: int, columns: int) -> str:
    """The partition `make tables` and `builder build sliding RxC` build: the board's first
    named one, else patterns of six tiles in reading order and the rest."""
    named = PARTITIONS.get((rows, columns))
    if named:
        return next(iter(named))
    tiles = rows * columns - 1
    return "-".join(["6"] * (tiles // 6) + ([str(tiles % 6)] if tiles % 6 else []))


FOLDED_FROM = 1 << 28
"""Patterns of at least this many abstract states are searched folded: a bit a state, and
only the estimate the search reads stored (``BreadthFirstSearch.folded``; 7 and 8 tiles on
4×4).  Smaller ones keep their searched array too, whose recurrence `builder verify`
checks entry by entry."""


def pattern_table(rows: int, columns: int, blank: int, tiles: tuple[int, ...],
                  folded: bool | None = None) -> Table:
    """The pattern database of ``tiles`` towards the goal with the blank at ``blank``;
    ``folded``: searched folded (None: where it has ``FOLDED_FROM`` abstract states or
    more)."""
    cells = rows * columns
    tracked = len(tiles)
    if not (0 < tracked <= MOST_PATTERN_TILES and len(set(tiles)) == tracked
            and all(0 < tile < cells for tile in tiles) and 0 <= blank < cells):
        raise SlidingError(f"a pattern of 1 to {MOST_PATTERN_TILES} distinct tiles from 1 to "
                           f"{cells - 1} on {rows}x{columns}")
    states = perm(cells, tracked + 1)
    folded = states >= FOLDED_FROM if folded is None else folded
    weights = [perm(cells - 1 - place, tracked - place) for place in range(tracked + 1)]
    not_first = sum(1 << cell for cell in range(cells) if cell % columns)
    not_last = sum(1 << cell for cell in range(cells) if cell % columns != columns - 1)
    goal = tuple(goal_cell(cells, blank, tile) for tile in tiles)
    shown = "-".join(str(tile) for tile in tiles)
    search = BreadthFirstSearch(
        states, (abstract_rank(rows, columns, goal, blank),),
        pattern_neighbours, 4 * tracked,
        parameters=(rows, columns, tracked, not_first, not_last, *weights),
        folded=cells - tracked if folded else 1)
    moves = (f"fewest moves of tiles {shown} to their cells in the goal with the blank at "
             f"cell {blank}, the other tiles moving for free")
    ranked = ("the tiles' cells then the least cell of the blank's region, as an "
              "arrangement of the board's cells in lexicographic order")
    options = {"rows": rows, "columns": columns, "blank": blank, "tiles": list(tiles)}
    name = f"patterns/{rows}x{columns}/blank{blank}-{shown}"
    # the catalog counts the estimate the search reads, towards the goal it stands for
    distances = {"estimate": (f"{rows}x{columns} pattern {','.join(map(str, tiles))}",
                              f"to {written((rows, columns), goal_with_blank_at(cells, blank))}")}
    if folded:
        return Table(
            "sliding", name, {**options, "folded": True}, searched={"estimate": search},
            distances=distances,
            about=f"estimate[rank of the tiles' cells alone]: the {moves}, the least over "
                  f"the blank's cells; searched folded, a bit per abstract state (rank = "
                  f"{ranked}), a byte per estimate")
    return Table(
        "sliding", name, options, searched={"abstract": search},
        folded={"estimate": ("abstract", cells - tracked)}, distances=distances,
        about=f"abstract[rank]: {moves}; rank = {ranked} (never, as for a state that cannot "
              "reach the goal, where the blank is not the least cell of its region); "
              "estimate[rank of the tiles' cells alone]: the least over the blank's cells")


def partition_tiles(rows: int, columns: int, blank: int, name: str
                    ) -> tuple[tuple[int, ...], ...]:
    """The tiles of each pattern of a named partition (``rules.partition_named``) towards
    the goal with the blank at ``blank``."""
    parts = partition_named(rows, columns, blank, name)
    if parts is None:
        raise SlidingError(f"partition {name[:40]!r}: pattern sizes adding up to "
                           f"{rows * columns - 1} such as {default_partition(rows, columns)}, "
                           f"'manhattan', or one of {', '.join(PARTITIONS.get((rows, columns), {}))}")
    goal = goal_with_blank_at(rows * columns, blank)
    return tuple(tuple(goal[cell] for cell in part) for part in parts)


def pattern_set(rows: int, columns: int, blank: int, name: str,
                folded: bool | None = None) -> list[Table]:
    return [pattern_table(rows, columns, blank, tiles, folded)
            for tiles in partition_tiles(rows, columns, blank, name)]


def _candidates(rows: int, columns: int) -> list[str]:
    """The partitions a search looks for, the largest tables first; Manhattan last."""
    cells = rows * columns
    names = {*PARTITIONS.get((rows, columns), {}), default_partition(rows, columns)}

    def entries(name: str) -> int:
        parts = partition_named(rows, columns, default_blank(rows, columns), name) or ()
        return sum(perm(cells, len(part)) for part in parts)

    return [*sorted(names, key=entries, reverse=True), "manhattan"]


def search_for(tables, board: tuple[int, int], node: tuple[int, ...],
               target: tuple[int, ...], partition: str | None = None,
               reflect: bool = True, dual: bool = False,
               folded: bool | None = None) -> PatternSearch | None:
    """IDA* from ``node`` to ``target`` on the first stored set of pattern tables (or the
    named ``partition``) for the target's blank cell or the opposite one; None where none
    is stored.  ``reflect``, ``dual``: look the tables up on the position reflected about
    the main diagonal too, and on the duals of both; ``folded``: the tables as
    ``pattern_table`` makes them."""
    rows, columns = board
    cells = rows * columns
    blank = target.index(0)
    folder = tables.stored(("sliding", "patterns", f"{rows}x{columns}"))
    for goal_blank, turned in ((blank, False), (cells - 1 - blank, True)):
        for name in [partition] if partition else _candidates(rows, columns):
            try:
                pattern_tables = pattern_set(rows, columns, goal_blank, name, folded)
            except SlidingError:
                continue
            if all(table.name.split("/")[-1] in folder for table in pattern_tables):
                return _search(board, node, target, goal_blank, turned, pattern_tables,
                               reflect, dual and name != "manhattan", name)
    return None


def guide_for(tables, board: tuple[int, int], node: tuple[int, ...],
              target: tuple[int, ...], most_entries: int) -> PatternSearch | None:
    """``search_for`` on the smallest stored set of pattern tables (Manhattan's aside)
    none of whose tables has more than ``most_entries`` entries, for an estimate read
    at once rather than a search: None where no such set is stored."""
    rows, columns = board
    cells = rows * columns
    for name in reversed(_candidates(rows, columns)):
        if name == "manhattan":
            continue
        parts = partition_named(rows, columns, default_blank(rows, columns), name) or ()
        if any(perm(cells, len(part)) > most_entries for part in parts):
            continue
        search = search_for(tables, board, node, target, partition=name)
        if search is not None:
            return search
    return None


def _search(board, node, target, goal_blank, turned, pattern_tables, reflect, dual, name
            ) -> PatternSearch:
    rows, columns = board
    cells = rows * columns
    goal = goal_with_blank_at(cells, goal_blank)
    relabel = dict(zip(target, goal_with_blank_at(cells, cells - 1 - goal_blank if turned
                                                  else goal_blank)))
    # half a turn maps the goal with the blank at j onto the one with it at the opposite
    # cell, the tile in each cell renamed after the tile the turned goal has there
    turn = {}
    if turned:
        before = goal_with_blank_at(cells, cells - 1 - goal_blank)
        turn = {before[cell]: goal[cells - 1 - cell] for cell in range(cells)}

    def encode(position: tuple[int, ...]) -> tuple[int, ...]:
        tiles = tuple(relabel[tile] for tile in position)
        if turned:
            tiles = tuple(turn[tiles[cells - 1 - cell]] for cell in range(cells))
        return tiles

    patterns = [tuple(table.options["tiles"]) for table in pattern_tables]
    mirror = reflection(rows, columns, goal_blank) if reflect else None
    cell_map, tile_map = mirror or (tuple(range(cells)), tuple(range(cells)))
    most = max(len(pattern) for pattern in patterns)
    home = [goal_cell(cells, goal_blank, tile) for tile in range(cells)]
    pattern_of = [-1] * cells
    cell_pattern = [-1] * cells
    for number, pattern in enumerate(patterns):
        for tile in pattern:
            pattern_of[tile] = number
            cell_pattern[home[tile]] = number
    homes = [[home[tile] for tile in pattern] for pattern in patterns]

    def padded(values: list[int]) -> list[int]:
        return [*values, *[0] * (most - len(values))]

    parameters = [rows, columns, len(patterns), int(mirror is not None), int(dual), most,
                  *pattern_of, *tile_map, *cell_map, *cell_pattern, *home,
                  *(len(pattern) for pattern in patterns)]
    for pattern in patterns:
        parameters += padded(list(pattern))
    for cells_of in homes:
        parameters += padded(cells_of)
    for pattern in patterns:
        parameters += padded([perm(cells - 1 - place, len(pattern) - 1 - place)
                              for place in range(len(pattern))])
    # a dual look-up stands for a path to the goal with the blank where the position has it
    # (``dual_allowed``): allowed where the pattern's table holds that goal too
    allowed = [dual_allowed(rows, columns, goal_blank, cells_of) for cells_of in homes]
    goal_indices = [arrangement_rank(cells_of, cells) for cells_of in homes]
    parameters += [sum(1 << cell for cell in cells_of) for cells_of in allowed]
    parameters += goal_indices
    start = encode(node)
    where = [0] * cells
    for cell, tile in enumerate(start):
        where[tile] = cell

    def dual_indices(position: tuple[int, ...]) -> list[int]:
        blank = position.index(0)
        return [arrangement_rank([home[position[cell]] for cell in cells_of], cells)
                if blank in allowed[number] else goal_indices[number]
                for number, cells_of in enumerate(homes)]

    reflected = [0] * cells
    for cell, tile in enumerate(start):
        reflected[cell_map[cell]] = tile_map[tile]
    indices = [arrangement_rank([where[tile] for tile in pattern], cells) for pattern in patterns]
    table = [PatternTable(pattern, "estimate", 0, f"{rows}x{columns}:{name}:{goal_blank}")
             for pattern in pattern_tables]
    tables = list(table)
    if mirror is not None:  # the same tables, looked up on the reflected position
        indices += [arrangement_rank([cell_map[where[tile_map[tile]]] for tile in pattern],
                                     cells) for pattern in patterns]
        tables += [replace(entry, group=1) for entry in table]
    if dual:
        indices += dual_indices(start)
        tables += [replace(entry, group=2) for entry in table]
        if mirror is not None:
            indices += dual_indices(tuple(reflected))
            tables += [replace(entry, group=3) for entry in table]
    return PatternSearch(
        start=(*start, *where, *indices), goal=goal, patterns=tuple(tables),
        step=pattern_step, moves=MOVES, encode=encode,
        parameters=tuple(parameters), indices_at=2 * cells, redundant=UNDOING,
        parity=True, how="IDA* on pattern databases" if name != "manhattan"
        else "IDA* on the Manhattan distance")


def searched_board(rows: int, columns: int) -> bool:
    """A board no full table holds, answered by search on its pattern databases."""
    return rows * columns > MAX_CELLS
