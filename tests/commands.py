"""`query` and `builder` as the tests run them: in this process where a new process is
not what a test is about, else as a subprocess of the installed console script.

A new process costs 0.5-1.5 s of CPU before its command starts (interpreter, numpy,
the plug-ins, zarr, numba's cached kernels); the suite runs about three hundred commands.
In this process the command goes through the same entry as the console script
(``_run_app``: one-line errors, exit codes) with argv, stdout and stderr its own; left out
are the process's end (``_end_process``: no interpreter teardown, the exit code read as
it reads it), a build's Ctrl-C watch (``run_interruptibly``: the tests that press Ctrl-C
start their own process) and `query sql`'s bound on its address space (it would stay
on the test process).  Commands that are about the process itself stay in a subprocess:
`query serve`, `query plot` (it writes files), `--help` (typer's help is drawn for a
terminal's width), and any run given stdin or an environment (``subprocess.run``'s options
other than ``cwd``, which an in-process run enters and leaves); ``timeout`` only bounds a
subprocess.  Builds in this process hold the data directory's lock as a builder does;
a test about two builders at once starts the other one as a process of its own."""

from __future__ import annotations

import contextlib
import importlib
import io
import subprocess
import sys
from functools import cache
from pathlib import Path

BIN = Path(sys.executable).parent
QUERY_OWN_PROCESS = {"serve", "plot"}
"""`query` subcommands that start a server or write files; every other `query`
subcommand, and every `builder` one, runs in this process."""


def runs_in_process(program: str, args: tuple[str, ...], options: dict) -> bool:
    if not args or set(options) - {"cwd"} or "--help" in args:
        return False
    if program == "query":
        return args[0] not in QUERY_OWN_PROCESS
    return program == "builder"


@cache
def click_command(program: str):
    """The program's click command, made once: typer reads every command's signature
    and annotations each time it makes it, which costs more than most commands."""
    import typer

    return typer.main.get_command(importlib.import_module(f"{program}.cli").app)


def run_command(program: str, *args: str, timeout: float = 120, check: bool = False,
                **options) -> subprocess.CompletedProcess:
    """``program args`` as a CompletedProcess (text stdout and stderr, the exit code);
    ``check``: a non-zero exit raises CalledProcessError, as ``subprocess.run`` does."""
    if not runs_in_process(program, args, options):
        return subprocess.run([str(BIN / program), *args], capture_output=True, text=True,
                              timeout=timeout, check=check, **options)
    from unittest import mock

    from builder.command_line import _run_app

    command = click_command(program)
    unbounded = (mock.patch("query.cli._limit_address_space") if program == "query"
                 else contextlib.nullcontext())
    out, err = io.StringIO(), io.StringIO()
    saved_argv, sys.argv = sys.argv, [program, *args]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                contextlib.chdir(options.get("cwd", ".")), unbounded:
            try:
                _run_app(command, False, "interrupted")
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
