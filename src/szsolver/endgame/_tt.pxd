# cython: language_level=3
"""Transposition table of the endgame search: fixed size, buckets of two entries,
keyed by the core's incremental zobrist key (stones, neutrals left, side, rule).

Every search runs to the end of the game, so an entry needs no depth: it holds a
proved interval [lo, hi] of the exact value (mover's view), the best turn found,
and each bound's footprint (Basic rule, ``OPT_FOOT`` in ``_search``: the points
the bound's proof plays on; all points when unknown). Entries with the same key
are merged (intervals intersected; a bound keeps the footprint of its proof). Replacement: slot 0
of a bucket keeps the entry with more turns left (nearer the root, costlier to
redo), slot 1 always takes the newcomer.

A stored turn may belong to another position (a key collision): callers check it
with ``_common.turn_is_legal`` before playing it.
"""
from libc.stdint cimport uint64_t, int16_t, uint8_t

from szsolver.rules._core cimport sz_popcount
from szsolver.endgame._common cimport INF, SZ_DEBUG, sz_debug_check


cdef struct TTEntry:                    # 32 bytes: a bucket of two is one cache line
    uint64_t key       # the position's zobrist key
    int16_t lo         # proved lower bound on the exact value (mover's view)
    int16_t hi         # proved upper bound
    int16_t move       # best turn + 1 (0: none; turn 0 is a real turn)
    uint8_t tl         # turns left at the entry (replacement priority)
    uint8_t used       # 1 once the slot holds an entry
    uint64_t fp_lo     # footprint of the proof of lo (points it plays on; ~0: unknown)
    uint64_t fp_hi     # footprint of the proof of hi


cdef struct TT:
    TTEntry* entries   # 2 * (mask + 1) entries: bucket k is entries[2k], entries[2k + 1]
    uint64_t mask      # buckets - 1 (buckets: a power of two)
    long long size     # entries (2 * buckets)
    long long probes   # lookups
    long long hits     # lookups that found their key
    long long stores   # stores (new entries and merges)
    long long used     # occupied entries


cdef extern from *:
    """
    #define sz_prefetch(p) __builtin_prefetch((p), 0, 1)
    """
    void sz_prefetch(const void* p) noexcept nogil


cdef int tt_init(TT* tt, long long entries) except -1
cdef void tt_free(TT* tt) noexcept


cdef inline void tt_prefetch(const TT* tt, uint64_t key) noexcept nogil:
    """Start loading ``key``'s bucket into the cache (a sibling searched next probes
    it: the table is far larger than the cache, so a probe is a memory load)."""
    sz_prefetch(&tt.entries[(key & tt.mask) * 2])


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


cdef inline void tt_store(TT* tt, uint64_t key, int lo, int hi, int move, int tl,
                          uint64_t fp_lo, uint64_t fp_hi) noexcept nogil:
    """Record that the exact value of ``key``'s position lies in [lo, hi] and that
    ``move`` (-1: none) is its best turn found; ``tl``: its turns left; ``fp_lo`` /
    ``fp_hi``: the footprints of the two bounds' proofs (~0: unknown)."""
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
        t.fp_lo = 0             # -INF and INF need no proof
        t.fp_hi = 0
    # A bound at least as strong replaces the stored one with its own footprint; an
    # equal one only when its footprint is smaller (fewer points: more neutrals skipped).
    if lo > t.lo or (lo == t.lo and sz_popcount(fp_lo) < sz_popcount(t.fp_lo)):
        t.lo = lo
        t.fp_lo = fp_lo
    if hi < t.hi or (hi == t.hi and sz_popcount(fp_hi) < sz_popcount(t.fp_hi)):
        t.hi = hi
        t.fp_hi = fp_hi
    if SZ_DEBUG:
        # Both intervals hold the exact value, so they meet (barring a key collision).
        sz_debug_check(t.lo <= t.hi, "TT interval merge gave lo > hi")
    if move >= 0:
        t.move = move + 1
