# cython: language_level=3
"""Score tables of the endgame search (Basic rule): static bounds on each side's
final score.

Under the Basic rule a side's final score depends only on its own stones. At the
root, for each side, every set of root-empty points it can still fill is scored
once and sorted, best first. At a node, the best (worst) set still fully
available -- containing the side's stones placed since the root, inside those
plus the empty points -- bounds that side's final score from above (below).
Along a path the available family only shrinks, so a node's scan resumes where
its parent's stopped (``hi_at`` / ``lo_at``, per ply). That is sound because a
node uses the tables only when its parent did: the search uses them at nodes with
at least ``table_min_t`` turns left, and turns left only grow towards the root.
"""
from libc.stdint cimport uint8_t

from szsolver.rules._core cimport Board, State, bb_t
from szsolver.endgame._common cimport MAX_PLY, MAX_SCORE


cdef struct ScoreTables:
    int ready                   # 1 when built (Basic rule, few enough sets)
    bb_t root_empty             # the root's empty points: every set is a subset
    bb_t* sets[2]               # per side: each set it may still fill, best score first
    uint8_t* score[2]           # per side: its final score with each set
    int n[2]                    # per side: number of sets
    int hi_at[MAX_PLY + 1][2]   # per ply and side: where the scan for the best set resumes
    int lo_at[MAX_PLY + 1][2]   # per ply and side: where the scan for the worst set resumes


cdef int build_score_tables(ScoreTables* t, const Board* b, const State* s) except -1
cdef void free_score_tables(ScoreTables* t) noexcept


cdef inline void tables_at_root(ScoreTables* t) noexcept nogil:
    """Start the scans at ply 0 from the ends of the tables."""
    cdef int side
    for side in range(2):
        t.hi_at[0][side] = 0
        t.lo_at[0][side] = t.n[side] - 1


cdef inline int table_hi(ScoreTables* t, int side, bb_t placed, bb_t avail, int ply) noexcept nogil:
    """Best final score of ``side`` over its sets S with placed <= S <= placed | avail
    (``placed``: its stones put on root-empty points since the root); resumes at the
    parent's index and leaves the child's at ply + 1. -1 when no set is available
    (cannot happen while the points suffice for every turn)."""
    cdef int i = t.hi_at[ply][side], n = t.n[side]
    cdef bb_t* m = t.sets[side]
    cdef bb_t allowed = placed | avail
    while i < n:
        if (m[i] & placed) == placed and (m[i] & ~allowed) == 0:
            break
        i += 1
    t.hi_at[ply + 1][side] = i
    if i >= n:
        return -1
    return t.score[side][i]


cdef inline int table_lo(ScoreTables* t, int side, bb_t placed, bb_t avail, int ply) noexcept nogil:
    """Worst final score of ``side`` over the same sets (see ``table_hi``);
    MAX_SCORE + 1 when no set is available."""
    cdef int i = t.lo_at[ply][side]
    cdef bb_t* m = t.sets[side]
    cdef bb_t allowed = placed | avail
    while i >= 0:
        if (m[i] & placed) == placed and (m[i] & ~allowed) == 0:
            break
        i -= 1
    t.lo_at[ply + 1][side] = i
    if i < 0:
        return MAX_SCORE + 1
    return t.score[side][i]
