# cython: language_level=3
"""Move ordering of the endgame search (the ``order`` technique, with ``killer`` and
``early``): the TT turn, the killer, stones alone by a heuristic (with ``early``, used
the first few each followed by the same stone with a neutral on the opponent's best
point: often the refutation), then neutral turns with the neutral on the points best
for the opponent first (under the Advanced rule, with ``early``, with what a cut there
does to both scores).

"""
from szsolver.rules._core cimport Board, State, bb_t, sz_ctz, C_ADVANCED
from szsolver.endgame._common cimport MAX_SCORE, bit, empty_points, sort_by_key
from szsolver.endgame._leaves cimport Rays, fill_rays_of, scores_with_stone, scores_with_cut


cdef enum:
    CUT_WEIGHT = 3      # a point of score a cut takes or gives, against a stone's point (measured)


cdef inline void sort_by_small_key(int* pts, const int* key, int n) noexcept nogil:
    """``sort_by_key`` (descending, ties in the order given), by counting when the keys
    lie in 0..2 * MAX_SCORE + 1 (scores and sums of two): the same order in O(n +
    keys) instead of O(n^2)."""
    cdef int count[2 * MAX_SCORE + 2]
    cdef int tmp[64]
    cdef int i, k, hi = 0, lo = 0, pos = 0, c
    for i in range(n):
        if key[pts[i]] > hi:
            hi = key[pts[i]]
        if key[pts[i]] < lo:
            lo = key[pts[i]]
    if lo < 0 or hi > 2 * MAX_SCORE + 1:
        sort_by_key(pts, key, n)
        return
    for k in range(hi + 1):
        count[k] = 0
    for i in range(n):
        count[key[pts[i]]] += 1
    for k in range(hi, -1, -1):        # start of each key's run, highest key first
        c = count[k]
        count[k] = pos
        pos += c
    for i in range(n):
        tmp[count[key[pts[i]]]] = pts[i]
        count[key[pts[i]]] += 1
    for i in range(n):
        pts[i] = tmp[i]


cdef int gen_ordered(const Board* b, const State* s, int* out, int ttmove, int with_neutrals,
                     int killer, int early, int killer2) noexcept nogil:
    """All legal turns into ``out`` (room for MAX_NODE_TURNS), ordered: the TT turn
    (legal: checked by the caller), the killer (the turn that last refuted a sibling
    at this ply, if legal here; a neutral killer heads the neutral turns instead
    under the Basic rule), the second killer ``killer2`` (the cutoff before; if legal,
    and under the Basic rule a stone alone), stones alone by heuristic, the first ``early`` of
    them each followed by itself with a neutral on the opponent's best other point,
    then the other neutral turns (Advanced, with ``early``: the neutral's point ranked
    with what a cut there does to both scores). Apart from the TT turn and the killer, a stone alone
    comes before its neutral turns (the footprint and monotonicity rules skip neutral
    turns after their stone alone)."""
    cdef int me = s.side, op = me ^ 1
    cdef bb_t V = empty_points(b, s), e
    cdef bb_t nb = s.neutral if s.rule == C_ADVANCED else 0
    cdef int pts[64]
    cdef int nts[64]
    cdef int key[64]
    cdef int okey[64]
    cdef int n = 0, k = 0, i, j, p, q, t
    cdef Rays rays
    cdef int ocut[64]           # Advanced: each side's score with one more neutral on q
    cdef int mcut[64]
    cdef int nkey[64]
    cdef int so, sm
    cdef bint killer_done = 0
    # each side's score with one more stone, counted incrementally from the rays
    fill_rays_of(b, nb, V, &rays)
    scores_with_stone(b, s.stones[op], nb, &rays, V, okey)
    scores_with_stone(b, s.stones[me], nb, &rays, V, key)
    e = V
    while e:
        p = sz_ctz(e)
        e &= e - 1
        key[p] += okey[p]
        pts[n] = p
        nts[n] = p
        n += 1
    sort_by_small_key(pts, key, n)
    if early > 0 and s.rule == C_ADVANCED and with_neutrals and s.left[me] > 0:
        # A neutral also cuts beams: its point ranks by the opponent's score with a
        # stone there, plus what a cut there takes from the opponent's score now and
        # adds to ours (each weighted CUT_WEIGHT). With ``early`` only: the published
        # endgame puzzles pin the ordering without it.
        so = scores_with_cut(b, s.stones[op], nb, &rays, V, ocut)
        sm = scores_with_cut(b, s.stones[me], nb, &rays, V, mcut)
        for i in range(n):
            p = nts[i]
            nkey[p] = (okey[p] + CUT_WEIGHT * (so - ocut[p] if so > ocut[p] else 0)
                       + CUT_WEIGHT * (mcut[p] - sm if mcut[p] > sm else 0))
        sort_by_small_key(nts, nkey, n)
    else:
        sort_by_small_key(nts, okey, n)
    if ttmove >= 0:
        out[k] = ttmove
        k += 1
    if killer >= 0 and killer != ttmove and (V >> (killer & 63)) & 1:
        q = (killer >> 6) - 1
        if q < 0:
            out[k] = killer
            k += 1
        elif not (with_neutrals and s.left[me] > 0 and (V >> q) & 1 and q != (killer & 63)):
            killer = -1
        elif s.rule == C_ADVANCED:
            # Advanced: a neutral killer too comes first (the refutations there are
            # often neutral turns); Basic: it leads the neutral turns (measured)
            out[k] = killer
            k += 1
            killer_done = 1
    else:
        killer = -1
    # the second killer (the cutoff before the killer's), if legal: a neutral one only
    # under the Advanced rule
    q = (killer2 >> 6) - 1
    if (killer2 >= 0 and killer2 != ttmove and killer2 != killer and (V >> (killer2 & 63)) & 1
            and (q < 0 or (s.rule == C_ADVANCED and with_neutrals and s.left[me] > 0
                           and (V >> q) & 1 and q != (killer2 & 63)))):
        out[k] = killer2
        k += 1
    else:
        killer2 = -1
    for i in range(n):
        t = pts[i]
        if t != ttmove and t != killer and t != killer2:
            out[k] = t
            k += 1
        if i < early and s.left[me] > 0 and with_neutrals and n > 1:
            q = nts[0] if nts[0] != t else nts[1]
            t = t + 64 * (q + 1)
            if t != ttmove and t != killer and t != killer2:
                out[k] = t
                k += 1
    if killer >= 64 and not killer_done:    # Basic: a neutral killer leads the neutral turns
        out[k] = killer
        k += 1
    if s.left[me] > 0 and with_neutrals:
        for i in range(n):
            p = pts[i]
            for j in range(n):
                q = nts[j]
                if q == p:
                    continue
                if i < early and q == (nts[0] if nts[0] != p else nts[1]):
                    continue        # already placed after its stone
                t = p + 64 * (q + 1)
                if t != ttmove and t != killer and t != killer2:
                    out[k] = t
                    k += 1
    return k
