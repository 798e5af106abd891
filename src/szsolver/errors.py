"""The errors szsolver raises for bad input.

Every one is a :class:`ValueError` (so ``except ValueError`` keeps working) and
carries a one-line message naming the problem. The command line prints an
:class:`InputError` as ``Error: <message>`` with exit code 2; any other exception
is a bug in szsolver, never dressed up as bad input.

>>> import szsolver as sz
>>> issubclass(sz.IllegalTurnError, ValueError)
True
"""
from __future__ import annotations

__all__ = ["InputError", "ParseError", "WrongTypeError", "InvalidPositionError", "IllegalTurnError",
           "InvalidPuzzleError", "UnknownPuzzleError", "UnsupportedError", "MissingExtraError"]


class InputError(ValueError):
    """Bad input of any kind: the message is one line that names the problem."""


class ParseError(InputError):
    """Text that does not parse: a position string, a turn, a game record, JSON, a date."""


class WrongTypeError(ParseError, TypeError):
    """An argument of a type that cannot hold what it names (a turn that is neither text
    nor an int code, a game's turns given as one text): a ParseError like the text that
    does not parse, and a TypeError as Python has it."""


class InvalidPositionError(InputError):
    """A position that cannot arise in play (stone counts, neutrals, the centre)."""


class IllegalTurnError(InputError):
    """A turn that is not legal in its position (an occupied point, no neutrals left)."""


class InvalidPuzzleError(InputError):
    """A Starmaps puzzle or solution file that is malformed or inconsistent."""


class UnknownPuzzleError(InputError):
    """A puzzle ID that names no puzzle (mistyped, or a date or grade that does not exist)."""


class UnsupportedError(InputError):
    """A request outside what a tool was built and proven for (a board too large for the
    solver, a position too deep without a limit, a limit that is not a finite number)."""


class MissingExtraError(ImportError):
    """Not bad input: an optional extra of szsolver is not installed (the web app, Dask).
    The message names what to install (``pip install "szsolver[web]"``); the command line
    prints it as ``Error: ...`` with exit code 1, the system's failure, not the input's."""
