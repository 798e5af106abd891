# cython: language_level=3
"""Transposition table of the endgame search: fixed size, buckets of two entries,
keyed by the core's incremental zobrist key (stones, neutrals left, side, rule).

Every search runs to the end of the game, so an entry needs no depth: it holds a
proved interval [lo, hi] of the exact value (mover's view) and the best turn found.
Entries with the same key are merged (intervals intersected). Replacement: slot 0
of a bucket keeps the entry with more turns left (nearer the root, costlier to
redo), slot 1 always takes the newcomer.

A stored turn may belong to another position (a key collision): callers check it
with ``_common.turn_is_legal`` before playing it.
"""
from libc.stdint cimport uint64_t, int16_t, uint8_t

from szsolver.endgame._common cimport INF, SZ_DEBUG, sz_debug_check


cdef struct TTEntry:                    # 16 bytes
    uint64_t key       # the position's zobrist key
    int16_t lo         # proved lower bound on the exact value (mover's view)
    int16_t hi         # proved upper bound
    int16_t move       # best turn + 1 (0: none; turn 0 is a real turn)
    uint8_t tl         # turns left at the entry (replacement priority)
    uint8_t used       # 1 once the slot holds an entry


cdef struct TT:
    TTEntry* entries   # 2 * (mask + 1) entries: bucket k is entries[2k], entries[2k + 1]
    uint64_t mask      # buckets - 1 (buckets: a power of two)
    long long size     # entries (2 * buckets)
    long long probes   # lookups
    long long hits     # lookups that found their key
    long long stores   # stores (new entries and merges)
    long long used     # occupied entries


cdef int tt_init(TT* tt, long long entries) except -1
cdef void tt_free(TT* tt) noexcept


cdef inline TTEntry* tt_find(TT* tt, uint64_t key) noexcept nogil:
    """The entry stored for ``key``, or NULL."""
    cdef TTEntry* e = &tt.entries[(key & tt.mask) * 2]
    tt.probes += 1
    if e[0].used and e[0].key == key:
        tt.hits += 1
        return &e[0]
    if e[1].used and e[1].key == key:
        tt.hits += 1
        return &e[1]
    return NULL


cdef inline void tt_store(TT* tt, uint64_t key, int lo, int hi, int move, int tl) noexcept nogil:
    """Record that the exact value of ``key``'s position lies in [lo, hi] and that
    ``move`` (-1: none) is its best turn found; ``tl``: its turns left."""
    cdef TTEntry* e = &tt.entries[(key & tt.mask) * 2]
    cdef TTEntry* t
    tt.stores += 1
    if e[0].used and e[0].key == key:
        t = &e[0]
    elif e[1].used and e[1].key == key:
        t = &e[1]
    else:
        if not e[1].used:
            tt.used += 1
        if not e[0].used or tl >= e[0].tl:
            if e[0].used:
                e[1] = e[0]
            t = &e[0]
        else:
            t = &e[1]
        t.key = key
        t.lo = -INF
        t.hi = INF
        t.move = 0
        t.used = 1
        t.tl = tl
    if lo > t.lo:
        t.lo = lo
    if hi < t.hi:
        t.hi = hi
    if SZ_DEBUG:
        # Both intervals hold the exact value, so they meet (barring a key collision).
        sz_debug_check(t.lo <= t.hi, "TT interval merge gave lo > hi")
    if move >= 0:
        t.move = move + 1
