# cython: language_level=3
"""Allocation of the endgame search's transposition table (the lookups are inline
functions in ``_tt.pxd``)."""
from libc.stdint cimport int16_t, uint64_t, uintptr_t


cdef extern from *:
    """
    #include <stddef.h>
    #include <stdint.h>
    #include <sys/mman.h>
    #define SZ_HUGE_PAGE ((size_t)2 << 20)
    /* The table, 2 MiB-aligned, from an anonymous mapping (zeroed, pages faulted in
       as the search touches them), in transparent huge pages where the kernel has
       them: a probe is a random access into up to 256 MiB, and with 4 KiB pages
       nearly every one misses the TLB and many fault a page in. Sets *base / *len
       to what sz_tt_unmap takes; NULL when the mapping fails. */
    static void* sz_tt_map(size_t bytes, void** base, size_t* len) {
        size_t n = bytes + SZ_HUGE_PAGE;
        void* p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        uintptr_t a;
        if (p == MAP_FAILED) return NULL;
        a = ((uintptr_t)p + SZ_HUGE_PAGE - 1) & ~(uintptr_t)(SZ_HUGE_PAGE - 1);
    #ifdef MADV_HUGEPAGE
        if (bytes >= SZ_HUGE_PAGE)
            madvise((void*)a, bytes, MADV_HUGEPAGE);   /* a hint: failure is harmless */
    #endif
        *base = p;
        *len = n;
        return (void*)a;
    }
    static void sz_tt_unmap(void* base, size_t len) { if (base != NULL) munmap(base, len); }
    /* Write a zero into every 4 KiB page of [from, to): the pages are faulted in now. */
    static void sz_tt_touch(void* a, size_t from, size_t to) {
        volatile char* p = (volatile char*)a;
        size_t i;
        for (i = from; i < to; i += 4096) p[i] = 0;
    }
    """
    void* sz_tt_map(size_t bytes, void** base, size_t* len) noexcept
    void sz_tt_unmap(void* base, size_t len) noexcept
    void sz_tt_touch(void* a, size_t start, size_t stop) noexcept
    size_t SZ_HUGE_PAGE

cdef extern from "Python.h":
    int PyErr_CheckSignals_raw "PyErr_CheckSignals" () noexcept
    void PyErr_Clear_raw "PyErr_Clear" () noexcept


#: Tables this large (a long solve's: a minute or 200 M nodes and more, beyond 8 turns
#: left) are faulted in when made; smaller ones serve searches that may touch only a
#: few of their pages (an 8-turn solve's 256 MiB in 0.05 s), and fault in as touched.
cdef size_t FAULT_IN_BYTES = (<size_t>512) << 20


cdef int tt_fault_in(void* slots, size_t bytes) noexcept:
    """Fault the table in now, a huge page at a time, looking for Ctrl-C after each as
    the search does (the handlers run, their exception dropped); returns 1 when one
    came (the rest then faults in as the search touches it), else 0. Why: where the
    kernel makes room for a huge page on the fault (``defrag`` ``madvise``, as the
    table asks), a fault can stall under memory pressure, and in the search the faults
    come thousands of nodes apart from its looks for Ctrl-C: with a 1 GiB table a solve
    took up to 6 s to stop (docs/solver.md). The same pages fault in either way: a
    long search touches the whole table within its first second."""
    cdef size_t off = 0, end
    while off < bytes:
        end = min(off + SZ_HUGE_PAGE, bytes)
        sz_tt_touch(slots, off, end)
        off = end
        if PyErr_CheckSignals_raw() != 0:
            PyErr_Clear_raw()
            return 1
    return 0


cdef int tt_init(TT* tt, long long entries) except -1:
    """Allocate a zeroed table of at least ``entries`` entries (rounded up to a power
    of two, at least 2); a large one is faulted in at once (:func:`tt_fault_in`).
    Returns 1 when Ctrl-C came meanwhile (for the search to stop at its first look),
    else 0. Raises MemoryError when it cannot be allocated."""
    cdef long long buckets = 1
    while buckets * 2 < entries:
        buckets *= 2
    tt.slots = <sz_tt_slot*>sz_tt_map(buckets * 2 * sizeof(sz_tt_slot), &tt.block, &tt.block_len)
    if tt.slots == NULL:
        tt.block = NULL
        raise MemoryError(f"cannot allocate a transposition table of {buckets * 2} entries")
    tt.mask = buckets - 1
    tt.size = buckets * 2
    tt.probes = tt.hits = tt.stores = tt.used = 0
    if buckets * 2 * sizeof(sz_tt_slot) >= FAULT_IN_BYTES:
        return tt_fault_in(tt.slots, buckets * 2 * sizeof(sz_tt_slot))
    return 0


cdef void tt_share(TT* tt, const TT* owner) noexcept:
    """Make ``tt`` (its own table freed) use ``owner``'s slots, which must outlive it;
    the counters stay ``tt``'s own."""
    tt_free(tt)
    tt.slots = owner.slots
    tt.mask = owner.mask
    tt.size = owner.size


cdef void tt_free(TT* tt) noexcept:
    sz_tt_unmap(tt.block, tt.block_len)
    tt.block = NULL
    tt.slots = NULL
    tt.size = 0


def torn_reads_accepted(int pairs=2000):
    """For tests: write ``pairs`` pairs of entries (the same key with bounds and
    footprints that differ in matching bits, and random ones), read every slot whose
    four words mix the two writes, and return (mixes read as an entry of either key,
    intact slots read back wrong). Both must be 0."""
    cdef sz_tt_slot slot, a, b
    cdef TTEntry e, f, out
    cdef uint64_t x = 0x853c49e6748fea9bULL
    cdef int i, m, bit, accepted = 0, wrong = 0
    for i in range(pairs):
        x = x * 6364136223846793005ULL + 1442695040888963407ULL
        bit = <int>((x >> 59) & 15)
        e.key = x
        e.lo = <int16_t>(x >> 17) % 3000
        e.hi = e.lo + 5
        e.move = <int16_t>((x >> 40) & 4095)
        e.tl = 6
        e.used = 1
        e.fp_lo = x ^ (x << 13)
        e.fp_hi = x ^ (x >> 7)
        f = e
        if i % 2:
            # the same key, a bound and a footprint that differ in the same bit (and the
            # other footprint): with a plain xor of the words, the slot of the first
            # write with the second's bound and footprint would pass
            f.lo = e.lo ^ (1 << bit)
            f.fp_lo = e.fp_lo ^ (<uint64_t>1 << bit)
            f.fp_hi = e.fp_hi ^ (x >> 3)
        else:
            x = x * 6364136223846793005ULL + 1442695040888963407ULL
            f.key = x
            f.lo = e.lo - 100
            f.fp_hi = x
        tt_write(&a, &e)
        tt_write(&b, &f)
        for slot_ref in (0, 1):
            if not tt_read(&a if slot_ref == 0 else &b, &out):
                wrong += 1
            elif slot_ref == 0 and (out.key != e.key or out.lo != e.lo or out.hi != e.hi
                                    or out.move != e.move or out.fp_lo != e.fp_lo or out.fp_hi != e.fp_hi):
                wrong += 1
            elif slot_ref == 1 and (out.key != f.key or out.lo != f.lo or out.fp_lo != f.fp_lo):
                wrong += 1
        for m in range(1, 15):      # which words come from the second write (not none, not all)
            slot.lock = b.lock if m & 1 else a.lock
            slot.data = b.data if m & 2 else a.data
            slot.fp_lo = b.fp_lo if m & 4 else a.fp_lo
            slot.fp_hi = b.fp_hi if m & 8 else a.fp_hi
            if (slot.data != a.data or slot.fp_lo != a.fp_lo or slot.fp_hi != a.fp_hi
                    or slot.lock != a.lock) and (slot.data != b.data or slot.fp_lo != b.fp_lo
                                                 or slot.fp_hi != b.fp_hi or slot.lock != b.lock):
                if tt_read(&slot, &out) and (out.key == e.key or out.key == f.key):
                    accepted += 1
    return accepted, wrong
