"""Tricolore's charts of its statistics (matplotlib, imported only when `query plot
tricolore` or the web app draws them)."""

from __future__ import annotations

DOCUMENT_TARGETS = ("WWWW.WWWW", "WBWB.BWBW", "RRRR.RRRR")
METHOD_COLOURS = {"unrestricted": "#1b6ca8", "hybrid": "#e07b39", "restricted": "#6b9a3e"}


def tricolore_figures(con) -> dict:
    """{"methods": side-by-side click distributions of the three 4×2 methods,
    "targets": per-target distributions towards the document's three targets}."""
    import numpy as np
    from matplotlib.figure import Figure  # not pyplot: its registry keeps every figure alive

    rows = con.execute("SELECT method, clicks, percent, reached FROM tricolore_click_distribution "
                       "WHERE clicks IS NOT NULL").fetchall()
    methods = [m for m in METHOD_COLOURS if any(r[0] == m for r in rows)]
    clicks = sorted({r[1] for r in rows})
    figure = Figure(figsize=(9, 4.2), layout="constrained")
    axes = figure.subplots()
    width = 0.8 / max(1, len(methods))
    for i, method in enumerate(methods):
        total = sum(r[3] for r in rows if r[0] == method)
        shares = [100 * next((r[3] for r in rows if r[0] == method and r[1] == c), 0) / total
                  for c in clicks]
        axes.bar(np.array(clicks) + (i - (len(methods) - 1) / 2) * width, shares, width,
                 label=method, color=METHOD_COLOURS[method])
    axes.set(xlabel="minimum clicks", ylabel="% of (start, target) pairs", xticks=clicks,
             title="Tricolore 4×2: clicks needed, over the 3321 mirror-canonical starts")
    axes.legend()
    result = {"methods": figure}
    targets = con.execute(
        "SELECT c.method, b.notation, c.clicks, sum(c.starts) FROM tricolore_target_clicks c "
        "JOIN tricolore_boards b ON b.width = c.width AND b.height = c.height "
        "AND b.board = c.target WHERE c.width = 4 AND c.height = 2 AND c.clicks IS NOT NULL "
        "AND b.notation IN ('WWWW.WWWW', 'WBWB.BWBW', 'RRRR.RRRR') GROUP BY ALL").fetchall()
    figure = Figure(figsize=(12, 3.8), layout="constrained")
    panels = figure.subplots(1, 3, sharey=True)
    for panel, target in zip(panels, DOCUMENT_TARGETS):
        for method in methods:
            points = sorted((c, n) for m, t, c, n in targets if m == method and t == target)
            if points:
                total = sum(n for _, n in points)
                panel.plot([c for c, _ in points], [100 * n / total for _, n in points],
                           marker="o", label=method, color=METHOD_COLOURS[method])
        panel.set(title=f"to {target}", xlabel="minimum clicks")
    panels[0].set_ylabel("% of the 6561 starts")
    panels[0].legend()
    result["targets"] = figure
    return result
