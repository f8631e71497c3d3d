"""Lucas' inverted pieces: the search's figures, the document's table, the closed form."""

from __future__ import annotations

import json

import numpy as np
import pytest
import zarr

from puzzles.lucas.rules import Lucas
from tests import reference
from tests.test_cli import run


def test_summary_comes_out_of_the_search_as_the_document_says(catalog, figures):
    rows = catalog.execute("SELECT n, states, reachable_states, moves, jumps, shifts, "
                           "optimal_solutions FROM lucas_summary").fetchall()
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1)) and len(rows) >= 8
    published = figures["lucas_inverted_pieces"]["moves"]
    for n, states, reachable, moves, jumps, shifts, optimal in rows:
        assert (moves, jumps, shifts) == ((n + 1) ** 2 - 1, n * n, 2 * n)
        if str(n) in published:
            assert moves == published[str(n)]
        assert reachable == states  # every arrangement can be reached
        if n <= 4:
            assert (moves, optimal) == reference.lucas_shortest(Lucas(n).start, Lucas(n).goal)
        else:
            assert optimal == 2


def test_query_path_prints_the_documents_n3_table(data_dir, figures):
    result = run("query", "path", "AAA_BBB", "BBB_AAA", data_dir=data_dir)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].split() == ["step", "configuration", "agent", "move", "type"]
    configurations = [line.split()[1] for line in lines[2:]]
    assert configurations == figures["lucas_inverted_pieces"]["n3_sequence"]
    assert lines[3].split()[2:] == ["A", "shift"]


@pytest.mark.parametrize("start, target", [("AA_BB", "BB_AA"), ("ABA_B", "AA_BB"),
                                           ("B_ABA", "AB_AB")])
def test_query_paths_are_legal_and_shortest(data_dir, start, target):
    answer = json.loads(run("query", "path", start, target, "--json", data_dir=data_dir).stdout)
    current = start
    for following, (agent, kind) in zip(answer["arrangements"][1:], answer["moves"]):
        assert (following, agent, kind) in reference.lucas_moves(current)
        current = following
    assert current == target
    assert answer["length"] == reference.lucas_shortest(start, target)[0]


def test_closed_form_matches_the_search_for_every_tabled_n(catalog):
    for n, moves, jumps in catalog.execute("SELECT n, moves, jumps FROM lucas_summary").fetchall():
        rules = Lucas(n)
        closed = rules.closed_form()
        assert rules.play(rules.start, closed)[-1] == rules.goal
        assert len(closed) == moves and sum(kind == "jump" for _, kind in closed) == jumps


def test_closed_form_beyond_the_tables():
    rules = Lucas(100)
    moves = rules.closed_form()
    assert len(moves) == 101**2 - 1 and sum(k == "jump" for _, k in moves) == 100**2
    assert rules.play(rules.start, moves)[-1] == rules.goal


def test_move_pattern_is_symmetric():
    moves = Lucas(4).closed_form()
    mirrored = [("B" if agent == "A" else "A", kind) for agent, kind in reversed(moves)]
    assert [kind for _, kind in moves] == [kind for _, kind in mirrored]


@pytest.mark.parametrize("args", [("AAX_BBB", "BBB_AAA"), ("AA_BBB", "BBB_AA"),
                                  ("AAA_BBB", "BB_AAA")])
def test_bad_arrangements_get_one_line(data_dir, args):
    result = run("query", "path", *args, data_dir=data_dir)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_verify_checks_the_documents_table_and_finds_a_doubled_entry(tmp_path):
    from dataclasses import replace

    from builder import routine, verify
    from puzzles.lucas.tables import document_table

    table = document_table(3)
    built = routine.build_table(tmp_path, table, progress=False)
    assert verify.verify_table(built.path, 3, np.random.default_rng(0)).ok
    true_arrays = zarr.open_group(built.path, mode="r")
    arrays = {name: true_arrays[name][...] for name in true_arrays.array_keys()}
    arrays["n3_to_goal"] = np.where(arrays["n3_to_goal"] > 0, arrays["n3_to_goal"] * 2, 0)
    routine.build_table(tmp_path, replace(table, make=lambda progress: arrays),
                        force=True, progress=False)
    verdict = verify.verify_table(built.path, 10, np.random.default_rng(0))
    assert not verdict.ok and "n3_to_goal" in verdict.detail
