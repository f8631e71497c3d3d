"""The rules of each puzzle, one module per puzzle (see each module's docstring)."""


class PuzzleInputError(ValueError):
    """Input a user can fix (a malformed board, an unknown method, an impossible size): the
    command lines print it on one line and exit 2.  Every puzzle's own error derives from
    it, so catching it needs no puzzle module imported."""
