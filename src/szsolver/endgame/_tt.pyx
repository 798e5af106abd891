# cython: language_level=3
"""Allocation of the endgame search's transposition table (the lookups are inline
functions in ``_tt.pxd``)."""
from libc.stdlib cimport calloc, free


cdef int tt_init(TT* tt, long long entries) except -1:
    """Allocate a zeroed table of at least ``entries`` entries (rounded up to a power
    of two, at least 2). Raises MemoryError when it cannot be allocated."""
    cdef long long buckets = 1
    while buckets * 2 < entries:
        buckets *= 2
    tt.entries = <TTEntry*>calloc(buckets * 2, sizeof(TTEntry))
    if tt.entries == NULL:
        raise MemoryError(f"cannot allocate a transposition table of {buckets * 2} entries")
    tt.mask = buckets - 1
    tt.size = buckets * 2
    tt.probes = tt.hits = tt.stores = tt.used = 0
    return 0


cdef void tt_free(TT* tt) noexcept:
    free(tt.entries)
    tt.entries = NULL
    tt.size = 0
