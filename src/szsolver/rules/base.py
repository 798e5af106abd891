"""What every part of szsolver shares about the rules: sides, rules, the turn code,
and the checks that a position could arise in play and that a turn is legal.

Both back ends (the pure-Python reference and the Cython core), the formats and
the puzzle tools import these from here, so none of them depends on one back end.

Turns are small ints: ``stone + 64 * (neutral + 1)``, neutral ``-1`` for none
(:func:`encode_turn`); :class:`szsolver.rules.text.Turn` is the same int that prints
as turn text. Point sets are int bitmasks, bit ``p`` = point ``p`` of the geometry.

>>> t = encode_turn(3, 5); t, turn_stone(t), turn_neutral(t)
(387, 3, 5)
>>> turn_neutral(encode_turn(3)) == NO_NEUTRAL
True
>>> rule_code("Advanced"), RULE_NAMES[BASIC]
(1, 'basic')
"""
from __future__ import annotations

from ..errors import InvalidPositionError, ParseError
from ..inputs import name_key, shown
from .bits import popcount

__all__ = ["RED", "BLUE", "BASIC", "ADVANCED", "SIDE_NAMES", "RULE_NAMES", "NO_NEUTRAL",
           "STONES_PER_SIDE", "MAX_NEUTRALS_PER_SIDE", "encode_turn", "turn_stone",
           "turn_neutral", "rule_code", "check_position", "turn_error", "spendable_neutrals"]

RED, BLUE = 0, 1
BASIC, ADVANCED = 0, 1
SIDE_NAMES = ("red", "blue")
RULE_NAMES = ("basic", "advanced")
NO_NEUTRAL = -1
STONES_PER_SIDE = 16
MAX_NEUTRALS_PER_SIDE = 7


# --- the turn code ------------------------------------------------------------------------

def encode_turn(stone: int, neutral: int = NO_NEUTRAL) -> int:
    """Pack a turn: own stone on ``stone``, optional neutral on ``neutral``."""
    return stone + 64 * (neutral + 1)


def turn_stone(turn: int) -> int:
    """The point the turn's own stone goes on."""
    return turn & 63


def turn_neutral(turn: int) -> int:
    """The neutral's point, or NO_NEUTRAL (-1) when the turn places none."""
    return (turn >> 6) - 1


def rule_code(rule) -> int:
    """'basic' / 'advanced' (any case, or the codes 0 / 1) to the rule's code;
    ParseError for anything else."""
    if rule in (BASIC, ADVANCED):
        return int(rule)
    if isinstance(rule, str) and name_key(rule) in RULE_NAMES:
        return RULE_NAMES.index(name_key(rule))
    raise ParseError(f"unknown rule {shown(rule)}: use basic or advanced")


# --- checks -------------------------------------------------------------------------------

def side_code(side) -> int:
    """A side as its code: RED (0) or BLUE (1); also 'red' / 'blue'. Anything else is a
    ParseError, so a bad side never indexes past a two-element table.

    >>> side_code(1), side_code("red")
    (1, 0)
    """
    if isinstance(side, str) and name_key(side) in SIDE_NAMES:
        return SIDE_NAMES.index(name_key(side))
    if not isinstance(side, bool) and side in (RED, BLUE):
        return int(side)
    raise ParseError(f"unknown side {shown(side)}: use red or blue (0 or 1)")


def spendable_neutrals(pos) -> int:
    """The neutrals the two sides can still spend at ``pos`` (either back end): each
    side's supply, at most its own turns left (a neutral goes with a stone). What a
    search beyond the last turns costs grows with it (the engine's cost model, the
    solver's proof table)."""
    t = max(pos.turns_left, 1)
    red_turns, blue_turns = (t + 1) // 2, t // 2      # the side to move plays first
    if pos.side != RED:
        red_turns, blue_turns = blue_turns, red_turns
    return min(pos.red_neutrals, red_turns) + min(pos.blue_neutrals, blue_turns)


def check_position(geometry, red, blue, neutral, red_neutrals, blue_neutrals, side,
                   stones_per_side=STONES_PER_SIDE) -> None:
    """Raise InvalidPositionError (one line naming the problem) unless the position
    could arise in play: stones on the board, one per point, the fixed neutrals in
    place, stone counts that fit the side to move, supplies 0..7 and no more neutrals
    placed than the turns so far could have placed."""
    g = geometry
    if g.size > 64:
        raise InvalidPositionError(f"the {g.name} board has {g.size} points; game positions "
                                   "need at most 64")
    full = g.full_mask
    for name, m in (("red", red), ("blue", blue), ("neutral", neutral)):
        if m < 0 or m & ~full:
            raise InvalidPositionError(f"{name} stones off the board")
    if red & blue or red & neutral or blue & neutral:
        raise InvalidPositionError("two stones on one point")
    fixed = g.fixed_neutral_mask
    for p in range(g.size):
        if fixed >> p & 1:
            where = g.coords[p]
            if (red | blue) >> p & 1:
                raise InvalidPositionError(f"a stone on the centre {where}: it holds a neutral "
                                           "from the start")
            if not neutral >> p & 1:
                raise InvalidPositionError(f"the centre {where} must hold its neutral stone")
    nr, nb = popcount(red), popcount(blue)
    if nr > stones_per_side:
        raise InvalidPositionError(f"{nr} red stones: a side has only {stones_per_side}")
    if nb > stones_per_side:
        raise InvalidPositionError(f"{nb} blue stones: a side has only {stones_per_side}")
    if side not in (RED, BLUE):
        raise InvalidPositionError(f"bad side to move {side!r}")
    if side == RED and nr != nb:
        raise InvalidPositionError(f"stone counts (red {nr}, blue {nb}) do not fit red to move: "
                                   "red moves when both have placed the same number")
    if side == BLUE and nr != nb + 1:
        raise InvalidPositionError(f"stone counts (red {nr}, blue {nb}) do not fit blue to move: "
                                   "blue moves when red has placed one more")
    for name, left in (("red", red_neutrals), ("blue", blue_neutrals)):
        if not isinstance(left, int) or not 0 <= left <= MAX_NEUTRALS_PER_SIDE:
            raise InvalidPositionError(f"{name} neutrals left must be 0..{MAX_NEUTRALS_PER_SIDE}, "
                                       f"got {left!r}")
    placed = popcount(neutral & ~fixed)
    # Each turn places at most one neutral, from a supply of at most 7.
    can = min(nr, MAX_NEUTRALS_PER_SIDE - red_neutrals) + min(nb, MAX_NEUTRALS_PER_SIDE - blue_neutrals)
    if placed > can:
        raise InvalidPositionError(
            f"{placed} neutral stone{'s' if placed != 1 else ''} placed, but with red {nr} "
            f"and blue {nb} stones "
            f"and {red_neutrals}+{blue_neutrals} left at most {can} can have been")


def turn_error(pos, turn: int) -> str | None:
    """Why the turn code ``turn`` is illegal in ``pos`` (either back end), or None if
    it is legal. The back ends' ``play`` raises IllegalTurnError with this reason."""
    if pos.is_over():
        return "the game is over"
    g = pos.geometry
    s, n = turn_stone(turn), turn_neutral(turn)
    if not 0 <= s < g.size or turn < 0:
        return f"point {s} is off the board"
    if not pos.empty >> s & 1:
        return f"point {g.coord_text(s)} is occupied"
    if n != NO_NEUTRAL:
        if not 0 <= n < g.size:
            return f"neutral point {n} is off the board"
        if n == s:
            return f"the neutral cannot go on {g.coord_text(s)}, where the stone goes"
        if not pos.empty >> n & 1:
            return f"point {g.coord_text(n)} is occupied"
        if pos.neutrals_left(pos.side) == 0:
            return f"{SIDE_NAMES[pos.side]} has no neutral stones left"
    return None


# --- pictures -----------------------------------------------------------------------------
# Pictures are drawn by szsolver.formats.svg, which sits above the rules; the package's
# front door plugs the drawing in here, so the rules import nothing from the formats.

_draw_svg = None


def set_svg_drawer(draw) -> None:
    """Install ``draw(position) -> SVG text``, which positions use to show as pictures
    in notebooks (``_repr_svg_``); None removes it."""
    global _draw_svg
    _draw_svg = draw


def position_svg_or_none(pos) -> str | None:
    """The position's SVG picture, or None when no drawer is installed."""
    return None if _draw_svg is None else _draw_svg(pos)
