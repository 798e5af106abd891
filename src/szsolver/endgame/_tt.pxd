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

One table may serve several threads at once (``tt_share``): no locks. A slot is
four 64-bit words written and read one word at a time, so a reader may see words of
two writes mixed; the first word is the key sealed with a hash of the other three
(``sz_tt_seal``), so a mixed slot does not pass for its key and reads as empty (as
likely to pass as two positions are to share a 64-bit key). Every entry is a fact
about its position, whoever wrote it; two stores to one slot at once keep one of
them, and a lost bound is only work to redo.

A stored turn may belong to another position (a key collision): callers check it
with ``_common.turn_is_legal`` before playing it.
"""
from libc.stdint cimport uint64_t, int16_t, uint8_t

from szsolver.rules._core cimport sz_popcount
from szsolver.endgame._common cimport INF, SZ_DEBUG, sz_debug_check


cdef extern from *:
    """
    #include <stdint.h>
    #define sz_prefetch(p) __builtin_prefetch((p), 0, 1)
    /* A slot as stored: 32 bytes, a bucket of two is one 64-byte cache line. */
    typedef struct {
        uint64_t lock;     /* the key ^ sz_tt_seal(data, fp_lo, fp_hi) */
        uint64_t data;     /* lo, hi, turn + 1 (16 bits each), turns left, used (8 bits each) */
        uint64_t fp_lo;    /* footprint of the proof of lo */
        uint64_t fp_hi;    /* footprint of the proof of hi */
    } sz_tt_slot;
    /* Word by word, relaxed: other threads may write the slot meanwhile. */
    #define sz_tt_get(p) __atomic_load_n((p), __ATOMIC_RELAXED)
    #define sz_tt_put(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
    static inline uint64_t sz_tt_seal(uint64_t data, uint64_t fp_lo, uint64_t fp_hi) {
        /* Words multiplied by distinct odd constants, then a 64-bit finaliser: a
           difference in one word cannot be cancelled by one in another. */
        uint64_t x = data * 0x9e3779b97f4a7c15ULL ^ fp_lo * 0xc2b2ae3d27d4eb4fULL
                     ^ fp_hi * 0x165667b19e3779f9ULL;
        x ^= x >> 31; x *= 0x7fb5d329728ea185ULL;
        x ^= x >> 27; x *= 0x81dadef4bc2dd44dULL;
        return x ^ (x >> 33);
    }
    static inline uint64_t sz_tt_pack(int lo, int hi, int move, int tl) {
        return (uint64_t)(uint16_t)lo | ((uint64_t)(uint16_t)hi << 16)
               | ((uint64_t)(uint16_t)move << 32) | ((uint64_t)(uint8_t)tl << 48)
               | ((uint64_t)1 << 56);
    }
    """
    ctypedef struct sz_tt_slot:
        uint64_t lock
        uint64_t data
        uint64_t fp_lo
        uint64_t fp_hi
    void sz_prefetch(const void* p) noexcept nogil
    uint64_t sz_tt_get(const uint64_t* p) noexcept nogil
    void sz_tt_put(uint64_t* p, uint64_t v) noexcept nogil
    uint64_t sz_tt_seal(uint64_t data, uint64_t fp_lo, uint64_t fp_hi) noexcept nogil
    uint64_t sz_tt_pack(int lo, int hi, int move, int tl) noexcept nogil


cdef struct TTEntry:                    # an entry read out of its slot (a copy)
    uint64_t key       # the position's zobrist key
    int16_t lo         # proved lower bound on the exact value (mover's view)
    int16_t hi         # proved upper bound
    int16_t move       # best turn + 1 (0: none; turn 0 is a real turn)
    uint8_t tl         # turns left at the entry (replacement priority)
    uint8_t used       # 1 once the slot holds an entry
    uint64_t fp_lo     # footprint of the proof of lo (points it plays on; ~0: unknown)
    uint64_t fp_hi     # footprint of the proof of hi


cdef struct TT:
    sz_tt_slot* slots  # 2 * (mask + 1) slots, 2 MiB-aligned: bucket k is slots[2k], slots[2k + 1]
    void* block        # the mapping the slots lie in (NULL when the table is another's)
    size_t block_len   # its length
    uint64_t mask      # buckets - 1 (buckets: a power of two)
    long long size     # entries (2 * buckets)
    long long probes   # lookups (this thread's)
    long long hits     # lookups that found their key
    long long stores   # stores (new entries and merges)
    long long used     # entries this thread filled


cdef int tt_init(TT* tt, long long entries) except -1
cdef void tt_share(TT* tt, const TT* owner) noexcept
cdef void tt_free(TT* tt) noexcept


cdef inline void tt_prefetch(const TT* tt, uint64_t key) noexcept nogil:
    """Start loading ``key``'s bucket into the cache (a sibling searched next probes
    it: the table is far larger than the cache, so a probe is a memory load)."""
    sz_prefetch(&tt.slots[(key & tt.mask) * 2])


cdef inline bint tt_read(const sz_tt_slot* p, TTEntry* out) noexcept nogil:
    """Copy slot ``p`` into ``out``; False when it is empty or was read while being
    written (its seal does not match)."""
    cdef uint64_t lock = sz_tt_get(&p.lock)
    cdef uint64_t data = sz_tt_get(&p.data)
    out.fp_lo = sz_tt_get(&p.fp_lo)
    out.fp_hi = sz_tt_get(&p.fp_hi)
    if not (data >> 56):
        return 0
    out.key = lock ^ sz_tt_seal(data, out.fp_lo, out.fp_hi)
    out.lo = <int16_t>(data & 0xffff)
    out.hi = <int16_t>((data >> 16) & 0xffff)
    out.move = <int16_t>((data >> 32) & 0xffff)
    out.tl = <uint8_t>((data >> 48) & 0xff)
    out.used = 1
    return 1


cdef inline void tt_write(sz_tt_slot* p, const TTEntry* e) noexcept nogil:
    cdef uint64_t data = sz_tt_pack(e.lo, e.hi, e.move, e.tl)
    sz_tt_put(&p.lock, e.key ^ sz_tt_seal(data, e.fp_lo, e.fp_hi))
    sz_tt_put(&p.data, data)
    sz_tt_put(&p.fp_lo, e.fp_lo)
    sz_tt_put(&p.fp_hi, e.fp_hi)


cdef inline TTEntry* tt_find(TT* tt, uint64_t key, TTEntry* out) noexcept nogil:
    """The entry stored for ``key``, copied into ``out`` (returned), or NULL."""
    cdef sz_tt_slot* p = &tt.slots[(key & tt.mask) * 2]
    tt.probes += 1
    if (tt_read(&p[0], out) and out.key == key) or (tt_read(&p[1], out) and out.key == key):
        tt.hits += 1
        return out
    return NULL


cdef inline void tt_store(TT* tt, uint64_t key, int lo, int hi, int move, int tl,
                          uint64_t fp_lo, uint64_t fp_hi) noexcept nogil:
    """Record that the exact value of ``key``'s position lies in [lo, hi] and that
    ``move`` (-1: none) is its best turn found; ``tl``: its turns left; ``fp_lo`` /
    ``fp_hi``: the footprints of the two bounds' proofs (~0: unknown)."""
    cdef sz_tt_slot* p = &tt.slots[(key & tt.mask) * 2]
    cdef TTEntry e0, e1, t
    cdef bint ok0 = tt_read(&p[0], &e0), ok1 = tt_read(&p[1], &e1)
    cdef int k
    tt.stores += 1
    if ok0 and e0.key == key:
        t = e0
        k = 0
    elif ok1 and e1.key == key:
        t = e1
        k = 1
    else:
        if not ok1:
            tt.used += 1
        if not ok0 or tl >= e0.tl:
            if ok0:
                tt_write(&p[1], &e0)
            k = 0
        else:
            k = 1
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
    tt_write(&p[k], &t)
