"""Patterns as text: the one home of every written form of a pattern.

A pattern is an int, bit ``d`` set when the stone (or star) has a beam in
direction ``d`` of its geometry. It is written in three forms:

- **letters** (:func:`pattern_name`), for people: on square-cell boards one letter
  per direction, U R D L (bits 0..3), ``.`` where there is no beam: ``U.D.`` is 5.
  Other boards join their direction names with ``+`` (``w+e``), and write a pattern
  without beams as ``blank`` (default ``-``);
- **direction names** (:func:`beam_names`): the list ``["up", "down"]``, for JSON;
- **numbers** (:func:`format_pattern` / :func:`parse_pattern`), for puzzle strings
  and puzzle pictures: one hex digit ``0``..``f`` up to 16 patterns, else two
  decimal digits ``00``..``63``. Puzzle strings are published: this form never changes.

>>> from szsolver.rules.geometry import STARS_ZONE, hex_starmap
>>> hx = hex_starmap()
>>> pattern_name(5), beam_names(5), format_pattern(STARS_ZONE, 5)
('U.D.', ['up', 'down'], '5')
>>> pattern_name(3, hx), pattern_name(0, hx), pattern_name(0, hx, blank="blank"), format_pattern(hx, 3)
('w+e', '-', 'blank', '03')
"""
from __future__ import annotations

import re

from ..errors import ParseError
from ..inputs import shown
from ..rules.geometry import STARS_ZONE, Geometry

__all__ = ["PATTERN_LETTERS", "pattern_name", "beam_names", "pattern_list", "pattern_digits",
           "format_pattern", "parse_pattern", "legend"]

PATTERN_LETTERS = "URDL"  # up, right, down, left: pattern bits 0..3 on square-cell boards


def beam_names(pattern: int, geometry: Geometry = STARS_ZONE) -> list[str]:
    """The names of the directions in which ``pattern`` has a beam, in bit order.

    >>> beam_names(0), beam_names(10)
    ([], ['right', 'left'])
    """
    return [name for d, name in enumerate(geometry.direction_names) if pattern >> d & 1]


def pattern_name(pattern: int, geometry: Geometry = STARS_ZONE, *, blank: str = "-") -> str:
    """A pattern for people: one letter per beam in bit order, ``.`` where there is none.

    On square-cell boards the letters are U R D L (bits 0..3), so ``U.D.`` (5) is a
    stone that sees own stones up and down only; ``....`` (0) sees none, ``URDL``
    (15) all four. Other boards join their direction names with ``+``, and write the
    pattern without beams as ``blank``. ValueError outside ``0..n_patterns-1``.

    >>> pattern_name(5), pattern_name(0), pattern_name(15), pattern_name(10)
    ('U.D.', '....', 'URDL', '.R.L')
    """
    if not 0 <= pattern < geometry.n_patterns:
        raise ValueError(f"pattern {pattern} is out of range 0..{geometry.n_patterns - 1}")
    if len(geometry.directions) == 4 and geometry.cell == "square":
        return "".join(PATTERN_LETTERS[d] if pattern >> d & 1 else "." for d in range(4))
    return "+".join(beam_names(pattern, geometry)) or blank


def pattern_list(pattern_set: int) -> list[int]:
    """The patterns in a pattern set (bit k = pattern k present), ascending.

    >>> pattern_list(0b100101)
    [0, 2, 5]
    """
    return [k for k in range(pattern_set.bit_length()) if pattern_set >> k & 1]


def pattern_digits(geometry: Geometry) -> int:
    """Characters a pattern number takes: 1 (hex digit) up to 16 patterns, else 2 (decimal)."""
    return 1 if geometry.n_patterns <= 16 else 2


def format_pattern(geometry: Geometry, pattern: int) -> str:
    """The pattern number as written in puzzle strings: ``f`` / ``07`` (see the module)."""
    return f"{pattern:x}" if pattern_digits(geometry) == 1 else f"{pattern:02d}"


def parse_pattern(geometry: Geometry, text) -> int:
    """Inverse of :func:`format_pattern` (case and surrounding spaces do not matter);
    ParseError for text that is not a pattern number of the board.

    >>> parse_pattern(STARS_ZONE, " F "), parse_pattern(STARS_ZONE, "5")
    (15, 5)
    """
    t = str(text).strip().lower()
    hex_digit = pattern_digits(geometry) == 1
    if not re.fullmatch(r"[0-9a-f]{1,2}" if hex_digit else r"[0-9]{1,3}", t, re.ASCII):
        raise ParseError(f"bad pattern {shown(str(text))}")
    pat = int(t, 16 if hex_digit else 10)
    if not 0 <= pat < geometry.n_patterns:
        raise ParseError(f"pattern {shown(str(text))} out of range for the {geometry.name} board")
    return pat


def legend(geometry: Geometry) -> str:
    """One line saying how a given's pattern number is written on this board.

    >>> legend(STARS_ZONE)
    'a given shows the sum of its beams (up 1, right 2, down 4, left 8), as one hex digit 0-f; 0 = no beam'
    """
    vals = ", ".join(f"{name} {1 << d}" for d, name in enumerate(geometry.direction_names))
    form = "one hex digit 0-f" if pattern_digits(geometry) == 1 else "two digits 00-63"
    return f"a given shows the sum of its beams ({vals}), as {form}; 0 = no beam"
