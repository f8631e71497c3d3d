"""Ball-tube tables (``balls/T_c_k``, `builder balls`): every symmetry class's key,
labelled states and fewest moves to be cleared, by the package's own kernel
(``search.py``); the size checks before a build; the catalog's views (``balls_summary``,
``balls_symmetry_classes``, ``balls_move_distribution``) and the rows behind them; and
`builder verify`'s sample check."""

from __future__ import annotations

import numpy as np

from builder.contract.base import never_of
from puzzles.balls.rules import Balls, BallsError

TABLE_LAYOUT = "symmetry classes"
"""Ball tables hold one entry per class key (older tables, by labelled rank, are stale)."""

TABLE_GAMES = ((4, 4, 3), (5, 4, 4))
"""(tubes, capacity, colours) `make tables` builds, under both rules (ball moves and
water sort's pours): the document's game and the large one."""
MOST_MOVES = 254
"""The most moves (or pours) a table stores, the kernels' last level: a class further
away is stored as never cleared (no size built comes near)."""
MEMORY_BUDGET = 16 * 2**30
"""Refuse sizes whose build would need more than this (the machine has 24 GiB)."""
SECONDS_PER_CLASS = 8e-6
"""Measured: 5 tubes of 4 with 4 colours, 1.56 M classes in about 12 s on 2 cores."""
MAX_MINUTES = 30.0
MOST_MINUTES = 525_600.0
"""The largest --max-minutes (a year): a finite budget, however generous, is still one."""

VIEWS = """
CREATE VIEW balls_summary AS
SELECT tubes, capacity, colours,
       sum(states)::BIGINT AS all_states,
       (sum(states) FILTER (WHERE moves IS NOT NULL))::BIGINT AS clearable_states,
       (sum(states) FILTER (WHERE initial))::BIGINT AS initial_states,
       coalesce(sum(states) FILTER (WHERE initial AND moves IS NOT NULL), 0)::BIGINT
           AS clearable_initial_states,
       max(moves) AS max_moves_all,
       max(moves) FILTER (WHERE initial) AS max_moves_initial,
       round(sum(moves * states) FILTER (WHERE initial)
             / sum(states) FILTER (WHERE initial AND moves IS NOT NULL), 3)
           AS mean_moves_initial
FROM balls_move_counts GROUP BY ALL ORDER BY ALL;

CREATE VIEW balls_symmetry_classes AS
SELECT t.tubes, t.capacity, t.colours, s.all_states, t.symmetries, t.classes,
       round(s.all_states / t.classes, 1) AS states_per_class, t.search_seconds
FROM balls_tables t JOIN balls_summary s USING (tubes, capacity, colours) ORDER BY ALL;

CREATE VIEW balls_move_distribution AS
SELECT tubes, capacity, colours, 'initial' AS kind, moves, sum(states)::BIGINT AS states
FROM balls_move_counts WHERE initial GROUP BY ALL
UNION ALL
SELECT tubes, capacity, colours, 'all', moves, sum(states)::BIGINT
FROM balls_move_counts GROUP BY ALL
ORDER BY tubes, capacity, colours, kind, moves NULLS LAST;
"""


def check_budget(rules: Balls, max_minutes: float = MAX_MINUTES) -> None:
    """Refuse, before anything starts, a size over the time or memory budget."""
    rules.check_keys_fit()
    needed = rules.memory_estimate()
    minutes = rules.classes_lower_bound() * SECONDS_PER_CLASS / 60
    shape = f"{rules.tubes} tubes x {rules.capacity} balls x {rules.colours} colours"
    if minutes > max_minutes:
        raise BallsError(
            f"{shape} has at least {rules.classes_lower_bound():,} symmetry classes: about "
            f"{minutes:,.0f} minutes and {needed / 2**30:.1f} GiB or more, over the "
            f"{max_minutes:g}-minute budget: not built (--max-minutes raises the budget)")
    if needed > MEMORY_BUDGET:
        raise BallsError(
            f"{shape} has {rules.n_states:,} states in at least "
            f"{rules.classes_lower_bound():,} symmetry classes and needs at least "
            f"{needed / 2**30:.1f} GiB, over the {MEMORY_BUDGET / 2**30:.0f} GiB budget: "
            "not built")


def classes_and_moves(rules: Balls, progress: bool) -> tuple[dict, dict]:
    """Every symmetry class (its key and labelled states) and its fewest moves to be
    cleared (pours under water sort), by the package's own kernels."""
    from tqdm import tqdm

    from puzzles.balls.search import enumerate_classes, moves_to_clear

    label = f"balls {rules.name}"
    if progress:
        tqdm.write(f"{label}: {rules.n_states:,} states, {rules.symmetries:,} symmetries, "
                   f"at least {rules.classes_lower_bound():,} classes "
                   f"(~{rules.memory_estimate() / 2**20:,.0f} MiB)")
    with tqdm(total=1, desc=f"{label} classes", unit="batch", disable=not progress) as bar:
        def enumerated(done: int, batches: int) -> None:
            bar.total = batches
            bar.update(done - bar.n)

        keys, states = enumerate_classes(rules, progress=enumerated)
        bar.set_postfix_str(f"{len(keys):,} classes")
    if int(states.sum()) != rules.n_states:
        raise RuntimeError(f"{label}: the classes hold {int(states.sum()):,} states, "
                           f"not {rules.n_states:,}")
    with tqdm(total=len(keys), desc=f"{label} search", unit="class", unit_scale=True,
              disable=not progress) as bar:
        if rules.water:
            from puzzles.balls.water import pours_to_clear as moves_to_clear
        moves = moves_to_clear(rules, keys, progress=lambda level, found: bar.update(found))
        never = int((moves == never_of(moves)).sum())
        bar.update(never)
        bar.set_postfix_str(f"{never:,} classes cannot be cleared")
    return ({"class_key": keys, "moves_to_clear": moves, "class_states": states},
            {"n_states": rules.n_states, "n_classes": len(keys)})


def moves_of_states(rules: Balls, keys: np.ndarray, moves: np.ndarray,
                    states: np.ndarray) -> np.ndarray:
    """Fewest moves to clear (as ``moves`` stores them, never included) of (N, T) tube
    codes, from whole arrays."""
    found = rules.class_keys(np.asarray(states).reshape(-1, rules.tubes))
    return moves[np.searchsorted(keys, found)]


def catalog_rows(attributes: dict, read) -> dict[str, list[tuple]]:
    """Labelled-state counts by fewest moves, from a table over symmetry classes: each
    class counts its labelled states, of which the starting states (first k tubes
    full) are the share the rules work out.  Water sort's tables have none (the generic
    views hold their distances): these views are the document's ball rule."""
    if attributes.get("rules") == "water":
        return {}
    rules = Balls(attributes["tubes"], attributes["capacity"], attributes["colours"])
    keys, states, moves = read("class_key"), read("class_states"), read("moves_to_clear")
    initial = rules.initial_states_in_classes(keys, states)
    shape = (rules.tubes, rules.capacity, rules.colours)
    counts, never = [], never_of(moves)
    for value in np.unique(moves):
        chosen = moves == value
        for is_initial, among in ((True, initial[chosen]),
                                  (False, (states - initial)[chosen])):
            if among.sum():
                counts.append((*shape, is_initial, None if value == never else int(value),
                               int(among.sum())))
    return {"balls_move_counts": counts,
            "balls_tables": [(*shape, rules.symmetries, len(keys),
                              attributes.get("search_seconds"))]}


def verify_sample(attributes: dict, read, samples: int, rng) -> str | None:
    rules = Balls(attributes["tubes"], attributes["capacity"], attributes["colours"],
                  water=attributes.get("rules") == "water")
    keys, moves = read("class_key"), read("moves_to_clear")
    never = never_of(moves)
    if not np.all(np.diff(keys) > 0):
        return "class keys are not strictly ascending"
    if int(read("class_states").sum()) != rules.n_states:
        return f"the classes do not add up to {rules.n_states:,} states"
    # 0 exactly at the goal: a forgery that shifts every entry keeps the recurrence
    # everywhere else, so the cleared class is checked whole, never by chance
    goal = np.flatnonzero(moves == 0)
    if goal.tolist() != np.flatnonzero(keys == rules.cleared_key()).tolist():
        return ("moves_to_clear is 0 at other classes than the cleared one (or not at "
                "it)")
    drawn = keys[rng.integers(0, len(keys), samples)]
    if not np.array_equal(rules.class_keys(rules.codes_of_keys(drawn)), drawn):
        return "a stored key is not its class's smallest form"
    for rank in rng.integers(0, rules.n_states, samples):
        state = rules.state_of_rank(int(rank))
        if rules.is_cleared(state):
            expected = 0
        else:
            options = [following for *_, following in rules.legal_moves(state)]
            best = (int(moves_of_states(rules, keys, moves, np.array(options)).min())
                    if options else never)
            expected = never if best == never else best + 1
        if int(moves_of_states(rules, keys, moves, np.array([state]))[0]) != expected:
            return f"state {rules.format(state)} breaks the shortest-path recurrence"
    return None
