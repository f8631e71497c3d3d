"""A served web app and a headless Chromium for the browser tests (Playwright driving
Debian's chromium-headless-shell, or its full chromium where the shell is missing).
Without either the browser tests skip on a workstation and fail in CI (`CI` set): they
never pass silently."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

# The old headless shell draws the same pages as the full browser without its windowing
# layers, for less CPU per page: the browser tests share the suite's two cores.
CHROMIUM = (shutil.which("chromium-headless-shell") or shutil.which("chromium")
            or shutil.which("chromium-browser"))
SCREENSHOTS = Path(__file__).parent / "screenshots"
"""Screenshots of every game view the tests drive (git-ignored), for a person to look at."""
PAGE_WAIT = 120_000
"""Milliseconds a page waits for a state, an element or a navigation before its test fails:
only a page that never gets there reaches it, however busy the machine."""
SERVER_START = 120
"""Seconds `query serve` may take to answer (or to end, once told to): only a hang."""


def start_server(data_dir: Path, *options: str, stderr=subprocess.DEVNULL
                 ) -> tuple[subprocess.Popen, int]:
    """`query serve` on a free port over ``data_dir`` (with ``options``), as a user starts
    it, once it answers; the process and its port."""
    import http.client

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "query"), "serve", "--port", str(port),
         "--data", str(data_dir), *options], stdout=subprocess.DEVNULL, stderr=stderr)
    deadline = time.monotonic() + SERVER_START
    while True:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("HEAD", "/")
            if connection.getresponse().status == 200:
                return process, port
        except OSError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            raise RuntimeError(f"query serve did not start on port {port}")
        time.sleep(0.2)


@contextlib.contextmanager
def served(data_dir: Path, *options: str):
    """`query serve` over ``data_dir`` (with ``options``) for the block: its address."""
    process, port = start_server(data_dir, *options)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=SERVER_START)


@contextlib.contextmanager
def chromium():
    if CHROMIUM is None:
        message = ("Chromium is not installed (Debian package `chromium-headless-shell`): the "
                   "browser tests cannot run")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"])
        try:
            yield launched
        finally:
            launched.close()


@contextlib.contextmanager
def kept_tab(browser, viewport: dict, **options):
    """One tab for a module's tests, as a player keeps one open (a new tab costs a
    renderer process's start, several times the CPU of a page load in a tab), with the
    list of errors its pages raised; ``options``: the context's (touch, say)."""
    context = browser.new_context(viewport=viewport, **options)
    context.set_default_timeout(PAGE_WAIT)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield opened, errors
    finally:
        context.close()


def forget_games(page, server: str) -> None:
    """Leave ``page`` as a new tab starts: on no game, with none of the server's games kept
    in the tab's storage (a game opened again by its address would otherwise come back
    with its moves made and its par).  The storage is cleared from a document of the
    server's that runs no game: one that did could still write to it after the clear, an
    answer arriving late."""
    page.goto(f"{server}/static/board.js")
    page.evaluate("sessionStorage.clear()")
    page.goto("about:blank")


def axe_findings(page) -> dict:
    """axe-core's findings on the page as it stands (its violations in full; the rules
    it could not decide, in brief), as ``axe_playwright_python``'s ``Axe().run`` gives
    them; its half-megabyte script is put into the page only once per page load (a
    resize keeps it)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        from axe_playwright_python.sync_playwright import Axe

        page.evaluate(Axe().axe_script)
    return page.evaluate("axe.run({resultTypes: ['violations']})")
