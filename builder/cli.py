"""`builder`: builds the tables in data/ (one command per puzzle, `tables` for all).

Examples:

    builder tables                       # everything `make tables` builds
    builder tricolore --method hybrid    # one 4x2 table
    builder tricolore --force            # rebuild even if current
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from builder.puzzles import PuzzleInputError
from builder.puzzles.tricolore import METHODS, BoardError

app = typer.Typer(
    help="Build puzzle tablebases into a data directory (zarr tables + DuckDB catalog).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

DataOption = Annotated[
    Path, typer.Option("--data", help="Directory the tables are written to.", show_default=True)
]
ForceOption = Annotated[bool, typer.Option("--force", help="Rebuild even if the table is current.")]
QuietOption = Annotated[bool, typer.Option("--quiet", help="No progress bars.")]
WorkersOption = Annotated[int, typer.Option(
    "--workers", help="Run the chunk tasks on a local Dask cluster of this many worker "
    "processes (0: in this process).")]
SchedulerOption = Annotated[str | None, typer.Option(
    "--scheduler", help="Run the chunk tasks on an existing Dask cluster, e.g. "
    "tcp://10.0.0.5:8786 (the data directory must be reachable by its workers).")]


MAX_LOCAL_WORKERS_PER_CORE = 4


def _hold(data: Path, create: bool = True) -> None:
    """Check the data directory and take it for this build (one builder at a time)."""
    from builder import workspace

    workspace.hold(data, "builder " + " ".join(sys.argv[1:]), create=create)


def _executor(workers: int, scheduler: str | None):
    from builder.execute import Dask, InProcess

    cores = os.cpu_count() or 1
    if workers < 0 or workers > MAX_LOCAL_WORKERS_PER_CORE * cores:
        raise PuzzleInputError(
            f"--workers {workers}: from 0 to {MAX_LOCAL_WORKERS_PER_CORE * cores} local worker "
            f"processes on this {cores}-core machine (--scheduler for a cluster)")
    if scheduler is not None and not scheduler.startswith(("tcp://", "tls://", "inproc://",
                                                           "ws://", "wss://")):
        raise PuzzleInputError(f"--scheduler {scheduler[:80]!r} is not a scheduler address "
                               "such as tcp://10.0.0.5:8786")
    if scheduler or workers > 0:
        return Dask(scheduler=scheduler, workers=max(workers, 1))
    return InProcess()


def _report(results, seconds: float) -> None:
    from builder.store import directory_size

    for result in results:
        state = f"built in {result.seconds:.1f} s" if result.built else "current, reused"
        size = directory_size(result.path) / 1e6
        typer.echo(f"{result.path}  {state}  ({size:.1f} MB)")
    typer.echo(f"done in {seconds:.1f} s")


@app.command()
def tricolore(
    data: DataOption = Path("data"),
    width: Annotated[int, typer.Option(help="Board width (squares per row).")] = 4,
    height: Annotated[int, typer.Option(help="Board height (rows).")] = 2,
    method: Annotated[
        str, typer.Option(help=f"One of {', '.join(METHODS)}, or 'all'.")
    ] = "all",
    force: ForceOption = False,
    quiet: QuietOption = False,
    workers: WorkersOption = 0,
    scheduler: SchedulerOption = None,
) -> None:
    """All-pairs Tricolore tables for a W×H board (default: the document's 4×2), split into
    chunk tasks; an interrupted build resumes where it stopped.

    Example: builder tricolore --width 5 --height 2 --method unrestricted --workers 2
    """
    from builder.build import build_tricolore
    from builder.catalog import refresh_catalog

    if width < 1 or height < 1:
        raise BoardError(f"a board needs at least one square, not {width}x{height}")
    if width * height > 10:
        raise BoardError(
            f"an all-pairs table for {width}x{height} ({3 ** (width * height):,} boards) does "
            "not fit: at most 10 squares"
        )
    if method != "all":
        from builder.puzzles.tricolore import check_method

        check_method(method)
    methods = METHODS if method == "all" else (method,)
    _hold(data)
    started = time.perf_counter()
    executor = _executor(workers, scheduler)
    try:
        results = [build_tricolore(data, width, height, m, force=force, progress=not quiet,
                                   executor=executor) for m in methods]
    finally:
        getattr(executor, "close", lambda: None)()
    if refresh_catalog(data):
        typer.echo(f"catalog {data / 'catalog.duckdb'} refreshed")
    _report(results, time.perf_counter() - started)


@app.command("tricolore4x4")
def tricolore4x4(
    target: Annotated[
        list[str], typer.Option("--target", help="Target board; repeat for several.")
    ],
    data: DataOption = Path("data"),
    force: ForceOption = False,
    quiet: QuietOption = False,
    width: Annotated[int, typer.Option(hidden=True)] = 4,
    height: Annotated[int, typer.Option(hidden=True)] = 4,
) -> None:
    """Exact 4×4 table towards a target: one backward search over all 731 million
    (board, last click) nodes gives every start its minimum number of clicks.

    Example: builder tricolore4x4 --target WBWB.BWBW.WBWB.BWBW
    """
    from builder.build import build_tricolore_target
    from builder.catalog import refresh_catalog

    _hold(data)
    started = time.perf_counter()
    results = [
        build_tricolore_target(data, board, width, height, force=force, progress=not quiet)
        for board in target
    ]
    if refresh_catalog(data):
        typer.echo(f"catalog {data / 'catalog.duckdb'} refreshed")
    _report(results, time.perf_counter() - started)


@app.command("tricolore4x4-decomposition")
def tricolore4x4_decomposition(
    pairs: Annotated[int, typer.Option(help="Random (start, target) pairs to solve (about "
                                       "1,500 a second; at most 2,000,000).", min=1,
                                       max=2_000_000)] = 100_000,
    seed: Annotated[int, typer.Option(help="Random seed (the sample is reproducible).")] = 2026,
    data: DataOption = Path("data"),
    force: ForceOption = False,
    quiet: QuietOption = False,
) -> None:
    """Measure the document's decomposition solver on random pairs (and against the exact
    tables that exist); the catalog's tricolore_4x4_decomposition_* views report it.

    Example: builder tricolore4x4-decomposition --pairs 100000
    """
    from builder.build import build_decomposition_sample
    from builder.catalog import refresh_catalog

    _hold(data)
    started = time.perf_counter()
    result = build_decomposition_sample(data, pairs, seed, force=force, progress=not quiet)
    if refresh_catalog(data):
        typer.echo(f"catalog {data / 'catalog.duckdb'} refreshed")
    _report([result], time.perf_counter() - started)


@app.command("tricolore4x4-reachability")
def tricolore4x4_reachability(
    start: Annotated[str, typer.Option(help="Board to search forward from.")] = (
        "RRRR.RRRR.RRRR.RRRR"),
    data: DataOption = Path("data"),
    force: ForceOption = False,
    quiet: QuietOption = False,
) -> None:
    """Which 4×4 boards can a start never reach? A forward search over all 731 million
    nodes (about two minutes); the catalog's tricolore_4x4_reachability view reports it.

    Example: builder tricolore4x4-reachability --start RRRR.RRRR.RRRR.RRRR
    """
    from builder.build import build_reachability
    from builder.catalog import refresh_catalog

    _hold(data)
    started = time.perf_counter()
    result = build_reachability(data, start, force=force, progress=not quiet)
    if refresh_catalog(data):
        typer.echo(f"catalog {data / 'catalog.duckdb'} refreshed")
    _report([result], time.perf_counter() - started)


@app.command("tricolore4x4-stats")
def tricolore4x4_stats(
    targets: Annotated[int, typer.Option("--targets", help="How many random canonical "
                                         "targets (distinct up to the 8 symmetries).", min=1,
                                         max=100_000)] = 10,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed, the same targets.")] = 2026,
    data: DataOption = Path("data"),
    quiet: QuietOption = False,
    workers: WorkersOption = 0,
    scheduler: SchedulerOption = None,
) -> None:
    """Toward the full 4×4 all-pairs distribution: one exact search per random canonical
    target (about 15 s each), keeping each target's histogram and maximum. Resumable:
    targets already done are skipped. Views: tricolore_4x4_pairs_estimate,
    tricolore_4x4_hardest_targets.

    Example: builder tricolore4x4-stats --targets 40 --scheduler tcp://10.0.0.5:8786
    """
    from builder.build import build_target_stats
    from builder.catalog import refresh_catalog

    _hold(data)
    started = time.perf_counter()
    executor = _executor(workers, scheduler)
    try:
        computed, skipped = build_target_stats(data, targets, seed, progress=not quiet,
                                               executor=executor)
    finally:
        getattr(executor, "close", lambda: None)()
    typer.echo(f"{computed} targets computed, {skipped} already done (skipped) "
               f"in {time.perf_counter() - started:.1f} s")
    if refresh_catalog(data):
        typer.echo(f"catalog {data / 'catalog.duckdb'} refreshed")


@app.command()
def tables(data: DataOption = Path("data"), force: ForceOption = False, quiet: QuietOption = False):
    """Build every table `make tables` builds, then refresh the DuckDB catalog: the three
    4×2 all-pairs tables, the exact 4×4 tables of the applet's three targets, the 4×4
    decomposition sample and reachability, Lights Out, Spot Colour, Lucas, the ball
    tubes of the document (4 tubes of 4, 3 colours) and of 5 tubes of 4 with 4 colours,
    and every registered plug-in's default tables (`builder build --list`).

    Example: builder tables --data data
    """
    from builder.build import (
        APPLET_TARGETS_4X4,
        DECOMPOSITION_PAIRS,
        build_decomposition_sample,
        build_reachability,
        build_tricolore_methods,
        build_tricolore_target,
    )
    from builder.catalog import refresh_catalog
    from builder.puzzles import registry
    from builder.routine import build_defaults

    _hold(data)
    started = time.perf_counter()
    results = build_tricolore_methods(data, 4, 2, force=force, progress=not quiet)
    results += [
        build_tricolore_target(data, board, force=force, progress=not quiet)
        for board in APPLET_TARGETS_4X4
    ]
    results.append(build_decomposition_sample(data, DECOMPOSITION_PAIRS, force=force,
                                              progress=not quiet))
    results.append(build_reachability(data, force=force, progress=not quiet))
    results += build_defaults(data, registry.PUZZLES, force=force, progress=not quiet)
    if refresh_catalog(data, force=force):
        typer.echo(f"catalog {data / 'catalog.duckdb'} refreshed")
    _report(results, time.perf_counter() - started)


@app.command()
def build(
    puzzle: Annotated[str | None, typer.Argument(
        help="A registered puzzle (see --list).", show_default=False)] = None,
    choice: Annotated[str | None, typer.Argument(
        help="Which of its tables, in the puzzle's own terms (e.g. hanoi 4x12: four pegs, "
             "twelve discs); default: its default tables.", show_default=False)] = None,
    data: DataOption = Path("data"),
    force: ForceOption = False,
    quiet: QuietOption = False,
    listing: Annotated[bool, typer.Option("--list", help="List every plug-in's default "
                                                         "tables and exit.")] = False,
) -> None:
    """Build one plug-in puzzle's tables through the engine's one build routine, then
    update the catalog for them alone.

    Examples: builder build hanoi; builder build hanoi 4x12; builder build --list
    """
    from builder.puzzles import registry

    if listing or puzzle is None:
        for known in registry.PUZZLES:
            specs = known.default_tables()
            typer.echo(f"{known.name:<10} " + (", ".join("/".join(spec.parts) for spec in specs)
                                              or "(its own command: builder --help)"))
        return
    chosen = registry.by_name(puzzle)
    specs = [chosen.table_for(choice)] if choice else chosen.default_tables()
    if not specs:
        raise PuzzleInputError(f"{chosen.name} has no default tables built through specs: "
                               "see `builder --help` for its own command")
    _build_specs(specs, data, force, quiet)


def _build_specs(specs, data: Path, force: bool, quiet: bool) -> None:
    """The engine's build routine over specs, then the catalog, then the report."""
    from builder.catalog import refresh_catalog
    from builder.routine import build_table

    _hold(data)
    started = time.perf_counter()
    results = [build_table(data, spec, force=force, progress=not quiet) for spec in specs]
    if refresh_catalog(data):
        typer.echo(f"catalog {data / 'catalog.duckdb'} refreshed")
    _report(results, time.perf_counter() - started)


def _mount_build_commands() -> None:
    """`builder NAME` for every registered puzzle without a command of its own here: its
    plug-in's ``build_command`` options (or none) plus --data, --force and --quiet."""
    import inspect
    import typing

    from builder.puzzles import registry

    taken = {command.name or command.callback.__name__.replace("_", "-")
             for command in app.registered_commands}
    for puzzle in registry.PUZZLES:
        if puzzle.name in taken or not puzzle.default_tables():
            continue
        own = puzzle.build_command()
        hints = typing.get_type_hints(own, include_extras=True) if own else {}
        choices = [parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY,
                                     annotation=hints[parameter.name])
                   for parameter in inspect.signature(own).parameters.values()] if own else []

        def command(*, data: Path, force: bool, quiet: bool, _puzzle=puzzle, _own=own,
                    **options) -> None:
            _build_specs(_own(**options) if _own else _puzzle.default_tables(), data, force,
                         quiet)

        common = [inspect.Parameter("data", inspect.Parameter.KEYWORD_ONLY,
                                    default=Path("data"), annotation=DataOption),
                  inspect.Parameter("force", inspect.Parameter.KEYWORD_ONLY, default=False,
                                    annotation=ForceOption),
                  inspect.Parameter("quiet", inspect.Parameter.KEYWORD_ONLY, default=False,
                                    annotation=QuietOption)]
        command.__signature__ = inspect.Signature(choices + common)
        command.__annotations__ = {parameter.name: parameter.annotation
                                   for parameter in choices + common}
        command.__doc__ = (inspect.getdoc(own) if own and own.__doc__ else
                           f"{puzzle.summary}: build its tables "
                           f"({', '.join('/'.join(spec.parts) for spec in puzzle.default_tables())})."
                           f"\n\nExample: builder {puzzle.name}")
        app.command(puzzle.name)(command)


@app.command()
def verify(
    data: DataOption = Path("data"),
    samples: Annotated[int, typer.Option(help="Sampled rows per table (x100 for states).",
                                         min=0, max=1000)] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the sample.")] = 0,
) -> None:
    """Re-check every chunk's checksum and re-derive a random sample of entries with an
    independent plain search; one line per table, non-zero exit on any mismatch.

    Example: builder verify --samples 3
    """
    from builder.verify import verify as run_verify

    if data.exists() and not data.is_dir():
        raise PuzzleInputError(f"data directory {data} is not a directory")
    verdicts = run_verify(data, samples, seed)
    for verdict in verdicts:
        typer.echo(f"{'ok  ' if verdict.ok else 'FAIL'}  {verdict.table}: {verdict.detail}")
    if not verdicts:
        typer.echo(f"no tables in {data}: run `make tables`")
    if not verdicts or not all(v.ok for v in verdicts):
        sys.exit(1)


@app.command()
def catalog(data: DataOption = Path("data"), force: ForceOption = False) -> None:
    """Rebuild the DuckDB catalog (per-pair tables and views) from the zarr tables.

    Example: builder catalog --force
    """
    from builder.catalog import catalog_path, refresh_catalog

    _hold(data, create=False)
    rebuilt = refresh_catalog(data, force=force)
    typer.echo(f"{catalog_path(data)} {'rebuilt' if rebuilt else 'current'}")


_mount_build_commands()


def main() -> None:
    """One line per failure, and Ctrl-C stops at once even inside a kernel
    (``builder.command_line``)."""
    from builder.command_line import run_app

    run_app(app, interruptible=True,
            on_interrupt="interrupted: tables already published are intact; run the same "
                         "command again to resume")
