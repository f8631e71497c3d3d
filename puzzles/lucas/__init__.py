"""Lucas' inverted pieces (document 003) as a plug-in: the adapter the engine calls.  The
rules and notation are ``rules.py``; the tables, catalog views and verify sample
``tables.py``; the kernels ``search.py`` and
``levels.py``; the board ``renderer.js``.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np
import typer

from builder.contract.base import (
    CatalogTable,
    FoundPath,
    Move,
    PuzzleOption,
    stored_distances,
)
from builder.contract.errors import MissingTableError, shown
from builder.contract.puzzle import OwnSearch, Table, WalkablePuzzle
from puzzles.lucas.levels import lucas_search
from puzzles.lucas.rules import (
    EITHER_WAY,
    FORWARD,
    FORWARD_MAX_N,
    ForwardOnly,
    Lucas,
    LucasError,
    dense_rank,
    rules_of_variant,
)
from puzzles.lucas.tables import (
    DENSE_RANK,
    DOCUMENT_MAX_N,
    VIEWS,
    document_table,
    forward_search,
    verify_sample,
)

MAX_PATH_N = 100
"""Longest Lucas path printed: n = 100 is 10,200 moves; n = 10,000 would be 10^8 lines."""


FORWARD_TABLE = ("lucas", "forward")
"""Where the classic rule's tables to the goal are stored (one array per n)."""


class LucasSearch(OwnSearch):
    """Lucas' own search: the document's level tables and the classic rule's breadth-
    first table, read both ways."""

    def distance(self, tables, variant: Lucas | ForwardOnly, node: int,
                 target: int) -> int | None:
        return self.distances(tables, variant, [node], target)[0]

    def distances(self, tables, variant: Lucas | ForwardOnly, nodes: list[int],
                  target: int) -> list[int | None]:
        """From the stored tables towards the goal (either rule) or the start (either
        way); towards any other target from a table searched now (under a second), as
        the engine keeps it for the next call (``TableLookup.computed``)."""
        rules = rules_of_variant(variant)
        if isinstance(variant, ForwardOnly):
            return self._forward_distances(tables, rules, nodes, target)
        found = self._either_way_distances(tables, rules, nodes, target)
        return [None if int(moves) == -1 else int(moves) for moves in found]

    def search_path(self, variant: Lucas | ForwardOnly, node: int, target: int
                    ) -> FoundPath | None:
        """Beyond the tables, the standard start to the goal by the document's closed form
        (shortest: (n + 1)² - 1 moves); no other pair."""
        rules = rules_of_variant(variant)
        if (isinstance(variant, ForwardOnly) or node != rules.parse(rules.start)
                or target != rules.parse(rules.goal)):
            return None
        if rules.n > MAX_PATH_N:
            raise LucasError(f"n = {rules.n}: a shortest path has at least "
                             f"{(rules.n + 1) ** 2 - 1:,} moves, too many to print (at most "
                             f"n = {MAX_PATH_N})")
        moves = rules.closed_form()
        return FoundPath(tuple(rules.parse(text) for text in rules.play(rules.start, moves)),
                         tuple(f"{agent} {kind}" for agent, kind in moves),
                         "closed form (beyond the tables)")

    def variant_fields(self, variant: Lucas | ForwardOnly) -> dict:
        return {"rule": FORWARD if isinstance(variant, ForwardOnly) else EITHER_WAY}

    path_words = ("configuration", "agent  move type", "arrangements", "moves")

    move_shown_after = True

    def step_value(self, variant: Lucas | ForwardOnly, label: str) -> list[str]:
        return label.split(" ", 1)

    def verify_checks(self, attributes: dict) -> str:
        if attributes.get("rule") == FORWARD:
            return ""  # its arrays are the generic kernel's, checked by the engine
        return ("0 moves exactly at the start and at the goal; moves from the start and to "
                "the goal = 1 + the least after a move")

    def verify_sample(self, attributes: dict, read, samples: int, rng) -> str | None:
        return verify_sample(attributes, read, samples, rng)

    def entry_positions(self, attributes: dict, array: str, entries,
                        read) -> list[tuple[str, str]] | None:
        if attributes.get("rule") == FORWARD:
            return None  # ranked densely by colex rank: no unranking kept
        n = int(array.removeprefix("n").removesuffix("_to_goal"))
        rules, codes = Lucas(n), read(f"n{n}_codes")  # the table's ranking: sorted codes
        return [(rules.format(int(codes[entry])), rules.goal) for entry in entries]

    def table(self, identity: dict) -> Table:
        if identity.get("rule") != FORWARD and "target" not in identity:
            return document_table(identity.get("max_n", DOCUMENT_MAX_N))
        if "target" in identity:
            rules = Lucas(identity["n"])
            target = rules.parse(identity["target"])
            rule = EITHER_WAY if identity.get("rule") == EITHER_WAY else FORWARD
            options = {"rule": rule, "n": rules.n, "target": rules.format(target)}
            # the target as the identity spelt it names the folder, as it always has
            name = f"{rule}/{identity['target']}"
            if rule == EITHER_WAY:
                return Table(self.name, name, options,
                             make=lambda progress: {"moves": lucas_search(rules, target)[0]},
                             about=f"moves[rank]: fewest moves to {rules.format(target)} "
                                   "(rank as the document's tables' codes), -1 = never")
            return Table(self.name, name, options,
                         searched={"moves": forward_search(rules, target)},
                         distances={"moves": (f"n={rules.n} forward",
                                              f"to {rules.format(target)}")},
                         about=f"moves[rank]: fewest classic moves to "
                               f"{rules.format(target)}; {DENSE_RANK}")
        top = identity.get("max_n", FORWARD_MAX_N)
        if not 1 <= top <= FORWARD_MAX_N:
            raise LucasError(f"max n {top}: from 1 to {FORWARD_MAX_N}")
        return Table(self.name, FORWARD_TABLE[-1], {"rule": FORWARD, "max_n": top},
                     searched={f"n{n}": forward_search(Lucas(n), Lucas(n).parse(Lucas(n).goal))
                               for n in range(1, top + 1)},
                     distances={f"n{n}": (f"n={n} forward", "to goal")
                                for n in range(1, top + 1)},
                     about=f"n{{n}}[rank]: fewest classic moves (A right, B left) to the "
                           f"goal B.._A..; {DENSE_RANK}")

    def default_tables(self) -> list[Table]:
        return [document_table(DOCUMENT_MAX_N),
                self.table({"rule": FORWARD, "max_n": FORWARD_MAX_N})]

    def table_for(self, text: str) -> Table:
        choice = text.strip().lower()
        if choice == FORWARD:
            return self.default_tables()[1]
        if choice.isdigit():
            return document_table(int(choice))
        raise LucasError(f"{shown(text)}: 'forward' (the classic rule's tables) or a largest "
                         "n such as 8 (the document's table, n = 1 .. 8)")

    def build_commands(self) -> dict:
        def lucas(
            max_n: Annotated[int, typer.Option(
                "--max-n", help="Search n = 1 .. this (at most 11: n = 12 has 67.6 million "
                "arrangements).", min=1, max=1000)] = DOCUMENT_MAX_N,
        ) -> list[Table]:
            """Lucas' inverted pieces: every arrangement of n A's, n B's and a gap, searched
            from the start and from the goal, for n = 1 .. max-n (n = 10: 3.9 million
            arrangements); and the classic rule's table (lucas/forward, n = 1 .. 10).

            Example: builder lucas --max-n 8
            """
            return [document_table(max_n), self.default_tables()[1]]

        return {self.name: lucas}

    def _either_way_distances(self, tables, rules: Lucas, nodes: list[int],
                              target: int) -> np.ndarray:
        table = ("lucas", "tables")
        missing = f"no Lucas table: run `make tables` or `builder lucas --max-n {rules.n}`"
        attributes = tables.require(table, {"puzzle": "lucas"}, missing)
        if rules.n > attributes.get("max_n", 0):
            raise MissingTableError(
                f"no Lucas table for n = {rules.n}: run `builder lucas --max-n {rules.n}` "
                "(beyond the tables only the standard start to goal is answered)")
        ranks = rules.rank(np.array(nodes, dtype=np.int64))  # codes fit: n is tabled
        if target == rules.parse(rules.goal):
            array = f"n{rules.n}_to_goal"
        elif target == rules.parse(rules.start):
            array = f"n{rules.n}_from_start"
        else:
            towards = self.table({"rule": EITHER_WAY, "n": rules.n,
                                  "target": rules.format(target)})
            return tables.computed(towards)["moves"][ranks]
        return np.array([tables.value(table, array, int(rank), missing) for rank in ranks])

    def _forward_distances(self, tables, rules: Lucas, nodes: list[int],
                           target: int) -> list[int | None]:
        if rules.n > FORWARD_MAX_N:
            raise LucasError(f"n = {rules.n}: the classic rule's tables stop at n = "
                             f"{FORWARD_MAX_N}")
        ranks = [dense_rank(rules, int(code)) for code in nodes]
        if target == rules.parse(rules.goal):
            return [tables.distance(FORWARD_TABLE, f"n{rules.n}", rank,
                                    missing="no table of Lucas' classic rule: run `make "
                                            "tables` or `builder build lucas forward`")
                    for rank in ranks]
        towards = self.table({"rule": FORWARD, "n": rules.n, "target": rules.format(target)})
        return stored_distances(tables.computed(towards)["moves"][ranks])

    catalog_tables = (CatalogTable(
        "lucas_runs", "n INTEGER, states BIGINT, reachable_states BIGINT, moves INTEGER, "
        "fewest_jumps INTEGER, most_jumps INTEGER, optimal_solutions BIGINT"),)

    catalog_views = VIEWS

    def catalog_rows(self, attributes: dict, read) -> dict[str, list[tuple]]:
        if attributes.get("rule") == FORWARD:
            return {}
        return {"lucas_runs": [(r["n"], r["states"], r["reachable_states"], r["moves"],
                                r["fewest_jumps"], r["most_jumps"], r["optimal_solutions"])
                               for r in attributes["summary"]]}


class LucasPuzzle(WalkablePuzzle):
    """Lucas' pieces as a plug-in: the tables hold, per n, every arrangement's moves to
    the goal and from the standard start (moves are reversible, so also to the start)."""

    own_search = LucasSearch

    name = "lucas"
    summary = "Lucas' inverted pieces: swap n A's and n B's across one gap"
    example = ("AAA_BBB", "BBB_AAA")
    renderer = "renderer.js"
    options = (PuzzleOption(
        "variant", "'forward' (A only moves right, B only left) or 'either way' (the "
        "default)", (FORWARD, EITHER_WAY)),)

    def recognises(self, text: str) -> bool:
        """A's, B's and one '_' (how many of each is its parse error to name)."""
        text = text.strip().upper()
        return text.count("_") == 1 and set(text) <= {"A", "B", "_"}

    def variant(self, start: str, target: str, options: dict) -> Lucas | ForwardOnly:
        text = start.strip().upper()
        if len(text) % 2 == 0 or text.count("_") != 1:
            raise LucasError(f"arrangement {shown(start)}: n A's, one '_' and n B's")
        rule = str(options.get("variant") or EITHER_WAY).strip().lower()
        if rule not in (FORWARD, EITHER_WAY):
            raise LucasError(f"--variant {shown(rule)}: '{FORWARD}' (A only moves right, B "
                             f"only left) or '{EITHER_WAY}' (the default)")
        rules = Lucas(len(text) // 2)
        return ForwardOnly(rules) if rule == FORWARD else rules

    def parse(self, variant: Lucas | ForwardOnly, text: str) -> int:
        return rules_of_variant(variant).parse(text)

    def format(self, variant: Lucas | ForwardOnly, state: int) -> str:
        return rules_of_variant(variant).format(state)

    def default_target(self, variant: Lucas | ForwardOnly) -> str:
        return rules_of_variant(variant).goal

    def moves(self, variant: Lucas | ForwardOnly, node: int) -> list[Move]:
        rules = rules_of_variant(variant)
        gap = node >> rules.cells
        found = []
        for following, legal, kind, is_a in rules.moves(np.array([node])):
            # an A moving right leaves the gap to its left; a B moving left, to its right
            forward = (int(following[0]) >> rules.cells < gap) == bool(is_a[0])
            if legal[0] and (forward or not isinstance(variant, ForwardOnly)):
                found.append(Move(f"{'A' if is_a[0] else 'B'} {kind}", int(following[0])))
        return found
