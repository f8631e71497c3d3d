"""How both command lines (`builder`, `query`) end: every failure is one line on stderr.

Exit status: 0 done; 1 an internal error (``TABLEBASE_DEBUG=1`` shows its traceback);
2 anything the user can fix (bad usage, bad input, a missing table, a busy or read-only
data directory); 130 Ctrl-C.  Usage errors are printed as one line naming the command's
``--help``, never as a framed block; input is never echoed at length.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from builder.puzzles import OneLineError


def _fail(message: str, code: int) -> None:
    print(f"error: {message}", file=sys.stderr, flush=True)
    sys.exit(code)


def run_app(app: Callable, interruptible: bool = False, on_interrupt: str = "interrupted"
            ) -> None:
    """Run a Typer app with one-line errors; with ``interruptible`` in a worker thread, so
    that Ctrl-C stops the process at once (see ``builder.workspace``)."""
    import click

    def body() -> None:
        try:
            code = app(standalone_mode=False)
        except click.exceptions.NoArgsIsHelpError:
            sys.exit(2)  # the help has been printed
        except click.exceptions.UsageError as error:
            where = error.ctx.command_path if error.ctx else "the command"
            _fail(f"{error.format_message()} (see `{where} --help`)", 2)
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
