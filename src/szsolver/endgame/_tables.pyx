# cython: language_level=3
"""Building the score tables (the scans are inline functions in ``_tables.pxd``)."""
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from szsolver.rules._core cimport sz_ctz, CORE_MAX_POINTS
from szsolver.endgame._common cimport picks_left, side_score, bit

cdef enum:
    # More sets than this for a side: no tables (building and scanning them would
    # cost more than the bounds save).
    MAX_SETS = 3000000


cdef long long n_sets(int n, int k) noexcept:
    """C(n, k), or MAX_SETS + 1 if it is larger."""
    cdef long long total = 1
    cdef int i
    if k < 0 or k > n:
        return 0
    if k > n - k:
        k = n - k
    for i in range(k):           # C(n, i + 1) = C(n, i) * (n - i) / (i + 1): exact, increasing
        total = total * (n - i) // (i + 1)
        if total > MAX_SETS:
            return MAX_SETS + 1
    return total


cdef int build_score_tables(ScoreTables* t, const Board* b, const State* s) except -1:
    """Score every set of root-empty points each side can still fill (Basic rule),
    sorted by score, best first. Leaves ``t.ready`` 0 when a side has no set or more
    than MAX_SETS of them. Raises MemoryError when the tables cannot be allocated."""
    cdef bb_t E = b.full & ~(s.stones[0] | s.stones[1] | s.neutral)
    cdef int pts[CORE_MAX_POINTS]
    cdef int idx[CORE_MAX_POINTS]
    cdef int n = 0, side, k, i, j, sc
    cdef long long total, cnt
    cdef long long bucket[MAX_SCORE + 2]
    cdef long long start[MAX_SCORE + 2]
    cdef bb_t m
    cdef bb_t* masks = NULL
    cdef uint8_t* scores = NULL
    memset(t, 0, sizeof(ScoreTables))
    m = E
    while m:
        pts[n] = sz_ctz(m)
        m &= m - 1
        n += 1
    for side in range(2):
        total = n_sets(n, picks_left(s, side))
        if total > MAX_SETS or total <= 0:
            return 0
    t.root_empty = E
    try:
        for side in range(2):
            k = picks_left(s, side)
            total = n_sets(n, k)
            masks = <bb_t*>malloc(total * sizeof(bb_t))
            scores = <uint8_t*>malloc(total * sizeof(uint8_t))
            t.sets[side] = <bb_t*>malloc(total * sizeof(bb_t))
            t.score[side] = <uint8_t*>malloc(total * sizeof(uint8_t))
            if masks == NULL or scores == NULL or t.sets[side] == NULL or t.score[side] == NULL:
                raise MemoryError(f"cannot allocate score tables of {total} sets")
            # every k-combination of the n points, in lexicographic order
            for i in range(k):
                idx[i] = i
            cnt = 0
            memset(bucket, 0, sizeof(bucket))
            while True:
                m = s.stones[side]
                for i in range(k):
                    m |= bit(pts[idx[i]])
                masks[cnt] = m & E
                sc = side_score(b, m, 0)     # <= MAX_SCORE: distinct patterns of <= 64 stones
                scores[cnt] = sc
                bucket[sc] += 1
                cnt += 1
                i = k - 1
                while i >= 0 and idx[i] == n - k + i:
                    i -= 1
                if i < 0:
                    break
                idx[i] += 1
                for j in range(i + 1, k):
                    idx[j] = idx[j - 1] + 1
            # counting sort, best score first
            start[MAX_SCORE] = 0
            for sc in range(MAX_SCORE - 1, -1, -1):
                start[sc] = start[sc + 1] + bucket[sc + 1]
            for i in range(cnt):
                sc = scores[i]
                t.sets[side][start[sc]] = masks[i]
                t.score[side][start[sc]] = sc
                start[sc] += 1
            free(masks)
            free(scores)
            masks = NULL
            scores = NULL
            t.n[side] = cnt
    except MemoryError:
        free(masks)
        free(scores)
        free_score_tables(t)
        raise
    t.ready = 1
    return 0


cdef void free_score_tables(ScoreTables* t) noexcept:
    cdef int side
    for side in range(2):
        free(t.sets[side])
        free(t.score[side])
        t.sets[side] = NULL
        t.score[side] = NULL
        t.n[side] = 0
    t.ready = 0
