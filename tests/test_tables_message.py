"""`make tables` (`builder tables`) ends by saying what it built, what it left for later
and how to build everything (issue 58).  The builds themselves are stood for by their
results: this checks what the command says of them."""

from __future__ import annotations

from typer.testing import CliRunner

from builder.routine import BuildResult


def test_builder_tables_says_what_it_built_left_and_how_to_build_everything(
        tmp_path, monkeypatch):
    import builder.cli
    import builder.routine

    data = tmp_path / "data"
    data.mkdir()
    results = [BuildResult(data / "hanoi" / "3pegs", True, 1.0),
               BuildResult(data / "hanoi" / "4pegs", False, 0.0),
               BuildResult(data / "lucas" / "tables", True, 2.0)]
    monkeypatch.setattr(builder.routine, "build_defaults", lambda *_, **__: results)
    monkeypatch.setattr(builder.cli, "_built", lambda *_, **__: None)
    said = CliRunner().invoke(builder.cli.app, ["tables", "--data", str(data), "--quiet"])
    assert said.exit_code == 0, said.output
    built, left, everything = said.output.splitlines()[-3:]
    assert built == f"2 tables built, 1 current and reused, in {data}"
    assert left.startswith("left for later: nothing") and "builder build --list" in left
    assert "make tables FORCE=1" in everything

