"""Ball tubes (document 004) as a plug-in: the adapter the engine calls.  The rules and
notation are ``rules.py``, the tables, catalog rows and verify sample ``tables.py``, the
query-time answers (the solver at any size, deals, the CLI's layout and the endpoints)
``answers.py``, the kernels ``search.py`` and ``solver.py``, the board ``renderer.js``.
"""

from __future__ import annotations

import functools
from string import ascii_letters
from typing import Annotated, ClassVar

import numpy as np
import typer

from builder.contract.base import (
    CatalogTable,
    FoundPath,
    KeptLast,
    Move,
    PuzzleOption,
    stored_distances,
)
from builder.contract.cli_options import Limit
from builder.contract.errors import shown
from builder.contract.puzzle import OwnSearch, Table, WalkablePuzzle
from puzzles.balls.rules import (
    BALLS,
    RULES,
    RULES_HELP,
    WATER,
    Balls,
    BallsError,
    check_cleared,
    check_rules,
)
from puzzles.balls.tables import (
    MAX_MINUTES,
    MOST_MINUTES,
    TABLE_GAMES,
    TABLE_LAYOUT,
    VIEWS,
    catalog_rows,
    check_budget,
    classes_and_moves,
    verify_sample,
)


def _balls_table(tables, rules: Balls):
    from puzzles.balls.answers import BallsTable

    return BallsTable(tables, rules)


@functools.cache
def _move_label(source: int, destination: int) -> str:
    """A move's label, made once per pair of tubes (a walk labels every move it looks
    at)."""
    return f"{source} -> {destination}"


class BallsSearch(OwnSearch):
    """The ball tubes' own search: the tables of every tube shape by symmetry class, the
    solver beyond them, the catalog's rows and the commands `query balls ...`."""

    def variant_fields(self, rules: Balls) -> dict:
        """Water sort is said (`"rules": "water"`); the document's ball rule needs no
        word."""
        return {"rules": WATER} if rules.water else {}

    def parse_target(self, rules: Balls, text: str) -> str:
        return check_cleared(text)

    def at_target(self, rules: Balls, node, target) -> bool:
        return rules.is_cleared(node)

    def distance(self, tables, rules: Balls, node: tuple[int, ...], target) -> int | None:
        return self.distances(tables, rules, [node], target)[0]

    def distances(self, tables, rules: Balls, nodes: list[tuple[int, ...]], target
                  ) -> list[int | None]:
        """Each state's class, looked up at once in the table of its game (kept from one
        step of a walk to the next)."""
        table = self._last_table.get((tables, rules), lambda: _balls_table(tables, rules))
        return stored_distances(table.moves_of_states(np.array(nodes, dtype=np.int64)))

    goal_words = ("clearable", "cleared")

    def explain_unreachable(self, rules: Balls, start, target) -> str:
        return f"{rules.format(start)} can never be cleared"

    path_words = ("state", "move (tubes from 0)", "states", "moves")

    def step_value(self, rules: Balls, label: str) -> list[int]:
        source, destination = label.split(" -> ")
        return [int(source), int(destination)]

    def search_path(self, rules: Balls, node: tuple[int, ...], target) -> FoundPath:
        from puzzles.balls.answers import search_path

        return search_path(rules, node)

    def query_commands(self) -> dict:
        from puzzles.balls.cli import deal, solve

        return {"random": deal, "solve": solve}

    top_level_commands = ("solve",)

    def web_routes(self, tables):
        from puzzles.balls.web import routes

        return routes(tables)

    def entry_positions(self, attributes: dict, array: str, entries,
                        read) -> list[tuple[str, str]]:
        rules = Balls(attributes["tubes"], attributes["capacity"], attributes["colours"],
                      water=attributes.get("rules") == WATER)
        codes = rules.codes_of_keys(np.asarray(read("class_key"))[np.asarray(entries)])
        # an entry is a symmetry class: its representative stands for it
        return [(rules.format(tuple(int(code) for code in row)), "cleared") for row in codes]

    def table_options(self, attributes: dict) -> dict[str, str]:
        return {"rules": attributes.get("rules", BALLS)}

    def table(self, identity: dict) -> Table:
        rules = Balls(identity.get("tubes", 4), identity.get("capacity", 4),
                      identity.get("colours", 3),
                      water=check_rules(identity.get("rules")) == WATER)
        rules.check_keys_fit()
        water = {"rules": WATER} if rules.water else {}  # ball tables keep their identity
        return Table(
            self.name, rules.name,
            {"tubes": rules.tubes, "capacity": rules.capacity, "colours": rules.colours,
             "layout": TABLE_LAYOUT, **water},
            make=lambda progress: classes_and_moves(rules, progress),
            distances={"moves_to_clear": (rules.name, "to cleared", "class_states")},
            ascending=("class_key",),
            about="one entry per symmetry class (colour relabelling x tube order), "
                  "ascending class_key as puzzles/balls defines it; "
                  f"moves_to_clear: fewest {'pours' if rules.water else 'moves'} to a "
                  "cleared state; class_states: labelled states in the class")

    def default_tables(self) -> list[Table]:
        return [self.table({"tubes": tubes, "capacity": capacity, "colours": colours,
                            "rules": rules})
                for rules in RULES for tubes, capacity, colours in TABLE_GAMES]

    def kernel_modules(self) -> tuple[str, ...]:
        return ("puzzles.balls.solver",)  # the games no table holds: hints, deals

    def table_for(self, text: str) -> Table:
        parts = text.strip().lower().split("_")
        rules = WATER if parts[-1] == WATER else BALLS
        try:
            tubes, capacity, colours = (int(part) for part in parts[:3])
            if len(parts) != (4 if rules == WATER else 3):
                raise ValueError
        except ValueError:
            raise BallsError(f"{shown(text)}: tubes_capacity_colours, such as 4_4_3 (or "
                             "4_4_3_water for water sort)") from None
        check_budget(Balls(tubes, capacity, colours))
        return self.table({"tubes": tubes, "capacity": capacity, "colours": colours,
                           "rules": rules})

    def build_commands(self) -> dict:
        def balls(
            tubes: Annotated[int, typer.Option("--tubes", help="Number of tubes T.")] = 4,
            capacity: Annotated[int, typer.Option("--capacity", help="Balls per tube c.")] = 4,
            colours: Annotated[int, typer.Option("--colours",
                                                 help="Colours k (c balls each).")] = 3,
            max_minutes: Annotated[float, typer.Option(
                "--max-minutes", help="Refuse sizes estimated to take longer than this.",
                click_type=Limit(0, MOST_MINUTES))] = MAX_MINUTES,
            rules: Annotated[str, typer.Option("--rules", help=f"{RULES_HELP}.")] = BALLS,
        ) -> list[Table]:
            """Ball tubes: every state of a (T, c, k) game and its fewest moves to be
            cleared, by a search backwards from all cleared states. One entry per symmetry
            class (relabelling colours and reordering tubes change no distance), each with
            its number of states. Sizes over the memory budget are refused before anything
            starts.

            Example: builder balls --tubes 4 --capacity 3 --colours 3
            """
            check_budget(Balls(tubes, capacity, colours), max_minutes)
            return [self.table({"tubes": tubes, "capacity": capacity, "colours": colours,
                                "rules": check_rules(rules)})]

        return {self.name: balls}

    catalog_tables = (
        CatalogTable("balls_move_counts", "tubes INTEGER, capacity INTEGER, colours INTEGER, "
                                          "initial BOOLEAN, moves UTINYINT, states BIGINT"),
        CatalogTable("balls_tables", "tubes INTEGER, capacity INTEGER, colours INTEGER, "
                                     "symmetries BIGINT, classes BIGINT, "
                                     "search_seconds DOUBLE"),
    )

    catalog_views = VIEWS

    def catalog_rows(self, attributes: dict, read) -> dict[str, list[tuple]]:
        return catalog_rows(attributes, read)

    def verify_checks(self, attributes: dict) -> str:
        return ("classes ascending, adding up to every state, each key its class's "
                "smallest form; 0 moves exactly at the cleared class; fewest moves = 1 + "
                "the least after a move")

    def verify_sample(self, attributes: dict, read, samples: int, rng) -> str | None:
        return verify_sample(attributes, read, samples, rng)


class BallsPuzzle(WalkablePuzzle):
    """Ball tubes as a plug-in: a state's distance is its symmetry class's, found by its
    class key in the table of its (tubes, capacity, colours)."""

    own_search = BallsSearch

    name = "balls"
    summary = "ball tubes: move a top ball onto its colour or an empty tube until sorted"
    example = ("rggb|brrg|gbbr|", "cleared")
    renderer = "renderer.js"
    options = (PuzzleOption(
        "rules", RULES_HELP, RULES),)

    def recognises(self, text: str) -> bool:
        """Tubes of letters (a colour each) joined by '|', empty tubes included."""
        text = text.strip()
        return "|" in text and all(ch == "|" or ch in ascii_letters for ch in text)

    def variant(self, start: str, target: str, options: dict) -> Balls:
        return Balls.of_state(start, options.get("rules") or BALLS)

    def parse(self, rules: Balls, text: str) -> tuple[int, ...]:
        return rules.parse(text)

    def format(self, rules: Balls, state) -> str:
        return "cleared" if state == "cleared" else rules.format(state)

    def drawing(self, rules: Balls, state) -> str:
        if state == "cleared":
            return ""
        tubes = rules.format(state).split("|")  # each tube's balls, top first
        rows = [" ".join(f"|{tube[len(tube) - rules.capacity + row]}|"
                         if len(tube) >= rules.capacity - row else "| |" for tube in tubes)
                for row in range(rules.capacity)]
        return "\n".join([*rows, " ".join(f" {n} " for n in range(len(tubes))).rstrip()])

    def default_target(self, rules: Balls) -> str:
        return "cleared"

    def moves(self, rules: Balls, node: tuple[int, ...]) -> list[Move]:
        return [Move(_move_label(source, destination), following)
                for source, destination, following in rules.legal_moves(node)]

    _last_table: ClassVar[KeptLast] = KeptLast()
    """A walk asks once a step, in one game."""
