"""The README's two set-up commands on a fresh clone, as a newcomer runs them: `make tables`
(a venv created, the project installed, every default table built, the document's tables
printed) and then `make test` (the test tools installed, the suite run), each timed whole
by the wall clock.

The clone is of this repository's last commit (work not committed is left out), in a
temporary folder removed afterwards; the commands run with the environment of this
process less what would steer them elsewhere (a data folder, a parent make's variables).
The rows have no baseline: issue 58's limits (150 s and 240 s on the 2-core machine) are
targets, and the notes say whether each command ended with status 0, what the suite
reported and the machine's load when it started.

    .venv/bin/python bench/setup_commands.py --data data   # about ten minutes on 2 cores
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rows import row, run_alone

STEERING = ("TABLEBASE_DATA", "VIRTUAL_ENV", "PYTHONPATH", "MAKEFLAGS", "MFLAGS",
            "MAKELEVEL", "MAKEOVERRIDES")
"""Variables that would make the clone's commands read another data folder or venv, or
take a parent make's command-line settings (`make bench DATA=...`)."""


def _timed(command: list[str], clone: Path, log: Path) -> tuple[float, int, str]:
    """Seconds, exit status and last line of ``command`` run in the clone."""
    environment = {name: value for name, value in os.environ.items() if name not in STEERING}
    with open(log, "w") as output:
        started = time.perf_counter()
        done = subprocess.run(command, cwd=clone, env=environment, stdout=output,
                              stderr=subprocess.STDOUT, check=False)
        seconds = time.perf_counter() - started
    lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
    return seconds, done.returncode, lines[-1] if lines else ""


def _suite_summary(log: Path) -> str:
    """pytest's closing line (`1015 passed in 230.1s`), or '' when it has none."""
    for line in reversed(log.read_text(errors="replace").splitlines()):
        if (" passed" in line or " failed" in line) and " in " in line:
            return line.strip("= ").strip()
    return ""


def bench_setup_commands(rows) -> None:
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="fresh-clone-") as folder:
        clone = Path(folder) / "repository"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone,
                                check=True, capture_output=True, text=True).stdout.strip()
        seconds, status, last = _timed(["make", "tables"], clone, Path(folder) / "tables.log")
        print(f"make tables: {seconds:.1f} s, rc {status}: {last}")
        rows.append(row("make_tables_fresh_clone", seconds, None,
                        f"`make tables` on a fresh clone of {commit}: the venv created and "
                        "the project installed (pip, from the local wheels), every default "
                        f"table built, the document's tables printed; rc {status}; load "
                        f"average {load:.1f} at the start; target: at most 150 s"))
        if status:
            print((Path(folder) / "tables.log").read_text(errors="replace")[-3000:])
            return
        load = os.getloadavg()[0]
        seconds, status, last = _timed(["make", "test"], clone, Path(folder) / "test.log")
        suite = _suite_summary(Path(folder) / "test.log") or last
        print(f"make test: {seconds:.1f} s, rc {status}: {suite}")
        for line in (Path(folder) / "test.log").read_text(errors="replace").splitlines():
            if line.startswith(("FAILED ", "ERROR ")):
                print(line)
        rows.append(row("make_test_fresh_clone", seconds, None,
                        "`make test` right after that `make tables`: the test tools "
                        "installed, the tables found current, the suite run in three "
                        f"processes ({suite}); rc {status}; load average {load:.1f} at the "
                        "start; target: at most 240 s"))


if __name__ == "__main__":
    run_alone(__doc__, bench_setup_commands)
