# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Monte Carlo tree search at C level, on the core's ``State``.

Contracts
---------
* :class:`Tree` searches from one position for a given number of iterations; the
  result depends only on the position, the parameters and the 64-bit seed (a
  xorshift generator seeded by the caller through hashlib), never on the clock.
* Rewards are in [0, 1] from the view of the side that played the turn into a
  node: a blend of win/draw/loss (1, 1/2, 0) and a smooth margin term
  ``(1 + tanh(value / margin_scale)) / 2``, ``margin_weight`` being its share (0.1:
  games between good players end level on points more often than not, so the result
  leads; measured in docs/engine.md, "The reward's margin weight").
* Final values are the rules' composite value (Red's side); every node also keeps
  the mean final value of the playouts through it (an estimate, never proved).
* Ctrl-C: a run looks at pending signals every 64 iterations (main thread), so the
  Python handler's KeyboardInterrupt leaves :meth:`Tree.run` within milliseconds.

Technique: UCB1 selection with progressive widening over candidates sorted by a
cheap prior (own score gain + half the opponent's gain on the point, the stone
also denying it; a few neutral turns pair the best stones with the points the
neutral hurts the opponent most on, each ranked below its stone alone by the best
target's worth, ``keep_share`` of it: a neutral kept is worth about that later, and
without it every pair came before every stone alone, which a node below the root
then never opened), and playouts by a randomised greedy policy:
each stone goes where it raises the mover's score most among ``sample`` random
empty points (all of them when ``sample`` is 0), a uniformly random one with
probability ``eps``; a neutral goes on the opponent's best point among a sample,
at a rate that spends the supply over the turns left.

Two options sharpen the end of the game (``Engine`` turns them on under the Basic
rule): ``exact_deep`` settles every node one turn before the exact tail (three turns
left under Basic, two under Advanced) with the endgame solver's leaf functions, once:
the node keeps that exact value, opens no child and backs it up on every later visit
instead of a playout; ``pair_targets`` (with ``wide_turns`` or fewer turns left, at
nodes shallower than ``pair_depth``) counts in a neutral target the opponent's best
two stones through the point, so a neutral that denies a pattern two stones short is
a candidate (the one-stone gain does not see it).
"""
from libc.stdlib cimport malloc, realloc, free
from libc.math cimport sqrt, log, tanh
from libc.stdint cimport uint64_t

cdef extern from *:
    """
    /* UCB1 over a node's open children, their statistics side by side (mean
       rewards, visits): the first child of the highest mean + c*sqrt(lnN/n). Most
       children of a wide node share a few small visit counts, so the exploration term
       is worked out once per count (the same double as for each child alone). */
    #include <math.h>
    #include <string.h>
    #define SZ_UCB_TABLE 64
    #define SZ_UCB_DIRECT 12
    static inline int sz_ucb_pick(const double* mean, const int* n, int cnt, double c,
                                  double lnN) {
        double term[SZ_UCB_TABLE], t, u, best_u = -1e300;
        unsigned char have[SZ_UCB_TABLE];
        int k, nk, best_k = 0;
        if (cnt <= SZ_UCB_DIRECT) {         /* few children: no table */
            for (k = 0; k < cnt; k++) {
                u = mean[k] + c * sqrt(lnN / n[k]);
                if (u > best_u) {
                    best_u = u;
                    best_k = k;
                }
            }
            return best_k;
        }
        memset(have, 0, sizeof(have));
        for (k = 0; k < cnt; k++) {
            nk = n[k];
            if (nk < SZ_UCB_TABLE) {
                if (!have[nk]) {
                    term[nk] = c * sqrt(lnN / nk);
                    have[nk] = 1;
                }
                t = term[nk];
            } else {
                t = c * sqrt(lnN / nk);
            }
            u = mean[k] + t;
            if (u > best_u) {
                best_u = u;
                best_k = k;
            }
        }
        return best_k;
    }
    """
    int sz_ucb_pick(const double* mean, const int* n, int cnt, double c,
                    double lnN) noexcept nogil

cdef extern from "Python.h":
    # noexcept: _poll_signals hands on the exception it sets
    int check_signals "PyErr_CheckSignals" () noexcept

from szsolver.rules._core cimport (Board, State, bb_t, Position, make_c, pattern_set_c,
                                   is_over_c, sz_popcount, sz_ctz, C_ADVANCED, C_BASIC,
                                   Gains, gains_init, gains_add_stone, score_with,
                                   score_blocked)
from szsolver.endgame._leaves cimport (last_turn, two_turns_basic, two_turns_advanced,
                                       three_turns_basic)
from szsolver.endgame._common cimport INF
from szsolver.rules._random cimport next_random, random_below

cdef enum:
    # the search looks at pending signals (Ctrl-C) every 64 iterations: about a
    # millisecond of search, a cost too small to measure
    SIGNAL_POLL_MASK = 63

cdef enum:
    MAX_CAND = 400        # candidates of one node: <= 64 stones + neutral pairs


cdef struct Node:
    int turn              # the turn into this node (-1 at the root)
    int parent
    int depth             # turns from the root
    int slot              # its place in the parent's candidates (-1: none, the focus)
    int cand_off          # candidates in the pools (-1: not expanded yet)
    int n_cand
    int n_open            # children created so far: candidates 0 .. n_open-1
    int visits
    double wsum           # rewards, from the view of the side that played ``turn``
    double vsum           # final values, Red's side
    int settled           # 1: the node's value is exact (``svalue``): it opens no child
    int svalue            # that value (Red's side)


cdef struct Params:
    double c_uct          # exploration constant
    double widen_base     # children open at a node: base + widen_mult * sqrt(visits)
    double widen_mult
    double margin_weight
    double margin_scale
    double eps            # playouts: chance of a uniformly random stone
    int sample            # playouts: points looked at per stone (0: all)
    double neutral_rate   # playouts: neutrals spent ~ rate * left / own turns left
    int nq                # neutral targets per node
    int ns                # stones paired with them
    int exact_tail        # value the last turns exactly instead of playing them out
    int wide_turns        # with at most this many turns left, nq_wide/ns_wide instead
    int nq_wide
    int ns_wide
    int pair_targets      # near the end (``wide_turns``) a neutral target also counts the
                          # opponent's best two-stone gain through it (this weight x 0.5)
    int pair_depth        # ... at nodes shallower than this (0: none, 1: the root)
    double keep_share     # a stone-and-neutral turn's prior loses this share of the best
                          # neutral target's value (the neutral kept for later is worth
                          # about as much), so plain stones are opened among the pairs
    int exact_deep        # settle the nodes one turn before the exact tail with the
                          # solver's leaf functions (three turns left under Basic, two
                          # under Advanced), once each


cdef inline double rnd_unit(uint64_t* s) noexcept nogil:
    return (next_random(s) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int score_of(const Board* b, bb_t own, bb_t blockers) noexcept nogil:
    return sz_popcount(pattern_set_c(b, own, blockers))


cdef inline bb_t empty_of(const Board* b, const State* s) noexcept nogil:
    return b.full & ~(s.stones[0] | s.stones[1] | s.neutral)


cdef inline int nth_bit(bb_t m, int k) noexcept nogil:
    while k > 0:
        m &= m - 1
        k -= 1
    return sz_ctz(m)


cdef inline double reward_red(int value, const Params* P) noexcept nogil:
    cdef double wdl = 1.0 if value > 0 else (0.5 if value == 0 else 0.0)
    return (1.0 - P.margin_weight) * wdl + P.margin_weight * 0.5 * (1.0 + tanh(value / P.margin_scale))


cdef int policy_turn(const Board* b, const State* s, const Params* P, uint64_t* rng,
                     Gains* gs) noexcept nogil:
    """One turn of the playout policy (see the module doc); ``gs[side]``: each side's
    incremental scores at ``s`` (``gains_init``)."""
    cdef int me = s.side, op = me ^ 1
    cdef bb_t E = empty_of(b, s), e
    cdef int ne = sz_popcount(E)
    cdef bb_t blk = s.neutral if s.rule == C_ADVANCED else 0
    cdef bb_t mine = s.stones[me]
    cdef int i, k, p, best_p = -1, best_v = -1, v, nties = 0, q, best_q = -1
    cdef int own_left, n_look, whole
    cdef int opp_now, me_now
    cdef double best_qv, qv
    cdef Gains gm
    cdef Gains* g = &gs[me]
    if P.eps > 0 and rnd_unit(rng) < P.eps:
        best_p = nth_bit(E, random_below(rng, ne))
    else:
        n_look = ne if (P.sample <= 0 or P.sample >= ne) else P.sample
        whole = n_look == ne
        e = E
        for i in range(n_look):
            if whole:                   # every point in order
                p = sz_ctz(e)
                e &= e - 1
            else:
                p = nth_bit(E, random_below(rng, ne))
            v = score_with(b, g, p)
            if v > best_v:
                best_v = v
                best_p = p
                nties = 1
            elif v == best_v:
                nties += 1
                if random_below(rng, nties) == 0:
                    best_p = p
    if s.left[me] == 0 or ne < 2:
        return best_p
    own_left = s.stones_per_side - sz_popcount(mine)
    if own_left <= 0 or rnd_unit(rng) >= P.neutral_rate * s.left[me] / own_left:
        return best_p
    # A neutral on the point that hurts the opponent most (a sample of points).
    g = &gs[op]
    opp_now = g.base
    if s.rule == C_ADVANCED:
        gains_init(b, &gm, mine | ((<bb_t>1) << best_p), blk)
        me_now = gm.base
    n_look = ne if (P.sample <= 0 or P.sample >= ne) else P.sample
    whole = n_look == ne
    best_qv = 0.5
    e = E
    for i in range(n_look):
        if whole:
            q = sz_ctz(e)
            e &= e - 1
        else:
            q = nth_bit(E, random_below(rng, ne))
        if q == best_p:
            continue
        qv = score_with(b, g, q) - opp_now
        if s.rule == C_ADVANCED:
            qv += opp_now - score_blocked(b, g, q)
            qv += score_blocked(b, &gm, q) - me_now
        if qv > best_qv:
            best_qv = qv
            best_q = q
    if best_q < 0:
        return best_p
    return best_p + 64 * (best_q + 1)


cdef inline int turns_left_c(const State* s) noexcept nogil:
    return 2 * s.stones_per_side - sz_popcount(s.stones[0]) - sz_popcount(s.stones[1])


cdef inline int exact_tail(const Board* b, const State* s, int* value) noexcept nogil:
    """With the last turns left (one; two under the Basic rule) the exact value
    (Red's side) goes to ``value`` and 1 is returned (the endgame solver's exact
    last-turn functions); else 0."""
    cdef int tl = turns_left_c(s), v, turn
    if tl == 1:
        v = last_turn(b, s, -INF, INF, &turn, 0)
    elif tl == 2 and s.rule == C_BASIC:
        v = two_turns_basic(b, s, NULL)
    else:
        return 0
    value[0] = v if s.side == 0 else -v
    return 1


cdef inline int deep_turns(const State* s) noexcept nogil:
    """The turns left at which ``exact_deep`` settles a node: one more than the tail."""
    return 3 if s.rule == C_BASIC else 2


cdef int exact_deep_value(const Board* b, State* s) noexcept nogil:
    """The exact value (Red's side) of a position with ``deep_turns`` turns left, from
    the endgame solver's leaf functions (full window: every turn counted)."""
    cdef int v, bt = -1
    cdef long long nodes = 0
    cdef bb_t prints = 0
    if s.rule == C_BASIC:
        v = three_turns_basic(b, s, -INF, INF, -1, &bt, &nodes, NULL, &prints, NULL, -1)
    else:
        v = two_turns_advanced(b, s, -INF, INF, -1, &bt, &nodes, NULL)
    return v if s.side == 0 else -v


cdef inline void gains_init_sides(const Board* b, const State* s, Gains* gs) noexcept nogil:
    cdef bb_t blk = s.neutral if s.rule == C_ADVANCED else 0
    gains_init(b, &gs[0], s.stones[0], blk)
    gains_init(b, &gs[1], s.stones[1], blk)


cdef int playout(const Board* b, State* s, const Params* P, uint64_t* rng) noexcept nogil:
    """Play the policy on ``s`` (changed) until the last turns, valued exactly
    (``exact_tail``); returns the final value (Red's side)."""
    cdef int t, v, ready = 0
    cdef Gains gs[2]            # each side's incremental scores, kept up to date
    while not is_over_c(s):
        if P.exact_tail and exact_tail(b, s, &v):
            return v
        if not ready:
            gains_init_sides(b, s, gs)
            ready = 1
        t = policy_turn(b, s, P, rng, gs)
        make_c(b, s, t)
        if t >= 64 and s.rule == C_ADVANCED:
            ready = 0           # a neutral cuts beams: both set up again
        else:
            gains_add_stone(b, &gs[s.side ^ 1], t & 63)
    return 100 * (score_of(b, s.stones[0], s.neutral if s.rule == C_ADVANCED else 0)
                  - score_of(b, s.stones[1], s.neutral if s.rule == C_ADVANCED else 0)) \
        + (s.left[0] - s.left[1])


cdef int gen_candidates(const Board* b, const State* s, const Params* P, int* turns,
                        double* prior, int depth) noexcept nogil:
    """The turns a node may try and their priors, in the order made (``sort_by_prior``
    or ``select_best`` puts them best first); returns their number."""
    cdef int me = s.side, op = me ^ 1
    cdef bb_t E = empty_of(b, s), e
    cdef bb_t blk = s.neutral if s.rule == C_ADVANCED else 0
    cdef bb_t mine = s.stones[me], theirs = s.stones[op]
    cdef Gains gm, go, gq
    cdef int me_now, opp_now
    cdef int n = 0, p, q, i, j, nst, ntg
    cdef double sv[64]
    cdef double qv[64]
    cdef int st[64]
    cdef int tg[64]
    cdef int opp_with[64]          # the opponent's score with a stone on each empty point
    cdef double x
    cdef int t
    cdef int opp_left = s.stones_per_side - sz_popcount(theirs)
    cdef int v2
    cdef int nq = P.nq, ns = P.ns, wide = 0, r, best2
    cdef bb_t e2
    gains_init(b, &gm, mine, blk)
    gains_init(b, &go, theirs, blk)
    me_now = gm.base
    opp_now = go.base
    if turns_left_c(s) <= P.wide_turns:     # near the end neutral turns decide more
        nq, ns = P.nq_wide, P.ns_wide
        wide = 1
    e = E
    nst = 0
    while e:
        p = sz_ctz(e)
        e &= e - 1
        x = score_with(b, &gm, p) - me_now
        opp_with[p] = score_with(b, &go, p)
        if opp_left > 0:
            x += 0.5 * (opp_with[p] - opp_now)
        x += 1e-6 * (63 - p)           # deterministic order among equals
        turns[n] = p
        prior[n] = x
        st[nst] = p
        sv[nst] = x
        nst += 1
        n += 1
    if s.left[me] > 0 and nst >= 2 and opp_left > 0:
        # Neutral targets: points where a neutral hurts the opponent (denial, and
        # under the Advanced rule cuts), paired with the best stones.
        ntg = 0
        e = E
        while e:
            q = sz_ctz(e)
            e &= e - 1
            x = opp_with[q] - opp_now
            if wide and P.pair_targets and opp_left >= 2 and depth < P.pair_depth:
                # the opponent's best pair of stones through q (a pattern two stones
                # short, which the one-stone gain does not see)
                best2 = 0
                gq = go                 # the opponent's set-up with a stone on q
                gains_add_stone(b, &gq, q)
                e2 = E & ~((<bb_t>1) << q)
                while e2:
                    r = sz_ctz(e2)
                    e2 &= e2 - 1
                    v2 = score_with(b, &gq, r) - opp_with[r]
                    if v2 > best2:
                        best2 = v2
                x += P.pair_targets * 0.5 * best2
            if s.rule == C_ADVANCED:
                x += opp_now - score_blocked(b, &go, q)
                x += score_blocked(b, &gm, q) - me_now
            if x > 0:
                tg[ntg] = q
                qv[ntg] = x + 1e-6 * (63 - q)
                ntg += 1
        # partial selection sorts: best P.nq targets, best P.ns stones
        for i in range(min(nq, ntg)):
            for j in range(i + 1, ntg):
                if qv[j] > qv[i]:
                    qv[i], qv[j] = qv[j], qv[i]
                    tg[i], tg[j] = tg[j], tg[i]
        for i in range(min(ns, nst)):
            for j in range(i + 1, nst):
                if sv[j] > sv[i]:
                    sv[i], sv[j] = sv[j], sv[i]
                    st[i], st[j] = st[j], st[i]
        for i in range(min(ns, nst)):
            for j in range(min(nq, ntg)):
                if st[i] == tg[j] or n >= MAX_CAND:
                    continue
                turns[n] = st[i] + 64 * (tg[j] + 1)
                prior[n] = sv[i] + qv[j] - 0.25 - P.keep_share * qv[0]
                n += 1
    return n


cdef inline void select_best(double* prior, int* turns, int k, int n) noexcept nogil:
    """Bring the best of candidates k .. n-1 (the earliest of equal priors) to k, the
    others keeping their order: the k-th of a stable sort by prior, best first, once
    0 .. k-1 are. A node opens its candidates one by one and most open a few, so they
    are sorted only as far as they are opened."""
    cdef int j, best = k
    cdef double x
    cdef int t
    for j in range(k + 1, n):
        if prior[j] > prior[best]:
            best = j
    if best == k:
        return
    x = prior[best]
    t = turns[best]
    for j in range(best, k, -1):
        prior[j] = prior[j - 1]
        turns[j] = turns[j - 1]
    prior[k] = x
    turns[k] = t


cdef void sort_by_prior(double* prior, int* turns, int n) noexcept nogil:
    """Sort ``turns`` by ``prior``, best first, equal priors in their order (a stable
    merge sort: a node's hundreds of neutral turns made insertion sort quadratic)."""
    cdef double pbuf[MAX_CAND]
    cdef int tbuf[MAX_CAND]
    cdef double* src_p = prior
    cdef int* src_t = turns
    cdef double* dst_p = pbuf
    cdef int* dst_t = tbuf
    cdef double* sp
    cdef int* stp
    cdef int width = 1, lo, mid, hi, i, j, k
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if src_p[i] >= src_p[j]:        # the left run first among equals
                    dst_p[k] = src_p[i]
                    dst_t[k] = src_t[i]
                    i += 1
                else:
                    dst_p[k] = src_p[j]
                    dst_t[k] = src_t[j]
                    j += 1
                k += 1
            while i < mid:
                dst_p[k] = src_p[i]
                dst_t[k] = src_t[i]
                i += 1
                k += 1
            while j < hi:
                dst_p[k] = src_p[j]
                dst_t[k] = src_t[j]
                j += 1
                k += 1
            lo = hi
        sp, stp = src_p, src_t
        src_p, src_t = dst_p, dst_t
        dst_p, dst_t = sp, stp
        width *= 2
    if src_p != prior:
        for i in range(n):
            prior[i] = src_p[i]
            turns[i] = src_t[i]


cdef void* grown(void* p, size_t size) except NULL:
    """``p`` reallocated to ``size`` bytes (MemoryError when there is no room)."""
    cdef void* q = realloc(p, size)
    if q == NULL:
        raise MemoryError()
    return q


cdef class Tree:
    """A search tree from one position (the core's Position, copied)."""
    cdef Position root
    cdef const Board* b
    cdef State s0
    cdef Params P
    cdef Node* nodes
    cdef int n_nodes, cap_nodes
    cdef int* cand_turn
    cdef int* cand_child
    cdef double* cand_prior       # the candidates' priors (opened ones: sorted, best first)
    cdef double* cand_mean           # each open candidate's child's mean reward and visits,
    cdef int* cand_n              # side by side per node: the selection streams them
    cdef long long n_cands, cap_cands
    cdef uint64_t rng
    cdef int extra                # a root child outside the candidates (focus), or -1
    cdef readonly long long iterations

    def __cinit__(self, Position pos, unsigned long long seed, *, double c_uct=0.6,
                  double widen_base=2.0, double widen_mult=1.0, double margin_weight=0.1,
                  double margin_scale=300.0, double eps=0.05, int sample=0,
                  double neutral_rate=0.5, int nq=4, int ns=3, bint exact_tail=True,
                  int wide_turns=10, int nq_wide=16, int ns_wide=16,
                  bint exact_deep=False, int pair_targets=0, int pair_depth=64,
                  double keep_share=1.0):
        self.root = pos.copy()
        self.b = pos.board
        self.s0 = pos.st
        self.P.c_uct = c_uct
        self.P.widen_base = widen_base
        self.P.widen_mult = widen_mult
        self.P.margin_weight = margin_weight
        self.P.margin_scale = margin_scale
        self.P.eps = eps
        self.P.sample = sample
        self.P.neutral_rate = neutral_rate
        self.P.nq = min(nq, 32)
        self.P.ns = min(ns, 32)
        self.P.exact_tail = exact_tail
        self.P.wide_turns = wide_turns
        self.P.nq_wide = min(nq_wide, 32)
        self.P.ns_wide = min(ns_wide, 32)
        self.P.exact_deep = exact_deep and exact_tail
        self.P.pair_targets = pair_targets
        self.P.pair_depth = pair_depth
        self.P.keep_share = keep_share
        self.rng = seed | 1
        self.cap_nodes = 1024
        self.nodes = <Node*>malloc(self.cap_nodes * sizeof(Node))
        self.cap_cands = 4096
        self.cand_turn = <int*>malloc(self.cap_cands * sizeof(int))
        self.cand_child = <int*>malloc(self.cap_cands * sizeof(int))
        self.cand_mean = <double*>malloc(self.cap_cands * sizeof(double))
        self.cand_prior = <double*>malloc(self.cap_cands * sizeof(double))
        self.cand_n = <int*>malloc(self.cap_cands * sizeof(int))
        if self.nodes == NULL or self.cand_turn == NULL or self.cand_child == NULL \
                or self.cand_mean == NULL or self.cand_n == NULL or self.cand_prior == NULL:
            raise MemoryError()
        self.n_nodes = 0
        self.n_cands = 0
        self.extra = -1
        self._new_node(-1, -1)

    def __dealloc__(self):
        free(self.nodes)
        free(self.cand_turn)
        free(self.cand_child)
        free(self.cand_mean)
        free(self.cand_prior)
        free(self.cand_n)

    cdef int _new_node(self, int turn, int parent) except -1:
        cdef Node* nd
        if self.n_nodes == self.cap_nodes:
            self.cap_nodes *= 2
            self.nodes = <Node*>grown(self.nodes, self.cap_nodes * sizeof(Node))
        nd = &self.nodes[self.n_nodes]
        nd.turn = turn
        nd.parent = parent
        nd.depth = self.nodes[parent].depth + 1 if parent >= 0 else 0
        nd.slot = -1
        nd.cand_off = -1
        nd.n_cand = 0
        nd.n_open = 0
        nd.visits = 0
        nd.wsum = 0.0
        nd.vsum = 0.0
        nd.settled = 0
        nd.svalue = 0
        self.n_nodes += 1
        return self.n_nodes - 1

    cdef int _expand(self, int ni, const State* s) except -1:
        cdef int buf[MAX_CAND]
        cdef double pbuf[MAX_CAND]
        cdef int n = gen_candidates(self.b, s, &self.P, buf, pbuf, self.nodes[ni].depth), i
        cdef size_t cap
        while self.n_cands + n > self.cap_cands:
            self.cap_cands *= 2
            cap = self.cap_cands
            self.cand_turn = <int*>grown(self.cand_turn, cap * sizeof(int))
            self.cand_child = <int*>grown(self.cand_child, cap * sizeof(int))
            self.cand_mean = <double*>grown(self.cand_mean, cap * sizeof(double))
            self.cand_prior = <double*>grown(self.cand_prior, cap * sizeof(double))
            self.cand_n = <int*>grown(self.cand_n, cap * sizeof(int))
        self.nodes[ni].cand_off = <int>self.n_cands
        self.nodes[ni].n_cand = n
        for i in range(n):
            self.cand_turn[self.n_cands + i] = buf[i]
            self.cand_prior[self.n_cands + i] = pbuf[i]
            self.cand_child[self.n_cands + i] = -1
            self.cand_mean[self.n_cands + i] = 0.0
            self.cand_n[self.n_cands + i] = 0
        self.n_cands += n
        return 0

    def run(self, long long iterations):
        """Run ``iterations`` more iterations (select, expand one node, playout, back up)."""
        self._run(iterations, -1)

    def focus(self, int turn, long long iterations):
        """Run ``iterations`` iterations that all start with ``turn`` at the root (a
        legal turn, possibly outside the candidates), so its estimate is as well
        founded as the search's choice. Meant after :meth:`run`, to judge a turn."""
        cdef int k, ci = -1
        cdef Node* root = &self.nodes[0]
        if not self.root.is_legal(turn):
            raise ValueError(f"turn {turn} is not legal at the search's root")
        if root.cand_off >= 0:
            for k in range(root.n_open):
                if self.cand_turn[root.cand_off + k] == turn:
                    ci = self.cand_child[root.cand_off + k]
        if ci < 0:
            if self.extra < 0 or self.nodes[self.extra].turn != turn:
                self.extra = self._new_node(turn, 0)
            ci = self.extra
        self._run(iterations, ci)

    cdef _run(self, long long iterations, int forced):
        cdef long long it
        cdef int ni, ci, k, best_k, n_allow, value, side_in, done
        cdef State s
        cdef Node* nd
        cdef Node* ch
        cdef double best_u, u, lnN, r_red
        for it in range(iterations):
            if (it & SIGNAL_POLL_MASK) == SIGNAL_POLL_MASK:
                self._poll_signals(it)
            s = self.s0
            ni = 0
            done = 0
            if forced >= 0:
                ni = forced
                make_c(self.b, &s, self.nodes[ni].turn)
                if self.nodes[ni].visits == 0 and not is_over_c(&s) \
                        and not (self.P.exact_deep and turns_left_c(&s) == deep_turns(&s)):
                    # a new child: its first iteration is a playout from it
                    value = playout(self.b, &s, &self.P, &self.rng)
                    self._backup(ni, value)
                    continue
            while True:
                if self.nodes[ni].settled:
                    value = self.nodes[ni].svalue
                    done = 1
                    break
                if ni != 0 and self.P.exact_deep and not is_over_c(&s) \
                        and turns_left_c(&s) == deep_turns(&s):
                    value = exact_deep_value(self.b, &s)
                    self.nodes[ni].settled = 1
                    self.nodes[ni].svalue = value
                    done = 1
                    break
                if is_over_c(&s) or (self.P.exact_tail and turns_left_c(&s) <= 2
                                     and (turns_left_c(&s) == 1 or s.rule == C_BASIC)):
                    break           # the playout below values it exactly
                nd = &self.nodes[ni]
                if nd.cand_off < 0:
                    self._expand(ni, &s)
                    nd = &self.nodes[ni]
                if nd.n_cand == 0:
                    break
                n_allow = <int>(self.P.widen_base + self.P.widen_mult * sqrt(<double>nd.visits))
                if ni == 0 or n_allow > nd.n_cand:
                    n_allow = nd.n_cand
                if nd.n_open < n_allow:
                    k = nd.n_open
                    select_best(&self.cand_prior[nd.cand_off], &self.cand_turn[nd.cand_off],
                                k, nd.n_cand)
                    ci = self._new_node(self.cand_turn[nd.cand_off + k], ni)
                    nd = &self.nodes[ni]
                    self.cand_child[nd.cand_off + k] = ci
                    self.nodes[ci].slot = nd.cand_off + k
                    nd.n_open += 1
                    make_c(self.b, &s, self.nodes[ci].turn)
                    ni = ci
                    if self.P.exact_deep and turns_left_c(&s) == deep_turns(&s) \
                            and not is_over_c(&s):
                        value = exact_deep_value(self.b, &s)
                        self.nodes[ni].settled = 1
                        self.nodes[ni].svalue = value
                        done = 1
                    break
                lnN = log(<double>nd.visits + 1.0)
                best_k = sz_ucb_pick(&self.cand_mean[nd.cand_off], &self.cand_n[nd.cand_off],
                                     nd.n_open, self.P.c_uct, lnN)
                ni = self.cand_child[nd.cand_off + best_k]
                make_c(self.b, &s, self.nodes[ni].turn)
            if not done:
                value = playout(self.b, &s, &self.P, &self.rng)
            self._backup(ni, value)
        self.iterations += iterations

    cdef int _poll_signals(self, long long done) except -1:
        """Run the Python signal handlers of pending signals (main thread): Ctrl-C
        raises there, ``done`` iterations into the run (counted; the tree stays
        consistent, each iteration having been backed up whole)."""
        if check_signals() < 0:
            self.iterations += done
            return -1
        return 0

    cdef void _backup(self, int ni, int value):
        """Add a playout's result to ``ni`` and its ancestors; a node's reward is from
        the view of the side that played the turn into it."""
        cdef double r_red = reward_red(value, &self.P)
        cdef int side_in = self._side_into(ni)
        cdef Node* nd
        while ni >= 0:
            nd = &self.nodes[ni]
            nd.visits += 1
            nd.vsum += value
            if nd.parent >= 0:
                nd.wsum += r_red if side_in == 0 else 1.0 - r_red
                if nd.slot >= 0:
                    self.cand_mean[nd.slot] = nd.wsum / nd.visits
                    self.cand_n[nd.slot] = nd.visits
            side_in ^= 1
            ni = nd.parent

    cdef int _side_into(self, int ni) noexcept:
        """The side that played the turn into node ``ni`` (depth parity from the root)."""
        cdef int depth = self.nodes[ni].depth
        # depth 1 was played by the root's side to move
        return self.s0.side if depth % 2 == 1 else self.s0.side ^ 1

    def root_stats(self):
        """[(turn, visits, mean reward for the root's mover, mean final value), ...] for
        the root's children, most visited first (ties: better reward, lower turn)."""
        cdef Node* root = &self.nodes[0]
        cdef Node* ch
        cdef int k
        out = []
        kids = [self.cand_child[root.cand_off + k] for k in range(root.n_open)] \
            if root.cand_off >= 0 else []
        if self.extra >= 0:
            kids.append(self.extra)
        for k in kids:
            ch = &self.nodes[k]
            if ch.visits == 0:
                continue
            out.append((ch.turn, ch.visits, ch.wsum / ch.visits, ch.vsum / ch.visits))
        out.sort(key=lambda r: (-r[1], -r[2], r[0]))
        return out

    cdef double _backed(self, int ni, int mover, double frac, int depth):
        """Minimax of the means (Red's side) below node ``ni``, ``mover`` to move there:
        over the children visited at least ``frac`` times as often as the most
        visited one; a node without such children gives its own mean."""
        cdef Node* nd = &self.nodes[ni]
        cdef int k, c, top = 0
        cdef double v, best
        cdef int found = 0
        if nd.cand_off < 0 or nd.n_open == 0 or depth > 64:
            return nd.vsum / nd.visits
        for k in range(nd.n_open):
            c = self.cand_child[nd.cand_off + k]
            if self.nodes[c].visits > top:
                top = self.nodes[c].visits
        if top < 2:
            return nd.vsum / nd.visits
        best = 0.0
        for k in range(nd.n_open):
            c = self.cand_child[nd.cand_off + k]
            if self.nodes[c].visits < frac * top or self.nodes[c].visits < 1:
                continue
            v = self._backed(c, mover ^ 1, frac, depth + 1)
            if not found or (v > best if mover == 0 else v < best):
                best = v
                found = 1
        return best if found else nd.vsum / nd.visits

    def backed_stats(self, double frac=0.1):
        """[(turn, visits, mean reward, mean value, minimax-backed value), ...] for the
        root's children (values Red's side), in the order of :meth:`root_stats`."""
        cdef Node* root = &self.nodes[0]
        cdef int k
        out = []
        kids = [self.cand_child[root.cand_off + k] for k in range(root.n_open)] \
            if root.cand_off >= 0 else []
        if self.extra >= 0:
            kids.append(self.extra)
        for k in kids:
            if self.nodes[k].visits == 0:
                continue
            out.append((self.nodes[k].turn, self.nodes[k].visits,
                        self.nodes[k].wsum / self.nodes[k].visits,
                        self.nodes[k].vsum / self.nodes[k].visits,
                        self._backed(k, self.s0.side ^ 1, frac, 1)))
        out.sort(key=lambda r: (-r[1], -r[2], r[0]))
        return out

    def principal_line(self, int max_len=40, first=None):
        """The most visited line from the root (turns). With ``first`` (a turn at the
        root): the line that starts with it and goes on by the most visited turns below
        it (``[first]`` alone when the tree has not visited it)."""
        cdef int ni = 0, k, best, bv
        cdef Node* nd
        line = []
        if first is not None:
            nd = &self.nodes[0]
            kids = [self.cand_child[nd.cand_off + k] for k in range(nd.n_open)] \
                if nd.cand_off >= 0 else []
            if self.extra >= 0:
                kids.append(self.extra)
            line.append(first)
            ni = next((c for c in kids if self.nodes[c].turn == first
                       and self.nodes[c].visits > 0), -1)
            if ni < 0:
                return line[:max_len]
        while len(line) < max_len:
            nd = &self.nodes[ni]
            if nd.cand_off < 0 or nd.n_open == 0:
                break
            best = -1
            bv = 0
            for k in range(nd.n_open):
                c = self.cand_child[nd.cand_off + k]
                if self.nodes[c].visits > bv:
                    bv = self.nodes[c].visits
                    best = c
            if best < 0:
                break
            line.append(self.nodes[best].turn)
            ni = best
        return line

    def settled(self):
        """[(line, value), ...]: the nodes ``exact_deep`` settled, each as the turns
        from the root to it and its exact value (Red's side), in the order made."""
        cdef int ni, up
        out = []
        for ni in range(self.n_nodes):
            if not self.nodes[ni].settled:
                continue
            line = []
            up = ni
            while self.nodes[up].parent >= 0:
                line.append(self.nodes[up].turn)
                up = self.nodes[up].parent
            out.append((line[::-1], self.nodes[ni].svalue))
        return out

    @property
    def root_visits(self):
        return self.nodes[0].visits

    @property
    def root_value(self):
        return self.nodes[0].vsum / self.nodes[0].visits if self.nodes[0].visits else 0.0

    @property
    def size(self):
        return self.n_nodes


def candidates(Position pos, *, int nq=4, int ns=3, int wide_turns=10, int nq_wide=16,
               int ns_wide=16, int pair_targets=0, double keep_share=1.0):
    """The candidate turns of a node, best prior first (for tests and inspection)."""
    cdef Params P
    cdef int buf[MAX_CAND]
    cdef double prior[MAX_CAND]
    cdef int n, i
    P.nq = nq
    P.ns = ns
    P.wide_turns = wide_turns
    P.nq_wide = nq_wide
    P.ns_wide = ns_wide
    P.pair_targets = pair_targets
    P.pair_depth = 64
    P.keep_share = keep_share
    n = gen_candidates(pos.board, &pos.st, &P, buf, prior, 0)
    sort_by_prior(prior, buf, n)
    return [buf[i] for i in range(n)]


def policy(Position pos, unsigned long long seed, *, double eps=0.05, int sample=0,
           double neutral_rate=0.5):
    """One turn of the playout policy at ``pos`` (legal; deterministic for a seed)."""
    cdef Params P
    cdef uint64_t rng = seed | 1
    cdef Gains gs[2]
    P.eps = eps
    P.sample = sample
    P.neutral_rate = neutral_rate
    P.exact_tail = 0
    if is_over_c(&pos.st):
        raise ValueError("the game is over: no turn to play")
    gains_init_sides(pos.board, &pos.st, gs)
    return policy_turn(pos.board, &pos.st, &P, &rng, gs)


def playout_value(Position pos, unsigned long long seed, *, double eps=0.05, int sample=0,
                  double neutral_rate=0.5, bint exact_tail=True):
    """The final value (Red's side) of one playout of the policy from ``pos``."""
    cdef Params P
    cdef uint64_t rng = seed | 1
    cdef State s = pos.st
    P.eps = eps
    P.sample = sample
    P.neutral_rate = neutral_rate
    P.exact_tail = exact_tail
    return playout(pos.board, &s, &P, &rng)


