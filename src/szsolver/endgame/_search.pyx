# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Exhaustive endgame search at C level (issue #3).

Everything inside :func:`negamax` is plain C on the core's ``State``: no Python
object is touched between the root call and its return, except a GIL-holding
signal check every ``CHECK_EVERY`` nodes (Ctrl-C) and the clock (time limit).

Values are the rules' composite value ``100 * (score diff) + (neutrals-left
diff)``, in negamax form (from the side to move's view) inside the search.

Contracts of the techniques (each can be switched off for measurement, see
``OPT_*``):

* Fail-soft alpha-beta. A call with window (alpha, beta) returns v with
  ``v <= alpha`` => true value <= v, ``v >= beta`` => true value >= v,
  otherwise v is exact. The driver (``solver.py``) runs MTD(f) null-window
  probes on top of it, so every finished probe is a proved bound.
* Transposition table (``OPT_TT``): fixed size, 2-way buckets, keyed by the
  core's incremental zobrist key (side, neutrals left and rule included). Every
  search runs to the end of the game, so an entry needs no depth: it stores a
  proved interval [lo, hi] of the exact value and the best turn found. Entries
  with the same key are merged (intervals intersected). Replacement prefers
  keeping the entry nearer the root (more turns left).
* Exact last turns (``OPT_LEAF``): with one turn left the mover's best turn is
  found directly (Basic: never a neutral, it changes nothing and costs the
  tie-break; Advanced: a neutral is tried only where it cuts a beam). With two
  turns left under the Basic rule (each side one stone) the value is computed
  in O(empty points): the opponent will take its best remaining point, so the
  mover's only useful neutral goes on the opponent's best point left.
* Score tables (``OPT_TABLES``, Basic rule): a side's final score depends only
  on its own stones. At the root, for each side, every set of empty points it
  can still take is scored once and sorted; at a node the best (worst) set
  still fully available bounds the side's final score from above (below). The
  node's value then lies in [100*(LBme-UBop) + ..., 100*(UBme-LBop) + ...];
  nodes whose interval misses the window return at once. Along a path the
  available family only shrinks, so each node resumes the scan where its
  parent stopped.
* External bounds: ``set_score_caps`` caps each side's final score (e.g. a
  CP-SAT bound); used in the node interval.
* Move ordering (``OPT_ORDER``): TT turn first, then own stones by
  (own score with it + opponent's score with it), then neutral turns with the
  neutral on the points best for the opponent first.
* Root symmetry: the driver passes one turn per orbit of the position's
  stabiliser (``set_root_turns``).
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t, int16_t, uint8_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from szsolver.rules._core cimport (Board, State, bb_t, Position, gen_turns_c, make_c, unmake_c,
                             beam_masks,
                             pattern_set_c, value_c, is_over_c, sz_popcount, sz_ctz, sz_msb,
                             full_key_c, CORE_MAX_TURNS, C_BASIC, C_ADVANCED)

cdef extern from "Python.h":
    int PyErr_CheckSignals_raw "PyErr_CheckSignals" ()
    void PyErr_Clear_raw "PyErr_Clear" ()

cdef enum:
    INF = 30000
    MAXPLY = 40
    MAXT = 4160            # room for every turn (stone x neutral) of one node
    CHECK_EVERY = 4096

cdef enum:
    OPT_TT = 1
    OPT_LEAF = 2
    OPT_TABLES = 4
    OPT_ORDER = 8
    OPT_DOM = 16
    OPT_MONO = 32
    OPT_ALL = 63          # the default set (killer measured, not kept: docs/solver.md)
    OPT_PVS = 64          # not in OPT_ALL: chosen by the driver
    OPT_KILLER = 128
    ABORT_NONE = 0
    ABORT_NODES = 1
    ABORT_TIME = 2
    ABORT_INTERRUPT = 3

DRIVER_PVS = OPT_PVS
OPTIONS = {"tt": OPT_TT, "leaf": OPT_LEAF, "tables": OPT_TABLES, "order": OPT_ORDER, "dom": OPT_DOM, "mono": OPT_MONO, "killer": OPT_KILLER}
ALL_OPTIONS = OPT_ALL
ABORT_REASONS = {ABORT_NODES: "node limit", ABORT_TIME: "time limit",
                 ABORT_INTERRUPT: "interrupted"}

cdef struct TTEntry:
    uint64_t key
    int16_t lo
    int16_t hi
    int16_t move       # best turn + 1 (0: none; turn 0 is a real turn)
    uint8_t tl         # turns left at the entry (replacement priority)
    uint8_t used

cdef struct Ctx:
    const Board* b
    State s
    int opts
    TTEntry* tt
    uint64_t tt_mask          # buckets - 1 (2 entries per bucket)
    long long tt_entries
    long long nodes, probes, hits, stores, used
    long long node_limit, next_check
    double deadline
    int abort
    # root turns (symmetry-reduced), used when the search starts at root_key
    int* root_turns
    int n_root
    uint64_t root_key
    # Basic-rule score tables over the root's empty points
    int have_tables
    bb_t E
    bb_t* tmask[2]
    uint8_t* tscore[2]
    int tn[2]
    int hi_idx[MAXPLY + 1][2]
    int lo_idx[MAXPLY + 1][2]
    int cap[2]                # external caps on each side's final score
    int* moves                # MAXPLY * MAXT
    long long nodes_at[MAXPLY]  # nodes by turns left
    long long pruned_rel, pruned_line   # neutral turns skipped by the four-turn rule
    bb_t relevant
    int rel_valid
    int order_min_t           # heuristic ordering only at nodes with more turns left
    int table_min_t           # score-table bounds only at nodes with this many turns left
    int tt_ret_move           # a node that failed high from the TT: the stored turn
    int tt_ret_lo
    int slot                  # four-turn rule: our stone whose refutation is cached
    int cg[64][64]            # per stone: the opponent's last-pick scores in the refuted line
    int crs[64][64]           # per stone: our last-pick scores there
    bb_t cP[64]               # per stone: the pool left for the last two turns
    int cmove[64]             # per stone: the refuting turn
    int killer[MAXPLY + 1]    # per ply: the turn of the last cutoff
    int bound_cut             # set by a node that failed high on its static lower bound


cdef inline double now_c() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef void check_limits(Ctx* c) noexcept nogil:
    c.next_check = c.nodes + CHECK_EVERY
    if c.node_limit > 0 and c.nodes >= c.node_limit:
        c.abort = ABORT_NODES
        return
    if c.deadline > 0 and now_c() >= c.deadline:
        c.abort = ABORT_TIME
        return
    with gil:
        if PyErr_CheckSignals_raw() != 0:
            PyErr_Clear_raw()
            c.abort = ABORT_INTERRUPT


cdef inline int side_score(const Board* b, bb_t own, bb_t blockers) noexcept nogil:
    return sz_popcount(pattern_set_c(b, own, blockers))


cdef inline int picks_left(const State* s, int side) noexcept nogil:
    return s.stones_per_side - sz_popcount(s.stones[side])


cdef inline bb_t empty_c(const Board* b, const State* s) noexcept nogil:
    return b.full & ~(s.stones[0] | s.stones[1] | s.neutral)


cdef inline void open_rays(const Board* b, bb_t nb, int q, int a, bb_t* hr, bb_t* lr) noexcept nogil:
    """The two rays from q along axis a (towards higher / lower point numbers),
    each cut short at its nearest blocker in ``nb``: what q can see."""
    cdef bb_t h = b.ray[q][b.axis_up[a]], l = b.ray[q][b.axis_down[a]], x
    x = nb & h
    if x:
        h &= (x & (~x + 1)) - 1
    x = nb & l
    if x:
        l &= ~((((<bb_t>1) << sz_msb(x)) << 1) - 1)
    hr[0] = h
    lr[0] = l


cdef inline int neutral_matters(const Board* b, bb_t st0, bb_t st1, bb_t nb, int q) noexcept nogil:
    """Advanced rule, no stone to come: does a neutral on q cut some beam?"""
    cdef int a
    cdef bb_t hr, lr
    for a in range(b.naxes):
        open_rays(b, nb, q, a, &hr, &lr)
        if ((st0 & hr) and (st0 & lr)) or ((st1 & hr) and (st1 & lr)):
            return 1
    return 0


cdef inline int pattern_of(const Board* b, const bb_t* beam, int x) noexcept nogil:
    cdef int d, pat = 0
    for d in range(b.ndirs):
        pat |= <int>((beam[d] >> x) & 1) << d
    return pat


cdef inline int histogram(const Board* b, bb_t own, const bb_t* beam, int* cnt) noexcept nogil:
    """cnt[pattern] = own stones showing it; returns the score (patterns shown)."""
    cdef int x, pat, score = 0
    memset(cnt, 0, (1 << b.ndirs) * sizeof(int))
    while own:
        x = sz_ctz(own)
        own &= own - 1
        pat = pattern_of(b, beam, x)
        if cnt[pat] == 0:
            score += 1
        cnt[pat] += 1
    return score


cdef inline int score_with_cut(const Board* b, bb_t own, const bb_t* beam, const int* cnt0,
                               int score, bb_t nb, int q) noexcept nogil:
    """Advanced rule, no stone to come: the score of ``own`` (beams ``beam``, pattern
    histogram ``cnt0``, score ``score`` under blockers ``nb``) after one more neutral
    on the empty point q. On each line through q only the nearest own stone on each
    side, within q's unblocked segment, can change: if both exist each loses its beam
    towards q. At most 4 stones change, so O(1) instead of a full scoring."""
    cdef int cnt[64]
    cdef int a, k, x, old, new, bit, copied = 0
    cdef bb_t hr, lr, m, mh, ml
    for a in range(b.naxes):
        open_rays(b, nb, q, a, &hr, &lr)
        mh = own & hr
        ml = own & lr
        if mh == 0 or ml == 0:
            continue
        if not copied:
            memcpy(cnt, cnt0, (1 << b.ndirs) * sizeof(int))
            copied = 1
        for k in range(2):
            if k == 0:
                x = sz_msb(ml)              # nearest below q loses its beam towards q
                bit = b.axis_up[a]
            else:
                x = sz_ctz(mh)              # nearest above q loses its beam towards q
                bit = b.axis_down[a]
            old = pattern_of(b, beam, x)
            new = old & ~(1 << bit)
            cnt[old] -= 1
            if cnt[old] == 0:
                score -= 1
            if cnt[new] == 0:
                score += 1
            cnt[new] += 1
    return score


cdef int last_turn(Ctx* c, int beta) noexcept nogil:
    """Exact value (mover's view) with one turn left, the mover to play it.
    Fail-soft: may stop early with a lower bound >= beta.
    Advanced: each neutral is scored incrementally (``score_with_cut``); a neutral
    that cuts no beam leaves both scores unchanged and only costs the tie-break."""
    cdef const Board* b = c.b
    cdef State* s = &c.s
    cdef int me = s.side, op = me ^ 1
    cdef bb_t V = empty_c(b, s), e, e2, pb
    cdef bb_t mine = s.stones[me], theirs = s.stones[op], nb = s.neutral
    cdef int p, q, v, best = -INF, sop, sme, sme2, sop2
    cdef int tie = s.left[me] - s.left[op]
    cdef bb_t beam_m[6]
    cdef bb_t beam_o[6]
    cdef int cnt_m[64]
    cdef int cnt_o[64]
    cdef int opcut[64]
    cdef int minop
    if s.rule == C_BASIC:
        sop = side_score(b, theirs, 0)
        e = V
        while e:
            p = sz_ctz(e)
            e &= e - 1
            v = 100 * (side_score(b, mine | ((<bb_t>1) << p), 0) - sop) + tie
            if v > best:
                best = v
                if best >= beta:
                    return best
        return best
    beam_masks(b, theirs, nb, beam_o)
    sop = histogram(b, theirs, beam_o, cnt_o)
    minop = sop
    if s.left[me] > 0:          # the opponent's score after a cut on q: independent of p
        e = V
        while e:
            q = sz_ctz(e)
            e &= e - 1
            opcut[q] = score_with_cut(b, theirs, beam_o, cnt_o, sop, nb, q)
            if opcut[q] < minop:
                minop = opcut[q]
    e = V
    while e:
        p = sz_ctz(e)
        e &= e - 1
        pb = mine | ((<bb_t>1) << p)
        beam_masks(b, pb, nb, beam_m)
        sme = histogram(b, pb, beam_m, cnt_m)
        v = 100 * (sme - sop) + tie
        if v > best:
            best = v
            if best >= beta:
                return best
        # a cut changes at most 4 of our stones: our score rises by at most 4
        if s.left[me] > 0 and 100 * (sme + 4 - minop) + tie - 1 > best:
            e2 = V & ~((<bb_t>1) << p)
            while e2:
                q = sz_ctz(e2)
                e2 &= e2 - 1
                sme2 = score_with_cut(b, pb, beam_m, cnt_m, sme, nb, q)
                v = 100 * (sme2 - opcut[q]) + tie - 1
                if v > best:
                    best = v
                    if best >= beta:
                        return best
    return best


cdef int two_turns_basic(Ctx* c, int* unique_best) noexcept nogil:
    """Exact value (mover's view), Basic rule, each side one stone left, mover first.
    The opponent then takes its best point left (never a neutral), so the mover's
    only useful neutral covers the opponent's best point other than its own stone.
    ``unique_best`` receives the mover's optimal stone when only one stone is
    optimal, else -1 (see the dominance rule in ``three_turns_basic``)."""
    cdef const Board* b = c.b
    cdef State* s = &c.s
    cdef int me = s.side, op = me ^ 1
    cdef bb_t V = empty_c(b, s), e
    cdef bb_t mine = s.stones[me], theirs = s.stones[op]
    cdef int p, v, a, bb, best = -INF, sme, g
    cdef int o1 = -1, o2 = -1, o3 = -1      # opponent's three best values
    cdef int p1 = -1, p2 = -1               # and the points of the best two
    cdef int tie = s.left[me] - s.left[op]
    cdef int best_p = -1
    e = V
    while e:
        p = sz_ctz(e)
        e &= e - 1
        g = side_score(b, theirs | ((<bb_t>1) << p), 0)
        if g > o1:
            o3 = o2
            o2 = o1
            p2 = p1
            o1 = g
            p1 = p
        elif g > o2:
            o3 = o2
            o2 = g
            p2 = p
        elif g > o3:
            o3 = g
    e = V
    while e:
        p = sz_ctz(e)
        e &= e - 1
        sme = side_score(b, mine | ((<bb_t>1) << p), 0)
        if p == p1:
            a = o2
            bb = o3
        elif p == p2:
            a = o1
            bb = o3
        else:
            a = o1
            bb = o2
        if a < 0:          # no point left for the opponent: cannot happen in play
            a = 0
        v = 100 * (sme - a) + tie
        if s.left[me] > 0 and bb >= 0 and bb < a:
            if 100 * (sme - bb) + tie - 1 > v:
                v = 100 * (sme - bb) + tie - 1
        if v > best:
            best = v
            best_p = p
        elif v == best:
            best_p = -1
    unique_best[0] = best_p
    return best


# --- transposition table ------------------------------------------------------------------

cdef inline TTEntry* tt_find(Ctx* c, uint64_t key) noexcept nogil:
    cdef TTEntry* e = &c.tt[(key & c.tt_mask) * 2]
    c.probes += 1
    if e[0].used and e[0].key == key:
        c.hits += 1
        return &e[0]
    if e[1].used and e[1].key == key:
        c.hits += 1
        return &e[1]
    return NULL


cdef inline void tt_store(Ctx* c, uint64_t key, int lo, int hi, int move, int tl) noexcept nogil:
    cdef TTEntry* e = &c.tt[(key & c.tt_mask) * 2]
    cdef TTEntry* t
    c.stores += 1
    if e[0].used and e[0].key == key:
        t = &e[0]
    elif e[1].used and e[1].key == key:
        t = &e[1]
    else:
        # slot 0 keeps the entry with more turns left; slot 1 always takes the newcomer
        if not e[1].used:
            c.used += 1
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
    if move >= 0:
        t.move = move + 1


# --- score tables (Basic rule) --------------------------------------------------------------

cdef inline int table_hi(Ctx* c, int side, bb_t A, bb_t avail, int ply) noexcept nogil:
    """Best final score of ``side`` over its sets S (from the root table) with
    A <= S <= A | avail; resumes at the parent's index."""
    cdef int i = c.hi_idx[ply][side], n = c.tn[side]
    cdef bb_t* m = c.tmask[side]
    cdef bb_t allowed = A | avail
    while i < n:
        if (m[i] & A) == A and (m[i] & ~allowed) == 0:
            break
        i += 1
    c.hi_idx[ply + 1][side] = i
    if i >= n:
        return -1
    return c.tscore[side][i]


cdef inline int table_lo(Ctx* c, int side, bb_t A, bb_t avail, int ply) noexcept nogil:
    cdef int i = c.lo_idx[ply][side]
    cdef bb_t* m = c.tmask[side]
    cdef bb_t allowed = A | avail
    while i >= 0:
        if (m[i] & A) == A and (m[i] & ~allowed) == 0:
            break
        i -= 1
    c.lo_idx[ply + 1][side] = i
    if i < 0:
        return 17
    return c.tscore[side][i]


# --- the search -----------------------------------------------------------------------------

cdef inline void sort_points(int* pts, int* key, int n) noexcept nogil:
    """Insertion sort of points by key, descending (n <= 64)."""
    cdef int i, j, p, k
    for i in range(1, n):
        p = pts[i]
        k = key[p]
        j = i - 1
        while j >= 0 and key[pts[j]] < k:
            pts[j + 1] = pts[j]
            j -= 1
        pts[j + 1] = p


cdef int gen_ordered(Ctx* c, int* out, int ttmove, int with_neutrals, int killer) noexcept nogil:
    """All legal turns, ordered: TT turn, killer (the turn that last refuted a
    sibling at this ply, if legal here), stones alone by heuristic, then neutral turns."""
    cdef const Board* b = c.b
    cdef State* s = &c.s
    cdef int me = s.side, op = me ^ 1
    cdef bb_t V = empty_c(b, s), e
    cdef bb_t nb = s.neutral if s.rule == C_ADVANCED else 0
    cdef int pts[64]
    cdef int nts[64]
    cdef int key[64]
    cdef int okey[64]
    cdef int n = 0, k = 0, i, j, p, q, t
    e = V
    while e:
        p = sz_ctz(e)
        e &= e - 1
        okey[p] = side_score(b, s.stones[op] | ((<bb_t>1) << p), nb)
        key[p] = side_score(b, s.stones[me] | ((<bb_t>1) << p), nb) + okey[p]
        pts[n] = p
        nts[n] = p
        n += 1
    sort_points(pts, key, n)
    sort_points(nts, okey, n)
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
    else:
        killer = -1
    for i in range(n):
        t = pts[i]
        if t != ttmove and t != killer:
            out[k] = t
            k += 1
    if killer >= 64:            # a neutral killer leads the neutral turns
        out[k] = killer
        k += 1
    if s.left[me] > 0 and with_neutrals:
        for i in range(n):
            p = pts[i]
            for j in range(n):
                q = nts[j]
                if q == p:
                    continue
                t = p + 64 * (q + 1)
                if t != ttmove and t != killer:
                    out[k] = t
                    k += 1
    return k


cdef inline int red_two_turns(const int* rs, const int* g, bb_t P, int lme, int lop,
                              int* unique_best) noexcept nogil:
    """Two turns left, Basic rule, from the view of the side to move (one stone
    left, score rs[p] with a stone on p); the opponent then takes its best point
    of the pool P (score g[y]). See ``two_turns_basic``; O(|P|)."""
    cdef bb_t e = P
    cdef int p, v, a, bb, best = -INF, best_p = -1
    cdef int o1 = -1, o2 = -1, o3 = -1, p1 = -1, p2 = -1, x
    cdef int tie = lme - lop
    while e:
        p = sz_ctz(e)
        e &= e - 1
        x = g[p]
        if x > o1:
            o3 = o2
            o2 = o1
            p2 = p1
            o1 = x
            p1 = p
        elif x > o2:
            o3 = o2
            o2 = x
            p2 = p
        elif x > o3:
            o3 = x
    e = P
    while e:
        p = sz_ctz(e)
        e &= e - 1
        if p == p1:
            a = o2
            bb = o3
        elif p == p2:
            a = o1
            bb = o3
        else:
            a = o1
            bb = o2
        if a < 0:
            a = 0
        v = 100 * (rs[p] - a) + tie
        if lme > 0 and bb >= 0 and bb < a:
            if 100 * (rs[p] - bb) + tie - 1 > v:
                v = 100 * (rs[p] - bb) + tie - 1
        if v > best:
            best = v
            best_p = p
        elif v == best:
            best_p = -1
    unique_best[0] = best_p
    return best


cdef inline bb_t final_relevant(const int* g, bb_t P) noexcept nogil:
    """Points y of P that the last mover might need: fewer than 3 other points of P
    score at least g[y] (the other side's last turn removes at most 2)."""
    cdef int ge[18]
    cdef int v, p
    cdef bb_t e = P, out = 0
    memset(ge, 0, sizeof(ge))
    while e:
        p = sz_ctz(e)
        e &= e - 1
        ge[g[p]] += 1
    for v in range(15, -1, -1):
        ge[v] += ge[v + 1]
    e = P
    while e:
        p = sz_ctz(e)
        e &= e - 1
        if ge[g[p]] <= 3:
            out |= (<bb_t>1) << p
    return out


cdef inline void cache_line(Ctx* c, const int* rs, const int* g, bb_t P, int m) noexcept nogil:
    """Four-turn rule: remember the refuted line of our stone c.slot (see negamax)."""
    cdef int k = c.slot
    cdef bb_t e = P
    cdef int y
    if k < 0:
        return
    while e:
        y = sz_ctz(e)
        e &= e - 1
        c.cg[k][y] = g[y]
        c.crs[k][y] = rs[y]
    c.cP[k] = P
    c.cmove[k] = m


cdef int three_turns_basic(Ctx* c, int alpha, int beta, int* moves, int ttstone,
                           int* bestmove) noexcept nogil:
    """Basic rule, mover two stones left, opponent one (the opponent's last turn
    comes between the mover's two). Every child is an exact two-turn position,
    evaluated from cached single-point scores in O(empty points).

    Dominance (proved in docs/solver.md): let (x, -) be the mover's turn without
    a neutral and p* the opponent's optimal reply stones to it. A neutral on any
    point q other than p* is strictly worse than (x, -): against it the opponent
    replays its optimal reply (dropping its own neutral if it was q), reaching the
    same final scores with the mover one neutral poorer. So only (x, p*) is
    tried, and only when the optimal reply stone p* is unique.

    On a cutoff, ``c.relevant`` receives the points a neutral of the parent could
    matter on (see the T=4 rule in ``negamax``) and ``c.rel_valid`` is set."""
    cdef const Board* b = c.b
    cdef State* s = &c.s
    cdef int me = s.side, op = me ^ 1
    cdef bb_t V = empty_c(b, s), e, P
    cdef bb_t mine = s.stones[me], theirs = s.stones[op]
    cdef int rs[64]
    cdef int g[64]
    cdef int key[64]
    cdef int pts[64]
    cdef int n = 0, i, x, y, v, pstar, dummy, best = -INF, q
    cdef int lme = s.left[me], lop = s.left[op]
    e = V
    while e:
        x = sz_ctz(e)
        e &= e - 1
        rs[x] = side_score(b, theirs | ((<bb_t>1) << x), 0)
        key[x] = side_score(b, mine | ((<bb_t>1) << x), 0) + rs[x]
        if x == ttstone:
            key[x] += 100
        pts[n] = x
        n += 1
    sort_points(pts, key, n)
    for i in range(n):
        x = pts[i]
        P = V & ~((<bb_t>1) << x)
        e = P
        while e:
            y = sz_ctz(e)
            e &= e - 1
            g[y] = side_score(b, mine | ((<bb_t>1) << x) | ((<bb_t>1) << y), 0)
        c.nodes += 1
        v = -red_two_turns(rs, g, P, lop, lme, &pstar)
        if v > best:
            best = v
            bestmove[0] = x
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    c.relevant = ((<bb_t>1) << x) | final_relevant(g, P)
                    c.rel_valid = 1
                    cache_line(c, rs, g, P, x)
                    return best
        if lme > 0 and pstar >= 0:
            q = pstar
            c.nodes += 1
            v = -red_two_turns(rs, g, P & ~((<bb_t>1) << q), lop, lme - 1, &dummy)
            if v > best:
                best = v
                bestmove[0] = x + 64 * (q + 1)
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        c.relevant = (((<bb_t>1) << x) | ((<bb_t>1) << q) |
                                      final_relevant(g, P & ~((<bb_t>1) << q)))
                        c.rel_valid = 1
                        cache_line(c, rs, g, P & ~((<bb_t>1) << q), x + 64 * (q + 1))
                        return best
    return best


cdef int relevance_of(Ctx* c, int t, int m, bb_t* rel) noexcept nogil:
    """Four-turn rule from a TT refutation: after our turn t and the opponent's
    turn m (a two-turn position, us to move), return the opponent's exact value
    of m and write to ``rel`` the points a neutral of ours could matter on."""
    cdef const Board* b = c.b
    cdef State* s = &c.s
    cdef int g[64]
    cdef int rs[64]
    cdef int me, op, y, v, dummy
    cdef bb_t P, e
    make_c(b, s, t)
    make_c(b, s, m)
    me = s.side
    op = me ^ 1
    P = empty_c(b, s)
    e = P
    while e:
        y = sz_ctz(e)
        e &= e - 1
        g[y] = side_score(b, s.stones[op] | ((<bb_t>1) << y), 0)
        rs[y] = side_score(b, s.stones[me] | ((<bb_t>1) << y), 0)
    v = -red_two_turns(rs, g, P, s.left[me], s.left[op], &dummy)
    c.slot = t
    cache_line(c, rs, g, P, m)
    c.slot = -1
    rel[0] = final_relevant(g, P) | ((<bb_t>1) << (m & 63))
    if m >= 64:
        rel[0] |= (<bb_t>1) << ((m >> 6) - 1)
    unmake_c(b, s, m)
    unmake_c(b, s, t)
    return v


cdef int negamax(Ctx* c, int alpha, int beta, int ply) noexcept nogil:
    cdef const Board* b = c.b
    cdef State* s = &c.s
    cdef int me = s.side, op = me ^ 1
    cdef int pm = picks_left(s, me), po = picks_left(s, op)
    cdef int T = pm + po
    cdef int v, best, bestmove = -1, ttmove = -1, i, n, t
    cdef int a0, b0, lo_b, hi_b, ume, lme, uop, lop
    cdef bb_t V, Am, Ao, dead, relset = 0
    cdef bb_t rel[64]
    cdef int four, q, m, ub
    cdef TTEntry* e
    cdef int* moves
    cdef uint64_t key = s.key
    if T == 0:
        v = value_c(b, s)
        return v if me == 0 else -v
    c.nodes += 1
    c.nodes_at[T] += 1
    if c.nodes >= c.next_check:
        check_limits(c)
        if c.abort:
            return 0
    if c.opts & OPT_LEAF:
        if T == 1:
            return last_turn(c, beta)
        if T == 2 and pm == 1 and s.rule == C_BASIC:
            return two_turns_basic(c, &i)
    if c.opts & OPT_TT:
        e = tt_find(c, key)
        if e != NULL:
            if e.lo >= beta or e.hi <= alpha or e.lo == e.hi:
                if e.hi <= alpha and e.lo < beta:
                    return e.hi
                c.tt_ret_move = e.move - 1
                c.tt_ret_lo = e.lo
                return e.lo
            if e.lo > alpha:
                alpha = e.lo
            if e.hi < beta:
                beta = e.hi
            ttmove = e.move - 1
    if c.have_tables and (c.opts & OPT_TABLES) and ply < MAXPLY and T >= c.table_min_t:
        V = empty_c(b, s)
        Am = s.stones[me] & c.E
        Ao = s.stones[op] & c.E
        ume = table_hi(c, me, Am, V, ply)
        uop = table_hi(c, op, Ao, V, ply)
        lme = table_lo(c, me, Am, V, ply)
        lop = table_lo(c, op, Ao, V, ply)
        if ume > c.cap[me]:
            ume = c.cap[me]
        if uop > c.cap[op]:
            uop = c.cap[op]
        hi_b = 100 * (ume - lop) + s.left[me] - (s.left[op] - (po if po < s.left[op] else s.left[op]))
        if hi_b <= alpha:
            return hi_b
        lo_b = 100 * (lme - uop) + (s.left[me] - (pm if pm < s.left[me] else s.left[me])) - s.left[op]
        if lo_b >= beta:
            c.bound_cut = 1
            return lo_b
    a0 = alpha
    b0 = beta
    moves = c.moves + ply * MAXT
    if (c.opts & OPT_DOM) and (c.opts & OPT_LEAF) and s.rule == C_BASIC and pm == 2 and po == 1:
        c.rel_valid = 0
        best = three_turns_basic(c, alpha, beta, moves, (ttmove & 63) if ttmove >= 0 else -1, &bestmove)
        c.bound_cut = 0
        if c.abort:
            return 0
        if c.opts & OPT_TT:
            if best <= a0:
                tt_store(c, key, -INF, best, bestmove, T)
            elif best >= b0:
                tt_store(c, key, best, INF, bestmove, T)
            else:
                tt_store(c, key, best, best, bestmove, T)
        return best
    if ply == 0 and c.n_root > 0 and key == c.root_key:
        n = c.n_root
        for i in range(n):
            moves[i] = c.root_turns[i]
    elif (c.opts & OPT_ORDER) and T > c.order_min_t:
        n = gen_ordered(c, moves, ttmove, 1, c.killer[ply] if (c.opts & OPT_KILLER) else -1)
    else:
        n = gen_turns_c(b, s, moves)
    if n == 0:                          # cannot happen in play (points never run out)
        v = value_c(b, s)
        return v if me == 0 else -v
    best = -INF
    dead = 0
    four = (c.opts & OPT_DOM) and (c.opts & OPT_LEAF) and s.rule == C_BASIC and pm == 2 and po == 2
    if four:
        relset = 0
    for i in range(n):
        t = moves[i]
        if t >= 64:
            if (dead >> (t & 63)) & 1:
                continue    # (stone, neutral) is bounded by (stone, -): see OPT_MONO
            if four and (relset >> (t & 63)) & 1:
                q = (t >> 6) - 1
                if not ((rel[t & 63] >> q) & 1):
                    c.pruned_rel += 1
                    continue    # the neutral misses every point the refutation needs (OPT_DOM)
                if (c.cP[t & 63] >> q) & 1:
                    # The same refutation after (t, q): an exact two-turn line, O(points).
                    m = c.cmove[t & 63]
                    v = red_two_turns(c.crs[t & 63], c.cg[t & 63], c.cP[t & 63] & ~((<bb_t>1) << q),
                                      s.left[me] - 1, s.left[op] - (1 if m >= 64 else 0), &ub)
                    if v <= alpha:
                        c.pruned_line += 1
                        if v > best:
                            best = v
                        continue
        make_c(b, s, t)
        c.bound_cut = 0
        c.rel_valid = 0
        c.tt_ret_move = -1
        c.slot = t if (four and t < 64) else -1
        if (c.opts & OPT_PVS) and best > -INF and beta - alpha > 1:
            # PVS: later turns first get a null window; re-search only if it fails high
            v = -negamax(c, -alpha - 1, -alpha, ply + 1)
            if v > alpha and v < beta and not c.abort:
                c.bound_cut = 0
                c.rel_valid = 0
                c.tt_ret_move = -1
                v = -negamax(c, -beta, -alpha, ply + 1)
        else:
            v = -negamax(c, -beta, -alpha, ply + 1)
        unmake_c(b, s, t)
        if c.abort:
            return 0
        if four and t < 64 and c.rel_valid:
            # (t, -) was refuted by an opponent turn whose proof only needs the points
            # in c.relevant; a neutral anywhere else is refuted by the same turn, one
            # tie-break point worse for us (docs/solver.md, "four-turn rule").
            relset |= (<bb_t>1) << t
            rel[t] = c.relevant
        elif four and t < 64 and c.tt_ret_move >= 0:
            # Refuted from the TT: recompute the stored turn's exact value and its
            # relevant points; usable when that value reaches the returned bound.
            if relevance_of(c, t, c.tt_ret_move, &rel[t]) >= c.tt_ret_lo:
                relset |= (<bb_t>1) << t
        if t < 64 and c.bound_cut and (c.opts & OPT_MONO):
            # The child failed high on its static lower bound (tables). With a
            # neutral added the child's bound only grows (the mover's best set can
            # only shrink, the opponent's worst set only improve, one neutral
            # less): every (t, q) is worse than what (t, -) returned. Skip them.
            dead |= (<bb_t>1) << t
        if v > best:
            best = v
            bestmove = t
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    c.killer[ply] = t
                    break
    c.bound_cut = 0
    if c.opts & OPT_TT:
        if best <= a0:
            tt_store(c, key, -INF, best, bestmove, T)
        elif best >= b0:
            tt_store(c, key, best, INF, bestmove, T)
        else:
            tt_store(c, key, best, best, bestmove, T)
    return best


# --- Python-facing driver object ------------------------------------------------------------

cdef class Searcher:
    """One search context: a copy of a position's state, a transposition table,
    the score tables and the limits. Driven by :mod:`szsolver.endgame.solver`."""
    cdef Ctx c
    cdef Position root
    cdef State root_state

    def __cinit__(self, Position pos, long long tt_entries=1 << 20, int opts=OPT_ALL):
        cdef long long buckets = 1
        memset(&self.c, 0, sizeof(Ctx))
        while buckets * 2 < tt_entries:
            buckets *= 2
        self.c.tt = <TTEntry*>calloc(buckets * 2, sizeof(TTEntry))
        self.c.moves = <int*>malloc(MAXPLY * MAXT * sizeof(int))
        self.c.root_turns = <int*>malloc(MAXT * sizeof(int))
        if self.c.tt == NULL or self.c.moves == NULL or self.c.root_turns == NULL:
            raise MemoryError("transposition table too large")
        self.c.tt_mask = buckets - 1
        self.c.tt_entries = buckets * 2
        self.c.opts = opts
        self.c.b = pos.board
        self.c.s = pos.st
        self.c.cap[0] = 16
        self.c.cap[1] = 16
        self.c.table_min_t = 3
        self.c.slot = -1
        for i in range(MAXPLY + 1):
            self.c.killer[i] = -1
        self.root = pos.copy()
        self.root_state = pos.st
        if opts & OPT_TABLES and pos.st.rule == C_BASIC:
            self._build_tables()

    def __dealloc__(self):
        free(self.c.tt)
        free(self.c.moves)
        free(self.c.root_turns)
        free(self.c.tmask[0])
        free(self.c.tmask[1])
        free(self.c.tscore[0])
        free(self.c.tscore[1])

    cdef _build_tables(self):
        """Score every set of root-empty points each side can still fill (Basic rule),
        sorted by score, best first. Skipped when a side has too many sets."""
        cdef const Board* b = self.c.b
        cdef State* s = &self.c.s
        cdef bb_t E = empty_c(b, s)
        cdef int pts[64]
        cdef int idx[20]
        cdef int n = 0, side, k, i, j, cnt, sc
        cdef long long total
        cdef bb_t m
        cdef bb_t* masks
        cdef uint8_t* scores
        cdef int bucket[18]
        cdef int start[18]
        m = E
        while m:
            pts[n] = sz_ctz(m)
            m &= m - 1
            n += 1
        for side in range(2):
            k = picks_left(s, side)
            total = 1
            for i in range(k):
                total = total * (n - i) // (i + 1)
            if k > 16 or total > 3000000 or total <= 0:
                return
        self.c.E = E
        for side in range(2):
            k = picks_left(s, side)
            total = 1
            for i in range(k):
                total = total * (n - i) // (i + 1)
            masks = <bb_t*>malloc(total * sizeof(bb_t))
            scores = <uint8_t*>malloc(total * sizeof(uint8_t))
            self.c.tmask[side] = <bb_t*>malloc(total * sizeof(bb_t))
            self.c.tscore[side] = <uint8_t*>malloc(total * sizeof(uint8_t))
            # enumerate k-combinations of the n points
            for i in range(k):
                idx[i] = i
            cnt = 0
            memset(bucket, 0, sizeof(bucket))
            while True:
                m = s.stones[side]
                for i in range(k):
                    m |= (<bb_t>1) << pts[idx[i]]
                masks[cnt] = m & E
                sc = side_score(b, m, 0)
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
            start[16] = 0
            for sc in range(15, -1, -1):
                start[sc] = start[sc + 1] + bucket[sc + 1]
            for i in range(cnt):
                sc = scores[i]
                self.c.tmask[side][start[sc]] = masks[i]
                self.c.tscore[side][start[sc]] = sc
                start[sc] += 1
            free(masks)
            free(scores)
            self.c.tn[side] = cnt
        self.c.have_tables = 1

    # --- driving ----------------------------------------------------------------------
    def set_limits(self, long long node_limit=0, double seconds=0.0):
        """Absolute node budget (0 = none) and time budget from now (0 = none)."""
        self.c.node_limit = node_limit
        self.c.deadline = now_c() + seconds if seconds > 0 else 0.0
        self.c.abort = 0
        self.c.next_check = self.c.nodes + 1

    def set_order_min_turns(self, int t):
        """Order turns heuristically only at nodes with more than ``t`` turns left."""
        self.c.order_min_t = t

    def set_table_min_turns(self, int t):
        """Use the score-table bounds only at nodes with at least ``t`` turns left."""
        self.c.table_min_t = t

    def set_score_caps(self, int red, int blue):
        """External upper bounds on each side's final score (e.g. CP-SAT); 16 = none."""
        self.c.cap[0] = red
        self.c.cap[1] = blue

    def set_root_turns(self, turns):
        """Restrict the turns searched at the current position (one per symmetry orbit)."""
        cdef int i = 0
        if turns is None:
            self.c.n_root = 0
            return
        for t in turns:
            self.c.root_turns[i] = t
            i += 1
        self.c.n_root = i
        self.c.root_key = self.c.s.key

    def probe(self, int alpha, int beta):
        """Fail-soft alpha-beta at the current position, value from the side to move.
        Check ``aborted`` afterwards: if set the returned number means nothing."""
        cdef int v, i
        if self.c.abort:
            return 0
        for i in range(2):
            self.c.hi_idx[0][i] = 0
            self.c.lo_idx[0][i] = self.c.tn[i] - 1
        self.c.slot = -1
        v = negamax(&self.c, alpha, beta, 0)
        return v

    def red_probe(self, int gamma):
        """Null-window test of the current position's value from Red's side:
        returns (bound, is_lower) -- value >= bound if is_lower else value <= bound.
        Returns None when a limit stopped it."""
        cdef int sgn = 1 if self.c.s.side == 0 else -1
        cdef int v
        # red value >= gamma  <=>  mover value >= gamma (red) / <= -gamma (blue)
        if sgn == 1:
            v = self.probe(gamma - 1, gamma)
            if self.c.abort:
                return None
            return (v, v >= gamma)
        v = self.probe(-gamma, -gamma + 1)
        if self.c.abort:
            return None
        v = -v
        return (v, v >= gamma)

    def score_bounds(self):
        """Bounds on each side's final score at the current position:
        (red_lo, red_hi, blue_lo, blue_hi), from the score tables (Basic rule)
        and the caps, else 0..cap."""
        cdef State* s = &self.c.s
        cdef int ur = self.c.cap[0], ub = self.c.cap[1], lr = 0, lb = 0, i
        cdef bb_t V = empty_c(self.c.b, s)
        if self.c.have_tables:
            for i in range(2):
                self.c.hi_idx[0][i] = 0
                self.c.lo_idx[0][i] = self.c.tn[i] - 1
            ur = min(ur, table_hi(&self.c, 0, s.stones[0] & self.c.E, V, 0))
            ub = min(ub, table_hi(&self.c, 1, s.stones[1] & self.c.E, V, 0))
            lr = table_lo(&self.c, 0, s.stones[0] & self.c.E, V, 0)
            lb = table_lo(&self.c, 1, s.stones[1] & self.c.E, V, 0)
        return lr, ur, lb, ub

    def bounds(self):
        """Static bounds (Red's side) on the current position's value, from
        :meth:`score_bounds` and the neutrals each side can still use."""
        cdef State* s = &self.c.s
        cdef int pr = picks_left(s, 0), pb = picks_left(s, 1)
        if pr + pb == 0:
            v = value_c(self.c.b, s)
            return v, v
        lr, ur, lb, ub = self.score_bounds()
        lo = 100 * (lr - ub) + (s.left[0] - min(pr, s.left[0])) - s.left[1]
        hi = 100 * (ur - lb) + s.left[0] - (s.left[1] - min(pb, s.left[1]))
        return lo, hi

    def make(self, int turn):
        make_c(self.c.b, &self.c.s, turn)

    def unmake(self, int turn):
        unmake_c(self.c.b, &self.c.s, turn)

    def reset(self):
        """Back to the root position (after makes)."""
        self.c.s = self.root_state

    def tt_move(self):
        """The TT's best turn at the current position, or -1."""
        cdef TTEntry* e = tt_find(&self.c, self.c.s.key)
        return e.move - 1 if e != NULL else -1

    def tt_bounds(self):
        cdef TTEntry* e = tt_find(&self.c, self.c.s.key)
        if e == NULL:
            return None
        return (e.lo, e.hi)

    def legal_turns(self):
        cdef int buf[CORE_MAX_TURNS]
        cdef int n = gen_turns_c(self.c.b, &self.c.s, buf)
        return [buf[i] for i in range(n)]

    def position(self):
        """The current position as a core Position."""
        cdef Position p = self.root.copy()
        p.st = self.c.s
        return p

    @property
    def aborted(self):
        return self.c.abort

    @property
    def opts(self):
        return self.c.opts

    @property
    def has_tables(self):
        return bool(self.c.have_tables)

    def stats(self):
        return {"nodes": self.c.nodes, "tt_probes": self.c.probes, "tt_hits": self.c.hits,
                "tt_stores": self.c.stores, "tt_used": self.c.used,
                "tt_entries": self.c.tt_entries,
                "neutral_turns_pruned": self.c.pruned_rel + self.c.pruned_line,
                "nodes_by_turns_left": [self.c.nodes_at[i] for i in range(MAXPLY) if self.c.nodes_at[i]],
                "tt_fill": (<double>self.c.used) / self.c.tt_entries if self.c.tt_entries else 0.0}
