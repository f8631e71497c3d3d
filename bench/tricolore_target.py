"""One 4x4 single-target search, level by level, by the stream kernel and (with
--compare) the general kernel in the same process.

    .venv/bin/python -m bench.tricolore_target RRRR.RRRR.RRRR.RRRR --compare
    .venv/bin/python -m bench.tricolore_target --repeat 5   # arrays kept, as the statistics run

With ``--repeat N`` the search runs N more times reusing its arrays (after the first, which
touches fresh memory), alternating with a search on fresh memory; the medians, ranges and
the levels of the last kept run are printed.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import numpy as np

from puzzles.tricolore.rules import Tricolore
from puzzles.tricolore.stream_search import search_target_streams, stream_plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", nargs="?", default="RRRR.RRRR.RRRR.RRRR")
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--repeat", type=int, default=0, metavar="N")
    options = parser.parse_args()
    rules = Tricolore(4, 4)
    started = time.perf_counter()
    stream_plan(4, 4)
    print(f"stream plan {time.perf_counter() - started:.2f} s")
    search_target_streams(3, 3, 0)  # compile / load the cache
    target = rules.parse(options.target)
    levels, last = [], [time.perf_counter()]

    def report(level: int, nodes: int) -> None:
        now = time.perf_counter()
        levels.append((level, nodes, now - last[0]))
        last[0] = now

    started = time.perf_counter()
    streamed = search_target_streams(4, 4, target, report)
    print(f"stream kernel {time.perf_counter() - started:.2f} s, peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.2f} GiB")
    if options.repeat:
        kept: dict = {}
        search_target_streams(4, 4, target, kept=kept)
        timed = {"kept arrays": [], "fresh memory": []}
        for _ in range(options.repeat):
            levels.clear()
            last[0] = started = time.perf_counter()
            search_target_streams(4, 4, target, report, kept=kept)
            timed["kept arrays"].append(time.perf_counter() - started)
            started = time.perf_counter()
            search_target_streams(4, 4, target)
            timed["fresh memory"].append(time.perf_counter() - started)
        for name, seconds in timed.items():
            print(f"{name}: median {statistics.median(seconds):.3f} s "
                  f"({min(seconds):.3f}-{max(seconds):.3f}) over {options.repeat} runs")
        print("levels of the last run with kept arrays:")
    for level, nodes, seconds in levels:
        print(f"  level {level:>2}  {nodes:>12,} frontier nodes  {seconds:.3f} s")
    if options.compare:
        from puzzles.tricolore.target_search import search_target

        search_target(Tricolore(3, 3).half_tables(), 0)
        started = time.perf_counter()
        general = search_target(rules.half_tables(), target)
        print(f"general kernel {time.perf_counter() - started:.2f} s; identical: "
              f"{all(np.array_equal(a, b) for a, b in zip(general, streamed))}")


if __name__ == "__main__":
    main()
