"""Expensive work at query time, through one gate: a search where no table answers, a
solver run, a deal hunted for.  A command line runs it as it comes; a long-lived server
passes a ``WorkGate`` so that such work runs a few at a time, waits in a short queue,
stops at the server's time and budget limits, and gives its memory back after, while
cheap answers (table walks, hints) never wait behind it.

Plug-ins and the engine mark the work (``with expensive("what")``) and may ask for the
server's caps (``capped_budget``, ``work_seconds``), and report the steps of long work
(``report_progress``); they never know whether a server runs: the server opens a
``request_scope`` with its gate around each request, and ``progress_to`` around a build.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
import time
from collections.abc import Callable, Iterator

from builder.puzzles import OneLineError


class ServerBusyError(OneLineError):
    """Expensive work refused now: the server's slots and queue are full (HTTP 503)."""


class AbandonedError(OneLineError):
    """Expensive work not started: the client that asked has gone (nobody reads it)."""


class OverBudgetError(OneLineError):
    """Work asked for more than the server allows one request (HTTP 429)."""


class WorkGate:
    """At most ``slots`` expensive pieces of work at once (default: one fewer than the
    cores), ``waiting`` more queued for at
    most ``wait_seconds``; a request's expensive work must end within ``request_seconds``
    of its start (checked between pieces: a kernel is never stopped halfway), and asks for
    at most ``max_budget`` states of a solver."""

    def __init__(self, slots: int | None = None, waiting: int = 4, wait_seconds: float = 5.0,
                 request_seconds: float = 15.0, max_budget: int = 2_000_000):
        if slots is None:  # leave a core to the table answers
            slots = max(1, (os.cpu_count() or 2) - 1)
        self.slots = threading.BoundedSemaphore(slots)
        self.queue = threading.BoundedSemaphore(slots + waiting)
        self.wait_seconds = wait_seconds
        self.request_seconds = request_seconds
        self.max_budget = max_budget
        self.local = threading.local()

    @contextlib.contextmanager
    def hold(self, what: str) -> Iterator[None]:
        local = self.local
        scope = _request.get()  # a gate is only reached inside a request's scope
        if getattr(local, "depth", 0):  # already holding a slot in this thread
            self._check_time(scope, what)
            local.depth += 1
            try:
                yield
            finally:
                local.depth -= 1
            return
        if not self.queue.acquire(blocking=False):
            raise ServerBusyError(f"the server is busy with other searches ({what} refused): "
                                  "retry in a few seconds")
        try:
            self._wait_for_slot(scope, what)
        except BaseException:  # the queue's place is held until the slot is given back:
            self.queue.release()  # holders count too
            raise
        local.depth = 1
        if scope["started"] is None:
            scope["started"] = time.monotonic()
        try:
            self._check_time(scope, what)
            yield
        finally:
            local.depth = 0
            self.slots.release()
            self.queue.release()
            _return_memory()

    def _wait_for_slot(self, scope: dict, what: str) -> None:
        """A free slot, within ``wait_seconds``; a request whose client has gone meanwhile
        (a page that moved on) gives its place up rather than run work nobody reads."""
        deadline = time.monotonic() + self.wait_seconds
        while True:
            if _abandoned(scope):
                raise AbandonedError(f"{what} not started: the client has gone")
            left = deadline - time.monotonic()
            if left <= 0:
                raise ServerBusyError(f"the server is busy: {what} waited "
                                      f"{self.wait_seconds:g} s for a free slot; retry later")
            if self.slots.acquire(timeout=min(left, ABANDON_CHECK_SECONDS)):
                if _abandoned(scope):
                    self.slots.release()
                    raise AbandonedError(f"{what} not started: the client has gone")
                return

    def _check_time(self, scope: dict, what: str) -> None:
        if time.monotonic() - scope["started"] > self.request_seconds:
            raise ServerBusyError(f"{what} stopped: the request took more than the server's "
                                  f"{self.request_seconds:g} s; ask the command line "
                                  "(`query ...`), which has no such limit")


ABANDON_CHECK_SECONDS = 0.2
"""How often work waiting for a slot asks whether its client is still there."""

_request: contextvars.ContextVar[dict] = contextvars.ContextVar("work_request")


@contextlib.contextmanager
def request_scope(gate: WorkGate, client_gone: Callable[[], bool] | None = None
                  ) -> Iterator[None]:
    """One request of a server whose expensive work goes through ``gate``: its pieces
    share one time limit, counted from the first; ``client_gone`` says whether the
    client has hung up (work not yet started is then dropped).  Outside such a scope (a
    command line, a test calling the engine) nothing is limited."""
    token = _request.set({"started": None, "gate": gate, "client_gone": client_gone})
    try:
        yield
    finally:
        _request.reset(token)


def _abandoned(scope: dict) -> bool:
    client_gone = scope.get("client_gone")
    return bool(client_gone and client_gone())


def _gate() -> WorkGate | None:
    scope = _request.get(None)
    return scope["gate"] if scope else None


@contextlib.contextmanager
def expensive(what: str) -> Iterator[None]:
    """Mark a piece of expensive work (its name for the refusal message)."""
    gate = _gate()
    if gate is None:
        yield
        return
    with gate.hold(what):
        yield


def capped_budget(budget: int, what: str = "--budget") -> int:
    """``budget`` if the request's gate allows it; an OverBudgetError otherwise."""
    gate = _gate()
    if gate is not None and budget > gate.max_budget:
        raise OverBudgetError(f"{what} {budget:,} is over this server's {gate.max_budget:,} "
                              "states a request: ask for less, or use the command line")
    return budget


def work_seconds(asked: float) -> float:
    """Seconds a piece of work that can stop itself may run: ``asked``, within the
    request's gate limit."""
    gate = _gate()
    return asked if gate is None else min(asked, gate.request_seconds)


def _return_memory() -> None:
    """Hand freed memory back to the system after a large piece of work (glibc keeps
    freed arenas otherwise, and a server's RSS stays at its peak).  No ``gc.collect``: it
    holds the interpreter for tens of milliseconds, which every hint would wait for."""
    import ctypes

    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


_progress: contextvars.ContextVar[Callable[[int, str], None] | None] = contextvars.ContextVar(
    "work_progress", default=None)


@contextlib.contextmanager
def progress_to(sink: Callable[[int, str], None]) -> Iterator[None]:
    """Long work inside the block reports its steps to ``sink(step, note)`` (a server's
    table build shows them to the page)."""
    token = _progress.set(sink)
    try:
        yield
    finally:
        _progress.reset(token)


def report_progress(step: int, note: str = "") -> None:
    """A step of long work done (a search's level): told to whoever asked (``progress_to``),
    else nobody (a command line has its bars)."""
    sink = _progress.get()
    if sink is not None:
        sink(step, note)

