"""`query` and `builder` as the tests run them: in this process where a new process is
not what a test is about, else as a subprocess of the installed console script.

A new process costs 0.1-0.7 s of CPU before its command starts (interpreter, numpy,
the plug-ins, zarr); the suite runs about three hundred commands.  In this process the
command goes through the same entry as the console script (``_run_app``: one-line
errors, exit codes) with argv, stdout and stderr its own; only the process's end
(``_end_process``: no interpreter teardown) is left out, and the exit code is read as
it reads it.  Commands that change the process itself stay in a subprocess: `query sql`
(it bounds its address space), `query serve`, `query plot` (it writes files), builds
(they hold the data directory's lock and catch Ctrl-C), `--help` (typer's help is drawn
for a terminal's width), and any run given stdin or an environment (``subprocess.run``'s
options other than ``cwd``, which an in-process run enters and leaves); ``timeout``
only bounds a subprocess."""

from __future__ import annotations

import contextlib
import importlib
import io
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
QUERY_OWN_PROCESS = {"sql", "serve", "plot"}
"""`query` subcommands that change the process (its address space, a server) or write
files; every other `query` subcommand, `builder verify` and `builder build --list` run in
this process."""


def runs_in_process(program: str, args: tuple[str, ...], options: dict) -> bool:
    if not args or set(options) - {"cwd"} or "--build-table" in args or "--help" in args:
        return False
    if program == "query":
        return args[0] not in QUERY_OWN_PROCESS
    return program == "builder" and (args[0] == "verify"
                                      or (args[0] == "build" and "--list" in args))


def run_command(program: str, *args: str, timeout: float = 120, check: bool = False,
                **options) -> subprocess.CompletedProcess:
    """``program args`` as a CompletedProcess (text stdout and stderr, the exit code);
    ``check``: a non-zero exit raises CalledProcessError, as ``subprocess.run`` does."""
    if not runs_in_process(program, args, options):
        return subprocess.run([str(BIN / program), *args], capture_output=True, text=True,
                              timeout=timeout, check=check, **options)
    from builder.command_line import _run_app

    app = importlib.import_module(f"{program}.cli").app
    out, err = io.StringIO(), io.StringIO()
    saved_argv, sys.argv = sys.argv, [program, *args]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                contextlib.chdir(options.get("cwd", ".")):
            try:
                _run_app(app, False, "interrupted")
            except SystemExit as done:
                code = done.code
                if code is None:
                    code = 0
                elif not isinstance(code, int):  # as `_end_process` reads it
                    print(code, file=sys.stderr)
                    code = 1
    finally:
        sys.argv = saved_argv
    done = subprocess.CompletedProcess([program, *args], code, out.getvalue(), err.getvalue())
    if check:
        done.check_returncode()
    return done
