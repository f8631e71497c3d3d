"""The web app: its JSON API (framework test client) and the page in a real headless
Chromium (Playwright driving Debian's chromium)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from builder import registry
from builder.contract.puzzle import Describing, Playing, Walking, walkable
from puzzles.lightsout.rules import LightsOut
from query.web import create_app
from tests.commands import run_command
from tests.walks import SEARCH_LIMIT, fewest_moves_from


@pytest.fixture(scope="module")
def client(data_dir):
    return TestClient(create_app(data_dir))


def test_hint_respects_the_forbidden_square(client):
    """The generic path's first move is the hint; the square clicked last (the position's
    context) may not be clicked again."""
    free = client.get("/api/play/tricolore/path", params={"state": "WBWW.WBRB",
                                                           "target": "RRRR.RRRR"}).json()
    assert free["length"] == 7 and free["moves"]
    click = free["moves"][0]["label"]
    blocked = client.get("/api/play/tricolore/path", params={
        "state": "WBWW.WBRB", "target": "RRRR.RRRR", "context": click}).json()
    assert blocked["moves"][0]["label"] != click and blocked["length"] >= 7


def test_path_matches_the_cli_json(client, data_dir):
    answer = client.get("/api/play/tricolore/path", params={
        "state": "WBWW.WBRB", "target": "RRRR.RRRR", "method": "hybrid"}).json()
    cli = __import__("json").loads(run_command("query", "path", "WBWW.WBRB", "RRRR.RRRR", "--method", "hybrid", "--json", "--data", str(data_dir)).stdout)
    assert answer["length"] == cli["length"]
    assert [move["state"] for move in answer["moves"]] == cli["boards"][1:]
    assert [int(move["label"]) for move in answer["moves"]] == cli["clicks"]


def test_4x4_hint_uses_the_exact_table(client):
    answer = client.get("/api/play/tricolore/position", params={
        "state": "RRRB.BRWR.WBWR.RRBW", "target": "RRRR.RRRR.RRRR.RRRR"}).json()
    assert answer["distance"] == 9 and answer["answered_by"] == "table"


def test_balls_endpoints(client):
    path = client.get("/api/play/balls/path", params={"state": "rggb|brrg|gbbr|"}).json()
    assert path["length"] == 12 and path["start"] == "rggb|brrg|gbbr|"
    dealt = client.get("/api/balls/random", params={"min_moves": 15, "seed": 3}).json()
    assert dealt["moves"] >= 15
    position = client.get("/api/play/balls/position",
                          params={"state": "rggb|brrg|gbbr|"}).json()
    moved = {move["label"]: move["state"] for move in position["moves"]}
    assert moved["0 -> 3"] == "ggb|brrg|gbbr|r" and "0 -> 1" not in moved


@pytest.mark.parametrize("url, params, status", [
    ("/api/play/tricolore/position", {"state": "WBXW.WBRB", "target": "RRRR.RRRR"}, 400),
    ("/api/play/tricolore/path", {"state": "WBWW.WBRB", "target": "BBBB.BBBB"}, 422),
    ("/api/play/tricolore/position", {"state": "WBWW.WBRB", "target": "RRRR.RRRR",
                                      "method": "x"}, 400),
    ("/api/balls/random", {"min_moves": ""}, 422),
    ("/api/play/nosuch/position", {"state": "x"}, 422),
    ("/api/play/tricolore/position", {"state": "WBWW.WBRB", "context": "9"}, 400),
    ("/api/play/lucas/position", {"state": "AAA_BBB", "method": "hybrid"}, 400),
    ("/api/play/balls/path", {"state": "rggq|brrg|gbbr|"}, 400),
    ("/api/tricolore/plots/nothing.svg", {}, 400),
])
def test_bad_requests_get_a_clear_4xx(client, url, params, status):
    response = client.get(url, params=params)
    assert response.status_code == status
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail and "\n" not in detail  # one line, never a list
    assert "Traceback" not in response.text


def test_docs_and_charts_are_served(client):
    assert client.get("/docs").status_code == 200
    assert "/api/play/{puzzle}/path" in client.get("/openapi.json").text
    chart = client.get("/api/tricolore/plots/methods.svg")
    assert chart.status_code == 200 and chart.text.lstrip().startswith("<?xml")


def test_hint_at_the_target_counts_the_shortest_return_like_path(client):
    for board in ("RRRR.RRRR", "RRRR.RRRR.RRRR.RRRR"):
        position = client.get("/api/play/tricolore/position",
                              params={"state": board, "target": board})
        path = client.get("/api/play/tricolore/path", params={"state": board, "target": board})
        assert position.status_code == path.status_code == 200
        assert position.json()["distance"] == path.json()["length"] >= 1


def test_boards_the_codec_cannot_hold_are_refused_not_wrapped(client):
    for board in ("R" * 41, ".".join(["RRRRRRR"] * 7)):
        answer = client.get("/api/play/tricolore/position", params={"state": board})
        assert answer.status_code == 400 and "at most 39" in answer.json()["detail"]


def test_oversized_input_is_refused_in_one_line(client):
    answer = client.get("/api/play/tricolore/position",
                        params={"state": "R" * 14_000, "target": "R"})
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and "RRRR" not in detail
    dealt = client.get("/api/balls/random", params={"seed": -1})
    assert dealt.status_code == 422 and "seed" in dealt.json()["detail"]


def test_errors_never_show_a_server_path(client, data_dir):
    answer = client.get("/api/play/tricolore/position", params={
        "state": "RRRR.RRRR.RRRR.RRRB", "target": "RRRR.RRRR.RRRR.RRRW", "search": False})
    assert answer.status_code == 200 and answer.json()["answered_by"] == "none"
    assert "no exact table" in answer.json()["detail"]
    assert str(data_dir) not in answer.text
    assert str(Path(data_dir).resolve()) not in answer.text


def test_a_relative_data_folder_is_hidden_as_a_path_never_inside_a_word():
    """`query serve --data data`: the folder's name is a word of many messages."""
    from query.web import _web_message

    said = _web_message("IDA* on pattern databases: no data/sliding/4x4.zarr in data",
                        Path("data"))
    assert said == "IDA* on pattern databases: no sliding/4x4.zarr in the tables"


def test_head_on_the_page(client):
    assert client.head("/").status_code == 200


def test_charts_are_drawn_once_and_leave_no_figure_open(client):
    import matplotlib.pyplot as plt

    first = client.get("/api/tricolore/plots/methods.svg")
    second = client.get("/api/tricolore/plots/methods.svg")
    assert first.status_code == 200 and first.text == second.text
    assert first.text.lstrip().startswith("<?xml")
    assert plt.get_fignums() == []


# --- the generic game API every renderer plays through -------------------------------

def _replays(puzzle, variant, node, moves, target) -> bool:
    """Each answered move is a legal move of the plug-in's rules, with the position the
    API says, and the last reaches the target."""
    for answered in moves:
        legal = {puzzle.format(variant, m.state) + "/" + Playing.of(puzzle).node_context(variant, m.state):
                 m.state for m in puzzle.moves(variant, node)}
        key = answered["state"] + "/" + answered["context"]
        if key not in legal:
            return False
        node = legal[key]
    return Walking.of(puzzle).at_target(variant, node, target)


@pytest.mark.parametrize("name", [p.name for p in registry.PUZZLES
                                  if Playing.of(p).renderer and walkable(p)])
def test_every_playable_puzzle_answers_par_moves_values_and_a_path_that_replays(
        client, data_dir, name):
    puzzle = registry.by_name(name)
    start, target = Describing.of(puzzle).example
    listed = {p["name"]: p for p in client.get("/api/puzzles").json()}
    assert listed[name]["renderer"] == f"/renderers/{name}.js"
    script = client.get(listed[name]["renderer"])
    assert script.status_code == 200 and "export function draw" in script.text
    position = client.get(f"/api/play/{name}/position",
                          params={"state": start, "target": target, "values": True}).json()
    variant = puzzle.variant(start, target, {})
    goal = Walking.of(puzzle).parse_target(variant, target)
    # the 8-puzzle's whole space (181,440) is searched in the test; a larger space (Lights
    # Out's 2^25) only as far as the usual limit, past which the tables answer anyway
    expected = fewest_moves_from(puzzle, variant, Walking.of(puzzle).start_node(
        variant, puzzle.parse(variant, start)), goal, data_dir,
        limit=200_000 if name == "sliding" else SEARCH_LIMIT)
    assert position["distance"] == expected
    assert len(position["moves"]) == len(list(puzzle.moves(variant, Walking.of(
        puzzle).start_node(variant, puzzle.parse(variant, start)))))
    # the recurrence: the par is one more than the best value after a move
    assert position["distance"] == 1 + min(m["distance"] for m in position["moves"]
                                           if m["distance"] is not None)
    path = client.get(f"/api/play/{name}/path", params={"state": start, "target": target}).json()
    assert path["length"] == expected == len(path["moves"])
    node = Walking.of(puzzle).start_node(variant, puzzle.parse(variant, start))
    assert _replays(puzzle, variant, node, path["moves"], goal)


def test_a_game_in_progress_keeps_tricolore_s_last_click(client, data_dir):
    """The context carries the square clicked last: it is not offered again, and the path
    from the node never starts with it."""
    first = client.get("/api/play/tricolore/position",
                       params={"state": "WBWW.WBRB", "target": "RRRR.RRRR"}).json()
    move = first["moves"][3]
    after = client.get("/api/play/tricolore/position",
                       params={"state": move["state"], "target": "RRRR.RRRR",
                               "context": move["context"]}).json()
    assert after["context"] == "3" and "3" not in [m["label"] for m in after["moves"]]
    path = client.get("/api/play/tricolore/path",
                      params={"state": move["state"], "target": "RRRR.RRRR",
                              "context": "3"}).json()
    assert path["moves"][0]["label"] != "3"
    puzzle = registry.by_name("tricolore")
    variant = puzzle.variant(move["state"], "RRRR.RRRR", {})
    node = (variant.rules.parse(move["state"]), 3)
    fresh = fewest_moves_from(puzzle, variant, node, variant.rules.parse("RRRR.RRRR"),
                             data_dir)
    assert path["length"] == after["distance"] == fresh


def test_without_a_table_hints_may_come_from_the_decomposition(client):
    """A 4x4 target with no table: guide=approximate answers by the document's
    decomposition (flagged not optimal, never shorter than the exact search, legal); a
    target with a table is walked exactly whatever the guide."""
    info = {p["name"]: p for p in client.get("/api/puzzles").json()}
    assert "decomposition" in info["tricolore"]["approximation"]
    assert info["balls"]["approximation"] == ""
    start, target = "WBWW.WBRB.RRRR.BWRB", "RWBR.WBRW.BRWB.RWBW"
    exact = client.get("/api/play/tricolore/path",
                       params={"state": start, "target": target}).json()
    quick = client.get("/api/play/tricolore/path",
                       params={"state": start, "target": target, "guide": "approximate"}
                       ).json()
    assert exact["optimal"] and exact["how"] == "bidirectional search"
    assert not quick["optimal"] and quick["how"] == "decomposition"
    assert quick["length"] >= exact["length"]
    puzzle = registry.by_name("tricolore")
    variant = puzzle.variant(start, target, {})
    node = Walking.of(puzzle).start_node(variant, puzzle.parse(variant, start))
    assert _replays(puzzle, variant, node, quick["moves"], variant.rules.parse(target))
    tabled = client.get("/api/play/tricolore/path", params={
        "state": start, "target": "RRRR.RRRR.RRRR.RRRR", "guide": "approximate"}).json()
    assert tabled["optimal"] and tabled["how"] == "table walk"


def test_lights_out_plays_on_any_board_by_linear_algebra(client):
    """No table holds 4x4 Lights Out: the path is the fewest-click solution, checked by
    trying every click set in the test (2^16)."""
    board = "1001.0110.0110.1001"
    path = client.get("/api/play/lightsout/path", params={"state": board}).json()
    rules = LightsOut(4, 4)
    start = rules.parse(board)
    fewest = min(clicks.bit_count() for clicks in range(1 << 16)
                 if rules.press(start, [b for b in range(16) if clicks >> b & 1]) == 0)
    assert path["length"] == fewest and path["moves"][-1]["state"] == "0000.0000.0000.0000"
    solutions = client.get("/api/lightsout/solve", params={"board": board}).json()
    assert solutions["solutions"] == sum(
        1 for clicks in range(1 << 16)
        if rules.press(start, [b for b in range(16) if clicks >> b & 1]) == 0)


def test_the_schema_has_response_models_and_enums(client):
    schema = client.get("/openapi.json").json()
    position = schema["paths"]["/api/play/{puzzle}/position"]["get"]
    assert "PositionOut" in str(position["responses"]["200"])
    puzzle = next(p for p in position["parameters"] if p["name"] == "puzzle")
    assert "enum" in str(schema["components"]["schemas"].get("PuzzleName", puzzle))
    assert all(operation.get("summary") for route in schema["paths"].values()
               for operation in route.values())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_spot_colour_check_agrees_with_the_solver_on_every_placement(client, seed):
    """Every one of the 7 x 6! placements checked through the web: those that pass are
    exactly the solver's solutions (rotations of the assembly keep the assignment)."""
    from itertools import permutations

    from puzzles.spots.rules import DiscSet, contacts, disc_set_of

    discs = client.get("/api/spots/deal", params={"seed": seed}).json()["discs"]
    disc_set: DiscSet = disc_set_of(discs)
    passing = sorted((centre + 1, [d + 1 for d in around])
                     for centre in range(7)
                     for around in permutations([d for d in range(7) if d != centre])
                     if all(contacts(disc_set, centre, list(around))))
    solved = client.get("/api/spots/solve", params={"discs": discs}).json()["solutions"]
    assert passing == sorted((s["centre"], s["satellites"]) for s in solved) and passing
    first = solved[0]
    checked = client.get("/api/spots/check", params={
        "discs": discs, "centre": first["centre"],
        "satellites": ",".join(map(str, first["satellites"]))}).json()
    assert checked == {"solved": True, "contacts": [True] * 6}


def test_a_ball_deal_at_the_most_empty_tubes_never_advises_another(client, monkeypatch):
    """The page's field offers at most 3 empty tubes: a size no deal could clear is
    refused with advice the page can follow (fewer colours), not "add an empty tube"."""
    from builder.contract.errors import QueryError
    from puzzles.balls import web

    def hopeless(colours, capacity, empty, *args, **kwargs):
        raise QueryError(f"no deal of {colours} colours in tubes of {capacity} with {empty} "
                         f"empty tubes could be cleared: 3 random deals tried, the others "
                         f"unresolved; {web.MORE_EMPTY_ADVICE}")

    monkeypatch.setattr(web, "deal_any", hopeless)
    most = client.get("/api/balls/random", params={"colours": 14, "capacity": 8,
                                                   "empty": web.MOST_EMPTY})
    assert most.status_code == 400
    assert "add an empty tube" not in most.json()["detail"]
    assert "fewer colours" in most.json()["detail"]
    fewer = client.get("/api/balls/random", params={"colours": 14, "capacity": 8, "empty": 2})
    assert "add an empty tube" in fewer.json()["detail"]


# --- the 15-puzzle's search on the page ------------------------------------------------
KORF_GOAL = "0,1,2,3.4,5,6,7.8,9,10,11.12,13,14,15"
QUICK_KORF = "6,10,1,14.15,8,3,5.13,0,2,7.4,9,11,12"
"""Korf's instance 47 (47 moves): one of the quickest of the 100 to search."""
EIGHTY = "0,12,9,13.15,11,10,14.3,7,2,5.4,8,6,1"
"""80 moves from the default goal (the blank last), the most any position needs: a search
of seconds on any stored partition, the 7-8 tables included."""


def test_a_search_leaves_its_bound_to_follow_and_says_it_answered(client):
    """A request that names a watch leaves its search's steps at /api/searches/WATCH
    (IDA*: each bound searched; the last is the path's length), and the position says
    the search that answered it; a name no request used is a one-line 404."""
    path = client.get("/api/play/sliding/path", params={
        "state": QUICK_KORF, "target": KORF_GOAL, "watch": "page-1"}).json()
    followed = client.get("/api/searches/page-1").json()
    assert followed["state"] == "ended" and followed["limit"] == 15
    assert followed["step"] == path["length"] == 47
    assert followed["note"].startswith("bound 47 moves")
    position = client.get("/api/play/sliding/position", params={
        "state": QUICK_KORF, "target": KORF_GOAL}).json()
    assert (position["distance"], position["answered_by"], position["how"]) == (
        47, "search", "IDA* on pattern databases")
    assert position["detail"] == ""
    unknown = client.get("/api/searches/nobody")
    assert unknown.status_code == 404 and "\n" not in unknown.json()["detail"]
    refused = client.get("/api/play/sliding/path", params={"state": QUICK_KORF,
                                                            "watch": "a/b c"})
    assert refused.status_code == 422


def test_a_search_past_the_servers_limit_names_the_bound_it_proved(data_dir):
    """The server's --search-seconds stops a search running: a 503 in one line naming
    the fewest moves proved, no traceback, no server path; its followers see where it
    stood."""
    from builder.gate import WorkGate

    limited = TestClient(create_app(data_dir, gate=WorkGate(request_seconds=0.5)))
    answer = limited.get("/api/play/sliding/path", params={"state": EIGHTY, "watch": "slow"})
    assert answer.status_code == 503
    detail = answer.json()["detail"]
    assert "\n" not in detail and "Traceback" not in answer.text
    assert str(data_dir) not in answer.text
    assert "server's 0.5 s" in detail
    bound = int(detail.rsplit("at least ", 1)[1].split()[0])
    tiles = [int(tile) for row in EIGHTY.split(".") for tile in row.split(",")]
    manhattan = sum(abs(cell // 4 - (tile - 1) // 4) + abs(cell % 4 - (tile - 1) % 4)
                    for cell, tile in enumerate(tiles) if tile)
    assert manhattan <= bound <= 80  # the estimate at least (never below the tiles' own
    # distances), up to the length
    followed = limited.get("/api/searches/slow").json()
    assert followed["state"] == "ended" and followed["step"] == bound
