"""`query`: answers from the built tables (never writes data/).

Examples (each puzzle's own are in `query path --help`, from its plug-in):

    query path START TARGET --json
    query moves NAME:STATE
    query sql "SELECT * FROM table_summary"

Heavy modules (duckdb, zarr, numba) are imported only by the commands that need them.
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
from pathlib import Path
from typing import Annotated

import typer

from builder.command_line import DATA_VARIABLE, data_default
from builder.contract.cli_options import JsonOption, Limit
from builder.contract.errors import MOST_SOLVER_STATES
from builder.contract.puzzle import Charting, Describing, Printing, Walking, walkable
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
plot_app = typer.Typer(help="Charts of the statistics (PNG and SVG).", no_args_is_help=True)
app.add_typer(plot_app, name="plot")


GROUPS = {"random": random_app, "stats": stats_app}
"""Plug-in commands by these names are mounted as `query GROUP PUZZLE`."""

DataOption = Annotated[Path, typer.Option(
    "--data", envvar=DATA_VARIABLE, show_default=False, callback=data_default,
    help="Directory holding the built tables (default: $TABLEBASE_DATA, else ./data where it "
    "exists, else the project's data folder).")]
CsvOption = Annotated[bool, typer.Option("--csv", help="Print CSV.")]
PuzzleOption = Annotated[str | None, typer.Option(
    "--puzzle", help="Which puzzle the notation is (default: the one that recognises it; "
    "needed only when two do).", show_default=False)]
GoalArgument = Annotated[str | None, typer.Argument(
    help="The target (default: the puzzle's goal, where it has one).")]
SeedOption = Annotated[int | None, typer.Option(
    help="Random seed, 0 or more (default: fresh).", min=0, max=2**63 - 1)]
BudgetOption = Annotated[int | None, typer.Option(
    "--budget", metavar="NODES", min=1, show_default=False,
    help="Where no table answers and an exact search does (IDA* on pattern databases, the "
    "ball solver's A*), stop it after generating this many nodes, all of the command's "
    "searches together (it generates millions a second); it then exits 2 with one line "
    "naming the fewest moves it proved ('at least N'), which --json carries as "
    "lower_bound.")]
SecondsOption = Annotated[float | None, typer.Option(
    "--seconds", metavar="S", click_type=Limit(0.001, 86_400), show_default=False,
    help="Stop that search after this many seconds, the same way (default: no limit).")]


def counted(count: int, unit: str) -> str:
    """``count`` of a plug-in's unit, which is plural ("moves", "turns"): one of it is
    singular ("1 move")."""
    return f"{count} {unit[:-1] if count == 1 and unit.endswith('s') else unit}"

def _json_value(value):
    """A value JSON can hold: NaN and infinities become null (JSON has no such numbers)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def path(
    start: Annotated[str, typer.Argument(help="Start, in any registered puzzle's notation "
                                              "(or NAME:STATE); examples below.")],
    target: GoalArgument = None,
    puzzle: PuzzleOption = None,
    data: DataOption = Path("data"),
    as_json: JsonOption = False,
    build_table: Annotated[bool, typer.Option(
        "--build-table", help="First build the table that answers this pair if it is "
                              "missing (a table towards one target: seconds), then walk it.")]
    = False,
    draw: Annotated[bool, typer.Option(
        "--draw", help="Draw every position of the path, where the puzzle has a drawing.")]
    = False,
    budget: BudgetOption = None,
    seconds: SecondsOption = None,
    optimal: Annotated[bool, typer.Option(
        "--optimal", help="With --budget or --seconds: a proved shortest path or none "
        "(exit 2), never the best path found so far.")] = False,
    options: dict | None = None,
) -> None:
    """A shortest move sequence from START to TARGET (default: the puzzle's goal),
    by walking the stored tables, or by the puzzle's own search where no table
    answers.

    The puzzle is the one whose notation START is (`NAME:STATE` or `--puzzle`
    names one when two recognise it); a plug-in may print its own layout. Its
    options (below) are declared by its plug-in.

    A search can be bounded: `--budget 1000000` (nodes) or `--seconds 10`.
    One that runs out says the fewest moves it proved ("stopped at its budget
    of 1,000,000 nodes: at least N moves") and exits 2; where the puzzle also
    has an instant approximate solver, it answers the best path found instead,
    "at most N moves, at least L proved" (exit 0), unless --optimal.
    """
    chosen, handle, start, target = _asked(start, target, puzzle, options, data, "path")
    if build_table:
        goal = target or chosen.default_target(chosen.variant(start, "", handle.options))
        _build_answering_table(chosen, start, goal, handle.options, data, as_json)
    with _stopped_as_json(as_json, {"puzzle": chosen.name, "start": start,
                                    "target": _target_of(chosen, handle, start, target),
                                    "length": None}):
        found = handle.path(start, target, budget=budget, seconds=seconds, optimal=optimal)
    print_path(chosen, found, as_json, draw)


def _target_of(puzzle, handle, start: str, target: str | None) -> str:
    """The target as asked: the puzzle's goal where none was given."""
    if target is not None:
        return target
    return puzzle.default_target(puzzle.variant(start, "", handle.options)) or ""


@contextlib.contextmanager
def _stopped_as_json(as_json: bool, fields: dict):
    """A search stopped at its --budget or --seconds: with --json, ``fields`` and what it
    proved (``lower_bound``; ``after``: the move whose position it searched) on stdout;
    its one line on stderr and exit status 2 either way."""
    from builder.contract.errors import SearchLimitError

    try:
        yield
    except SearchLimitError as stopped:
        if as_json:
            typer.echo(json.dumps({**fields, "lower_bound": stopped.lower_bound,
                                   **({"after": stopped.after} if stopped.after else {}),
                                   "nodes": stopped.nodes, "stopped": str(stopped)}))
        raise


def _build_answering_table(puzzle, start: str, target: str, options: dict, data: Path,
                           quiet: bool) -> None:
    """`query path --build-table`: build (if missing) the table the plug-in says answers
    the pair, and bring the catalog up to date with it (progress on stderr)."""
    from builder import workspace
    from builder.catalog import refresh_catalog
    from builder.contract.puzzle import Building
    from builder.routine import build_table

    # the directory is checked (and taken from other builders) before any search runs
    workspace.hold(Path(data), "query path --build-table", create=False)
    variant = puzzle.variant(start, target, options)
    spec = Building.of(puzzle).table_answering(variant, puzzle.parse(variant, start),
                                  Walking.of(puzzle).parse_target(variant, target))
    if spec is None:
        return  # the stored tables (or the plug-in's search) already answer it
    with contextlib.redirect_stdout(sys.stderr):
        result = build_table(Path(data), spec, progress=not quiet)
        if result.built:
            refresh_catalog(Path(data))


def print_path(puzzle, found, as_json: bool, draw: bool = False) -> None:
    """`query path`'s one printer, for every puzzle: the API's path (the engine's walk,
    or the plug-in's search or approximate solver where no table answers) as a table of
    steps, or as JSON whose keys the plug-in names (``path_words``) and whose moves it
    may format (``step_value``)."""
    positions = [found.start, *(step.position for step in found.steps)]
    labels = found.moves
    position_word, move_word, positions_key, moves_key = Printing.of(puzzle).path_words
    variant = found.variant
    fields = Describing.of(puzzle).variant_fields(variant)
    if as_json:
        typer.echo(json.dumps({
            "puzzle": puzzle.name, **fields, "start": positions[0],
            "target": found.target, "length": found.length,
            "how": found.how, "optimal": found.optimal,
            moves_key: [Printing.of(puzzle).step_value(variant, label) for label in labels],
            positions_key: positions, **found.details}))
        return
    unit = Describing.of(puzzle).unit
    amount, kind = counted(found.length, unit), ["shortest" if found.optimal
                                              else "not guaranteed shortest"]
    if not found.optimal and found.lower_bound is not None:  # a search ran out
        amount, kind = (f"at most {counted(found.length, unit)}, at least {found.lower_bound} "
                        "proved"), []
    said = ", ".join(dict.fromkeys([*(str(value) for value in fields.values()), *kind,
                                    found.how]))
    typer.echo(f"{positions[0]} -> {found.target}: {amount} ({said})")
    width = max(len(positions[0]), len(position_word))
    typer.echo(f"{'step':<5} {position_word:<{width}}  {move_word}")
    for step, position in enumerate(positions):
        if Printing.of(puzzle).move_shown_after:
            label = labels[step - 1] if step else ""
        else:
            label = labels[step] if step < found.length else "done"
        typer.echo(f"{'init' if step == 0 else step:<5} {position:<{width}}  {label}".rstrip())
    drawings = [Printing.of(puzzle).drawing(variant, node) for node in found.nodes] if (
        draw) else []
    for step, drawn in enumerate(drawings):
        if drawn:
            made = (f": after {labels[step - 1]}" if step else ": the start")
            typer.echo(f"\n{'init' if step == 0 else step}{made}\n{drawn}")


def moves(
    state: Annotated[str, typer.Argument(help="A position in any puzzle's notation.")],
    target: GoalArgument = None,
    puzzle: PuzzleOption = None,
    data: DataOption = Path("data"),
    as_json: JsonOption = False,
    budget: BudgetOption = None,
    seconds: SecondsOption = None,
    options: dict | None = None,
) -> None:
    """Every legal move from STATE with the fewest moves to TARGET after it: the moves
    that keep the optimum are marked. Works for every puzzle with a distance table, and
    where a search answers instead (one per move: --budget and --seconds bound them all
    together; one that runs out says after which move).
    """
    chosen, handle, state, target = _asked(state, target, puzzle, options, data, "moves")
    with _stopped_as_json(as_json, {"puzzle": chosen.name, "state": state,
                                    "target": _target_of(chosen, handle, state, target),
                                    "distance": None}):
        found = handle.position(state, target, budget=budget, seconds=seconds)
    here = found.distance
    if as_json:
        typer.echo(json.dumps({
            "puzzle": chosen.name, "state": found.state,
            "target": found.target, "distance": here,
            "moves": [{"move": step.move, "state": step.position,
                       "distance": step.distance,
                       "optimal": here is not None and step.distance == here - 1}
                      for step in found.moves]}))
        return
    unit = Describing.of(chosen).unit
    where = ("cannot reach it" if here is None else f"{counted(here, unit)} from here")
    typer.echo(f"{found.state} -> {found.target}: {where}")
    width = max([len(step.move) for step in found.moves] + [4])
    position_width = max([len(step.position) for step in found.moves] + [5])
    typer.echo(f"{'move':<{width}}  {'after':<{position_width}}  {unit} left")
    for step in found.moves:
        left = "never" if step.distance is None else str(step.distance)
        mark = "  optimal" if here is not None and step.distance == here - 1 else ""
        typer.echo(f"{step.move:<{width}}  {step.position:<{position_width}}  {left}{mark}")


def _asked(state: str, target: str | None, puzzle: str | None, options: dict | None,
          data: Path, command: str) -> tuple:
    """(the plug-in, its handle in the Python API, the position, the target) of a
    command that takes a position in any puzzle's notation and an optional target
    (default: the puzzle's goal): the command line's part is finding the puzzle."""
    from builder import registry
    from query.api import open_tablebase
    from query.walk import checked_notation

    checked_notation(state, target)  # before any puzzle reads it
    chosen, state = registry.resolve(state, puzzle)
    handle = open_tablebase(data).puzzle(chosen.name, **(options or {}))
    if target is None:  # the API goes to the goal; a puzzle without one is told here
        if chosen.default_target(chosen.variant(state, "", handle.options)) is None:
            example = Describing.of(chosen).example
            raise QueryError(f"give a TARGET: {chosen.name} has no single goal (e.g. "
                             f"query {command} {example[0]} {example[1]})")
        return chosen, handle, state, None
    return chosen, handle, state, registry.in_notation(chosen, target)


def solvable(
    state: Annotated[str, typer.Argument(help="A position in any puzzle's notation (or "
                                              "NAME:STATE).")],
    target: GoalArgument = None,
    puzzle: PuzzleOption = None,
    data: DataOption = Path("data"),
    as_json: JsonOption = False,
    budget: BudgetOption = None,
    seconds: SecondsOption = None,
    options: dict | None = None,
) -> None:
    """Can STATE reach its goal (or TARGET), and in how few moves? Exits 1 if it cannot
    (2 if a search bounded by --budget or --seconds runs out first).
    """
    chosen, handle, state, target = _asked(state, target, puzzle, options, data, "solvable")
    able, reached = Describing.of(chosen).goal_words
    with _stopped_as_json(as_json, {"state": state, able: None,
                                    Describing.of(chosen).unit: None}):
        answer = handle.answer(state, target, budget=budget, seconds=seconds)
    found = answer.distance
    if as_json:
        typer.echo(json.dumps({"state": answer.start, able: found is not None,
                               Describing.of(chosen).unit: found}))
    else:
        unit = Describing.of(chosen).unit
        typer.echo(f"{answer.start}: " + (f"{able} in {counted(found, unit)}" if found is not None
                                          else f"can never be {reached}"))
    if found is None:
        sys.exit(1)


def distance(
    start: Annotated[str, typer.Argument(help="Start position, e.g. RRRR.RRRR.")],
    target: Annotated[str, typer.Argument(help="Target position, e.g. WWWW.WWWW.")],
    puzzle: PuzzleOption = None,
    data: DataOption = Path("data"),
    as_json: JsonOption = False,
    budget: BudgetOption = None,
    seconds: SecondsOption = None,
    options: dict | None = None,
) -> None:
    """Fewest moves from START to TARGET, from the tables, or from the plug-in's
    search where no table answers (a puzzle whose walk must move counts a start
    equal to its target as its shortest return). --budget or --seconds bound the
    search: one that runs out exits 2 naming the fewest moves it proved.
    """
    from query.api import UnreachableError

    chosen, handle, start, target = _asked(start, target, puzzle, options, data, "distance")
    with _stopped_as_json(as_json, {"start": start, "target": target,
                                    Describing.of(chosen).unit: None}):
        answer = handle.answer(start, target, budget=budget, seconds=seconds)
    found = answer.distance
    if as_json:
        typer.echo(json.dumps({"start": answer.start, "target": answer.target,
                               **answer.fields, Describing.of(chosen).unit: found}))
        if found is None:  # the same exit status as the text form's error
            print(f"error: {handle.unreachable(start, target)}", file=sys.stderr)
            sys.exit(2)
        return
    if found is None:
        raise UnreachableError(handle.unreachable(start, target))
    typer.echo(found)


def _connect(data: Path):
    from builder.reader import open_catalog

    return open_catalog(data)


SQL_TIMEOUT = 60.0
"""Seconds a `query sql` statement may run by default (--timeout)."""
SQL_MOST_SECONDS = 86_400.0
"""The longest --timeout (a day): longer is meant as no limit, which --timeout 0 says (inf,
or a number past what a timer takes, was a thread's traceback and no limit at all)."""
SQL_INTERRUPT_GRACE = 1.0
"""Seconds an interrupted statement is given to stop before the command ends without it."""
SQL_BATCH_ROWS = 10_000
"""Rows fetched and printed at a time: a result of millions of rows is never held whole."""


@app.command()
def sql(
    statement: Annotated[str, typer.Argument(help="A SQL query over the catalog.")],
    data: DataOption = Path("data"),
    as_json: JsonOption = False,
    as_csv: CsvOption = False,
    timeout: Annotated[float, typer.Option(
        help="Stop the statement after this many seconds (0: no limit).",
        click_type=Limit(0, SQL_MOST_SECONDS))]
    = SQL_TIMEOUT,
) -> None:
    """Run SQL against the DuckDB catalog and print the result, as it is fetched. The
    catalog is opened read-only with file access switched off: SQL can read the catalog's
    tables and views, never another file, and can write nothing; a statement may hold at
    most 2 GB of memory and run for --timeout seconds.

    Example: query sql "SELECT * FROM table_summary"
    """
    import threading

    import duckdb

    if as_json and as_csv:
        raise QueryError("--json and --csv: choose one output format")
    _limit_address_space(SQL_ADDRESS_SPACE)
    if not statement.strip().strip(";").strip():
        raise QueryError("empty SQL statement: give a query, e.g. "
                         "\"SELECT * FROM table_summary\"")
    con = _connect(data)
    failed: list[BaseException] = []

    def run() -> None:
        try:
            result = con.execute(statement)
            if result.description is not None:
                columns = [d[0] for d in result.description]
                _print_batches(columns, lambda: result.fetchmany(SQL_BATCH_ROWS), as_json,
                               as_csv)
        except BaseException as error:  # noqa: BLE001 (answered by the main thread)
            failed.append(error)
        finally:
            con.close()

    # DuckDB sees an interrupt only between vectors: one long scalar (a repeat() of a
    # billion characters) runs on past it.  The statement runs in a daemon thread, so the
    # command ends at the timeout whatever the statement is doing, leaving it behind.
    statement_thread = threading.Thread(target=run, name="query sql", daemon=True)
    statement_thread.start()
    statement_thread.join(timeout or None)
    stopped = QueryError(f"SQL stopped after {timeout:g} s (--timeout): narrow the query, "
                         "or allow it longer")
    if statement_thread.is_alive():
        with contextlib.suppress(duckdb.Error):  # it may have just ended and closed
            con.interrupt()
        statement_thread.join(SQL_INTERRUPT_GRACE)
        if statement_thread.is_alive():
            raise stopped
    if not failed:
        return
    try:
        raise failed[0]
    except duckdb.InterruptException:
        raise stopped from None
    except (duckdb.OutOfMemoryException, MemoryError):
        raise QueryError("SQL needs more memory than a statement may hold (2 GB of "
                         "DuckDB's buffers): narrow the query") from None
    except duckdb.Error as error:
        message = (str(error).splitlines() or [type(error).__name__])[0]
        raise QueryError(f"SQL error: {message[:300]}") from None


SQL_ADDRESS_SPACE = 6 * 2**30
"""Bytes of address space `query sql` may map: DuckDB's memory_limit bounds its buffers but
not every allocation (a string of gigabytes built by repeat() is not counted), so the
process itself is bounded; past it the statement fails as "out of memory"."""


def _limit_address_space(limit: int) -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft == resource.RLIM_INFINITY or soft > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _print_batches(columns: list[str], fetch, as_json: bool, as_csv: bool) -> None:
    """Rows printed batch by batch as ``fetch`` gives them (an empty batch ends them): JSON
    as one array written piece by piece, CSV as it comes, the text table with the widths
    of its first batch (a later wider value widens its own line only)."""
    batch = fetch()
    if as_json:
        sys.stdout.write("[")
        first = True
        while batch:
            for row in batch:
                sys.stdout.write(("" if first else ", ") + json.dumps(
                    {c: _json_value(v) for c, v in zip(columns, row)}, default=str,
                    allow_nan=False))
                first = False
            batch = fetch()
        sys.stdout.write("]\n")
        return
    if as_csv:
        import csv

        writer = csv.writer(sys.stdout)
        writer.writerow(columns)
        while batch:
            writer.writerows(batch)
            batch = fetch()
        return
    widths = None
    while True:
        shown = [["" if value is None else str(value) for value in row] for row in batch]
        if widths is None:
            widths = [max([len(c)] + [len(r[i]) for r in shown]) for i, c in enumerate(columns)]
            typer.echo("  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip())
        sys.stdout.write("".join(
            "  ".join(v.rjust(w) if v[:1].isdigit() or v[:1] == "-" else v.ljust(w)
                      for v, w in zip(row, widths)).rstrip() + "\n" for row in shown))
        if not batch:
            return
        batch = fetch()


@app.command()
def serve(
    port: Annotated[int, typer.Option(help="Port to listen on (1-65535).", min=1,
                                      max=65535)] = 8000,
    host: Annotated[str, typer.Option(help="Address to bind (default: this machine only).")]
    = "127.0.0.1",
    data: DataOption = Path("data"),
    allow_builds: Annotated[int, typer.Option(
        "--allow-builds", help="Let visitors build up to this many tables on request (each "
        "a plug-in's table towards one target: seconds, tens of MB); 0: none.", min=0,
        max=1000)] = 0,
    searches: Annotated[int, typer.Option(
        "--searches", help="Searches and solver runs at once (more wait in a short queue, "
        "then get 503); table answers never wait for them. 0: cores - 1.", min=0,
        max=64)] = 0,
    search_seconds: Annotated[float, typer.Option(
        "--search-seconds", help="Longest a request's searches may take (then 503).",
        click_type=Limit(1, 3600))] = 15.0,
    max_budget: Annotated[int, typer.Option(
        "--max-budget", help="Most nodes a request may ask a plug-in's solver for "
        "(then 429).",
        min=1_000, max=MOST_SOLVER_STATES)] = 2_000_000,
) -> None:
    """Play every registered puzzle that ships a board renderer in the browser, with exact
    hints, the par, Solve with Stop and shareable positions; the JSON API is documented at
    /docs (works offline).  Searches run a few at a time within the limits set here, so
    hints stay instant under load.

    Example: query serve --port 8000   (then open http://127.0.0.1:8000)
    """
    if not host.strip():  # an empty address binds every interface: say so, never silently
        raise QueryError(f"--host {host!r}: give the address to listen on (127.0.0.1: this "
                         "machine only; 0.0.0.0: every interface)")
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
    from builder.gate import WorkGate

    gate = WorkGate(slots=searches or None, request_seconds=search_seconds,
                    max_budget=max_budget)
    _quiet_protocol_errors()
    uvicorn.run(create_app(data, allow_builds=allow_builds, gate=gate), host=host, port=port,
                log_level="warning")


def _quiet_protocol_errors() -> None:
    """A malformed request (a broken chunked body...) is logged as one line, without the
    parser's traceback: the client was wrong, not the server."""
    import logging

    class OneLine(logging.Filter):
        def filter(self, record: logging.LogRecord) -> bool:
            if record.exc_info and record.levelno < logging.ERROR:
                reason = record.exc_info[1]
                record.msg = f"{record.getMessage()} ({type(reason).__name__}: {reason})"
                record.args, record.exc_info, record.exc_text = (), None, None
            return True

    logging.getLogger("uvicorn.error").addFilter(OneLine())


def _with_puzzle_options(function):
    """``function`` (whose last parameter is ``options``) as a command that also takes
    every option a registered puzzle declares (`--method`, `--variant`...), handed to it
    in ``options`` by name (None where not given): this module names none of them."""
    import inspect

    from builder import registry
    from builder.command_line import as_command, plugin_parameters

    own, _ = plugin_parameters(function, ("options",))
    own = [parameter.replace(kind=inspect.Parameter.POSITIONAL_OR_KEYWORD)
           if parameter.default is inspect.Parameter.empty or parameter.name in (
               "start", "state", "target") else parameter for parameter in own]
    declared = registry.all_options()
    added = []
    for name, takers in declared.items():
        help_text = "; ".join(f"{puzzle.name}: {option.help}" for puzzle, option in takers)
        added.append(inspect.Parameter(
            f"option_{name}", inspect.Parameter.KEYWORD_ONLY, default=None,
            annotation=Annotated[str | None, typer.Option(f"--{name}", help=help_text,
                                                          show_default=False)]))

    def command(**given):
        options = {name: given.pop(f"option_{name}") for name in declared}
        return function(**given, options=options)

    return as_command(command, own + added, _with_examples(function), function.__name__)


def _with_examples(function) -> str:
    """A command's help with one example per registered puzzle, from its plug-in."""
    from builder import registry

    name = function.__name__
    examples = {puzzle.name: Describing.of(puzzle).example for puzzle in registry.PUZZLES
                if walkable(puzzle)}
    lines = [f"query {name} {' '.join(_quoted(text) for text in example if text)}"
             f"   ({puzzle})" for puzzle, example in examples.items() if example[1]]
    return (function.__doc__ or "").rstrip() + "\n\n    Examples:\n\n" + "".join(
        f"    {line}\n\n" for line in lines)


def _quoted(text: str) -> str:
    return f'"{text}"' if any(ch in text for ch in "|&;<> ") else text


for _command in (path, moves, solvable, distance):
    app.command(_command.__name__)(_with_puzzle_options(_command))


def _plot_command(puzzle):
    """`query plot NAME`: write the plug-in's charts (``Playing.figures``) as PNG and SVG."""

    def plot(
        out: Annotated[Path, typer.Option(help="Folder to write the charts to.")]
        = Path("plots"),
        data: DataOption = Path("data"),
    ) -> None:
        if out.exists() and not out.is_dir():
            raise QueryError(f"--out {out} is a file, not a folder")
        with _connect(data) as con:
            figures = Charting.of(puzzle).figures(con)
        try:
            out.mkdir(parents=True, exist_ok=True)
            for name, figure in figures.items():
                for suffix in ("png", "svg"):
                    written = out / f"{puzzle.name}_{name}.{suffix}"
                    figure.savefig(written, dpi=110)
                    typer.echo(written)
        except OSError as error:
            raise QueryError(f"cannot write the charts to {out}: "
                             f"{error.strerror or error}") from None

    charts = ", ".join(Charting.of(puzzle).figure_names)
    plot.__doc__ = (f"The {puzzle.name} charts ({charts}), drawn "
                    f"from the catalog, as PNG and SVG.\n\nExample: query plot {puzzle.name} "
                    "--out plots")
    return plot


TableArgument = Annotated[str | None, typer.Argument(
    help="Which of the puzzle's stored tables, where it has several (an error lists them).",
    show_default=False)]
CountOption = Annotated[int, typer.Option("--count", "-n", min=1, max=100_000,
                                          help="How many positions.")]


def _print_levels(found: list, unit: str, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps([{"position": level.position, "target": level.target,
                                unit: level.distance} for level in found]))
        return
    width = max((len(level.position) for level in found), default=0)
    for level in found:
        typer.echo(f"{level.position:<{width}}  {counted(level.distance, unit)} to "
                   f"{level.target}")


@app.command()
def hardest(
    name: Annotated[str, typer.Argument(help="A puzzle's name (as `query random` lists "
                                             "them).")],
    table: TableArgument = None,
    count: CountOption = 10,
    data: DataOption = Path("data"),
    as_json: JsonOption = False,
) -> None:
    """The positions of a stored table farthest from its target, farthest first.

    Example: query hardest NAME -n 3 (where NAME has several tables, the error lists
    them: name one after NAME).
    """
    from query.api import open_tablebase

    with open_tablebase(data) as tablebase:
        chosen = tablebase.puzzle(name)
        found = chosen.hardest(count, table)
    _print_levels(found, Describing.of(chosen.plugin).unit, as_json)


def _random_command(puzzle):
    """`query random NAME`: levels drawn from a puzzle's tables at a chosen distance."""

    def deal(
        table: TableArgument = None,
        distance: Annotated[int, typer.Option(
            "--distance", min=0, help="Moves from the target: the level's difficulty.")] = 0,
        unique: Annotated[bool, typer.Option(
            "--unique", help="Only positions with exactly one best first move.")] = False,
        count: CountOption = 1,
        seed: SeedOption = None,
        data: DataOption = Path("data"),
        as_json: JsonOption = False,
    ) -> None:
        from query.api import open_tablebase

        with open_tablebase(data) as tablebase:
            found = tablebase.puzzle(puzzle.name).deal(distance, count, seed, unique, table)
        _print_levels(found, Describing.of(puzzle).unit, as_json)

    deal.__doc__ = (f"{puzzle.name} positions drawn at random a given number of moves from "
                    f"the target of one of its stored tables: levels of a chosen difficulty."
                    f"\n\nExample: query random {puzzle.name} --distance 10 --unique")
    return deal


def _mount_plugin_commands() -> None:
    """Every plug-in's own commands (``Printing.query_commands``): `query NAME COMMAND`,
    `query random NAME` for its deal, `query stats NAME` for its statistics; and
    `query plot NAME` for a plug-in with charts."""
    from builder import registry

    claimed: dict[str, str] = {}
    for puzzle in registry.PUZZLES:
        if Charting.of(puzzle).figure_names:
            plot_app.command(puzzle.name)(_plot_command(puzzle))
        own = None
        commands = Printing.of(puzzle).query_commands()
        if walkable(puzzle) and "random" not in commands:
            random_app.command(puzzle.name)(_random_command(puzzle))
        for name, function in commands.items():
            if name in GROUPS:
                GROUPS[name].command(puzzle.name)(_plugin_command(function))
                continue
            if name in Printing.of(puzzle).top_level_commands:  # also `query NAME` (one each)
                if name in claimed:
                    raise RuntimeError(f"`query {name}` is offered by both {claimed[name]} "
                                       f"and {puzzle.name}")
                claimed[name] = puzzle.name
                app.command(name)(_plugin_command(function))
            if own is None:
                own = typer.Typer(help=Describing.of(puzzle).summary, no_args_is_help=True)
                app.add_typer(own, name=puzzle.name)
            own.command(name)(_plugin_command(function))


def _plugin_command(function):
    """A plug-in's command as a typer command: its parameters, `--data` when it reads
    tables, and its return value as the exit code."""
    import inspect

    from builder.command_line import as_command, plugin_parameters

    parameters, wanted = plugin_parameters(function, ("tables", "catalog"))
    if wanted:
        parameters.append(inspect.Parameter("data", inspect.Parameter.KEYWORD_ONLY,
                                            default=Path("data"), annotation=DataOption))

    def command(**options) -> None:
        data = options.pop("data", None)
        if "tables" in wanted:
            from query.walk import Tables

            options["tables"] = Tables(data)
        if "catalog" in wanted:
            with _connect(data) as con:
                code = function(**options, catalog=con)
        else:
            code = function(**options)
        if code:
            sys.exit(code)

    return as_command(command, parameters, function.__doc__, function.__name__)


_mount_plugin_commands()


def main() -> None:
    """One line per failure (``builder.command_line``)."""
    from builder.command_line import run_app

    run_app(invoked(sys.argv[1:]))


def invoked(arguments: list[str]):
    """What runs ``arguments``: the group holding only the command (or group of commands)
    they name first, where they name one of ``app``'s, else ``app`` itself, whose help and
    errors list every command.  Typer makes every command it holds from its function's
    signature at each run, the four that take every plug-in's options most of all: an
    answer that waits for them starts late."""
    import copy

    name = arguments[0] if arguments else None
    commands = [command for command in app.registered_commands
                if typer.main.get_command_name(command.name or command.callback.__name__)
                == name]
    groups = [group for group in app.registered_groups if group.name == name]
    if not (commands or groups):
        return app
    only = copy.copy(app)
    only.registered_commands, only.registered_groups = commands, groups
    return typer.main.get_group(only)
