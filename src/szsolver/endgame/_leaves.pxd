# cython: language_level=3
"""Exact values of the last turns of the game, without a tree search (see
``_leaves.pyx`` and docs/solver.md, "Techniques"). All values are the mover's
view: 100 * (mover's score - other side's score) + (neutrals-left difference).
"""
from szsolver.rules._core cimport Board, State, bb_t, sz_ctz, CORE_MAX_POINTS
from szsolver.endgame._common cimport INF


cdef enum:
    PAIR_SLOTS = 4                      # pair tables kept (most recent stone sets)


cdef struct PairTable:
    # Basic rule: a side's final score with two more stones, score[x][y] =
    # score(own + x + y), and score[x][x] = score(own + x); filled a row at a time.
    # A three-turn node's mover needs the row of each stone it tries; its siblings
    # (the node above tries many turns against the same stones of ours) reuse them.
    bb_t own                            # the side's stones (~0: slot unused)
    bb_t filled[CORE_MAX_POINTS]        # per row x: the y with score[x][y] filled
    bb_t singles                        # x with score[x][x] filled
    int score[CORE_MAX_POINTS][CORE_MAX_POINTS]


cdef struct PairCache:
    int next                            # slot to replace next (round robin)
    PairTable t[PAIR_SLOTS]


cdef struct Rays:
    # Per axis (at most 3) and empty point: the point's rays towards higher and lower
    # point numbers, each cut short at its nearest blocker, for one set of blockers.
    bb_t hi[3][CORE_MAX_POINTS]
    bb_t lo[3][CORE_MAX_POINTS]


cdef struct TwoTurnPrints:
    # Footprints of a two-turn position (Basic; see ``two_turns_from_scores``): the
    # points each side's strategy plays on, for the footprint rule (``_search``).
    bb_t best                           # the mover's best turn: its stone (and neutral)
    bb_t other                          # another optimal turn with another stone (0: none)
    bb_t last                           # the other side's three best points in a fixed
                                        # order: its last stone takes the first one left


cdef struct Refutation:
    # How a three-turn node (Basic) refuted a stone-only turn of the four-turn node
    # above it; that node reuses it to skip its neutral turns (four-turn rule).
    # "Ours" is the four-turn node's mover, "theirs" the refuting side.
    int turn                            # the refuting turn (theirs)
    bb_t pool                           # empty points left for the last two turns
    bb_t relevant                       # points a neutral of ours could matter on
    bb_t prints                         # the refutation's footprint against any neutral
                                        # of ours it refutes: its turn and their four best
                                        # pool points (their last stone takes one of them)
    int our_last[CORE_MAX_POINTS]       # per pool point: our final score with our last stone there
    int their_last[CORE_MAX_POINTS]     # per pool point: their final score with their last stone there


cdef void fill_rays_of(const Board* b, bb_t nb, bb_t V, Rays* r) noexcept nogil
cdef int scores_with_cut(const Board* b, bb_t own, bb_t nb, const Rays* r, bb_t V,
                         int* out) noexcept nogil
cdef void scores_with_stone(const Board* b, bb_t own, bb_t nb, const Rays* r, bb_t V,
                            int* with0) noexcept nogil
cdef bb_t reach_points(const Board* b, bb_t own, const Rays* r, bb_t V) noexcept nogil
cdef bb_t cut_points_of(const Board* b, bb_t own, const Rays* r, bb_t V) noexcept nogil
cdef int last_turn(const Board* b, const State* s, int alpha, int beta, int* turn,
                   bb_t scan_first) noexcept nogil
cdef int two_turns_basic(const Board* b, const State* s, TwoTurnPrints* fp) noexcept nogil
cdef enum:
    REPLIES = 4         # the other side's refuting last turns kept per ply (two_turns_advanced)
cdef int two_turns_advanced(const Board* b, State* s, int alpha, int beta, int first,
                            int* best_turn, long long* nodes, int* ring) noexcept nogil
cdef void pair_cache_init(PairCache* pc) noexcept nogil
cdef int three_turns_basic(const Board* b, const State* s, int alpha, int beta, int tt_stone,
                           int* best_turn, long long* nodes, Refutation* ref,
                           bb_t* prints, PairCache* pc, int last_stone) noexcept nogil
cdef int refutation_line(const Board* b, State* s, int turn, int reply, Refutation* ref,
                         PairCache* pc) noexcept nogil


cdef inline int two_turns_from_scores(const int* mover_with, const int* other_with, bb_t pool,
                                      int mover_left, int other_left, int* unique_best,
                                      TwoTurnPrints* fp) noexcept nogil:
    """Exact value (mover's view), Basic rule, each side one stone left, the mover
    first, from cached scores: ``mover_with[p]`` / ``other_with[p]`` is the mover's /
    other side's final score with its last stone on the pool point p; ``mover_left``
    / ``other_left`` are their neutrals left. The other side then takes its best
    point left (never a neutral: nothing follows), so the mover's only useful
    neutral covers the other side's best point apart from the mover's own stone.
    ``unique_best`` receives the mover's optimal stone when only one stone is
    optimal, else -1. ``fp`` (may be NULL) receives the footprints: the other side's
    best points are ranked by score, then by point, and its last stone takes the
    first one left (of the first three: the mover removes at most two). O(|pool|)."""
    cdef bb_t e = pool, tp, fp1 = 0, fp2 = 0
    cdef int p, v, a, bb, best = -INF, best_p = -1, pa
    cdef int o1 = -1, o2 = -1, o3 = -1, p1 = -1, p2 = -1, p3 = -1, x     # other side's three best
    cdef int tie = mover_left - other_left
    while e:
        p = sz_ctz(e)
        e &= e - 1
        x = other_with[p]
        if x > o1:
            o3 = o2
            p3 = p2
            o2 = o1
            p2 = p1
            o1 = x
            p1 = p
        elif x > o2:
            o3 = o2
            p3 = p2
            o2 = x
            p2 = p
        elif x > o3:
            o3 = x
            p3 = p
    e = pool
    while e:
        p = sz_ctz(e)
        e &= e - 1
        # a: the other side's best score with p taken (on point pa); bb: its next best
        if p == p1:
            a = o2
            bb = o3
            pa = p2
        elif p == p2:
            a = o1
            bb = o3
            pa = p1
        else:
            a = o1
            bb = o2
            pa = p1
        if a < 0:          # no point left for the other side: cannot happen in play
            a = 0
        v = 100 * (mover_with[p] - a) + tie
        tp = (<bb_t>1) << p
        if mover_left > 0 and bb >= 0 and bb < a:
            if 100 * (mover_with[p] - bb) + tie - 1 > v:
                v = 100 * (mover_with[p] - bb) + tie - 1
                tp |= (<bb_t>1) << pa
        if v > best:
            best = v
            best_p = p
            fp1 = tp
            fp2 = 0
        elif v == best:
            best_p = -1
            if fp2 == 0:
                fp2 = tp
    unique_best[0] = best_p
    if fp != NULL:
        fp.best = fp1
        fp.other = fp2
        fp.last = 0
        if p1 >= 0:
            fp.last |= (<bb_t>1) << p1
        if p2 >= 0:
            fp.last |= (<bb_t>1) << p2
        if p3 >= 0:
            fp.last |= (<bb_t>1) << p3
    return best
