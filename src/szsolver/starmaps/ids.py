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

Board codes, grades and the ``d`` of a daily seed are read in any case and printed
in lower case (:func:`canonical_id`: ``SZ-HARD-7`` is ``sz-hard-7``); any other seed
is case-sensitive (``x7`` and ``X7`` are two seeds). Numbers are ASCII digits of at
most :data:`szsolver.inputs.MAX_DIGITS` (:mod:`szsolver.inputs`). Spaces around an ID
are ignored; nothing else is corrected (an error message may suggest the ID that was
probably meant, but never serves it).

>>> check_id("sz-hard-7")[1:]
('hard', '7', 0)
>>> check_id("sz-hard-07")
Traceback (most recent call last):
...
szsolver.errors.UnknownPuzzleError: no puzzle sz-hard-07: numbers are written without leading zeros (sz-hard-7)
"""
from __future__ import annotations

import re

from ..errors import UnknownPuzzleError, UnsupportedError
from ..inputs import cut, date_of_digits, is_digits, name_key, number, shown
from ..rules.base import ADVANCED, BASIC, RULE_NAMES, rule_code
from ..rules.geometry import STARS_ZONE, Geometry, hex_starmap, square
from .logic import GRADES

__all__ = ["BOARD_CODES", "COLLECTION_PLAN", "WEEKDAY_GRADES", "DAILY_BOARD", "board_code",
           "board_from_code", "make_id", "parse_id_rule", "parse_id", "check_id",
           "collection_count", "SEED_RE", "canonical_id"]

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
_ID_RE = re.compile(r"(sz|sq[1-9][0-9]*|hex)(a?)-(easy|medium|hard|fiendish)-([A-Za-z0-9_.:-]+)",
                    re.ASCII)
_DAILY_RE = re.compile(r"[dD][0-9].*", re.ASCII)


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
    m = re.fullmatch(r"sq([0-9]{1,2})", code, re.ASCII)
    if m and 8 <= int(m.group(1)) <= 12:
        return square(int(m.group(1)))
    raise UnknownPuzzleError(f"unknown board code {shown(code)} in puzzle ID: use sz, sq8..sq12 "
                             "or hex")


def make_id(g: Geometry, grade: str, seed: str, rule: int = BASIC) -> str:
    """``sz-hard-17``; the advanced rule adds ``a`` to the board code: ``sza-hard-17``."""
    return f"{board_code(g)}{'a' if rule == ADVANCED else ''}-{grade}-{seed}"


def parse_id_rule(pid: str) -> tuple[Geometry, str, str, int]:
    """(board, grade, seed, rule) from an ID like ``sz-hard-17`` or ``sza-hard-17``: the
    form only (see :func:`check_id`). UnknownPuzzleError (a ValueError) if malformed."""
    text = _lower_names(str(pid).strip())
    m = _ID_RE.fullmatch(text)
    if not m:
        endgame = " (an eg-... ID is an endgame puzzle: `szsolver puzzle endgame show` " \
            "has them)" if text.startswith("eg-") else ""
        raise UnknownPuzzleError(f"bad puzzle ID {shown(str(pid).strip())}: expected "
                                 f"BOARD-GRADE-SEED like sz-easy-7{endgame}")
    return board_from_code(m.group(1)), m.group(3), m.group(4), ADVANCED if m.group(2) else BASIC


def parse_id(pid: str) -> tuple[Geometry, str, str]:
    """(board, grade, seed) from an ID like ``sz-hard-17``; UnknownPuzzleError (a
    ValueError) if malformed."""
    return parse_id_rule(pid)[:3]


def _lower_names(text: str) -> str:
    """``text`` with the board code, the grade and a daily seed's ``d`` in lower case
    (the names of an ID); any other seed as written."""
    parts = text.split("-", 2)
    if len(parts) != 3:
        return text
    seed = parts[2]
    if _DAILY_RE.fullmatch(seed):
        seed = "d" + seed[1:]
    return f"{name_key(parts[0])}-{name_key(parts[1])}-{seed}"


def canonical_id(pid: str) -> str:
    """The ID as printed: ``SZ-Hard-7`` and `` sz-hard-7`` are ``sz-hard-7``. The form
    only (UnknownPuzzleError when malformed); see :func:`check_id`.

    >>> canonical_id(" SZA-EASY-D20261123 ")
    'sza-easy-d20261123'
    """
    g, grade, seed, rule = parse_id_rule(pid)
    return make_id(g, grade, seed, rule)


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
    g, grade, seed, rule = parse_id_rule(pid)
    text = make_id(g, grade, seed, rule)
    code = text.split("-", 1)[0]
    if not seed[0].isalnum() or not seed[-1].isalnum():
        raise UnknownPuzzleError(f"no puzzle {cut(text)}: a seed begins and ends with a letter "
                                 "or digit")
    if is_digits(seed[0]) and not is_digits(seed):
        digits = re.match(r"[0-9]+", seed, re.ASCII).group()
        raise UnknownPuzzleError(f"no puzzle {cut(text)}: a seed that begins with a digit is a "
                                 f"number (did you mean {cut(text[:len(text) - len(seed)] + digits)}?)")
    if is_digits(seed):
        n = number(seed, "the puzzle ID's number", error=UnknownPuzzleError)
        count = collection_count(g, grade, rule)
        if count:
            wanted = f"{code}-{grade}-{n}"
            if seed != str(n):
                raise UnknownPuzzleError(f"no puzzle {cut(text)}: numbers are written without "
                                         f"leading zeros ({wanted})")
            if not 1 <= n <= count:
                held = (f"only {code}-{grade}-1" if count == 1
                        else f"{code}-{grade}-1 .. {code}-{grade}-{count}")
                raise UnknownPuzzleError(f"no puzzle {cut(text)}: the published collection has "
                                         f"{held}")
    elif _DAILY_RE.fullmatch(seed):
        _check_daily(text, g, grade, seed, rule)
    return g, grade, seed, rule


def _check_daily(text: str, g: Geometry, grade: str, seed: str, rule: int) -> None:
    """A ``d...`` seed names a daily puzzle: raise UnknownPuzzleError unless it does."""
    digits = seed[1:]
    if len(digits) != 8 or not is_digits(digits):
        raise UnknownPuzzleError(f"no puzzle {cut(text)}: a daily ID ends in d and a date, "
                                 "dYYYYMMDD")
    try:
        date = date_of_digits(digits)
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
