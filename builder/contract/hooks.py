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


def _declarations() -> list[tuple[type, list[str]]]:
    """Each core class and part with the hooks it declares first (in source order)."""
    seen: set[str] = set()
    found = []
    known = hooks()
    # the most general first: a core class that gives a part's hook its own default (a
    # keyed puzzle's table) does not declare it
    for cls in (Puzzle, WalkablePuzzle, *PARTS, DensePuzzle, KeyedPuzzle):
        names = [name for name in _source_order(cls) if name in known and name not in seen]
        seen.update(names)
        found.append((cls, names))
    return found


def _source_order(cls: type) -> list[str]:
    import ast
    import inspect
    import textwrap

    tree = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0]
    names = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.append(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            names.append(node.targets[0].id)
    return names


def hook_documentation(cls: type, name: str) -> tuple[str, str]:
    """A hook's signature (or its default value) and its docstring."""
    import ast
    import inspect
    import textwrap

    member = vars(cls)[name] if name in vars(cls) else None
    if callable(member):
        signature = str(inspect.signature(member)).replace("(puzzle, ", "(self, ").replace(
            "(puzzle)", "(self)")
        return f"def {name}{signature}", inspect.getdoc(member) or ""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0]
    for at, node in enumerate(tree.body):
        target = (node.target if isinstance(node, ast.AnnAssign)
                  else node.targets[0] if isinstance(node, ast.Assign) else None)
        if getattr(target, "id", None) != name:
            continue
        line = ast.unparse(node)
        after = tree.body[at + 1] if at + 1 < len(tree.body) else None
        doc = (inspect.cleandoc(after.value.value) if isinstance(after, ast.Expr)
               and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)
               else "")
        return line, doc
    return name, ""


def reference() -> str:
    """The whole contract as one page (``docs/contract.md``): every hook a plug-in may
    define, where it is declared, its signature or default, and its docstring with its
    example.  ``python -m builder.contract.hooks`` prints it."""
    declared = _declarations()
    total = sum(len(names) for _, names in declared)
    out = ["# The plug-in contract", "",
           "Generated from `builder/contract` by `python -m builder.contract.hooks` (a test "
           "checks it is current): every hook a puzzle plug-in may define, "
           f"{total} in all, each with its signature or default and an example.  A plug-in "
           "derives from one core class and defines what it needs; every other hook has a "
           "default.  How to write one: [adding-a-puzzle.md](adding-a-puzzle.md).", ""]
    for cls, names in declared:
        if not names:
            continue
        summary = (inspect_doc(cls).split("\n\n")[0]).replace("\n", " ")
        kind = "core class" if cls in _core_classes() else "part"
        out += [f"## {cls.__name__} ({kind}, `{cls.__module__}`)", "", summary, ""]
        for name in names:
            signature, doc = hook_documentation(cls, name)
            out += [f"### `{name}`", "", "```python", signature.replace("'", ""), "```", "",
                    doc.replace("\nExample: ", "\n\nExample: "), ""]
    return "\n".join(out).rstrip() + "\n"


def inspect_doc(cls: type) -> str:
    import inspect

    return inspect.getdoc(cls) or ""


if __name__ == "__main__":
    print(reference(), end="")
