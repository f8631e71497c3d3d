"""The contract's check of a plug-in: every hook it may define (the core classes' members
and the parts'), and the one-line refusal of a plug-in class that defines a public member
no part or core declares (a misspelled hook would otherwise be silently ignored), naming
the nearest hook."""

from __future__ import annotations

import difflib

from builder.contract.base import Puzzle, WalkablePuzzle
from builder.contract.dense import DensePuzzle
from builder.contract.errors import PuzzleInputError
from builder.contract.keyed import KeyedPuzzle
from builder.contract.parts import PARTS


class UnknownHookError(PuzzleInputError):
    """A plug-in defines a public member that no part of the contract declares."""


def _core_classes() -> tuple[type, ...]:
    return (Puzzle, WalkablePuzzle, DensePuzzle, KeyedPuzzle)


def hooks() -> dict[str, str]:
    """Every hook a plug-in may define, and where it is declared (a core class or a part)."""
    found: dict[str, str] = {}
    for core in _core_classes():
        names = set(vars(core)) | set(getattr(core, "__annotations__", {}))
        found.update({name: core.__name__ for name in names if not name.startswith("_")})
    for part in PARTS:
        found.update({name: part.__name__ for name in part.members})
    return found


def check_hooks(plugin: type) -> None:
    """Refuse a plug-in class that defines a public member the contract does not declare
    (``defualt_target``: "did you mean default_target?"): one line, naming the class."""
    known = hooks()
    core = _core_classes()
    if (issubclass(plugin, DensePuzzle) and plugin.moves is DensePuzzle.moves
            and plugin.move_kernel is DensePuzzle.move_kernel):
        raise UnknownHookError(f"plug-in {plugin.__module__}.{plugin.__qualname__} gives "
                               "neither moves nor move_kernel: write its moves once, in one "
                               "of them")
    for cls in plugin.__mro__:
        if cls in core or cls is object or cls.__module__.startswith("abc"):
            continue
        for name in vars(cls):
            if name.startswith("_") or name in known:
                continue
            nearest = difflib.get_close_matches(name, known, n=1)
            hint = (f"did you mean {nearest[0]}?" if nearest else
                    "no hook has that name (see builder/contract/parts.py), or make it private "
                    "with a leading underscore")
            raise UnknownHookError(f"plug-in {plugin.__module__}.{plugin.__qualname__} "
                                   f"defines {name!r}, which is no hook: {hint}")
