"""The plug-in contract: everything a puzzle plug-in implements or may import, and nothing
else of the engine (an import-linter contract says so).  Every hook, with its signature,
default and a one-line example, is on one page, ``docs/contract.md`` (``python -m
builder.contract.hooks`` writes it).

- ``errors``: the one-line errors every layer shares (``PuzzleInputError``,
  ``MissingTableError``...);
- ``base``: the core a plug-in implements (``Puzzle``, ``WalkablePuzzle``), what the
  engine lends it (``TableLookup``) and the value types (``Move``, ``FoundPath``...);
- ``parts``: every optional hook, grouped by the consumer that reads it, and
  ``OwnSearch``, behind which a puzzle keeps a search of its own; ``hooks``: the
  declaration's names (at most 30) and the search's, and the check that refuses a
  plug-in member the contract does not declare;
- ``dense``: ``DensePuzzle``, for puzzles whose positions rank densely (from its ranks
  the engine keeps its tables, ``DenseSearch``), ``keyed``: ``KeyedPuzzle``, for puzzles
  whose tables are sparse (positions as keys; ``KeyedSearch``);
- ``specs``: table specs as data; ``keys``: one- and two-word keys as numpy arrays;
- ``patterns``: pattern databases and the exact search (IDA*) the engine runs on them;
- ``bits``, ``intrinsics``: helpers for a plug-in's numba kernels;
- ``counting``: histograms for the catalog; ``work``: the gate that bounds expensive
  work at query time; ``cli_options``: shared command-line option types.
"""
