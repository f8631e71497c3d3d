"""Expensive work at query time, through one gate: a search where no table answers, a
solver run, a deal hunted for.  A command line runs it as it comes; a long-lived server
passes a gate (the engine's ``builder.gate.WorkGate``) so that such work runs a few at a
time, waits in a short queue, stops at the server's time and budget limits, and gives its
memory back after, while cheap answers (table walks, hints) never wait behind it.

Plug-ins and the engine mark the work (``with expensive("what")``) and may ask for the
server's caps (``capped_budget``, ``server_budget``, ``work_seconds``) and the caller's own
budget for a question's searches (``current_budget``: a command's ``--budget`` and
``--seconds``, set with ``search_budget``), and report the steps of long work
(``report_progress``); they never know whether a server runs: the server opens a
``request_scope`` with its gate around each request, and ``progress_to`` around a build
or a search the page follows.

Work that runs past its request's limit, or whose client hangs up, is stopped where it
stands, not only refused its next piece: the gate raises the piece's ``Stop`` signal,
which a numba kernel polls between states (``stop_signal().flag``, as the generic
breadth-first kernel does) and a Python loop checks at each level (``checkpoint``, also
called by ``report_progress``).  Work that checks neither runs to its end, holding its
slot, so the pool still bounds what runs.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Callable, Hashable, Iterator
from typing import TypeVar

import numpy as np

from builder.contract.errors import OneLineError, PuzzleInputError

T = TypeVar("T")


class ServerBusyError(OneLineError):
    """Expensive work refused now: the server's slots and queue are full (HTTP 503)."""


class AbandonedError(OneLineError):
    """Expensive work not started: the client that asked has gone (nobody reads it)."""


class OverBudgetError(OneLineError):
    """Work asked for more than the server allows one request (HTTP 429)."""


class Stop:
    """The stop signal of a request's expensive work, raised by its gate (at the request's
    time limit, or when its client hangs up), never by the work: ``flag`` is one byte
    that a numba kernel polls (``flag[0]`` becomes 1; the kernel returns what it has, and
    its caller calls ``check``), and ``check`` raises the reason (ServerBusyError, or
    AbandonedError) where it has been raised.  Outside a server it is never raised."""

    def __init__(self) -> None:
        self.flag = np.zeros(1, np.uint8)
        self._reason: OneLineError | None = None

    def raise_(self, reason: OneLineError) -> None:
        if self._reason is None:
            self._reason = reason  # before the flag: a poller that sees it finds the reason
            self.flag[0] = 1

    def check(self) -> None:
        if self.flag[0]:
            reason = self._reason
            raise type(reason)(str(reason))


_request: contextvars.ContextVar[dict] = contextvars.ContextVar("work_request")


@contextlib.contextmanager
def request_scope(gate, client_gone: Callable[[], bool] | None = None
                  ) -> Iterator[None]:
    """One request of a server whose expensive work goes through ``gate``: its pieces
    share one time limit, counted from the first; ``client_gone`` says whether the
    client has hung up (work not yet started is then dropped, and work running is
    stopped); it is asked from other threads than the request's.  Outside such a scope
    (a command line, a test calling the engine) nothing is limited."""
    token = _request.set({"started": None, "gate": gate, "client_gone": client_gone,
                          "stop": None, "kept": {}, "paused": 0})
    try:
        yield
    finally:
        _request.reset(token)


def current_scope() -> dict:
    """The request's scope (``request_scope``) that a gate's ``hold`` works in."""
    return _request.get()


def _gate():
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


@contextlib.contextmanager
def uncounted() -> Iterator[None]:
    """Work inside the block does not count against its request's time limit (reading a
    search's tables from disk: once a server, slow on a busy machine, and no part of
    the search the limit is for): the request's clock stops meanwhile.  The work keeps
    its slot, and a client that hangs up still stops it; outside a server, nothing."""
    scope = _request.get(None)
    if scope is None:
        yield
        return
    began = time.monotonic()
    scope["paused"] += 1
    try:
        yield
    finally:
        if scope["paused"] == 1 and scope["started"] is not None:  # the outermost block
            scope["started"] += time.monotonic() - max(began, scope["started"])
        scope["paused"] -= 1


def stop_signal() -> Stop:
    """The stop signal of the expensive work running now in this request (a numba kernel
    polls its ``flag``); outside a server's expensive work, one never raised."""
    scope = _request.get(None)
    stop = scope.get("stop") if scope else None
    return stop if stop is not None else Stop()


def checkpoint() -> None:
    """Where long Python work (a search's level) may be stopped: raises the request's
    stop reason (its time limit passed, its client gone); nothing outside a server."""
    stop_signal().check()


def once_per_request(key: Hashable, make: Callable[[], T]) -> T:
    """``make()``, made once in a server's request and kept until the request ends (a
    request that asks for the same expensive result again never pays for it twice);
    outside a request, made at each call (the caller keeps what it wants)."""
    scope = _request.get(None)
    if scope is None:
        return make()
    kept = scope["kept"]
    if key not in kept:
        kept[key] = make()
    return kept[key]


def capped_budget(budget: int, what: str = "--budget") -> int:
    """``budget`` if the request's gate allows it; an OverBudgetError otherwise."""
    gate = _gate()
    if gate is not None and budget > gate.max_budget:
        raise OverBudgetError(f"{what} {budget:,} is over this server's {gate.max_budget:,} "
                              "nodes a request: ask for less, or use the command line")
    return budget


def server_budget(default: int) -> int:
    """A solver's ``default`` budget where nobody asked for one, within the request's
    gate (a server started with a smaller ``--max-budget`` still answers)."""
    gate = _gate()
    return default if gate is None else min(default, gate.max_budget)


def work_seconds(asked: float) -> float:
    """Seconds a piece of work that can stop itself may run: ``asked``, within the
    request's gate limit."""
    gate = _gate()
    return asked if gate is None else min(asked, gate.request_seconds)


class SearchBudget:
    """A caller's budget for the exact searches of one question (a command's ``--budget``
    and ``--seconds``, the Python API's ``budget=`` and ``seconds=``): all its searches
    together generate at most ``nodes`` nodes and end within ``seconds`` of its start
    (None: no such limit).  A search that can stop itself asks what is ``left`` and says
    what it ``spent``; a server's own limits still apply within it."""

    def __init__(self, nodes: int | None = None, seconds: float | None = None):
        self.nodes, self.seconds = nodes, seconds
        self.spent_nodes = 0
        self.started = time.monotonic()

    def left(self) -> tuple[float, float]:
        """(nodes, seconds) still allowed (infinity where unlimited)."""
        nodes = float("inf") if self.nodes is None else max(0, self.nodes - self.spent_nodes)
        seconds = (float("inf") if self.seconds is None
                   else max(0.0, self.started + self.seconds - time.monotonic()))
        return nodes, seconds

    def spent(self, nodes: int) -> None:
        self.spent_nodes += nodes


_budget: contextvars.ContextVar[SearchBudget | None] = contextvars.ContextVar(
    "search_budget", default=None)


@contextlib.contextmanager
def search_budget(nodes: int | None = None, seconds: float | None = None
                  ) -> Iterator[SearchBudget]:
    """The searches inside the block share a caller's budget (``SearchBudget``), checked
    here: a whole number of nodes, 1 or more; seconds above 0.  A question's budget is
    set once, where it is asked: a block inside another keeps the outer one."""
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int)
                              or nodes < 1):
        raise PuzzleInputError(f"a search budget of {str(nodes)[:40]} nodes: give a whole "
                               "number, 1 or more")
    if seconds is not None and (isinstance(seconds, bool)
                                or not isinstance(seconds, int | float)
                                or not 0 < seconds < float("inf")):
        raise PuzzleInputError(f"a search limit of {str(seconds)[:40]} seconds: give a "
                               "number above 0")
    outer = _budget.get()
    if outer is not None:
        yield outer
        return
    budget = SearchBudget(nodes, seconds)
    token = _budget.set(budget)
    try:
        yield budget
    finally:
        _budget.reset(token)


def current_budget() -> SearchBudget:
    """The caller's budget of the searches running now (an unlimited one outside
    ``search_budget``)."""
    return _budget.get() or SearchBudget()


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
    else nobody (a command line has its bars); then work a request no longer wants stops
    here (``checkpoint``), its follower having seen where it stood."""
    sink = _progress.get()
    if sink is not None:
        sink(step, note)
    checkpoint()

