"""Single-target backward search over every (board, last click) node, on the compact state
and in contiguous streams (Tricolore boards too large for all-pairs tables; 4×4: 43
million boards, 731 million nodes).  Imported lazily (numba).

Compact state.  For a board b other than the target, dist(b, last) = 1 + min over clicks
c != last of dist(next(b, c), c); so every last click of b shares one distance f (also
the free node's), except possibly the single best first click c*, whose node has f2 > f.
The whole table is therefore (f, c*, f2) per board, which are exactly the stored arrays
``clicks``, ``sole_click`` and ``clicks_avoiding_sole``; the search updates them in
place.  Node (b, c) is in level k's frontier when f(b) = k and c != c*, or f2(b) = k and
c = c*.  The target's own nodes are the arrivals (level 0); its ``clicks`` is the
shortest return.

Levels are direction-optimising: a small frontier is *pushed* (each frontier node
(b2, c) has 0-2 predecessor boards through the inverse click; the two threads each push
half of the frontier into their own scratch array); a large one is *pulled* by every
unfinished board.  The pull runs in streams: write a board's rank by rows
(base 3**W each).  A click in row r changes rows r-1 .. r+1 only, so over the boards
that differ only in the untouched rows at the low end of the rank the successor is
b + delta, one delta for all of them: a block of boards pulls a run of the frontier.
Clicks that touch the lowest row use a second layout, with the rows rotated (row 0
moved to the low end).  Between dense levels the frontier is one bit-plane per click,
each click's plane in its own layout (rows 0-1 natural, the rest rotated), laid out by
tiles of boards that hold both layouts' blocks; a dense level is one pass over the
tiles that pulls, settles and writes the next planes, in the memory the pushed levels
use as scratch (``backward_covers``: the boards where a byte holds each layout's
clicks).  Blocks of boards that are finished are skipped.

Outputs equal ``target_search.search_target`` byte for byte (the tests check it).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit, prange

from builder.contract.base import never_of, unreached
from builder.contract.bits import lowest_bit, popcount
from builder.contract.intrinsics import expand_or, mask_of, prefetch
from puzzles.tricolore.target_search import (
    click_rank,
    mark_predecessors,
)

U8 = np.uint8
U16 = np.uint16
PUSH_FRACTION = 8
"""Push while the frontier holds fewer than open boards / PUSH_FRACTION nodes (open: in
blocks a dense level has not found done)."""


@njit(cache=True, inline="always")
def _step(board, hits, level, full, target, clicks, sole, avoiding, never):
    """Record what the clicks ``hits`` (each leading into the frontier) settle at
    ``board`` (``never``: an entry not set yet); returns the board's nodes that join the
    next frontier."""
    if hits == 0:
        return 0
    if board == target:  # its nodes are the arrivals; its free node is the return
        if clicks[board] == never:
            clicks[board] = level
        return 0
    if clicks[board] == never:
        clicks[board] = level
        if popcount(hits) == 1:
            sole[board] = lowest_bit(hits)
            return full & ~hits
        return full
    best = sole[board]
    if best != never and avoiding[board] == never and hits & ~(1 << np.int64(best)):
        avoiding[board] = level
        return 1 << np.int64(best)
    return 0


# --- the dense levels, on bit-planes -----------------------------------------------------
#
# Between dense levels the frontier is kept as one bit-plane per click (a bit a board):
# a click's pull reads an eighth of the bytes a byte-a-board frontier costs, and the pulls
# are done tile by tile inside the settling pass, so no hits array goes through memory.
# The planes are laid out by tiles of row_size x row_size boards (natural rank
# q * stride + tile * row_size + x, for q and x below row_size): a tile owns whole words
# of every plane, so the two threads never write one word, and a tile's words are its
# boards' bytes packed in order, 64 at a time, with no shifting: natural clicks' planes
# hold board (q, x) at the tile's bit q * row_size + x, rotated clicks' planes at
# x * row_size + q.  A layout's block of boards (one q, or one x) is then a run of
# row_size bits, which a pull reads at any bit offset.

WORD_BITS = 64


def plane_words(n_boards: int, row_size: int) -> tuple[int, int]:
    """Words a tile takes in a plane, and words a plane takes (two spare at the end: a
    run's 64-bit read may pass the last tile)."""
    words_per_tile = -(-row_size * row_size // WORD_BITS)
    return words_per_tile, n_boards // row_size**2 * words_per_tile + 2


@njit(cache=True, inline="always")
def _tile_bytes(row_size):
    """A tile's boards, a byte each, with room for a 64-byte step past the last."""
    return np.zeros(row_size * row_size + WORD_BITS, dtype=np.uint8)


@njit(cache=True, inline="always")
def _bits_at(plane, at):
    """64 bits of ``plane`` from bit ``at`` (the word after them must exist)."""
    shift = np.uint64(at & 63)
    word = at >> 6
    return (plane[word] >> shift) | ((plane[word + 1] << np.uint64(1)) << (np.uint64(63) - shift))


@njit(cache=True, inline="always")
def _natural_bit(rank, row_size, n_tiles, tile_bits):
    """Where a board (by its natural rank) is in a natural click's plane."""
    block = rank // row_size
    return (block % n_tiles) * tile_bits + (block // n_tiles) * row_size + rank % row_size


@njit(cache=True, inline="always")
def _rotated_bit(rank, row_size, tile_bits):
    """Where a board (by its rotated rank x * row_size + q) is in a rotated click's plane."""
    x = rank // row_size
    return (x // row_size) * tile_bits + (x % row_size) * row_size + rank % row_size


@njit(cache=True, inline="always")
def _block_rank(rotated, tile, row, row_size, stride):
    """The layout rank of the first board of a tile's block ``row`` (a q in the natural
    layout, an x in the rotated one)."""
    return (tile * row_size + row) * row_size if rotated else row * stride + tile * row_size


@njit(cache=True, inline="always")
def _plane_bit(rotated, rank, row_size, n_tiles, tile_bits):
    """Where a board (by its rank in the layout) is in that layout's clicks' planes."""
    return (_rotated_bit(rank, row_size, tile_bits) if rotated
            else _natural_bit(rank, row_size, n_tiles, tile_bits))


@njit(cache=True, nogil=True, parallel=True)
def _source_bits(rotated, lengths, offsets, deltas, row_size, stride, words_per_tile, out):
    """``out[i, tile * row_size + row]``: where, in the layout's click i's plane, the run
    of bits starts that the tile's block ``row`` (a q in the natural layout, an x in the
    rotated one) pulls from; -1 for a click whose successors need a delta a board."""
    n_tiles = stride // row_size
    tile_bits = words_per_tile * WORD_BITS
    for index in range(lengths.shape[0]):
        length = lengths[index]
        if length < row_size:
            out[index] = -1
            continue
        for tile in prange(n_tiles):
            for row in range(row_size):
                base = _block_rank(rotated, tile, row, row_size, stride)
                source = base + deltas[offsets[index] + base // length]
                out[index, tile * row_size + row] = _plane_bit(rotated, source, row_size,
                                                               n_tiles, tile_bits)


@njit(cache=True, inline="always")
def _pull_tile(planes, first_plane, into, tile, closed_rows, rotated, sources, lengths, offsets,
               deltas, row_size, stride, n_tiles, tile_bits):
    """``into[row * row_size + j] |= 1 << i`` when a layout's click i leads from the
    tile's block ``row``'s board j into the frontier (plane ``first_plane + i``), for the
    blocks not in ``closed_rows`` (a layout's done flags of the tile)."""
    low = np.uint64(-1) if row_size >= WORD_BITS else np.uint64((1 << row_size) - 1)
    high = np.uint64((1 << max(row_size - WORD_BITS, 0)) - 1)
    for index in range(lengths.shape[0]):
        plane = planes[first_plane + index]
        bit = U8(1 << index)
        tile_sources = sources[index, tile * row_size : (tile + 1) * row_size]
        for row in range(row_size):
            if closed_rows[row]:
                continue
            at = np.int64(tile_sources[row])
            if at >= 0:  # one delta for the block: a run of row_size bits
                expand_or(into, row * row_size, _bits_at(plane, at) & low, bit)
                if row_size > WORD_BITS:
                    expand_or(into, row * row_size + WORD_BITS,
                              _bits_at(plane, at + WORD_BITS) & high, bit)
                continue
            # boards of three rows: a click in the middle row touches every row
            base = _block_rank(rotated, tile, row, row_size, stride)
            for j in range(row_size):
                source = base + j + deltas[offsets[index] + base + j]
                at = _plane_bit(rotated, source, row_size, n_tiles, tile_bits)
                if (plane[at >> 6] >> np.uint64(at & 63)) & np.uint64(1):
                    into[row * row_size + j] |= bit


@njit(cache=True, inline="always")
def _pack_tile(nodes, planes, first_plane, n_planes, region, words_per_tile):
    """Bit i of each of the tile's bytes ``nodes`` into plane ``first_plane + i``."""
    for index in range(n_planes):
        bit = U8(1 << index)
        plane = planes[first_plane + index]
        for word in range(words_per_tile):
            plane[region + word] = mask_of(nodes, word * WORD_BITS, bit)


@njit(cache=True, inline="always")
def _unpack_tile(planes, first_plane, n_planes, region, words_per_tile, into):
    """The inverse of ``_pack_tile``: plane ``first_plane + i`` as bit i of the bytes."""
    for index in range(n_planes):
        bit = U8(1 << index)
        plane = planes[first_plane + index]
        for word in range(words_per_tile):
            expand_or(into, word * WORD_BITS, plane[region + word], bit)


@njit(cache=True, inline="always")
def _prefetch_tile(tile, clicks, sole, avoiding, done, row_size, stride, n_tiles):
    """Ask for the open blocks of a tile's boards' three arrays: a tile's blocks are
    ``stride`` apart, too far for the hardware prefetchers to follow."""
    if tile >= n_tiles:
        return
    for q in range(row_size):
        if done[q * n_tiles + tile]:
            continue
        base = q * stride + tile * row_size
        for at in (base, base + WORD_BITS, base + row_size - 1):  # every line of the block
            prefetch(clicks, at)
            prefetch(sole, at)
            prefetch(avoiding, at)


@njit(cache=True, nogil=True, parallel=True)
def _dense_level(level, full, target, planes, planes_next, quiet_next, natural_sources,
                 rotated_sources, natural_lengths, natural_offsets, natural_deltas,
                 rotated_lengths, rotated_offsets, rotated_deltas, clicks, sole, avoiding, done,
                 done_rotated, row_size, stride, words_per_tile, never):
    """One dense level, tile by tile: pull the open blocks' hits from the frontier's
    planes (``planes``), settle every board of the tile, and write the tile's words of the
    next frontier's planes (``planes_next``); returns the number of frontier nodes.

    Settling is arranged for the vector units: the rotated hits are transposed into
    natural order, each block is settled by one contiguous loop of selects, not branches
    (a mispredicted branch per board cost more than the whole computation; the target is
    put right after the loop), and the rotated nodes are transposed back.  This is
    ``_step``'s rule: the first hits settle ``clicks`` (and ``sole`` when a single click
    hit), a later hit by another click settles ``avoiding``.  A tile whose boards were all
    settled before this level only has its words cleared (unless they are zeros already:
    ``quiet_next``): in the last levels most are."""
    n_tiles = stride // row_size
    tile_bits = words_per_tile * WORD_BITS
    n_natural = natural_lengths.shape[0]
    n_rotated = rotated_lengths.shape[0]
    total = 0
    shift = U16(n_natural)
    one = U16(1)
    natural_bits = U16((1 << n_natural) - 1)
    all_clicks = U16(full)
    n_squares = U16(popcount(full))
    this_level = U8(level)
    unset = U8(never)  # a byte, as the arrays are: the settling loop vectorises in bytes
    for tile in prange(n_tiles):
        first = tile * row_size
        region = tile * words_per_tile
        closed_rows = np.empty(row_size, dtype=np.bool_)
        closed = True
        for q in range(row_size):
            closed_rows[q] = done[q * n_tiles + tile]
            closed &= closed_rows[q]
        if closed:  # nothing to settle: the next words are zeros (written now if need be)
            if not quiet_next[tile]:
                planes_next[:, region : region + words_per_tile] = 0
                done_rotated[first : first + row_size] = True
                quiet_next[tile] = True
            continue
        _prefetch_tile(tile + 1, clicks, sole, avoiding, done, row_size, stride, n_tiles)
        natural_hits = _tile_bytes(row_size)
        rotated_hits = _tile_bytes(row_size)
        _pull_tile(planes, 0, natural_hits, tile, closed_rows, False, natural_sources,
                   natural_lengths, natural_offsets, natural_deltas, row_size, stride,
                   n_tiles, tile_bits)
        _pull_tile(planes, n_natural, rotated_hits, tile, done_rotated[first : first + row_size],
                   True, rotated_sources, rotated_lengths, rotated_offsets, rotated_deltas,
                   row_size, stride, n_tiles, tile_bits)
        gathered = np.empty(row_size * row_size, dtype=np.uint8)
        for x in range(row_size):
            for q in range(row_size):
                gathered[q * row_size + x] = rotated_hits[x * row_size + q]
        natural_nodes = _tile_bytes(row_size)
        rotated_nodes = np.zeros(row_size * row_size, dtype=np.uint8)
        open_rotated = np.zeros(row_size, dtype=np.uint8)
        count = 0
        for q in range(row_size):
            if closed_rows[q]:
                continue
            base = q * stride + first
            block_frontier = natural_nodes[q * row_size : (q + 1) * row_size]
            block_rotated = rotated_nodes[q * row_size : (q + 1) * row_size]
            from_rotated = gathered[q * row_size : (q + 1) * row_size]
            block_hits = natural_hits[q * row_size : (q + 1) * row_size]
            block_clicks = clicks[base : base + row_size]
            block_sole = sole[base : base + row_size]
            block_avoiding = avoiding[base : base + row_size]
            target_here = base <= target < base + row_size
            kept_clicks = clicks[target] if target_here else unset
            # uint16 throughout, each result cast back: numba types every integer
            # operation as 64-bit, and only with the casts does LLVM vectorise the
            # loop in 16-bit lanes (4x the lanes; the settling ran 1.45-1.6x faster)
            open_count = U16(0)
            block_count = U16(0)
            for x in range(row_size):
                found = U16(U16(block_hits[x]) | U16(U16(from_rotated[x]) << shift))
                was_clicks = block_clicks[x]
                was_sole = block_sole[x]
                was_avoiding = block_avoiding[x]
                fresh = (was_clicks == unset) & (found != 0)
                single = U16(found & U16(found - one)) == 0
                sole_bit = U16(one << U16(was_sole & U8(15)))
                late = ((was_clicks != unset) & (was_sole != unset)
                        & (was_avoiding == unset) & (U16(found & U16(~sole_bit)) != 0))
                # the single click's square by mask tests, which vectorise in 16-bit
                # lanes (AVX2 has no vector popcount): found is a power of two here
                lowest = U8(U8(U16(found & U16(0xAAAA)) != 0)
                            | U8(U8(U16(found & U16(0xCCCC)) != 0) << U8(1))
                            | U8(U8(U16(found & U16(0xF0F0)) != 0) << U8(2))
                            | U8(U8(U16(found & U16(0xFF00)) != 0) << U8(3)))
                now_clicks = this_level if fresh else was_clicks
                now_sole = lowest if fresh & single else was_sole
                now_avoiding = this_level if late else was_avoiding
                fresh_nodes = U16(all_clicks & U16(~found)) if single else all_clicks
                nodes = fresh_nodes if fresh else (sole_bit if late else U16(0))
                block_clicks[x] = now_clicks
                block_sole[x] = now_sole
                block_avoiding[x] = now_avoiding
                block_frontier[x] = U8(nodes & natural_bits)
                block_rotated[x] = U8(nodes >> shift)
                # popcount(nodes), from what it is made of
                block_count = U16(block_count + U16(U16(fresh) * U16(n_squares - U16(single)))
                                  + U16(late))
                is_open = ((now_clicks == unset)
                           | ((now_sole != unset) & (now_avoiding == unset)))
                open_count = U16(open_count + U16(is_open))
                open_rotated[x] |= U8(is_open)
            count += np.int64(block_count)
            if target_here:  # its nodes are the arrivals; its free node is the return
                x = target - base
                count -= popcount(block_frontier[x]) + popcount(block_rotated[x])
                arrived = block_hits[x] | from_rotated[x]
                block_clicks[x] = level if kept_clicks == unset and arrived else kept_clicks
                block_sole[x] = unset
                block_avoiding[x] = unset
                block_frontier[x] = 0
                block_rotated[x] = 0
            done[q * n_tiles + tile] = open_count == 0
        rotated_back = rotated_hits  # its hits are used: the same bytes, all rewritten
        for x in range(row_size):
            for q in range(row_size):
                rotated_back[x * row_size + q] = rotated_nodes[q * row_size + x]
            done_rotated[first + x] = open_rotated[x] == 0
        _pack_tile(natural_nodes, planes_next, 0, n_natural, region, words_per_tile)
        _pack_tile(rotated_back, planes_next, n_natural, n_rotated, region, words_per_tile)
        quiet_next[tile] = count == 0
        total += count
    return total


@njit(cache=True, nogil=True, parallel=True)
def _split_frontier(frontier, planes, n_natural, row_size, stride, words_per_tile):
    """From pushed levels to dense ones: the frontier (a uint16 a board, zeros but for the
    listed boards) as planes, tile by tile."""
    natural_bits = (1 << n_natural) - 1
    for tile in prange(stride // row_size):
        first = tile * row_size
        natural = _tile_bytes(row_size)
        rotated = _tile_bytes(row_size)
        for q in range(row_size):
            for x in range(row_size):
                nodes = frontier[q * stride + first + x]
                natural[q * row_size + x] = nodes & natural_bits
                rotated[x * row_size + q] = nodes >> n_natural
        region = tile * words_per_tile
        _pack_tile(natural, planes, 0, n_natural, region, words_per_tile)
        _pack_tile(rotated, planes, n_natural, planes.shape[0] - n_natural, region,
                   words_per_tile)


@njit("(uint64[:, ::1], uint16[::1], int64, int64, int64, int64)",
      cache=True, nogil=True, parallel=True)
def _merge_frontier(planes, frontier, n_natural, row_size, stride, words_per_tile):
    """From dense levels back to pushed ones: the planes as the frontier, a uint16 a
    board (every board written)."""
    for tile in prange(stride // row_size):
        first = tile * row_size
        natural = _tile_bytes(row_size)
        rotated = _tile_bytes(row_size)
        region = tile * words_per_tile
        _unpack_tile(planes, 0, n_natural, region, words_per_tile, natural)
        _unpack_tile(planes, n_natural, planes.shape[0] - n_natural, region, words_per_tile,
                     rotated)
        for q in range(row_size):
            for x in range(row_size):
                frontier[q * stride + first + x] = (np.uint16(natural[q * row_size + x])
                                                    | (np.uint16(rotated[x * row_size + q])
                                                       << n_natural))


AHEAD = 64
"""How many boards of a list ahead a pushed level asks for the lines it will touch: the
boards are anywhere in the arrays, and a line missed costs a full trip to memory."""


@njit(cache=True, inline="always")
def _prefetch_board(board, hits, hits_second, clicks, sole, avoiding, frontier):
    """Ask for the lines a pushed level's settling of ``board`` reads or writes."""
    prefetch(hits, board)
    prefetch(hits_second, board)
    prefetch(clicks, board)
    prefetch(sole, board)
    prefetch(avoiding, board)
    prefetch(frontier, board)


@njit(cache=True, nogil=True, parallel=True)
def _push(level, full, target, boards, n_boards_listed, frontier, hits, hits_second, touched,
          touched_second, split, n_high, colour_low, colour_high, retreat_low, retreat_high,
          clicks, sole, avoiding, never):
    """One pushed level from the listed frontier boards: each frontier node marks its
    predecessors, the two halves of the list on the two threads, each into its own hits
    array and list of boards touched (no write is shared); then every touched board is
    settled from both.  ``boards`` is rewritten with the next frontier's boards (returned:
    their number, and the number of nodes)."""
    n_touched = np.zeros(2, dtype=np.int64)
    for half in prange(2):
        into = hits if half == 0 else hits_second
        listing = touched if half == 0 else touched_second
        count = 0
        last = (half + 1) * n_boards_listed // 2
        for index in range(half * n_boards_listed // 2, last):
            if index + AHEAD < last:
                prefetch(frontier, boards[index + AHEAD])
            board = boards[index]
            mask = np.int64(frontier[board])
            frontier[board] = 0
            count = mark_predecessors(board, mask, split, n_high, colour_low, colour_high,
                                      retreat_low, retreat_high, into, listing, count)
        n_touched[half] = count
    # Settled on both threads as well: half 0 every board it touched, half 1 the boards
    # only it touched, so no board is settled twice and no write is shared.  The next
    # frontier's boards are listed from 0 (half 0) and from n_touched[0] (half 1, whose
    # boards are not in half 0's list: they fit), then moved together.
    listed = np.zeros(2, dtype=np.int64)
    nodes = np.zeros(2, dtype=np.int64)
    for half in prange(2):
        listing = touched if half == 0 else touched_second
        first = 0 if half == 0 else n_touched[0]
        count = 0
        for index in range(n_touched[half]):
            if index + AHEAD < n_touched[half]:
                _prefetch_board(listing[index + AHEAD], hits, hits_second, clicks, sole,
                                avoiding, frontier)
            board = listing[index]
            if half == 1 and hits[board] != 0:
                continue
            new = _step(board, np.int64(hits[board] | hits_second[board]), level, full,
                        target, clicks, sole, avoiding, never)
            if new:
                frontier[board] = new
                boards[first + count] = board
                count += 1
                nodes[half] += popcount(new)
        listed[half] = count
    for half in prange(2):  # after every settle: half 1 reads half 0's hits
        into = hits if half == 0 else hits_second
        listing = touched if half == 0 else touched_second
        for index in range(n_touched[half]):
            if index + AHEAD < n_touched[half]:
                prefetch(into, listing[index + AHEAD])
            into[listing[index]] = 0
    for index in range(listed[1]):  # moved down: a forward copy never overwrites its source
        boards[listed[0] + index] = boards[n_touched[0] + index]
    return listed[0] + listed[1], nodes[0] + nodes[1]


@njit("(uint16[::1], uint16[::1], uint16[::1], int32[::1], int64)",
      cache=True, nogil=True, parallel=True)
def _list_frontier(frontier, hits, hits_second, boards, row_size):
    """Back from dense levels to pushed ones: the frontier's boards listed in ``boards``
    (returned: how many), and the push's two scratch arrays cleared (the dense levels
    kept their arrays in that memory).  Each thread lists its half of the boards, then
    the second half's list is moved up."""
    half = (frontier.shape[0] // row_size + 1) // 2 * row_size
    counts = np.zeros(2, dtype=np.int64)
    for part in prange(2):
        first = part * half
        last = min(first + half, frontier.shape[0])
        hits[first:last] = 0
        hits_second[first:last] = 0
        count = first
        for board in range(first, last):
            if frontier[board]:
                boards[count] = board
                count += 1
        counts[part] = count - first
    for index in range(counts[1]):  # moved down: a forward copy never overwrites its source
        boards[counts[0] + index] = boards[half + index]
    return counts[0] + counts[1]


@njit(cache=True, nogil=True, parallel=True)
def _rotate(natural, rotated, row_size, stride):
    """rotated[x * row_size + q] = natural[q * stride + x], in tiles."""
    for tile in prange(stride // row_size):
        first = tile * row_size
        for q in range(row_size):
            for x in range(first, first + row_size):
                rotated[x * row_size + q] = natural[q * stride + x]


@njit(cache=True, nogil=True, parallel=True)
def _deltas(layout_rotated, square, length, n_streams, row_size, stride, split, n_high,
            colour_low, colour_high, advance_low, advance_high, out):
    """The successor offset of each stream of one click in one layout."""
    for stream in prange(n_streams):
        rank = stream * length
        board = (rank % row_size) * stride + rank // row_size if layout_rotated else rank
        following = click_rank(board, square, split, n_high, colour_low, colour_high, advance_low,
                           advance_high)
        if layout_rotated:
            following = (following % stride) * row_size + following // stride
        out[stream] = following - rank


def _untouched_low_rows(order: list[int], row: int) -> int:
    """Rows at the low end of a layout (``order``: rows from the most significant) that a
    click in ``row`` leaves alone."""
    count = 0
    for layout_row in reversed(order):
        if abs(layout_row - row) <= 1:
            break
        count += 1
    return count


@lru_cache(maxsize=4)
def stream_plan(width: int, height: int):
    """Per click: its layout (natural, or rows rotated), its stream length and the delta
    of every stream; with the half tables the push uses.  Built once per board shape."""
    from puzzles.tricolore.rules import Tricolore

    rules = Tricolore(width, height)
    tables = rules.half_tables()
    row_size = 3**width
    stride = rules.n_boards // row_size
    natural = list(range(height))
    rotated = [*range(1, height), 0]
    plan = {"natural": [], "rotated": []}
    for square in range(rules.n_squares):
        row = square // width
        lengths = {"natural": row_size ** _untouched_low_rows(natural, row),
                   "rotated": row_size ** _untouched_low_rows(rotated, row)}
        layout = "natural" if lengths["natural"] >= lengths["rotated"] else "rotated"
        length = lengths[layout]
        deltas = np.empty(rules.n_boards // length, dtype=np.int64)
        _deltas(layout == "rotated", square, length, len(deltas), row_size, stride,
                tables["split"], tables["n_high"], tables["colour_low"], tables["colour_high"],
                tables["advance_low"], tables["advance_high"], deltas)
        plan[layout].append((square, length, deltas))
    packed = {}
    for layout, entries in plan.items():
        squares = np.array([e[0] for e in entries], dtype=np.int64)
        lengths = np.array([e[1] for e in entries], dtype=np.int64)
        sizes = [len(e[2]) for e in entries]
        offsets = np.array(np.cumsum([0, *sizes])[:-1], dtype=np.int64)
        deltas = (np.concatenate([e[2] for e in entries]) if entries
                  else np.zeros(0, dtype=np.int64))
        packed[layout] = (squares, lengths, offsets, deltas)
    # The backward search's layouts keep their own clicks' bits (bit i: the layout's i-th
    # click), which needs the natural layout's clicks to be squares 0 .. n - 1 in order:
    # clicks in rows 0-1 (whose lowest rows, in the natural layout, stay untouched).
    if [e[0] for e in plan["natural"] + plan["rotated"]] != list(range(rules.n_squares)):
        raise AssertionError("the stream plan's layouts do not split the squares in order")
    return rules, tables, row_size, stride, packed


@lru_cache(maxsize=4)
def plane_sources(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Each layout's table of where its clicks' blocks pull from in the planes
    (``_source_bits``): read a tile at a time, so a dense level's pulls do no division.
    Built once per board shape."""
    rules, _, row_size, stride, plan = stream_plan(width, height)
    words_per_tile, _ = plane_words(rules.n_boards, row_size)
    sources = []
    for layout in ("natural", "rotated"):
        _, lengths, offsets, deltas = plan[layout]
        out = np.empty((len(lengths), rules.n_boards // row_size), dtype=np.int32)
        _source_bits(layout == "rotated", lengths, offsets, deltas, row_size, stride,
                     words_per_tile, out)
        sources.append(out)
    return sources[0], sources[1]


def backward_covers(width: int, height: int) -> bool:
    """The backward stream search's boards: 2+ rows, and a byte holds each layout's clicks
    (rows 0-1 in the natural layout, the other rows in the rotated one), as on 4×4.
    Wider boards go to the general kernel (two-byte layouts cost a second compilation of
    every kernel for boards nobody plays)."""
    return height >= 2 and 2 * width <= 8 and (height - 2) * width <= 8


def _pushes(frontier_nodes: int, open_boards: int) -> bool:
    """Whether the next level is pushed (else pulled densely).  A dense level visits the
    blocks not yet done (pushed levels settle boards but never open one, so the flags stay
    true): in the tail most blocks are done, and a dense level there costs less than going
    back to the boards' lists."""
    return frontier_nodes * PUSH_FRACTION < open_boards


def _buffers(n_boards: int, row_size: int, n_planes: int, kept: dict | None
             ) -> dict[str, np.ndarray]:
    """The search's arrays, set to their starting values; taken from ``kept`` (and left
    there) when given, so that a run of searches touches fresh memory once: on a virtual
    machine, first touches cost as much as a third of a search.  The distances (clicks,
    sole, avoiding) are the engine's ``unreached`` arrays.  The dense levels' two
    sets of planes (the frontier a level reads, and the one it writes) live in the memory
    of the pushed levels' two scratch arrays, each made large enough for both."""
    _, words_per_plane = plane_words(n_boards, row_size)
    memory_words = max(-(-n_boards * 2 // 8), n_planes * words_per_plane)
    n_tiles = n_boards // row_size**2
    buffers = kept if kept is not None else {}
    for name in ("clicks", "sole", "avoiding"):
        array = buffers.get(name)
        if array is None or array.shape != (n_boards,):
            buffers[name] = unreached(n_boards)
        else:
            _fill(array, never_of(array))
    shapes = {"frontier": (n_boards, np.uint16, 0),
              "hits_memory": (memory_words, np.uint64, 0),
              "hits_second_memory": (memory_words, np.uint64, 0),
              "done": (n_boards // row_size, np.bool_, False),
              "done_rotated": (n_boards // row_size, np.bool_, False),
              "quiet": (n_tiles, np.bool_, False), "quiet_second": (n_tiles, np.bool_, False),
              # board lists for the pushed levels (need no starting value)
              "boards": (n_boards, np.int32, None), "touched": (n_boards, np.int32, None),
              "touched_second": (n_boards, np.int32, None)}
    for name, (size, dtype, start) in shapes.items():
        array = buffers.get(name)
        if array is None or array.shape != (size,):
            # zeros are mapped lazily: the kernels touch those pages in parallel
            if not start:
                buffers[name] = np.zeros(size, dtype)
                continue
            array = buffers[name] = np.empty(size, dtype)
        if start is not None:
            _fill(array, start)
    for memory, scratch, planes in (("hits_memory", "hits", "planes"),
                                    ("hits_second_memory", "hits_second", "planes_second")):
        buffers[scratch] = buffers[memory].view(np.uint16)[:n_boards]
        buffers[planes] = buffers[memory][: n_planes * words_per_plane].reshape(
            n_planes, words_per_plane)
    return buffers


@njit(["(uint8[::1], int64)", "(uint16[::1], int64)", "(uint64[::1], int64)",
       "(boolean[::1], boolean)"], cache=True, nogil=True, parallel=True)
def _fill(array, value):
    """``array[:] = value`` on both threads: fresh pages are first touched in parallel."""
    half = array.shape[0] // 2
    for part in prange(2):
        array[part * half : array.shape[0] if part else half] = value


def search_target_streams(width: int, height: int, target: int, progress=None,
                          kept: dict | None = None):
    """Backward search from ``target``; returns (clicks, sole, avoiding) as
    ``target_search.search_target`` does.  ``progress(level, frontier_nodes)`` is called
    after each level.  ``kept``: a dict the search keeps its arrays in between calls (the
    returned arrays are then overwritten by the next search)."""
    if not backward_covers(width, height):
        raise ValueError("the backward stream search covers boards of 2+ rows whose rows 0-1 "
                         "and rows 2+ have at most 8 squares each")
    rules, tables, row_size, stride, plan = stream_plan(width, height)
    n_boards = rules.n_boards
    full = (1 << rules.n_squares) - 1
    n_natural = len(plan["natural"][0])
    words_per_tile, _ = plane_words(n_boards, row_size)
    # each layout's pull: its source table, and its clicks' lengths, offsets and deltas
    pulls = (*plane_sources(width, height), *plan["natural"][1:], *plan["rotated"][1:])
    buffers = _buffers(n_boards, row_size, rules.n_squares, kept)
    clicks, sole, avoiding = buffers["clicks"], buffers["sole"], buffers["avoiding"]
    never = never_of(clicks)
    frontier, hits, hits_second = buffers["frontier"], buffers["hits"], buffers["hits_second"]
    planes = [buffers["planes"], buffers["planes_second"]]
    quiet = [buffers["quiet"], buffers["quiet_second"]]
    done, done_rotated = buffers["done"], buffers["done_rotated"]
    boards, touched = buffers["boards"], buffers["touched"]
    touched_second = buffers["touched_second"]
    frontier[target] = full
    boards[0], listed, nodes = target, 1, rules.n_squares
    dense = False  # the frontier is in planes[reading] (else: listed in ``boards``)
    reading = 0
    level = 0
    while nodes:
        level += 1
        if level >= never:
            raise OverflowError(f"search deeper than {never - 1} levels")
        if _pushes(nodes, n_boards - np.count_nonzero(done) * row_size):
            if dense:
                _merge_frontier(planes[reading], frontier, n_natural, row_size, stride,
                                words_per_tile)
                listed = _list_frontier(frontier, hits, hits_second, boards, row_size)
                dense = False
            listed, nodes = _push(level, full, target, boards, listed, frontier, hits,
                                  hits_second, touched, touched_second, tables["split"],
                                  tables["n_high"], tables["colour_low"],
                                  tables["colour_high"], tables["retreat_low"],
                                  tables["retreat_high"], clicks, sole, avoiding, never)
        else:
            if not dense:  # every tile's words written: no set of planes need be zeros
                _split_frontier(frontier, planes[reading], n_natural, row_size, stride,
                                words_per_tile)
                for flags in quiet:
                    flags[:] = False
                dense = True
            nodes = _dense_level(level, full, target, planes[reading], planes[1 - reading],
                                 quiet[1 - reading], *pulls, clicks, sole, avoiding, done,
                                 done_rotated, row_size, stride, words_per_tile, never)
            reading = 1 - reading
        if progress is not None:
            progress(level, nodes)
    buffers["frontier_planes"] = planes[reading]
    return clicks, sole, avoiding


@njit("int64[::1](uint8[::1])", cache=True, nogil=True, parallel=True)
def byte_histogram(values):
    """How many entries of a uint8 array hold each value (256 counts), on every core: a
    search's distance histogram in a hundredth of numpy's time (``np.bincount`` first
    widens every entry to eight bytes)."""
    n_parts = 64
    counts = np.zeros((n_parts, 256), dtype=np.int64)
    size = values.shape[0]
    for part in prange(n_parts):
        row = counts[part]
        for index in range(part * size // n_parts, (part + 1) * size // n_parts):
            row[values[index]] += 1
    return counts.sum(axis=0)


# --- forward reachability in streams ---------------------------------------------------

@njit(cache=True, nogil=True)
def _push_streams(frontier, following, squares, lengths, offsets, deltas, row_size):
    """``following``: bit c at every node click c leads to from a frontier node whose last
    click was not c; in one layout, click by click, a block of ``row_size`` boards (one
    delta) at a time.  Successors may coincide (a click is not invertible), so each layout
    writes its own array."""
    following[:] = 0
    n_blocks = frontier.shape[0] // row_size
    for index in range(squares.shape[0]):
        bit = np.uint16(1 << squares[index])
        others = np.uint16(~bit)
        length = lengths[index]
        for block in range(n_blocks):
            base = block * row_size
            source = frontier[base : base + row_size]
            if length >= row_size:  # one delta for the block: a contiguous stream
                into_base = base + deltas[offsets[index] + base // length]
                into = following[into_base : into_base + row_size]
                for j in range(row_size):
                    into[j] |= bit * np.uint16((source[j] & others) != 0)
            else:  # boards of three rows: a click in the middle row touches every row
                for j in range(row_size):
                    rank = base + j
                    following[rank + deltas[offsets[index] + rank]] |= bit * np.uint16(
                        (source[j] & others) != 0)


@njit(cache=True, nogil=True, parallel=True)
def _push_both_layouts(frontier, frontier_rotated, following, following_rotated,
                       squares, lengths, offsets, deltas, squares_rotated, lengths_rotated,
                       offsets_rotated, deltas_rotated, row_size):
    """The two layouts' pushes, one per thread (each writes its own array)."""
    for layout in prange(2):
        if layout == 0:
            _push_streams(frontier, following, squares, lengths, offsets, deltas, row_size)
        else:
            _push_streams(frontier_rotated, following_rotated, squares_rotated,
                          lengths_rotated, offsets_rotated, deltas_rotated, row_size)


@njit(cache=True, nogil=True, parallel=True)
def _settle_forward(following, following_rotated, visited, frontier, row_size, stride):
    """Both layouts' arrivals merged: the nodes not visited before become the frontier
    (natural layout) and are marked visited; returns their number."""
    total = 0
    for tile in prange(stride // row_size):
        first = tile * row_size
        count = 0
        for q in range(row_size):
            for x in range(first, first + row_size):
                board = q * stride + x
                arrived = following[board] | following_rotated[x * row_size + q]
                new = arrived & ~visited[board]
                visited[board] |= new
                frontier[board] = new
                count += popcount(new)
        total += count
    return total


def forward_reachable_streams(width: int, height: int, start: int, progress=None
                              ) -> np.ndarray:
    """Boards reachable from ``start`` by one or more clicks (a forward search over every
    (board, last click) node, pushed in streams in both layouts at once); a bool array
    over boards, equal to ``target_search.forward_reachable``.  ``progress(level,
    new_nodes)`` after each level."""
    rules, tables, row_size, stride, plan = stream_plan(width, height)
    if rules.n_squares > 16 or height < 2:
        raise ValueError("the stream search covers boards of 2+ rows and at most 16 squares")
    n_boards = rules.n_boards
    visited = np.zeros(n_boards, np.uint16)
    frontier = np.zeros(n_boards, np.uint16)
    frontier_rotated = np.zeros(n_boards, np.uint16)
    following = np.zeros(n_boards, np.uint16)
    following_rotated = np.zeros(n_boards, np.uint16)
    for square in range(rules.n_squares):  # the start has no last click: any square
        result = click_rank(start, square, tables["split"], tables["n_high"],
                            tables["colour_low"], tables["colour_high"], tables["advance_low"],
                            tables["advance_high"])
        visited[result] |= 1 << square
        frontier[result] |= 1 << square
    level, nodes = 1, rules.n_squares
    while nodes:
        _rotate(frontier, frontier_rotated, row_size, stride)
        _push_both_layouts(frontier, frontier_rotated, following, following_rotated,
                           *plan["natural"], *plan["rotated"], row_size)
        nodes = _settle_forward(following, following_rotated, visited, frontier, row_size,
                                stride)
        level += 1
        if progress is not None:
            progress(level, nodes)
    return visited != 0
