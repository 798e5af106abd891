"""Point sets as int bitmasks: bit ``p`` set means point ``p`` is in the set.

The one home of the small helpers every part of szsolver uses on such masks. A
mask is a non-negative int; helpers that walk its bits never see a negative one
(it has infinitely many bits) and say so in their contract.

>>> popcount(0b1011), bit_list(0b1011), lowest_bit(0b1000)
(3, [0, 1, 3], 3)
>>> list(iter_bit_values(0b1010)), mask_of([3, 1, 3])
([2, 8], 10)
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

__all__ = ["popcount", "iter_bits", "bit_list", "lowest_bit", "iter_bit_values", "mask_of"]


def popcount(mask: int) -> int:
    """How many points the set holds: the number of 1 bits.

    For a negative int this counts the bits of its absolute value (as ``bin(x).count("1")``
    does), but masks are never negative.

    >>> popcount(0), popcount(0xFF), popcount(1 << 100)
    (0, 8, 1)
    """
    return mask.bit_count()


def iter_bits(mask: int) -> Iterator[int]:
    """The set's points in ascending order, lazily (a generator, so ``next(iter_bits(m))``
    is the lowest point). ``mask`` must be non-negative.

    >>> list(iter_bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bit_list(mask: int) -> list[int]:
    """The set's points in ascending order, as a list (iterable many times).
    ``mask`` must be non-negative.

    >>> bit_list(0), bit_list(0b101)
    ([], [0, 2])
    """
    return list(iter_bits(mask))


def lowest_bit(mask: int) -> int:
    """The lowest point of a non-empty set; ValueError for the empty set.

    >>> lowest_bit(0b1100)
    2
    """
    if mask <= 0:
        raise ValueError(f"lowest_bit needs a non-empty mask, got {mask}")
    return (mask & -mask).bit_length() - 1


def iter_bit_values(mask: int) -> Iterator[int]:
    """The set's bits as isolated values ``1 << p``, ascending. ``mask`` must be non-negative.

    >>> list(iter_bit_values(0b10110))
    [2, 4, 16]
    """
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def mask_of(points: Iterable[int]) -> int:
    """The mask of a collection of points (a point listed twice counts once).

    >>> mask_of([]), mask_of((0, 2, 2))
    (0, 5)
    """
    m = 0
    for p in points:
        m |= 1 << p
    return m
