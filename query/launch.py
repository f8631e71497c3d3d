"""The `query` console script: the command line imported (every plug-in loaded) with a
broken plug-in reported in one line, then run."""

from builder.command_line import plugins_loaded


def main() -> None:
    with plugins_loaded():
        from query.cli import main as run
    run()
