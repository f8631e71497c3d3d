"""Spot Colour discs: the exhaustive solver against a plain permutation search."""

from __future__ import annotations

import json

import numpy as np
import pytest
import zarr

from puzzles.spots.rules import COLOURS, DOCUMENT_SETS, DiscSet, describe, random_sets
from puzzles.spots.search import count_solutions, solve
from tests import reference
from tests.test_cli import run


def as_set(disc_set: DiscSet) -> set[tuple]:
    result = set()
    for row in solve(disc_set.colours):
        found = describe(disc_set.names, int(row[0]), row[1:], disc_set.colours[int(row[0])])
        result.add((found["centre"], tuple(sorted(found["by_centre_colour"].items()))))
    return result


def test_set_1_has_the_documents_solution_and_set_2_none(figures):
    spots = figures["spot_colour"]
    published = spots["set_1"]["published_solution"]
    found = as_set(DiscSet.from_mapping(spots["set_1"]["discs"]))
    assert (published["centre"], tuple(sorted(published["satellites_by_centre_colour"].items()))
            ) in found
    assert as_set(DiscSet.from_mapping(spots["set_2"]["discs"])) == set()
    assert DOCUMENT_SETS[1] == spots["set_1"]["discs"]
    assert DOCUMENT_SETS[2] == spots["set_2"]["discs"]


def test_random_sets_agree_with_a_plain_permutation_search():
    sets = random_sets(60, 99)
    names = tuple(f"d{i + 1}" for i in range(7))
    for colours in sets:
        disc_set = DiscSet(names, colours)
        assert as_set(disc_set) == reference.spot_solutions(disc_set.to_mapping())
    assert list(count_solutions(sets)) == [len(as_set(DiscSet(names, c))) for c in sets]


def test_random_sets_are_uniform_cyclic_orders():
    sets = random_sets(20_000, 5)
    assert (np.sort(sets, axis=2) == np.arange(6)).all()
    first = sets[:, 0, 0]
    assert abs(np.bincount(first, minlength=6) / len(first) - 1 / 6).max() < 0.02


def test_stored_counts_replay(data_dir):
    stored = zarr.open_group(data_dir / "spots" / "random_sets.zarr", mode="r")["solutions"]
    assert stored.shape[0] >= 1_000_000
    assert np.array_equal(stored[:2000], count_solutions(random_sets(2000, 2026)))


def test_random_summary_view(catalog):
    sets, solvable, share, low, high = catalog.execute(
        "SELECT * FROM spots_random_summary").fetchone()
    assert sets >= 1_000_000 and low < share < high and share == solvable / sets
    (total,) = catalog.execute("SELECT sum(sets) FROM spots_solution_count_distribution"
                               ).fetchone()
    assert total == sets


def test_cli_json_and_exit_codes(tmp_path):
    answer = json.loads(run("query", "spots", "solve", "--set", "1", "--json").stdout)
    assert {"centre": "d2", "by_centre_colour": {"blue": "d1", "black": "d4", "green": "d3",
            "white": "d6", "red": "d5", "yellow": "d7"}} in answer["solutions"]
    assert run("query", "spots", "solve", "--set", "2").returncode == 1
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"discs": DOCUMENT_SETS[1]}))
    assert json.loads(run("query", "spots", "solve", str(path), "--json").stdout) == answer
    dealt = json.loads(run("query", "random", "spots", "--solvable", "--json").stdout)
    assert dealt["solutions"]


@pytest.mark.parametrize("discs, words", [
    ({"d1": ["red"]}, "7 discs"),
    ({f"d{i}": list(COLOURS[:5]) + ["red"] for i in range(7)}, "each of"),
])
def test_bad_disc_sets_get_one_line(tmp_path, discs, words):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"discs": discs}))
    result = run("query", "spots", "solve", str(path))
    assert result.returncode == 2 and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_verify_solves_sampled_sets_again_and_finds_a_wrong_count(tmp_path):
    from builder import registry, routine, verify
    from builder.contract.specs import TableSpec

    spec = registry.by_name("spots").table({"sets": 1500, "seed": 7})
    built = routine.build_table(tmp_path, spec, progress=False)
    # the stored counts are the solver's on the same deal
    expected = count_solutions(np.concatenate([random_sets(1500, 7)]))
    stored = zarr.open_group(built.path, mode="r")["solutions"][...]
    assert stored.tolist() == expected.tolist()
    assert verify.verify_table(built.path, 5, np.random.default_rng(0)).ok
    wrong = TableSpec(spec.parts, spec.identity,
                      compute=lambda progress: {"solutions": (expected + 1).astype(np.int32)})
    routine.build_table(tmp_path, wrong, force=True, progress=False)
    verdict = verify.verify_table(built.path, 5, np.random.default_rng(0))
    assert not verdict.ok and "solving it again" in verdict.detail
