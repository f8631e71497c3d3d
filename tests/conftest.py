"""Shared fixtures: the built data directory and the document's figures."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from builder.contract.puzzle import Building

ROOT = Path(__file__).resolve().parent.parent
FIGURES = json.loads((Path(__file__).parent / "figures.json").read_text())


@pytest.fixture(scope="session")
def data_dir() -> Path:
    path = Path(os.environ.get("TABLEBASE_DATA", ROOT / "data"))
    if not (path / "catalog.duckdb").exists():
        pytest.fail(f"no built tables in {path}: run `make tables` (make test does it)")
    return path


@pytest.fixture(scope="session")
def data_for(tmp_path_factory):
    """``data_for(*puzzles)``: a data directory holding the puzzles' default tables: the
    built one when it holds them current (`make test`), else a session directory where
    they are built now, so that a new plug-in's tests (`pytest -k NAME`), and
    `tests/test_registry.py` with an empty data directory, run with nothing built
    beforehand."""
    from builder import store
    from builder.catalog import refresh_catalog
    from builder.routine import build_table, table_path

    built = Path(os.environ.get("TABLEBASE_DATA", ROOT / "data"))
    made: dict[tuple[str, ...], Path] = {}

    def find(*puzzles) -> Path:
        specs = [spec for puzzle in puzzles for spec in Building.of(puzzle).default_tables()]
        if (built / "catalog.duckdb").exists() and all(
                store.is_current(table_path(built, spec), spec.identity) for spec in specs):
            return built
        names = tuple(sorted(puzzle.name for puzzle in puzzles))
        holding = [folder for made_for, folder in made.items() if set(names) <= set(made_for)]
        if holding:
            return holding[0]
        if names not in made:
            folder = tmp_path_factory.mktemp("tables_" + "_".join(names)[:40])
            for spec in specs:
                build_table(folder, spec, progress=False, log=lambda *_: None)
            refresh_catalog(folder)
            made[names] = folder
        return made[names]

    return find


@pytest.fixture(scope="session")
def catalog(data_dir):
    import duckdb

    from builder.store import SEALED_CATALOG

    with duckdb.connect(str(data_dir / "catalog.duckdb"), read_only=True,
                         config=dict(SEALED_CATALOG)) as con:
        yield con


@pytest.fixture(scope="session")
def figures() -> dict:
    return FIGURES


@pytest.fixture(scope="session")
def server(data_dir):
    from tests.browser import served

    with served(data_dir) as address:
        yield address


@pytest.fixture(scope="session")
def browser():
    from tests.browser import chromium

    with chromium() as launched:
        yield launched


def pytest_collection_finish(session):
    """What collection made (modules, test items, fixtures) lives to the end of the run:
    frozen, the garbage collector does not walk it again at every full collection."""
    import gc

    gc.collect()
    gc.freeze()
