"""The all-pairs search's batch of targets, in a module of its own without numba: the
kernel (``all_pairs_search``, numba) takes it as its default batch and the table specs
(``tables``, which the query path imports) as the task width of small boards, and
neither imports the other for it.
"""

TARGETS_PER_TASK = 256
"""Target columns per chunk task on small boards, and the all-pairs kernel's smallest batch
(a multiple of 64: it keeps one bit per target in 64-bit words)."""
