"""szsolver: analysis toolkit for Stars' Zone (星域) and Starmaps puzzles.

``Position`` is the fast Cython core when it is built, the pure-Python
reference otherwise (``szsolver.rules.reference.Position`` is always there).
"""
from . import errors
from .errors import (IllegalTurnError, InputError, InvalidPositionError, InvalidPuzzleError,
                     ParseError, UnknownPuzzleError, UnsupportedError)
from .rules import base as _base
from .rules.backends import default_position_class, have_core
from .rules.base import ADVANCED, BASIC, BLUE, NO_NEUTRAL, RED, encode_turn, turn_neutral, turn_stone
from .rules.geometry import STARS_ZONE, Geometry
from .rules.text import START, Turn, format_turn, parse_turn, position_string

Position = default_position_class()
HAVE_CORE = have_core()

from .formats.notation import parse_position  # noqa: E402  (formats sit above the rules)


def _draw_svg(pos) -> str:
    from .formats.svg import position_svg
    return position_svg(pos)


_base.set_svg_drawer(_draw_svg)   # positions show as pictures in notebooks

__version__ = "0.1.0"

__all__ = ["Position", "Turn", "Geometry", "STARS_ZONE", "RED", "BLUE", "BASIC", "ADVANCED",
           "NO_NEUTRAL", "encode_turn", "turn_stone", "turn_neutral", "START",
           "parse_position", "position_string", "parse_turn", "format_turn", "HAVE_CORE"]
