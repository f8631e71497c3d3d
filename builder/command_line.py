"""How both command lines (`builder`, `query`) end: every failure is one line on stderr.

Exit status: 0 done; 1 an internal error (``TABLEBASE_DEBUG=1`` shows its traceback);
2 anything the user can fix (bad usage, bad input, a missing table, a busy or read-only
data directory); 130 Ctrl-C.  Usage errors are printed as one line naming the command's
``--help``, never as a framed block; input is never echoed at length.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import sys
import typing
from collections.abc import Callable, Collection
from pathlib import Path

from builder.contract.errors import OneLineError

DATA_VARIABLE = "TABLEBASE_DATA"
"""The environment variable that names the data directory when `--data` is not given."""


def default_data() -> Path:
    """The data directory a command uses without `--data`: the folder ``TABLEBASE_DATA``
    names, else ``data`` in the folder it runs in where there is one, else this checkout's
    own ``data`` (so that `query` answers from any folder), else ``data`` here (a build
    creates it)."""
    named = os.environ.get(DATA_VARIABLE)
    if named:
        return Path(named)
    here = Path("data")
    if here.is_dir():
        return here
    project = Path(__file__).resolve().parent.parent / "data"
    return project if project.is_dir() else here


def data_default(context, value: Path) -> Path:
    """`--data`'s callback: the folder given (on the command line or in
    ``TABLEBASE_DATA``), else ``default_data()`` as it stands where the command runs."""
    from click.core import ParameterSource

    from builder import registry

    if context.get_parameter_source("data") is ParameterSource.DEFAULT:
        value = default_data()
    registry.use_data(value)  # the puzzles its files define join the installed ones
    return value


def data_in_arguments(arguments: list[str]) -> Path | None:
    """The folder a command line's `--data` names, if it names one: read before the
    command line is made, so that the puzzles that folder's files define have their
    commands (`builder NAME`, `query random NAME`) like every installed one."""
    for at, argument in enumerate(arguments):
        if argument == "--data" and at + 1 < len(arguments):
            return Path(arguments[at + 1])
        if argument.startswith("--data="):
            return Path(argument.removeprefix("--data="))
    return None


def _fail(message: str, code: int) -> None:
    print(f"error: {message}", file=sys.stderr, flush=True)
    sys.exit(code)


@contextlib.contextmanager
def plugins_loaded():
    """Around a console script's import of its command line, which loads every plug-in
    (``builder.registry``): a plug-in that cannot be loaded or breaks the contract is one
    line and exit 2, not a traceback."""
    try:
        named = data_in_arguments(sys.argv[1:])
        if named is not None:
            from builder import registry

            registry.use_data(named)
        yield
    except OneLineError as error:
        _fail(str(error), 2)


def run_app(app: Callable, interruptible: bool = False, on_interrupt: str = "interrupted"
            ) -> None:
    """Run a Typer app with one-line errors; with ``interruptible`` in a worker thread, so
    that Ctrl-C stops the process at once (see ``builder.workspace``).  Ends the process
    (``_end_process``)."""
    try:
        _run_app(app, interruptible, on_interrupt)
    except SystemExit as done:
        _end_process(done.code)
    _end_process(0)


def exit_status(code) -> int:
    """The status ``sys.exit(code)`` ends a process with: 0 for None, a number as it is,
    else 1, the code (a message) printed to stderr first."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _end_process(code) -> None:
    """Exit with ``code`` as ``sys.exit`` would, without the interpreter's teardown: once
    numba has compiled or loaded kernels, finalising its LLVM objects takes about half a
    second (a tenth of a whole 4×4 target build) and does nothing a finished command
    needs.  What an exit owes is still done: other threads are waited for, the atexit
    handlers run (temporary directories, worker processes, Dask clusters) and the
    standard streams are flushed."""
    import atexit
    import threading

    code = exit_status(code)
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed, or its reader went away
            pass
    os._exit(code)


def _said_once(message: str) -> str:
    """A usage error's message with a sentence said twice in a row said once (typer and
    click each add "Did you mean 'path'?" to a misspelled command)."""
    import re

    return re.sub(r"( [^.?!]+[.?!])\1+", r"\1", message)


def _run_app(app: Callable, interruptible: bool, on_interrupt: str) -> None:
    import click

    def body() -> None:
        try:
            code = app(standalone_mode=False)
        except click.exceptions.NoArgsIsHelpError:
            sys.exit(2)  # the help has been printed
        except click.exceptions.UsageError as error:
            where = error.ctx.command_path if error.ctx else "the command"
            _fail(f"{_said_once(error.format_message())} (see `{where} --help`)", 2)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except click.exceptions.Abort:
            raise KeyboardInterrupt from None
        if isinstance(code, int) and code:
            sys.exit(code)

    try:
        if interruptible:
            from builder.workspace import run_interruptibly

            run_interruptibly(body, on_interrupt)
        else:
            body()
    except OneLineError as error:
        _fail(str(error), 2)
    except KeyboardInterrupt:
        print(on_interrupt, file=sys.stderr)
        sys.exit(130)
    except MemoryError:
        _fail("out of memory: the request is too large for this machine", 2)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (`| head`): nothing to report
        os._exit(0)
    except OSError as error:
        _fail(f"{error.strerror or error}" + (f": {error.filename}" if error.filename else ""),
              2)
    except Exception as error:
        if os.environ.get("TABLEBASE_DEBUG"):
            raise
        _fail(f"internal error ({type(error).__name__}: {str(error)[:200]}); "
              "TABLEBASE_DEBUG=1 shows the traceback", 1)


def plugin_parameters(function: Callable, supplied: Collection[str]
                      ) -> tuple[list[inspect.Parameter], set[str]]:
    """A plug-in's command function as typer sees it: its parameters, keyword-only with
    their annotations resolved, leaving out those the engine ``supplied`` (the data
    directory, a table lookup...); and which of those it asks for."""
    hints = typing.get_type_hints(function, include_extras=True)
    parameters = inspect.signature(function).parameters.values()
    return ([parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY,
                               annotation=hints[parameter.name])
             for parameter in parameters if parameter.name not in supplied],
            {parameter.name for parameter in parameters if parameter.name in supplied})


def as_command(command: Callable, parameters: list[inspect.Parameter], doc: str | None,
               name: str | None = None) -> Callable:
    """``command`` (taking ``**options``) presented to typer with these parameters and
    help text."""
    command.__signature__ = inspect.Signature(parameters)
    command.__annotations__ = {parameter.name: parameter.annotation
                               for parameter in parameters}
    command.__doc__ = doc
    if name:
        command.__name__ = name
    return command
