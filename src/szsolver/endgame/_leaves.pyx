# cython: language_level=3
"""Exact last turns of the endgame search (the ``leaf`` and ``dom`` techniques;
proofs in docs/solver.md, "Techniques and their contracts").

* One turn left (``last_turn``): the mover's best turn, directly. Basic: never a
  neutral (no stone follows and neutrals block nothing: scores unchanged, one
  tie-break point lost). Advanced: each neutral is scored incrementally: it can
  only cut beams, and on each line through its point only the nearest stone on
  each side changes.
* Two turns left, Basic, each side one stone (``two_turns_basic``,
  ``two_turns_from_scores``): the other side then takes its best point left, so
  the mover's only useful neutral covers that point. O(empty points).
* Two turns left, Advanced, each side one stone (``two_turns_advanced``): a cheap
  upper bound per turn (the other side answering with its best stone alone, from
  per-side score tables) decides which turns need the exact last turn at all.
* Three turns left, Basic, the mover two stones and the other side one
  (``three_turns_basic``): every child is an exact two-turn position, and a
  neutral is tried only where the dominance rule allows.

Every function is plain C on the core's ``Board`` and ``State`` (``noexcept
nogil``), values from the mover's view, fail-soft where a window is given.
Buffers indexed by a pattern have 1 << ndirs <= 64 slots (the core has at most 6
directions); buffers indexed by a point have 64 (the core has at most 64 points).
"""
from libc.string cimport memset, memcpy

from szsolver.rules._core cimport (Board, State, bb_t, beam_masks, make_c, unmake_c,
                                   sz_ctz, sz_msb, sz_popcount, C_BASIC, Gains, gains_init,
                                   score_with)
from szsolver.endgame._common cimport (INF, MAX_SCORE, bit, empty_points, side_score, sort_by_key,
                                       turn_is_legal)


# --- Advanced rule: what one more neutral changes -----------------------------------------

cdef inline void open_rays(const Board* b, bb_t nb, int q, int a, bb_t* hr, bb_t* lr) noexcept nogil:
    """The two rays from q along axis a (towards higher / lower point numbers),
    each cut short at its nearest blocker in ``nb``: what q can see."""
    cdef bb_t h = b.ray[q][b.axis_up[a]], l = b.ray[q][b.axis_down[a]], x
    x = nb & h
    if x:
        h &= (x & (~x + 1)) - 1
    x = nb & l
    if x:
        l &= ~((bit(sz_msb(x)) << 1) - 1)
    hr[0] = h
    lr[0] = l


cdef inline void fill_rays(const Board* b, bb_t nb, bb_t V, Rays* r) noexcept nogil:
    """``open_rays`` of every point of V on every axis, for the blockers ``nb``: the
    last turn and the two-turn tables ask for each point's rays many times (as a
    stone, as a neutral, for both sides) under the same blockers."""
    cdef bb_t e = V
    cdef int q, a
    while e:
        q = sz_ctz(e)
        e &= e - 1
        for a in range(b.naxes):
            open_rays(b, nb, q, a, &r.hi[a][q], &r.lo[a][q])


cdef inline int pattern_of(const Board* b, const bb_t* beam, int x) noexcept nogil:
    cdef int d, pat = 0
    if b.ndirs == 4:            # square cells: unrolled
        return <int>(((beam[0] >> x) & 1) | (((beam[1] >> x) & 1) << 1) |
                     (((beam[2] >> x) & 1) << 2) | (((beam[3] >> x) & 1) << 3))
    for d in range(b.ndirs):
        pat |= <int>((beam[d] >> x) & 1) << d
    return pat


cdef inline int histogram(const Board* b, bb_t own, const bb_t* beam, int* cnt) noexcept nogil:
    """cnt[pattern] = own stones showing it (cnt: 1 << ndirs slots); returns the
    score (patterns shown)."""
    cdef int x, pat, score = 0
    cdef bb_t u, r, d, l, a0, a1, b0, b1, b2, b3
    cdef bb_t c[8]
    if b.ndirs == 4:            # square cells: split the stones by beam bits, count each class
        u = beam[0]
        r = beam[1]
        d = beam[2]
        l = beam[3]
        a0 = own & ~u
        a1 = own & u
        b0 = a0 & ~r
        b1 = a1 & ~r
        b2 = a0 & r
        b3 = a1 & r
        c[0] = b0 & ~d
        c[1] = b1 & ~d
        c[2] = b2 & ~d
        c[3] = b3 & ~d
        c[4] = b0 & d
        c[5] = b1 & d
        c[6] = b2 & d
        c[7] = b3 & d
        for x in range(8):
            cnt[x] = sz_popcount(c[x] & ~l)
            cnt[x + 8] = sz_popcount(c[x] & l)
            score += (cnt[x] != 0) + (cnt[x + 8] != 0)
        return score
    else:
        memset(cnt, 0, (1 << b.ndirs) * sizeof(int))
    while own:
        x = sz_ctz(own)
        own &= own - 1
        pat = pattern_of(b, beam, x)
        if cnt[pat] == 0:
            score += 1
        cnt[pat] += 1
    return score


cdef inline int repattern(int* cnt, int old, int new, int score) noexcept nogil:
    """One stone's pattern goes from ``old`` to ``new`` in the histogram ``cnt``: the
    score (patterns shown) after it."""
    cnt[old] -= 1
    if cnt[old] == 0:
        score -= 1
    if cnt[new] == 0:
        score += 1
    cnt[new] += 1
    return score


cdef inline int score_with_cut(const Board* b, bb_t own, const bb_t* beam, const int* cnt0,
                               int score, const Rays* r, int q) noexcept nogil:
    """Advanced rule, no stone to come: the score of ``own`` (beams ``beam``, pattern
    histogram ``cnt0``, score ``score`` under the blockers of the rays ``r``) after one
    more neutral on the empty point q. On each line through q only the nearest own
    stone on each side, within q's unblocked segment, can change: if both exist each
    loses its beam towards q. So at most 2 stones per axis change (a stone lies on one
    line through q), in O(axes) instead of a full scoring."""
    cdef int cnt[64]
    cdef int a, k, x, old, axis_bit, copied = 0
    cdef bb_t hr, lr, mh, ml
    for a in range(b.naxes):
        hr = r.hi[a][q]
        lr = r.lo[a][q]
        mh = own & hr
        ml = own & lr
        if mh == 0 or ml == 0:
            continue
        if not copied:
            if b.ndirs == 4:    # square cells: a fixed size, so the compiler inlines it
                memcpy(cnt, cnt0, 16 * sizeof(int))
            else:
                memcpy(cnt, cnt0, (1 << b.ndirs) * sizeof(int))
            copied = 1
        for k in range(2):
            if k == 0:
                x = sz_msb(ml)              # nearest below q loses its beam towards q
                axis_bit = b.axis_up[a]
            else:
                x = sz_ctz(mh)              # nearest above q loses its beam towards q
                axis_bit = b.axis_down[a]
            old = pattern_of(b, beam, x)
            score = repattern(cnt, old, old & ~(1 << axis_bit), score)
    return score


cdef inline int score_with_stone(const Board* b, bb_t own, const bb_t* beam0, const int* cnt0,
                                 int score, const Rays* r, int p, bb_t* beam, int* cnt) noexcept nogil:
    """The score of ``own`` plus a stone on the empty point p (under the blockers of
    the rays ``r``), from the beams ``beam0``, pattern histogram ``cnt0`` and score
    ``score`` of ``own``; fills ``beam`` and ``cnt`` for own + p. On each axis, p sees
    the nearest own stone on each side within its unblocked segment, and such a stone
    gains its beam towards p only if nothing of ours lay beyond p (else it saw that
    already): at most one stone per axis changes, in O(axes) instead of a full
    scoring."""
    cdef int a, d, x, old, pat = 0
    cdef bb_t hr, lr, mh, ml
    for d in range(b.ndirs):
        beam[d] = beam0[d]
    if b.ndirs == 4:            # square cells: a fixed size, so the compiler inlines it
        memcpy(cnt, cnt0, 16 * sizeof(int))
    else:
        memcpy(cnt, cnt0, (1 << b.ndirs) * sizeof(int))
    for a in range(b.naxes):
        hr = r.hi[a][p]
        lr = r.lo[a][p]
        mh = own & hr
        ml = own & lr
        x = -1
        if mh:
            pat |= 1 << b.axis_up[a]
            if not ml:
                x = sz_ctz(mh)              # nearest above p now sees p below it
                d = b.axis_down[a]
        if ml:
            pat |= 1 << b.axis_down[a]
            if not mh:
                x = sz_msb(ml)              # nearest below p now sees p above it
                d = b.axis_up[a]
        if x >= 0:
            old = pattern_of(b, beam, x)
            score = repattern(cnt, old, old | (1 << d), score)
            beam[d] |= bit(x)
    for d in range(b.ndirs):
        if (pat >> d) & 1:
            beam[d] |= bit(p)
    if cnt[pat] == 0:
        score += 1
    cnt[pat] += 1
    return score


cdef inline bb_t cut_points(const Board* b, bb_t own, const Rays* r, bb_t V) noexcept nogil:
    """The points q of V where one more neutral could change the score of ``own``
    (the blockers of the rays ``r``, filled for V): on some axis, q's unblocked
    segment holds own stones on both sides of q. A neutral anywhere else in V leaves
    that score as it is (``score_with_cut`` changes nothing there)."""
    cdef bb_t e = V, out = 0, hr, lr
    cdef int q, a
    while e:
        q = sz_ctz(e)
        e &= e - 1
        for a in range(b.naxes):
            hr = r.hi[a][q]
            lr = r.lo[a][q]
            if (own & hr) and (own & lr):
                out |= bit(q)
                break
    return out


cdef inline bb_t cut_points_added(const Board* b, bb_t own, const Rays* r, int p) noexcept nogil:
    """The points that one more own stone on p adds to ``cut_points``: on each axis,
    those between p and the nearest own stone on either side of p within p's
    unblocked segment. cut_points(own | p) = cut_points(own) | this (restricted to
    the empty points other than p): a point q that gains own stones on both sides
    only through p lies between p and the nearest own stone beyond q."""
    cdef bb_t out = 0, hr, lr, x
    cdef int a
    for a in range(b.naxes):
        hr = r.hi[a][p]
        lr = r.lo[a][p]
        x = own & hr
        if x:
            out |= hr & ((x & (~x + 1)) - 1)
        x = own & lr
        if x:
            out |= lr & ~((bit(sz_msb(x)) << 1) - 1)
    return out


cdef bb_t reach_points(const Board* b, bb_t own, const Rays* r, bb_t V) noexcept nogil:
    """The points q of V where a neutral could change the score of ``own`` plus at
    most one more own stone anywhere in V (under the blockers of the rays ``r``,
    filled for V; more blockers only shrink the set): on some axis, q's unblocked segment holds an own stone on one side and an
    own stone or a point of V on the other. The three-turn rule (Advanced, in
    ``_search.negamax``) skips our neutral turns off these points."""
    cdef bb_t e = V, out = 0, hr, lr, hs, ls
    cdef int q, a
    while e:
        q = sz_ctz(e)
        e &= e - 1
        for a in range(b.naxes):
            hr = r.hi[a][q]
            lr = r.lo[a][q]
            hs = own & hr
            ls = own & lr
            if (hs and (ls or (V & lr))) or (ls and (V & hr)):
                out |= bit(q)
                break
    return out


cdef bb_t cut_points_of(const Board* b, bb_t own, const Rays* r, bb_t V) noexcept nogil:
    """``cut_points`` for the other modules."""
    return cut_points(b, own, r, V)


cdef void fill_rays_of(const Board* b, bb_t nb, bb_t V, Rays* r) noexcept nogil:
    """``fill_rays`` for the other modules."""
    fill_rays(b, nb, V, r)


# --- one turn left --------------------------------------------------------------------------

cdef extern from *:
    """
    #if defined(__SSE2__)
    #include <emmintrin.h>
    /* bit i set when cnt[i] != 0, i < 16: four compares, two packs, one movemask */
    static inline unsigned int sz_nonzero16(const int* cnt) {
        __m128i z = _mm_setzero_si128();
        __m128i a = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i*)cnt), z);
        __m128i b = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i*)(cnt + 4)), z);
        __m128i c = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i*)(cnt + 8)), z);
        __m128i d = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i*)(cnt + 12)), z);
        __m128i ab = _mm_packs_epi32(a, b), cd = _mm_packs_epi32(c, d);
        return (~(unsigned int)_mm_movemask_epi8(_mm_packs_epi16(ab, cd))) & 0xFFFFu;
    }
    #else
    static inline unsigned int sz_nonzero16(const int* cnt) {
        unsigned int m = 0;
        for (int i = 0; i < 16; i++) m |= (unsigned int)(cnt[i] != 0) << i;
        return m;
    }
    #endif
    """
    unsigned int sz_nonzero16(const int* cnt) nogil


# Per direction d, the patterns with bit d set (patterns have at most 6 bits).
cdef bb_t WITH_BIT[6]
WITH_BIT[:] = [0xAAAAAAAAAAAAAAAA, 0xCCCCCCCCCCCCCCCC, 0xF0F0F0F0F0F0F0F0,
               0xFF00FF00FF00FF00, 0xFFFF0000FFFF0000, 0xFFFFFFFF00000000]


cdef inline int cut_gain_dirs(const Board* b, const int* cnt) noexcept nogil:
    """Advanced rule: the directions in which one more neutral can raise the score of
    stones whose pattern histogram is ``cnt`` (bit d). A cut takes bit d from at most
    one stone per direction d (on each axis, the nearest stone on each side loses its
    beam towards the cut; ``score_with_cut``), and a changed stone adds a pattern to
    the score only if its new pattern P & ~d was absent: so at most one point per
    direction d in which some present pattern P with bit d has P & ~d absent."""
    cdef bb_t present = 0, shown
    cdef int i, d, g = 0
    if b.ndirs == 4:            # square cells: 16 patterns
        present = sz_nonzero16(cnt)
    else:
        for i in range(1 << b.ndirs):
            present |= (<bb_t>(cnt[i] != 0)) << i
    for d in range(b.ndirs):
        shown = (present & WITH_BIT[d]) >> (1 << d)     # P & ~d for each present P with d
        if shown & ~present:
            g |= 1 << d
    return g


cdef inline int cut_gain_bound(const Board* b, const int* cnt) noexcept nogil:
    """How much one more neutral can at most raise that score (``cut_gain_dirs``)."""
    return sz_popcount(<bb_t>cut_gain_dirs(b, cnt))


cdef inline int cut_dirs(const Board* b, bb_t own, const Rays* r, int q) noexcept nogil:
    """The directions d in which a neutral on q takes bit d from a stone of ``own``:
    on each axis where q's unblocked segment holds own stones on both sides, the
    nearest below loses its beam up and the nearest above its beam down."""
    cdef int a, dirs = 0
    for a in range(b.naxes):
        if (own & r.hi[a][q]) and (own & r.lo[a][q]):
            dirs |= (1 << b.axis_up[a]) | (1 << b.axis_down[a])
    return dirs


cdef int last_turn(const Board* b, const State* s, int alpha, int beta, int* turn,
                   bb_t scan_first) noexcept nogil:
    """Fail-soft value (mover's view) with one turn left, the mover to play it, for the
    window (alpha, beta): v >= beta is a lower bound (it may stop at the first turn
    that reaches beta), v <= alpha an upper bound, anything between is exact (Basic:
    the exact value below beta). ``*turn``: the best turn found (stone + 64 * (neutral
    + 1); Basic: a stone alone), the one that reached beta when v >= beta; -1 if none
    was scored.
    Advanced: each neutral is scored incrementally (``score_with_cut``); a neutral
    that cuts no beam leaves both scores unchanged and only costs the tie-break; a
    neutral turn whose bound (our gain from a cut at most ``cut_gain_bound``) cannot
    beat both the best turn found and alpha is not scored. ``scan_first`` (Advanced): stones
    whose turns are scanned before the others (order only, the value is the same):
    likely good turns stop a scan sooner, and a good turn found early leaves more
    neutral turns below ``max(best, alpha)``, not scored."""
    cdef int me = s.side, op = me ^ 1
    cdef bb_t V = empty_points(b, s), e, e2, pb
    cdef bb_t mine = s.stones[me], theirs = s.stones[op], nb = s.neutral
    cdef int p, q, v, best = -INF, sop, sme, sme2, so_q, g, gd, u, thr
    cdef int hi = -INF          # the largest bound of a neutral turn not scored
    cdef int tie = s.left[me] - s.left[op]
    cdef bb_t beam_m[6]
    cdef bb_t beam_o[6]
    cdef bb_t beam_0[6]         # our stones before p
    cdef int cnt_m[64]
    cdef int cnt_o[64]
    cdef int cnt_0[64]
    cdef int sme0
    cdef Rays rays              # every empty point's rays under the neutrals
    cdef int opcut[64]
    cdef int minop
    cdef bb_t dop, cme, cp, rest
    turn[0] = -1
    if s.rule == C_BASIC:
        sop = side_score(b, theirs, 0)
        e = V
        while e:
            p = sz_ctz(e)
            e &= e - 1
            v = 100 * (side_score(b, mine | bit(p), 0) - sop) + tie
            if v > best:
                best = v
                turn[0] = p
                if best >= beta:
                    return best
        return best
    fill_rays(b, nb, V, &rays)
    beam_masks(b, theirs, nb, beam_o)
    sop = histogram(b, theirs, beam_o, cnt_o)
    minop = sop
    dop = 0
    if s.left[me] > 0:          # the opponent's score after a cut on q: independent of p
        e = cut_points(b, theirs, &rays, V)
        while e:
            q = sz_ctz(e)
            e &= e - 1
            opcut[q] = score_with_cut(b, theirs, beam_o, cnt_o, sop, &rays, q)
            if opcut[q] < minop:
                minop = opcut[q]
            if opcut[q] != sop:
                dop |= bit(q)
        cme = cut_points(b, mine, &rays, V)
    beam_masks(b, mine, nb, beam_0)
    sme0 = histogram(b, mine, beam_0, cnt_0)
    rest = V & ~scan_first
    e = V & scan_first
    while e or rest:
        if not e:
            e = rest
            rest = 0
        p = sz_ctz(e)
        e &= e - 1
        pb = mine | bit(p)
        sme = score_with_stone(b, mine, beam_0, cnt_0, sme0, &rays, p, beam_m, cnt_m)
        v = 100 * (sme - sop) + tie
        if v > best:
            best = v
            turn[0] = p
            if best >= beta:
                return best
        if s.left[me] == 0:
            continue
        # Neutral turns (p, q): a neutral off every point that changes a score only
        # costs the tie-break (worse than p alone), so only these points are tried,
        # and only while their bound can beat max(best, alpha). A turn skipped for
        # that leaves its bound in hi: the value returned stays an upper bound.
        gd = cut_gain_dirs(b, cnt_m)
        g = sz_popcount(<bb_t>gd)
        thr = best if best > alpha else alpha
        u = 100 * (sme + g - minop) + tie - 1
        if u <= thr:
            if u > hi:
                hi = u
            continue
        cp = (cme | cut_points_added(b, mine, &rays, p)) & V & ~bit(p)
        e2 = (cp | dop) & ~bit(p)
        while e2:
            q = sz_ctz(e2)
            e2 &= e2 - 1
            so_q = opcut[q] if (dop >> q) & 1 else sop
            if (cp >> q) & 1:
                # our gain from this cut: only in the directions it cuts
                u = 100 * (sme + sz_popcount(<bb_t>(gd & cut_dirs(b, pb, &rays, q))) - so_q) + tie - 1
                if u <= thr:
                    if u > hi:
                        hi = u
                    continue
                sme2 = score_with_cut(b, pb, beam_m, cnt_m, sme, &rays, q)
            else:
                sme2 = sme
            v = 100 * (sme2 - so_q) + tie - 1
            if v > best:
                best = v
                turn[0] = p + 64 * (q + 1)
                if best >= beta:
                    return best
                if best > thr:
                    thr = best
    return best if best >= hi else hi


# --- two turns left, Advanced ---------------------------------------------------------------

cdef void scores_with_stone(const Board* b, bb_t own, bb_t nb, const Rays* r, bb_t V,
                            int* with0) noexcept nogil:
    """``with0[x]`` = the score of ``own`` with one more own stone on x, for every x in
    V (blockers ``nb``, their rays ``r``; no blockers: the Basic rule's score)."""
    cdef bb_t e = V
    cdef bb_t beam[6]
    cdef bb_t beam0[6]
    cdef int cnt[64]
    cdef int cnt0[64]
    cdef int x, s0
    beam_masks(b, own, nb, beam0)
    s0 = histogram(b, own, beam0, cnt0)
    while e:
        x = sz_ctz(e)
        e &= e - 1
        with0[x] = score_with_stone(b, own, beam0, cnt0, s0, r, x, beam, cnt)


cdef inline int score_after_cut(const Board* b, bb_t own, const bb_t* beam, const int* cnt,
                                int score, const Rays* r, bb_t cx, int q) noexcept nogil:
    """``score_with_cut`` where it can change the score: ``cx`` holds the cut points
    of ``own``; a neutral anywhere else leaves ``score``."""
    if (cx >> q) & 1:
        return score_with_cut(b, own, beam, cnt, score, r, q)
    return score


cdef inline void top2(int v, int x, int* v1, int* x1, int* v2) noexcept nogil:
    if v > v1[0]:
        v2[0] = v1[0]
        v1[0] = v
        x1[0] = x
    elif v > v2[0]:
        v2[0] = v


cdef int scores_with_cut(const Board* b, bb_t own, bb_t nb, const Rays* r, bb_t V,
                         int* out) noexcept nogil:
    """Advanced rule: ``out[q]`` = the score of ``own`` with one more neutral on q, for
    every q in V (blockers ``nb``, their rays ``r``); returns the score without it."""
    cdef bb_t e = V, c0
    cdef bb_t beam[6]
    cdef int cnt[64]
    cdef int q, s0
    beam_masks(b, own, nb, beam)
    s0 = histogram(b, own, beam, cnt)
    c0 = cut_points(b, own, r, V)
    while e:
        q = sz_ctz(e)
        e &= e - 1
        out[q] = score_after_cut(b, own, beam, cnt, s0, r, c0, q)
    return s0


cdef enum:
    CANDIDATES = 4      # the other side's best stones alone tried under each neutral of ours


cdef void their_best_under_cut(const Board* b, bb_t own, bb_t nb, const Rays* r, bb_t V,
                               const int* with0, int* q1, int* q1x, int* q2) noexcept nogil:
    """For every point q of V, a neutral of ours there: a lower bound on the other
    side's best score with its last stone alone on x != q (``q1``, at ``q1x``) and on
    its best at another stone than q1x (``q2``), taking x among its CANDIDATES best
    stones (``with0``: its scores with one stone more, no neutral). Any stone is an
    answer it may play, so U(t) built on these is an upper bound as with the full
    maximum, and a neutral seldom cuts all its best stones: 4 x O(points) cut scorings
    instead of O(points^2) (advanced-random4-6: -19 % CPU with the leaf hint)."""
    cdef bb_t e, e2, cand = 0, cx, c0
    cdef bb_t beam[6]
    cdef bb_t beam0[6]
    cdef int cnt[64]
    cdef int cnt0[64]
    cdef int top[CANDIDATES]
    cdef int k, x, q, s0, sx, nk = 0
    # the CANDIDATES best stones by with0 (ties: lowest point)
    for k in range(CANDIDATES):
        top[k] = -1
        e = V & ~cand
        while e:
            x = sz_ctz(e)
            e &= e - 1
            if top[k] < 0 or with0[x] > with0[top[k]]:
                top[k] = x
        if top[k] < 0:
            break
        cand |= bit(top[k])
        nk += 1
    e = V
    while e:
        q = sz_ctz(e)
        e &= e - 1
        q1[q] = -INF
        q2[q] = -INF
        q1x[q] = -1
    c0 = cut_points(b, own, r, V)
    beam_masks(b, own, nb, beam0)
    s0 = histogram(b, own, beam0, cnt0)
    for k in range(nk):
        x = top[k]
        sx = score_with_stone(b, own, beam0, cnt0, s0, r, x, beam, cnt)
        cx = c0 | cut_points_added(b, own, r, x)
        e2 = V & ~bit(x)
        while e2:
            q = sz_ctz(e2)
            e2 &= e2 - 1
            top2(score_after_cut(b, own | bit(x), beam, cnt, sx, r, cx, q), x, &q1[q], &q1x[q], &q2[q])


cdef inline int line_value(const Board* b, const State* s, int h) noexcept nogil:
    """The mover's final value (its view) after its last turn h (legal in ``s``)."""
    cdef int me = s.side
    cdef bb_t nb = s.neutral | (bit((h >> 6) - 1) if h >= 64 else 0)
    return (100 * (side_score(b, s.stones[me] | bit(h & 63), nb) - side_score(b, s.stones[me ^ 1], nb))
            + s.left[me] - (1 if h >= 64 else 0) - s.left[me ^ 1])


cdef inline void to_front(int* ring, int k, int turn) noexcept nogil:
    """Put ``turn`` at the front of ``ring``, shifting slots 0..k-1 back by one (slot
    k, the turn's own or the last, is overwritten)."""
    while k > 0:
        ring[k] = ring[k - 1]
        k -= 1
    ring[0] = turn


cdef inline int searched(const Board* b, State* s, int t, int alpha, int beta,
                         long long* nodes, int* hint, int* ring, bb_t likely) noexcept nogil:
    """Our turn t, then the other side's last turn: fail-soft for the window (alpha,
    beta), our view. ``hint``: the other side's last turn that refuted a sibling of t
    (-1: none). Its line alone is scored first: the other side may always play it, so
    its value is an upper bound of t's, and when that is <= alpha the last turn is
    not searched (siblings are mostly refuted by the same answer). When there is a
    hint (a sibling was refuted: the node is likely to fail low), the lines of
    ``ring`` come next: the REPLIES last distinct turns of the other side that
    refuted a turn in a two-turn node at this ply, the latest first (-1: an empty
    slot; NULL: none kept). The nodes after sibling turns of the node above are
    mostly refuted by the same few answers; without the hint, in nodes that fail
    high, these lines seldom refute and would only cost. The last turn then scans
    first the stones of the hint, of ``ring`` and of ``likely`` (the other side's best
    stone alone, when known). ``hint`` is set to the turn that refuted t, and
    ``ring`` gets it at its front."""
    cdef int v, h = hint[0], lv, turn, k, g
    cdef bb_t scan_first
    make_c(b, s, t)
    nodes[0] += 1
    if h >= 0 and turn_is_legal(b, s, h):
        lv = line_value(b, s, h)
        if lv >= -alpha:
            unmake_c(b, s, t)
            return -lv
    for k in range(REPLIES if ring != NULL and h >= 0 else 0):
        g = ring[k]
        if g < 0:
            break
        if g != h and turn_is_legal(b, s, g):
            lv = line_value(b, s, g)
            if lv >= -alpha:
                unmake_c(b, s, t)
                hint[0] = g
                to_front(ring, k, g)
                return -lv
    scan_first = likely | (bit(h & 63) if h >= 0 else 0)
    if ring != NULL:
        for k in range(REPLIES):
            if ring[k] >= 0:
                scan_first |= bit(ring[k] & 63)
    v = -last_turn(b, s, -beta, -alpha, &turn, scan_first)
    unmake_c(b, s, t)
    if v <= alpha and turn >= 0:
        hint[0] = turn
        if ring != NULL:
            k = 0                       # where it stands, else the last slot (dropped)
            while k < REPLIES - 1 and ring[k] != turn:
                k += 1
            to_front(ring, k, turn)
    return v


cdef int two_turns_advanced(const Board* b, State* s, int alpha, int beta, int first,
                            int* best_turn, long long* nodes, int* ring) noexcept nogil:
    """Fail-soft value (mover's view), Advanced rule, each side one stone left, the
    mover first. Every turn t of ours gets a cheap upper bound U(t): the value if the
    other side answered with a stone alone (no neutral) that it may always play: its
    best, or for our neutral turns the best of its CANDIDATES best stones under that
    neutral (``their_best_under_cut``). Scores are per side (enemy stones never
    block), so both sides' scores come from per-side tables. Turns are searched
    exactly (``last_turn`` after them, or the hint of ``searched``) only while U(t) >
    alpha; the others are bounded by U. ``first`` (a legal turn from the TT, or -1:
    none) is searched before any table is built: most such nodes fail high on it.
    Then the stone-only turns (tables O(points)), highest U first; our neutral turns
    only when no stone-only turn reached beta, a stone's row of them not at all when
    even our best possible gain from a cut (``cut_gain_bound``) against their worst
    case keeps all of them at or below alpha. ``best_turn``: the turn that gave the
    returned value, or -1 when a bound did. ``ring``: this ply's recent refuting
    replies (``searched``), or NULL."""
    cdef int me = s.side, op = me ^ 1
    cdef bb_t V = empty_points(b, s), e, e2
    cdef bb_t nb = s.neutral
    cdef int tie = s.left[me] - s.left[op]
    cdef int sm0[64]
    cdef int so0[64]
    cdef int ub0[64]
    cdef int p, q, u, v, best = -INF, bt = -1, o, x, i, n, omin, s0, sx
    cdef bb_t c0, cx
    cdef bb_t beam[6]
    cdef bb_t beam0[6]
    cdef int cnt[64]
    cdef int cnt0[64]
    cdef int pts[64]
    cdef int a1 = -INF, a2 = -INF, ax = -1           # other side's best stones, no neutral
    cdef int q1[64]
    cdef int q1x[64]
    cdef int q2[64]                                  # ... with our neutral on q
    cdef Rays rays                                   # every empty point's rays under the neutrals
    cdef int hint = -1
    cdef bb_t likely = 0            # the other side's best stone alone (scanned first)
    if first >= 0:
        best = searched(b, s, first, alpha, beta, nodes, &hint, ring, 0)
        bt = first
        if best > alpha:
            alpha = best
            if alpha >= beta:
                best_turn[0] = bt
                return best
    fill_rays(b, nb, V, &rays)
    scores_with_stone(b, s.stones[me], nb, &rays, V, sm0)
    scores_with_stone(b, s.stones[op], nb, &rays, V, so0)
    e = V
    while e:
        x = sz_ctz(e)
        e &= e - 1
        top2(so0[x], x, &a1, &ax, &a2)
    likely = bit(ax) if ax >= 0 else 0
    e = V
    while e:
        p = sz_ctz(e)
        e &= e - 1
        ub0[p] = 100 * (sm0[p] - (a2 if p == ax else a1)) + tie
    # stone-only turns by U, highest first, while U > alpha (the rest are bounded)
    n = 0
    e = V
    while e:
        p = sz_ctz(e)
        e &= e - 1
        if p != first:
            pts[n] = p
            n += 1
    sort_by_key(pts, ub0, n)
    for i in range(n):
        p = pts[i]
        u = ub0[p]
        if u <= alpha:                   # value(t) <= U(t) <= alpha: bounded, not searched
            if u > best:
                best = u
                bt = -1
            break
        v = searched(b, s, p, alpha, beta, nodes, &hint, ring, likely)
        if v > best:
            best = v
            bt = p
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    best_turn[0] = bt
                    return best
    if s.left[me] > 0:
        their_best_under_cut(b, s.stones[op], nb, &rays, V, so0, q1, q1x, q2)
        omin = INF
        e = V
        while e:
            q = sz_ctz(e)
            e &= e - 1
            if q2[q] < omin:
                omin = q2[q]
        c0 = cut_points(b, s.stones[me], &rays, V)
        beam_masks(b, s.stones[me], nb, beam0)
        s0 = histogram(b, s.stones[me], beam0, cnt0)
        e = V
        while e:
            p = sz_ctz(e)
            e &= e - 1
            sx = score_with_stone(b, s.stones[me], beam0, cnt0, s0, &rays, p, beam, cnt)
            # a neutral raises our score by at most cut_gain_bound; their best
            # answer is at least omin whatever q is: a bound on all of p's turns
            u = 100 * (sx + cut_gain_bound(b, cnt) - omin) + tie - 1
            if u <= alpha:
                if u > best:
                    best = u
                    bt = -1
                continue
            cx = c0 | cut_points_added(b, s.stones[me], &rays, p)
            e2 = V & ~bit(p)
            while e2:
                q = sz_ctz(e2)
                e2 &= e2 - 1
                if p + 64 * (q + 1) == first:
                    continue
                o = q2[q] if p == q1x[q] else q1[q]
                u = 100 * (score_after_cut(b, s.stones[me] | bit(p), beam, cnt, sx, &rays, cx, q)
                           - o) + tie - 1
                if u <= alpha:
                    if u > best:
                        best = u
                        bt = -1
                    continue
                v = searched(b, s, p + 64 * (q + 1), alpha, beta, nodes, &hint, ring, likely)
                if v > best:
                    best = v
                    bt = p + 64 * (q + 1)
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            best_turn[0] = bt
                            return best
    best_turn[0] = bt
    return best


# --- two turns left, Basic ------------------------------------------------------------------

cdef inline void scores_with_each(const Board* b, bb_t own, bb_t pts, int* out) noexcept nogil:
    """``out[y]`` = the score of ``own`` plus a stone on y, for each (empty) point y of
    ``pts``, Basic rule (no blockers): the core's incremental scores, one set-up for
    all the points."""
    cdef Gains g
    cdef int y
    if pts == 0:
        return
    gains_init(b, &g, own, 0)
    while pts:
        y = sz_ctz(pts)
        pts &= pts - 1
        out[y] = score_with(b, &g, y)


cdef int two_turns_basic(const Board* b, const State* s, TwoTurnPrints* fp) noexcept nogil:
    """Exact value (mover's view), Basic rule, each side one stone left, mover first
    (see ``two_turns_from_scores``; ``fp``: its footprints, may be NULL)."""
    cdef int me = s.side, op = me ^ 1
    cdef bb_t V = empty_points(b, s), e = V
    cdef int mover_with[64]
    cdef int other_with[64]
    cdef int unique_best
    scores_with_each(b, s.stones[op], V, other_with)
    scores_with_each(b, s.stones[me], V, mover_with)
    return two_turns_from_scores(mover_with, other_with, V, s.left[me], s.left[op], &unique_best, fp)


# --- three turns left, Basic ----------------------------------------------------------------

cdef void pair_cache_init(PairCache* pc) noexcept nogil:
    """An empty cache."""
    cdef int i
    pc.next = 0
    for i in range(PAIR_SLOTS):
        pc.t[i].own = ~(<bb_t>0)
        memset(pc.t[i].filled, 0, sizeof(pc.t[i].filled))
        pc.t[i].singles = 0


cdef PairTable* pair_table(PairCache* pc, bb_t own, const PairTable* keep) noexcept nogil:
    """The table of the stones ``own``: a kept one, else a slot emptied for it (never
    ``keep``'s: a table still in use)."""
    cdef int i
    cdef PairTable* t
    for i in range(PAIR_SLOTS):
        if pc.t[i].own == own:
            return &pc.t[i]
    if &pc.t[pc.next] == keep:
        pc.next = (pc.next + 1) % PAIR_SLOTS
    t = &pc.t[pc.next]
    pc.next = (pc.next + 1) % PAIR_SLOTS
    t.own = own
    memset(t.filled, 0, sizeof(t.filled))
    t.singles = 0
    return t


cdef inline int pair_single(const Board* b, PairTable* t, int x) noexcept nogil:
    """score(own + x)."""
    if not (t.singles >> x) & 1:
        t.score[x][x] = side_score(b, t.own | bit(x), 0)
        t.singles |= bit(x)
    return t.score[x][x]


cdef inline int* pair_row(const Board* b, PairTable* t, int x, bb_t need) noexcept nogil:
    """Row x, filled at least on ``need``: score(own + x + y) for y in need."""
    cdef bb_t e = need & ~t.filled[x]
    t.filled[x] |= e
    scores_with_each(b, t.own | bit(x), e, &t.score[x][0])
    return &t.score[x][0]


cdef inline void pair_singles(const Board* b, PairTable* t, bb_t pts) noexcept nogil:
    """score(own + x) for each x of ``pts`` filled (as ``pair_single`` fills one)."""
    cdef int s[64]
    cdef bb_t e = pts & ~t.singles
    cdef int x
    scores_with_each(b, t.own, e, s)
    t.singles |= e
    while e:
        x = sz_ctz(e)
        e &= e - 1
        t.score[x][x] = s[x]


cdef inline bb_t final_relevant(const int* last_with, bb_t pool) noexcept nogil:
    """Points y of the pool that the last mover (final score ``last_with[y]`` with its
    last stone on y) might need: fewer than 3 other pool points score at least as
    much (the other side's last turn removes at most 2 points)."""
    cdef int ge[MAX_SCORE + 2]       # ge[v]: pool points scoring >= v
    cdef int v, p, top = 0
    cdef bb_t e = pool, out = 0
    memset(ge, 0, sizeof(ge))
    while e:
        p = sz_ctz(e)
        e &= e - 1
        ge[last_with[p]] += 1
        if last_with[p] > top:
            top = last_with[p]
    for v in range(top - 1, -1, -1):
        ge[v] += ge[v + 1]
    e = pool
    while e:
        p = sz_ctz(e)
        e &= e - 1
        if ge[last_with[p]] <= 3:
            out |= bit(p)
    return out


cdef inline void keep_line(Refutation* ref, int turn, bb_t pool, bb_t relevant,
                           const int* our_last, const int* their_last) noexcept nogil:
    """Record a refutation for the four-turn node above (``ref`` may be NULL)."""
    cdef bb_t e = pool
    cdef int y, i, k
    cdef int top[4]             # their four best pool points, by score then point
    cdef int n = 0
    if ref == NULL:
        return
    while e:
        y = sz_ctz(e)
        e &= e - 1
        ref.our_last[y] = our_last[y]
        ref.their_last[y] = their_last[y]
        # insert y among the four best (points come in increasing order: a tie keeps
        # the earlier point first, the order two_turns_from_scores ranks by)
        k = n if n < 4 else 4
        while k > 0 and their_last[top[k - 1]] < their_last[y]:
            if k < 4:
                top[k] = top[k - 1]
            k -= 1
        if k < 4:
            top[k] = y
            if n < 4:
                n += 1
    ref.turn = turn
    ref.pool = pool
    ref.relevant = relevant
    # A neutral q of ours that this refutation skips leaves their last stone the
    # first of their three best points in pool - q: within these four.
    ref.prints = bit(turn & 63) | (bit((turn >> 6) - 1) if turn >= 64 else 0)
    for i in range(n):
        ref.prints |= bit(top[i])


cdef int three_turns_basic(const Board* b, const State* s, int alpha, int beta, int tt_stone,
                           int* best_turn, long long* nodes, Refutation* ref,
                           bb_t* prints, PairCache* pc, int last_stone) noexcept nogil:
    """Fail-soft value (mover's view), Basic rule, the mover two stones left and the
    other side one (its last turn comes between the mover's two). Every child is an
    exact two-turn position, evaluated from cached single-point scores in
    O(empty points); each counts as a node in ``*nodes``. ``tt_stone``: a stone to
    try first (-1: none). ``best_turn`` receives the best turn found.

    Dominance (proved in docs/solver.md): let (x, -) be the mover's turn without
    a neutral and p* the other side's optimal reply stones to it. A neutral on any
    point q other than p* is strictly worse than (x, -): against it the other side
    replays its optimal reply (dropping its own neutral if it was q), reaching the
    same final scores with the mover one neutral poorer. So only (x, p*) is
    tried, and only when the optimal reply stone p* is unique.

    When the value is >= beta and ``ref`` is not NULL, ``*ref`` receives the
    refutation (the turn, its two-turn line and the points a neutral of the node
    above could matter on: see the four-turn rule in ``_search.negamax``).

    ``*prints`` receives the footprint of the bound returned (footprint rule in
    ``_search``): at a cutoff, our turn and our three best last points (the other
    side's turn removes at most two); else the other side's answers to each of our
    turns: the optimal answer to (x, -), with a second optimal one of another stone
    when the optimal stone is not unique (the dominance proof replays them against
    every (x, q) it skips), and the answer to (x, p*) when that is tried.

    ``pc`` (may be NULL): the pair tables our final scores come from (the same
    numbers, computed once per stone set and row); ``last_stone``: the other side's
    stone of the turn that led here (-1: not known), whose row of the table of the
    other side's earlier stones gives its final scores (shared by the siblings)."""
    cdef int me = s.side, op = me ^ 1
    cdef bb_t V = empty_points(b, s), e, P
    cdef bb_t mine = s.stones[me], theirs = s.stones[op]
    cdef int other_last[64]     # the other side's final score with its last stone on x
    cdef int my_final[64]       # ours with our stones on x (this turn) and y (the last)
    cdef int key[64]
    cdef int pts[64]
    cdef int n = 0, i, j, k, x, y, v, pstar, dummy, best = -INF, q
    cdef int lme = s.left[me], lop = s.left[op]
    cdef TwoTurnPrints fp
    cdef bb_t answers = 0       # the other side's answers to our turns tried so far
    cdef PairTable* tm = pair_table(pc, mine, NULL) if pc != NULL else NULL
    cdef int* fin
    cdef int* olast = other_last
    cdef int my_single[64]
    if pc != NULL and last_stone >= 0 and (theirs >> last_stone) & 1:
        # (keeps our table: both are read below)
        olast = pair_row(b, pair_table(pc, theirs & ~bit(last_stone), tm), last_stone, V)
    if olast == other_last:
        scores_with_each(b, theirs, V, other_last)
    if tm != NULL:
        pair_singles(b, tm, V)
    else:
        scores_with_each(b, mine, V, my_single)
    e = V
    while e:
        x = sz_ctz(e)
        e &= e - 1
        if tm != NULL:
            key[x] = pair_single(b, tm, x) + olast[x]
        else:
            key[x] = my_single[x] + olast[x]
        if x == tt_stone:
            key[x] += 100
        pts[n] = x
        n += 1
    for i in range(n):
        # the best key left (the earliest of equal ones): the order a stable sort
        # gives, built only as far as the node goes (most stop after one or two)
        j = i
        for k in range(i + 1, n):
            if key[pts[k]] > key[pts[j]]:
                j = k
        x = pts[j]
        while j > i:
            pts[j] = pts[j - 1]
            j -= 1
        pts[i] = x
        P = V & ~bit(x)
        if tm != NULL:
            fin = pair_row(b, tm, x, P)
        else:
            fin = my_final
            scores_with_each(b, mine | bit(x), P, my_final)
        nodes[0] += 1
        v = -two_turns_from_scores(olast, fin, P, lop, lme, &pstar, &fp)
        if v > best:
            best = v
            best_turn[0] = x
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    keep_line(ref, x, P, bit(x) | final_relevant(fin, P),
                              olast, fin)
                    prints[0] = bit(x) | fp.last
                    return best
        answers |= fp.best | fp.other
        if lme > 0 and pstar >= 0:
            q = pstar
            nodes[0] += 1
            v = -two_turns_from_scores(olast, fin, P & ~bit(q), lop, lme - 1, &dummy, &fp)
            if v > best:
                best = v
                best_turn[0] = x + 64 * (q + 1)
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        keep_line(ref, x + 64 * (q + 1), P & ~bit(q),
                                  bit(x) | bit(q) | final_relevant(fin, P & ~bit(q)),
                                  olast, fin)
                        prints[0] = bit(x) | bit(q) | fp.last
                        return best
            answers |= fp.best
    prints[0] = answers
    return best


cdef int refutation_line(const Board* b, State* s, int turn, int reply, Refutation* ref,
                         PairCache* pc) noexcept nogil:
    """Four-turn rule from a TT refutation: after our stone-only ``turn`` and the
    other side's ``reply`` (both legal: checked by the caller), a two-turn position
    with us to move. Fills ``*ref`` (line and relevant points, as
    ``three_turns_basic`` does on a cutoff) and returns the other side's exact value
    of ``reply``. ``s`` is restored before returning. ``pc`` (may be NULL): the pair
    tables the final scores are read from (the three-turn children use the same)."""
    cdef int their_last[64]
    cdef int our_last[64]
    cdef int* tl = their_last
    cdef int* ol = our_last
    cdef int me, op, y, v, dummy
    cdef bb_t P, e, relevant
    cdef bb_t ours0 = s.stones[s.side], theirs0 = s.stones[s.side ^ 1]
    cdef PairTable* their_tab
    make_c(b, s, turn)
    make_c(b, s, reply)
    me = s.side
    op = me ^ 1
    P = empty_points(b, s)
    if pc != NULL:
        their_tab = pair_table(pc, theirs0, NULL)
        tl = pair_row(b, their_tab, reply & 63, P)
        ol = pair_row(b, pair_table(pc, ours0, their_tab), turn & 63, P)
    else:
        scores_with_each(b, s.stones[op], P, their_last)
        scores_with_each(b, s.stones[me], P, our_last)
    v = -two_turns_from_scores(ol, tl, P, s.left[me], s.left[op], &dummy, NULL)
    relevant = final_relevant(tl, P) | bit(reply & 63)
    if reply >= 64:
        relevant |= bit((reply >> 6) - 1)
    keep_line(ref, reply, P, relevant, ol, tl)
    unmake_c(b, s, reply)
    unmake_c(b, s, turn)
    return v
