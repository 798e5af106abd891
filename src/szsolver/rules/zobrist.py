"""Zobrist keys shared by both back ends, so a position hashes the same everywhere.

Keys come from splitmix64 seeded by SHA-256 of a fixed label
(:func:`szsolver.rules.seeds.zobrist_keys_v1`): stable on every machine and Python
version (never ``hash()``).
"""
from .seeds import MASK64, splitmix64, zobrist_keys_v1  # noqa: F401  (MASK64, splitmix64: old home)

MAX_POINTS = 64
MAX_NEUTRALS = 16  # neutrals-left counts 0..15 get their own keys


# STONE_KEYS[kind * 64 + point], kind 0 red, 1 blue, 2 neutral
STONE_KEYS: tuple[int, ...] = tuple(zobrist_keys_v1(3 * MAX_POINTS, b"szsolver zobrist stones v1"))
# NEUTRALS_LEFT_KEYS[side * 16 + count]
NEUTRALS_LEFT_KEYS: tuple[int, ...] = tuple(zobrist_keys_v1(2 * MAX_NEUTRALS, b"szsolver zobrist neutrals v1"))
SIDE_KEY: int = zobrist_keys_v1(1, b"szsolver zobrist side v1")[0]
RULE_KEY: int = zobrist_keys_v1(1, b"szsolver zobrist rule v1")[0]
