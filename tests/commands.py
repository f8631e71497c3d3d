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
a test about two builders at once starts the other one as a process of its own.
``CommandProcess`` is the middle way: one process of its own (bounded in address space,
or with other packages on its path) that runs command after command."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import select
import subprocess
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Self

import pytest

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


def click_command(program: str):
    """The program's click command for the puzzles registered now: its commands and
    options are mounted from the registry when its module is imported (a plug-in's
    `--card`, its `builder NAME`), so a test that runs with fewer puzzles registered
    (``test_docs``: this project's alone) gets a command of its own, and the next test
    the whole one again, whichever ran first in a worker."""
    from builder import registry

    return _click_command(program, tuple(puzzle.name for puzzle in registry.PUZZLES))


_MOUNTED_FOR: dict[str, tuple[str, ...]] = {}
"""The puzzles each program's module was last imported or reloaded for, here."""


@cache
def _click_command(program: str, puzzles: tuple[str, ...]):
    """Made once per program and puzzles: typer reads every command's signature and
    annotations each time it makes it, which costs more than most commands."""
    import typer

    module = importlib.import_module(f"{program}.cli")
    if _MOUNTED_FOR.get(program) != puzzles:
        # imported earlier, perhaps while another registry was in place: mount again
        module = importlib.reload(module)
        _MOUNTED_FOR[program] = puzzles
    return typer.main.get_command(module.app)


def run_command(program: str, *args: str, timeout: float = 120, check: bool = False,
                **options) -> subprocess.CompletedProcess:
    """``program args`` as a CompletedProcess (text stdout and stderr, the exit code);
    ``check``: a non-zero exit raises CalledProcessError, as ``subprocess.run`` does."""
    if not runs_in_process(program, args, options):
        return subprocess.run([str(BIN / program), *args], capture_output=True, text=True,
                              timeout=timeout, check=check, **options)
    from unittest import mock

    from builder.command_line import _run_app, exit_status

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
                code = exit_status(done.code)  # as the process's end reads it
    finally:
        sys.argv = saved_argv
    done = subprocess.CompletedProcess([program, *args], code, out.getvalue(), err.getvalue())
    if check:
        done.check_returncode()
    return done


ANSWERING = """import importlib, json, os, resource, site, sys, tempfile
if sys.argv[1]:
    resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
if sys.argv[2]:
    site.addsitedir(sys.argv[2])
answers = os.fdopen(os.dup(1), "w")
made = {}
for line in sys.stdin:
    program, args = json.loads(line)
    sys.argv = [program, *args]
    code = 0
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        kept = os.dup(1), os.dup(2)
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        try:  # the first command loads the plug-ins: what that prints is its own
            if program == "-c":
                exec(args[0], {"__name__": "__main__"})
            else:
                import typer
                from builder.command_line import _run_app
                if program not in made:
                    cli = importlib.import_module(program + ".cli")
                    made[program] = typer.main.get_command(cli.app)
                    if program == "query":  # `query sql` bounds its address space for good
                        cli._limit_address_space = lambda limit: None
                _run_app(made[program], False, "interrupted")
        except SystemExit as ended:  # as the process's end reads it
            from builder.command_line import exit_status
            code = exit_status(ended.code)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for fd, saved in zip((1, 2), kept):
                os.dup2(saved, fd)
                os.close(saved)
        printed = []
        for captured in (out, err):
            captured.seek(0)
            printed.append(captured.read().decode(errors="replace"))
    print(json.dumps([code, *printed]), file=answers, flush=True)
"""
"""A process's loop: commands (console script names, or ``-c CODE``, with their arguments)
read one per line and answered one per line, each as its console script runs it (argv,
exit code, all it writes to fd 1 and 2)."""


class CommandProcess:
    """One Python that runs ``builder`` and ``query`` commands one after another (a
    process for each would start the interpreter and the plug-ins again each time): in
    ``environment`` and ``cwd``; given ``address_space``, bounded in it; given
    ``site_folder``, with that folder as its only site-packages.  A command that runs past
    its timeout, or ends the process, fails its test and ends the process."""

    def __init__(self, environment: dict | None = None, address_space: int | None = None,
                 site_folder: Path | None = None, cwd: Path | None = None):
        self.process = subprocess.Popen(
            [sys.executable, *(["-S"] if site_folder else []), "-c", ANSWERING,
             str(address_space or ""), str(site_folder or "")], env=environment, cwd=cwd,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)

    def alive(self) -> bool:
        return self.process.poll() is None

    def run(self, program: str, *args: str, timeout: float = 120
            ) -> subprocess.CompletedProcess:
        shown = f"`{program} {' '.join(args)[:80]}`"
        self.process.stdin.write(json.dumps([program, list(args)]) + "\n")
        self.process.stdin.flush()
        answered, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline() if answered else ""
        if not line:
            self.close()
            pytest.fail(f"{shown} still ran after {timeout} s" if not answered else
                        f"{shown} ended its process (exit code {self.process.returncode})")
        code, out, err = json.loads(line)
        return subprocess.CompletedProcess([program, *args], code, out, err)

    def finish(self) -> tuple[int, str]:
        """Its end when told there are no more commands: exit code, and what it wrote to
        its own stderr (outside every command's)."""
        _, own = self.process.communicate(timeout=60)
        return self.process.returncode, own

    def close(self) -> None:
        if self.alive():
            self.process.kill()
        self.process.communicate()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


HANG_SECONDS = 120
"""How long a wait for a state goes on before the test calls it a hang."""


def wait_for(condition: Callable[[], bool], what: str,
             pause: Callable[[], None] = lambda: time.sleep(0.02)) -> None:
    """Poll until ``condition()`` holds, however long a busy machine takes to get there:
    nothing is asserted of the time it took; only a hang (``HANG_SECONDS`` without the
    state) ends the wait, as a failure naming ``what`` never came."""
    deadline = time.monotonic() + HANG_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"hung waiting for: {what}")
        pause()
