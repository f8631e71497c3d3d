"""Issue 57: a cube the exact search does not answer at once is answered at once all the
same, on the page and through its API: the two-phase path, marked not yet proved optimal
with both bounds, then replaced by the proved optimum when the server's search finds it,
or by the best bound reached when the server's limit ends that search.

The optimum is worked out here by a search from both ends on the test's own sticker model
(tests/test_rubik.py), never by the product's search; the paths shown are replayed on it."""

from __future__ import annotations

import numpy as np
import pytest
from fastapi.testclient import TestClient

from query.web import create_app
from tests.test_rubik import SOLVED, flat, plain_distance, play, scramble, shown

SCRAMBLE = "L B R' F' D' R2"
"""Six turns from solved, the two-phase path of which is longer (a search from both ends
finds the six); IDA* proves it in a few hundred nodes."""
START = shown(play(flat(SOLVED), SCRAMBLE.split()))


@pytest.fixture(scope="module")
def optimum() -> int:
    fewest = plain_distance(flat(START), flat(SOLVED), "half")
    assert fewest == 6
    return fewest


def random_cube(seed: int) -> str:
    """A cube thirty random turns from solved, as the page's random scramble deals: about
    any cube, some 18 turns away, far beyond what a search proves in seconds."""
    return shown(play(flat(SOLVED), scramble(np.random.default_rng(seed), 30)))


def solves(start: str, labels: list[str]) -> bool:
    return play(flat(start), labels) == flat(SOLVED)


def labels_of(path: dict) -> list[str]:
    return [move["label"] for move in path["moves"]]


# ---- the API: a path within a budget or seconds ---------------------------------------
@pytest.fixture(scope="module")
def client(data_dir):
    client = TestClient(create_app(data_dir))
    # the search's tables and kernels loaded before any test limits its time
    assert client.get("/api/play/rubik/path", params={"state": START, "budget": 1}).is_success
    return client


def test_a_path_within_one_node_is_the_two_phase_one_with_both_bounds(client, optimum):
    puzzles = {info["name"]: info for info in client.get("/api/puzzles").json()}
    assert puzzles["rubik"]["improves"] and not puzzles["hanoi"]["improves"]
    quick = client.get("/api/play/rubik/path", params={"state": START, "budget": 1}).json()
    assert quick["optimal"] is False and quick["how"] == "Kociemba's two-phase search"
    assert quick["length"] > optimum >= quick["lower_bound"] >= 1
    assert solves(START, labels_of(quick))
    proved = client.get("/api/play/rubik/path", params={"state": START, "seconds": 60}).json()
    assert proved["optimal"] is True
    assert proved["length"] == proved["lower_bound"] == optimum
    assert solves(START, labels_of(proved))


def test_the_servers_limit_ends_the_search_with_the_best_path_and_bound(data_dir, client):
    """A search asked for more seconds than the server allows ends a little before its
    limit with the two-phase path and the bound proved (200), where the exact search alone
    is stopped by the limit (503); a budget over the server's is refused in one line."""
    from builder.gate import WorkGate

    limited = TestClient(create_app(data_dir, gate=WorkGate(request_seconds=2,
                                                            max_budget=1000)))
    cube = random_cube(57)
    best = limited.get("/api/play/rubik/path", params={"state": cube, "seconds": 600})
    assert best.status_code == 200, best.text
    found = best.json()
    assert found["optimal"] is False and found["length"] <= 22
    assert 1 <= found["lower_bound"] < found["length"]
    assert solves(cube, labels_of(found))
    exact = limited.get("/api/play/rubik/path", params={"state": cube})
    assert exact.status_code == 503 and "\n" not in exact.json()["detail"]
    refused = limited.get("/api/play/rubik/path", params={"state": cube, "budget": 5000})
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("budget 5,000 is over this server's 1,000 nodes")
    assert str(data_dir) not in best.text + exact.text + refused.text
