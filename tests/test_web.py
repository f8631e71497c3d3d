"""The web app: its JSON API (framework test client) and the page in a real headless
Chromium (Playwright driving Debian's chromium)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from builder.puzzles.tricolore import Tricolore
from query.web import create_app
from tests import reference
from tests.walks import tricolore_distance

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def client(data_dir):
    return TestClient(create_app(data_dir))


def test_hint_respects_the_forbidden_square(client):
    free = client.get("/api/tricolore/hint", params={"board": "WBWW.WBRB",
                                                     "target": "RRRR.RRRR"}).json()
    assert free["remaining"] == 7 and free["click"] is not None
    blocked = client.get("/api/tricolore/hint", params={
        "board": "WBWW.WBRB", "target": "RRRR.RRRR", "last": free["click"]}).json()
    assert blocked["click"] != free["click"] and blocked["remaining"] >= 7


def test_path_matches_the_cli_json(client, data_dir):
    answer = client.get("/api/tricolore/path", params={
        "start": "WBWW.WBRB", "target": "RRRR.RRRR", "method": "hybrid"}).json()
    cli = __import__("json").loads(subprocess.run(
        [str(Path(sys.executable).parent / "query"), "path", "WBWW.WBRB", "RRRR.RRRR",
         "--method", "hybrid", "--json", "--data", str(data_dir)],
        capture_output=True, text=True, check=False).stdout)
    assert answer == cli


def test_4x4_hint_uses_the_exact_table(client):
    answer = client.get("/api/tricolore/hint", params={
        "board": "RRRB.BRWR.WBWR.RRBW", "target": "RRRR.RRRR.RRRR.RRRR"}).json()
    assert answer["remaining"] == 9


def test_balls_endpoints(client):
    path = client.get("/api/balls/path", params={"state": "rggb|brrg|gbbr|"}).json()
    assert path["length"] == 12 and path["states"][0] == "rggb|brrg|gbbr|"
    dealt = client.get("/api/balls/random", params={"min_moves": 15, "seed": 3}).json()
    assert dealt["moves"] >= 15
    moved = client.get("/api/balls/move", params={"state": "rggb|brrg|gbbr|", "source": 0,
                                                  "target": 3}).json()
    assert moved["state"] == "ggb|brrg|gbbr|r"


@pytest.mark.parametrize("url, params, status", [
    ("/api/tricolore/hint", {"board": "WBXW.WBRB", "target": "RRRR.RRRR"}, 400),
    ("/api/tricolore/hint", {"board": "WBWW.WBRB", "target": "BBBB.BBBB"}, 422),
    ("/api/tricolore/hint", {"board": "WBWW.WBRB", "target": "RRRR.RRRR", "method": "x"}, 400),
    ("/api/tricolore/hint", {"board": "WBWW.WBRB", "target": "RRRR.RRRR", "last": 9}, 400),
    ("/api/tricolore/click", {"board": "WBWW.WBRB", "square": 3, "last": 3}, 400),
    ("/api/balls/move", {"state": "rggb|brrg|gbbr|", "source": 0, "target": 1}, 400),
    ("/api/balls/path", {"state": "rggq|brrg|gbbr|"}, 400),
    ("/api/tricolore/plots/nothing.svg", {}, 400),
])
def test_bad_requests_get_a_clear_4xx(client, url, params, status):
    response = client.get(url, params=params)
    assert response.status_code == status
    assert "Traceback" not in response.text and response.json()["detail"]


def test_docs_and_charts_are_served(client):
    assert client.get("/docs").status_code == 200
    assert "/api/tricolore/hint" in client.get("/openapi.json").text
    chart = client.get("/api/tricolore/plots/methods.svg")
    assert chart.status_code == 200 and chart.text.lstrip().startswith("<?xml")


@pytest.fixture(scope="module")
def server(data_dir):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "query"), "serve", "--port", str(port),
         "--data", str(data_dir)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.2)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        message = ("Chromium is not installed (Debian package `chromium`): the browser tests "
                   "cannot run")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"])
        yield launched
        launched.close()


def test_play_hint_and_solve_in_a_real_browser(server, browser, data_dir, tmp_path_factory):
    page = browser.new_page()
    page.goto(server)
    page.wait_for_selector("#tri-board .square")
    # click two squares: the second click of the same square must be refused
    page.click('#tri-board .square[data-square="5"]')
    page.wait_for_function("document.getElementById('tri-clicks').textContent === '1'")
    assert "forbidden" in page.get_attribute('#tri-board .square[data-square="5"]', "class")
    page.click('#tri-board .square[data-square="5"]')
    page.wait_for_function("document.getElementById('tri-status').textContent.includes("
                           "'cannot be clicked')")
    board = page.text_content("#tri-board-text")
    assert reference.replay(board, [], "unrestricted", 4, 2) == [board]
    page.click("#tri-hint")
    page.wait_for_selector("#tri-board .square.hinted")
    assert "remain" in page.text_content("#tri-status")
    # a fresh board solved from scratch takes exactly the tabled number of clicks
    page.click("#tri-new")
    start = page.text_content("#tri-board-text")
    rules = Tricolore(4, 2)
    expected = tricolore_distance(data_dir, rules, rules.parse(start), rules.parse("RRRR.RRRR"),
                                  "unrestricted")
    page.click("#tri-solve")
    page.wait_for_function("document.getElementById('tri-status').textContent.includes("
                           "'Target reached')", timeout=30_000)
    assert page.text_content("#tri-board-text") == "RRRR.RRRR"
    assert int(page.text_content("#tri-clicks")) == expected
    # ball tubes: deal, solve, reach cleared
    page.fill("#balls-difficulty", "10")
    page.click("#balls-deal")
    page.wait_for_function("document.getElementById('balls-status').textContent.includes("
                           "'clearable game')")
    page.click("#balls-solve")
    page.wait_for_function("document.getElementById('balls-status').textContent.includes("
                           "'Cleared')", timeout=30_000)
    folder = tmp_path_factory.mktemp("screenshots")
    page.screenshot(path=str(folder / "page.png"), full_page=True)
    assert (folder / "page.png").stat().st_size > 10_000
    page.close()


def test_hint_at_the_target_counts_the_shortest_return_like_path(client):
    for board in ("RRRR.RRRR", "RRRR.RRRR.RRRR.RRRR"):
        hint = client.get("/api/tricolore/hint", params={"board": board, "target": board})
        path = client.get("/api/tricolore/path", params={"start": board, "target": board})
        assert hint.status_code == path.status_code == 200
        assert hint.json()["remaining"] == path.json()["length"] >= 1


def test_boards_the_codec_cannot_hold_are_refused_not_wrapped(client):
    for board in ("R" * 41, ".".join(["RRRRRRR"] * 7)):
        answer = client.get("/api/tricolore/click", params={"board": board, "square": 1})
        assert answer.status_code == 400 and "at most 39" in answer.json()["detail"]


def test_oversized_input_is_refused_in_one_line(client):
    answer = client.get("/api/tricolore/hint", params={"board": "R" * 14_000, "target": "R"})
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and "RRRR" not in detail
    dealt = client.get("/api/balls/random", params={"seed": -1})
    assert dealt.status_code == 422 and "seed" in dealt.json()["detail"]


def test_errors_never_show_a_server_path(client, data_dir):
    answer = client.get("/api/tricolore/hint", params={"board": "RRRR.RRRR.RRRR.RRRB",
                                                      "target": "RRRR.RRRR.RRRR.RRRW"})
    assert answer.status_code == 404
    assert str(data_dir) not in answer.json()["detail"]
    assert str(Path(data_dir).resolve()) not in answer.json()["detail"]


def test_head_on_the_page(client):
    assert client.head("/").status_code == 200


def test_charts_are_drawn_once_and_leave_no_figure_open(client):
    import matplotlib.pyplot as plt

    first = client.get("/api/tricolore/plots/methods.svg")
    second = client.get("/api/tricolore/plots/methods.svg")
    assert first.status_code == 200 and first.text == second.text
    assert first.text.lstrip().startswith("<?xml")
    assert plt.get_fignums() == []
