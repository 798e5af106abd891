"""szsolver: analysis toolkit for Stars' Zone (星域) and Starmaps puzzles.

The front door::

    import szsolver as sz
    pos = sz.Position(sz.START)          # a position string; str(pos) gives it back
    pos.play("44n66")                    # IllegalTurnError (a ValueError) naming why, if illegal
    [str(t) for t in pos.legal_turns()]  # Turns: int codes that print as turn text
    sz.solve(pos, time_limit=10)         # exact endgame values (needs the compiled extension)
    sz.Game.load("game.szg")             # .positions(), .turns, .final; sz.Game.example()

``Position`` is the fast Cython core when it is built, the pure-Python reference
otherwise (``szsolver.rules.reference.Position`` is always there; ``HAVE_CORE`` says
which). Bad input raises the exceptions of :mod:`szsolver.errors`.
"""
from . import errors
from .errors import (IllegalTurnError, InputError, InvalidPositionError, InvalidPuzzleError,
                     ParseError, UnknownPuzzleError, UnsupportedError, WrongTypeError)
from .rules import base as _base
from .rules.backends import have_core, position_class
from .rules.base import (ADVANCED, BASIC, BLUE, NO_NEUTRAL, RED, encode_turn, turn_neutral,
                         turn_stone)
from .rules.geometry import STARS_ZONE, Geometry, by_name
from .rules.text import START, Turn, format_turn, parse_turn, position_string

HAVE_CORE = have_core()
Position = position_class("core" if HAVE_CORE else "reference")

# The formats and the solver sit above the rules: imported after Position is set.
from .api import Game, solve  # noqa: E402
from .formats.notation import parse_position  # noqa: E402


def _draw_svg(pos) -> str:
    from .formats.svg import position_svg
    return position_svg(pos)


_base.set_svg_drawer(_draw_svg)   # positions show as pictures in notebooks (_repr_svg_)

__version__ = "0.1.0"

__all__ = ["Position", "Turn", "Game", "solve", "Geometry", "STARS_ZONE", "by_name", "RED",
           "BLUE", "BASIC", "ADVANCED", "NO_NEUTRAL", "encode_turn", "turn_stone",
           "turn_neutral", "START", "parse_position", "position_string", "parse_turn",
           "format_turn", "HAVE_CORE", "errors", "InputError", "ParseError",
           "InvalidPositionError", "IllegalTurnError", "InvalidPuzzleError",
           "UnknownPuzzleError", "UnsupportedError", "WrongTypeError"]
