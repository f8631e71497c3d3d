"""Quinto / Lights Out (document 001) as a plug-in: the adapter the engine calls.  The
rules and their algebra are ``rules.py``, the table ``tables.py``, the kernel
``search.py``, the commands ``cli.py``, the endpoint ``web.py``, the board ``renderer.js``.
"""

from __future__ import annotations

import numpy as np

from builder.contract.base import CatalogTable, FoundPath, Move, never_of
from builder.contract.errors import MissingTableError, UnreachableError
from builder.contract.puzzle import OwnSearch, Table, WalkablePuzzle
from puzzles.lightsout.rules import LightsOut
from puzzles.lightsout.tables import (
    SUMMARY_SIZE,
    TABLE_BUTTONS,
    TABLE_NAME,
    TABLE_SHAPE,
    VIEWS,
    compute_table,
)


class LightsOutSearch(OwnSearch):
    """Lights Out's own search: the 5x5 table its XOR kernel fills, the linear algebra
    for other boards, and its commands."""

    def distance(self, tables, rules: LightsOut, node: int, target: int) -> int | None:
        if (rules.rows, rules.cols) != TABLE_SHAPE:
            raise MissingTableError(f"only the 5x5 board has a table; solve {rules.rows}x"
                                    f"{rules.cols} boards with `query lightsout solve`")
        table = (self.name, TABLE_NAME)
        tables.require(table, {"puzzle": self.name},
                       "no Lights Out table: run `make tables` or `builder lightsout`")
        return tables.distance(table, "clicks_5x5", node ^ target)

    def search_path(self, rules: LightsOut, node: int, target: int) -> FoundPath | None:
        """The fewest clicks on any board by linear algebra over GF(2) (clicks commute, so
        a shortest path is a minimum-weight solution in any order); None where the
        solutions are too many to enumerate for a proven minimum."""
        solution = rules.solve(node, target)
        if not solution.solvable:
            raise UnreachableError(self.explain_unreachable(rules, node, target))
        if not solution.exact_minimum:
            return None
        nodes = [node]
        for button in solution.clicks:
            nodes.append(nodes[-1] ^ rules.click_masks[button])
        return FoundPath(tuple(nodes), tuple(map(str, solution.clicks)),
                         how="linear algebra over GF(2)")

    def explain_unreachable(self, rules: LightsOut, start: int, target: int) -> str:
        return (f"{rules.format(target)} cannot be reached from {rules.format(start)}: the "
                f"{rules.rows}x{rules.cols} board has nullity {rules.nullity}, so only 1 "
                f"board in {2 ** rules.nullity} is reachable from a given one")

    def web_routes(self, tables):
        from puzzles.lightsout.web import routes

        return routes()

    def entry_positions(self, attributes: dict, array: str, entries,
                        read) -> list[tuple[str, str]]:
        # clicks commute: the fewest from all off to a board are the fewest back
        rules = LightsOut(*TABLE_SHAPE)
        return [(rules.format(int(entry)), rules.format(0)) for entry in entries]

    def table(self, identity: dict) -> Table:
        return Table(
            self.name, TABLE_NAME, {"summary_size": SUMMARY_SIZE,
                                    "table_buttons": TABLE_BUTTONS},
            make=compute_table, distances={"clicks_5x5": ("5x5", "from all off")},
            about="clicks_5x5[state]: fewest clicks between all off and the state "
                  "(bit i = button i, row-major), never where it is unreachable")

    def default_tables(self) -> list[Table]:
        return [self.table({})]

    catalog_tables = (
        CatalogTable("lightsout_boards",
                     "rows INTEGER, cols INTEGER, nullity INTEGER, max_min_clicks INTEGER"),
        CatalogTable("lightsout_5x5_clicks", "clicks UTINYINT, states BIGINT"),
    )

    catalog_views = VIEWS

    def catalog_rows(self, attributes: dict, read) -> dict[str, list[tuple]]:
        import numpy as np

        stored = read("clicks_5x5")
        never = never_of(stored)
        counts = np.bincount(stored, minlength=never + 1)
        return {
            "lightsout_boards": [(row["rows"], row["cols"], row["nullity"],
                                  row["max_min_clicks"]) for row in attributes["summary"]],
            "lightsout_5x5_clicks": [(None if clicks == never else clicks, int(states))
                                     for clicks, states in enumerate(counts) if states],
        }

    def query_commands(self) -> dict:
        from puzzles.lightsout import cli

        return {"solve": cli.solve}

    def verify_checks(self, attributes: dict) -> str:
        return "0 clicks exactly at the dark board; fewest clicks = 1 + the least after a click"

    def verify_sample(self, attributes: dict, read, samples: int, rng) -> str | None:
        board = LightsOut(*TABLE_SHAPE)
        clicks = read("clicks_5x5")
        if np.flatnonzero(clicks == 0).tolist() != [0]:  # checked whole: a forgery that
            return "clicks_5x5 is 0 elsewhere than at the dark board (or not there)"  # shifts all
        never = never_of(clicks)
        for state in rng.integers(0, 1 << board.n_buttons, samples):
            after = [int(clicks[state ^ mask]) for mask in board.click_masks]
            reachable = [value for value in after if value != never]
            expected = 0 if state == 0 else (min(reachable) + 1 if reachable else never)
            if int(clicks[state]) != expected:
                return f"clicks_5x5: state {board.format(int(state))} holds " \
                       f"{int(clicks[state])}, the recurrence gives {expected}"
        return None


class LightsOutPuzzle(WalkablePuzzle):
    """Lights Out as a plug-in: clicks commute and cancel, so the fewest clicks from one
    board to another are the stored fewest clicks from all off to their difference."""

    own_search = LightsOutSearch

    name = "lightsout"
    summary = "Quinto / Lights Out: a click inverts a button and its four neighbours"
    example = ("00000.00000.00000.00000.00000", "11111.11111.11111.11111.11111")
    unit = "clicks"

    def recognises(self, text: str) -> bool:
        letters = set(text.strip())
        return bool(letters) and letters <= {"0", "1", "."} and letters != {"."}

    def variant(self, start: str, target: str, options: dict) -> LightsOut:
        return LightsOut(*LightsOut.shape_of(start))

    def parse(self, rules: LightsOut, text: str) -> int:
        return rules.parse(text)

    def format(self, rules: LightsOut, state: int) -> str:
        return rules.format(state)

    def drawing(self, rules: LightsOut, state: int) -> str:
        return "\n".join(" ".join("#" if light == "1" else "." for light in row)
                          for row in rules.format(state).split("."))

    def default_target(self, rules: LightsOut) -> str:
        return rules.format(0)

    def moves(self, rules: LightsOut, node: int) -> list[Move]:
        return [Move(str(button), node ^ mask) for button, mask in enumerate(rules.click_masks)]

    renderer = "renderer.js"
