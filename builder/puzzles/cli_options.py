"""Command-line options that the plug-ins' own commands (their ``cli.py``) and the query
layer's commands share, declared once."""

from __future__ import annotations

from typing import Annotated

import typer

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
