"""`builder`: builds the tables in data/ (one command per puzzle, `tables` for all).

Examples:

    builder tables                       # everything `make tables` builds
    builder NAME --help                  # a plug-in's own build command and its options
    builder NAME --force                 # rebuild even if current
    builder build --list                 # every puzzle's default tables
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from builder.command_line import DATA_VARIABLE, data_default
from builder.contract.errors import PuzzleInputError
from builder.contract.puzzle import Describing
from builder.contract.specs import MAX_SHARDS

app = typer.Typer(
    help="Build puzzle tablebases into a data directory (zarr tables + DuckDB catalog).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

DataOption = Annotated[
    Path, typer.Option("--data", envvar=DATA_VARIABLE, show_default=False, callback=data_default,
                       help="Directory the tables are written to (default: $TABLEBASE_DATA, else "
                       "./data where it exists, else the project's data folder).")
]
ForceOption = Annotated[bool, typer.Option("--force", help="Rebuild even if the table is current.")]
QuietOption = Annotated[bool, typer.Option("--quiet", help="No progress bars.")]
WorkersOption = Annotated[int, typer.Option(
    "--workers", help="Run the build's tasks (chunk tasks, sparse shards, breadth-first "
    "arrays) on a local Dask cluster of this many worker processes (0: in this process).")]
SchedulerOption = Annotated[str | None, typer.Option(
    "--scheduler", help="Run the build's tasks on an existing Dask cluster, e.g. "
    "tcp://10.0.0.5:8786 (the data directory must be reachable by its workers).")]


JobsOption = Annotated[int, typer.Option(
    "--jobs", help="Build this many puzzles' tables at once, each in a process of its own "
    "(0: one per core, at most 2; 1: one at a time, with every table's own progress bars). "
    "With --workers or --scheduler, one at a time.")]

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
    if scheduler is not None:
        _check_scheduler(scheduler)
    if scheduler or workers > 0:
        return Dask(scheduler=scheduler, workers=max(workers, 1))
    return InProcess()


SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss")
"""Dask's protocols that reach another process (``inproc://`` is a scheduler inside this
process, which a command line never has)."""


def _check_scheduler(scheduler: str) -> None:
    """A scheduler address Dask can dial, checked before any work: a malformed one would
    otherwise fail inside Dask, as an internal error."""
    from urllib.parse import urlsplit

    refused = PuzzleInputError(f"--scheduler {scheduler[:80]!r} is not a scheduler address "
                               "such as tcp://10.0.0.5:8786")
    try:
        address = urlsplit(scheduler)
        port = address.port  # a port that is not a number from 0 to 65535 raises
    except ValueError:
        raise refused from None
    # a host and a port (Dask dials no default port), and nothing after them
    if (address.scheme not in SCHEDULER_SCHEMES or not scheduler.startswith(
            f"{address.scheme}://") or not address.hostname or not port
            or address.path.strip("/") or address.query or address.fragment):
        raise refused


def _report(results, seconds: float) -> None:
    from builder.store import directory_size

    for result in results:
        state = f"built in {result.seconds:.1f} s" if result.built else "current, reused"
        size = directory_size(result.path) / 1e6
        typer.echo(f"{result.path}  {state}  ({size:.1f} MB)")
    typer.echo(f"done in {seconds:.1f} s")


@app.command()
def tables(data: DataOption = Path("data"), force: ForceOption = False, quiet: QuietOption = False,
           workers: WorkersOption = 0, scheduler: SchedulerOption = None,
           jobs: JobsOption = 0):
    """Build every table `make tables` builds: every registered puzzle's default tables
    (`builder build --list`), two puzzles at a time on a multi-core machine (`--jobs`),
    then bring the DuckDB catalog up to date.

    Example: builder tables --data data
    """
    from builder import registry
    from builder.routine import build_defaults

    if jobs < 0:
        raise PuzzleInputError(f"--jobs {jobs}: 0 (one per core, at most 2) or more")
    _hold(data)
    started = time.perf_counter()
    executor = _executor(workers, scheduler)
    if workers or scheduler:
        jobs = 1  # the chunk tasks already run elsewhere
    elif jobs == 0:
        jobs = min(2, os.cpu_count() or 1)
    try:
        results = build_defaults(data, registry.PUZZLES, force=force, progress=not quiet,
                                 executor=executor, jobs=jobs)
    finally:
        getattr(executor, "close", lambda: None)()
    _built(data, results, started, registry.PUZZLES, force)
    typer.echo(tables_summary(results, data))


def tables_summary(results, data: Path) -> str:
    """`builder tables`' (and so `make tables`') last lines: what it built, what it left
    for later, and how to build everything."""
    built = sum(result.built for result in results)
    return "\n".join([
        f"{built} table{'' if built == 1 else 's'} built, {len(results) - built} current and "
        f"reused, in {data}",
        "left for later: nothing (this is every puzzle's default tables: `builder build "
        "--list`); a table no default holds: `builder build NAME CHOICE`",
        "everything again from scratch: `make tables FORCE=1` (`builder tables --force`)"])


@app.command()
def build(
    puzzle: Annotated[str | None, typer.Argument(
        help="A registered puzzle (see --list).", show_default=False)] = None,
    choice: Annotated[str | None, typer.Argument(
        help="Which of its tables, in the puzzle's own terms (the plug-in's `table_for` "
             "says which it takes); default: its default tables.", show_default=False)] = None,
    data: DataOption = Path("data"),
    force: ForceOption = False,
    quiet: QuietOption = False,
    listing: Annotated[bool, typer.Option("--list", help="List every plug-in's default "
                                                         "tables, a line each, and exit; "
                                                         "with NAME, all of its tables, "
                                                         "one a line.")] = False,
    workers: WorkersOption = 0,
    scheduler: SchedulerOption = None,
    shards: Annotated[int, typer.Option(
        "--shards", help="Sparse tables: split the search into this many partitions by a "
        "hash of the key (more: less memory per task; the same table). 0: the plug-in's "
        "default.")] = 0,
    memory: Annotated[str | None, typer.Option(
        "--memory", help="Sparse tables: the most a shard's task may hold, e.g. 512MB or "
        "2GiB; a level that would need more starts the search again in as many more "
        "shards as it needs (the same table).", show_default=False)] = None,
) -> None:
    """Build one plug-in puzzle's tables through the engine's one build routine, then
    update the catalog for them alone.  Chunk tasks and the levels of a sparse search run
    on Dask with --workers or --scheduler.

    Examples: builder build --list; builder build NAME; builder build NAME CHOICE;
    builder build NAME CHOICE --workers 2 --shards 4
    """
    from builder import registry
    from builder.contract.puzzle import Building

    if listing and puzzle is not None:
        for spec in Building.of(registry.by_name(puzzle)).default_tables():
            typer.echo("/".join(spec.parts))
        return
    if listing or puzzle is None:
        for known in registry.PUZZLES:
            typer.echo(_listed(known.name, Building.of(known).default_tables()))
        return
    chosen = registry.by_name(puzzle)
    building = Building.of(chosen)
    named = building.table_for(choice) if choice else building.default_tables()
    specs = named if isinstance(named, list) else [named]
    if not specs:
        raise PuzzleInputError(f"{chosen.name} has no default tables built through specs: "
                               "see `builder --help` for its own command")
    if shards < 0 or shards > MAX_SHARDS:
        raise PuzzleInputError(f"--shards {shards}: from 1 to {MAX_SHARDS} (0: the default)")
    if shards or memory:
        specs = [_with_sparse_settings(spec, shards, parse_bytes(memory) if memory else None)
                 for spec in specs]
    executor = _executor(workers, scheduler)
    _hold(data)
    _build_specs(specs, data, force, quiet, chosen, executor)


LISTING_WIDTH = 100
"""`builder build --list` keeps each puzzle to one line this wide, naming how many tables
it has left out (`builder build NAME --list` gives them all)."""


def _listed(name: str, specs: list) -> str:
    """A puzzle's line of `builder build --list`: its default tables, by their path under
    the puzzle's folder, as many as fit."""
    if not specs:
        return f"{name:<10} (its own command: builder --help)"
    paths = ["/".join(spec.parts[1:] if spec.parts[0] == name else spec.parts)
             for spec in specs]
    head = f"{name:<10} {len(paths)} table{'s' if len(paths) != 1 else ''}: "
    for shown in range(len(paths), 0, -1):
        left = len(paths) - shown
        tail = f", ... {left} more (builder build {name} --list)" if left else ""
        line = head + ", ".join(paths[:shown]) + tail
        if len(line) <= LISTING_WIDTH or shown == 1:
            return line
    return head


def _with_sparse_settings(spec, shards: int, memory: int | None):
    from dataclasses import replace

    from builder.sparse import check_memory

    if spec.sparse is None:
        raise PuzzleInputError(f"--shards and --memory: {'/'.join(spec.parts)} is not a "
                               "sparse table")
    search = replace(spec.sparse, shards=shards or spec.sparse.shards, memory=memory)
    check_memory(search)  # a bound no shard count meets is refused before any work
    return replace(spec, sparse=search)


_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "kib": 1024, "m": 1000**2, "mb": 1000**2,
          "mib": 1024**2, "g": 1000**3, "gb": 1000**3, "gib": 1024**3}


def parse_bytes(text: str) -> int:
    """``512MB``, ``2GiB``, ``1g``: a size in bytes; a PuzzleInputError otherwise."""
    import re

    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    unit = found and found.group(2).lower()
    if not found or unit not in _UNITS or float(found.group(1)) <= 0:
        raise PuzzleInputError(f"--memory {text[:40]!r}: a size such as 512MB or 2GiB")
    return int(float(found.group(1)) * _UNITS[unit])


def _build_specs(specs, data: Path, force: bool, quiet: bool, puzzle, executor=None) -> None:
    """The engine's build routine over ``puzzle``'s specs, then the catalog, then the
    report."""
    from builder.routine import build_table

    started = time.perf_counter()
    try:
        results = [build_table(data, spec, force=force, progress=not quiet, executor=executor)
                   for spec in specs]
    finally:
        getattr(executor, "close", lambda: None)()
    _built(data, results, started, [puzzle])


def _built(data: Path, results, started: float, puzzles, force: bool = False) -> None:
    """After a build: the engine's exact search and its recurrence checks (`builder
    verify`) compiled and cached beside the tables they read, and so are the kernels the
    built ``puzzles``' queries run (``Building.kernel_modules``), so that a first search,
    check or query starts at once (the plug-ins' steps were compiled by the builds); the
    catalog brought up to date; the report."""
    import importlib

    import builder.kernels.recurrence  # noqa: F401 (compiled on import)
    from builder.catalog import refresh_catalog
    from builder.contract.puzzle import Building
    from builder.kernels import ida

    ida.compile_all()

    for puzzle in puzzles:
        for module in Building.of(puzzle).kernel_modules():
            importlib.import_module(module)

    if refresh_catalog(data, force=force):
        typer.echo(f"catalog {data / 'catalog.duckdb'} refreshed")
    _report(results, time.perf_counter() - started)


SUPPLIED = ("data", "tables", "executor", "progress")
"""Parameters of a plug-in's build command that the engine fills (``Building.build_commands``)."""


def _mount_build_commands() -> None:
    """`builder NAME` for every command of every registered puzzle with tables: its
    plug-in's options plus --data, --force and --quiet (and --workers and --scheduler
    where its chunk tasks can run on Dask)."""
    from builder import registry
    from builder.contract.puzzle import Building

    for puzzle in registry.PUZZLES:
        if not Building.of(puzzle).default_tables():
            continue
        for name, own in Building.of(puzzle).build_commands().items():
            _mount(name, puzzle, own)


def _mount(name: str, puzzle, own) -> None:
    import inspect

    from builder.command_line import as_command, plugin_parameters
    from builder.contract.puzzle import Building, as_spec

    choices, wanted = plugin_parameters(own, SUPPLIED) if own else ([], set())

    def command(*, data: Path, force: bool, quiet: bool, workers: int = 0,
                scheduler: str | None = None, **options) -> None:
        from builder.reader import Tables

        _hold(data)
        executor = _executor(workers, scheduler)
        supplied = {"data": data, "tables": Tables(data), "executor": executor,
                    "progress": not quiet}
        try:
            specs = (as_spec(own(**options, **{key: supplied[key] for key in wanted}))
                     if own else Building.of(puzzle).default_tables())
        except BaseException:
            getattr(executor, "close", lambda: None)()
            raise
        _build_specs(specs, data, force, quiet, puzzle, executor)

    keyword = inspect.Parameter.KEYWORD_ONLY
    common = [inspect.Parameter("data", keyword, default=Path("data"), annotation=DataOption),
              inspect.Parameter("force", keyword, default=False, annotation=ForceOption),
              inspect.Parameter("quiet", keyword, default=False, annotation=QuietOption)]
    if "executor" in wanted:
        common += [inspect.Parameter("workers", keyword, default=0, annotation=WorkersOption),
                   inspect.Parameter("scheduler", keyword, default=None,
                                     annotation=SchedulerOption)]
    doc = (inspect.getdoc(own) if own and own.__doc__ else
           f"{Describing.of(puzzle).summary}: build its tables "
           f"({', '.join('/'.join(spec.parts) for spec in Building.of(puzzle).default_tables())})."
           f"\n\nExample: builder {name}")
    app.command(name)(as_command(command, choices + common, doc))


@app.command()
def verify(
    puzzle: Annotated[str | None, typer.Argument(
        help="Only this puzzle's tables (and the catalog); default: every table.",
        show_default=False)] = None,
    data: DataOption = Path("data"),
    samples: Annotated[int, typer.Option(help="Sampled rows per table (x100 for states).",
                                         min=0, max=1000)] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the sample, 0 or more.", min=0,
                                      max=2**63 - 1)] = 0,
) -> None:
    """Re-check every chunk's checksum, the shortest-path recurrence at every entry of
    the engine's tables and a plug-in's own checks at a sample; one line per table and one
    for the catalog, non-zero exit on any mismatch.

    Examples: builder verify; builder verify NAME --samples 3 (NAME: `builder build --list`)
    """
    from builder import registry
    from builder.verify import verify as run_verify

    if puzzle is not None:
        puzzle = registry.by_name(puzzle).name  # a one-line error naming the choices

    if not data.is_dir():
        raise PuzzleInputError(f"data directory {data} "
                               f"{'is not a directory' if data.exists() else 'does not exist'}"
                               ": run `make tables`")
    verdicts = run_verify(data, samples, seed, puzzle)
    if not verdicts:
        raise PuzzleInputError(f"no {puzzle + ' ' if puzzle else ''}tables in {data}: run "
                               "`make tables`")
    for verdict in verdicts:
        typer.echo(f"{'ok  ' if verdict.ok else 'FAIL'}  {verdict.table}: {verdict.detail}")
    if not all(v.ok for v in verdicts):
        sys.exit(1)


@app.command()
def catalog(data: DataOption = Path("data"), force: ForceOption = False) -> None:
    """Rebuild the DuckDB catalog (per-pair tables and views) from the zarr tables.

    Example: builder catalog --force
    """
    from builder.catalog import catalog_path, refresh_catalog, table_directories

    _hold(data, create=False)
    if not table_directories(data):
        raise PuzzleInputError(f"no tables in {data}: nothing to catalog (run `make tables`)")
    rebuilt = refresh_catalog(data, force=force)
    typer.echo(f"{catalog_path(data)} {'rebuilt' if rebuilt else 'current'}")


@app.command()
def define(
    file: Annotated[Path | None, typer.Argument(
        help="A puzzle file (NAME.toml: a permutation puzzle; see docs/adding-a-puzzle.md).",
        show_default=False)] = None,
    data: DataOption = Path("data"),
    remove: Annotated[str | None, typer.Option(
        "--remove", metavar="NAME", help="Forget the puzzle a file defined here, with its "
        "tables.", show_default=False)] = None,
) -> None:
    """Keep a puzzle file in the data directory: every command then knows the puzzle
    (`builder build NAME` builds its table, `query path NAME:STATE` walks it).  The file is
    checked first: each problem is one line and exit 1, with nothing written.

    Examples: builder define docs/puzzle-files/floppy.toml; builder build floppy;
    query path floppy:YYW.YYW.YYW-WWY.WWY.WWY-RRO-OOR-GGG-BBB; builder define --remove floppy
    """
    from builder import registry, workspace

    if (file is None) == (remove is None):
        _refuse("give a puzzle file, or --remove NAME (see `builder define --help`)")
    folder = data / registry.DEFINED_FOLDER
    if remove is not None:
        kept = folder / f"{remove}.toml"
        if not registry.NAME_OF_FILE.fullmatch(remove) or not kept.is_file():
            defined = sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []
            _refuse(f"no puzzle file {remove!r} in {data} (defined there: "
                    f"{', '.join(defined) or 'none'})")
        _hold(data, create=False)
        kept.unlink()
        if remove not in {p.name for p in registry.INSTALLED}:
            _retire(data / remove)
        registry.use_data(data)
        _refresh_quietly(data)
        typer.echo(f"{remove} forgotten: its file and tables are gone from {data}")
        return
    try:
        puzzle = registry.puzzle_from_file(file)
    except PuzzleInputError as error:
        _refuse(str(error))
    taken = {p.name: p for p in registry.use_data(data)}
    if puzzle.name in taken:
        _refuse(f"{file.name}: the name {puzzle.name!r} is taken"
                + (f" by a puzzle file in {data} (`builder define --remove {puzzle.name}` "
                   "first)" if puzzle.name not in {p.name for p in registry.INSTALLED}
                   else " by an installed puzzle: choose another"))
    if puzzle.name in RESERVED_NAMES:
        _refuse(f"{file.name}: the name {puzzle.name!r} is a folder of the data directory: "
                "choose another")
    try:
        workspace.hold(data, "builder " + " ".join(sys.argv[1:]), create=True)
    except workspace.DataDirectoryError as error:
        _refuse(str(error))
    folder.mkdir(exist_ok=True)
    staged = workspace.staging_name(folder / f"{puzzle.name}.toml")
    staged.write_bytes(file.read_bytes())
    os.replace(staged, folder / f"{puzzle.name}.toml")
    registry.use_data(data)
    typer.echo(f"{puzzle.name} defined in {data}: `builder build {puzzle.name}` builds its "
               f"table, then `query path {puzzle.name}:STATE` answers")


RESERVED_NAMES = ("defined",)
"""Names a puzzle file may not take: folders of the data directory that hold no tables."""


def _refuse(message: str) -> None:
    """`builder define`'s refusal: one line, exit 1, nothing written."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(1)


def _retire(folder: Path) -> None:
    """Remove a puzzle's tables: renamed aside at once (so no reader meets half of
    them), then deleted."""
    import shutil

    from builder import workspace

    if folder.is_dir():
        aside = workspace.staging_name(folder, "retired")
        os.replace(folder, aside)
        shutil.rmtree(aside, ignore_errors=True)


def _refresh_quietly(data: Path) -> None:
    from builder.catalog import catalog_path, refresh_catalog, table_directories

    if table_directories(data) or catalog_path(data).exists():
        refresh_catalog(data)


_mount_build_commands()


def main() -> None:
    """One line per failure, and Ctrl-C stops at once even inside a kernel
    (``builder.command_line``)."""
    from builder.command_line import run_app

    # a rerun resumes a build where it stopped, except with --force, which starts it over
    resume = ("run it again without --force to resume (--force starts over)"
              if "--force" in sys.argv[1:] else "run the same command again to resume")
    run_app(app, interruptible=True,
            on_interrupt=f"interrupted: tables already published are intact; {resume}")
