# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Exhaustive endgame search at C level: fail-soft alpha-beta (``negamax``) and the
``Searcher`` object that :mod:`szsolver.endgame.solver` drives.

Everything inside :func:`negamax` is plain C on the core's ``State``: no Python
object is touched between the root call and its return, except a GIL-holding
signal check every ``CHECK_EVERY`` nodes (Ctrl-C) and the clock (time limit).

Values are the rules' composite value ``100 * (score diff) + (neutrals-left
diff)``, in negamax form (from the side to move's view) inside the search.

The pieces (each technique can be switched off for measurement, see ``OPT_*``):

* ``_tt``: the transposition table (``OPT_TT``).
* ``_leaves``: exact last turns (``OPT_LEAF``), the three-turn dominance rule
  (``OPT_DOM``) and the Advanced two-turn bounds (``OPT_ADV2``).
* ``_tables``: Basic-rule score tables (``OPT_TABLES``), which bound a node's
  value; with external caps on each side's final score (``set_score_caps``).
* ``_order``: move ordering (``OPT_ORDER``, ``OPT_KILLER``).
* here: fail-soft alpha-beta, the four-turn neutral rule (``OPT_DOM``), bound
  monotonicity (``OPT_MONO``), the footprint rule (``OPT_FOOT``), PVS
  (``OPT_PVS``, chosen by the driver) and root symmetry (``set_root_turns``).

Footprints (Basic rule, ``OPT_FOOT``): a bound returned by a node comes with the
set of points its proof plays on (``Outcome.prints``): for "value <= v" the
points the other side's strategy places on, for "value >= v" the mover's. The
proof stays valid when any other points are occupied and the side it is against
has fewer neutrals (scores depend only on each side's own stones, so only the
prover's moves need their points; the other side just has fewer turns to try).
So when our (x, -) is refuted with footprint F, every (x, q) with q outside F is
refuted by the same strategy, one tie-break point worse for us, and is skipped.
The shifted probe (``OPT_SHIFT``) applies the same argument below such an (x, q)
that could not be skipped: each node there first looks up its position without
the neutral on q (the owner one neutral richer), searched under (x, -), and uses a
bound whose footprint misses q. Under either rule that position's best turn also
orders the node when the table holds none for it.
All points (``ALL_POINTS``) means unknown.

Shared tree (``Searcher.set_shared_tree``, off in the serial search): threads running
the same probe on one table mark the children they search in a busy table; at nodes
with enough turns left a child another thread searches waits for the node's second
pass, past the node's first child (ABDADA); a helper (``set_helper``) defers even the
first child of its probe's root, which the thread it helps searches. Only the order of
the children changes.

Fail-soft contract: a call with window (alpha, beta) returns v with
``v <= alpha`` => true value <= v, ``v >= beta`` => true value >= v, otherwise v
is exact. The driver runs MTD(f) null-window probes on top of it, so every
finished probe is a proved bound.

Limits: the search was built for positions that ``check_searchable`` accepts
(every buffer is sized by the limits in ``_common.pxd``); ``Searcher`` refuses
any other with an :class:`~szsolver.errors.UnsupportedError` before any C runs.
"""
import os

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from libc.stdint cimport uint64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from szsolver.rules._core cimport (Board, State, bb_t, Position, gen_turns_c, make_c, unmake_c,
                                   value_c, turn_key_c, sz_popcount, sz_ctz, CORE_MAX_POINTS, CORE_MAX_DIRS,
                                   CORE_MAX_TURNS, C_BASIC, C_ADVANCED)
from szsolver.endgame._common cimport (INF, MAX_PLY, MAX_NODE_TURNS, MAX_SCORE, SZ_DEBUG,
                                       sz_debug_check, bit, empty_points, picks_left, side_score,
                                       sort_by_key, turn_is_legal)
from szsolver.endgame._tt cimport (TT, TTEntry, sz_tt_slot, tt_init, tt_share, tt_free, tt_find,
                                   tt_store, tt_prefetch)
from szsolver.endgame._tables cimport (ScoreTables, build_score_tables, free_score_tables,
                                       tables_at_root, table_hi, table_lo)
from szsolver.endgame._leaves cimport (Refutation, TwoTurnPrints, PairCache, pair_cache_init, last_turn, two_turns_basic, two_turns_advanced, REPLIES,
                                       two_turns_from_scores, three_turns_basic, refutation_line,
                                       Rays, fill_rays_of, reach_points, cut_points_of)
from szsolver.endgame._order cimport gen_ordered

from szsolver.errors import IllegalTurnError, UnsupportedError
from szsolver.rules import zobrist

cdef extern from *:
    """
    /* The busy table of the shared-tree search (ABDADA): counters updated by any thread. */
    #define sz_busy_get(p) __atomic_load_n((p), __ATOMIC_RELAXED)
    #define sz_busy_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
    """
    unsigned int sz_busy_get(const unsigned int* p) noexcept nogil
    unsigned int sz_busy_add(unsigned int* p, int v) noexcept nogil

cdef extern from "Python.h":
    int PyErr_CheckSignals_raw "PyErr_CheckSignals" ()
    void PyErr_Clear_raw "PyErr_Clear" ()

cdef enum:
    CHECK_EVERY = 4096

cdef enum:
    OPT_TT = 1
    OPT_LEAF = 2
    OPT_TABLES = 4
    OPT_ORDER = 8
    OPT_DOM = 16
    OPT_MONO = 32
    OPT_ALL = 65471       # the default set: all but PVS (measured: docs/solver.md)
    OPT_PVS = 64          # not in OPT_ALL: chosen by the driver
    OPT_KILLER = 128
    OPT_ADV2 = 256        # Advanced two-turn bounds (two_turns_advanced)
    OPT_ADV3 = 512        # Advanced three-turn neutral rule (needs OPT_ADV2 and OPT_LEAF)
    OPT_FOOT = 1024       # Basic footprint rule: a refutation that never plays on q refutes (x, q)
    OPT_EARLY = 2048      # ordering (Basic): the first stones each followed by it with the best neutral
    OPT_SHIFT = 4096      # shifted probe (with OPT_TT): the position without a neutral, its owner
                          # one neutral richer, orders this one (both rules) and bounds it (Basic,
                          # with OPT_FOOT)
    OPT_ROOT = 8192       # the driver orders the root's turns (solver.ordered_orbit_turns)
    OPT_DELAY = 16384     # last neutral: (x, q) refuted by the reply that refuted (x, -)
    OPT_REPLIES = 32768   # Advanced two-turn nodes: the other side's recent refutations tried first
    OPT_KNOWN = 65535
    EARLY_PAIRS = 3       # how many (measured: docs/solver.md)
    ABORT_NONE = 0
    ABORT_NODES = 1
    ABORT_TIME = 2
    ABORT_INTERRUPT = 3

DRIVER_PVS = OPT_PVS
OPTIONS = {"tt": OPT_TT, "leaf": OPT_LEAF, "tables": OPT_TABLES, "order": OPT_ORDER, "dom": OPT_DOM, "mono": OPT_MONO, "killer": OPT_KILLER, "adv2": OPT_ADV2, "adv3": OPT_ADV3, "foot": OPT_FOOT, "early": OPT_EARLY, "shift": OPT_SHIFT, "root": OPT_ROOT, "delay": OPT_DELAY, "replies": OPT_REPLIES}
ALL_OPTIONS = OPT_ALL
ABORT_REASONS = {ABORT_NODES: "node limit", ABORT_TIME: "time limit",
                 ABORT_INTERRUPT: "interrupted"}
# Neutrals-left counts with their own zobrist keys (the core's key table).
MAX_NEUTRALS_LEFT = zobrist.MAX_NEUTRALS - 1
# True in a debug build (SZSOLVER_DEBUG=1): the search checks its invariants.
DEBUG_CHECKS = bool(SZ_DEBUG)


cdef enum:
    # How a node found its value (Outcome.how): what its parent may reuse.
    BY_SEARCH = 0     # searched its turns, or an exact leaf
    BY_TT = 1         # a TT entry decided it; Outcome.tt_turn is the stored turn
    BY_STATIC = 2     # failed high on its static lower bound (score tables)
    BY_LINE = 3       # a three-turn node failed high; its refutation went to *ref


cdef struct Outcome:
    int value         # fail-soft value, the mover's view
    bb_t prints       # footprint of the bound (OPT_FOOT; ALL_POINTS: unknown or exact value)
    int how           # BY_*
    int tt_turn       # BY_TT: the stored best turn, checked legal at the node; else -1
    int refuted_by    # a node that reached beta by searching a turn of its own: that turn,
                      # whose searched value (a lower bound of its line) it returned; else -1


cdef struct Ctx:
    const Board* b            # the board's tables (kept alive by Searcher.root)
    State s                   # the position searched: turns are made and unmade in place
    int opts                  # OPT_* techniques in use
    TT tt                     # transposition table
    ScoreTables tables        # Basic-rule score tables over the root's empty points
    int cap[2]                # upper bounds on each side's final score (external caps, or
                              # the largest possible score)
    int order_min_t           # heuristic ordering only at nodes with more turns left
    int table_min_t           # score-table bounds only at nodes with at least this many turns left
    bint helper               # a helper thread: the probe's root turns from the middle of the list
    unsigned int* busy        # shared-tree search (ABDADA): per hash slot of a position, how
                              # many threads search it now; shared by the table's sharers
    uint64_t busy_mask        # its slots - 1
    int defer_min_t           # defer busy children at nodes with at least this many turns
                              # left (0: never; the serial search)
    int* deferred             # per ply: the turns deferred to the node's second pass
    long long deferrals       # children deferred (counted for measurement)
    long long table_refutations   # stones alone refuted from the table, the reply checked
    int root_i                # the root turn being searched (1-based in its list), for
    int root_n                # a display: of root_n listed (both read from another thread)
    int reply_i               # ... and the reply to it being searched, of reply_n listed
    int reply_n
    int* moves                # turn lists: MAX_NODE_TURNS per ply, MAX_PLY plies
    int* root_turns           # the root's turns (one per symmetry orbit), MAX_NODE_TURNS slots
    int n_root                # how many (0: search every turn)
    uint64_t root_key         # the position they belong to
    int killer[MAX_PLY + 1]   # per ply: the turn of the last cutoff (OPT_KILLER)
    int killer2[MAX_PLY + 1]  # ... and of the cutoff before it by another turn
    int replies[MAX_PLY + 1][REPLIES]   # per ply: the other side's last turns that refuted
                              # turns in the two-turn nodes there, the latest first (OPT_REPLIES)
    int played[MAX_PLY + 1]   # per ply: the turn being searched there (its child's last turn)
    PairCache pairs           # Basic: final scores with two more stones, per stone set (three-turn nodes)
    Refutation lines[CORE_MAX_POINTS]   # the open four-turn node's refutations, per stone
                              # turn (four-turn nodes never nest: their children are
                              # three-turn leaves)
    long long nodes           # nodes searched
    long long nodes_at[MAX_PLY + 1]     # nodes by turns left
    long long pruned_rel      # neutral turns skipped by the four-turn rule: off every relevant point
    long long pruned_line     # ... and by the exact line after the same refutation
    long long pruned_adv3     # neutral turns skipped by the three-turn rule (Advanced)
    long long pruned_foot     # neutral turns skipped by the footprint rule (Basic)
    long long pruned_delay    # neutral turns skipped by the last-neutral rule
    bb_t last_prints          # the footprint of the last probe's bound (ALL_POINTS: none)
    int last_refutation       # the turn by which the last probe's position reached beta
                              # (Outcome.refuted_by), or -1
    int shift_q[MAX_PLY + 1]  # per ply: a neutral point q whose position without it (its
                              # owner one neutral richer) was searched before (-1: none)
    int shift_side[MAX_PLY + 1]   # ... and that neutral's owner
    int root_shift_q          # shift_q[0] of the next probes (Searcher.set_shift)
    int root_shift_side
    long long shift_cuts      # nodes decided by the shifted probe (Basic)
    long long tt_bad_turns    # TT turns found illegal where they were read (key collisions)
    long long node_limit      # stop at this many nodes (0: none)
    long long next_check      # node count of the next limit and signal check
    double deadline           # stop at this monotonic time (0: none)
    int abort                 # ABORT_* once a limit or Ctrl-C stopped the search
    int early_interrupt       # Ctrl-C came while the table was made: the first look stops


cdef inline double now_c() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef void check_limits(Ctx* c) noexcept nogil:
    c.next_check = c.nodes + CHECK_EVERY
    if c.early_interrupt:
        c.early_interrupt = 0
        c.abort = ABORT_INTERRUPT
        return
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


cdef bb_t ALL_POINTS = ~(<bb_t>0)


cdef inline Outcome found(int value, int how, int tt_turn) noexcept nogil:
    cdef Outcome r
    r.value = value
    r.prints = ALL_POINTS
    r.how = how
    r.tt_turn = tt_turn
    r.refuted_by = -1
    return r


cdef inline void tt_record(Ctx* c, uint64_t key, int best, int alpha, int beta, int best_turn,
                           int T, bb_t prints) noexcept nogil:
    """Store a node's fail-soft result ``best`` for the window (alpha, beta) it was
    searched with: an upper bound, a lower bound or the exact value; ``prints``: the
    bound's footprint (an exact value keeps none: ALL_POINTS)."""
    if SZ_DEBUG:
        sz_debug_check(best_turn < 0 or turn_is_legal(c.b, &c.s, best_turn),
                       "storing an illegal turn in the TT")
    if best <= alpha:
        tt_store(&c.tt, key, -INF, best, best_turn, T, 0, prints)
    elif best >= beta:
        tt_store(&c.tt, key, best, INF, best_turn, T, prints, 0)
    else:
        tt_store(&c.tt, key, best, best, best_turn, T, ALL_POINTS, ALL_POINTS)


cdef inline int legal_tt_turn(Ctx* c, const TTEntry* e) noexcept nogil:
    """The turn stored in ``e`` for the current position if it is legal there, else
    -1 (none stored, or a key collision handed over another position's turn)."""
    cdef int t = e.move - 1
    if t >= 0 and not turn_is_legal(c.b, &c.s, t):
        c.tt_bad_turns += 1
        return -1
    return t


# --- the search -----------------------------------------------------------------------------

cdef inline int early_pairs(const Ctx* c) noexcept nogil:
    """How many stones the ordering follows with their early neutral turn (OPT_EARLY;
    measured in docs/solver.md)."""
    return EARLY_PAIRS if (c.opts & OPT_EARLY) else 0


cdef inline int ordered_turns(Ctx* c, int* moves, int ttmove, int ply) noexcept nogil:
    """Every legal turn at ``c.s`` into ``moves`` in the search's order (``gen_ordered``:
    the TT turn, this ply's two killers, the heuristic); returns how many."""
    return gen_ordered(c.b, &c.s, moves, ttmove, 1, c.killer[ply] if (c.opts & OPT_KILLER) else -1,
                       early_pairs(c), c.killer2[ply] if (c.opts & OPT_KILLER) else -1)


cdef inline void reverse_turns(int* a, int n) noexcept nogil:
    cdef int i = 0, j = n - 1, t
    while i < j:
        t = a[i]
        a[i] = a[j]
        a[j] = t
        i += 1
        j -= 1


cdef void rotate_turns(int* a, int n, int k) noexcept nogil:
    """a[k:] + a[:k] in place (three reversals)."""
    reverse_turns(a, k)
    reverse_turns(a + k, n - k)
    reverse_turns(a, n)


cdef int refuting_reply(Ctx* c, int T, int me, int alpha, int* reply) noexcept nogil:
    """At a child (x, -) of a node with ``T`` turns left (``me`` its mover) refuted from
    the table: the table's turn m here, if legal, in ``*reply``, and an upper bound on
    our value after it (INF when none is known): our last turn scanned with the window
    (alpha, alpha + 1) when one turn is left, else the stored upper bound."""
    cdef State* s = &c.s
    cdef TTEntry entry
    cdef TTEntry* e = tt_find(&c.tt, s.key, &entry)
    cdef int m = legal_tt_turn(c, e) if e != NULL else -1
    cdef int u = INF, lt
    reply[0] = m
    if m < 0:
        return INF
    make_c(c.b, s, m)
    if s.side == me:
        if T == 3:
            u = last_turn(c.b, s, alpha, alpha + 1, &lt, 0)
        elif T > 3:
            e = tt_find(&c.tt, s.key, &entry)
            if e != NULL:
                u = e.hi
    unmake_c(c.b, s, m)
    return u


cdef Outcome negamax(Ctx* c, int alpha, int beta, int ply, Refutation* ref) noexcept nogil:
    """Fail-soft alpha-beta value of ``c.s`` (mover's view) for the window (alpha, beta),
    ``ply`` plies below the probe's root. ``ref``: where a three-turn child of a
    four-turn node puts its refutation (NULL elsewhere). After an abort the value
    means nothing (callers check ``c.abort``)."""
    cdef const Board* b = c.b
    cdef State* s = &c.s
    cdef int me = s.side, op = me ^ 1
    cdef int pm = picks_left(s, me), po = picks_left(s, op)
    cdef int T = pm + po
    cdef int v, best, bestmove = -1, ttmove = -1, i, n, t
    cdef int a0, b0, lo_b, hi_b, ume, lme, uop, lop
    cdef bb_t V, Am, Ao, dead, relset = 0, V3 = 0
    cdef int three
    cdef int lazy = 0         # moves holds only the TT turn so far (the list comes if needed)
    cdef bint mark            # shared-tree search at this node: children searched are marked busy
    cdef bint defer           # ... and busy ones past the first searched wait (first pass)
    cdef int n_def = 0        # how many wait
    cdef int searched = 0     # children searched at this node so far
    cdef unsigned int* slot = NULL
    cdef int delay            # last-neutral rule: we hold one neutral and place two stones or more
    cdef int refx[64]         # three-turn and last-neutral rules: per stone x, the reply that
    cdef bb_t have_ref = 0    # refuted (x, -) by searching (the x with one)
    cdef bb_t rel3[64]        # three-turn rule: the points a neutral of ours could matter on
    cdef Rays rays3           # ... found from the empty points' rays under the neutrals now
    cdef bint rays3_ready = 0
    cdef int four, q, m, ub
    cdef TTEntry* e
    cdef TTEntry entry          # e points here: a copy (other threads may share the table)
    cdef int* moves
    cdef Outcome r
    cdef Refutation* line
    cdef uint64_t key = s.key
    # Footprint rule (Basic): per stone x whose (x, -) we saw refuted, the refutation's
    # footprint; the node's own footprint if it fails low (the union of its children's)
    # or high (the cutoff turn's points and its child's).
    cdef bint foot = (c.opts & OPT_FOOT) and s.rule == C_BASIC
    cdef bb_t fpx[64]
    cdef bint shift = (c.opts & OPT_SHIFT) and (c.opts & OPT_TT)
    cdef bb_t seen = 0
    cdef bb_t have_fp = 0, fail_low_prints = 0, fail_high_prints = ALL_POINTS, leaf_prints
    cdef TwoTurnPrints tp
    cdef int leaf_turn
    cdef int cert             # a reply to (x, -) from the table, checked: our value after it
    if T == 0:
        v = value_c(b, s)
        r = found(v if me == 0 else -v, BY_SEARCH, -1)
        r.prints = 0
        return r
    c.nodes += 1
    c.nodes_at[T] += 1
    if c.nodes >= c.next_check:
        check_limits(c)
        if c.abort:
            return found(0, BY_SEARCH, -1)
    if c.opts & OPT_LEAF:
        if T == 1:
            # >= beta: our stone (Basic: the footprint rule's); <= alpha: no strategy
            # of theirs is needed
            r = found(last_turn(b, s, alpha, beta, &leaf_turn, 0), BY_SEARCH, -1)
            if r.value >= beta and leaf_turn >= 0 and s.rule == C_BASIC:
                r.prints = bit(leaf_turn)
            elif r.value <= alpha:
                r.prints = 0
            return r
        if T == 2 and pm == 1 and s.rule == C_BASIC:
            r = found(two_turns_basic(b, s, &tp), BY_SEARCH, -1)
            if r.value >= beta:
                r.prints = tp.best
            elif r.value <= alpha:
                r.prints = tp.last
            return r
    if c.opts & OPT_TT:
        e = tt_find(&c.tt, key, &entry)
        if e != NULL:
            if e.lo >= beta or e.hi <= alpha or e.lo == e.hi:
                if e.hi <= alpha and e.lo < beta:
                    r = found(e.hi, BY_TT, -1)
                    r.prints = e.fp_hi
                    return r
                # the stored turn is played only by a four-turn parent (ref set)
                r = found(e.lo, BY_TT, legal_tt_turn(c, e) if ref != NULL else -1)
                if e.lo >= beta:
                    r.prints = e.fp_lo
                return r
            if e.lo > alpha:
                alpha = e.lo
            if e.hi < beta:
                beta = e.hi
            ttmove = legal_tt_turn(c, e)
    if shift and c.shift_q[ply] >= 0:
        # Shifted probe (docs/solver.md): the same position without the neutral on q,
        # its owner A one neutral richer, was searched before (the stone alone beside
        # a neutral turn). Basic: a proof of "A <= v" there that never plays on q
        # holds here too, one tie-break point worse for A: A's turns here are turns
        # there, the prover's answers stay legal, every line ends with the same stones.
        # Both rules: its best turn orders this node when the table has none here.
        q = c.shift_q[ply]
        m = c.shift_side[ply]
        e = tt_find(&c.tt, key ^ b.key_stone[2][q] ^ b.key_left[m][s.left[m]]
                    ^ b.key_left[m][s.left[m] + 1], &entry)
        if e != NULL and foot:
            if m == me:
                if e.hi - 1 <= alpha and not ((e.fp_hi >> q) & 1):
                    c.shift_cuts += 1
                    r = found(e.hi - 1, BY_TT, -1)
                    r.prints = e.fp_hi
                    return r
            elif e.lo + 1 >= beta and not ((e.fp_lo >> q) & 1):
                c.shift_cuts += 1
                r = found(e.lo + 1, BY_TT, -1)
                r.prints = e.fp_lo
                return r
        if e != NULL and ttmove < 0:
            ttmove = legal_tt_turn(c, e)
    # ply < MAX_PLY: the tables keep a scan index per ply (always true: see _common.pxd)
    if c.tables.ready and (c.opts & OPT_TABLES) and ply < MAX_PLY and T >= c.table_min_t:
        V = empty_points(b, s)
        Am = s.stones[me] & c.tables.root_empty
        Ao = s.stones[op] & c.tables.root_empty
        ume = table_hi(&c.tables, me, Am, V, ply)
        uop = table_hi(&c.tables, op, Ao, V, ply)
        lme = table_lo(&c.tables, me, Am, V, ply)
        lop = table_lo(&c.tables, op, Ao, V, ply)
        if ume > c.cap[me]:
            ume = c.cap[me]
        if uop > c.cap[op]:
            uop = c.cap[op]
        # each side spends at most one neutral per turn it still has
        hi_b = 100 * (ume - lop) + s.left[me] - (s.left[op] - (po if po < s.left[op] else s.left[op]))
        # Static bounds hold on every line: their proofs play on no point.
        if hi_b <= alpha:
            r = found(hi_b, BY_SEARCH, -1)
            r.prints = 0
            return r
        lo_b = 100 * (lme - uop) + (s.left[me] - (pm if pm < s.left[me] else s.left[me])) - s.left[op]
        if lo_b >= beta:
            r = found(lo_b, BY_STATIC, -1)
            r.prints = 0
            return r
    a0 = alpha
    b0 = beta
    if (c.opts & OPT_DOM) and (c.opts & OPT_LEAF) and s.rule == C_BASIC and pm == 2 and po == 1:
        best = three_turns_basic(b, s, alpha, beta, (ttmove & 63) if ttmove >= 0 else -1,
                                 &bestmove, &c.nodes, ref, &leaf_prints, &c.pairs,
                                 (c.played[ply - 1] & 63) if ply > 0 else -1)
        r = found(best, BY_LINE if (best >= b0 and ref != NULL) else BY_SEARCH, -1)
        if best >= b0 or best <= a0:
            r.prints = leaf_prints          # the footprint of the bound returned
        if c.opts & OPT_TT:
            tt_record(c, key, best, a0, b0, bestmove, T, r.prints)
        return r
    if (c.opts & OPT_ADV2) and (c.opts & OPT_LEAF) and s.rule == C_ADVANCED and pm == 1 and po == 1:
        # First the TT turn, else (ordering) the turn that refuted the last two-turn
        # node searched at this ply: siblings are mostly refuted by the same answer.
        t = ttmove
        if t < 0 and (c.opts & OPT_ORDER) and c.killer[ply] >= 0 and turn_is_legal(b, s, c.killer[ply]):
            t = c.killer[ply]
        best = two_turns_advanced(b, s, alpha, beta, t, &bestmove, &c.nodes,
                                  c.replies[ply] if (c.opts & OPT_REPLIES) else NULL)
        if best >= b0 and bestmove >= 0:
            c.killer[ply] = bestmove
        if c.opts & OPT_TT:
            tt_record(c, key, best, a0, b0, bestmove, T, ALL_POINTS)
        r = found(best, BY_SEARCH, -1)
        if best >= b0 and bestmove >= 0:
            r.refuted_by = bestmove     # searched: its value (a lower bound) is best
        return r
    # ply < MAX_PLY (see _common.pxd): this ply's slice of c.moves exists
    moves = c.moves + ply * MAX_NODE_TURNS
    if ply == 0 and c.n_root > 0 and key == c.root_key:
        n = c.n_root
        for i in range(n):
            moves[i] = c.root_turns[i]
    elif (c.opts & OPT_ORDER) and T > c.order_min_t:
        if ttmove >= 0:
            # The TT turn leads the ordered list: search it before the list is built.
            # Most such nodes cut on it (advanced-greedy4-9: 1.02 M of the 1.14 M
            # four-turn nodes that search), and then need no list at all.
            moves[0] = ttmove
            n = 1
            lazy = 1
        else:
            n = ordered_turns(c, moves, ttmove, ply)
    else:
        n = gen_turns_c(b, s, moves)
    if ply == 0 and c.helper:
        # A helper shares the table with a thread that searches this position from the
        # front of the list: start halfway, so that the two meet in the middle and
        # each finds the other's half proved in the table.
        if lazy:
            lazy = 0
            n = ordered_turns(c, moves, ttmove, ply)
        rotate_turns(moves, n, n // 2)
    if n == 0:                          # cannot happen: check_searchable leaves room for every turn
        v = value_c(b, s)
        return found(v if me == 0 else -v, BY_SEARCH, -1)    # (footprint unknown)
    best = -INF
    dead = 0
    # Four-turn rule (Basic, both sides two stones): a stone-only turn's refutation,
    # from its three-turn child, tells which of its neutral turns can be skipped.
    four = (c.opts & OPT_DOM) and (c.opts & OPT_LEAF) and s.rule == C_BASIC and pm == 2 and po == 2
    # Three-turn rule (Advanced, we two stones, they one; children are two-turn nodes):
    # a stone-only turn's refutation tells which of its neutral turns can be skipped.
    three = ((c.opts & OPT_ADV3) and (c.opts & OPT_ADV2) and (c.opts & OPT_LEAF)
             and s.rule == C_ADVANCED and pm == 2 and po == 1)
    if three:
        V3 = empty_points(b, s)
    # Last-neutral rule (both rules): holding one neutral and two stones or more, a
    # neutral turn (x, q) is refuted by the reply m that refuted (x, -), unless m
    # plays on q: after (x, q), m we hold no neutral, and each turn (z, -) of ours
    # there reaches the very position of (x, -), m, (z, q). So value(x, q) <=
    # value(x, -, m) <= what (x, -) returned, which best already holds; the proof
    # is the one of (x, -) (the same footprint).
    delay = (c.opts & OPT_DELAY) and s.left[me] == 1 and pm >= 2
    mark = c.defer_min_t > 0 and T >= c.defer_min_t
    defer = mark
    i = 0
    while True:
        if i == n:
            if lazy:
                # The TT turn did not cut: the whole list, the TT turn first again (the
                # killer and the ordering keys are what they were: same list as unlazily).
                lazy = 0
                n = ordered_turns(c, moves, ttmove, ply)
            if i == n:
                if not n_def:
                    break
                # Shared-tree search, second pass: the children deferred because
                # another thread was searching them, now likely proved in the table.
                moves = c.deferred + ply * MAX_NODE_TURNS
                n = n_def
                n_def = 0
                defer = 0                   # (no third pass)
                i = 0
                continue
        t = moves[i]
        i += 1
        if ply <= 1:                    # how far the probe is, for a progress display
            if ply == 0:
                c.root_i = i
                c.root_n = n
                c.reply_i = 0
                c.reply_n = 0
            else:
                c.reply_i = i
                c.reply_n = n
        if t >= 64:
            if (dead >> (t & 63)) & 1:
                continue    # (stone, neutral) is bounded by (stone, -): see OPT_MONO below
            if (have_ref >> (t & 63)) & 1:
                q = (t >> 6) - 1
                m = refx[t & 63]
                if q != (m & 63) and q != (m >> 6) - 1:     # m is legal after (stone, q)
                    if delay:
                        c.pruned_delay += 1
                        continue
                    if three and not ((rel3[t & 63] >> q) & 1):
                        # Their refutation m of (stone, -) refutes (stone, q) too, one
                        # tie-break point worse for us: q changes no final score
                        # (docs/solver.md, "three-turn rule"). Bounded by what (stone, -)
                        # returned, which best already holds.
                        c.pruned_adv3 += 1
                        continue
            if foot and (have_fp >> (t & 63)) & 1 and not ((fpx[t & 63] >> ((t >> 6) - 1)) & 1):
                # The refutation of (stone, -) never plays on this neutral's point: it
                # refutes (stone, q) too, one tie-break point worse for us (module
                # docstring). Bounded by what (stone, -) returned, which best holds;
                # its footprint is already in fail_low_prints.
                c.pruned_foot += 1
                continue
            if four and (relset >> (t & 63)) & 1:
                line = &c.lines[t & 63]
                q = (t >> 6) - 1
                if not ((line.relevant >> q) & 1):
                    c.pruned_rel += 1
                    fail_low_prints |= line.prints
                    continue    # the neutral misses every point the refutation needs
                if (line.pool >> q) & 1:
                    # The same refutation after (t, q): an exact two-turn line, O(points).
                    m = line.turn
                    v = two_turns_from_scores(line.our_last, line.their_last, line.pool & ~bit(q),
                                              s.left[me] - 1, s.left[op] - (1 if m >= 64 else 0), &ub,
                                              NULL)
                    if v <= alpha:
                        c.pruned_line += 1
                        fail_low_prints |= line.prints
                        if v > best:
                            best = v
                        continue
        slot = NULL
        if mark:
            # Shared-tree search (ABDADA, docs/solver.md): past the first child (at a
            # helper's root, the first too), a child that another thread searches now
            # waits for the second pass; the one searched is marked busy while it is.
            # The order changes, not the set.
            slot = c.busy + ((s.key ^ turn_key_c(b, s, t)) & c.busy_mask)
            if defer and (searched > 0 or (ply == 0 and c.helper)) and sz_busy_get(slot) > 0:
                c.deferred[ply * MAX_NODE_TURNS + n_def] = t
                n_def += 1
                c.deferrals += 1
                continue
        searched += 1
        line = &c.lines[t] if (four and t < 64) else NULL
        c.played[ply] = t
        if shift and t >= 64 and (seen >> (t & 63)) & 1:
            # its stone alone was searched here: the child may probe that position
            c.shift_q[ply + 1] = (t >> 6) - 1
            c.shift_side[ply + 1] = me
        else:
            c.shift_q[ply + 1] = c.shift_q[ply]
            c.shift_side[ply + 1] = c.shift_side[ply]
        if shift and t < 64:
            seen |= bit(t)
        if (c.opts & OPT_TT) and i < n:
            tt_prefetch(&c.tt, s.key ^ turn_key_c(b, s, moves[i]))
        make_c(b, s, t)
        if slot != NULL:
            sz_busy_add(slot, 1)
        if (c.opts & OPT_PVS) and best > -INF and beta - alpha > 1:
            # PVS: later turns first get a null window; re-search only if it fails high
            r = negamax(c, -alpha - 1, -alpha, ply + 1, line)
            v = -r.value
            if v > alpha and v < beta and not c.abort:
                r = negamax(c, -beta, -alpha, ply + 1, line)
                v = -r.value
        else:
            r = negamax(c, -beta, -alpha, ply + 1, line)
            v = -r.value
        if slot != NULL:
            sz_busy_add(slot, -1)
        cert = INF
        if ((three or delay) and t < 64 and r.refuted_by < 0 and r.how == BY_TT
                and v <= alpha and not c.abort):
            # (t, -) was refuted from the table (another thread's proof, or an earlier
            # probe's): the rules below need the reply m that refutes it. The stored
            # turn is only a hint, so check it: after m, our value is at most cert <=
            # alpha (our last turn scanned, or the grandchild's stored upper bound).
            cert = refuting_reply(c, T, me, alpha, &m)
            if cert <= alpha:
                r.refuted_by = m
                c.table_refutations += 1
        unmake_c(b, s, t)
        if c.abort:
            return found(0, BY_SEARCH, -1)
        if line != NULL:
            if r.how == BY_LINE:
                # (t, -) was refuted by an opponent turn whose proof only needs the points
                # in line.relevant; a neutral anywhere else is refuted by the same turn, one
                # tie-break point worse for us (docs/solver.md, "four-turn rule").
                relset |= bit(t)
            elif r.how == BY_TT and r.tt_turn >= 0:
                # Refuted from the TT: recompute the stored turn's exact line and its
                # relevant points; usable when its value reaches the bound returned.
                if refutation_line(b, s, t, r.tt_turn, line, &c.pairs) >= r.value:
                    relset |= bit(t)
        if (three or delay) and t < 64 and r.refuted_by >= 0:
            # the child reached its beta by searching m: (t, -) is refuted (v <= alpha)
            m = r.refuted_by
            refx[t] = m
            have_ref |= bit(t)
            if three:
                # Our neutral q matters only where it could change a final score: ours
                # (our stones, t, and one more stone anywhere) or theirs (their stones
                # and m's stone: their last). Blockers: the neutrals now (more only
                # shrink both sets).
                if not rays3_ready:     # one fill for every stone of this node
                    fill_rays_of(b, s.neutral, V3, &rays3)
                    rays3_ready = 1
                rel3[t] = (reach_points(b, s.stones[me] | bit(t), &rays3, V3 & ~bit(t))
                           | cut_points_of(b, s.stones[op] | bit(m & 63), &rays3, V3))
        if foot:
            if v <= alpha:
                # refuted: the refutation's footprint joins ours (if we fail low)
                fail_low_prints |= r.prints
                if t < 64:
                    fpx[t] = r.prints
                    have_fp |= bit(t)
            elif v >= beta:
                fail_high_prints = bit(t & 63) | (bit((t >> 6) - 1) if t >= 64 else 0) | r.prints
        if t < 64 and r.how == BY_STATIC and (c.opts & OPT_MONO):
            # The child failed high on its static lower bound (tables). With a
            # neutral added the child's bound only grows (the mover's best set can
            # only shrink, the opponent's worst set only improve, one neutral
            # less): every (t, q) is worse than what (t, -) returned. Skip them.
            dead |= bit(t)
        if cert <= alpha and cert > best:
            best = cert         # the neutral turns m refutes are bounded by cert, not v
        if v > best:
            best = v
            bestmove = t
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    if t != c.killer[ply]:
                        c.killer2[ply] = c.killer[ply]
                    c.killer[ply] = t
                    break
    r = found(best, BY_SEARCH, -1)
    if best >= b0 and bestmove >= 0:
        r.refuted_by = bestmove     # searched: its value is best
    if foot:
        if best >= b0:
            r.prints = fail_high_prints
        elif best <= a0:
            r.prints = fail_low_prints
    if c.opts & OPT_TT:
        tt_record(c, key, best, a0, b0, bestmove, T, r.prints)
    return r


# --- what the search supports ---------------------------------------------------------------

def check_searchable(Position pos not None):
    """Raise :class:`~szsolver.errors.UnsupportedError` (one line naming the limit)
    unless the search was built for ``pos`` (a core Position):

    * a board of at most 64 points and 6 directions (bitboards; pattern arrays of
      2**6 slots);
    * at most 15 neutrals left per side (the core's zobrist keys);
    * room for every turn: the empty points hold every stone still to place even
      if every turn before the last also places a neutral (the rules do not say
      what a turn with no point left does, and the exact last turns and the move
      lists assume a stone always finds one). It also bounds the depth by the 64
      points, so per-ply arrays (MAX_PLY) suffice.
    """
    cdef State* s = &pos.st
    cdef const Board* b = pos.board
    g = pos.geometry
    if g.size > CORE_MAX_POINTS:
        raise UnsupportedError(f"the {g.name} board has {g.size} points; the solver handles "
                               f"at most {CORE_MAX_POINTS}")
    if g.n_directions > CORE_MAX_DIRS:
        raise UnsupportedError(f"the {g.name} board has {g.n_directions} directions; the solver "
                               f"handles at most {CORE_MAX_DIRS}")
    if b.size != g.size or b.ndirs != g.n_directions:      # not bad input: a core bug
        raise RuntimeError(f"the core's tables for {g.name} do not match its geometry")
    if s.side not in (0, 1):
        raise UnsupportedError(f"side to move {s.side}: must be 0 (red) or 1 (blue)")
    for name, left in (("red", s.left[0]), ("blue", s.left[1])):
        if not 0 <= left <= MAX_NEUTRALS_LEFT:
            raise UnsupportedError(f"{name} has {left} neutrals left; the solver handles "
                                   f"0..{MAX_NEUTRALS_LEFT}")
    pr, pb = picks_left(s, 0), picks_left(s, 1)
    if pr < 0 or pb < 0:
        raise UnsupportedError(f"more stones on the board than {s.stones_per_side} per side")
    turns = pr + pb
    # Neutrals that can be placed before the game's last turn (Blue's: a neutral
    # placed with it takes no point from a later stone).
    neutrals = min(s.left[0], pr) + min(s.left[1], max(pb - 1, 0))
    empty = sz_popcount(empty_points(b, s))
    if empty < turns + neutrals:
        raise UnsupportedError(f"{empty} empty points may not hold the {turns} stones still to "
                               f"place after up to {neutrals} neutrals on the {g.name} board; "
                               "the searches assume every turn finds a point")
    if turns >= MAX_PLY:            # implied by the room check on <= 64 points
        raise UnsupportedError(f"{turns} turns left; the solver handles at most {MAX_PLY - 1}")


def _physical_memory():
    """Bytes of physical memory, or None when the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def tt_bytes(long long entries):
    """Bytes of a table asked for ``entries`` entries (rounded up to a power of two)."""
    cdef long long n = 2
    while n < entries:
        n *= 2
    return n * <long long>sizeof(sz_tt_slot)


# --- Python-facing driver object ------------------------------------------------------------

cdef class Searcher:
    """One search context: a copy of a position's state, a transposition table,
    the score tables and the limits. Driven by :mod:`szsolver.endgame.solver`.

    ``Searcher(pos, tt_entries, opts)`` raises UnsupportedError for a position the
    search was not built for (``check_searchable``), a table of fewer than 2 entries
    or larger than the machine's memory, or unknown option bits; MemoryError when
    an allocation fails."""
    cdef Ctx c
    cdef Position root
    cdef State root_state
    cdef list made              # turns made through make() since the root, in order
    cdef object table_owner     # the Searcher whose table this one uses (share_table), or None
    cdef bint busy_owned        # c.busy is this Searcher's to free (set_shared_tree)

    def __cinit__(self, Position pos not None, long long tt_entries=1 << 20, int opts=OPT_ALL):
        cdef int side
        memset(&self.c, 0, sizeof(Ctx))
        self.made = []
        check_searchable(pos)
        if tt_entries < 2:
            raise UnsupportedError(f"a transposition table needs at least 2 entries, got {tt_entries}")
        if tt_entries > (1 << 40):
            raise UnsupportedError(f"a transposition table of {tt_entries} entries does not fit in memory")
        memory = _physical_memory()
        if memory is not None and tt_bytes(tt_entries) > memory:
            raise UnsupportedError(f"a transposition table of {tt_entries} entries "
                                   f"({tt_bytes(tt_entries) / 2**30:.1f} GiB) does not fit in memory "
                                   f"({memory / 2**30:.1f} GiB)")
        if opts & ~OPT_KNOWN or opts < 0:
            raise UnsupportedError(f"unknown search options {opts:#x}")
        self.c.early_interrupt = tt_init(&self.c.tt, tt_entries)
        self.c.moves = <int*>malloc(MAX_PLY * MAX_NODE_TURNS * sizeof(int))
        self.c.root_turns = <int*>malloc(MAX_NODE_TURNS * sizeof(int))
        if self.c.moves == NULL or self.c.root_turns == NULL:
            raise MemoryError("cannot allocate the search's turn lists")
        self.c.opts = opts
        self.c.b = pos.board
        self.c.s = pos.st
        # No cap: the largest score possible (distinct patterns of a side's stones).
        for side in range(2):
            self.c.cap[side] = min(pos.st.stones_per_side, 1 << pos.board.ndirs, MAX_SCORE)
        self.c.table_min_t = 3
        for i in range(MAX_PLY + 1):
            self.c.killer[i] = -1
            self.c.killer2[i] = -1
            for j in range(REPLIES):
                self.c.replies[i][j] = -1
        self.c.root_shift_q = -1
        self.c.root_shift_side = 0
        self.c.shift_cuts = 0
        self.root = pos.copy()
        self.root_state = pos.st
        pair_cache_init(&self.c.pairs)
        if opts & OPT_TABLES and pos.st.rule == C_BASIC:
            build_score_tables(&self.c.tables, self.c.b, &self.c.s)

    def __dealloc__(self):
        tt_free(&self.c.tt)
        free_score_tables(&self.c.tables)
        free(self.c.moves)
        free(self.c.root_turns)
        free(self.c.deferred)
        if self.busy_owned:
            free(self.c.busy)

    # --- driving ----------------------------------------------------------------------
    def set_limits(self, long long node_limit=0, double seconds=0.0):
        """Absolute node budget (0 = none) and time budget from now (0 = none)."""
        if node_limit < 0 or not 0.0 <= seconds < float("inf"):
            raise UnsupportedError(f"limits must be finite and not negative, got {node_limit} "
                                   f"nodes and {seconds} seconds")
        self.c.node_limit = node_limit
        self.c.deadline = now_c() + seconds if seconds > 0 else 0.0
        self.c.abort = 0
        self.c.next_check = self.c.nodes + 1

    def share_table(self, Searcher owner not None):
        """Use ``owner``'s transposition table from now on (this one's own is freed):
        threads whose Searchers share one table see each other's proofs. The table's
        entries are facts about positions, so this is sound whatever the sharers
        searched before, provided they use the same techniques and score caps."""
        if owner is self or owner.table_owner is not None:
            raise UnsupportedError("share the table of a Searcher that owns its table")
        if owner.c.opts != self.c.opts or owner.c.cap[0] != self.c.cap[0] or owner.c.cap[1] != self.c.cap[1]:
            raise UnsupportedError("Searchers that share a table need the same options and score caps")
        tt_share(&self.c.tt, &owner.c.tt)
        self.table_owner = owner
        if self.busy_owned:             # its busy table went with its own table
            free(self.c.busy)
            self.busy_owned = False
        self.c.busy = NULL
        self.c.defer_min_t = 0

    def set_shared_tree(self, int min_turns, long long busy_entries=0):
        """Shared-tree search (ABDADA, docs/solver.md) with the threads that share this
        table: at nodes with at least ``min_turns`` turns left a child that another
        thread searches now is searched after the node's other children (its first
        child always at once). 0: off (the serial search, the default). The busy table
        (``busy_entries`` counters, rounded up to a power of two) belongs to the table's
        owner: call this on the owner first (with ``busy_entries`` >= 1), then on each
        sharer (which uses the owner's)."""
        cdef long long n = 1
        if min_turns < 0:
            raise UnsupportedError(f"min_turns must not be negative, got {min_turns}")
        if min_turns == 0:
            self.c.defer_min_t = 0
            return
        if self.c.deferred == NULL:
            self.c.deferred = <int*>malloc(MAX_PLY * MAX_NODE_TURNS * sizeof(int))
            if self.c.deferred == NULL:
                raise MemoryError("cannot allocate the search's deferred turn lists")
        if self.table_owner is None:
            if self.c.busy == NULL:
                if not 1 <= busy_entries <= (1 << 32):
                    raise UnsupportedError(f"a busy table needs 1..2**32 entries, "
                                           f"got {busy_entries}")
                while n < busy_entries:
                    n *= 2
                self.c.busy = <unsigned int*>calloc(n, sizeof(unsigned int))
                if self.c.busy == NULL:
                    raise MemoryError("cannot allocate the busy table")
                self.c.busy_mask = n - 1
                self.busy_owned = True
        else:
            owner = <Searcher>self.table_owner
            if owner.c.busy == NULL:
                raise UnsupportedError("the table's owner has no busy table: set it up first")
            self.c.busy = owner.c.busy
            self.c.busy_mask = owner.c.busy_mask
        self.c.defer_min_t = min_turns

    def hold_busy(self, int turn, int count):
        """Add ``count`` to the busy mark of the current position's child after ``turn``
        (legal): a stand-in, for tests, for another thread of the shared tree searching
        that child (``set_shared_tree`` first)."""
        cdef unsigned int* slot
        if self.c.busy == NULL:
            raise UnsupportedError("no busy table: call set_shared_tree first")
        if not turn_is_legal(self.c.b, &self.c.s, turn):
            raise IllegalTurnError(f"turn {turn} is not legal in the current position")
        slot = self.c.busy + ((self.c.s.key ^ turn_key_c(self.c.b, &self.c.s, turn))
                              & self.c.busy_mask)
        sz_busy_add(slot, count)

    def set_helper(self, bint on):
        """As a helper thread (on a table shared with another that probes the same
        position), search the probe's root turns from the middle of the list; with the
        shared tree on at the root (``set_shared_tree``), a root turn that another
        thread searches waits for the second pass, the first one too."""
        self.c.helper = on

    def set_order_min_turns(self, int t):
        """Order turns heuristically only at nodes with more than ``t`` turns left."""
        self.c.order_min_t = t

    def set_table_min_turns(self, int t):
        """Use the score-table bounds only at nodes with at least ``t`` turns left."""
        self.c.table_min_t = t

    def set_score_caps(self, int red, int blue):
        """External upper bounds on each side's final score (e.g. CP-SAT); they must
        be valid bounds. The default is the largest score possible."""
        if red < 0 or blue < 0:
            raise UnsupportedError(f"score caps must not be negative, got {red} and {blue}")
        self.c.cap[0] = min(red, MAX_SCORE)
        self.c.cap[1] = min(blue, MAX_SCORE)

    def set_root_turns(self, turns):
        """Search only ``turns`` (legal at the current position: one per symmetry
        orbit) there; None: every turn."""
        cdef int i = 0
        if turns is None:
            self.c.n_root = 0
            return
        turns = list(turns)
        if not 0 < len(turns) <= MAX_NODE_TURNS:
            raise UnsupportedError(f"{len(turns)} root turns: need 1..{MAX_NODE_TURNS}")
        for t in turns:
            if not turn_is_legal(self.c.b, &self.c.s, t):
                raise IllegalTurnError(f"root turn {t} is not legal in the current position")
        for t in turns:
            self.c.root_turns[i] = t
            i += 1
        self.c.n_root = i
        self.c.root_key = self.c.s.key

    def probe(self, int alpha, int beta):
        """Fail-soft alpha-beta at the current position, value from the side to move,
        for a window -INF <= alpha < beta <= INF (INF = 30000).
        Check ``aborted`` afterwards: if set the returned number means nothing.
        The search runs without the GIL (threads with their own Searcher run meanwhile;
        the limit check takes it back every 4096 nodes for Ctrl-C)."""
        cdef Outcome r
        if not -INF <= alpha < beta <= INF:
            raise UnsupportedError(f"window ({alpha}, {beta}): need -{INF} <= alpha < beta <= {INF}")
        if self.c.abort:
            return 0
        tables_at_root(&self.c.tables)
        self.c.root_i = 0               # (root_progress: nothing searched yet)
        self.c.root_n = 0
        self.c.shift_q[0] = self.c.root_shift_q
        self.c.shift_side[0] = self.c.root_shift_side
        with nogil:
            r = negamax(&self.c, alpha, beta, 0, NULL)
        self.c.last_prints = r.prints if ((self.c.opts & OPT_FOOT) and self.c.s.rule == C_BASIC
                                          and (r.value <= alpha or r.value >= beta)) else ALL_POINTS
        self.c.last_refutation = r.refuted_by if r.value >= beta else -1
        return r.value

    def stop(self):
        """Stop this Searcher's search from another thread (the multi-threaded driver:
        Ctrl-C, a shared limit): it returns after the child it is in, ``aborted`` set to
        interrupted, and every probe returns at once until ``set_limits``."""
        self.c.abort = ABORT_INTERRUPT

    def red_probe(self, int gamma):
        """Null-window test of the current position's value from Red's side:
        returns (bound, is_lower) -- value >= bound if is_lower else value <= bound.
        Returns None when a limit stopped it."""
        cdef int v
        # red value >= gamma  <=>  mover value >= gamma (red) / <= -gamma (blue)
        if self.c.s.side == 0:
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
        cdef int ur = self.c.cap[0], ub = self.c.cap[1], lr = 0, lb = 0
        cdef bb_t V = empty_points(self.c.b, s)
        cdef bb_t E = self.c.tables.root_empty
        if self.c.tables.ready:
            tables_at_root(&self.c.tables)
            ur = min(ur, table_hi(&self.c.tables, 0, s.stones[0] & E, V, 0))
            ub = min(ub, table_hi(&self.c.tables, 1, s.stones[1] & E, V, 0))
            lr = table_lo(&self.c.tables, 0, s.stones[0] & E, V, 0)
            lb = table_lo(&self.c.tables, 1, s.stones[1] & E, V, 0)
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
        """Play ``turn`` (legal, else IllegalTurnError) at the current position."""
        if not turn_is_legal(self.c.b, &self.c.s, turn):
            raise IllegalTurnError(f"turn {turn} is not legal in the current position")
        make_c(self.c.b, &self.c.s, turn)
        self.made.append(turn)
        self.c.root_shift_q = -1

    def unmake(self, int turn):
        """Take back ``turn``, which must be the last turn made."""
        if not self.made or self.made[len(self.made) - 1] != turn:
            raise IllegalTurnError(f"turn {turn} is not the last turn made")
        unmake_c(self.c.b, &self.c.s, turn)
        self.made.pop()
        self.c.root_shift_q = -1

    def set_shift(self, int point, int owner=-1):
        """Tell the next probes that the current position without its neutral on
        ``point``, placed by ``owner`` (0 red, 1 blue; default: the side that just
        moved), who is one neutral richer there, was searched on this table: the
        shifted probe (Basic) may use its bounds. Cleared by the next make, unmake
        or reset. (Sound for any neutral and either owner: the owner only says which
        position the table is likely to hold.)"""
        if owner == -1:
            owner = self.c.s.side ^ 1
        if owner not in (0, 1):
            raise UnsupportedError(f"owner {owner}: must be 0 (red) or 1 (blue)")
        if not (0 <= point < 64 and (self.c.s.neutral >> point) & 1):
            raise UnsupportedError(f"no neutral on point {point}")
        if self.c.s.left[owner] + 1 > MAX_NEUTRALS_LEFT:
            raise UnsupportedError("the neutral's owner would hold too many neutrals")
        self.c.root_shift_q = point
        self.c.root_shift_side = owner

    def reset(self):
        """Back to the root position (after makes)."""
        self.c.s = self.root_state
        self.made = []
        self.c.root_shift_q = -1

    def tt_move(self):
        """The TT's best turn at the current position (checked legal), or -1."""
        cdef TTEntry entry
        cdef TTEntry* e = tt_find(&self.c.tt, self.c.s.key, &entry)
        return legal_tt_turn(&self.c, e) if e != NULL else -1

    def tt_bounds(self):
        cdef TTEntry entry
        cdef TTEntry* e = tt_find(&self.c.tt, self.c.s.key, &entry)
        if e == NULL:
            return None
        return (e.lo, e.hi)

    def plant_tt_entry(self, int lo, int hi, int turn):
        """Store [lo, hi] and ``turn`` (not checked) for the current position: a
        stand-in for a key collision, for tests. ``lo``/``hi`` must hold the true
        value (mover's view) or the search's answers are wrong."""
        if not -INF <= lo <= hi <= INF or not -1 <= turn < 32767:
            raise UnsupportedError(f"bad TT entry ({lo}, {hi}, {turn})")
        tt_store(&self.c.tt, self.c.s.key, lo, hi, turn, picks_left(&self.c.s, 0) + picks_left(&self.c.s, 1),
                 ALL_POINTS, ALL_POINTS)

    def ordered_turns(self):
        """The legal turns at the current position in the search's order (the TT's
        turn first; the ordering heuristic when ``order`` is on, else turn order)."""
        cdef int buf[MAX_NODE_TURNS]
        cdef TTEntry entry
        cdef TTEntry* e = tt_find(&self.c.tt, self.c.s.key, &entry) if (self.c.opts & OPT_TT) else NULL
        cdef int tt = legal_tt_turn(&self.c, e) if e != NULL else -1
        cdef int n
        if not (self.c.opts & OPT_ORDER):
            n = gen_turns_c(self.c.b, &self.c.s, buf)
            out = [buf[i] for i in range(n)]
            if tt >= 0:
                out.remove(tt)
                out.insert(0, tt)
            return out
        n = gen_ordered(self.c.b, &self.c.s, buf, tt, 1, -1, early_pairs(&self.c), -1)
        return [buf[i] for i in range(n)]

    def legal_turns(self):
        cdef int buf[CORE_MAX_TURNS]        # n * n <= 64 * 64 turns
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
    def last_footprint(self):
        """The points the proof of the last probe's bound plays on (footprint rule,
        Basic; every bit set when not known). A bound that goes against the side to
        move here holds as well with any other points occupied and that side poorer
        by neutrals (module docstring)."""
        return self.c.last_prints

    @property
    def last_refutation(self):
        """The turn by which the last probe's position reached its beta, searched (its
        value is what the probe returned: a lower bound on that line for the side to
        move there), or -1 (it did not, or a table or a bound decided it)."""
        return self.c.last_refutation

    @property
    def opts(self):
        return self.c.opts

    @property
    def deferrals(self):
        """Children the shared-tree search deferred to a node's second pass."""
        return self.c.deferrals

    @property
    def tt_bad_turns(self):
        """TT turns found illegal where they were read (key collisions), and ignored."""
        return self.c.tt_bad_turns

    @property
    def has_tables(self):
        return bool(self.c.tables.ready)

    def root_progress(self):
        """(i, n, j, m): the probe now searches the i-th of the n turns listed at the
        root, and the j-th of the m replies listed to it (zeros before the first). Safe
        to read from another thread while a probe runs; a list can grow once the
        table's turn did not cut (the lazy list)."""
        return self.c.root_i, self.c.root_n, self.c.reply_i, self.c.reply_n

    def stats(self):
        return {"nodes": self.c.nodes, "tt_probes": self.c.tt.probes, "tt_hits": self.c.tt.hits,
                "tt_stores": self.c.tt.stores, "tt_used": self.c.tt.used,
                "tt_entries": self.c.tt.size,
                "neutral_turns_pruned": (self.c.pruned_rel + self.c.pruned_line + self.c.pruned_adv3
                                         + self.c.pruned_foot + self.c.pruned_delay),
                "neutral_turns_pruned_by_last_neutral": self.c.pruned_delay,
                "neutral_turns_pruned_by_footprint": self.c.pruned_foot,
                "shifted_probe_cuts": self.c.shift_cuts,
                "table_refutations": self.c.table_refutations,
                "nodes_by_turns_left": [self.c.nodes_at[i] for i in range(MAX_PLY + 1)
                                        if self.c.nodes_at[i]],
                "tt_fill": (<double>self.c.tt.used) / self.c.tt.size if self.c.tt.size else 0.0}
