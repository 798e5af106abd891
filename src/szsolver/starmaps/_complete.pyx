# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""C-level local search for complete starmaps (see :mod:`szsolver.starmaps.complete`).

State: the stars, and for every line of sight (a *segment*: a line of the board,
cut at blocked points under the Advanced rule) a 64-bit mask of the occupied
positions. A star's pattern follows in O(axes) from the masks of its segments:
it has a forward beam when a higher bit is set and a backward beam when a lower
one is. Moving a star changes the patterns of at most the nearest stars on its
old and new lines, so a move is scored in O(axes).

Search: min-conflicts with a tabu list. Cost = number of stars whose pattern is
a duplicate (+ adjacent pairs in good form). Each step takes a star with a
duplicated pattern, scores every empty point for it and moves it to the best
(random tie-break, recently vacated points tabu unless they beat the best cost
seen), with a little random noise; a long stall restarts from a new random
placement. All randomness comes from one xorshift64* stream seeded by the
caller, so a seed always gives the same starmap.
"""
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint64_t, int64_t
from libc.string cimport memset

from szsolver.rules._random cimport random_below

cdef extern from "Python.h":
    int PyErr_CheckSignals_raw "PyErr_CheckSignals" ()

cdef enum:
    SIGNAL_EVERY = 256      # steps between Ctrl-C checks (~10 ms on the hex board)


cdef int _signalled() noexcept nogil:
    """Run Python's signal handlers (main thread); 1 if one raised. The exception
    stays set: :func:`search` re-raises it once the GIL is back."""
    with gil:
        return PyErr_CheckSignals_raw() != 0


cdef int _reraise() except -1:
    return -1               # an exception is set: -1 makes Cython propagate it

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil


cdef inline int _hi(uint64_t m) noexcept nogil:
    return 63 - __builtin_clzll(m)


cdef inline int _lo(uint64_t m) noexcept nogil:
    return __builtin_ctzll(m)


cdef struct State:
    int n, A, K, nseg, ncand
    int *seg        # seg[a*n+p] segment of p on axis a (-1: not a star point)
    int *pos        # pos[a*n+p] position of p in that segment
    int *segcell    # segcell[s*64+k]
    int *fwd        # fwd[a] direction bit when a higher position holds a star
    int *bwd
    int *cand       # the points a star may use
    int *nbr_start  # adjacency (good form)
    int *nbr
    int *lc         # lc[a*n+p] line coordinate across axis a (good form: inside)
    uint64_t *mask
    int *starat     # star index on point p or -1
    int *spos       # point of star i
    int *pat        # pattern of star i
    int *cnt        # stars per pattern
    int *tabu       # step until which a point is tabu
    int cost, adj, good


cdef inline int _pattern(State *S, int p) noexcept nogil:
    cdef int a, s, k, out = 0
    cdef uint64_t m
    for a in range(S.A):
        s = S.seg[a * S.n + p]
        k = S.pos[a * S.n + p]
        m = S.mask[s]
        if m >> (k + 1):
            out |= 1 << S.fwd[a]
        if m & ((<uint64_t>1 << k) - 1):
            out |= 1 << S.bwd[a]
    return out


cdef inline void _hist_add(State *S, int t) noexcept nogil:
    if S.cnt[t] >= 1:
        S.cost += 1
    S.cnt[t] += 1


cdef inline void _hist_del(State *S, int t) noexcept nogil:
    S.cnt[t] -= 1
    if S.cnt[t] >= 1:
        S.cost -= 1


cdef inline void _refresh(State *S, int p) noexcept nogil:
    """Recompute the pattern of the star on p (if any) from the masks."""
    cdef int i = S.starat[p]
    cdef int t
    if i < 0:
        return
    t = _pattern(S, p)
    if t != S.pat[i]:
        _hist_del(S, S.pat[i])
        _hist_add(S, t)
        S.pat[i] = t


cdef inline int _adjacent(State *S, int p) noexcept nogil:
    cdef int j, c = 0
    for j in range(S.nbr_start[p], S.nbr_start[p + 1]):
        if S.starat[S.nbr[j]] >= 0:
            c += 1
    return c


cdef void _refresh_near(State *S, int p) noexcept nogil:
    """Refresh the nearest stars on each line through p."""
    cdef int a, s, k
    cdef uint64_t m, below, above
    for a in range(S.A):
        s = S.seg[a * S.n + p]
        k = S.pos[a * S.n + p]
        m = S.mask[s]
        below = m & ((<uint64_t>1 << k) - 1)
        above = (m >> (k + 1)) << (k + 1)
        if below:
            _refresh(S, S.segcell[s * 64 + _hi(below)])
        if above:
            _refresh(S, S.segcell[s * 64 + _lo(above)])


cdef void _remove(State *S, int i) noexcept nogil:
    cdef int p = S.spos[i], a
    for a in range(S.A):
        S.mask[S.seg[a * S.n + p]] &= ~(<uint64_t>1 << S.pos[a * S.n + p])
    S.starat[p] = -1
    _hist_del(S, S.pat[i])
    S.pat[i] = -1
    if S.good:
        S.adj -= _adjacent(S, p)
    _refresh_near(S, p)


cdef void _place(State *S, int i, int p) noexcept nogil:
    cdef int a
    if S.good:
        S.adj += _adjacent(S, p)
    for a in range(S.A):
        S.mask[S.seg[a * S.n + p]] |= <uint64_t>1 << S.pos[a * S.n + p]
    S.starat[p] = i
    S.spos[i] = p
    S.pat[i] = _pattern(S, p)
    _hist_add(S, S.pat[i])
    _refresh_near(S, p)


cdef int _eval_place(State *S, int p, int *tout) noexcept nogil:
    """Cost (duplicates) after a star is placed on the empty point p; state unchanged."""
    cdef int a, s, k, j, n_ch = 0, c
    cdef int oldp[16]
    cdef int newp[16]
    cdef uint64_t m, below, above
    cdef int t = 0
    for a in range(S.A):
        s = S.seg[a * S.n + p]
        k = S.pos[a * S.n + p]
        m = S.mask[s]
        below = m & ((<uint64_t>1 << k) - 1)
        above = (m >> (k + 1)) << (k + 1)
        if above:
            t |= 1 << S.fwd[a]
            j = S.starat[S.segcell[s * 64 + _lo(above)]]
            if not (S.pat[j] >> S.bwd[a]) & 1:
                oldp[n_ch] = S.pat[j]
                newp[n_ch] = S.pat[j] | (1 << S.bwd[a])
                n_ch += 1
        if below:
            t |= 1 << S.bwd[a]
            j = S.starat[S.segcell[s * 64 + _hi(below)]]
            if not (S.pat[j] >> S.fwd[a]) & 1:
                oldp[n_ch] = S.pat[j]
                newp[n_ch] = S.pat[j] | (1 << S.fwd[a])
                n_ch += 1
    # apply to the histogram, read the cost, undo
    for j in range(n_ch):
        _hist_del(S, oldp[j])
        _hist_add(S, newp[j])
    _hist_add(S, t)
    c = S.cost
    _hist_del(S, t)
    tout[0] = t
    for j in range(n_ch - 1, -1, -1):
        _hist_del(S, newp[j])
        _hist_add(S, oldp[j])
    return c


cdef int _inside_ok(State *S) noexcept nogil:
    """Good form: the all-blank star lies strictly inside the others on every axis."""
    cdef int i, b = -1, a, v, lo, hi, x
    for i in range(S.K):
        if S.pat[i] == 0:
            b = i
    if b < 0:
        return 0
    for a in range(S.A):
        v = S.lc[a * S.n + S.spos[b]]
        lo = 1 << 30
        hi = -(1 << 30)
        for i in range(S.K):
            if i != b:
                x = S.lc[a * S.n + S.spos[i]]
                if x < lo:
                    lo = x
                if x > hi:
                    hi = x
        if not (lo < v < hi):
            return 0
    return 1


cdef int _run(State *S, uint64_t *rng, int64_t max_steps, int64_t restart_after,
              int64_t *steps_done, int *restarts, int noise, int tenure, int tenure_rand, int adj_weight) noexcept nogil:
    cdef int64_t step = 0, last_improve = 0
    cdef int i, k, p, best_p, best_c, c, ties, nconf, best_ever, w, total
    cdef int *conf = <int *>malloc(S.K * sizeof(int))
    cdef int t, ci, tries
    cdef int found = 0
    cdef int hard = S.good and adj_weight < 0
    w = adj_weight if adj_weight > 0 else 1
    best_ever = 1 << 30
    while step < max_steps:
        if (step & (SIGNAL_EVERY - 1)) == 0 and _signalled():
            found = -1      # Ctrl-C: the caller re-raises
            break
        total = S.cost + (w * S.adj if S.good else 0)
        if total == 0:
            if not S.good or _inside_ok(S):
                found = 1
                break
            # good form almost reached but the blank star is on the rim: kick it
            for i in range(S.K):
                if S.pat[i] == 0:
                    _remove(S, i)
                    while True:
                        p = S.cand[random_below(rng, S.ncand)]
                        if S.starat[p] < 0:
                            break
                    _place(S, i, p)
                    break
            step += 1
            continue
        if total < best_ever:
            best_ever = total
            last_improve = step
        elif step - last_improve > restart_after:
            # restart from a fresh random placement
            restarts[0] += 1
            for i in range(S.K):
                _remove(S, i)
            for i in range(S.K):
                tries = 0
                while True:
                    p = S.cand[random_below(rng, S.ncand)]
                    tries += 1
                    if S.starat[p] < 0 and (not hard or tries > 1000 or not _adjacent(S, p)):
                        break
                _place(S, i, p)
            best_ever = 1 << 30
            last_improve = step
            step += 1
            continue
        # stars in conflict: duplicated pattern, or (good form) touching another star
        nconf = 0
        for i in range(S.K):
            if S.cnt[S.pat[i]] > 1 or (S.good and _adjacent(S, S.spos[i]) > 0):
                conf[nconf] = i
                nconf += 1
        i = conf[random_below(rng, nconf)]
        k = S.spos[i]
        _remove(S, i)
        best_p = -1
        best_c = 1 << 30
        ties = 0
        if random_below(rng, 1000) < noise:
            tries = 0
            while True:
                best_p = S.cand[random_below(rng, S.ncand)]
                tries += 1
                if S.starat[best_p] < 0 and best_p != k and (
                        not hard or tries > 1000 or not _adjacent(S, best_p)):
                    break
        else:
            for ci in range(S.ncand):
                p = S.cand[ci]
                if S.starat[p] >= 0 or p == k:
                    continue
                if hard and _adjacent(S, p):
                    continue
                c = _eval_place(S, p, &t)
                if S.good:
                    c += w * (S.adj + _adjacent(S, p))

                if S.tabu[p] > step and c >= best_ever:
                    continue
                if c < best_c:
                    best_c = c
                    best_p = p
                    ties = 1
                elif c == best_c:
                    ties += 1
                    if random_below(rng, ties) == 0:
                        best_p = p
            if best_p < 0:
                best_p = k
        _place(S, i, best_p)
        S.tabu[k] = <int>(step + tenure + random_below(rng, tenure_rand))
        step += 1
    free(conf)
    steps_done[0] = step
    return found


def search(int n, int A, list seg, list pos, list segcells, list fwd, list bwd, list cand,
           list nbr_start, list nbr, list lc, int good, unsigned long long seed,
           long long max_steps, long long restart_after, int noise=20, int tenure=6,
           int tenure_rand=8, int adj_weight=1, list init=None):
    """Run the local search. Returns (stars as a list of points or None, steps, restarts)."""
    cdef State S
    cdef int i, p, a
    cdef uint64_t rng = seed if seed else 0x9E3779B97F4A7C15ULL
    cdef int64_t steps = 0
    cdef int restarts = 0
    cdef int found
    memset(&S, 0, sizeof(State))
    S.n = n
    S.A = A
    S.K = 1 << (2 * A)
    S.nseg = len(segcells)
    S.ncand = len(cand)
    S.good = good
    if S.ncand < S.K:
        return None, 0, 0
    S.seg = <int *>malloc(A * n * sizeof(int))
    S.pos = <int *>malloc(A * n * sizeof(int))
    S.lc = <int *>malloc(A * n * sizeof(int))
    S.segcell = <int *>malloc(S.nseg * 64 * sizeof(int))
    S.fwd = <int *>malloc(A * sizeof(int))
    S.bwd = <int *>malloc(A * sizeof(int))
    S.cand = <int *>malloc(S.ncand * sizeof(int))
    S.nbr_start = <int *>malloc((n + 1) * sizeof(int))
    S.nbr = <int *>malloc((len(nbr) + 1) * sizeof(int))
    S.mask = <uint64_t *>malloc(S.nseg * sizeof(uint64_t))
    S.starat = <int *>malloc(n * sizeof(int))
    S.spos = <int *>malloc(S.K * sizeof(int))
    S.pat = <int *>malloc(S.K * sizeof(int))
    S.cnt = <int *>malloc(S.K * sizeof(int))
    S.tabu = <int *>malloc(n * sizeof(int))
    try:
        for i in range(A * n):
            S.seg[i] = seg[i]
            S.pos[i] = pos[i]
            S.lc[i] = lc[i]
        for i in range(S.nseg):
            for p in range(64):
                S.segcell[i * 64 + p] = -1
            for p in range(len(segcells[i])):
                S.segcell[i * 64 + p] = segcells[i][p]
            S.mask[i] = 0
        for a in range(A):
            S.fwd[a] = fwd[a]
            S.bwd[a] = bwd[a]
        for i in range(S.ncand):
            S.cand[i] = cand[i]
        for i in range(n + 1):
            S.nbr_start[i] = nbr_start[i]
        for i in range(len(nbr)):
            S.nbr[i] = nbr[i]
        for i in range(n):
            S.starat[i] = -1
            S.tabu[i] = 0
        for i in range(S.K):
            S.cnt[i] = 0
            S.pat[i] = -1
        S.cost = 0
        S.adj = 0
        # initial placement: the given stars, else random
        for i in range(S.K):
            if init is not None and i < len(init) and S.starat[<int>init[i]] < 0:
                p = init[i]
            else:
                while True:
                    p = S.cand[random_below(&rng, S.ncand)]
                    if S.starat[p] < 0:
                        break
            _place(&S, i, p)
        with nogil:
            found = _run(&S, &rng, max_steps, restart_after, &steps, &restarts, noise, tenure,
                         tenure_rand, adj_weight)
        if found < 0:
            _reraise()
        stars = sorted(S.spos[i] for i in range(S.K)) if found else None
        return stars, steps, restarts
    finally:
        free(S.seg); free(S.pos); free(S.lc); free(S.segcell); free(S.fwd); free(S.bwd)
        free(S.cand); free(S.nbr_start); free(S.nbr); free(S.mask); free(S.starat)
        free(S.spos); free(S.pat); free(S.cnt); free(S.tabu)
