"""docs/performance.md from data/bench.json: the measured figures are generated, never typed.

    .venv/bin/python bench/performance_doc.py --data data    # writes docs/performance.md

`make bench` runs it as its last step. The page is a function of bench.json's rows alone
(no clock, no machine read here): each row is shown once, under the group of the bench
script that writes it, and the page says which groups have rows and which have none yet
(a bench script run on its own merges only its rows into bench.json).
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ".venv/bin/python bench/performance_doc.py --data data"


@dataclass(frozen=True)
class Group:
    title: str
    prefixes: tuple[str, ...]
    scripts: tuple[str, ...]
    measures: str


GROUPS = (
    Group("Building every table", ("make_tables_", "make_test_"),
          ("bench/run.py", "bench/setup_commands.py"),
          "`make tables` and `make test` on a fresh clone, `builder tables` into an empty "
          "directory and re-run with nothing changed"),
    Group("Tricolore XP", ("tricolore_", "table_write_"),
          ("bench/run.py", "bench/dask_scaling.py", "bench/busy_machine.py"),
          "the 4×2 all-pairs tables, the 4×4 searches and target builds, storage, Dask"),
    Group("Queries", ("query_",), ("bench/run.py",),
          "`query path` in a warm process and as a whole command"),
    Group("The page's server", ("serve_",), ("bench/load.py",),
          "`query serve` under concurrent clients on loopback"),
    Group("The ball-tube solver", ("balls_solver_", "water_solver_"), ("bench/balls_solver.py",),
          "seeded app-like deals, 20 per group, against a plain BFS where one fits"),
    Group("Ball-tube tables", ("balls_",), ("bench/balls.py",),
          "the document's game and 5 tubes of 4: builds and queries"),
    Group("Hanoi, sliding tiles, Lucas", ("hanoi_", "eight_puzzle_", "lucas_"),
          ("bench/plugins.py",), "the dense plug-ins' tables against plain searches"),
    Group("The 15-puzzle", ("korf",), ("bench/korf.py",),
          "Korf's 100 instances by IDA* on pattern databases, the Manhattan distance the "
          "baseline; the pattern databases' builds"),
    Group("The 3×3×3 cube at once", ("rubik_twophase_",), ("bench/twophase.py",),
          "Kociemba's two-phase search against the kociemba package on the same 20 random "
          "cubes; its pruning table's build"),
    Group("The 3×3×3 cube, optimal at depth", ("rubik_optimal_",), ("bench/rubik_optimal.py",),
          "Reid's method on the symmetry-reduced phase-1 table looked up in three directions "
          "and on the inverse, against Korf's pattern databases; the table's build"),
    Group("The 3×3×3 cube", ("rubik_",), ("bench/rubik.py",),
          "random scrambles by IDA* on pattern databases, Korf's set against the seven-edge "
          "set, the superflip under a budget; the pattern databases' builds"),
    Group("Sparse tables", ("sparse_",), ("bench/sparse.py",),
          "Klotski, the cube and peg solitaire: in a process and on Dask"),
    Group("Hardest positions and levels", ("levels_",), ("bench/levels.py",),
          "`query hardest`, `query random NAME --distance D` and the API's calls"),
    Group("The plain-Python start", ("plain_start_",), ("bench/plain_start.py",),
          "a keyed plug-in's table built from its plain-Python moves (no kernel) against a "
          "dict BFS over the same moves, on a Rush Hour card and on Klotski"),
    Group("Puzzle files", ("puzzle_file_", "plain_python_build_"), ("bench/puzzle_files.py",),
          "a permutation puzzle declared by a TOML file (the tipless Pyraminx, 933,120 "
          "positions) built by its compiled kernel and by the plain-Python start, against a "
          "dict BFS over the same moves, CPU time"),
    Group("Verifying", ("verify_",), ("bench/verify.py",),
          "`builder verify`'s recurrence pass over every entry, and the whole data directory"),
)
OTHER = Group("Other rows", (), (), "rows no group above names")


def group_of(name: str) -> Group:
    return next((group for group in GROUPS if name.startswith(group.prefixes)), OTHER)


def seconds(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "–"
    if value < 1e-3:
        return f"{value * 1e6:.0f} µs"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    return f"{value:.2f} s"


def ratio(value: float | None) -> str:
    return "–" if value is None or not math.isfinite(value) else f"{value:.2f}"


def cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def scripts(group: Group) -> str:
    return ", ".join(f"`{script}`" for script in group.scripts)


def render(rows: list[dict]) -> str:
    """The page for bench.json's ``rows``."""
    grouped: dict[Group, list[dict]] = {}
    for found in sorted(rows, key=lambda found: found["name"]):
        grouped.setdefault(group_of(found["name"]), []).append(found)
    present = [group for group in (*GROUPS, OTHER) if group in grouped]
    lines = [
        "# Performance",
        "",
        f"Generated from `data/bench.json` by `{COMMAND}`,",
        "the last step of `make bench`: do not edit it by hand, run the benchmarks again.",
        "",
        "Each row is one benchmark's figure: `product` is this project's time, `baseline`",
        "the time of the baseline it is measured against (a plain search, the former code,",
        "one worker...), `ratio` the baseline over the product (the speed-up) unless the",
        "notes say otherwise. The notes say what was run, on how much, and what held.",
        "The benchmark scripts print the machine they ran on; bench.json does not keep it.",
        "",
        (f"This page has the {len(rows)} rows now in `data/bench.json` (`make bench` runs "
         "every script; a script run alone merges its own rows):"),
        "",
    ]
    for group in (*GROUPS, OTHER):
        count = len(grouped.get(group, []))
        if group is OTHER and not count:
            continue
        shown = f"{count} row{'s' if count != 1 else ''}" if count else "no rows yet"
        lines.append(f"- {group.title}: {shown}" + (f" ({scripts(group)})" if group.scripts
                                                      else ""))
    for group in present:
        lines += ["", f"## {group.title}", ""]
        if group.scripts:
            lines += [f"{group.measures[0].upper()}{group.measures[1:]}; {scripts(group)}.", ""]
        lines += ["| row | product | baseline | ratio | notes |", "|---|---:|---:|---:|---|"]
        lines += [f"| `{found['name']}` | {seconds(found.get('product_s'))} | "
                  f"{seconds(found.get('baseline_s'))} | {ratio(found.get('ratio'))} | "
                  f"{cell(found.get('notes', ''))} |" for found in grouped[group]]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data",
                        help="the data directory holding bench.json")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "performance.md",
                        help="the page to write")
    args = parser.parse_args()
    bench = args.data / "bench.json"
    if not bench.exists():
        raise SystemExit(f"error: {bench} does not exist: run `make bench` first")
    args.out.write_text(render(json.loads(bench.read_text())))
    print(f"wrote {args.out} from {bench}")


if __name__ == "__main__":
    main()
