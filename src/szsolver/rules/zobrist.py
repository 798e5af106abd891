"""Zobrist keys shared by both back ends, so a position hashes the same everywhere.

Keys come from splitmix64 seeded by SHA-256 of a fixed label: stable on every
machine and Python version (never ``hash()``).
"""
import hashlib

MASK64 = (1 << 64) - 1
MAX_POINTS = 64
MAX_NEUTRALS = 16  # neutrals-left counts 0..15 get their own keys


def splitmix64(state: int) -> tuple[int, int]:
    """One splitmix64 step: (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def _keys(count: int, label: bytes) -> list[int]:
    state = int.from_bytes(hashlib.sha256(label).digest()[:8], "little")
    out = []
    for _ in range(count):
        state, z = splitmix64(state)
        out.append(z)
    return out


# STONE_KEYS[kind * 64 + point], kind 0 red, 1 blue, 2 neutral
STONE_KEYS: tuple[int, ...] = tuple(_keys(3 * MAX_POINTS, b"szsolver zobrist stones v1"))
# NEUTRALS_LEFT_KEYS[side * 16 + count]
NEUTRALS_LEFT_KEYS: tuple[int, ...] = tuple(_keys(2 * MAX_NEUTRALS, b"szsolver zobrist neutrals v1"))
SIDE_KEY: int = _keys(1, b"szsolver zobrist side v1")[0]
RULE_KEY: int = _keys(1, b"szsolver zobrist rule v1")[0]
