"""The daily puzzle: the same Stars' Zone puzzle for the same date on every machine.

The grade follows the day of the week (easy early in the week, harder at the
weekend); the seed is ``d`` + the date's digits, so the puzzle ID is an ordinary
generator ID (``sz-easy-d20261123``) that ``szsolver puzzle show ID`` rebuilds.
Generation is seeded through ``hashlib`` only (see :mod:`szsolver.starmaps.generate`).

>>> daily_id("2026-11-23")   # a Monday
'sz-easy-d20261123'
>>> [grade_for(f"2026-11-{d}") for d in range(23, 30)]
['easy', 'easy', 'medium', 'medium', 'hard', 'hard', 'fiendish']
"""
from __future__ import annotations

import datetime as _dt

from ..inputs import iso_date
from .generate import Generated, generate
from .ids import DAILY_BOARD, WEEKDAY_GRADES, make_id  # the schedule's one home: ids

__all__ = ["WEEKDAY_GRADES", "DAILY_BOARD", "parse_date", "grade_for", "daily_seed", "daily_id",
           "daily"]


def parse_date(text=None) -> _dt.date:
    """A date from 'YYYY-MM-DD' (or a date); None means today in UTC. ParseError (a
    ValueError) for anything else."""
    if text is None:
        return _dt.datetime.now(_dt.timezone.utc).date()
    if isinstance(text, _dt.date):
        return text
    return iso_date(str(text))


def grade_for(date=None) -> str:
    return WEEKDAY_GRADES[parse_date(date).weekday()]


def daily_seed(date=None) -> str:
    """``d`` + the date's eight digits (``d00010101``: strftime's ``%Y`` drops the zeros
    of a year before 1000 on some systems, an ID that names no date)."""
    return "d" + parse_date(date).isoformat().replace("-", "")


def daily_id(date=None) -> str:
    d = parse_date(date)
    return make_id(DAILY_BOARD, grade_for(d), daily_seed(d))


def daily(date=None, progress=None) -> Generated:
    """The puzzle of the day (default: today, UTC)."""
    d = parse_date(date)
    return generate(DAILY_BOARD, grade_for(d), daily_seed(d), progress=progress)
