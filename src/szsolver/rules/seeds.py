"""Every seed szsolver derives, in one place: named, versioned, each with its exact recipe.

Seeds come from SHA-256 (never ``hash()``, which changes from run to run), so the
same inputs give the same numbers on every machine and Python version. Published
puzzle IDs, hex starmaps and the Zobrist keys are pure functions of these recipes:
**a recipe never changes**. A new recipe gets a new name (``_v2``) and the old one
stays for the values already out there. ``tests/test_seeds.py`` pins them all.

All four recipes keep the first 8 bytes of a SHA-256 digest; they differ in what is
hashed and in the byte order:

================  ==================================  ======  ==========================
function          bytes hashed                        order   then
================  ==================================  ======  ==========================
zobrist_seed_v1   the label (bytes)                   little  splitmix64 state
playout_seed_v1   ``repr(parts)`` (UTF-8)             big     ``random.Random(seed)``
starmap_seed_v1   ``"|".join(map(str, parts))``       little  0 becomes 1
puzzle_seed_v1    ``"\\x1f".join(map(str, parts))``    big     :class:`SplitMix64`
================  ==================================  ======  ==========================

Parts are passed on exactly as given (``*parts``): wrapping them in a tuple first
would hash ``((...),)`` and change every value. ``repr`` makes types count
(``playout_seed_v1(1) != playout_seed_v1("1")``); ``str`` does not.

>>> puzzle_seed_v1("szsolver", 1)
9668509843236717645
>>> starmap_seed_v1("sat", 0) % 2 ** 31
1750561714
>>> playout_rng_v1("doc").random()
0.43138475870828175
>>> zobrist_keys_v1(1, b"szsolver zobrist side v1")
[10142693884466805563]
"""
from __future__ import annotations

import hashlib
import random

__all__ = ["MASK64", "splitmix64", "SplitMix64", "zobrist_seed_v1", "zobrist_keys_v1",
           "playout_seed_v1", "playout_rng_v1", "starmap_seed_v1", "puzzle_seed_v1",
           "puzzle_rng_v1", "STARMAP_SAT_SEED"]

MASK64 = (1 << 64) - 1

# CP-SAT's random_seed for starmap solves: the rulebook's example game date; any fixed
# value will do, but it decides which solution comes first.
STARMAP_SAT_SEED = 20230717


def splitmix64(state: int) -> tuple[int, int]:
    """One splitmix64 step: ``(new state, output)``. The state advances by the golden
    gamma first, so the first output of state ``s`` is ``mix(s + gamma)``.

    >>> splitmix64(0)
    (11400714819323198485, 16294208416658607535)
    """
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


class SplitMix64:
    """A small self-contained PRNG (splitmix64), so puzzle generation never depends on
    the internals of :mod:`random` across Python versions. Every method's exact
    sequence of draws is part of the puzzle-ID contract.

    >>> r = SplitMix64(12345)
    >>> [r.below(100) for _ in range(3)]
    [44, 97, 5]
    """

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state, z = splitmix64(self.state)
        return z

    def below(self, n: int) -> int:
        """Uniform in 0..n-1 (rejection sampling: draws again above the largest
        multiple of n); ValueError unless n > 0."""
        if n <= 0:
            raise ValueError("below(n) needs n > 0")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """Uniform in [0, 1): the top 53 bits of one output."""
        return (self.next64() >> 11) / float(1 << 53)

    def shuffle(self, items: list) -> None:
        """Shuffle in place (Fisher-Yates from the last item down)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items, k: int) -> list:
        """``k`` distinct items (a partial Fisher-Yates from the front, on a copy)."""
        pool = list(items)
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


def _digest8(data: bytes, order: str) -> int:
    return int.from_bytes(hashlib.sha256(data).digest()[:8], order)


def zobrist_seed_v1(label: bytes) -> int:
    """``int.from_bytes(sha256(label)[:8], "little")``: the splitmix64 state the keys of
    ``label`` start from.

    >>> zobrist_seed_v1(b"szsolver zobrist side v1")
    8988533897851560003
    """
    return _digest8(label, "little")


def zobrist_keys_v1(count: int, label: bytes) -> list[int]:
    """The first ``count`` splitmix64 outputs from :func:`zobrist_seed_v1` of ``label``."""
    state = zobrist_seed_v1(label)
    out = []
    for _ in range(count):
        state, z = splitmix64(state)
        out.append(z)
    return out


def playout_seed_v1(*parts) -> int:
    """``int.from_bytes(sha256(repr(parts).encode())[:8], "big")``, ``parts`` the tuple of
    arguments (so one part hashes as ``"('doc',)"``).

    >>> playout_seed_v1("doc"), playout_seed_v1("solver-test", 1, 0, (5, 5))
    (16239341357700067691, 17861977377424451907)
    """
    return _digest8(repr(parts).encode(), "big")


def playout_rng_v1(*parts) -> random.Random:
    """``random.Random(playout_seed_v1(*parts))``: for random play, tests and benchmarks
    (its draws follow :mod:`random`'s algorithms)."""
    return random.Random(playout_seed_v1(*parts))


def starmap_seed_v1(*parts) -> int:
    """``int.from_bytes(sha256("|".join(str(p) for p in parts).encode())[:8], "little")``,
    with 0 mapped to 1 (0 means "the default seed" to the C starmap search).

    >>> starmap_seed_v1("starmap", "hex-768", "basic", 0, 0, 0, 0)
    4790060299607979085
    """
    return _digest8("|".join(str(p) for p in parts).encode(), "little") or 1


def puzzle_seed_v1(*parts) -> int:
    """``int.from_bytes(sha256("\\x1f".join(str(p) for p in parts).encode("utf-8"))[:8], "big")``:
    the seed of puzzle generation (see :func:`puzzle_rng_v1`).

    >>> puzzle_seed_v1("a", "b")
    17315457580335015581
    """
    return _digest8("\x1f".join(str(p) for p in parts).encode("utf-8"), "big")


def puzzle_rng_v1(*parts) -> SplitMix64:
    """``SplitMix64(puzzle_seed_v1(*parts))``."""
    return SplitMix64(puzzle_seed_v1(*parts))
