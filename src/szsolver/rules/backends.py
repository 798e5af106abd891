"""The two implementations of the rules, by name: 'core' (Cython) and 'reference' (pure
Python). Both have the same Position API; the core needs the compiled extension.
:func:`as_position` takes a position of either (or a position string), :func:`to_core`
turns one into the core's (what the compiled searches work on)."""

NAMES = ("reference", "core")


def position_class(name: str):
    """The Position class of back end ``name``; the core must be built (ImportError if not)."""
    if name == "reference":
        from .reference import Position
        return Position
    if name == "core":
        from ._core import Position  # a missing build is an error, not a silent fallback
        return Position
    from ..errors import ParseError
    raise ParseError(f"unknown back end {name!r}: use core or reference")


def have_core() -> bool:
    """Whether the compiled core is built and importable."""
    try:
        from . import _core  # noqa: F401
    except ImportError:
        return False
    return True


# The back end that parsers use when none is given; tests switch it with use_default().
_default = None


def default_position_class():
    """The Position class parsers build when no back end is named: the fast core when
    it is built, else the pure-Python reference (or what :func:`use_default` chose)."""
    global _default
    if _default is None:
        _default = position_class("core" if have_core() else "reference")
    return _default


def use_default(cls) -> None:
    """Make ``cls`` (a Position class) the default back end; ``None`` restores the usual one."""
    global _default
    _default = cls


def as_position(position):
    """``position`` itself when it is a Position of either back end; a position string
    read with the default back end; anything else (a game, None, a number...) is a
    ParseError naming what was given, where an attribute error would come from deep
    inside otherwise."""
    from .reference import Position as Reference
    if isinstance(position, str):
        return default_position_class()(position)
    if isinstance(position, Reference):
        return position
    if have_core():
        from ._core import Position as Core
        if isinstance(position, Core):
            return position
    from ..errors import ParseError
    what = type(position).__name__
    hint = " (a game's position: game.final or game.positions()[i])" if what == "Game" else ""
    raise ParseError(f"a position is a Position or a position string, not {what}{hint}")


def to_core(position):
    """A core Position equal to ``position`` (either back end, or a position string;
    ParseError for anything else): always a new one, never ``position`` itself, so the
    caller may play on it. UnsupportedError when the core is not built."""
    position = as_position(position)
    if not have_core():
        from ..errors import UnsupportedError
        raise UnsupportedError("a core position needs the compiled extension: pip install . "
                               "(needs a C compiler)")
    from ._core import Position as Core
    if isinstance(position, Core):
        return position.copy()
    return Core(position.geometry, red=position.red, blue=position.blue,
                neutral=position.neutral, red_neutrals=position.red_neutrals,
                blue_neutrals=position.blue_neutrals, side=position.side,
                rule=position.rule, stones_per_side=position.stones_per_side)
