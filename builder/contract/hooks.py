"""The contract's check of a plug-in: every hook it may define (the core classes' members
and the parts'), and the one-line refusal of a plug-in class that defines a public member
no part or core declares (a misspelled hook would otherwise be silently ignored), naming
the nearest hook."""

from __future__ import annotations

import difflib

from builder.contract.errors import PuzzleInputError
from builder.contract.puzzle import (
    PARTS,
    SEARCH_MEMBERS,
    DensePuzzle,
    DenseSearch,
    KeyedPuzzle,
    KeyedSearch,
    OwnSearch,
    Puzzle,
    WalkablePuzzle,
)


class UnknownHookError(PuzzleInputError):
    """A plug-in defines a public member that no part of the contract declares."""


def _core_classes() -> tuple[type, ...]:
    return (Puzzle, WalkablePuzzle, DensePuzzle, KeyedPuzzle)


def _search_classes() -> tuple[type, ...]:
    return (OwnSearch, DenseSearch, KeyedSearch)


def puzzle_hooks() -> dict[str, str]:
    """The hooks a puzzle class may define (its declaration), and where each is declared."""
    found: dict[str, str] = {}
    for core in _core_classes():
        names = set(vars(core)) | set(getattr(core, "__annotations__", {}))
        found.update({name: core.__name__ for name in names
                      if not name.startswith("_") and name not in found})
    for part in PARTS:
        found.update({name: part.__name__ for name in part.members})
    return {name: where for name, where in found.items() if name not in SEARCH_MEMBERS}


def search_hooks() -> dict[str, str]:
    """The hooks a puzzle's own search may define (``OwnSearch``), and where each is
    declared (a part, or the engine's derived search that adds it)."""
    found = {name: part.__name__ for part in PARTS for name in part.members
             if name in SEARCH_MEMBERS}
    for derived in (DenseSearch, KeyedSearch):
        found.update({name: derived.__name__ for name in vars(derived)
                      if name in SEARCH_MEMBERS and name not in found})
    return found


def hooks() -> dict[str, str]:
    """Every hook a plug-in may define, on its puzzle or on its own search."""
    return {**puzzle_hooks(), **search_hooks()}


def check_hooks(plugin: type) -> None:
    """Refuse a plug-in class that defines a public member the contract does not declare
    (``defualt_target``: "did you mean default_target?"), or a member of its own search
    on the puzzle itself: one line, naming the class."""
    if (issubclass(plugin, DensePuzzle) and plugin.moves is DensePuzzle.moves
            and plugin.move_kernel is DensePuzzle.move_kernel):
        raise UnknownHookError(f"plug-in {plugin.__module__}.{plugin.__qualname__} gives "
                               "neither moves nor move_kernel: write its moves once, in one "
                               "of them")
    _check_members(plugin, puzzle_hooks(), _core_classes(), "no hook")
    search = plugin.own_search
    if search is not None and not (isinstance(search, type) and issubclass(search, OwnSearch)):
        raise UnknownHookError(f"plug-in {plugin.__module__}.{plugin.__qualname__}: "
                               "own_search must be a class derived from OwnSearch")
    if search is not None:
        _check_members(search, search_hooks(), _search_classes(), "no hook of a search")


def _check_members(cls: type, known: dict[str, str], contract: tuple[type, ...],
                   what: str) -> None:
    for owner in cls.__mro__:
        if owner in contract or owner is object or owner.__module__.startswith("abc"):
            continue
        for name in vars(owner):
            if name.startswith("_") or name in known:
                continue
            if name in SEARCH_MEMBERS:
                raise UnknownHookError(
                    f"plug-in {cls.__module__}.{cls.__qualname__} defines {name!r}, which "
                    "belongs to its own search: define it on a class derived from OwnSearch "
                    "and name that class with own_search = ...")
            nearest = difflib.get_close_matches(name, known, n=1)
            hint = (f"did you mean {nearest[0]}?" if nearest else
                    f"{what} has that name (see docs/contract.md), or make it private "
                    "with a leading underscore")
            raise UnknownHookError(f"plug-in {cls.__module__}.{cls.__qualname__} "
                                   f"defines {name!r}, which is {what}: {hint}")


def _declarations() -> list[tuple[type, list[str]]]:
    """Each core class and part with the hooks it declares first (in source order): the
    puzzle's declaration, then its own search's."""
    return _puzzle_declarations() + _search_declarations()


def _declared_in(classes: tuple[type, ...], known: dict[str, str]
                 ) -> list[tuple[type, list[str]]]:
    seen: set[str] = set()
    found = []
    for cls in classes:
        names = [name for name in _source_order(cls) if name in known and name not in seen]
        seen.update(names)
        found.append((cls, names))
    return found


def _puzzle_declarations() -> list[tuple[type, list[str]]]:
    # the most general first: a core class that gives a hook its own default (a keyed
    # puzzle's format) does not declare it
    return _declared_in((Puzzle, WalkablePuzzle, *PARTS, DensePuzzle, KeyedPuzzle),
                        puzzle_hooks())


def _search_declarations() -> list[tuple[type, list[str]]]:
    return _declared_in((*PARTS, DenseSearch, KeyedSearch), search_hooks())


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
    define, on its puzzle or on its own search, where it is declared, its signature or
    default, and its docstring with its example.  ``python -m builder.contract.hooks``
    prints it."""
    declaration, search = _puzzle_declarations(), _search_declarations()
    count = sum(len(names) for _, names in declaration)
    out = ["# The plug-in contract", "",
           "Generated from `builder/contract` by `python -m builder.contract.hooks` (a test "
           "checks it is current).  How to write a puzzle: "
           "[adding-a-puzzle.md](adding-a-puzzle.md).", "",
           f"A puzzle declares itself in at most the {count} names of the first half: its "
           "notation, its positions, its moves written once and its goal.  The engine "
           "derives its tables, their look-up, the catalog's rows, verify and the walk from "
           "that.  A name with no default (the notation, the moves, a key's encoding) is "
           "abstract: Python refuses a class that leaves it out.", "",
           "A puzzle the engine cannot derive tables for (its own click tables, a solver, "
           "pattern databases) keeps them behind the one hook `own_search`: a class derived "
           "from `OwnSearch` that defines what it needs of the second half.", ""]
    for title, declared in ((f"The puzzle: {count} names", declaration),
                            (f"Its own search: {sum(len(n) for _, n in search)} names",
                             search)):
        out += [f"# {title}", ""]
        for cls, names in declared:
            if not names:
                continue
            summary = (inspect_doc(cls).split("\n\n")[0]).replace("\n", " ")
            kind = "core class" if cls in _core_classes() else (
                "derived search" if cls in _search_classes() else "part")
            out += [f"## {cls.__name__} ({kind}, `{cls.__module__}`)", "", summary, ""]
            for name in names:
                signature, doc = hook_documentation(cls, name)
                out += [f"### `{name}`", "", "```python", signature.replace("'", ""), "```",
                        "", doc.replace("\nExample: ", "\n\nExample: "), ""]
    out += _table_reference()
    return "\n".join(out).rstrip() + "\n"


def _table_reference() -> list[str]:
    """The page's last sections: the fields of the values an own search declares, a
    ``Table`` of each of its tables and the ``Pieces`` pattern databases are derived from
    (the engine decides the rest)."""
    from builder.contract.puzzle import Pieces, Table

    return (_fields_reference(Table, "What an own search declares of a table")
            + _fields_reference(Pieces, "What pattern databases are derived from"))


def _fields_reference(cls: type, title: str) -> list[str]:
    import dataclasses
    import inspect
    import re

    source = inspect.getsource(cls)
    out = [f"# {title}: `{cls.__name__}`", "",
           inspect_doc(cls).replace("\nExample: ", "\n\nExample: "), ""]
    for field in dataclasses.fields(cls):
        # a field's docstring is the string literal written under it in the class
        found = re.search(rf"\n    {field.name}: [^\n]*\n(?:    [^\n]*\n)*?    \"\"\"(.*?)\"\"\"",
                          source, re.S)
        doc = " ".join(found.group(1).split()) if found else ""
        out += [f"- `{field.name}`: {doc}"]
    return out + [""]


def inspect_doc(cls: type) -> str:
    import inspect

    return inspect.getdoc(cls) or ""


if __name__ == "__main__":
    print(reference(), end="")
