"""`query serve`: the applet's successor, served from the built tables (FastAPI).

One page (static/index.html) plays Tricolore 4×2 / 4×4 and the ball tubes with optimal
hints; the JSON API behind it gives the same answers as the CLI's ``--json`` and is
documented at /docs.  Bad requests get a 4xx with a one-line message; nothing ever
returns a traceback.
"""

from __future__ import annotations

import io
import threading
from functools import lru_cache
from pathlib import Path

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response

from builder.puzzles import MAX_INPUT_CHARACTERS, OneLineError, check_length
from builder.puzzles.balls import Balls, BallsError
from builder.puzzles.tricolore import (
    METHODS,
    NO_CLICK,
    MethodError,
    Tricolore,
    check_method,
)
from builder.reader import (
    BallsTable,
    MissingTableError,
    QueryError,
    TricoloreTable,
    TricoloreTargetTable,
    open_catalog,
)
from builder.walk import (
    NotClearableError,
    UnreachableError,
    balls_path,
    deal_balls,
    tricolore_hint,
)

STATIC = Path(__file__).parent / "static"


def _web_message(message: str, data_dir: Path) -> str:
    """A one-line error for a web user: the server's directories are never shown."""
    for folder in {str(Path(data_dir).resolve()), str(data_dir)}:
        message = message.replace(folder + "/", "").replace(folder, "the tables")
    return message
def Notation():
    """A notation parameter: anything longer is refused before any work (a fresh Query
    each time: FastAPI names the parameter on the object)."""
    return Query(max_length=MAX_INPUT_CHARACTERS)


def _one_line(error: RequestValidationError) -> str:
    """FastAPI's list of validation problems as one sentence (never the input echoed)."""
    parts = []
    for problem in error.errors():
        where = ".".join(str(p) for p in problem.get("loc", ()) if p not in ("query", "path"))
        parts.append(f"{where or 'request'}: {problem.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def create_app(data_dir: Path) -> FastAPI:
    app = FastAPI(title="Puzzle tablebases",
                  description="Optimal hints and paths for Tricolore and the ball tubes, "
                              "answered from the built tables (the CLI's --json answers).")

    @app.exception_handler(OneLineError)
    async def bad_request(request: Request, error: Exception) -> JSONResponse:
        status = 404 if isinstance(error, MissingTableError) else 422 if isinstance(
            error, (UnreachableError, NotClearableError)) else 400
        return JSONResponse({"detail": _web_message(str(error), data_dir)},
                            status_code=status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _one_line(error)}, status_code=422)

    @app.exception_handler(Exception)
    async def internal(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"detail": f"internal error ({type(error).__name__})"},
                            status_code=500)

    @lru_cache(maxsize=16)
    def all_pairs(width: int, height: int, method: str) -> TricoloreTable:
        return TricoloreTable(data_dir, width, height, method)

    @lru_cache(maxsize=16)
    def towards(width: int, height: int, target: str) -> TricoloreTargetTable:
        return TricoloreTargetTable(data_dir, width, height, target)

    def tricolore_table(rules: Tricolore, method: str, target: int):
        check_method(method)
        if rules.n_squares <= 10:
            return all_pairs(rules.width, rules.height, method)
        if method != "unrestricted":
            raise MethodError("4x4 tables are for the unrestricted method")
        return towards(rules.width, rules.height, rules.format(target))

    def parse_pair(board: str, target: str) -> tuple[Tricolore, int, int]:
        rules = Tricolore.of_board(board)
        return rules, rules.parse(board), rules.parse(target)

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/api/tricolore/tables")
    def tricolore_tables() -> dict:
        """Which Tricolore tables are built: 4×2 methods and 4×4 targets."""
        from builder.reader import target_table_names

        methods = [m for m in METHODS
                   if (data_dir / "tricolore" / "4x2" / f"{m}.zarr" / "zarr.json").exists()]
        return {"4x2": methods, "4x4": target_table_names(data_dir, 4, 4)}

    @app.get("/api/tricolore/hint")
    def hint(board: str = Notation(), target: str = Notation(), method: str = "unrestricted",
             last: int = Query(NO_CLICK, description="square clicked just before, -1: none")):
        """The next optimal click from BOARD (LAST may not be clicked again) and how many
        clicks remain to TARGET."""
        rules, board_rank, target_rank = parse_pair(board, target)
        if not NO_CLICK <= last < rules.n_squares:
            raise QueryError(f"last square {last} is not on the board (or -1 for none)")
        table = tricolore_table(rules, method, target_rank)
        click, remaining = tricolore_hint(rules, table, board_rank, last, target_rank, method)
        return {"board": rules.format(board_rank), "target": rules.format(target_rank),
                "method": method, "last": last, "click": click, "remaining": remaining}

    @app.get("/api/tricolore/path")
    def path(start: str = Notation(), target: str = Notation(), method: str = "unrestricted"):
        """An optimal click sequence (the CLI's `query path --json`)."""
        from builder.walk import tricolore_path

        rules, start_rank, target_rank = parse_pair(start, target)
        table = tricolore_table(rules, method, target_rank)
        found = tricolore_path(rules, table, start_rank, target_rank, method)
        boards = [rules.format(b) for b in found.boards]
        return {"start": boards[0], "target": boards[-1], "method": method,
                "length": found.length, "clicks": list(found.clicks), "boards": boards}

    @app.get("/api/tricolore/click")
    def click(board: str = Notation(), square: int = Query(), method: str = "unrestricted",
              last: int = NO_CLICK):
        """The board after clicking SQUARE, with the method's rules enforced."""
        rules = Tricolore.of_board(board)
        rank = rules.parse(board)
        check_method(method)
        legal = dict(rules.legal_moves(rank, last, method))
        if square not in legal:
            reason = "it was clicked last" if square == last else f"{method} forbids it here"
            raise QueryError(f"square {square} cannot be clicked: {reason}")
        return {"board": rules.format(legal[square]), "last": square}

    def balls_game(state: str) -> tuple[Balls, tuple[int, ...], BallsTable]:
        rules = Balls(*Balls.shape_of(check_length(state, "state", BallsError)))
        return rules, rules.parse(state), BallsTable(data_dir, rules)

    @app.get("/api/balls/path")
    def balls(state: str = Notation()):
        """The shortest way to clear STATE (the CLI's `query path STATE cleared --json`)."""
        rules, parsed, table = balls_game(state)
        found = balls_path(rules, table, parsed)
        states = [rules.format(s) for s in found.states]
        return {"start": states[0], "target": states[-1], "length": found.length,
                "moves": [list(m) for m in found.moves], "states": states}

    @app.get("/api/balls/solvable")
    def solvable(state: str = Notation()):
        """Whether STATE can be cleared, and in how few moves."""
        rules, parsed, table = balls_game(state)
        moves = table.moves_to_clear(parsed)
        return {"state": rules.format(parsed), "clearable": moves != 255,
                "moves": None if moves == 255 else moves}

    @app.get("/api/balls/move")
    def move(state: str = Notation(), source: int = Query(), target: int = Query()):
        """The state after moving the top ball of tube SOURCE onto tube TARGET (0-based)."""
        rules, parsed, _ = balls_game(state)
        for from_tube, to_tube, following in rules.legal_moves(parsed):
            if (from_tube, to_tube) == (source, target):
                return {"state": rules.format(following)}
        raise QueryError(f"tube {source} -> tube {target} is not a legal move")

    @app.get("/api/balls/random")
    def deal(min_moves: int = Query(0, ge=0, le=255),
             seed: int | None = Query(None, ge=0, lt=2**63)):
        """A random starting game that can be cleared in at least MIN_MOVES moves."""
        import numpy as np

        rules = Balls(4, 4, 3)
        state, moves = deal_balls(rules, BallsTable(data_dir, rules),
                                  np.random.default_rng(seed), min_moves, clearable=True)
        return {"state": rules.format(state), "clearable": True, "moves": moves}

    charts: dict[tuple, dict[str, str]] = {}
    charts_lock = threading.Lock()

    def chart_svgs() -> dict[str, str]:
        """Every chart drawn once per catalog (drawing costs memory and time; a request
        only reads the cached text)."""
        catalog = data_dir / "catalog.duckdb"
        try:
            stamp = catalog.stat()
        except OSError:
            raise MissingTableError("no catalog: run `make tables`") from None
        key = (stamp.st_ino, stamp.st_mtime_ns)
        with charts_lock:
            if key not in charts:
                from query.plots import tricolore_figures

                with open_catalog(data_dir) as con:
                    figures = tricolore_figures(con)
                drawn = {}
                for name, figure in figures.items():
                    buffer = io.StringIO()
                    figure.savefig(buffer, format="svg")
                    drawn[name] = buffer.getvalue()
                charts.clear()
                charts[key] = drawn
            return charts[key]

    @app.get("/api/plots/{name}.svg")
    def plot(name: str) -> Response:
        """The click-distribution charts: `methods` or `targets`."""
        svgs = chart_svgs()
        if name not in svgs:
            raise QueryError(f"no chart {name[:40]!r}: methods or targets")
        return Response(svgs[name], media_type="image/svg+xml")

    return app
