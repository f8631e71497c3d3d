"""Tricolore's own query layouts and commands: `query path` as the document shows a
solution (step, board, click; the decomposition's halves), with the bidirectional search
where a 4×4 target has no table; `query stats tricolore` (the document's 4×2 tables).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from builder.puzzles import MissingTableError, UnreachableError
from builder.puzzles.base import FoundPath, TableLookup
from builder.puzzles.tricolore.answers import (
    TargetColumns,
    TricolorePath,
    explain_unreachable,
    optimal_path,
    replayed,
)
from builder.puzzles.tricolore.rules import (
    ALL_PAIRS_MAX_SQUARES,
    METHODS,
    NO_CLICK,
    Tricolore,
    check_method,
)
from builder.puzzles.work import expensive


def searched(rules: Tricolore, start: int, target: int, method: str,
             last: int = NO_CLICK) -> TricolorePath | None:
    """The bidirectional search, replayed, where no table can answer (unrestricted clicks
    on boards too large for all-pairs tables), from ``start`` reached by clicking
    ``last``; None where it does not apply; an UnreachableError when it proves the
    target unreachable."""
    if method != "unrestricted" or rules.n_squares <= ALL_PAIRS_MAX_SQUARES:
        return None
    from builder.puzzles.tricolore.bidirectional import bidirectional_path

    with expensive("the Tricolore search"):
        found = bidirectional_path(rules, start, target, last=last)
    if found is None:
        raise UnreachableError(explain_unreachable(rules, target, method))
    return replayed(rules, found, last)


def exact_path(tables: TableLookup, rules: Tricolore, start: int, target: int,
               method: str) -> tuple[TricolorePath, str]:
    """An optimal path by table walk, or by the bidirectional search where the target has
    no table; replayed before it is returned."""
    try:
        towards = TargetColumns(tables, rules, target, method)
        return replayed(rules, optimal_path(rules, towards, start, target, method)), ""
    except MissingTableError:
        found = searched(rules, start, target, method)
        if found is None:
            raise
        return found, ", bidirectional search"


def searched_path(rules: Tricolore, node: tuple[int, int], target: int,
                  method: str) -> FoundPath | None:
    """``searched`` as the engine's fallback (``Puzzle.search_path``), from a start node."""
    board, last = node
    found = searched(rules, board, target, method, last)
    if found is None:
        return None
    return FoundPath(tuple(zip(found.boards, (last, *found.clicks))),
                     tuple(str(square) for square in found.clicks), "bidirectional search")


def _print_steps(boards: list[str], clicks: list[int], labels: list[str] | None) -> None:
    width = len(boards[0])
    header = f"{'step':<5} " + (f"{'half':<9} " if labels else "") + f"{'board':<{width}}  click"
    typer.echo(header)
    for step, board in enumerate(boards):
        click = str(clicks[step]) if step < len(clicks) else "done"
        half = ""
        if labels:
            half = f"{labels[step] if step < len(clicks) else '':<9} "
        typer.echo(f"{'init' if step == 0 else step:<5} {half}{board:<{width}}  {click}")


def print_path(tables: TableLookup, start: str, target: str, method: str | None,
               as_json: bool) -> None:
    """`query path` for Tricolore: the exact path, or the decomposition's."""
    if method == "decomposition":
        _print_decomposition(tables, start, target, as_json)
        return
    method = check_method(method or "unrestricted")
    rules = Tricolore.of_board(start)
    found, how = exact_path(tables, rules, rules.parse(start), rules.parse(target), method)
    boards = [rules.format(b) for b in found.boards]
    if as_json:
        typer.echo(json.dumps({"start": boards[0], "target": boards[-1], "method": method,
                               "length": found.length, "clicks": list(found.clicks),
                               "boards": boards}))
        return
    typer.echo(f"{boards[0]} -> {boards[-1]}: {found.length} clicks ({method}, optimal{how})")
    _print_steps(boards, list(found.clicks), None)


def _print_decomposition(tables: TableLookup, start: str, target: str, as_json: bool) -> None:
    from builder.puzzles import PuzzleInputError
    from builder.puzzles.tricolore.decomposition import DecompositionSolver

    rules = Tricolore.of_board(start)
    start_rank, target_rank = rules.parse(start), rules.parse(target)
    if (rules.width, rules.height) != (4, 4):
        raise PuzzleInputError("--method decomposition solves 4x4 boards (four rows of four)")
    found = DecompositionSolver(tables).solve_after(start_rank, NO_CLICK, target_rank)
    boards = [rules.format(b) for b in found.boards]
    if as_json:
        typer.echo(json.dumps({"start": boards[0], "target": boards[-1],
                               "method": "decomposition", "length": found.length,
                               "clicks": list(found.clicks), "halves": list(found.halves),
                               "rotation": found.rotation, "boards": boards}))
        return
    parts = " + ".join(f"{h} {found.count(h)}" for h in ("first", "top", "bottom", "extension")
                       if found.count(h))
    typer.echo(f"{boards[0]} -> {boards[-1]}: {found.length} clicks (decomposition: {parts}; "
               f"rotation {found.rotation}; not guaranteed optimal)")
    _print_steps(boards, list(found.clicks), list(found.halves))


def stats(
    *,
    catalog: Any = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """The document's 4×2 tables: clicks per method, and the reversed (per-target) table.

    Example: query stats tricolore
    """
    distribution = catalog.execute(
        "SELECT method, clicks, reached, average, percent FROM tricolore_click_distribution"
    ).fetchall()
    summary = {row[0]: row[1:] for row in catalog.execute(
        "SELECT method, average_clicks, starts FROM tricolore_click_summary").fetchall()}
    targets = catalog.execute(
        "SELECT method, target, average_document_starts, maximum, exact_average "
        "FROM tricolore_target_summary "
        "WHERE target IN ('WWWW.WWWW', 'WBWB.BWBW', 'RRRR.RRRR') "
        "ORDER BY method, maximum"
    ).fetchall()
    if as_json:
        typer.echo(json.dumps({
            "distribution": [dict(zip(("method", "clicks", "reached", "average", "percent"),
                                      row)) for row in distribution],
            "average_clicks": {m: s[0] for m, s in summary.items()},
            "targets": [dict(zip(("method", "target", "average", "maximum",
                                  "average_all_starts"), row)) for row in targets],
        }))
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
