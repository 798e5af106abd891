"""The one input policy for numbers and names read from text: command lines, files,
game records, position strings and web requests all go through these helpers.

**Numbers** are ASCII digits ``0``-``9`` only: no sign (a leading ``-`` only where a
negative number means something), no ``0x``, no ``_``, no digits of other scripts
(Python's ``int()`` and ``str.isdigit()`` take ``٥`` and ``５``: they are never used
on text a user gave). A number of more than :data:`MAX_DIGITS` digits, or past the
field's own range, is refused as too large before it is converted, so no input
reaches ``int()``'s own limit of 4,300 digits.

**Names** (rules, boards, grades, puzzle IDs, game prefixes) are ASCII and read in
any case; what is printed back is the canonical lower-case form.

**Whitespace** is any Unicode whitespace (a no-break or an ideographic space as much as
a space or a tab): it separates the parts of a position string or a record and is
ignored around a value, never inside one (``44 n66`` is not a turn). An invisible
character that is no whitespace (a zero-width space, a soft hyphen) is part of the text:
a message that refuses such text names it, since its quoted form alone hides it.

Every message names the field and the text, cut to :data:`SHOWN` characters (a file
name to :data:`SHOWN_PATH`).

>>> number("17", "cell")
17
>>> number("٥", "red neutrals left")
Traceback (most recent call last):
...
szsolver.errors.ParseError: red neutrals left must be a number (digits 0-9), got '٥'
>>> number("-1", "red neutrals left", lo=0, hi=7)
Traceback (most recent call last):
...
szsolver.errors.ParseError: red neutrals left must be 0..7, got '-1'
>>> number("9" * 5000, "red neutrals left", hi=7)
Traceback (most recent call last):
...
szsolver.errors.ParseError: red neutrals left is too large: at most 7, got '9999999999999999999999999999999999999999...' (5000 characters)
>>> name_key(" BASIC "), choice("Hard", ("easy", "medium", "hard"), "grade")
('basic', 'hard')
>>> iso_date("2026-11-23")
datetime.date(2026, 11, 23)
"""
from __future__ import annotations

import datetime as _dt
import re
import unicodedata

from .errors import ParseError

__all__ = ["MAX_DIGITS", "SHOWN", "SHOWN_PATH", "is_digits", "shown", "invisible",
           "one_word", "cut", "number", "json_int", "is_decimal", "name_key", "choice",
           "iso_date", "date_of_digits"]

#: the most digits a number may have (a C ``long long`` holds every 18-digit number)
MAX_DIGITS = 18
#: the most characters of a user's text a message shows
SHOWN = 40
#: the most characters of a file name (or address) a message shows: a path as people
#: write it is shown whole, a name of thousands of characters is cut
SHOWN_PATH = 120

_DIGITS = re.compile(r"[0-9]+", re.ASCII)
_SIGNED = re.compile(r"-?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?", re.ASCII)
_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", re.ASCII)


def is_digits(text) -> bool:
    """True when ``text`` is one or more ASCII digits and nothing else (``str.isdigit``
    would also take ``٥``, ``５`` and ``²``)."""
    return isinstance(text, str) and _DIGITS.fullmatch(text) is not None


def _json_spelling(value) -> str:
    """A value as JSON spells it (true, null, [1, "a"]) where it is JSON's, since the web's
    values come from JSON; else its ``repr``."""
    if isinstance(value, (bool, type(None), list, dict)):
        import json
        try:
            return json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            pass
    return repr(value)


def shown(value, width: int = SHOWN) -> str:
    """A value as a one-line message quotes it: ``repr``, but true, false, null and
    lists as JSON spells them (:func:`_json_spelling`); text longer than ``width``
    characters is cut, with ``...`` and its length.

    >>> shown("x" * 100, 5)
    "'xxxxx...' (100 characters)"
    >>> shown(True), shown(None), shown(0.5), shown([False, "44"])
    ('true', 'null', '0.5', '[false, "44"]')
    >>> print(shown("44\\u200b"))
    '44\\u200b' (with an invisible U+200B ZERO WIDTH SPACE)
    """
    if not isinstance(value, str):
        r = _json_spelling(value)
        return r if len(r) <= width else f"{r[:width]}... ({len(r)} characters)"
    hidden = invisible(value[:width])
    note = f" (with an invisible {hidden})" if hidden else ""
    if len(value) <= width:
        return repr(value) + note
    return f"{value[:width] + '...'!r} ({len(value)} characters){note}"


def invisible(text: str) -> str | None:
    """The first invisible character in ``text`` that is no whitespace (Unicode's format
    characters: a zero-width space, a word joiner, a soft hyphen...), by its code and
    name; None when there is none.

    >>> invisible("4\\u200b4"), invisible("44 n66")
    ('U+200B ZERO WIDTH SPACE', None)
    """
    ch = next((ch for ch in text if unicodedata.category(ch) == "Cf"), None)
    return None if ch is None else f"U+{ord(ch):04X} {unicodedata.name(ch, 'character')}"


def one_word(text: str, what: str, fix: str, reads) -> None:
    """ParseError ``WHAT has no space inside`` when ``text`` holds whitespace (a value is
    one word, by the policy above), with ``(write FIX)`` only where ``reads(fix)``
    accepts it: the advice is never another value ('2 3' is the cells 2,3, not 23).

    >>> one_word("44 n66", "bad turn '44 n66': a turn", "44n66", str)
    Traceback (most recent call last):
    ...
    szsolver.errors.ParseError: bad turn '44 n66': a turn has no space inside (write 44n66)
    """
    if not any(ch.isspace() for ch in text):
        return
    try:
        reads(fix)
    except ParseError:
        raise ParseError(f"{what} has no space inside") from None
    raise ParseError(f"{what} has no space inside (write {fix})")


def cut(text: str, width: int = SHOWN) -> str:
    """``text`` as it is, or its first ``width`` characters and ``...`` when longer (for
    a message that shows it unquoted)."""
    return text if len(text) <= width else text[:width] + "..."


def number(text, what: str, *, lo: int | None = None, hi: int | None = None,
           negative: bool = False, error: type[Exception] = ParseError) -> int:
    """The whole number ``text`` writes (spaces around it are ignored), by the policy
    above; ``error`` naming ``what`` (may be empty) and the text otherwise.
    ``lo``/``hi``: the field's range, both ends included (without ``hi``, at most
    :data:`MAX_DIGITS` digits); ``negative``: a leading ``-`` is allowed."""
    field, large = (f"{what} ", f"{what} is too large") if what else ("", "too large")
    t = text.strip() if isinstance(text, str) else None
    if t is not None and t.startswith("-") and not negative and lo is not None \
            and _SIGNED.fullmatch(t):
        # a negative number where the field has a range: say the range
        raise error(f"{field}must be {lo}..{hi}, got {shown(t)}" if hi is not None
                    else f"{field}must be at least {lo}, got {shown(t)}")
    if t is None or not (_SIGNED if negative else _DIGITS).fullmatch(t):
        raise error(f"{field}must be a number (digits 0-9), got {shown(text)}")
    sign = -1 if t.startswith("-") else 1
    digits = t.lstrip("-").lstrip("0") or "0"
    if len(digits) > (MAX_DIGITS if hi is None else max(MAX_DIGITS, len(str(abs(hi))))):
        # refused before int(): no conversion of thousands of digits
        if sign < 0 and lo is not None:
            raise error(f"{field}must be at least {lo}, got {shown(t)}")
        raise error(f"{large}: at most {f'{MAX_DIGITS} digits' if hi is None else hi}, "
                    f"got {shown(t)}")
    n = sign * int(digits)
    if hi is not None and n > hi:
        raise error(f"{large}: at most {hi}, got {shown(t)}")
    if lo is not None and n < lo:
        raise error(f"{field}must be at least {lo}, got {shown(t)}")
    return n


def json_int(text: str) -> int:
    """A whole number in JSON a user gave, by the policy above: ``parse_int`` for every
    ``json.loads`` of input, so a number of more than :data:`MAX_DIGITS` digits is
    refused in one line (``json.loads`` would convert up to 4,300 digits and then fail
    with Python's own advice).

    >>> import json
    >>> json.loads('[7, -12]', parse_int=json_int)
    [7, -12]
    """
    return number(text, "a number in JSON", negative=True)


def is_decimal(text) -> bool:
    """True when ``text`` (spaces around it aside) is a decimal number in ASCII:
    ``2``, ``0.5``, ``.5``, ``1e3``, with a leading ``-`` at most (no ``+``, no ``_``,
    no other script's digits; ``float()`` would take them all)."""
    return isinstance(text, str) and _DECIMAL.fullmatch(text.strip()) is not None


def name_key(text) -> str:
    """A name as compared and printed: spaces around it dropped, ASCII letters in lower
    case. Text with any other character is returned as it is (so ``ＢＡＳＩＣ`` or a
    Kelvin sign never turn into a name)."""
    t = text.strip() if isinstance(text, str) else str(text)
    return t.lower() if t.isascii() else t


def choice(text, choices, what: str, error: type[ValueError] = ParseError) -> str:
    """The one of ``choices`` (canonical lower-case names) that ``text`` names in any
    case; ``error`` naming ``what`` and listing them otherwise."""
    key = name_key(text)
    if key in choices:
        return key
    listed = ", ".join(choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else choices[0]
    raise error(f"unknown {what} {shown(text)}: use {listed}")


def iso_date(text, what: str = "date", error: type[ValueError] = ParseError) -> _dt.date:
    """A date written ``YYYY-MM-DD`` (ASCII digits; spaces around it are ignored)."""
    t = text.strip() if isinstance(text, str) else ""
    m = _ISO_DATE.fullmatch(t)
    if not m:
        raise error(f"bad {what} {shown(text)}: expected YYYY-MM-DD")
    return _calendar(*m.groups(), text, what, error)


def date_of_digits(digits: str, what: str = "date",
                   error: type[ValueError] = ParseError) -> _dt.date:
    """A date written ``YYYYMMDD`` (as in daily puzzle IDs)."""
    if not (is_digits(digits) and len(digits) == 8):
        raise error(f"bad {what} {shown(digits)}: expected 8 digits YYYYMMDD")
    return _calendar(digits[:4], digits[4:6], digits[6:], digits, what, error)


def _calendar(y: str, m: str, d: str, text, what: str, error) -> _dt.date:
    try:
        return _dt.date(int(y), int(m), int(d))
    except ValueError:
        raise error(f"bad {what} {shown(text)}: there is no such day") from None
