"""The puzzle plug-ins, one package per puzzle (see each one's docstring; the interface is
``base.py``, the list ``registry.py``), and the error types every layer shares."""

MAX_INPUT_CHARACTERS = 1000
"""No notation a user types is longer: anything longer is refused before any work."""

MOST_SOLVER_STATES = 200_000_000
"""No command or request may give a solver a larger budget of states (a server's
`--max-budget` lowers it for its requests): the command lines and the web take the same."""


class OneLineError(Exception):
    """Anything a user is told in one line: the command lines print it and exit 2, the web
    answers it as a 4xx ``detail``.  Every layer's user-facing error derives from it."""


class PuzzleInputError(OneLineError, ValueError):
    """Input a user can fix (a malformed board, an unknown method, an impossible size): the
    command lines print it on one line and exit 2.  Every puzzle's own error derives from
    it, so catching it needs no puzzle module imported."""


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error message, cut to ``limit`` characters: an error never
    echoes a huge input whole."""
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def check_length(text: str, what: str, error: type[PuzzleInputError] = PuzzleInputError) -> str:
    """``text`` if it is short enough to be a puzzle's notation; a one-line error otherwise."""
    if len(text) > MAX_INPUT_CHARACTERS:
        raise error(f"{what} {shown(text)} is too long: at most {MAX_INPUT_CHARACTERS:,} "
                    "characters")
    return text


def notation_query():
    """A web endpoint's notation parameter: anything longer than a notation can be is
    refused before any work (a fresh ``fastapi.Query`` each call: FastAPI names the
    parameter on the object)."""
    from fastapi import Query

    return Query(max_length=MAX_INPUT_CHARACTERS)


class QueryError(OneLineError):
    """Anything a query should tell its user in one line (the CLI prints it and exits 2)."""


class MissingTableError(QueryError, KeyError):
    """The table a query needs has not been built."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class StaleTableError(QueryError):
    """A table exists but was built by another format or is incomplete."""


class CorruptTableError(QueryError):
    """A table's contents contradict themselves (a chunk is damaged)."""


class UnreachableError(QueryError):
    """The target cannot be reached from the start (the web answers 422)."""


class SearchLimitError(QueryError):
    """An exact search stopped at a limit (its node budget, its seconds, the longest path
    it looks for) before it found the answer.  ``lower_bound``: the fewest moves it had
    proved the answer needs; ``nodes``: the nodes the question's searches generated, this
    one's last; ``after``: the move whose position it searched, where a question searches
    once per move (`query moves`)."""

    def __init__(self, message: str, lower_bound: int | None = None, nodes: int = 0,
                 after: str | None = None):
        super().__init__(message)
        self.lower_bound, self.nodes, self.after = lower_bound, nodes, after
