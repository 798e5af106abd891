"""szsolver: analysis toolkit for Stars' Zone (星域) and Starmaps puzzles.

``Position`` is the fast Cython core when it is built, the pure-Python
reference otherwise (``szsolver.rules.reference.Position`` is always there).
"""
from . import errors
from .errors import (IllegalTurnError, InputError, InvalidPositionError, InvalidPuzzleError,
                     ParseError, UnknownPuzzleError, UnsupportedError)
from .rules.geometry import STARS_ZONE, Geometry
from .rules.reference import (ADVANCED, BASIC, BLUE, NO_NEUTRAL, RED, encode_turn, turn_neutral,
                        turn_stone)

try:
    from .rules._core import Position
    HAVE_CORE = True
except ImportError:  # not built: fall back to the reference rules
    from .rules.reference import Position
    HAVE_CORE = False

from .formats.notation import START, format_turn, parse_position, parse_turn, position_string

__version__ = "0.1.0"

__all__ = ["Position", "Geometry", "STARS_ZONE", "RED", "BLUE", "BASIC", "ADVANCED",
           "NO_NEUTRAL", "encode_turn", "turn_stone", "turn_neutral", "START",
           "parse_position", "position_string", "parse_turn", "format_turn", "HAVE_CORE"]
