"""Puzzle IDs: how they are written, and which ones name a puzzle.

An ID is ``BOARD-GRADE-SEED``: board code ``sz`` (Stars' Zone), ``sq8`` .. ``sq12``
(N x N) or ``hex``, with ``a`` after it for the advanced rule (``sza``); grade
``easy``, ``medium``, ``hard`` or ``fiendish``; the seed the generator was given.

:func:`parse_id_rule` reads the form only. :func:`check_id` also decides whether the
ID names a puzzle, so that a mistyped ID is an error and never a different puzzle:

- **The published collection** owns the numbers: for a board, rule and grade it
  holds (:data:`COLLECTION_PLAN`), seeds ``1`` .. count name its puzzles
  (``sz-hard-1`` .. ``sz-hard-24``); ``0``, a number past the collection and a
  number with leading zeros (``sz-hard-07``) name nothing. Where there is no
  published collection (``sq9``, ``sq8a``, ...) a number is an ordinary seed.
- **Daily puzzles** own ``d`` + digits: ``dYYYYMMDD`` names the puzzle of a date
  that exists, on the Stars' Zone board under the basic rule, with the grade of
  that weekday (:data:`WEEKDAY_GRADES`: easy Monday and Tuesday, medium Wednesday
  and Thursday, hard Friday and Saturday, fiendish Sunday).
- **Any other seed** (letters, digits and ``_.:-``, beginning with a letter and
  ending with a letter or digit) names the puzzle the generator makes from it:
  ``sz-hard-x7``. A seed that begins with a digit is a number (``7.1`` and ``7_``
  are refused: typos of ``7``), one that begins with ``d`` and a digit a date.

Board codes and grades are lower case, as printed; seeds are case-sensitive.
Spaces around an ID are ignored; nothing else is corrected (an error message may
suggest the ID that was probably meant, but never serves it).

>>> check_id("sz-hard-7")[1:]
('hard', '7', 0)
>>> check_id("sz-hard-07")
Traceback (most recent call last):
...
szsolver.errors.UnknownPuzzleError: no puzzle sz-hard-07: numbers are written without leading zeros (sz-hard-7)
"""
from __future__ import annotations

import datetime as _dt
import re

from ..errors import UnknownPuzzleError, UnsupportedError
from ..rules.base import ADVANCED, BASIC, RULE_NAMES, rule_code
from ..rules.geometry import STARS_ZONE, Geometry, hex_starmap, square
from .logic import GRADES

__all__ = ["BOARD_CODES", "COLLECTION_PLAN", "WEEKDAY_GRADES", "DAILY_BOARD", "board_code",
           "board_from_code", "make_id", "parse_id_rule", "parse_id", "check_id",
           "collection_count", "SEED_RE"]

BOARD_CODES = {"sz": "stars-zone", "hex": "hex-768"}

# (board, grade, count, rule) of the published collection; its seeds are 1..count
COLLECTION_PLAN = (
    [("stars-zone", gr, 24, "basic") for gr in GRADES]
    + [("stars-zone", gr, 3, "advanced") for gr in GRADES]
    + [("square-8", gr, 2, "basic") for gr in GRADES]
    + [("hex", gr, 1, "basic") for gr in ("easy", "medium", "hard")]
)

# The daily puzzle: Monday .. Sunday
WEEKDAY_GRADES = ("easy", "easy", "medium", "medium", "hard", "hard", "fiendish")
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DAILY_BOARD = STARS_ZONE

# What the generator accepts as a seed (any text of these characters)
SEED_RE = re.compile(r"[A-Za-z0-9_.:-]+")
_ID_RE = re.compile(r"(sz|sq[1-9]\d*|hex)(a?)-(easy|medium|hard|fiendish)-([A-Za-z0-9_.:-]+)")
_DAILY_RE = re.compile(r"[dD]\d.*")


def board_code(g: Geometry) -> str:
    """The ID code of a board: ``sz``, ``sq8`` or ``hex``; UnsupportedError for others."""
    if g.name == "stars-zone":
        return "sz"
    if g.name == "hex-768":
        return "hex"
    m = re.fullmatch(r"square-(\d+)", g.name)
    if m:
        return f"sq{m.group(1)}"
    raise UnsupportedError(f"no puzzle ID code for board {g.name}")


def board_from_code(code: str) -> Geometry:
    """The board of an ID code; UnknownPuzzleError for a code that names none."""
    if code == "sz":
        return STARS_ZONE
    if code == "hex":
        return hex_starmap()
    m = re.fullmatch(r"sq(\d+)", code)
    if m and 8 <= int(m.group(1)) <= 12:
        return square(int(m.group(1)))
    raise UnknownPuzzleError(f"unknown board code {code!r} in puzzle ID: use sz, sq8..sq12 or hex")


def make_id(g: Geometry, grade: str, seed: str, rule: int = BASIC) -> str:
    """``sz-hard-17``; the advanced rule adds ``a`` to the board code: ``sza-hard-17``."""
    return f"{board_code(g)}{'a' if rule == ADVANCED else ''}-{grade}-{seed}"


def parse_id_rule(pid: str) -> tuple[Geometry, str, str, int]:
    """(board, grade, seed, rule) from an ID like ``sz-hard-17`` or ``sza-hard-17``: the
    form only (see :func:`check_id`). UnknownPuzzleError (a ValueError) if malformed."""
    text = str(pid).strip()
    m = _ID_RE.fullmatch(text)
    if not m:
        raise UnknownPuzzleError(f"bad puzzle ID {text!r}: expected BOARD-GRADE-SEED like sz-easy-7"
                                 + _case_hint(text))
    return board_from_code(m.group(1)), m.group(3), m.group(4), ADVANCED if m.group(2) else BASIC


def parse_id(pid: str) -> tuple[Geometry, str, str]:
    """(board, grade, seed) from an ID like ``sz-hard-17``; UnknownPuzzleError (a
    ValueError) if malformed."""
    return parse_id_rule(pid)[:3]


def _case_hint(text: str) -> str:
    """' (IDs are lower case: sz-hard-7)' when lower-casing the board and grade would
    make ``text`` well-formed, else ''."""
    parts = text.split("-", 2)
    if len(parts) == 3:
        fixed = f"{parts[0].lower()}-{parts[1].lower()}-{parts[2]}"
        if fixed != text and _ID_RE.fullmatch(fixed):
            return f" (board and grade are lower case: {fixed})"
    return ""


def collection_count(g: Geometry, grade: str, rule) -> int:
    """How many puzzles the published collection holds for this board, grade and rule
    (their seeds are 1..count); 0 when it holds none."""
    return _PLAN_COUNTS.get((g.name, grade, rule_code(rule)), 0)


def _plan_counts() -> dict:
    names = {"stars-zone": "stars-zone", "square-8": "square-8", "hex": "hex-768"}
    return {(names[b], gr, rule_code(r)): n for b, gr, n, r in COLLECTION_PLAN}


_PLAN_COUNTS = _plan_counts()


def check_id(pid: str) -> tuple[Geometry, str, str, int]:
    """(board, grade, seed, rule) of an ID that names a puzzle (see the module); an
    UnknownPuzzleError (a ValueError) with a one-line message naming what is wrong
    otherwise. Generates nothing: whether the puzzle is stored or built from its seed
    is :func:`szsolver.starmaps.generate.puzzle_from_id`'s business."""
    text = str(pid).strip()
    g, grade, seed, rule = parse_id_rule(text)
    code = text.split("-", 1)[0]
    if not seed[0].isalnum() or not seed[-1].isalnum():
        raise UnknownPuzzleError(f"no puzzle {text}: a seed begins and ends with a letter or digit")
    if seed[0].isdigit() and not seed.isdigit():
        number = re.match(r"\d+", seed).group()
        raise UnknownPuzzleError(f"no puzzle {text}: a seed that begins with a digit is a "
                                 f"number (did you mean {text[:len(text) - len(seed)]}{number}?)")
    if seed.isdigit():
        count = collection_count(g, grade, rule)
        if count:
            wanted = f"{code}-{grade}-{int(seed)}"
            if seed != str(int(seed)):
                raise UnknownPuzzleError(f"no puzzle {text}: numbers are written without leading "
                                         f"zeros ({wanted})")
            if not 1 <= int(seed) <= count:
                held = (f"only {code}-{grade}-1" if count == 1
                        else f"{code}-{grade}-1 .. {code}-{grade}-{count}")
                raise UnknownPuzzleError(f"no puzzle {text}: the published collection has {held}")
    elif _DAILY_RE.fullmatch(seed):
        _check_daily(text, g, grade, seed, rule)
    return g, grade, seed, rule


def _check_daily(text: str, g: Geometry, grade: str, seed: str, rule: int) -> None:
    """A ``d...`` seed names a daily puzzle: raise UnknownPuzzleError unless it does."""
    if seed[0] != "d":
        raise UnknownPuzzleError(f"no puzzle {text}: a daily ID has a lower-case d "
                                 f"({text.rsplit('-', 1)[0]}-d{seed[1:]})")
    digits = seed[1:]
    if len(digits) != 8 or not digits.isdigit():
        raise UnknownPuzzleError(f"no puzzle {text}: a daily ID ends in d and a date, dYYYYMMDD")
    try:
        date = _dt.date(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
    except ValueError:
        raise UnknownPuzzleError(f"no puzzle {text}: {digits[:4]}-{digits[4:6]}-{digits[6:]} "
                                 "is not a date") from None
    want = WEEKDAY_GRADES[date.weekday()]
    daily = make_id(DAILY_BOARD, want, seed)
    if g.name != DAILY_BOARD.name or rule != BASIC:
        raise UnknownPuzzleError(f"no puzzle {text}: daily puzzles are on the Stars' Zone board "
                                 f"under the {RULE_NAMES[BASIC]} rule ({daily})")
    if grade != want:
        raise UnknownPuzzleError(f"no puzzle {text}: the puzzle of {date.isoformat()} (a "
                                 f"{DAY_NAMES[date.weekday()]}) is {want}: {daily}")
