"""The offline side of the tablebase: everything that writes ``data/``."""

__version__ = "0.1.0"
