"""The sliding tiles' IDA* step compiled where the tables are built: `builder tables` and
`builder build` import this module after building them (``kernel_modules``), so that a
user's first search loads the step from numba's cache instead of compiling it."""

from builder.contract.patterns import step_kernel
from puzzles.sliding.search import pattern_step

step_kernel(pattern_step)
