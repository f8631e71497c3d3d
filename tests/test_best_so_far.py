"""Answers within a limit (`--seconds`, `--budget`) from the quick path and the exact
search: a position already at its target is answered in zero moves, proved shortest (no
path is shorter than none)."""

from __future__ import annotations

import json

import pytest

from tests.commands import run_command

FIFTEEN_GOAL = "0,1,2,3.4,5,6,7.8,9,10,11.12,13,14,15"


@pytest.mark.parametrize(("start", "target"), [
    ("rubik:solved", "solved"), (f"sliding:{FIFTEEN_GOAL}", FIFTEEN_GOAL)])
@pytest.mark.parametrize("limit", [("--seconds", "1"), ("--budget", "1000")])
def test_a_position_at_its_target_is_zero_moves_and_proved(data_dir, start, target, limit):
    done = run_command("query", "path", start, target, *limit, "--json", "--data",
                       str(data_dir))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["length"] == 0 and answer["moves"] == []
    assert answer["optimal"] is True and answer.get("lower_bound", 0) == 0
