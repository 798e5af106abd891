"""Text forms of turns and positions (round-trip exactly; errors are one line).

Turn: ``44`` puts an own stone on (4,4); ``44n66`` also puts a neutral on (6,6).

Position string: the board's rows separated by ``/``, each listing that row's
points left to right with ``.`` empty, ``R`` red, ``B`` blue, ``N`` neutral; then
side to move (``R``/``B``), red neutrals left, blue neutrals left, rule.

>>> from szsolver.reference import Position
>>> p = parse_position(START)
>>> position_string(p) == START
True
>>> t = parse_turn("44n66", p.geometry); format_turn(t, p.geometry)
'44n66'
"""
from __future__ import annotations

from .geometry import STARS_ZONE, Geometry
from .reference import (BLUE, NO_NEUTRAL, RED, RULE_NAMES, encode_turn, rule_code,
                        turn_neutral, turn_stone)

START = "../....../......./......../....N..../......../......./....../.. R 5 5 basic"
SIDE_LETTERS = "RB"


def format_turn(turn: int, geometry: Geometry = STARS_ZONE) -> str:
    s, n = turn_stone(turn), turn_neutral(turn)
    text = geometry.coord_text(s)
    if n != NO_NEUTRAL:
        text += "n" + geometry.coord_text(n)
    return text


def parse_turn(text: str, geometry: Geometry = STARS_ZONE) -> int:
    """'44' or '44n66' to a turn code; ValueError naming the problem."""
    t = text.strip().lower()
    if not t:
        raise ValueError("empty turn")
    stone_text, sep, neutral_text = t.partition("n")
    if sep and not neutral_text:
        raise ValueError(f"bad turn {text!r}: 'n' must be followed by the neutral's point")
    try:
        stone = geometry.parse_point(stone_text)
        neutral = geometry.parse_point(neutral_text) if sep else NO_NEUTRAL
    except ValueError as e:
        raise ValueError(f"bad turn {text!r}: {e}") from None
    if neutral == stone:
        raise ValueError(f"bad turn {text!r}: the neutral cannot go where the stone goes")
    return encode_turn(stone, neutral)


def position_string(pos) -> str:
    """The one-line position string of a position (either back end)."""
    g = pos.geometry
    rows = []
    for row in g.rows:
        chars = []
        for p in row:
            bit = 1 << p
            chars.append("R" if pos.red & bit else "B" if pos.blue & bit
                         else "N" if pos.neutral & bit else ".")
        rows.append("".join(chars))
    return (f"{'/'.join(rows)} {SIDE_LETTERS[pos.side]} {pos.red_neutrals} "
            f"{pos.blue_neutrals} {RULE_NAMES[pos.rule]}")


def parse_position_fields(text: str, geometry: Geometry = STARS_ZONE) -> dict:
    """Parse a position string to constructor keyword arguments (not yet checked for legality)."""
    parts = text.split()
    if len(parts) != 5:
        raise ValueError(f"position string needs 5 fields (rows, side, red neutrals left, "
                         f"blue neutrals left, rule), got {len(parts)}")
    board, side_text, rl_text, bl_text, rule_text = parts
    rows = board.split("/")
    if len(rows) != len(geometry.rows):
        raise ValueError(f"position string has {len(rows)} rows, the {geometry.name} board has "
                         f"{len(geometry.rows)}")
    red = blue = neutral = 0
    for i, (row_text, row) in enumerate(zip(rows, geometry.rows), start=1):
        if len(row_text) != len(row):
            raise ValueError(f"row {i} has {len(row_text)} points, expected {len(row)}")
        for ch, p in zip(row_text, row):
            if ch == "R":
                red |= 1 << p
            elif ch == "B":
                blue |= 1 << p
            elif ch == "N":
                neutral |= 1 << p
            elif ch != ".":
                raise ValueError(f"unknown character {ch!r} in row {i}: use . R B N")
    if side_text not in ("R", "B"):
        raise ValueError(f"side to move must be R or B, got {side_text!r}")
    counts = []
    for name, t in (("red", rl_text), ("blue", bl_text)):
        if not t.isdigit():
            raise ValueError(f"{name} neutrals left must be a number, got {t!r}")
        counts.append(int(t))
    return dict(red=red, blue=blue, neutral=neutral, red_neutrals=counts[0],
                blue_neutrals=counts[1], side=RED if side_text == "R" else BLUE,
                rule=rule_code(rule_text))


def parse_position(text: str, geometry: Geometry = STARS_ZONE, backend=None):
    """Parse and check a position string; returns a Position of ``backend``
    (a Position class; default the fast core when built, else the reference)."""
    if backend is None:
        from . import Position as backend
    return backend(geometry, **parse_position_fields(text, geometry))
