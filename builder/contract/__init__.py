"""The plug-in contract: everything a puzzle plug-in implements or may import, and nothing
else of the engine (an import-linter contract says so).  Every hook, with its signature,
default and a one-line example, is on one page, ``docs/contract.md`` (``python -m
builder.contract.hooks`` writes it).

- ``errors``: the one-line errors every layer shares (``PuzzleInputError``,
  ``MissingTableError``...);
- ``base``: the core a plug-in implements (``Puzzle``, ``WalkablePuzzle``), what the
  engine lends it (``TableLookup``) and the value types (``Move``, ``FoundPath``...);
- ``parts``: every optional hook, grouped by the consumer that reads it; ``hooks``: the
  check that refuses a plug-in member that no part or core declares;
- ``dense``: ``DensePuzzle``, for puzzles whose positions rank densely (the plug-in says
  where a distance is stored, the engine reads it); ``keyed``: ``KeyedPuzzle``, for
  puzzles whose tables are sparse (positions as keys);
- ``specs``: table specs as data; ``keys``: one- and two-word keys as numpy arrays;
- ``patterns``: pattern databases and the exact search (IDA*) the engine runs on them;
- ``bits``, ``intrinsics``: helpers for a plug-in's numba kernels;
- ``counting``: histograms for the catalog; ``work``: the gate that bounds expensive
  work at query time; ``cli_options``: shared command-line option types.
"""
