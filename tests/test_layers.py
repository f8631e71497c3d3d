"""The layers hold: plug-ins (puzzles) <- engine (builder) <- command lines and web (query),
as the import-linter contracts in pyproject.toml declare them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_hold():
    result = subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "broken" not in result.stdout.lower() or " 0 broken" in result.stdout.lower()


ENGINE_MODULES = sorted([*ROOT.glob("builder/*.py"), *ROOT.glob("builder/contract/*.py"),
                         *ROOT.glob("query/*.py")])
SHARED = {"builder.contract.base", "builder.registry"}


def _imported_modules(path: Path) -> set[str]:
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names
                         if node.module == "puzzles")
    return found


def test_the_engine_imports_no_plug_in():
    """Builder, catalog, verify, walk, CLI and web know the puzzles only through the
    registry and the interface: no engine module imports a plug-in's package."""
    from builder import registry

    plug_ins = {type(puzzle).__module__ for puzzle in registry.PUZZLES}  # their packages
    assert len(plug_ins) == len(registry.PUZZLES)
    assert ENGINE_MODULES
    for path in ENGINE_MODULES:
        reached = {module for module in _imported_modules(path) - SHARED
                   if any(module == p or module.startswith(p + ".") for p in plug_ins)}
        assert not reached, f"{path.relative_to(ROOT)} imports {sorted(reached)}"


def test_no_engine_or_query_module_declares_a_puzzles_option():
    """Options are declared by the plug-ins (``Describing.options``) and mounted by the
    engine: no engine or query module spells one out as a command-line option."""
    from builder import registry

    declared = registry.all_options()
    assert declared, "the registered puzzles declare their options"
    for path in ENGINE_MODULES:
        text = path.read_text()
        for name in declared:
            assert f'"--{name}"' not in text, f"{path.relative_to(ROOT)} spells out --{name}"


def test_the_read_side_and_the_build_routine_do_not_import_each_other():
    """The reader computes a table a query needs through ``builder.compute``, which
    imports neither it nor the build routine: no cycle between reading and building."""
    assert "builder.routine" not in _imported_modules(ROOT / "builder/reader.py")
    compute = _imported_modules(ROOT / "builder/compute.py")
    assert not compute & {"builder.reader", "builder.routine"}, compute


def test_kernels_threads_sleep_between_parallel_regions_unless_the_user_says_otherwise():
    """OpenMP threads that spin after each region make two threads slower than one on a
    busy machine (bench row tricolore_4x2_all_pairs_busy_machine): importing the builder
    sets the wait policy before any kernel loads, and keeps a user's own."""
    import os

    check = "import os, builder; print(os.environ['OMP_WAIT_POLICY'])"
    plain = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    for given, expected in ((None, "PASSIVE"), ("ACTIVE", "ACTIVE")):
        environment = plain if given is None else {**plain, "OMP_WAIT_POLICY": given}
        found = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                               cwd=ROOT, env=environment, check=True).stdout.strip()
        assert found == expected


def test_no_engine_or_query_module_names_a_puzzle():
    """The engine, the command lines and the web know the puzzles only through the
    registry: no engine or query module names one, in its code, its strings or its
    help (examples come from the plug-ins)."""
    import re

    from builder import registry

    names = [puzzle.name for puzzle in registry.PUZZLES]
    for path in [*ENGINE_MODULES, *ROOT.glob("builder/kernels/*.py")]:
        text = path.read_text().lower()
        named = [name for name in names if re.search(rf"\b{name}\b", text)]
        assert not named, f"{path.relative_to(ROOT)} names {named}"


def test_every_plug_in_has_one_layout():
    """Every plug-in package has its pure ``rules.py``; its command-line code (typer) is
    in ``cli.py`` or the adapter ``__init__.py`` (a `builder NAME` command's options), its
    web code (fastapi) in ``web.py`` alone."""
    from builder import registry

    for puzzle in registry.PUZZLES:  # in this repository or any installed package
        package = Path(sys.modules[type(puzzle).__module__].__file__).parent
        assert (package / "rules.py").exists(), f"{package.name} has no rules.py"
        for path in package.glob("*.py"):
            imported = {module.split(".")[0] for module in _imported_modules(path)}
            if "typer" in imported:
                assert path.name in ("cli.py", "__init__.py"), f"{path} imports typer"
            if imported & {"fastapi", "starlette"}:
                assert path.name == "web.py", f"{path} imports fastapi"
