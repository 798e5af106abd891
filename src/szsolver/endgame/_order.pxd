# cython: language_level=3
"""Move ordering of the endgame search (see ``_order.pyx``)."""
from szsolver.rules._core cimport Board, State


cdef int gen_ordered(const Board* b, const State* s, int* out, int ttmove, int with_neutrals,
                     int killer, int early, int killer2) noexcept nogil
