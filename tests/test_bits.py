"""Bit helpers (szsolver.rules.bits) against the obvious string and range forms."""
import random

import pytest

from szsolver.rules.bits import bit_list, iter_bit_values, iter_bits, lowest_bit, mask_of, popcount


def test_against_naive_forms():
    rng = random.Random("bits")
    for _ in range(500):
        m = rng.getrandbits(rng.choice([1, 8, 64, 200, 800]))
        naive = [i for i in range(m.bit_length()) if m >> i & 1]
        assert popcount(m) == bin(m).count("1") == len(naive)
        assert list(iter_bits(m)) == bit_list(m) == naive
        assert list(iter_bit_values(m)) == [1 << i for i in naive]
        assert mask_of(naive) == mask_of(naive + naive[:3]) == m
        if m:
            assert lowest_bit(m) == naive[0] == next(iter_bits(m))


def test_lowest_bit_of_nothing_is_an_error():
    with pytest.raises(ValueError):
        lowest_bit(0)
