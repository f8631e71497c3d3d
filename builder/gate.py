"""The server's gate for expensive work at query time (``builder.contract.work`` is what
plug-ins and the engine mark their work with): at most a few pieces at once, a short
queue, each request's time limit and budget, the stop of work whose client has gone, and
memory given back after.  A long-lived server makes one ``WorkGate`` and opens a
``request_scope`` with it around each request; nothing else of the engine or any plug-in
knows it is there."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator

from builder.contract.work import (
    AbandonedError,
    ServerBusyError,
    Stop,
    current_scope,
)

ABANDON_CHECK_SECONDS = 0.2
"""How often work waiting for a slot, or running, asks whether its client is still there."""


def _abandoned(scope: dict) -> bool:
    client_gone = scope.get("client_gone")
    return bool(client_gone and client_gone())


def _return_memory() -> None:
    """Hand freed memory back to the system after a large piece of work (glibc keeps
    freed arenas otherwise, and a server's RSS stays at its peak).  No ``gc.collect``: it
    holds the interpreter for tens of milliseconds, which every hint would wait for."""
    import ctypes

    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


class WorkGate:
    """At most ``slots`` expensive pieces of work at once (default: one fewer than the
    cores), ``waiting`` more queued for at most ``wait_seconds``; a request's expensive
    work must end within ``request_seconds`` of its start (its pieces share the limit: a
    piece is refused after it, and one running is stopped at it, where the work polls its
    ``Stop``), and asks for at most ``max_budget`` nodes of a solver.  So a request ends
    within ``wait_seconds + request_seconds``, and at most ``slots`` pieces of work run
    at once, whatever the requests ask."""

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
        scope = current_scope()  # a gate is only reached inside a request's scope
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
        stop, done = Stop(), threading.Event()
        scope["stop"] = stop
        try:
            self._check_time(scope, what)
            threading.Thread(target=self._watch, args=(scope, stop, what, done), daemon=True,
                             name="work watcher").start()
            yield
        finally:
            done.set()
            scope["stop"] = None
            local.depth = 0
            self.slots.release()
            self.queue.release()
            _return_memory()

    def _watch(self, scope: dict, stop: Stop, what: str, done: threading.Event) -> None:
        """Raise ``stop`` at the request's time limit, or as soon as its client has gone
        (nobody would read the answer), until the piece of work is ``done``.  The limit
        is read again at each wake-up: time ``uncounted`` moves it on."""
        while True:
            left = scope["started"] + self.request_seconds - time.monotonic()
            if done.wait(ABANDON_CHECK_SECONDS if scope["paused"]
                         else max(0.0, min(ABANDON_CHECK_SECONDS, left))):
                return
            if not scope["paused"] and (time.monotonic()
                                        >= scope["started"] + self.request_seconds):
                stop.raise_(ServerBusyError(self._over_time(what)))
                return
            if _abandoned(scope):
                stop.raise_(AbandonedError(f"{what} stopped: the client has gone"))
                return

    def _wait_for_slot(self, scope: dict, what: str) -> None:
        """A free slot, within ``wait_seconds``; a request whose client has gone meanwhile
        (a page that moved on) gives its place up rather than run work nobody reads."""
        deadline = time.monotonic() + self.wait_seconds
        if scope["started"] is not None:  # a later piece: never waits past the request's limit
            deadline = min(deadline, scope["started"] + self.request_seconds)
        while True:
            if _abandoned(scope):
                raise AbandonedError(f"{what} not started: the client has gone")
            left = deadline - time.monotonic()
            if left <= 0:
                self._check_time(scope, what)
                raise ServerBusyError(f"the server is busy: {what} waited "
                                      f"{self.wait_seconds:g} s for a free slot; retry later")
            if self.slots.acquire(timeout=min(left, ABANDON_CHECK_SECONDS)):
                if _abandoned(scope):
                    self.slots.release()
                    raise AbandonedError(f"{what} not started: the client has gone")
                return

    def _check_time(self, scope: dict, what: str) -> None:
        if (scope["started"] is not None and not scope["paused"]
                and time.monotonic() - scope["started"] >= self.request_seconds):
            raise ServerBusyError(self._over_time(what))

    def _over_time(self, what: str) -> str:
        return (f"{what} stopped: the request took more than the server's "
                f"{self.request_seconds:g} s; ask the command line (`query ...`), which has "
                "no such limit")
