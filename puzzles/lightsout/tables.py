"""Lights Out's table (``lightsout/tables``): the fewest clicks from all off to every 5×5
state, over every click set (``search.fewest_clicks``), and a summary of every board up to 10×10
(nullity by elimination; the most clicks any solvable state needs, from the same kernel,
for boards of at most 25 buttons), published as the catalog's ``lightsout_summary`` and
``lightsout_5x5_distribution``.
"""

from __future__ import annotations

from builder.contract.base import never_of
from puzzles.lightsout.rules import LightsOut

TABLE_SHAPE = (5, 5)
"""The board with a stored table (`builder lightsout`): fewest clicks from all off."""
SUMMARY_SIZE = 10
"""`lightsout_summary` covers every board up to 10 × 10."""
TABLE_BUTTONS = 25
"""Boards of up to 25 buttons get a full search (their max_min_clicks is exact)."""
TABLE_NAME = "tables"
"""The table's name in the puzzle's folder (`lightsout/tables`)."""

VIEWS = """
CREATE VIEW lightsout_summary AS
SELECT rows, cols, nullity,
       (1::HUGEINT << (rows * cols - nullity)::INTEGER) AS solvable_states,
       max_min_clicks
FROM lightsout_boards ORDER BY rows, cols;

CREATE VIEW lightsout_5x5_distribution AS
SELECT clicks, states FROM lightsout_5x5_clicks WHERE clicks IS NOT NULL ORDER BY clicks;
"""


def compute_table(progress: bool) -> tuple[dict, dict]:
    """The 5×5 table and the summary of every board up to SUMMARY_SIZE squared."""
    from tqdm import tqdm

    from puzzles.lightsout.search import fewest_clicks

    summary = []
    table_5x5 = None
    shapes = [(r, c) for r in range(1, SUMMARY_SIZE + 1) for c in range(1, SUMMARY_SIZE + 1)]
    for rows, cols in tqdm(shapes, desc="lights out boards", unit="board", disable=not progress):
        board = LightsOut(rows, cols)
        max_min_clicks = None
        if board.n_buttons <= TABLE_BUTTONS:
            distances = fewest_clicks(board.click_masks, board.n_buttons)
            max_min_clicks = int(distances[distances != never_of(distances)].max())
            if (rows, cols) == TABLE_SHAPE:
                table_5x5 = distances
        summary.append({"rows": rows, "cols": cols, "nullity": board.nullity,
                        "max_min_clicks": max_min_clicks})
    return {"clicks_5x5": table_5x5}, {"summary": summary}
