"""`query serve`: the applet's successor, served from the built tables (FastAPI).

One page (static/index.html, driven by static/app.js) plays every walkable puzzle
through the generic game API (query/play.py), with optimal hints: on its plug-in's board
renderer (``Playing.renderer``, served at /renderers/NAME.js) or, without one, on the
generic board drawn from its notation (static/generic.js).  Beside it are the plug-ins' own
endpoints (``Playing.web_routes``, mounted under /api/NAME) and their charts
(``Playing.figures``); the answers are the CLI's ``--json`` ones and are documented at
/docs, whose assets are served locally (no CDN: it works offline).  Bad requests get a
4xx with a one-line message; nothing ever returns a traceback or a server path.
"""

from __future__ import annotations

import io
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import anyio.from_thread
import anyio.lowlevel
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from builder import registry
from builder.contract import work
from builder.contract.errors import OneLineError, PuzzleInputError, UnreachableError
from builder.contract.puzzle import Charting, Playing
from builder.gate import WorkGate
from builder.reader import MissingTableError, open_catalog
from query import play
from query.walk import PluginFaultError, Tables

ERROR_STATUS = ((MissingTableError, 404), (UnreachableError, 422),
                (work.OverBudgetError, 429), (work.ServerBusyError, 503),
                (play.BuildsOffError, 403), (work.AbandonedError, 499),
                (play.UnknownPuzzleError, 422),
                (PluginFaultError, 500))
"""HTTP status of each one-line error a user can act on (400 for the others), and of a
faulty plug-in (the server's fault, not the request's)."""

STATIC = Path(__file__).parent / "static"


def _web_message(message: str, data_dir: Path) -> str:
    """A one-line error for a web user: the server's directories are never shown.  The
    folder is replaced where it stands as a path, never inside a word (a server started
    with `--data data` would turn "databases" into "the tablesbases"), the longest
    spelling first."""
    for folder in sorted({str(Path(data_dir).resolve()), str(data_dir)}, key=len,
                         reverse=True):
        message = re.sub(rf"(?<![\w./-]){re.escape(folder)}(/|(?![\w-]))",
                         lambda found: "" if found.group(1) else "the tables", message)
    return message


def _one_line(error: RequestValidationError) -> str:
    """FastAPI's list of validation problems as one sentence (never the input echoed)."""
    parts = []
    for problem in error.errors():
        where = ".".join(str(p) for p in problem.get("loc", ()) if p not in ("query", "path"))
        parts.append(f"{where or 'request'}: {problem.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def _disconnect_probe(request: Request) -> Callable[[], bool]:
    """Whether ``request``'s client has hung up, asked from any thread but the event
    loop's: the worker that runs the endpoint, or the gate's watcher of its running work,
    which stops work nobody will read (False where it cannot be asked)."""
    loop = anyio.lowlevel.current_token()  # called in the event loop: other threads need it

    def client_gone() -> bool:
        try:
            return anyio.from_thread.run(request.is_disconnected, token=loop)
        except RuntimeError:
            return False

    return client_gone


REDOC_CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
"""The one address ReDoc's script fetches by itself (its "API docs by Redocly" mark)."""
BLANK_IMAGE = "data:image/gif;base64,R0lGODlhAQABAAAAACw="


def _offline_redoc(app) -> None:
    """/redoc with nothing fetched from the internet: fastapi-offline serves ReDoc's script
    locally, but the script itself loads its attribution logo from a CDN; this page's copy
    of the script has that address replaced by an inline blank image."""
    import fastapi_offline
    from fastapi.openapi.docs import get_redoc_html
    from fastapi.responses import Response

    script = (Path(fastapi_offline.__file__).parent / "static" / "redoc.standalone.js")

    @app.get("/redoc", include_in_schema=False)
    def redoc():
        return get_redoc_html(openapi_url=app.openapi_url, title=f"{app.title} - ReDoc",
                              redoc_js_url="/redoc.standalone.js",
                              redoc_favicon_url="/static-offline-docs/favicon.png",
                              with_google_fonts=False)

    @app.get("/redoc.standalone.js", include_in_schema=False)
    def redoc_script():
        text = script.read_text(encoding="utf-8").replace(REDOC_CDN_LOGO, BLANK_IMAGE)
        return Response(text, media_type="application/javascript",
                        headers={"Cache-Control": "max-age=86400"})


def create_app(data_dir: Path, allow_builds: int = 0,
               gate: WorkGate | None = None) -> FastAPI:
    """The server over ``data_dir``: searches and solver runs go through ``gate`` (a few at
    a time, within its limits; a default one when not given), and at most
    ``allow_builds`` tables may be built on request (none by default)."""
    data_dir = Path(data_dir)
    registry.use_data(data_dir)  # the puzzles its files define are served too
    gate = gate or WorkGate()
    app = FastAPIOffline(title="Puzzle tablebases",
                  description="Optimal hints and paths for every registered puzzle with "
                              "endpoints, answered from the built tables (the CLI's --json "
                              "answers).", redoc_url=None)
    _offline_redoc(app)

    @app.exception_handler(OneLineError)
    async def bad_request(request: Request, error: Exception) -> JSONResponse:
        status = next((code for kind, code in ERROR_STATUS if isinstance(error, kind)), 400)
        headers = {"Retry-After": "5"} if status in (429, 503) else None
        return JSONResponse({"detail": _web_message(str(error), data_dir)},
                            status_code=status, headers=headers)

    @app.middleware("http")
    async def one_scope_per_request(request: Request, call_next):
        """A request's expensive work goes through the server's gate, within one time
        limit (``work.request_scope``); it sees the puzzles the data directory's files
        define as they stand (`builder define` while the server runs: no restart)."""
        registry.use_data(data_dir)  # a stat of one folder unless its files changed
        with work.request_scope(gate, client_gone=_disconnect_probe(request)):
            return await call_next(request)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _one_line(error)}, status_code=422)

    @app.exception_handler(Exception)
    async def internal(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"detail": f"internal error ({type(error).__name__})"},
                            status_code=500)

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    renderers = {puzzle.name: Path(sys.modules[type(puzzle).__module__].__file__).parent
                 / Playing.of(puzzle).renderer
                 for puzzle in registry.PUZZLES if Playing.of(puzzle).renderer}

    @app.get("/renderers/{name}.js", include_in_schema=False)
    def renderer(name: str) -> FileResponse:
        if name not in renderers:
            raise PuzzleInputError(f"no renderer for {name[:40]!r}")
        return FileResponse(renderers[name], media_type="text/javascript")

    tables = Tables(data_dir)
    app.include_router(play.routes(tables, data_dir, lambda m: _web_message(m, data_dir),
                                   allow_builds),
                       prefix="/api", tags=["play"])
    for puzzle in registry.PUZZLES:
        router = Playing.of(puzzle).web_routes(tables)
        if router is not None:
            app.include_router(router, prefix=f"/api/{puzzle.name}", tags=[puzzle.name])

    charts: dict[tuple, dict[tuple[str, str], str]] = {}
    charts_lock = threading.Lock()

    def chart_svgs() -> dict[tuple[str, str], str]:
        """Every plug-in's charts drawn once per catalog (drawing costs memory and time; a
        request only reads the cached text)."""
        catalog = data_dir / "catalog.duckdb"
        try:
            stamp = catalog.stat()
        except OSError:
            raise MissingTableError("no catalog: run `make tables`") from None
        key = (stamp.st_ino, stamp.st_mtime_ns)
        with charts_lock:
            if key not in charts:
                drawn = {}
                with open_catalog(data_dir) as con:
                    for puzzle in registry.PUZZLES:
                        if not Charting.of(puzzle).figure_names:
                            continue
                        for name, figure in Charting.of(puzzle).figures(con).items():
                            buffer = io.StringIO()
                            figure.savefig(buffer, format="svg")
                            drawn[(puzzle.name, name)] = buffer.getvalue()
                charts.clear()
                charts[key] = drawn
            return charts[key]

    @app.get("/api/{puzzle}/plots/{name}.svg")
    def plot(puzzle: str, name: str) -> Response:
        """A puzzle's charts (their names: /api/puzzles, `figures`)."""
        chosen = registry.by_name(puzzle)
        if name not in Charting.of(chosen).figure_names:
            raise PuzzleInputError(f"no chart {name[:40]!r} of {chosen.name}: "
                                   f"{' or '.join(Charting.of(chosen).figure_names) or 'none'}")
        return Response(chart_svgs()[(chosen.name, name)], media_type="image/svg+xml")

    return app
