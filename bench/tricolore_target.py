"""One 4x4 single-target search, level by level, by the stream kernel and (with
--compare) the general kernel in the same process.

    .venv/bin/python -m bench.tricolore_target RRRR.RRRR.RRRR.RRRR --compare
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from builder.puzzles.tricolore.rules import Tricolore
from builder.puzzles.tricolore.stream_search import search_target_streams, stream_plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", nargs="?", default="RRRR.RRRR.RRRR.RRRR")
    parser.add_argument("--compare", action="store_true")
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
    for level, nodes, seconds in levels:
        print(f"  level {level:>2}  {nodes:>12,} frontier nodes  {seconds:.3f} s")
    if options.compare:
        from builder.puzzles.tricolore.target_search import search_target

        search_target(Tricolore(3, 3).half_tables(), 0)
        started = time.perf_counter()
        general = search_target(rules.half_tables(), target)
        print(f"general kernel {time.perf_counter() - started:.2f} s; identical: "
              f"{all(np.array_equal(a, b) for a, b in zip(general, streamed))}")


if __name__ == "__main__":
    main()
