"""A builder's hold on a data directory, and a build that stops at once on Ctrl-C.

Owns three guarantees every writer of a data directory relies on (a ``builder`` command,
``query path --build-table``, a server building a table on request):

- one writer at a time per data directory: an exclusive lock (``.builder.lock``), whose
  file names the holder, so a second writer says in one line which build has it (the
  kernel releases the lock when the holder exits, however it exits); a command holds it
  until it exits (``hold``), a server only while it builds (``holding``), and the lock
  file is removed as it is let go (a killed holder's is taken over by the next writer);
- the directory is checked before any work: a file, a read-only folder or one that
  cannot be created is a one-line error, not a traceback half-way through a build;
- staging is named after the process that writes it (``staging_name``), and a writer
  that takes the lock sweeps away only the staging whose process is gone (the
  resumable ``.NAME.zarr.building`` folders are kept: they are how a build resumes).

``run_interruptibly`` runs a command in a worker thread so that Ctrl-C is answered by the
main thread within a fraction of a second even while a kernel runs (kernels release the
GIL): the process exits at once, published tables untouched, chunk tasks kept for resuming.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import shutil
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from builder.contract.errors import OneLineError

LOCK_NAME = ".builder.lock"
_held: dict[str, int] = {}


class DataDirectoryError(OneLineError):
    """The data directory cannot be used: not a directory, read-only, or held by another
    builder."""


class DirectoryHeldError(DataDirectoryError):
    """Another writer holds the data directory's lock."""


def _check_directory(data: Path, create: bool) -> Path:
    data = Path(data)
    if data.exists() and not data.is_dir():
        raise DataDirectoryError(f"data directory {data} is not a directory")
    if not data.exists():
        if not create:
            raise DataDirectoryError(f"no data directory {data}: build tables first "
                                     "(`make tables`, or `builder tables --data DIR`)")
        try:
            data.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DataDirectoryError(f"cannot create data directory {data}: "
                                     f"{error.strerror or error}") from None
    if not os.access(data, os.W_OK | os.X_OK):
        raise DataDirectoryError(f"data directory {data} is read-only: tables cannot be "
                                 "written there")
    return data


def _acquire(data: Path, command: str) -> int:
    """The lock's descriptor, taken for this process and stamped with ``command``; a
    DataDirectoryError names the writer that holds it otherwise."""
    lock_path = data / LOCK_NAME
    while True:
        try:
            descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise DataDirectoryError(f"data directory {data} cannot be locked: "
                                     f"{error.strerror or error}") from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(descriptor, 500, 0).decode(errors="replace").strip()
            os.close(descriptor)
            raise DirectoryHeldError(f"data directory {data} is being built by another "
                                     f"builder ({holder or 'unknown'}): wait for it to "
                                     "finish") from None
        if _is_lock_file(descriptor, lock_path):
            break
        # the holder removed the file as it let go: the lock is now a new file's
        os.close(descriptor)
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, f"pid {os.getpid()}: {command[:200]}, since {stamp}".encode(), 0)
    return descriptor


def _is_lock_file(descriptor: int, lock_path: Path) -> bool:
    """True while ``lock_path`` is still the file ``descriptor`` has open."""
    try:
        named = os.stat(lock_path)
    except FileNotFoundError:
        return False
    opened = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)


def _release(key: str) -> None:
    """Let go of a held lock and remove its file, so that no command, failed or not,
    leaves a lock file behind (in a folder that was never a data directory, say).  The
    file goes while the lock is still held: a writer that opened it meanwhile finds it
    gone once it has the lock, and takes a new one (``_acquire``)."""
    descriptor = _held.pop(key)
    lock_path = Path(key) / LOCK_NAME
    try:
        if _is_lock_file(descriptor, lock_path):
            lock_path.unlink()
    except OSError:
        pass  # a lock file left behind is harmless: the next writer takes it
    os.close(descriptor)  # closing the last descriptor releases the lock


def _release_all() -> None:
    for key in list(_held):
        _release(key)


atexit.register(_release_all)


def hold(data: Path, command: str, create: bool = True) -> None:
    """Take the data directory for this process (until it exits, when the lock file is
    removed), after checking that it can be written; a DataDirectoryError names the
    builder that holds it otherwise."""
    data = _check_directory(data, create)
    key = str(data.resolve())
    if key in _held:
        return
    _held[key] = _acquire(data, command)
    sweep_orphans(data)


@contextlib.contextmanager
def holding(data: Path, command: str):
    """Take the data directory for the block only (a server that builds a table on
    request, and lets command-line builders in between); a DataDirectoryError at once
    when another writer holds it."""
    data = _check_directory(data, create=False)
    key = str(data.resolve())
    if key in _held:  # this process holds it already, for good
        yield
        return
    _held[key] = _acquire(data, command)
    try:
        sweep_orphans(data)
        yield
    finally:
        _release(key)


STAGING_KINDS = ("building", "retired")


def staging_name(path: Path, kind: str = "building") -> Path:
    """A hidden place beside ``path`` for a table being built (or one being retired),
    named after this process: a sweep removes it only once this process is gone."""
    if kind not in STAGING_KINDS:
        raise ValueError(f"staging is one of {STAGING_KINDS}, not {kind!r}")
    path = Path(path)
    return path.parent / f".{path.name}.{kind}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def staging_owner(name: str) -> int | None:
    """The process a staging name names (None: not staging, or named before staging
    carried its writer's process)."""
    for kind in STAGING_KINDS:
        marker = f".{kind}-"
        if marker in name:
            owner, dash, _ = name.rpartition(marker)[2].partition("-")
            return int(owner) if dash and owner.isdigit() else None
    return None


def owner_alive(pid: int) -> bool:
    """True while process ``pid`` exists (on this machine: the lock is a local one)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True


def sweep_orphans(data: Path) -> list[Path]:
    """Remove staging and retired tables whose writer is gone (a killed builder's, an
    older builder's unnamed ones); never a live process's, whatever it is doing."""
    removed = []
    for path in Path(data).rglob(".*"):
        name = path.name
        if not any(f".{kind}-" in name for kind in STAGING_KINDS):
            continue
        owner = staging_owner(name)
        if owner is not None and owner_alive(owner):
            continue
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
        removed.append(path)
    return removed


_staging: set[Path] = set()
_staging_lock = threading.Lock()
_writing = threading.Lock()
_stopping = threading.Event()
WRITE_WAIT_SECONDS = 1.0
"""How long Ctrl-C waits for a write in progress to end before removing the staging."""


class Stopping(BaseException):
    """Raised in the build thread by a write begun after Ctrl-C (the process is ending)."""


@contextlib.contextmanager
def writing():
    """Hold around every write into staging: Ctrl-C waits for the write in progress, then
    removes the staging while no write can begin (else a write racing the removal would
    leave a half-written folder behind)."""
    with _writing:
        if _stopping.is_set():
            raise Stopping
        yield


def staging_started(path: Path) -> None:
    """Note a staging location that must not outlive an interrupted build."""
    with _staging_lock:
        _staging.add(Path(path))


def staging_finished(path: Path) -> None:
    with _staging_lock:
        _staging.discard(Path(path))


def _remove_staging() -> None:
    with _staging_lock:
        for path in list(_staging):
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def run_interruptibly(body: Callable[[], None], on_interrupt: str) -> None:
    """Run ``body`` in a worker thread; on Ctrl-C print ``on_interrupt``, remove this
    build's staging and exit 130 at once (a kernel cannot be stopped half-way, so the
    process is ended instead).  ``body``'s exceptions and exit codes pass through."""
    outcome: dict = {}

    def worker() -> None:
        try:
            body()
            outcome["code"] = 0
        except SystemExit as exit_:
            outcome["code"] = exit_.code
        except BaseException as error:  # noqa: BLE001 (re-raised in the main thread)
            outcome["error"] = error

    thread = threading.Thread(target=worker, name="build", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.1)
    except KeyboardInterrupt:
        _stopping.set()
        _writing.acquire(timeout=WRITE_WAIT_SECONDS)  # held until the process ends
        _remove_staging()
        _release_all()  # os._exit runs no atexit handler
        print(on_interrupt, file=sys.stderr, flush=True)
        os._exit(130)
    if "error" in outcome:
        raise outcome["error"]
    code = outcome.get("code", 0)
    if code not in (0, None):
        sys.exit(code)
