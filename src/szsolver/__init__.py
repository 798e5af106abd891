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
import _signal
import sys as _sys


def _started_as_the_program() -> bool:
    """Is this the ``szsolver`` program starting (its console script's wrapper, or
    ``python3 -m szsolver`` locating its ``__main__``), not a library's import? The
    package's own imports come before :mod:`szsolver._entry` can take Ctrl-C."""
    if _sys.argv[:1] == ["-m"]:                     # set so while -m locates the module
        argv = getattr(_sys, "orig_argv", [])
        return "-m" in argv and argv[argv.index("-m") + 1:][:1] == ["szsolver"]
    frame = _sys._getframe(2)      # past this function and the module body: the importer
    while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
        frame = frame.f_back
    return (frame is not None and frame.f_globals.get("__name__") == "__main__"
            and frame.f_code.co_filename.replace("\\", "/").rsplit("/", 1)[-1]
            in ("szsolver", "szsolver-script.py"))


#: Ctrl-C pressed while the ``szsolver`` program starts, before its entry
#: (:mod:`szsolver._entry`) runs: the flag that entry acts on, as on its own (a
#: flag-only handler: no import, microseconds). Empty, and unused, for a library's import.
early_sigint: list = []
if _signal.getsignal(_signal.SIGINT) != _signal.SIG_IGN and _started_as_the_program():
    _signal.signal(_signal.SIGINT, lambda signum, frame: early_sigint.append(signum))

# the package, after the handler above (its imports take most of a tenth of a second)
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
