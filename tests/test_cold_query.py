"""A cold `query path` (issue 58) makes only what it answers with: typer builds the one
command invoked, not every command with every plug-in's options, and the plug-ins' entry
points come from a cache (``builder.registry.cached_entry_points``) instead of a scan of
every installed package through ``importlib.metadata``, for as long as nothing that scan
reads has changed.  What a user sees is the same: every command's help, `query --help`,
and the one-line usage errors."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
import typer
from click.testing import CliRunner

from builder import registry
from tests.test_cli import all_commands

GROUP = "tablebase_test.things"


def _run_cold(code: str, cache: Path, cwd: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, registry.ENTRY_POINTS_CACHE_VARIABLE: str(cache)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=environment, cwd=cwd, timeout=120, check=False)


def test_a_cold_query_path_builds_one_command_and_scans_no_installed_package(
        data_dir, tmp_path):
    """Run twice, as a user would: the second process reads the cache the first wrote,
    so importlib.metadata is never imported, and typer makes the `path` command alone."""
    code = (
        "import atexit, sys, typer.main\n"
        "built = []\n"
        "making = typer.main.get_command_from_info\n"
        "def recording(*args, **kwargs):\n"
        "    command = making(*args, **kwargs)\n"
        "    built.append(command.name)\n"
        "    return command\n"
        "typer.main.get_command_from_info = recording\n"
        "atexit.register(lambda: print(sorted(built), 'importlib.metadata' in sys.modules))\n"
        "sys.argv = ['query', 'path', 'WBWW.WBRB', 'RRRR.RRRR', '--data', "
        f"{str(data_dir)!r}]\n"
        "from query.launch import main\n"
        "main()\n")
    cache = tmp_path / "entry-points.json"
    first = _run_cold(code, cache, tmp_path)
    assert first.returncode == 0, first.stderr
    assert cache.exists()
    second = _run_cold(code, cache, tmp_path)
    assert second.returncode == 0, second.stderr
    assert second.stdout.startswith("WBWW.WBRB -> RRRR.RRRR: 7 clicks"), second.stdout
    assert second.stdout.splitlines()[-1] == "['path'] False"


def _help_of(command: click.Command, arguments: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(command, arguments, prog_name="query")
    return result.exit_code, result.output


def test_every_commands_help_is_the_whole_command_lines():
    from query.cli import app, invoked

    whole = typer.main.get_command(app)
    commands = [path[1:] for path in all_commands(app, ("query",))]
    assert len(commands) >= 15 and ("path",) in commands and ("stats", "tricolore") in commands
    for command in commands:
        arguments = [*command, "--help"]
        assert _help_of(invoked(arguments), arguments) == _help_of(whole, arguments), command
    for arguments in (["--help"], [], ["pth"], ["--data", "path"]):
        assert invoked(arguments) is app, arguments
    assert set(invoked(["path", "--help"]).commands) == {"path"}
    assert set(invoked(["stats", "tricolore"]).commands) == {"stats"}


@pytest.mark.parametrize("arguments", [
    ["path"], ["path", "WBWW.WBRB", "--method", "sideways"], ["distance", "--nope"],
    ["sql"], ["hardest"], ["stats", "nothing"], ["random"],
])
def test_a_usage_error_reads_as_with_every_command_made(arguments):
    """The one-line message (builder.command_line) names the same command and reason."""
    from builder.command_line import _run_app
    from query.cli import app, invoked

    def said(command) -> tuple:
        errors = io.StringIO()
        saved, sys.argv = sys.argv, ["query", *arguments]
        try:
            with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
                _run_app(command, False, "interrupted")
            code = 0
        except SystemExit as done:
            code = done.code
        finally:
            sys.argv = saved
        return code, errors.getvalue()

    assert said(invoked(arguments)) == said(app)


# --- the entry points' cache -------------------------------------------------------------

def _package(folder: Path, name: str, entries: str) -> Path:
    info = folder / f"{name}-0.1.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entries}\n")
    return info


@pytest.fixture
def listed(tmp_path, monkeypatch):
    """``listed()``: GROUP's entry points by name and value through the cache, and
    whether ``importlib.metadata`` scanned the packages for them."""
    from importlib import metadata

    monkeypatch.setenv(registry.ENTRY_POINTS_CACHE_VARIABLE, str(tmp_path / "cache.json"))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    (tmp_path / "site").mkdir()
    scans = []
    scanning = metadata.entry_points

    def counted(**selection):
        scans.append(selection)
        return scanning(**selection)

    monkeypatch.setattr(metadata, "entry_points", counted)

    def listing() -> tuple[dict, bool]:
        scans.clear()
        found = {entry.name: entry.value for entry in registry.cached_entry_points(GROUP)}
        return found, bool(scans)

    return listing


def test_the_cache_answers_until_a_package_is_installed_changed_or_removed(
        tmp_path, listed):
    site = tmp_path / "site"
    assert listed() == ({}, True)
    assert listed() == ({}, False)
    first = _package(site, "things_one", "lamp = json:dumps")
    assert listed() == ({"lamp": "json:dumps"}, True)
    assert listed() == ({"lamp": "json:dumps"}, False)
    # rewritten in place, the folder as it was: its entry_points.txt says so
    (first / "entry_points.txt").write_text(f"[{GROUP}]\nlamp = json:loads\nbulb = os:sep\n")
    assert listed() == ({"lamp": "json:loads", "bulb": "os:sep"}, True)
    # a package without entry points of its own, installed in a folder earlier on the
    # path, takes the name of the one that had them: they are gone
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    sys.path.insert(0, str(earlier))
    try:
        listed()
        shadow = earlier / "things_one-0.2.dist-info"
        shadow.mkdir()
        (shadow / "METADATA").write_text("Metadata-Version: 2.1\nName: things_one\n"
                                         "Version: 0.2\n")
        assert listed() == ({}, True)
    finally:
        sys.path.remove(str(earlier))
    import shutil

    shutil.rmtree(first)
    assert listed() == ({}, True)


def test_a_cached_entry_point_loads_and_names_its_package_as_a_scanned_one(tmp_path,
                                                                           listed):
    _package(tmp_path / "site", "things_two", "dump = json:JSONEncoder.encode")
    listed()
    (entry,) = registry.cached_entry_points(GROUP)
    assert entry.load() is json.JSONEncoder.encode
    assert entry.dist.name == "things_two" and entry.group == GROUP


@pytest.mark.parametrize("kept", ["not json", "[{\"stamp\": 3}]", "{}", "[[1, 2]]"])
def test_a_damaged_cache_is_scanned_again_and_rewritten(tmp_path, listed, kept):
    _package(tmp_path / "site", "things_three", "lamp = json:dumps")
    (tmp_path / "cache.json").write_text(kept)
    assert listed() == ({"lamp": "json:dumps"}, True)
    assert listed() == ({"lamp": "json:dumps"}, False)


def test_an_unwritable_cache_still_lists_every_entry_point(tmp_path, listed, monkeypatch):
    monkeypatch.setenv(registry.ENTRY_POINTS_CACHE_VARIABLE,
                       str(tmp_path / "a file" / "cache.json"))
    (tmp_path / "a file").write_text("")
    _package(tmp_path / "site", "things_four", "lamp = json:dumps")
    assert listed() == ({"lamp": "json:dumps"}, True)
    assert listed() == ({"lamp": "json:dumps"}, True)
