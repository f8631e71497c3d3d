"""The ball tubes' own web endpoints, under /api/balls: what the solver proves about a
state, and random deals (the page's New game)."""

from __future__ import annotations

import numpy as np

from builder.contract.base import TableLookup
from builder.contract.errors import MOST_SOLVER_STATES, MissingTableError, QueryError
from puzzles.balls.answers import (
    SOLVER_BUDGET,
    BallsTable,
    answer,
    deal_any,
    deal_balls,
)
from puzzles.balls.rules import MAX_CAPACITY, Balls, check_rules

MOST_EMPTY = 3
"""Empty tubes a deal on the page may ask for (the page's field offers no more)."""
MORE_EMPTY_ADVICE = "add an empty tube (or fewer colours)"
"""The deal's advice when no deal of a size could be cleared (``deal_any``)."""


def routes(tables: TableLookup):
    """The endpoints under /api/balls: what the solver proves about a state (verdict and
    lower bound, which the generic /api/play/balls/... do not say) and random deals (the
    page's New game).  Paths, positions and moves are the generic /api/play/balls/..."""
    from fastapi import APIRouter, Query

    from builder.contract.errors import notation_query as notation

    router = APIRouter()

    @router.get("/solve", summary="What is proven about a state")
    def solve_state(state: str = notation(),
                    budget: int | None = Query(
                        None, ge=1_000, le=MOST_SOLVER_STATES,
                        description=f"Nodes the solver may generate (default "
                        f"{SOLVER_BUDGET:,}, within the server's --max-budget)")):
        """What is proven about clearing STATE (the CLI's `query solve STATE --json`),
        within the server's --search-seconds."""
        found = answer(tables, state, budget)
        return {**found.as_dict(), "state": found.rules.format(found.rules.parse(state))}

    @router.get("/random", summary="Deal a clearable game")
    def random_deal(min_moves: int = Query(0, ge=0, le=255),
                    colours: int = Query(3, ge=2, le=14, description="colours (one full "
                                         "tube each)"),
                    capacity: int = Query(4, ge=2, le=MAX_CAPACITY, description="balls "
                                          "per tube"),
                    empty: int = Query(1, ge=1, le=MOST_EMPTY, description="empty tubes"),
                    seed: int | None = Query(None, ge=0, lt=2**63),
                    rules: str = Query("balls", max_length=10, description="balls or "
                                       "water (water sort's pours)")):
        """A random starting game that can be cleared in at least MIN_MOVES moves (pours
        under water sort): from the table where one holds the game, else proven by the
        solver."""
        game = Balls(colours + empty, capacity, colours, water=check_rules(rules) == "water")
        rng = np.random.default_rng(seed)
        try:
            table = BallsTable(tables, game)
        except MissingTableError:
            try:
                found = deal_any(colours, capacity, empty, min_moves, rng, water=game.water)
            except QueryError as error:
                # no more empty tubes can be asked for here: the advice left is fewer colours
                if empty < MOST_EMPTY or MORE_EMPTY_ADVICE not in str(error):
                    raise
                raise QueryError(str(error).replace(MORE_EMPTY_ADVICE, "choose fewer "
                                                    "colours")) from None
            return {"state": game.format(found.states[0]), "clearable": True,
                    "moves": found.length}
        state, moves = deal_balls(game, table, rng, min_moves, clearable=True)
        return {"state": game.format(state), "clearable": True, "moves": moves}

    return router
