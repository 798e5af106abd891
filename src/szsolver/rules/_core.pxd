# cython: language_level=3
"""C-level board state, turn generation and scoring, shared with the solver.

Bit layout (Stars' Zone board): bit p = point p in reading order.

        col 1  2  3  4  5  6  7  8  9
    row 1           0  1
    row 2        2  3  4  5  6  7
    row 3     8  9 10 11 12 13 14
    row 4 15 16 17 18 19 20 21 22
    row 5 23 24 25 26 27 28 29 30 31      27 = centre (5,5), a neutral from the start
    row 6    32 33 34 35 36 37 38 39
    row 7    40 41 42 43 44 45 46
    row 8    47 48 49 50 51 52
    row 9             53 54

Along any line (row, column, hex axis) point numbers increase in one
direction, so the nearest stone that way is the lowest (or highest) set bit of
the line's mask: every beam question is a handful of bit operations per line.

Contracts: functions here assume a consistent State (see Position) and a legal
turn; they never allocate and never touch Python objects.
"""
from libc.stdint cimport uint64_t

ctypedef uint64_t bb_t

cdef enum:
    CORE_MAX_POINTS = 64
    CORE_MAX_DIRS = 6
    CORE_MAX_LINES = 192
    CORE_MAX_SYMS = 12
    CORE_MAX_TURNS = 4096
    C_RED = 0
    C_BLUE = 1
    C_BASIC = 0
    C_ADVANCED = 1

cdef extern from *:
    """
    static inline int sz_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int sz_msb(unsigned long long x) { return 63 - __builtin_clzll(x); }
    static inline int sz_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    """
    int sz_ctz(unsigned long long x) nogil
    int sz_msb(unsigned long long x) nogil
    int sz_popcount(unsigned long long x) nogil


cdef struct Board:
    int size                       # points (<= 64)
    int ndirs                      # directions (<= 6), pattern-bit order
    int nlines                     # lines of >= 2 points, over all axes
    bb_t full                      # all points
    bb_t fixed_neutral             # points holding a neutral before play
    bb_t ray[CORE_MAX_POINTS][CORE_MAX_DIRS]  # points further along d from p
    bb_t line[CORE_MAX_LINES]      # each line as a mask
    int naxes                      # line families (2 on square cells, 3 on hex)
    int axis_first[CORE_MAX_DIRS]  # lines of axis a: axis_first[a] .. axis_first[a+1]-1
    int axis_up[CORE_MAX_DIRS]     # direction towards higher point numbers on axis a
    int axis_down[CORE_MAX_DIRS]   # direction towards lower point numbers
    int axis_span[CORE_MAX_DIRS]   # longest line of the axis, in points
    int axis_contig[CORE_MAX_DIRS] # 1 when every line of the axis is a run of consecutive bits
    bb_t axis_not_first[CORE_MAX_DIRS]  # points with a lower-numbered point on their line
    bb_t axis_not_last[CORE_MAX_DIRS]   # points with a higher-numbered point on their line
    int nsyms
    int sym[CORE_MAX_SYMS][CORE_MAX_POINTS]   # point images per symmetry
    bb_t key_stone[3][CORE_MAX_POINTS]        # zobrist: red, blue, neutral
    bb_t key_left[2][16]           # zobrist: neutrals left per side
    bb_t key_side                  # zobrist: blue to move
    bb_t key_rule                  # zobrist: advanced rule


cdef struct State:
    bb_t stones[2]       # red, blue
    bb_t neutral         # neutral stones, fixed ones included
    int left[2]          # neutral stones left in each supply
    int side             # C_RED or C_BLUE to move
    int rule             # C_BASIC or C_ADVANCED
    int stones_per_side
    bb_t key             # zobrist key, kept up to date by make/unmake


# --- turns: stone + 64 * (neutral + 1) ------------------------------------------------------
cdef inline int turn_stone_c(int turn) noexcept nogil:
    return turn & 63

cdef inline int turn_neutral_c(int turn) noexcept nogil:
    return (turn >> 6) - 1


cdef inline int is_over_c(const State* s) noexcept nogil:
    return sz_popcount(s.stones[0]) + sz_popcount(s.stones[1]) >= 2 * s.stones_per_side


cdef inline void axis_fill(const Board* b, int a, bb_t own, bb_t blockers, bb_t* up,
                           bb_t* down) noexcept nogil:
    """Axis ``a``, its lines runs of consecutive bits: the points that see an own stone
    further along towards higher (``up``) and lower (``down``) point numbers, blockers
    cutting the way (an occluded Kogge-Stone fill)."""
    cdef int k
    cdef bb_t g, p, p0
    p0 = b.axis_not_first[a] & ~blockers
    g = own
    p = p0
    k = 1
    while k < b.axis_span[a]:
        g |= p & (g << k)
        p &= p << k
        k <<= 1
    down[0] = (g << 1) & p0
    p0 = b.axis_not_last[a] & ~blockers
    g = own
    p = p0
    k = 1
    while k < b.axis_span[a]:
        g |= p & (g >> k)
        p &= p >> k
        k <<= 1
    up[0] = (g >> 1) & p0


cdef inline void beam_masks(const Board* b, bb_t own, bb_t blockers, bb_t* beam) noexcept nogil:
    """beam[d] = own stones with a beam in direction d. ``blockers`` cut beams
    (the neutrals under the Advanced rule, 0 under Basic).

    On each unblocked stretch of a line, all own stones but the lowest-numbered
    see something towards lower numbers, all but the highest towards higher
    ones. Branch-free per line (occupancy is unpredictable in a search), with
    the accumulators in registers per axis."""
    cdef int a, i, k
    cdef bb_t s, seg, nb, nbit, below, up, down, g, p, p0
    for a in range(b.naxes):
        if b.axis_contig[a]:
            # Lines are runs of consecutive bits (rows in reading order): flood
            # the stones along them with an occluded Kogge-Stone fill, blockers
            # stopping it, instead of walking line by line.
            if b.axis_span[a] <= 16:    # four fixed steps reach 15 points: unrolled
                p0 = b.axis_not_first[a] & ~blockers
                g = own | (p0 & (own << 1))
                p = p0 & (p0 << 1)
                g |= p & (g << 2)
                p &= p << 2
                g |= p & (g << 4)
                p &= p << 4
                g |= p & (g << 8)
                down = own & (g << 1) & p0
                p0 = b.axis_not_last[a] & ~blockers
                g = own | (p0 & (own >> 1))
                p = p0 & (p0 >> 1)
                g |= p & (g >> 2)
                p &= p >> 2
                g |= p & (g >> 4)
                p &= p >> 4
                g |= p & (g >> 8)
                up = own & (g >> 1) & p0
                beam[b.axis_up[a]] = up
                beam[b.axis_down[a]] = down
                continue
            axis_fill(b, a, own, blockers, &up, &down)
            beam[b.axis_up[a]] = own & up
            beam[b.axis_down[a]] = own & down
            continue
        up = 0
        down = 0
        if blockers == 0:               # Basic rule: whole lines, no splitting
            for i in range(b.axis_first[a], b.axis_first[a + 1]):
                s = own & b.line[i]
                down |= s & (s - 1)
                up |= s ^ (((<bb_t>1) << sz_msb(s | 1)) & s)
            beam[b.axis_up[a]] = up
            beam[b.axis_down[a]] = down
            continue
        for i in range(b.axis_first[a], b.axis_first[a + 1]):
            s = own & b.line[i]
            nb = blockers & b.line[i]
            while nb:                   # split the line at each blocker, low to high
                nbit = nb & (~nb + 1)
                below = nbit - 1
                seg = s & below
                down |= seg & (seg - 1)
                up |= seg ^ (((<bb_t>1) << sz_msb(seg | 1)) & seg)
                s &= ~below
                nb ^= nbit
            down |= s & (s - 1)
            up |= s ^ (((<bb_t>1) << sz_msb(s | 1)) & s)
        beam[b.axis_up[a]] = up
        beam[b.axis_down[a]] = down


cdef inline bb_t _any(bb_t x) noexcept nogil:
    return <bb_t>(x != 0)


cdef inline bb_t pattern_set4(bb_t own, const bb_t* beam) noexcept nogil:
    # Four beams: split the stones by each beam bit, unrolled (index bit d = beam d).
    cdef bb_t u = beam[0], r = beam[1], d = beam[2], l = beam[3]
    cdef bb_t a0 = own & ~u, a1 = own & u
    cdef bb_t b0 = a0 & ~r, b1 = a1 & ~r, b2 = a0 & r, b3 = a1 & r
    cdef bb_t c0 = b0 & ~d, c1 = b1 & ~d, c2 = b2 & ~d, c3 = b3 & ~d
    cdef bb_t c4 = b0 & d, c5 = b1 & d, c6 = b2 & d, c7 = b3 & d
    cdef bb_t nl = ~l
    return (_any(c0 & nl) | _any(c1 & nl) << 1 | _any(c2 & nl) << 2 | _any(c3 & nl) << 3 |
            _any(c4 & nl) << 4 | _any(c5 & nl) << 5 | _any(c6 & nl) << 6 | _any(c7 & nl) << 7 |
            _any(c0 & l) << 8 | _any(c1 & l) << 9 | _any(c2 & l) << 10 | _any(c3 & l) << 11 |
            _any(c4 & l) << 12 | _any(c5 & l) << 13 | _any(c6 & l) << 14 | _any(c7 & l) << 15)


cdef inline bb_t pattern_set_c(const Board* b, bb_t own, bb_t blockers) noexcept nogil:
    """Bit k set when some stone of ``own`` shows pattern k (k < 2**ndirs <= 64)."""
    cdef bb_t beam[CORE_MAX_DIRS]
    cdef bb_t m[64]
    cdef int d, j, cnt = 1
    cdef bb_t out = 0
    beam_masks(b, own, blockers, beam)
    if b.ndirs == 4:
        return pattern_set4(own, beam)
    # Any other number of directions: the same split, in a loop.
    m[0] = own
    for d in range(b.ndirs):
        for j in range(cnt):
            m[j + cnt] = m[j] & beam[d]
            m[j] &= ~beam[d]
        cnt <<= 1
    for j in range(cnt):
        out |= (<bb_t>(m[j] != 0)) << j
    return out


# --- incremental scores: one more stone or blocker on any point -----------------------------

cdef struct Gains:
    # One side's stones and the blockers, ready to tell the score after one more stone
    # or one more blocker on any empty point (``gains_init``, ``score_with``,
    # ``score_blocked``) without scoring the whole board again: a stone on x changes only
    # x and the nearest own stones seen from x along each axis. Equal to
    # ``pattern_set_c``'s count (checked point by point on random positions of every
    # board: tests/test_core.py).
    bb_t own
    bb_t blk
    bb_t up_sees[CORE_MAX_DIRS]     # per axis: the points that see an own stone towards
    bb_t down_sees[CORE_MAX_DIRS]   # higher (lower) point numbers, no blocker between
    int base              # the score of ``own`` (distinct patterns)
    bb_t present          # the patterns shown (bit k: pattern k), and those shown by
    bb_t once             # exactly one, two, three stones
    bb_t twice
    bb_t thrice
    int pat[64]           # each own stone's pattern, by point
    int cnt[64]           # own stones per pattern
    int ch_p[2 * CORE_MAX_DIRS]     # changes under way (score_with, score_blocked)
    int ch_old[2 * CORE_MAX_DIRS]


cdef inline void sight_masks(const Board* b, bb_t own, bb_t blockers, bb_t* up_sees,
                             bb_t* down_sees) noexcept nogil:
    """Per axis, every point that sees an own stone further along towards higher
    (``up_sees``) or lower (``down_sees``) point numbers on its line, no blocker
    between: the core's ``beam_masks`` for every point, not only own stones (its beam
    masks are ``own & up_sees``, ``own & down_sees``)."""
    cdef int a, i
    cdef bb_t s, line, nb, nbit, below, seg, up, down
    for a in range(b.naxes):
        if b.axis_contig[a]:
            axis_fill(b, a, own, blockers, &up_sees[a], &down_sees[a])
            continue
        up = 0
        down = 0
        for i in range(b.axis_first[a], b.axis_first[a + 1]):
            line = b.line[i]
            nb = blockers & line
            while True:                 # each stretch between blockers, low to high
                if nb:
                    nbit = nb & (~nb + 1)
                    below = nbit - 1
                else:
                    nbit = 0
                    below = ~(<bb_t>0)
                seg = line & below
                s = own & seg
                if s:
                    # above the lowest own stone; below the highest
                    down |= seg & ~(((s & (~s + 1)) << 1) - 1)
                    up |= seg & (((<bb_t>1) << sz_msb(s)) - 1)
                line &= ~below & ~nbit      # (a blocker sees nothing)
                if not nb:
                    break
                nb ^= nbit
        up_sees[a] = up
        down_sees[a] = down


cdef inline void gains_init(const Board* b, Gains* g, bb_t own, bb_t blk) noexcept nogil:
    cdef bb_t m = own
    cdef int a, p, k, base = 0
    sight_masks(b, own, blk, g.up_sees, g.down_sees)
    g.own = own
    g.blk = blk
    for k in range(1 << b.ndirs):
        g.cnt[k] = 0
    while m:
        p = sz_ctz(m)
        m &= m - 1
        k = 0
        for a in range(b.naxes):
            k |= (<int>((g.up_sees[a] >> p) & 1) << b.axis_up[a]) \
                | (<int>((g.down_sees[a] >> p) & 1) << b.axis_down[a])
        g.pat[p] = k
        if g.cnt[k] == 0:
            base += 1
        g.cnt[k] += 1
    g.base = base
    g.present = g.once = g.twice = g.thrice = 0
    for k in range(1 << b.ndirs):
        if g.cnt[k]:
            g.present |= (<bb_t>1) << k
            if g.cnt[k] == 1:
                g.once |= (<bb_t>1) << k
            elif g.cnt[k] == 2:
                g.twice |= (<bb_t>1) << k
            elif g.cnt[k] == 3:
                g.thrice |= (<bb_t>1) << k


cdef inline int gains_seen(const Board* b, const Gains* g, int x, int a, int* px,
                           int* newpat) noexcept nogil:
    """Axis ``a`` of a stone on the empty point ``x``: adds to ``px`` the directions in
    which x sees an own stone; where it sees one on one side only, returns that stone
    (which now sees x: its pattern becomes ``newpat``), else -1."""
    cdef int up = b.axis_up[a], dn = b.axis_down[a], p
    cdef int u = <int>((g.up_sees[a] >> x) & 1), d = <int>((g.down_sees[a] >> x) & 1)
    px[0] |= (u << up) | (d << dn)
    if u == d:
        return -1
    if u:
        p = sz_ctz(b.ray[x][up] & g.own)
        newpat[0] = g.pat[p] | (1 << dn)
    else:
        p = sz_msb(b.ray[x][dn] & g.own)
        newpat[0] = g.pat[p] | (1 << up)
    return p


cdef inline void _gains_count(Gains* g, int k, int d) noexcept nogil:
    """One stone more (``d`` = 1) or fewer (-1) with pattern k, the masks kept."""
    cdef bb_t one = (<bb_t>1) << k
    cdef int c
    g.cnt[k] += d
    c = g.cnt[k]
    g.present = (g.present & ~one) | (one if c > 0 else 0)
    g.once = (g.once & ~one) | (one if c == 1 else 0)
    g.twice = (g.twice & ~one) | (one if c == 2 else 0)
    g.thrice = (g.thrice & ~one) | (one if c == 3 else 0)


cdef inline void gains_add_stone(const Board* b, Gains* g, int x) noexcept nogil:
    """``g`` becomes the Gains of its stones plus one on the empty point ``x`` (as
    ``gains_init`` would make them): x's pattern, the one own stone x sees on each line
    where it sees one on one side only, and the points that now see x."""
    cdef int a, up, dn, p, k = 0, px = 0
    cdef bb_t r, bl
    for a in range(b.naxes):
        p = gains_seen(b, g, x, a, &px, &k)
        if p >= 0:
            _gains_count(g, g.pat[p], -1)
            _gains_count(g, k, 1)
            g.pat[p] = k
        up = b.axis_up[a]
        dn = b.axis_down[a]
        r = b.ray[x][dn]                 # below x, up to a blocker: they see x now
        bl = r & g.blk
        if bl:
            r &= ~((((<bb_t>1) << sz_msb(bl)) << 1) - 1)
        g.up_sees[a] |= r
        r = b.ray[x][up]
        bl = r & g.blk
        if bl:
            r &= (bl & (~bl + 1)) - 1
        g.down_sees[a] |= r
    g.pat[x] = px
    _gains_count(g, px, 1)
    g.own |= (<bb_t>1) << x
    g.base = sz_popcount(g.present)


cdef inline int gains_change(Gains* g, int n, int p, int newpat, int* score) noexcept nogil:
    """Give own stone ``p`` pattern ``newpat`` (kept in the change list to undo);
    returns the list's new length."""
    cdef int old = g.pat[p]
    if newpat == old:
        return n
    g.cnt[old] -= 1
    if g.cnt[old] == 0:
        score[0] -= 1
    if g.cnt[newpat] == 0:
        score[0] += 1
    g.cnt[newpat] += 1
    g.pat[p] = newpat
    g.ch_p[n] = p
    g.ch_old[n] = old
    return n + 1


cdef inline void gains_undo(Gains* g, int n) noexcept nogil:
    cdef int i, p
    for i in range(n - 1, -1, -1):
        p = g.ch_p[i]
        g.cnt[g.pat[p]] -= 1
        g.cnt[g.ch_old[i]] += 1
        g.pat[p] = g.ch_old[i]


cdef inline int score_with(const Board* b, const Gains* g, int x) noexcept nogil:
    """The score of ``own`` plus a stone on the empty point ``x`` (equal to
    ``popcount(pattern_set_c(b, own | 1 << x, blk))``). On each axis where x sees an
    own stone on one side only, that stone now sees x: it leaves its pattern for
    another; a pattern left goes where no other stone keeps it (at most one change per
    axis, so at most three stones leave the same pattern)."""
    cdef int a, p, k = 0, px = 0
    cdef bb_t left0 = 0, left1 = 0, left2 = 0, gained = 0, all3, some2, removed, lb
    for a in range(b.naxes):
        p = gains_seen(b, g, x, a, &px, &k)
        if p >= 0:
            gained |= (<bb_t>1) << k
            lb = (<bb_t>1) << g.pat[p]
            if a == 0:
                left0 = lb
            elif a == 1:
                left1 = lb
            else:
                left2 = lb
    all3 = left0 & left1 & left2
    some2 = (left0 & left1) | (left0 & left2) | (left1 & left2)
    removed = ((left0 ^ left1 ^ left2) & ~all3 & g.once) | (some2 & ~all3 & g.twice) \
        | (all3 & g.thrice)
    return sz_popcount((g.present & ~removed) | gained | ((<bb_t>1) << px))


cdef inline int score_blocked(const Board* b, Gains* g, int x) noexcept nogil:
    """The score of ``own`` with one more blocker on the empty point ``x`` (equal to
    ``score_of(b, own, blk | 1 << x)``): the stones that saw each other through x no
    longer do."""
    cdef int a, up, dn, hi, lo, n = 0, score = g.base
    for a in range(b.naxes):
        if not ((g.up_sees[a] & g.down_sees[a]) >> x) & 1:
            continue
        up = b.axis_up[a]
        dn = b.axis_down[a]
        hi = sz_ctz(b.ray[x][up] & g.own)
        lo = sz_msb(b.ray[x][dn] & g.own)
        n = gains_change(g, n, hi, g.pat[hi] & ~(1 << dn), &score)
        n = gains_change(g, n, lo, g.pat[lo] & ~(1 << up), &score)
    if n:
        gains_undo(g, n)
    return score


cdef inline int score_c(const Board* b, const State* s, int side) noexcept nogil:
    return sz_popcount(pattern_set_c(b, s.stones[side],
                                     s.neutral if s.rule == C_ADVANCED else 0))


cdef inline int value_c(const Board* b, const State* s) noexcept nogil:
    """100 * (red score - blue score) + (red neutrals left - blue neutrals left)."""
    return 100 * (score_c(b, s, 0) - score_c(b, s, 1)) + (s.left[0] - s.left[1])


cdef inline int gen_turns_c(const Board* b, const State* s, int* out) noexcept nogil:
    """Write every legal turn to ``out`` (room for CORE_MAX_TURNS); return the count.
    Order: stones by point; each first without a neutral, then neutrals by point."""
    cdef bb_t empty, e1, e2
    cdef int n = 0, p, q
    if is_over_c(s):
        return 0
    empty = b.full & ~(s.stones[0] | s.stones[1] | s.neutral)
    e1 = empty
    while e1:
        p = sz_ctz(e1)
        e1 &= e1 - 1
        out[n] = p
        n += 1
        if s.left[s.side] > 0:
            e2 = empty & ~((<bb_t>1) << p)
            while e2:
                q = sz_ctz(e2)
                e2 &= e2 - 1
                out[n] = p + 64 * (q + 1)
                n += 1
    return n


cdef inline bb_t turn_key_c(const Board* b, const State* s, int turn) noexcept nogil:
    """What making ``turn`` changes in ``s.key`` (the child's key is s.key ^ this)."""
    cdef int side = s.side
    cdef int q = (turn >> 6) - 1
    cdef bb_t k = b.key_stone[side][turn & 63] ^ b.key_side
    if q >= 0:
        k ^= b.key_stone[2][q] ^ b.key_left[side][s.left[side]] ^ b.key_left[side][s.left[side] - 1]
    return k


cdef inline void make_c(const Board* b, State* s, int turn) noexcept nogil:
    """Make a legal turn."""
    cdef int side = s.side
    cdef int p = turn & 63
    cdef int q = (turn >> 6) - 1
    s.key ^= turn_key_c(b, s, turn)
    s.stones[side] |= (<bb_t>1) << p
    if q >= 0:
        s.neutral |= (<bb_t>1) << q
        s.left[side] -= 1
    s.side = side ^ 1


cdef inline void unmake_c(const Board* b, State* s, int turn) noexcept nogil:
    """Take back ``turn``, the last turn made."""
    cdef int side = s.side ^ 1
    cdef int p = turn & 63
    cdef int q = (turn >> 6) - 1
    s.side = side
    s.stones[side] &= ~((<bb_t>1) << p)
    if q >= 0:
        s.neutral &= ~((<bb_t>1) << q)
        s.left[side] += 1
    s.key ^= turn_key_c(b, s, turn)     # the state as before the turn


cdef inline bb_t map_mask_c(const Board* b, int sym, bb_t m) noexcept nogil:
    cdef bb_t out = 0
    cdef int p
    while m:
        p = sz_ctz(m)
        m &= m - 1
        out |= (<bb_t>1) << b.sym[sym][p]
    return out


cdef bb_t full_key_c(const Board* b, const State* s) noexcept nogil


cdef class BoardTables:
    cdef Board* board
    cdef readonly object geometry
    cdef readonly tuple turns      # the board's Turn objects by code (rules.text.turn_table)


cdef class Position:
    cdef State st
    cdef Board* board
    cdef readonly BoardTables tables
    cdef readonly object geometry
    cpdef Position copy(self)
    cpdef make(self, int turn)
    cpdef unmake(self, int turn)
    cdef bb_t _blockers(self)
    cpdef Position transformed(self, int sym)
