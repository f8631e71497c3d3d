"""Tricolore's own `query` command: `query stats tricolore` (the document's 4×2 tables)."""

from __future__ import annotations

import json
from typing import Any

import typer

from builder.contract.cli_options import JsonOption
from puzzles.tricolore.rules import (
    METHODS,
)


def stats(
    *,
    catalog: Any = None,
    as_json: JsonOption = False,
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
