"""Tricolore XP as a plug-in: the rules (``rules.py``), its two search kernels (all
pairs of small boards, ``all_pairs_search.py``; one target of a 4×4 board,
``target_search.py``), its tables (``tables.py``), the document's 4×4
decomposition solver (``decomposition.py``), its catalog rows and views (``catalog.py``)
and its verify checks (``verify.py``).  A walk node is (board, last clicked square).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, ClassVar

import typer

from builder.contract.base import FoundPath, KeptLast, Move, PuzzleOption
from builder.contract.errors import MissingTableError, PuzzleInputError
from builder.contract.puzzle import OwnSearch, Table, WalkablePuzzle
from puzzles.tricolore import catalog, verify
from puzzles.tricolore import tables as table_specs
from puzzles.tricolore.rules import (
    ALL_PAIRS_MAX_SQUARES,
    BLUE,
    LETTERS,
    MAX_SQUARES,
    METHODS,
    NO_CLICK,
    RED,
    UNREACHABLE,
    WHITE,
    BoardError,
    MethodError,
    Tricolore,
    check_method,
    column_clicks,
)

__all__ = ["ALL_PAIRS_MAX_SQUARES", "BLUE", "LETTERS", "MAX_SQUARES", "METHODS", "NO_CLICK",
           "RED", "WHITE", "BoardError", "MethodError", "Tricolore", "TricoloreGame",
           "TricolorePuzzle", "check_method", "column_clicks"]


SQUARE_LABELS = tuple(str(square) for square in range(MAX_SQUARES))
"""A click's label, the square's number as text (made once: a walk labels every move)."""
DECOMPOSITION = "decomposition"
"""The method option that asks for the document's 4×4 decomposition: a path found over
the 4×2 tables, unrestricted clicks, not always a shortest one."""


@dataclass(frozen=True)
class TricoloreGame:
    """A rule variant: the board shape and the click method."""

    rules: Tricolore
    method: str

    @property
    def clicks(self) -> str:
        """The method its clicks follow (the decomposition clicks anywhere)."""
        return "unrestricted" if self.method == DECOMPOSITION else self.method


def _target_columns(tables, game: TricoloreGame, target: int) -> tuple:
    from puzzles.tricolore.answers import TargetColumns

    return TargetColumns(tables, game.rules, target, game.method).columns


def _clicks_towards(columns, nodes, target: int):
    for board, last_click in nodes:
        clicks = column_clicks(columns, board, last_click, target)
        yield None if clicks == UNREACHABLE else clicks


class TricoloreSearch(OwnSearch):
    """Tricolore's own search: the all-pairs click tables, the 4x4 targets and
    decomposition, their catalog and charts, and the commands over them."""

    def start_node(self, game: TricoloreGame, board: int) -> tuple[int, int]:
        return (board, NO_CLICK)

    def node_context(self, game: TricoloreGame, node: tuple[int, int]) -> str:
        return "" if node[1] == NO_CLICK else str(node[1])

    def resume_node(self, game: TricoloreGame, board: int, context: str) -> tuple[int, int]:
        if not context:
            return (board, NO_CLICK)
        if not context.isdigit() or int(context) >= game.rules.n_squares:
            raise PuzzleInputError(f"last clicked square {context[:8]!r}: a square of the "
                                   f"board, 0 to {game.rules.n_squares - 1} (empty: none)")
        return (board, int(context))

    def at_target(self, game: TricoloreGame, node: tuple[int, int], target: int) -> bool:
        return node[0] == target and node[1] != NO_CLICK

    def distance(self, tables, game: TricoloreGame, node: tuple[int, int],
                 target: int) -> int | None:
        return next(iter(self.distances(tables, game, [node], target)))

    def distances(self, tables, game: TricoloreGame, nodes: list[tuple[int, int]],
                  target: int):
        """``column_clicks`` over the walk arrays towards the target (the all-pairs
        table's column on small boards, else the table towards the target:
        ``TargetColumns``), found once; each node's clicks read lazily, as the walk takes
        them (a walk stops at the first click one nearer, and a 4×4 table's chunks are
        worth not reading)."""
        if game.method == DECOMPOSITION:
            raise MissingTableError("the decomposition keeps no distances: it finds a path "
                                    "(`query path --method decomposition`)")
        columns = self._last_columns.get((tables, target, game),
                                         lambda: _target_columns(tables, game, target))
        return _clicks_towards(columns, nodes, target)

    def table_answering(self, game: TricoloreGame, start: int, target: int):
        """The exact table towards the target, on boards too large for all-pairs tables
        (unrestricted clicks: the only method such tables are built for)."""
        if game.rules.n_squares <= ALL_PAIRS_MAX_SQUARES or game.clicks != "unrestricted":
            return None
        return table_specs.target_spec(game.rules.format(target), game.rules.width,
                                       game.rules.height)

    def explain_unreachable(self, game: TricoloreGame, start: int, target: int) -> str:
        from puzzles.tricolore.answers import explain_unreachable

        return explain_unreachable(game.rules, target, game.clicks)

    def variant_fields(self, game: TricoloreGame) -> dict:
        return {"method": game.method}

    def search_path(self, game: TricoloreGame, node: tuple[int, int], target: int):
        from puzzles.tricolore.answers import searched_path

        if game.method == DECOMPOSITION:
            return None
        return searched_path(game.rules, node, target, game.method)

    approximation = "the document's 4x4 decomposition"

    def approximate_path(self, tables, game: TricoloreGame, node: tuple[int, int],
                         target: int):
        """The document's decomposition on 4×4 boards (the 4×2 tables walked for each
        half, milliseconds); None on other boards, other methods, or a target it has no
        answer for (the exact search then explains), except where the decomposition was
        asked for by name: then its one-line error.  The JSON answer says which half each
        click solves and the rotation used."""
        from puzzles.tricolore.decomposition import (
            DecompositionError,
            DecompositionSolver,
        )

        if game.rules.shape_name != "4x4" or game.clicks != "unrestricted":
            return None
        board, last = node
        try:
            found = DecompositionSolver(tables).solve_after(board, last, target)
        except DecompositionError:
            if game.method == DECOMPOSITION:
                raise
            return None
        nodes = [node]
        for square in found.clicks:
            nodes.append((game.rules.click_one(nodes[-1][0], square), square))
        return FoundPath(tuple(nodes), tuple(str(square) for square in found.clicks),
                         "decomposition", optimal=False,
                         details={"halves": list(found.halves), "rotation": found.rotation})

    path_words = ("board", "click", "boards", "clicks")

    def step_value(self, game: TricoloreGame, label: str) -> int:
        return int(label)

    def query_commands(self) -> dict:
        from puzzles.tricolore.cli import stats

        return {"stats": stats}

    figure_names = ("methods", "targets")

    def figures(self, catalog) -> dict:
        from puzzles.tricolore.plots import tricolore_figures

        return tricolore_figures(catalog)

    def default_tables(self) -> list[Table]:
        return table_specs.default_specs()

    def table(self, identity: dict[str, Any]) -> Table:
        kind = identity.get("kind")
        if kind == "decomposition_sample":
            return table_specs.decomposition_spec(identity["exact_targets"], identity["pairs"],
                                             identity["seed"])
        if kind == "reachability":
            return table_specs.reachability_spec(identity["start"], identity["width"],
                                            identity["height"])
        if kind == "target_stats":
            raise PuzzleInputError("the 4x4 statistics table is gathered from its target "
                                   "records: `builder tricolore4x4-stats`")
        if "target" in identity:
            return table_specs.target_spec(identity["target"], identity["width"],
                                      identity["height"])
        return table_specs.all_pairs_spec(identity["width"], identity["height"],
                                     identity["method"])

    def table_for(self, text: str) -> Table:
        """``4x2/hybrid`` (an all-pairs table) or a 4×4 target board."""
        shape, _, method = text.partition("/")
        if method:
            width, _, height = shape.partition("x")
            if not (width.isdigit() and height.isdigit()):
                raise BoardError(f"{text[:40]!r}: write an all-pairs table as WxH/METHOD "
                                 "(4x2/hybrid) or a 4x4 target board")
            return table_specs.all_pairs_spec(int(width), int(height), method)
        return table_specs.target_spec(text)

    def build_commands(self) -> dict:
        return {"tricolore": build_all_pairs, "tricolore4x4": build_target,
                "tricolore4x4-decomposition": build_decomposition,
                "tricolore4x4-reachability": build_reachability,
                "tricolore4x4-stats": build_stats}

    catalog_tables = catalog.TABLES

    catalog_views = catalog.VIEWS

    def catalog_rows(self, attributes: dict, read) -> dict:
        return catalog.rows(attributes, read)

    def entry_positions(self, attributes: dict, array: str, entries,
                        read) -> list[tuple[str, str]] | None:
        if "target" not in attributes:
            return None  # all pairs: an entry is a pair, asked with `query path`
        rules = Tricolore(attributes["width"], attributes["height"])
        return [(rules.format(int(entry)), attributes["target"]) for entry in entries]

    def table_options(self, attributes: dict) -> dict[str, str]:
        return {"method": attributes["method"]} if "method" in attributes else {}

    def verify_checks(self, attributes: dict) -> str:
        return verify.checks(attributes)

    def verify_sample(self, attributes: dict, read, samples: int, rng) -> str | None:
        return verify.sample(attributes, read, samples, rng)


class TricolorePuzzle(WalkablePuzzle):
    """Tricolore as a plug-in: a walk node is (board, last clicked square)."""

    own_search = TricoloreSearch

    name = "tricolore"
    summary = "Tricolore XP: clicks advance squares R -> W -> B -> R (any board up to 39 squares)"
    example = ("WBWW.WBRB", "RRRR.RRRR")
    unit = "clicks"
    options = (PuzzleOption(
        "method", "unrestricted (any square, the default), hybrid (bottom row + red squares "
        "of the row above) or restricted (bottom row only); decomposition for 4x4 (path "
        "only)", ("unrestricted", "hybrid", "restricted", "decomposition")),)

    def recognises(self, text: str) -> bool:
        """Two or more rows of R, W and B joined by '.' (a row of the wrong length, or a
        board too large, is its parse error to name): other letters are other puzzles'
        (a pyraminx's faces, say), and so is a single row (Hanoi's pegs, a cube's
        turns), which ``tricolore:RWB`` names outright."""
        rows = text.strip().upper().split(".")
        return len(rows) > 1 and all(row and set(row) <= set(LETTERS) for row in rows)

    def variant(self, start: str, target: str, options: dict) -> TricoloreGame:
        rules, method = Tricolore.of_board(start), options.get("method") or "unrestricted"
        if method == DECOMPOSITION:
            if (rules.width, rules.height) != (4, 4):
                raise PuzzleInputError("--method decomposition solves 4x4 boards (four rows "
                                       "of four)")
            return TricoloreGame(rules, method)
        return TricoloreGame(rules, check_method(method))

    def parse(self, game: TricoloreGame, text: str) -> int:
        return game.rules.parse(text)

    def format(self, game: TricoloreGame, state) -> str:
        return game.rules.format(state[0] if isinstance(state, tuple) else state)

    def moves(self, game: TricoloreGame, node: tuple[int, int]) -> Iterator[Move]:
        board, last = node
        return (Move(SQUARE_LABELS[square], (following, square))
                for square, following in game.rules.legal_moves(board, last, game.clicks))

    _last_columns: ClassVar[KeptLast] = KeptLast()
    """A walk asks once a step, towards one target."""

    # --- its own query layouts, commands, charts and web endpoints -------------------------

    renderer = "renderer.js"

    # --- tables ---------------------------------------------------------------------------

    # --- catalog and verify ---------------------------------------------------------------


# --- `builder` commands ----------------------------------------------------------------

def build_all_pairs(
    *,
    width: Annotated[int, typer.Option(help="Board width (squares per row).")] = 4,
    height: Annotated[int, typer.Option(help="Board height (rows).")] = 2,
    method: Annotated[str, typer.Option(help=f"One of {', '.join(METHODS)}, or 'all'.")
                      ] = "all",
    executor: Any = None,
) -> list[Table]:
    """All-pairs Tricolore tables for a W×H board (default: the document's 4×2), split into
    chunk tasks; an interrupted build resumes where it stopped.

    Example: builder tricolore --width 5 --height 2 --method unrestricted --workers 2
    """
    Tricolore(width, height)  # a one-line error for a board with no squares
    methods = METHODS if method == "all" else (check_method(method),)
    return [table_specs.all_pairs_spec(width, height, m) for m in methods]


def build_target(
    *,
    target: Annotated[list[str], typer.Option("--target", help="Target board; repeat for "
                                                               "several.")],
    width: Annotated[int, typer.Option(hidden=True)] = 4,
    height: Annotated[int, typer.Option(hidden=True)] = 4,
) -> list[Table]:
    """Exact 4×4 table towards a target: one backward search over all 731 million
    (board, last click) nodes gives every start its minimum number of clicks.

    Example: builder tricolore4x4 --target WBWB.BWBW.WBWB.BWBW
    """
    return [table_specs.target_spec(board, width, height) for board in target]


def build_decomposition(
    *,
    pairs: Annotated[int, typer.Option(help="Random (start, target) pairs to solve (about "
                                       "1,500 a second; at most 2,000,000).", min=1,
                                       max=2_000_000)] = table_specs.DECOMPOSITION_PAIRS,
    seed: Annotated[int, typer.Option(help="Random seed (the sample is reproducible).")
                    ] = table_specs.DECOMPOSITION_SEED,
    tables: Any = None,
) -> list[Table]:
    """Measure the document's decomposition solver on random pairs (and against the exact
    tables that exist); the catalog's tricolore_4x4_decomposition_* views report it.

    Example: builder tricolore4x4-decomposition --pairs 100000
    """
    exact = tables.stored(("tricolore", "4x4", "targets"))
    return [table_specs.decomposition_spec(exact, pairs, seed)]


def build_reachability(
    *,
    start: Annotated[str, typer.Option(help="Board to search forward from.")
                     ] = table_specs.REACHABILITY_START,
) -> list[Table]:
    """Which 4×4 boards can a start never reach? A forward search over all 731 million
    nodes (about two minutes); the catalog's tricolore_4x4_reachability view reports it.

    Example: builder tricolore4x4-reachability --start RRRR.RRRR.RRRR.RRRR
    """
    return [table_specs.reachability_spec(start)]


def build_stats(
    *,
    targets: Annotated[int, typer.Option("--targets", help="How many random canonical "
                                         "targets (distinct up to the 8 symmetries).", min=1,
                                         max=100_000)] = 10,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed, the same targets.")
                    ] = 2026,
    results: Annotated[Path, typer.Option(
        help="The record file, one JSON line per target (the repository's copy is "
             "committed; `make tables` publishes it).")] = table_specs.RESULTS_FILE,
    data: Path = Path("data"),
    progress: bool = True,
    executor: Any = None,
) -> list[Table]:
    """Toward the full 4×4 all-pairs distribution: one exact search per random canonical
    target (a few seconds each), appending each target's histogram and maximum to the
    results file. Resumable: targets already there are skipped. Views:
    tricolore_4x4_pairs_estimate, tricolore_4x4_hardest_targets.

    Example: builder tricolore4x4-stats --targets 1000 --scheduler tcp://10.0.0.5:8786
    """
    import time

    started = time.perf_counter()
    computed, skipped = table_specs.run_target_stats(results, targets, seed, progress, executor)
    print(f"{computed} targets computed, {skipped} already done (skipped) "
          f"in {time.perf_counter() - started:.1f} s", flush=True)
    return [table_specs.stats_spec(results)]
