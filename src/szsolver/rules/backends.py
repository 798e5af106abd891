"""The two implementations of the rules, by name: 'core' (Cython) and 'reference' (pure Python)."""

NAMES = ("reference", "core")


def position_class(name: str):
    """The Position class of back end ``name``; the core must be built."""
    if name == "reference":
        from .reference import Position
        return Position
    if name == "core":
        from ._core import Position  # a missing build is an error, not a silent fallback
        return Position
    raise ValueError(f"unknown back end {name!r}: use core or reference")
