"""The puzzle plug-ins, one package per puzzle and nothing else.  Each implements the
contract in ``builder.contract`` and imports nothing else of the engine."""
