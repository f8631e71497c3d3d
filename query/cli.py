"""`query`: answers from the built tables (never writes data/).

Examples:

    query path WBWW.WBRB RRRR.RRRR
    query path WBWW.WBRB RRRR.RRRR --method hybrid --json
    query distance RRRR.RRRR WWWW.WWWW
    query sql "SELECT * FROM tricolore_click_distribution WHERE method = 'hybrid'"
    query stats tricolore

Heavy modules (duckdb, zarr, numba) are imported only by the commands that need them.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Annotated

import typer

from builder.reader import QueryError

app = typer.Typer(
    help="Query puzzle tablebases: optimal paths, distances, statistics, SQL.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
stats_app = typer.Typer(help="The documents' tables, formatted as the documents show them.")
app.add_typer(stats_app, name="stats")
random_app = typer.Typer(help="Deal random puzzles with a guaranteed property.",
                         no_args_is_help=True)
app.add_typer(random_app, name="random")

DataOption = Annotated[Path, typer.Option("--data", help="Directory holding the built tables.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
CsvOption = Annotated[bool, typer.Option("--csv", help="Print CSV.")]
MethodOption = Annotated[
    str | None,
    typer.Option(
        "--method",
        help="Tricolore only: unrestricted (any square, the default), hybrid (bottom row + "
        "red squares of the row above) or restricted (bottom row only); decomposition for "
        "4x4 (path only).",
        show_default=False,
    ),
]
VariantOption = Annotated[str | None, typer.Option(
    "--variant", help="A rule variant the puzzle's plug-in names (e.g. lucas: forward, "
    "pieces only move forward).", show_default=False)]
PuzzleOption = Annotated[str | None, typer.Option(
    "--puzzle", help="Which puzzle the notation is (default: the one that recognises it; "
    "needed only when two do).", show_default=False)]
SeedOption = Annotated[int | None, typer.Option(
    help="Random seed, 0 or more (default: fresh).", min=0, max=2**63 - 1)]


def _tricolore_pair(start: str, target: str, method: str):
    from builder.puzzles.tricolore import Tricolore, check_method

    check_method(method)
    rules = Tricolore.of_board(start)
    start_rank = rules.parse(start)
    target_rank = rules.parse(target)
    return rules, start_rank, target_rank


def _json_value(value):
    """A value JSON can hold: NaN and infinities become null (JSON has no such numbers)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _print_rows(columns: list[str], rows: list[tuple], as_json: bool, as_csv: bool) -> None:
    if as_json:
        typer.echo(json.dumps([{c: _json_value(v) for c, v in zip(columns, row)}
                               for row in rows], default=str, allow_nan=False))
        return
    if as_csv:
        import csv

        writer = csv.writer(sys.stdout)
        writer.writerow(columns)
        writer.writerows(rows)
        return
    shown = [["" if value is None else str(value) for value in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in shown]) for i, c in enumerate(columns)]
    typer.echo("  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip())
    for row in shown:
        typer.echo("  ".join(v.rjust(w) if v[:1].isdigit() or v[:1] == "-" else v.ljust(w)
                             for v, w in zip(row, widths)).rstrip())


def _exact_table(data: Path, rules, target_rank: int, method: str):
    """The table that answers exactly: all-pairs for the shape, else one towards the target."""
    from builder.reader import MissingTableError, TricoloreTable, TricoloreTargetTable

    try:
        return TricoloreTable(data, rules.width, rules.height, method)
    except MissingTableError:
        if method != "unrestricted" or rules.n_squares <= 10:
            raise
    return TricoloreTargetTable(data, rules.width, rules.height, rules.format(target_rank))


def _print_path(boards: list[str], clicks: list[int], labels: list[str] | None) -> None:
    width = len(boards[0])
    header = f"{'step':<5} " + (f"{'half':<9} " if labels else "") + f"{'board':<{width}}  click"
    typer.echo(header)
    for step, board in enumerate(boards):
        click = str(clicks[step]) if step < len(clicks) else "done"
        half = ""
        if labels:
            half = f"{labels[step] if step < len(clicks) else '':<9} "
        typer.echo(f"{'init' if step == 0 else step:<5} {half}{board:<{width}}  {click}")


@app.command()
def path(
    start: Annotated[str, typer.Argument(help="Start: a Tricolore board (WBWW.WBRB), a Lucas "
                                              "arrangement (AAA_BBB) or ball tubes "
                                              "(rggb|brrg|gbbr|).")],
    target: Annotated[str, typer.Argument(help="Target board, arrangement, or 'cleared'.")],
    method: MethodOption = None,
    puzzle: PuzzleOption = None,
    rule_variant: VariantOption = None,
    data: DataOption = Path("data"),
    as_json: JsonOption = False,
) -> None:
    """An optimal click sequence from START to TARGET, by walking the stored tables.
    Also: `query path AAA_BBB BBB_AAA` (Lucas' pieces, the document's table) and
    `query path "rggb|brrg|gbbr|" cleared` (ball tubes, moves as from -> to tube).

    Squares are numbered row-major from 0 (0123 over 4567). A start equal to the
    target gives its shortest return (at least one click). On 4×4 boards the exact
    answer needs a table towards the target (`builder tricolore4x4 --target ...`);
    `--method decomposition` solves any 4×4 pair the document's way (two 4×2 halves,
    not always optimal).

    Any registered puzzle's notation is recognised (`--puzzle` names one when two
    recognise it); Lights Out 5x5 boards (00000.00000...) walk their table too.

    Example: query path WBWW.WBRB RRRR.RRRR --method hybrid
    """
    from builder.puzzles import registry

    chosen = registry.choose(start, puzzle)
    options = registry.check_options(chosen, {"method": method, "variant": rule_variant})
    if method == "decomposition":
        _decomposition_path(start, target, data, as_json)
        return
    # A plug-in may print its own layout (Lucas: the document's agent / move type table);
    # the ball tubes' moves from tube to tube are still printed here.
    if rule_variant is None and _plugin_printed(chosen, start, target, data, as_json):
        return
    if chosen.name == "balls" and rule_variant is None:
        _balls_path(start, target, data, as_json)
        return
    if chosen.name != "tricolore":
        _generic_path(chosen, start, target, data, as_json, options)
        return

    method = method or "unrestricted"
    rules, start_rank, target_rank = _tricolore_pair(start, target, method)
    found, how = _exact_path(data, rules, start_rank, target_rank, method)
    boards = [rules.format(b) for b in found.boards]
    if as_json:
        typer.echo(json.dumps({"start": boards[0], "target": boards[-1], "method": method,
                               "length": found.length, "clicks": list(found.clicks),
                               "boards": boards}))
        return
    typer.echo(f"{boards[0]} -> {boards[-1]}: {found.length} clicks ({method}, optimal{how})")
    _print_path(boards, list(found.clicks), None)


def _exact_path(data: Path, rules, start_rank: int, target_rank: int, method: str):
    """An optimal path by table walk, or by bidirectional search where no table exists
    (large boards); every path is replayed and checked before it is returned."""
    from builder.reader import MissingTableError
    from builder.walk import UnreachableError, explain_unreachable, tricolore_path

    try:
        table = _exact_table(data, rules, target_rank, method)
        found, how = tricolore_path(rules, table, start_rank, target_rank, method), ""
    except MissingTableError:
        if method != "unrestricted" or rules.n_squares <= 10:
            raise
        from query.search import bidirectional_path

        found, how = bidirectional_path(rules, start_rank, target_rank), ", bidirectional search"
        if found is None:
            raise UnreachableError(explain_unreachable(rules, target_rank, method)) from None
    board, last = start_rank, None
    for square in found.clicks:
        legal = dict(rules.legal_moves(board, -1 if last is None else last, method))
        if square not in legal:
            raise QueryError(f"internal error: click {square} is not legal on "
                             f"{rules.format(board)}")
        board, last = legal[square], square
    if board != target_rank:
        raise QueryError("internal error: the path does not end on its target")
    return found, how


def _balls_game(state: str, data: Path):
    from builder.puzzles import check_length
    from builder.puzzles.balls import Balls, BallsError
    from builder.reader import BallsTable

    rules = Balls(*Balls.shape_of(check_length(state, "state", BallsError)))
    start = rules.parse(state)
    return rules, start, BallsTable(data, rules)


def _balls_path(start: str, target: str, data: Path, as_json: bool) -> None:
    from builder.walk import balls_path

    if target.strip().lower() != "cleared":
        from builder.puzzles import shown

        raise QueryError(f"ball-tube paths go to 'cleared', not {shown(target)}")
    rules, start_state, table = _balls_game(start, data)
    found = balls_path(rules, table, start_state)
    states = [rules.format(s) for s in found.states]
    if as_json:
        typer.echo(json.dumps({"start": states[0], "target": states[-1], "length": found.length,
                               "moves": [list(m) for m in found.moves], "states": states}))
        return
    typer.echo(f"{states[0]} -> cleared: {found.length} moves (shortest, table walk)")
    width = max(len(states[0]), 5)
    typer.echo(f"{'step':<5} {'state':<{width}}  move (tubes from 0)")
    for step, state in enumerate(states):
        move = f"{found.moves[step][0]} -> {found.moves[step][1]}" if step < found.length else (
            "cleared")
        typer.echo(f"{'init' if step == 0 else step:<5} {state:<{width}}  {move}")


def _generic_path(puzzle, start: str, target: str, data: Path, as_json: bool,
                  options: dict | None = None) -> None:
    """A shortest path by the engine's generic walk, printed the same way for any puzzle."""
    from builder.reader import Tables
    from builder.walk import walk

    variant = puzzle.variant(start, target, options or {})
    start_state = puzzle.parse(variant, start)
    goal = puzzle.parse_target(variant, target)
    found = walk(puzzle, Tables(data), variant, start_state, goal)
    positions = [puzzle.format(variant, node) for node in found.nodes]
    if as_json:
        typer.echo(json.dumps({"puzzle": puzzle.name, "start": positions[0],
                               "target": puzzle.format(variant, goal), "length": found.length,
                               "moves": list(found.labels), "states": positions}))
        return
    typer.echo(f"{positions[0]} -> {puzzle.format(variant, goal)}: {found.length} "
               f"{puzzle.unit} (shortest, table walk)")
    width = max(len(positions[0]), 8)
    typer.echo(f"{'step':<5} {'position':<{width}}  move")
    for step, position in enumerate(positions):
        label = found.labels[step] if step < found.length else "done"
        typer.echo(f"{'init' if step == 0 else step:<5} {position:<{width}}  {label}")


@app.command()
def moves(
    state: Annotated[str, typer.Argument(help="A position in any puzzle's notation.")],
    target: Annotated[str | None, typer.Argument(
        help="The target (default: the puzzle's goal, e.g. 'cleared' for ball tubes).")]
    = None,
    method: MethodOption = None,
    puzzle: PuzzleOption = None,
    rule_variant: VariantOption = None,
    data: DataOption = Path("data"),
    as_json: JsonOption = False,
) -> None:
    """Every legal move from STATE with the fewest moves to TARGET after it: the moves
    that keep the optimum are marked. Works for every puzzle with a distance table.

    Example: query moves WBWW.WBRB RRRR.RRRR
    """
    from builder.puzzles import registry
    from builder.reader import Tables
    from builder.walk import move_values

    chosen = registry.choose(state, puzzle)
    options = registry.check_options(chosen, {"method": method, "variant": rule_variant})
    if not chosen.walkable:
        raise QueryError(f"{chosen.name} has no positions to walk")
    variant = chosen.variant(state, target or "", options)
    if target is None:
        target = chosen.default_target(variant)
        if target is None:
            raise QueryError(f"give a TARGET: {chosen.name} has no single goal "
                             f"(e.g. query moves {chosen.example[0]} {chosen.example[1]})")
    goal = chosen.parse_target(variant, target)
    node = chosen.start_node(variant, chosen.parse(variant, state))
    here, values = move_values(chosen, Tables(data), variant, node, goal)
    shown_target = chosen.format(variant, goal)
    if as_json:
        typer.echo(json.dumps({
            "puzzle": chosen.name, "state": chosen.format(variant, node),
            "target": shown_target, "distance": here,
            "moves": [{"move": v.label, "state": chosen.format(variant, v.node),
                       "distance": v.distance,
                       "optimal": here is not None and v.distance == here - 1}
                      for v in values]}))
        return
    where = ("cannot reach it" if here is None else f"{here} {chosen.unit} from here")
    typer.echo(f"{chosen.format(variant, node)} -> {shown_target}: {where}")
    width = max([len(v.label) for v in values] + [4])
    position_width = max([len(chosen.format(variant, v.node)) for v in values] + [5])
    typer.echo(f"{'move':<{width}}  {'after':<{position_width}}  {chosen.unit} left")
    for v in values:
        left = "never" if v.distance is None else str(v.distance)
        mark = "  optimal" if here is not None and v.distance == here - 1 else ""
        typer.echo(f"{v.label:<{width}}  {chosen.format(variant, v.node):<{position_width}}  "
                   f"{left}{mark}")


@app.command()
def solvable(
    state: Annotated[str, typer.Argument(help="Ball-tube state, tubes top-first joined by "
                                              "'|', e.g. rggb|brrg|gbbr|.")],
    data: DataOption = Path("data"),
    as_json: JsonOption = False,
) -> None:
    """Can this ball-tube state be cleared, and in how few moves? Exits 1 if it cannot.

    Example: query solvable "rggb|brrg|gbbr|"
    """
    rules, parsed, table = _balls_game(state, data)
    moves = table.moves_to_clear(parsed)
    clearable = moves != 255
    if as_json:
        typer.echo(json.dumps({"state": rules.format(parsed), "clearable": clearable,
                               "moves": moves if clearable else None}))
    else:
        typer.echo(f"{rules.format(parsed)}: " + (f"clearable in {moves} moves" if clearable
                                                   else "can never be cleared"))
    if not clearable:
        sys.exit(1)


@random_app.command("balls")
def random_balls(
    clearable: Annotated[bool, typer.Option("--clearable", help="Only a game that can be "
                                            "cleared.")] = False,
    min_moves: Annotated[int, typer.Option("--min-moves", help="At least this many moves "
                                           "(implies --clearable).", min=0, max=255)] = 0,
    tubes: Annotated[int, typer.Option(help="Tubes.")] = 4,
    capacity: Annotated[int, typer.Option(help="Balls per tube.")] = 4,
    colours: Annotated[int, typer.Option(help="Colours.")] = 3,
    seed: SeedOption = None,
    data: DataOption = Path("data"),
    as_json: JsonOption = False,
) -> None:
    """Deal a random starting state (the first tubes full, the rest empty), optionally one
    that can be cleared and needs at least N moves: the document's fair games. Drawn
    uniformly from the starting states that qualify.

    Example: query random balls --clearable --min-moves 15
    """
    import numpy as np

    from builder.puzzles.balls import Balls
    from builder.reader import BallsTable
    from builder.walk import deal_balls

    rules = Balls(tubes, capacity, colours)
    state, moves = deal_balls(rules, BallsTable(data, rules), np.random.default_rng(seed),
                              min_moves, clearable)
    result = {"state": rules.format(state), "clearable": moves != 255,
              "moves": None if moves == 255 else moves}
    if as_json:
        typer.echo(json.dumps(result))
    else:
        typer.echo(f"{result['state']}  " + (f"clearable in {moves} moves" if moves != 255
                                             else "can never be cleared"))


def _plugin_printed(puzzle, start: str, target: str, data: Path, as_json: bool) -> bool:
    """The plug-in's own `query path` layout (``Puzzle.print_path``), if it has one."""
    from builder.reader import Tables
    from builder.walk import walk

    tables = Tables(data)
    return puzzle.print_path(
        tables, lambda chosen, variant, first, last: walk(chosen, tables, variant, first, last),
        start, target, as_json)


def _decomposition_path(start: str, target: str, data: Path, as_json: bool) -> None:
    from builder.puzzles.tricolore.decomposition import DecompositionSolver
    from builder.reader import Tables

    rules, start_rank, target_rank = _tricolore_pair(start, target, "unrestricted")
    if (rules.width, rules.height) != (4, 4):
        raise QueryError("--method decomposition solves 4x4 boards (four rows of four)")
    found = DecompositionSolver(Tables(data)).solve(start_rank, target_rank)
    boards = [rules.format(b) for b in found.boards]
    if as_json:
        typer.echo(json.dumps({"start": boards[0], "target": boards[-1],
                               "method": "decomposition", "length": found.length,
                               "clicks": list(found.clicks), "halves": list(found.halves),
                               "rotation": found.rotation, "boards": boards}))
        return
    parts = " + ".join(f"{h} {found.count(h)}" for h in ("top", "bottom", "extension")
                       if found.count(h))
    typer.echo(f"{boards[0]} -> {boards[-1]}: {found.length} clicks (decomposition: {parts}; "
               f"rotation {found.rotation}; not guaranteed optimal)")
    _print_path(boards, list(found.clicks), list(found.halves))


@app.command()
def distance(
    start: Annotated[str, typer.Argument(help="Start board, e.g. RRRR.RRRR.")],
    target: Annotated[str, typer.Argument(help="Target board, e.g. WWWW.WWWW.")],
    method: MethodOption = None,
    data: DataOption = Path("data"),
    as_json: JsonOption = False,
) -> None:
    """Minimum number of clicks (at least one) from START to TARGET.

    Example: query distance RRRR.RRRR WWWW.WWWW
    """
    from builder.walk import UnreachableError, explain_unreachable, tricolore_distance

    method = method or "unrestricted"
    rules, start_rank, target_rank = _tricolore_pair(start, target, method)
    try:
        clicks = tricolore_distance(_exact_table(data, rules, target_rank, method), start_rank,
                                    target_rank)
    except QueryError:
        if rules.n_squares <= 10 or method != "unrestricted":
            raise
        found, _ = _exact_path(data, rules, start_rank, target_rank, method)
        clicks = found.length
    if as_json:
        typer.echo(json.dumps({"start": rules.format(start_rank), "target": rules.format(
            target_rank), "method": method, "clicks": clicks}))
        if clicks is None:  # the same exit status as the text form's error
            print(f"error: {explain_unreachable(rules, target_rank, method)}", file=sys.stderr)
            sys.exit(2)
        return
    if clicks is None:
        raise UnreachableError(explain_unreachable(rules, target_rank, method))
    typer.echo(clicks)


def _connect(data: Path):
    from builder.reader import open_catalog

    return open_catalog(data)


@app.command()
def sql(
    statement: Annotated[str, typer.Argument(help="A SQL query over the catalog.")],
    data: DataOption = Path("data"),
    as_json: JsonOption = False,
    as_csv: CsvOption = False,
) -> None:
    """Run SQL against the DuckDB catalog and print the result. The catalog is opened
    read-only with file access switched off: SQL can read the catalog's tables and views,
    never another file, and can write nothing.

    Example: query sql "SELECT * FROM tricolore_max_clicks_range"
    """
    import duckdb

    if not statement.strip().strip(";").strip():
        raise QueryError("empty SQL statement: give a query, e.g. "
                         "\"SELECT * FROM tricolore_max_clicks_range\"")
    with _connect(data) as con:
        try:
            result = con.execute(statement)
            if result.description is None:
                return
            columns = [d[0] for d in result.description]
            rows = result.fetchall()
        except duckdb.Error as error:
            message = (str(error).splitlines() or [type(error).__name__])[0]
            raise QueryError(f"SQL error: {message[:300]}") from None
        _print_rows(columns, rows, as_json, as_csv)


@stats_app.command("tricolore")
def stats_tricolore(data: DataOption = Path("data"), as_json: JsonOption = False) -> None:
    """The document's 4×2 tables: clicks per method, and the reversed (per-target) table.

    Example: query stats tricolore
    """
    from builder.puzzles.tricolore import METHODS

    with _connect(data) as con:
        distribution = con.execute(
            "SELECT method, clicks, reached, average, percent FROM tricolore_click_distribution"
        ).fetchall()
        summary = {
            row[0]: row[1:]
            for row in con.execute(
                "SELECT method, average_clicks, starts FROM tricolore_click_summary"
            ).fetchall()
        }
        targets = con.execute(
            "SELECT method, target, average_document_starts, maximum, exact_average "
            "FROM tricolore_target_summary "
            "WHERE target IN ('WWWW.WWWW', 'WBWB.BWBW', 'RRRR.RRRR') "
            "ORDER BY method, maximum"
        ).fetchall()
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "distribution": [
                        dict(zip(("method", "clicks", "reached", "average", "percent"), row))
                        for row in distribution
                    ],
                    "average_clicks": {m: s[0] for m, s in summary.items()},
                    "targets": [
                        dict(zip(("method", "target", "average", "maximum",
                                  "average_all_starts"), row))
                        for row in targets
                    ],
                }
            )
        )
        return
    for method in METHODS:
        rows = [r for r in distribution if r[0] == method]
        if not rows:
            continue
        starts = summary[method][1]
        typer.echo(f"\n{method.capitalize()}  ({starts} mirror-canonical starts)")
        typer.echo(f"{'Clicks':>6} {'Reached':>10} {'Average':>8} {'Percent':>7}")
        for _, clicks, reached, average, percent in rows:
            label = "Total" if clicks is None else str(clicks)
            shown = f"{average:.0f}" if clicks is None else f"{average:.1f}"
            typer.echo(f"{label:>6} {reached:>10} {shown:>8} {percent:>6}%")
        typer.echo(f"Average Clicks {summary[method][0]:.1f}")
    typer.echo("\nMethod        Final State  Average  Maximum  (average over all 6561 starts)")
    for method, target, average, maximum, average_all in targets:
        shown = "-" if average is None else f"{average:.1f}"
        typer.echo(f"{method:<13} {target:<12} {shown:>7} {maximum!s:>8}  ({average_all:.2f})")


@app.command()
def serve(
    port: Annotated[int, typer.Option(help="Port to listen on (1-65535).", min=1,
                                      max=65535)] = 8000,
    host: Annotated[str, typer.Option(help="Address to bind (default: this machine only).")]
    = "127.0.0.1",
    data: DataOption = Path("data"),
) -> None:
    """Play Tricolore and the ball tubes in the browser with optimal hints, from the tables;
    the JSON API is documented at /docs.

    Example: query serve --port 8000   (then open http://127.0.0.1:8000)
    """
    import uvicorn

    from query.web import create_app

    if not (data / "catalog.duckdb").exists():
        from builder.reader import MissingTableError

        raise MissingTableError(f"no tables in {data}: run `make tables`")
    import socket

    try:  # a port in use or not ours is one line here, not a server log and exit
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        raise QueryError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    uvicorn.run(create_app(data), host=host, port=port, log_level="warning")


plot_app = typer.Typer(help="Charts of the statistics (PNG and SVG).", no_args_is_help=True)
app.add_typer(plot_app, name="plot")


@plot_app.command("tricolore")
def plot_tricolore(
    out: Annotated[Path, typer.Option(help="Folder to write the charts to.")] = Path("plots"),
    data: DataOption = Path("data"),
) -> None:
    """The click-distribution charts: the three 4×2 methods side by side, and the
    distributions towards WWWW.WWWW, WBWB.BWBW and RRRR.RRRR.

    Example: query plot tricolore --out plots
    """
    from query.plots import write_tricolore_plots

    if out.exists() and not out.is_dir():
        raise QueryError(f"--out {out} is a file, not a folder")
    with _connect(data) as con:
        try:
            written = write_tricolore_plots(con, out)
        except OSError as error:
            raise QueryError(f"cannot write the charts to {out}: "
                             f"{error.strerror or error}") from None
    for path in written:
        typer.echo(path)


def _mount_plugin_commands() -> None:
    """Every plug-in's own commands (``Puzzle.query_commands``): `query NAME COMMAND`,
    and `query random NAME` for its deal."""
    from builder.puzzles import registry

    for puzzle in registry.PUZZLES:
        own = None
        for name, function in puzzle.query_commands().items():
            if name == "random":
                random_app.command(puzzle.name)(_plugin_command(function))
                continue
            if own is None:
                own = typer.Typer(help=puzzle.summary, no_args_is_help=True)
                app.add_typer(own, name=puzzle.name)
            own.command(name)(_plugin_command(function))


def _plugin_command(function):
    """A plug-in's command as a typer command: its parameters, `--data` when it reads
    tables, and its return value as the exit code."""
    import inspect

    from builder.command_line import as_command, plugin_parameters

    parameters, wanted = plugin_parameters(function, ("tables",))
    if wanted:
        parameters.append(inspect.Parameter("data", inspect.Parameter.KEYWORD_ONLY,
                                            default=Path("data"), annotation=DataOption))

    def command(**options) -> None:
        if wanted:
            from builder.reader import Tables

            options["tables"] = Tables(options.pop("data"))
        code = function(**options)
        if code:
            sys.exit(code)

    return as_command(command, parameters, function.__doc__, function.__name__)


_mount_plugin_commands()


def main() -> None:
    """One line per failure (``builder.command_line``)."""
    from builder.command_line import run_app

    run_app(app)
