"""Seeded random play, for tests, benchmarks and sample positions.

Randomness is ``random.Random`` seeded through SHA-256 (:func:`seeded_rng`, the
recipe :func:`szsolver.rules.seeds.playout_rng_v1`), so a seed gives the same game
on every machine and Python version.

>>> from szsolver.rules.reference import Position
>>> p = Position()
>>> random_play(p, 6, seeded_rng("doc"))
>>> p.ply
6
"""
from __future__ import annotations

import random

from .base import NO_NEUTRAL, encode_turn
from .seeds import playout_rng_v1

# A Random seeded by SHA-256 of ``repr(parts)`` (never ``hash()``).
seeded_rng = playout_rng_v1


def random_turn(pos, rng: random.Random, p_neutral: float = 0.35) -> int:
    """A uniformly random own stone on an empty point; with probability
    ``p_neutral`` (if the side has any left) also a neutral on another empty point."""
    empties = [q for q in range(pos.geometry.size) if pos.empty >> q & 1]
    stone = rng.choice(empties)
    neutral = NO_NEUTRAL
    if pos.neutrals_left(pos.side) and rng.random() < p_neutral:
        neutral = rng.choice([q for q in empties if q != stone])
    return encode_turn(stone, neutral)


def random_play(pos, plies: int, rng: random.Random, p_neutral: float = 0.35) -> None:
    """Play ``plies`` random legal turns on ``pos`` (in place), stopping at the end."""
    for _ in range(plies):
        if pos.is_over():
            return
        pos.play(random_turn(pos, rng, p_neutral))
