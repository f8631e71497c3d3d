"""The offline side of the tablebase: everything that writes ``data/``."""

import os

# GNU OpenMP's threads spin after every parallel region unless told to sleep: with one
# core busy elsewhere a two-thread kernel then ran slower than one thread (bench row
# tricolore_4x2_all_pairs_busy_machine), and the spinning slowed every other process.  Read
# when numba loads its threading layer, so it is set here, before any kernel; a user's
# own setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

__version__ = "0.1.0"
