"""The two implementations of the rules, by name: 'core' (Cython) and 'reference' (pure
Python). Both have the same Position API; the core needs the compiled extension."""

NAMES = ("reference", "core")


def position_class(name: str):
    """The Position class of back end ``name``; the core must be built (ImportError if not)."""
    if name == "reference":
        from .reference import Position
        return Position
    if name == "core":
        from ._core import Position  # a missing build is an error, not a silent fallback
        return Position
    raise ValueError(f"unknown back end {name!r}: use core or reference")


def have_core() -> bool:
    """Whether the compiled core is built and importable."""
    try:
        from . import _core  # noqa: F401
    except ImportError:
        return False
    return True


def default_position_class():
    """The fast core when it is built, else the pure-Python reference."""
    return position_class("core" if have_core() else "reference")
