"""The web page's generic game API: every walkable puzzle is played through these
endpoints, which know no puzzle (they read the plug-in's hooks).

- ``GET /api/puzzles``: what the registry holds, with each renderer's address (the
  generic board, ``GENERIC_RENDERER``, for a walkable puzzle without one of its own).
- ``GET /api/play/{puzzle}/position``: a position's distance to the target (the par), its
  legal moves (with their values on request) and whether a table could be built for it.
- ``GET /api/play/{puzzle}/path``: an optimal move sequence (table walk, else the
  plug-in's search; or on request its instant approximate solver).  Asked with a
  ``budget`` or ``seconds``, the best path found within them, saying what is proved
  (``optimal``, ``lower_bound``): the page asks for one at once, then for the proved one
  with the server's time (``improves`` in /api/puzzles).
- ``POST /api/play/{puzzle}/table`` and ``GET /api/jobs/{id}``: build the table that
  answers a pair (``Building.table_answering``) in the background and follow its progress;
  only on a server started with ``--allow-builds N`` (at most N tables, never filling
  the disk).
- ``GET /api/searches/{watch}``: how far the search of a position or path request that
  named ``watch`` has gone (the bound it searches), while it runs: the steps a search
  reports (``work.report_progress``), as a build's are.

A walk node travels to the page and back as its notation plus the plug-in's
``node_context`` text.  The puzzle's options (``Describing.options``: a method, a rule
variant) are passed as query parameters of the same names.  A puzzle is named in the
path and checked at each request against the registry as it stands then: the puzzles a
data directory's files define join it when that directory is read, whenever that is.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import shutil
import threading
import time
from enum import Enum
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParameter
from pydantic import BaseModel, Field

from builder import registry
from builder.contract import work
from builder.contract.errors import (
    MAX_INPUT_CHARACTERS,
    MissingTableError,
    OneLineError,
    PuzzleInputError,
    shown,
)
from builder.contract.puzzle import (
    Charting,
    Describing,
    Playing,
    Puzzle,
    Walking,
    offers,
    walkable,
)
from query.walk import legal_moves

GENERIC_RENDERER = "/static/generic.js"
"""The board of every walkable puzzle without a renderer of its own: drawn from its
notation, a button per legal move (its contract: the top of static/app.js)."""


class UnknownPuzzleError(PuzzleInputError):
    """A puzzle name in a request's path that no walkable puzzle has (HTTP 422, as any
    invalid parameter)."""


def playable(name: str) -> Puzzle:
    """The walkable puzzle named ``name`` in the registry as it stands (a puzzle file's
    too, read after this module was imported)."""
    for puzzle in registry.PUZZLES:
        if puzzle.name == name and walkable(puzzle):
            return puzzle
    raise UnknownPuzzleError(f"puzzle: no puzzle {shown(name)} to play: choose one of "
                             + ", ".join(p.name for p in registry.PUZZLES if walkable(p)))


def _puzzle_parameter() -> Any:
    """The path's puzzle name as the API docs show it: the walkable puzzles known when
    the server started (a puzzle file defined later is played too)."""
    return PathParameter(description="a walkable puzzle's name (GET /api/puzzles lists "
                         "them)", max_length=40,
                         json_schema_extra={"enum": [p.name for p in registry.PUZZLES
                                                     if walkable(p)]})


class PuzzleInfo(BaseModel):
    name: str
    summary: str
    unit: str = Field(description="what a path's length counts (moves, clicks)")
    example: tuple[str, str]
    options: list[str] = Field(description="query parameters its variants take")
    renderer: str | None = Field(description="address of its board renderer (ES module; "
                                 f"{GENERIC_RENDERER}: the generic board, drawn from its "
                                 "notation); null: not on the page")
    walkable: bool
    approximation: str = Field(description="the plug-in's instant but not always optimal "
                               "solver, offered where no table answers (path?guide="
                               "approximate); empty: none")
    figures: list[str] = Field(description="addresses of its charts (SVG)")
    improves: bool = Field(description="a path asked with budget or seconds answers the "
                           "approximate solver's path improved by the exact search within "
                           "them, saying what is proved (optimal, lower_bound)")


class MoveOut(BaseModel):
    label: str
    state: str
    context: str
    distance: int | None = Field(None, description="fewest moves to the target after this "
                                 "move (only with values=true; null: never)")


class PositionOut(BaseModel):
    puzzle: str
    state: str
    context: str = Field(description="what the position carries beyond its notation "
                         "(say, the square clicked last); hand it back unchanged")
    target: str
    unit: str
    at_target: bool
    distance: int | None = Field(description="fewest moves to the target (null: never, or "
                                 "unknown when answered_by is 'none')")
    answered_by: str = Field(description="'table', 'search' or 'none' (no table and no "
                             "search asked for: see detail)")
    how: str = Field("", description="the search that answered, when answered_by is "
                     "'search' (an exact one: the distance is the fewest moves)")
    detail: str = Field("", description="why no distance, when answered_by is 'none'")
    buildable: bool = Field(description="a table answering this target can be built "
                            "on request (POST .../table)")
    moves: list[MoveOut]
    variant: dict[str, Any]


class PathOut(BaseModel):
    puzzle: str
    start: str
    target: str
    length: int
    how: str = Field(description="'table walk', the plug-in's search, or its "
                     "approximate solver")
    optimal: bool = Field(description="a shortest path (false: the approximate solver's)")
    lower_bound: int | None = Field(None, description="the fewest moves proved: the length "
                                    "where optimal; where not, what the exact search proved "
                                    "within the budget or seconds asked; null: nothing "
                                    "searched")
    moves: list[MoveOut] = Field(description="each move and the position after it")


class Guide(str, Enum):
    exact = "exact"
    approximate = "approximate"


class JobOut(BaseModel):
    id: int
    state: str = Field(description="'queued', 'building', 'done' or 'failed'")
    seconds: float = Field(description="since the build started (its length once ended)")
    detail: str = ""
    step: int = Field(0, description="steps of the build done so far (a search's levels)")
    note: str = Field("", description="what the last step found, in words")


class SearchOut(BaseModel):
    watch: str
    state: str = Field(description="'running' or 'ended'")
    seconds: float = Field(description="since the request started (its length once ended)")
    limit: float | None = Field(description="the server's limit for a request's searches, "
                                "in seconds")
    step: int = Field(0, description="the last step the search reported (IDA*: the bound "
                      "it searches, a lower bound on the moves left); 0: none yet")
    note: str = Field("", description="that step in words")


BEST_SHARE = 0.9
"""Of the server's limit for a request's searches, the share a path asked with
``seconds`` may search (the rest: the margin by which its best so far comes back before
the limit would stop it with an error)."""
_BUDGET = Query(None, ge=1, description="the best path found within this many nodes of the "
                "exact search, where the plug-in improves an instant path (/api/puzzles' "
                "improves): optimal and lower_bound say what is proved; more than the "
                "server's --max-budget is a 429")
_SECONDS = Query(None, gt=0, le=86_400, description="the same within this many seconds (the "
                 "server's --search-seconds at most: a longer search ends a little before "
                 "them, with the best path it has)")


def _improves(puzzle: Puzzle) -> bool:
    """The puzzle's path within a budget is its instant solver's, improved by its exact
    pattern search (``query.walk.best_within_limits``)."""
    return bool(Playing.of(puzzle).approximation) and all(
        offers(puzzle, hook) for hook in ("pattern_search", "approximate_path"))


def _path_limits(budget: int | None, seconds: float | None
                 ) -> tuple[int | None, float | None]:
    """A path request's budget and seconds within the server's limits: a budget over its
    --max-budget refused (429), seconds cut to ``BEST_SHARE`` of its --search-seconds."""
    if budget is not None:
        budget = work.capped_budget(budget, "budget")
    if seconds is not None:
        limit = work.work_seconds(math.inf)
        if not math.isinf(limit):
            seconds = min(seconds, BEST_SHARE * limit)
    return budget, seconds


WATCHED_SEARCHES = 256
"""Searches whose progress the server remembers (the oldest forgotten first)."""
_WATCH = Query("", max_length=40, pattern=r"^[A-Za-z0-9_-]*$",
               description="a name the page chooses, to follow this request's search at "
               "/api/searches/{watch} while it runs")


def _options(puzzle, request: Request) -> dict[str, str]:
    given = {name: request.query_params[name] for name in registry.all_options()
             if request.query_params.get(name)}
    return registry.check_options(puzzle, given)


class _Game:
    """One request's game (the Python API's ``Game``: puzzle, variant, node, target),
    from the query parameters."""

    def __init__(self, tablebase, name: str, state: str, target: str, context: str,
                 request: Request):
        puzzle = playable(name)
        state, target = registry.in_notation(puzzle, state), registry.in_notation(puzzle, target)
        handle = tablebase.puzzle(puzzle.name, **_options(puzzle, request))
        self.game = handle.game(state, target, context)
        self.puzzle, self.variant = puzzle, self.game.variant
        self.position, self.target, self.node = (self.game.position, self.game.target,
                                                 self.game.node)

    def move_out(self, label: str, node, distance: int | None = None) -> MoveOut:
        return MoveOut(label=label, state=self.puzzle.format(self.variant, node),
                       context=Playing.of(self.puzzle).node_context(self.variant, node),
                       distance=distance)

    def distance(self, tables, node, search: bool) -> tuple[int | None, str, str]:
        return self.game.distance(node, search)


_TEXT = Query(max_length=MAX_INPUT_CHARACTERS)
_GUIDE = Query(Guide.exact, description="where no table answers: 'exact' searches (seconds "
               "for the largest boards), 'approximate' takes the plug-in's instant solver if it "
               "has one (see /api/puzzles)")


class BuildsOffError(OneLineError):
    """A table build asked of a server that does not allow it (HTTP 403)."""


MIN_FREE_BYTES = 2 * 2**30
"""Free disk a build on request leaves at least (a 4x4 target table takes about 23 MB)."""


def routes(tables, data_dir: Path, web_message, allow_builds: int = 0) -> APIRouter:
    from query.api import Tablebase

    router = APIRouter()
    tablebase = Tablebase(data_dir, tables)  # the server's reader, with its caches
    puzzle_name = _puzzle_parameter()  # after Tablebase: its data directory's files read
    builds = {"started": 0}
    jobs: dict[int, JobOut] = {}
    job_started: dict[int, float] = {}
    job_ids = itertools.count(1)
    building = threading.Lock()
    building_count = threading.Lock()
    watched: dict[str, SearchOut] = {}
    watched_started: dict[str, float] = {}
    watching_lock = threading.Lock()

    @contextlib.contextmanager
    def watching(watch: str):
        """The steps the request's searches report, kept under ``watch`` for
        /api/searches (nothing kept where the request names none)."""
        if not watch:
            yield
            return
        limit = work.work_seconds(math.inf)
        record = SearchOut(watch=watch, state="running", seconds=0.0,
                           limit=None if math.isinf(limit) else limit)
        started = time.perf_counter()
        with watching_lock:
            watched.pop(watch, None)  # a name used again follows the latest request
            watched[watch], watched_started[watch] = record, started
            while len(watched) > WATCHED_SEARCHES:
                oldest = next(iter(watched))
                del watched[oldest], watched_started[oldest]

        def stepped(step: int, note: str) -> None:
            record.step, record.note = step, note

        try:
            with work.progress_to(stepped):
                yield
        finally:
            record.seconds = round(time.perf_counter() - started, 1)
            record.state = "ended"

    @router.get("/puzzles", response_model=list[PuzzleInfo], summary="Registered puzzles")
    def puzzles() -> list[PuzzleInfo]:
        """Every registered puzzle; the walkable ones, and those with a renderer, are
        playable on the page."""
        return [PuzzleInfo(name=p.name, summary=Describing.of(p).summary,
                           unit=Describing.of(p).unit,
                           example=Describing.of(p).example, options=list(registry.option_names(p)),
                           renderer=(f"/renderers/{p.name}.js" if Playing.of(p).renderer
                                     else GENERIC_RENDERER if walkable(p) else None),
                           walkable=walkable(p), approximation=Playing.of(p).approximation,
                           figures=[f"/api/{p.name}/plots/{name}.svg"
                                    for name in Charting.of(p).figure_names],
                           improves=walkable(p) and _improves(p))
                for p in registry.PUZZLES]

    @router.get("/play/{puzzle}/position", response_model=PositionOut,
                summary="A position: its par, its legal moves, their values")
    def position(request: Request, puzzle: str = puzzle_name, state: str = _TEXT,
                 target: str = Query("", max_length=MAX_INPUT_CHARACTERS,
                                     description="empty: the puzzle's default target"),
                 context: str = Query("", max_length=64),
                 values: bool = Query(False, description="also each move's distance after "
                                      "it (a search per move where no table answers)"),
                 search: bool = Query(True, description="where no table answers, use the "
                                      "plug-in's search (seconds on the largest boards)"),
                 watch: str = _WATCH) -> PositionOut:
        """Fewest moves from STATE to TARGET, and every legal move from it (each with the
        position after it; with VALUES, its distance too).  Options of the puzzle
        (``method``, ``variant``) are further query parameters."""
        from builder.contract.puzzle import Building
        game = _Game(tablebase, puzzle, state, target, context, request)
        with watching(watch):
            here, answered_by, said = game.distance(tables, game.node, search)
            moves = []
            for move in legal_moves(game.puzzle, game.variant, game.node):
                value = game.distance(tables, move.state, search)[0] if values else None
                moves.append(game.move_out(move.label, move.state, value))
        buildable = (builds["started"] < allow_builds and answered_by != "table"
                     and Building.of(game.puzzle).table_answering(game.variant, game.position,
                                                     game.target) is not None)
        return PositionOut(
            puzzle=game.puzzle.name, state=game.puzzle.format(game.variant, game.node),
            context=Playing.of(game.puzzle).node_context(game.variant, game.node),
            target=game.puzzle.format(game.variant, game.target),
            unit=Describing.of(game.puzzle).unit,
            at_target=Walking.of(game.puzzle).at_target(game.variant, game.node, game.target),
            distance=here, answered_by=answered_by,
            how=said if answered_by == "search" else "",
            detail=web_message(said) if answered_by == "none" else "",
            buildable=buildable, moves=moves,
            variant=Describing.of(game.puzzle).variant_fields(game.variant))

    @router.get("/play/{puzzle}/path", response_model=PathOut,
                summary="An optimal move sequence")
    def path(request: Request, puzzle: str = puzzle_name, state: str = _TEXT,
             target: str = Query("", max_length=MAX_INPUT_CHARACTERS),
             context: str = Query("", max_length=64),
             guide: Guide = _GUIDE, watch: str = _WATCH,
             budget: int | None = _BUDGET, seconds: float | None = _SECONDS) -> PathOut:
        """A shortest path from STATE (with CONTEXT) to TARGET: by table walk, or by the
        plug-in's search where no table answers (with GUIDE=approximate, its instant
        solver instead, whose path need not be shortest: ``how`` names it).  With BUDGET
        (nodes) or SECONDS, the best path found within them (GUIDE aside): where the
        plug-in has an instant solver too, its path at once, improved by the search
        while they last (``optimal``, ``lower_bound``); where it has none, the search's
        path, or a one-line error naming the bound it proved."""
        game = _Game(tablebase, puzzle, state, target, context, request)
        best = budget is not None or seconds is not None
        budget, seconds = _path_limits(budget, seconds)
        with watching(watch), work.search_budget(budget, seconds):
            found = game.game.path(approximate=guide is Guide.approximate and not best,
                                   best_so_far=best)
        found_nodes, labels, how = list(found.nodes), list(found.labels), found.how
        optimal = found.optimal
        return PathOut(puzzle=game.puzzle.name,
                       start=game.puzzle.format(game.variant, found_nodes[0]),
                       target=game.puzzle.format(game.variant, game.target),
                       length=len(labels), how=how, optimal=optimal,
                       lower_bound=len(labels) if optimal
                       else found.details.get("lower_bound"),
                       moves=[game.move_out(label, node)
                              for label, node in zip(labels, found_nodes[1:])])

    @router.post("/play/{puzzle}/table", response_model=JobOut, status_code=202,
                 summary="Build the table answering a target")
    def build(request: Request, puzzle: str = puzzle_name, state: str = _TEXT,
              target: str = Query("", max_length=MAX_INPUT_CHARACTERS)) -> JobOut:
        """Start building the table that answers STATE -> TARGET by walk (a table towards
        one target: seconds); follow it at /api/jobs/{id}.  One build runs at a time, and
        only on a server started with --allow-builds."""
        from builder.contract.puzzle import Building
        if not allow_builds:
            raise BuildsOffError("this server builds no tables on request (its operator can "
                                 "start it with `query serve --allow-builds N`)")
        game = _Game(tablebase, puzzle, state, target, "", request)
        spec = Building.of(game.puzzle).table_answering(game.variant, game.position, game.target)
        if spec is None:
            raise PuzzleInputError("no table to build: the stored tables or the "
                                   f"{game.puzzle.name} search already answer it")
        with building_count:
            if builds["started"] >= allow_builds:
                raise work.OverBudgetError(f"this server has built the {allow_builds} tables "
                                           "it allows on request")
            if shutil.disk_usage(data_dir).free < MIN_FREE_BYTES:
                raise work.OverBudgetError("the server's disk is nearly full: no more tables "
                                           "are built on request")
            builds["started"] += 1
        job = JobOut(id=next(job_ids), state="queued", seconds=0.0)
        jobs[job.id] = job
        job_started[job.id] = time.perf_counter()
        threading.Thread(target=_run_build, args=(job, spec), daemon=True).start()
        return job

    def _run_build(job: JobOut, spec) -> None:
        from builder import workspace
        from builder.catalog import refresh_catalog
        from builder.routine import build_table

        started = time.perf_counter()

        def stepped(step: int, note: str) -> None:  # its seconds: job_state works them out
            job.step, job.note = step, note

        with building:
            job.state = "building"
            try:
                # the one lock every writer of the data directory takes: a builder that
                # starts meanwhile is refused, and never sweeps this build's staging
                with workspace.holding(data_dir, "query serve: a table built on request"), \
                        work.progress_to(stepped):
                    result = build_table(data_dir, spec, progress=False, log=lambda *a: None)
                    if result.built:
                        refresh_catalog(data_dir)
                job.state = "done"
            except workspace.DirectoryHeldError:  # its words name server paths
                job.state, job.detail = "failed", ("another builder is writing this "
                                                   "server's tables: try again when it "
                                                   "has finished")
            except OneLineError as error:
                job.state, job.detail = "failed", web_message(str(error))
            except Exception as error:  # noqa: BLE001 (a thread's failure must reach the page as one line)
                job.state, job.detail = "failed", f"internal error ({type(error).__name__})"
            job.seconds = round(time.perf_counter() - started, 1)

    @router.get("/searches/{watch}", response_model=SearchOut,
                summary="A position's or a path's search, as it runs")
    def search_state(watch: str) -> SearchOut:
        """How far the search of the request that named WATCH has gone (the page polls it
        while it waits, and shows the bound searched).  A name no request has used, or
        one long forgotten, is a 404."""
        with watching_lock:
            record, started = watched.get(watch), watched_started.get(watch)
        if record is None:
            raise MissingTableError(f"no search followed as {watch[:40]!r}")
        if record.state == "running":
            record.seconds = round(time.perf_counter() - started, 1)
        return record

    @router.get("/jobs/{job_id}", response_model=JobOut, summary="A table build's progress")
    def job_state(job_id: int) -> JobOut:
        """Where a build started by POST /api/play/{puzzle}/table stands."""
        job = jobs.get(job_id)
        if job is None:
            raise MissingTableError(f"no build job {job_id}")
        if job.state in ("queued", "building"):
            job.seconds = round(time.perf_counter() - job_started[job.id], 1)
        return job

    return router

