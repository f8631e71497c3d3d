"""The rules of each puzzle, one module per puzzle (see each module's docstring), and the
error types every layer shares."""

MAX_INPUT_CHARACTERS = 1000
"""No notation a user types is longer: anything longer is refused before any work."""


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
