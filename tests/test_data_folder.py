"""Where a command looks for its tables without `--data`: ``TABLEBASE_DATA``, else
``./data`` where the command runs, else the project's own data folder, so that `query`
answers from any folder; a folder without tables is named in the error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parent.parent


def _query(*args: str, cwd: Path, environment: dict | None = None):
    plain = {k: v for k, v in os.environ.items() if k != "TABLEBASE_DATA"}
    return subprocess.run([str(BIN / "query"), *args], capture_output=True, text=True,
                          cwd=cwd, env={**plain, **(environment or {})}, timeout=60,
                          check=False)


def test_query_from_another_folder_answers_from_the_projects_data(tmp_path, data_dir):
    if data_dir.resolve() != (ROOT / "data").resolve():
        # the project's folder is where `make tables` builds; elsewhere say where to look
        answered = _query("distance", "WBWW.WBRB", "RRRR.RRRR", cwd=tmp_path,
                          environment={"TABLEBASE_DATA": str(data_dir)})
    else:
        answered = _query("distance", "WBWW.WBRB", "RRRR.RRRR", cwd=tmp_path)
    assert answered.returncode == 0 and answered.stdout.strip() == "7", answered.stderr


def test_the_environment_variable_and_the_option_name_the_folder(tmp_path, data_dir):
    empty = tmp_path / "empty"
    empty.mkdir()
    by_variable = _query("distance", "WBWW.WBRB", "RRRR.RRRR", cwd=tmp_path,
                         environment={"TABLEBASE_DATA": str(empty)})
    assert by_variable.returncode == 2 and str(empty) in by_variable.stderr
    by_option = _query("distance", "WBWW.WBRB", "RRRR.RRRR", "--data", str(data_dir),
                       cwd=tmp_path, environment={"TABLEBASE_DATA": str(empty)})
    assert by_option.returncode == 0 and by_option.stdout.strip() == "7", by_option.stderr


def test_a_data_folder_where_the_command_runs_comes_first(tmp_path):
    (tmp_path / "data").mkdir()
    answered = _query("distance", "WBWW.WBRB", "RRRR.RRRR", cwd=tmp_path)
    assert answered.returncode == 2 and "in data:" in answered.stderr, answered.stderr
