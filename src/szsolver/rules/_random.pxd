# cython: language_level=3
# xorshift64*, the one pseudo-random stream of the compiled searches (the engine's
# playouts in engine/_mcts.pyx, the complete-starmap search in starmaps/_complete.pyx):
# seeded by the caller (see szsolver.rules.seeds), never by the clock. Inline C
# declarations only: each module that cimports them compiles its own copy.
from libc.stdint cimport uint32_t, uint64_t


# The next 64 bits of the stream whose state is s[0] (never 0).
cdef inline uint64_t next_random(uint64_t* s) noexcept nogil:
    s[0] ^= s[0] >> 12
    s[0] ^= s[0] << 25
    s[0] ^= s[0] >> 27
    return s[0] * <uint64_t>2685821657736338717ULL


# A number in 0..n-1 (n > 0) from the stream's high bits (31 of them: a 32-bit
# division, the same number as a 64-bit one, at a fraction of its cost).
cdef inline int random_below(uint64_t* s, int n) noexcept nogil:
    return <int>(<uint32_t>(next_random(s) >> 33) % <uint32_t>n)
