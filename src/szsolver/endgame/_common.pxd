# cython: language_level=3
"""Limits, constants and small inline helpers shared by the endgame search modules
(``_tt``, ``_tables``, ``_leaves``, ``_search``).

Every fixed-size buffer of the search is sized by a limit below, derived from the
core's own limits (at most 64 points, at most 6 directions). The search's Python
entry point (``_search.check_searchable``, run by ``Searcher`` and ``solver.solve``)
refuses a position outside them before any C runs.

Debug builds (``SZSOLVER_DEBUG=1 python3 setup.py build_ext --inplace`` defines
the C macro ``SZSOLVER_DEBUG``) check the search's invariants with
``if SZ_DEBUG: sz_debug_check(condition, "what")``: the branch is a compile-time
constant, so release builds carry no trace of it.
"""
from szsolver.rules._core cimport (Board, State, bb_t, pattern_set_c, is_over_c, sz_popcount,
                                   CORE_MAX_POINTS)

cdef extern from *:
    """
    #include <stdio.h>
    #include <stdlib.h>
    #ifdef SZSOLVER_DEBUG
    #define SZ_DEBUG 1
    #else
    #define SZ_DEBUG 0
    #endif
    static inline void sz_debug_check(int ok, const char *what) {
        if (!ok) {
            fprintf(stderr, "szsolver search: invariant broken: %s\\n", what);
            abort();
        }
    }
    """
    const int SZ_DEBUG                  # 1 in a debug build, else 0
    void sz_debug_check(bint ok, const char* what) noexcept nogil


cdef enum:
    # A side's score is its number of distinct patterns: at most its stones, so at
    # most the board's points (64). Score arrays have MAX_SCORE + 2 slots.
    MAX_SCORE = CORE_MAX_POINTS
    # Beyond every value: |value| <= 100 * MAX_SCORE + 2 * 15 < INF, and INF fits the
    # TT's int16 bounds.
    INF = 30000
    # Every turn fills an empty point, so a search from any position is at most
    # 64 plies deep; per-ply arrays have MAX_PLY + 1 slots.
    MAX_PLY = CORE_MAX_POINTS + 1
    # Turns at one node: each of n <= 64 empty points alone or with a neutral on one
    # of the n - 1 others (n * n <= 4096), plus the TT turn and the killer that move
    # ordering may put first: 64 * 65 is room for all of them.
    MAX_NODE_TURNS = CORE_MAX_POINTS * (CORE_MAX_POINTS + 1)
    # Largest turn code + 1: stone + 64 * (neutral + 1), neutral in -1..63.
    TURN_CODES = 64 * (CORE_MAX_POINTS + 1)


cdef inline bb_t bit(int p) noexcept nogil:
    return (<bb_t>1) << p


cdef inline bb_t empty_points(const Board* b, const State* s) noexcept nogil:
    return b.full & ~(s.stones[0] | s.stones[1] | s.neutral)


cdef inline int picks_left(const State* s, int side) noexcept nogil:
    """Stones ``side`` still has to place."""
    return s.stones_per_side - sz_popcount(s.stones[side])


cdef inline int side_score(const Board* b, bb_t own, bb_t blockers) noexcept nogil:
    """Score of the stones ``own`` (distinct patterns) with beams cut by ``blockers``."""
    return sz_popcount(pattern_set_c(b, own, blockers))


cdef inline bint turn_is_legal(const Board* b, const State* s, int turn) noexcept nogil:
    """Is ``turn`` (stone + 64 * (neutral + 1)) legal in ``s``? For turns that do not
    come from this position's generator: TT entries (a key collision may hand over
    another position's turn) and turns passed in from Python."""
    cdef bb_t empty
    cdef int p = turn & 63, q = (turn >> 6) - 1
    if turn < 0 or turn >= TURN_CODES or is_over_c(s):
        return 0
    empty = empty_points(b, s)
    if not (empty >> p) & 1:
        return 0
    if q < 0:
        return 1
    return q != p and (empty >> q) & 1 and s.left[s.side] > 0


cdef inline void sort_by_key(int* pts, const int* key, int n) noexcept nogil:
    """Insertion sort of the points ``pts[:n]`` by ``key[point]``, descending (n <= 64)."""
    cdef int i, j, p, k
    for i in range(1, n):
        p = pts[i]
        k = key[p]
        j = i - 1
        while j >= 0 and key[pts[j]] < k:
            pts[j + 1] = pts[j]
            j -= 1
        pts[j + 1] = p
