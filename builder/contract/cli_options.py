"""Command-line options that the plug-ins' own commands (their ``cli.py``) and the query
layer's commands share, declared once."""

from __future__ import annotations

import math
from typing import Annotated

import click
import typer

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


class Limit(click.FloatRange):
    """A number option between two finite bounds (a time limit, a budget in minutes...),
    given as ``typer.Option(click_type=Limit(low, high))``.  Click's own range lets
    ``nan`` through (every comparison with it is false) and, without a maximum, ``inf``:
    either would quietly remove the limit, so both are refused, as a usage error naming
    the option."""

    def __init__(self, low: float, high: float):
        super().__init__(min=low, max=high)

    def convert(self, value, param, ctx):
        number = click.FLOAT.convert(value, param, ctx)
        if not (math.isfinite(number) and self.min <= number <= self.max):
            self.fail(f"{str(value)[:40]} is not a number from {self.min:g} to "
                      f"{self.max:g}", param, ctx)
        return number
