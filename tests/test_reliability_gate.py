"""The server's work gate bounds every search a request can start (issue 42, item 5): a
table computed at query time (a Hanoi target not on one peg, each move's value too) waits
for a slot like any search, so concurrent requests never run more than the pool; a search
that reaches its request's limit is cut there, not when it ends; and one whose client has
hung up stops and gives its slot back."""

from __future__ import annotations

import concurrent.futures
import http.client
import json
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from builder.contract.work import WorkGate
from tests.browser import start_server

OFF_ONE_PEG = ["ABCDABCDABCD", "DCBADCBADCBA", "ABABABABABAB", "CDCDCDCDCDCD",
               "AABBCCDDAABB", "ABCDDCBAABCD", "CABDCABDCABD", "BDACBDACBDAC"]
"""Twelve-disc, four-peg targets not all on one peg: each a 16.7 M-state search (about a
second and 190 MB here), and all different, so that no cache answers one for another."""

LONG_SEARCH = ("RRRRR.RRRRR.RRRRR.RRRRR", "BWBWB.WBWBW.BWBWB.WBWBB")
"""A 5x4 Tricolore pair with no table, 12 clicks apart: a bidirectional search of about
14 s and 1.1 GB here."""

SHORT_SEARCH = ("RRRRR.RRRRR.RRRRR.RRRWB", "RRRRR.RRRRR.RRRRR.RRRRR")
"""A 5x4 pair 7 clicks apart: about a second of search."""

LIMIT = 1.0
"""The test server's --search-seconds (the least it takes)."""

MARGIN = 3.0
"""Seconds a stopped search may run past its limit: the Tricolore search looks at its stop
square by square while it builds its click tables (a second here, more on a machine busy
with other tests), then level by level.  Without the stop it runs on for 14 s."""


def _started(data_dir: Path, *options: str) -> tuple[subprocess.Popen, int]:
    return start_server(data_dir, "--searches", "1", *options)


@pytest.fixture(scope="module")
def servers(data_dir):
    """Two servers of one search slot, started together: one with a 1-second limit, one
    whose limit no test reaches (a stop there can only be the hang-up's)."""
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        started = [pool.submit(_started, data_dir, "--search-seconds", f"{LIMIT:g}"),
                   pool.submit(_started, data_dir, "--search-seconds", "120")]
    processes = [future.result() for future in started]
    try:
        yield {"limited": processes[0], "patient": processes[1]}
    finally:
        for process, _ in processes:
            process.kill()
            process.wait()


def _get(port: int, path: str, timeout: float = 30) -> tuple[int, str, float]:
    """A request's status, its detail (empty when answered) and its seconds; a client that
    gave up after ``timeout`` is status 0."""
    began = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = json.loads(response.read())
    except TimeoutError:
        return 0, "no answer", time.monotonic() - began
    finally:
        connection.close()
    detail = body.get("detail", "") if isinstance(body, dict) else ""
    return response.status, detail, time.monotonic() - began


def _memory(process: subprocess.Popen, field: str) -> int:
    """The server's resident memory now (VmRSS) or at its peak (VmHWM), in bytes."""
    for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no {field} for the server")


def _hanoi(target: str) -> str:
    return "/api/play/hanoi/position?" + urlencode(
        {"state": "AAAAAAAAAAAA", "target": target, "values": "true"})


def _tricolore(pair: tuple[str, str]) -> str:
    return "/api/play/tricolore/path?" + urlencode({"state": pair[0], "target": pair[1]})


def test_hanoi_targets_off_one_peg_are_computed_through_the_gate(servers):
    """Eight clients at once, each a different target not on one peg with every move's
    value: one slot runs and four wait, so three are refused at once (503), each request
    ends within its wait and its limit, and the server's memory grows by about one
    search, not eight (before: eight searches at once outside the gate, every one
    answered, 1.2 GB more here)."""
    process, port = servers["limited"]
    assert _get(port, _hanoi("DDDDDDDDDDDD"))[0] == 200  # a stored table: the server warm
    before = _memory(process, "VmRSS")
    with concurrent.futures.ThreadPoolExecutor(len(OFF_ONE_PEG)) as pool:
        answers = list(pool.map(lambda target: _get(port, _hanoi(target)), OFF_ONE_PEG))
    refused = [seconds for status, detail, seconds in answers
               if status == 503 and "busy" in detail]
    assert len(refused) >= 3 and max(refused) < LIMIT, answers
    assert all(status in (200, 503) for status, _, _ in answers), answers
    wait_seconds = WorkGate().wait_seconds  # `query serve` keeps the gate's default wait
    assert max(seconds for _, _, seconds in answers) < wait_seconds + LIMIT + MARGIN, answers
    grown = _memory(process, "VmHWM") - before
    assert grown < 700 * 2**20, f"the server grew by {grown / 2**20:.0f} MB: {answers}"


def test_a_search_past_its_limit_is_cut_at_the_limit(servers):
    """Two long searches at once (14 s each here, 1.1 GB): the first is stopped at the
    1-second limit, not when it ends; the second, queued, is stopped a limit after its
    slot came (before: the first answered after 14 s, the second refused after it)."""
    process, port = servers["limited"]
    second = (LONG_SEARCH[0], "WWBBW.BBWWB.WBBWW.BBWRB")  # 12 clicks too
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        first_asked = pool.submit(_get, port, _tricolore(LONG_SEARCH), 10)
        time.sleep(0.2)  # the first holds the slot
        second_asked = pool.submit(_get, port, _tricolore(second), 10)
        first, then = first_asked.result(), second_asked.result()
    assert first[0] == 503 and "stopped" in first[1], first
    assert first[2] < LIMIT + MARGIN, first
    assert then[0] == 503 and "stopped" in then[1], then
    assert then[2] < 2 * (LIMIT + MARGIN), then
    assert process.poll() is None


def test_a_search_whose_client_hangs_up_stops_and_frees_its_slot(servers):
    """A client asks a 14-second search and hangs up: the server stops it, so the next
    search gets the only slot at once and is answered (before: the abandoned search
    held the slot to its end and the next one was refused after 5 s)."""
    _, port = servers["patient"]
    with socket.create_connection(("127.0.0.1", port)) as hung_up:
        hung_up.sendall(f"GET {_tricolore(LONG_SEARCH)} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        time.sleep(1.5)  # the search is running, past its click tables
    status, detail, seconds = _get(port, _tricolore(SHORT_SEARCH), timeout=20)
    assert (status, detail) == (200, ""), (status, detail, seconds)  # not refused: the slot
    assert seconds < 2 * (1 + MARGIN), seconds  # its own second, and the stop noticed
