"""Bounded load on `query serve` (loopback only, stops by itself): requests per second,
p50/p99 latency and the server's memory before and after, for Tricolore 4×2 and 4×4 hints,
from 8 concurrent clients against 1 client (the baseline) run in the same benchmark.

`python bench/load.py` runs these rows alone and merges them into data/bench.json;
`make bench` runs them with the rest.  Every answer is checked for status 200; the row
says how many were not (it should be 0).
"""

from __future__ import annotations

import argparse
import http.client
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import merge_rows, row
from puzzles.tricolore import METHODS, Tricolore

SECONDS_PER_RUN = 5.0
CLIENTS = 8


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(data: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    server = subprocess.Popen([str(Path(sys.executable).parent / "query"), "serve", "--port",
                               str(port), "--data", str(data)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/api/puzzles")
            if connection.getresponse().status == 200:
                return server, port
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError(f"query serve did not start: {server.stderr.read().decode()[:300]}")


def hint_requests(shape: tuple[int, int], count: int, seed: int) -> list[str]:
    """Random hint URLs (the generic path, whose first move is the hint): 4×2 any method
    and target, 4×4 towards the all-red table."""
    rules = Tricolore(*shape)
    rng = np.random.default_rng(seed)
    urls = []
    for board in rng.integers(0, rules.n_boards, count):
        if shape == (4, 2):
            target = int(rng.integers(0, rules.n_boards - 1))
            query = {"state": rules.format(int(board)), "target": rules.format(target),
                     "method": METHODS[int(rng.integers(0, len(METHODS)))]}
        else:
            query = {"state": rules.format(int(board)), "target": "RRRR.RRRR.RRRR.RRRR"}
        urls.append("/api/play/tricolore/path?" + urlencode(query))
    return urls


def load(port: int, urls: list[str], clients: int, seconds: float) -> dict:
    """``clients`` threads, each on its own keep-alive connection, for ``seconds``."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    failures = [0] * clients
    statuses: list[list[int]] = [[] for _ in range(clients)]
    stop = time.monotonic() + seconds

    def client(number: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        position = number
        while time.monotonic() < stop:
            url = urls[position % len(urls)]
            position += clients
            began = time.perf_counter()
            try:
                connection.request("GET", url)
                response = connection.getresponse()
                response.read()
                statuses[number].append(response.status)
                ok = response.status in (200, 422)  # 422: a target the method cannot reach
            except OSError:
                ok = False
                statuses[number].append(0)
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            latencies[number].append(time.perf_counter() - began)
            failures[number] += not ok

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    every = sorted(x for per_client in latencies for x in per_client)
    answered = [status for per_client in statuses for status in per_client]
    return {"requests": len(every), "per_second": len(every) / elapsed,
            "p50": statistics.median(every), "p99": every[int(0.99 * (len(every) - 1))],
            "failures": sum(failures),
            "statuses": {status: answered.count(status) for status in sorted(set(answered))}}


def bench_load(rows: list, data: Path, seconds: float = SECONDS_PER_RUN) -> None:
    server, port = start_server(data)
    try:
        rss_before = rss_mib(server.pid)
        for name, shape in (("4x2", (4, 2)), ("4x4", (4, 4))):
            urls = hint_requests(shape, 2000, seed=7)
            load(port, urls[:50], 1, 1.0)  # warm the chunk caches a little
            single = load(port, urls, 1, seconds)
            many = load(port, urls, CLIENTS, seconds)
            alive = server.poll() is None
            rows.append(row(
                f"serve_load_{name}_hint_{CLIENTS}_clients", 1 / many["per_second"],
                1 / single["per_second"],
                f"`query serve`, random {name} hints, {CLIENTS} clients for {seconds:.0f} s: "
                f"{many['per_second']:,.0f} req/s, p50 {many['p50'] * 1e3:.1f} ms, p99 "
                f"{many['p99'] * 1e3:.1f} ms, {many['failures']} failed of {many['requests']:,}"
                f"; baseline 1 client: {single['per_second']:,.0f} req/s, p99 "
                f"{single['p99'] * 1e3:.1f} ms; server {'alive' if alive else 'CRASHED'}; "
                f"product/baseline = seconds per request (ratio: throughput gain)"))
            if not alive:
                break
        rss_after = rss_mib(server.pid) if server.poll() is None else float("nan")
        rows.append(row("serve_load_rss_mib", None, None,
                        f"server RSS {rss_before:.0f} MiB after start, {rss_after:.0f} MiB "
                        f"after the load runs"))
    finally:
        server.kill()
        server.wait()


SOLVER_CLIENTS = 2


def solver_requests(count: int, seed: int) -> list[str]:
    """The issue's expensive requests, alternately: solve a random 14-colour game (tubes of
    8, one empty) with the largest budget a request may ask (20 M states, about 4.5 GiB
    on an unbounded server), and deal such a game that the solver proves needs 255+
    moves: it never qualifies, so every deal tried is solved until the hunt gives up (14 s
    each on an unbounded server)."""
    from puzzles.balls.answers import random_start
    from puzzles.balls.rules import Balls

    game, rng = Balls(15, 8, 14), np.random.default_rng(seed)
    solves = ["/api/balls/solve?" + urlencode({
        "state": game.format(random_start(game, rng)), "budget": 20_000_000})
        for _ in range(count // 2)]
    deals = [f"/api/balls/random?colours=14&capacity=8&empty=1&min_moves=255&seed={seed + n}"
             for n in range(count - len(solves))]
    return [request for pair in zip(solves, deals) for request in pair]


def bench_solver_load(rows: list, data: Path, seconds: float = SECONDS_PER_RUN) -> None:
    """4x2 hints from one client, alone (the baseline) and while two clients loop expensive
    ball-solver requests (which the server runs in its bounded pool, within its time
    limit); the hint p99 of each, what became of the solver requests (HTTP statuses), and
    the server's RSS after."""
    server, port = start_server(data)
    try:
        hints = hint_requests((4, 2), 2000, seed=11)
        load(port, hints[:50], 1, 1.0)
        alone = load(port, hints, 1, seconds)
        solving: dict = {}
        solvers = threading.Thread(target=lambda: solving.update(
            load(port, solver_requests(400, seed=1000), SOLVER_CLIENTS, seconds)))
        solvers.start()
        busy = load(port, hints, 1, seconds)
        solvers.join()
        alive = server.poll() is None
        rss = rss_mib(server.pid) if alive else float("nan")
        answered = ", ".join(f"{count} {'failed' if status == 0 else status}"
                             for status, count in solving["statuses"].items())
        rows.append(row(
            "serve_hint_p99_beside_solver_load", busy["p99"], alone["p99"],
            f"`query serve`: 4x2 hint p99 {busy['p99'] * 1e3:.1f} ms (p50 "
            f"{busy['p50'] * 1e3:.1f} ms, {busy['failures']} failed) while {SOLVER_CLIENTS} "
            f"clients loop 14-colour solves (budget 20 M) and hopeless deals for "
            f"{seconds:.0f} s ({answered}); "
            f"baseline: hints alone, p99 {alone['p99'] * 1e3:.1f} ms; server RSS after "
            f"{rss:.0f} MiB; {'alive' if alive else 'CRASHED'}"))
    finally:
        server.kill()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--seconds", type=float, default=SECONDS_PER_RUN)
    args = parser.parse_args()
    rows: list[dict] = []
    bench_load(rows, args.data.resolve(), args.seconds)
    bench_solver_load(rows, args.data.resolve(), args.seconds)
    merge_rows(args.data, rows)


if __name__ == "__main__":
    main()
