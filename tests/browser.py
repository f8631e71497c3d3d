"""A served web app and a headless Chromium for the browser tests (Playwright driving
Debian's chromium).  Without chromium the browser tests skip on a workstation and fail
in CI (`CI` set): they never pass silently."""

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

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOTS = Path(__file__).parent / "screenshots"
"""Screenshots of every game view the tests drive (git-ignored), for a person to look at."""


@contextlib.contextmanager
def served(data_dir: Path, *options: str):
    """`query serve` on a free port over ``data_dir`` (with ``options``), as a user starts
    it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "query"), "serve", "--port", str(port),
         "--data", str(data_dir), *options], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextlib.contextmanager
def chromium():
    if CHROMIUM is None:
        message = ("Chromium is not installed (Debian package `chromium`): the browser tests "
                   "cannot run")
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
