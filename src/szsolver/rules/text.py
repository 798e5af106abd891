"""The canonical text forms of the rules' objects, and what a Position accepts.

Turn text: ``44`` puts an own stone on (4,4); ``44n66`` also puts a neutral on (6,6)
(points ``row,col`` when a coordinate has two digits). A :class:`Turn` is the turn's
int code that prints as its text on its own board.

Position string: the board's rows separated by ``/``, each listing that row's points
left to right with ``.`` empty, ``R`` red, ``B`` blue, ``N`` neutral; then side to move
(``R``/``B``), red neutrals left, blue neutrals left, rule. ``str(position)`` is its
position string and ``Position(text)`` reads one back (either back end).

These forms live with the rules because a position and a turn print as them;
:mod:`szsolver.formats.notation` re-exports them beside the other formats.

>>> t = parse_turn("44n66"); t, str(t), int(t), t.stone, t.neutral
(Turn('44n66'), '44n66', 2386, 18, 36)
>>> format_turn(2386)
'44n66'
>>> sorted(parse_position_fields(START))
['blue', 'blue_neutrals', 'neutral', 'red', 'red_neutrals', 'rule', 'side']
"""
from __future__ import annotations

from ..errors import IllegalTurnError, ParseError, WrongTypeError
from ..inputs import invisible, number, one_word, shown
from .base import (BLUE, MAX_NEUTRALS_PER_SIDE, NO_NEUTRAL, RED, RULE_NAMES, SIDE_NAMES,
                   STONES_PER_SIDE, check_position,
                   encode_turn, rule_code, turn_error)
from .geometry import STARS_ZONE, Geometry, by_name

__all__ = ["START", "SIDE_LETTERS", "Turn", "format_turn", "parse_turn", "turn_table",
           "position_string", "parse_position_fields", "board_of", "position_fields",
           "turn_code", "checked_turn", "position_repr"]

START = "../....../......./......../....N..../......../......./....../.. R 5 5 basic"
SIDE_LETTERS = "RB"


# --- turns --------------------------------------------------------------------------------

def _check_code(turn: int, geometry: Geometry) -> None:
    """IllegalTurnError unless the int ``turn`` names a turn on ``geometry``: a stone
    on the board and no neutral, or a neutral on another point of it."""
    s, n = turn & 63, (turn >> 6) - 1
    if turn < 0 or s >= geometry.size or not NO_NEUTRAL <= n < geometry.size or n == s:
        raise IllegalTurnError(f"{int(turn)} is not a turn code on the {geometry.name} board")


def format_turn(turn: int, geometry: Geometry | None = None) -> str:
    """The text of a turn code on ``geometry`` (default: a Turn's own board, else the
    Stars' Zone board): '44' or '44n66'. IllegalTurnError for a code that names no
    turn there."""
    if geometry is None:
        geometry = getattr(turn, "geometry", STARS_ZONE)
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise ParseError(f"a turn code is an int, not {type(turn).__name__}")
    _check_code(turn, geometry)
    s, n = turn & 63, (turn >> 6) - 1
    text = geometry.coord_text(s)
    if n != NO_NEUTRAL:
        text += "n" + geometry.coord_text(n)
    return text


def parse_turn(text: str, geometry: Geometry = STARS_ZONE) -> "Turn":
    """'44' or '44n66' to a :class:`Turn` on ``geometry`` (an int code);
    ParseError naming the problem. Whether it is legal is the position's question."""
    if not isinstance(text, str):
        raise ParseError(f"bad turn {shown(text)}: expected text like 44 or 44n66")
    t = text.strip().lower()
    if not t:
        raise ParseError("empty turn")
    one_word(t, f"bad turn {shown(text)}: a turn", "".join(t.split()),
             lambda fix: parse_turn(fix, geometry))
    if invisible(t):
        raise ParseError(f"bad turn {shown(text)}: delete the invisible character")
    stone_text, sep, neutral_text = t.partition("n")
    if sep and not neutral_text:
        raise ParseError(f"bad turn {shown(text)}: 'n' must be followed by the neutral's point")
    try:
        stone = geometry.parse_point(stone_text)
        neutral = geometry.parse_point(neutral_text) if sep else NO_NEUTRAL
    except ValueError as e:
        raise ParseError(f"bad turn {shown(text)}: {e}") from None
    if neutral == stone:
        raise ParseError(f"bad turn {shown(text)}: the neutral cannot go where the stone goes")
    if stone > 63 or neutral > 63:
        raise ParseError(f"bad turn {shown(text)}: turns name points 0..63 only")
    return int.__new__(Turn.on(geometry), encode_turn(stone, neutral))


class Turn(int):
    """A turn: its int code ``stone + 64 * (neutral + 1)`` (what the core, the solver
    and make/unmake take), printed as turn text on its own board.

    ``Turn`` itself is on the Stars' Zone board; ``Turn.on(geometry)`` is the class
    for another board. ``Turn(text)`` parses (ParseError), ``Turn(code)`` checks the
    code names points of the board (IllegalTurnError). Arithmetic gives plain ints;
    a format spec of a number type (``d``, ``x``...) formats the code, any other the text.

    >>> t = Turn("44n66"); t == 2386, f"{t:>6}|{t:d}", t.stone, t.neutral
    (True, ' 44n66|2386', 18, 36)
    >>> Turn(18), Turn(18).neutral
    (Turn('44'), -1)
    """

    __slots__ = ()
    geometry: Geometry = STARS_ZONE

    def __new__(cls, turn):
        g = cls.geometry
        if isinstance(turn, str):
            return int.__new__(cls, parse_turn(turn, g))
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise WrongTypeError(f"a turn is text like '44n66' or an int code, not {turn!r}")
        _check_code(turn, g)
        return int.__new__(cls, turn)

    @staticmethod
    def on(geometry: Geometry) -> type["Turn"]:
        """The Turn class of ``geometry`` (one per board, equal boards share it)."""
        cls = _TURN_CLASSES.get(geometry)
        if cls is None:
            cls = _TURN_CLASSES[geometry] = type(
                "Turn", (Turn,), {"__slots__": (), "geometry": geometry, "__module__": __name__})
        return cls

    @property
    def stone(self) -> int:
        """The point the own stone goes on."""
        return self & 63

    @property
    def neutral(self) -> int:
        """The neutral's point, or NO_NEUTRAL (-1)."""
        return (self >> 6) - 1

    def __str__(self) -> str:
        return format_turn(self, self.geometry)

    def __repr__(self) -> str:
        return f"Turn({format_turn(self, self.geometry)!r})"

    def __format__(self, spec: str) -> str:
        if spec and spec[-1] in "bdnoxX":
            return int.__format__(int(self), spec)
        return format(str(self), spec)

    def __reduce__(self):
        return _turn, (self.geometry, int(self))


_TURN_CLASSES: dict[Geometry, type[Turn]] = {STARS_ZONE: Turn}


def _turn(geometry: Geometry, code: int) -> Turn:
    """Unpickle a Turn."""
    return Turn.on(geometry)(code)


def turn_table(geometry: Geometry) -> tuple:
    """Every Turn of ``geometry`` indexed by its code (None where a code names no turn):
    the back ends hand out these shared objects, as fast as making plain ints."""
    cls = Turn.on(geometry)
    table = cls.__dict__.get("_table")
    if table is None:
        size = min(geometry.size, 64)
        table = [None] * (64 * 65)
        for s in range(size):
            for n in range(NO_NEUTRAL, size):
                if n != s:
                    code = encode_turn(s, n)
                    table[code] = int.__new__(cls, code)
        table = tuple(table)
        type.__setattr__(cls, "_table", table)
    return table


# --- position strings ---------------------------------------------------------------------

def position_string(pos) -> str:
    """The one-line position string of a position (either back end)."""
    g = pos.geometry
    red, blue, neutral = pos.red, pos.blue, pos.neutral
    rows = []
    for row in g.rows:
        chars = []
        for p in row:
            bit = 1 << p
            chars.append("R" if red & bit else "B" if blue & bit
                         else "N" if neutral & bit else ".")
        rows.append("".join(chars))
    return (f"{'/'.join(rows)} {SIDE_LETTERS[pos.side]} {pos.red_neutrals} "
            f"{pos.blue_neutrals} {RULE_NAMES[pos.rule]}")


def parse_position_fields(text: str, geometry: Geometry = STARS_ZONE) -> dict:
    """Parse a position string to constructor keyword arguments (not yet checked for
    legality); ParseError naming the problem."""
    if not isinstance(text, str):
        raise ParseError(f"a position string is text, not {type(text).__name__}")
    parts = text.split()
    if len(parts) != 5:
        raise ParseError(f"position string needs 5 fields (rows, side, red neutrals left, "
                         f"blue neutrals left, rule), got {len(parts)}")
    board, side_text, rl_text, bl_text, rule_text = parts
    rows = board.split("/")
    if len(rows) != len(geometry.rows):
        raise ParseError(f"position string has {len(rows)} rows, the {geometry.name} board has "
                         f"{len(geometry.rows)}")
    red = blue = neutral = 0
    for i, (row_text, row) in enumerate(zip(rows, geometry.rows), start=1):
        if len(row_text) != len(row):
            raise ParseError(f"row {i} has {len(row_text)} point{'' if len(row_text) == 1 else 's'}, "
                             f"expected {len(row)}")
        for ch, p in zip(row_text.upper(), row):    # letters in any case, as names are
            if ch == "R":
                red |= 1 << p
            elif ch == "B":
                blue |= 1 << p
            elif ch == "N":
                neutral |= 1 << p
            elif ch != ".":
                raise ParseError(f"unknown character {ch!r} in row {i}: use . R B N")
    if side_text.upper() not in ("R", "B"):
        raise ParseError(f"side to move must be R or B, got {shown(side_text)}")
    side_text = side_text.upper()
    counts = [number(t, f"{name} neutrals left", lo=0, hi=MAX_NEUTRALS_PER_SIDE)
              for name, t in (("red", rl_text), ("blue", bl_text))]
    return dict(red=red, blue=blue, neutral=neutral, red_neutrals=counts[0],
                blue_neutrals=counts[1], side=RED if side_text == "R" else BLUE,
                rule=rule_code(rule_text))


# --- what a Position accepts (both back ends call these) ------------------------------------

def board_of(geometry) -> Geometry:
    """A Geometry, a board name ('stars-zone', 'square-8') or None (Stars' Zone)."""
    if geometry is None:
        return STARS_ZONE
    if isinstance(geometry, Geometry):
        return geometry
    if isinstance(geometry, str):
        try:
            return by_name(geometry)
        except ValueError as e:
            raise ParseError(str(e)) from None
    raise TypeError(f"a board is a Geometry or a board name, not {geometry!r}")


_FIELD_NAMES = ("red", "blue", "neutral", "red_neutrals", "blue_neutrals", "side", "rule")


def position_fields(source, geometry, red, blue, neutral, red_neutrals, blue_neutrals, side,
                    rule, stones_per_side) -> tuple:
    """A Position constructor's arguments, resolved and checked.

    ``source`` is a position string (then the fields come from it and may not be given
    too), a Geometry (the board, as the first positional argument) or None. Fields left
    None take the start's values: no stones, the fixed neutrals, 5 neutrals each, Red to
    move, Basic, 16 stones a side. Returns ``(geometry, red, blue, neutral, red_neutrals,
    blue_neutrals, side, rule_code, stones_per_side)``; ParseError for a bad string,
    InvalidPositionError for a position that cannot arise in play."""
    if isinstance(source, str):
        g = board_of(geometry)
        given = [name for name, v in zip(_FIELD_NAMES, (red, blue, neutral, red_neutrals,
                                                        blue_neutrals, side, rule))
                 if v is not None]
        if given:
            raise TypeError(f"Position(text) reads {given[0]} from the text; do not give "
                            f"{given[0]}= as well")
        f = parse_position_fields(source, g)
        red, blue, neutral = f["red"], f["blue"], f["neutral"]
        red_neutrals, blue_neutrals, side, rule = (f["red_neutrals"], f["blue_neutrals"],
                                                   f["side"], f["rule"])
    else:
        if source is not None:
            if geometry is not None:
                raise TypeError("the board is given twice (positionally and as geometry=)")
            if not isinstance(source, Geometry):
                raise TypeError(f"Position() takes a position string or a Geometry, not {source!r}")
            geometry = source
        g = board_of(geometry)
        red = 0 if red is None else red
        blue = 0 if blue is None else blue
        neutral = g.fixed_neutral_mask if neutral is None else neutral
        red_neutrals = 5 if red_neutrals is None else red_neutrals
        blue_neutrals = 5 if blue_neutrals is None else blue_neutrals
        side = RED if side is None else side
        rule = rule_code(0 if rule is None else rule)
    if stones_per_side is None:
        stones_per_side = STONES_PER_SIDE
    check_position(g, red, blue, neutral, red_neutrals, blue_neutrals, side, stones_per_side)
    return g, red, blue, neutral, red_neutrals, blue_neutrals, side, rule, stones_per_side


def turn_code(geometry: Geometry, turn) -> int:
    """A turn given as text ('44n66') or as an int code (a Turn too) to its int code.
    ParseError for text that names no turn on the board; IllegalTurnError for a Turn of
    another board."""
    if isinstance(turn, str):
        return int(parse_turn(turn, geometry))
    if isinstance(turn, bool) or not isinstance(turn, int):
        raise WrongTypeError(f"a turn is text like '44n66' or an int code, not {turn!r}")
    if isinstance(turn, Turn) and turn.geometry is not geometry and turn.geometry != geometry:
        raise IllegalTurnError(f"turn {turn} is on the {turn.geometry.name} board, not "
                               f"the {geometry.name} board")
    return int(turn)


def checked_turn(pos, turn) -> int:
    """The code of ``turn`` (text or int) after checking it is legal in ``pos``;
    IllegalTurnError naming the turn and why not (ParseError for text that is no turn).
    The one check of a turn's legality, and its one message, for playing, replaying a
    record and judging a turn alike."""
    code = turn_code(pos.geometry, turn)
    why = turn_error(pos, code)
    if why is not None:
        try:
            text = format_turn(code, pos.geometry)
        except IllegalTurnError:
            text = str(code)                   # a code that names no turn of the board
        raise IllegalTurnError(f"illegal turn {text}: {why}")
    return code


def checked_take_back(pos, turn) -> int:
    """The code of ``turn`` (text or int) after checking that ``pos`` can take it back
    as the last turn made: its stone is the last mover's, its neutral on the board and
    not the board's fixed one. IllegalTurnError
    naming what does not fit (the position alone cannot tell which turn came last:
    any turn that fits is taken back)."""
    g = pos.geometry
    code = turn_code(g, turn)
    s, n = code & 63, (code >> 6) - 1
    mover = pos.side ^ 1
    stones = pos.red if mover == RED else pos.blue
    text = format_turn(code, g)
    if not 0 <= s < g.size or not stones >> s & 1:
        raise IllegalTurnError(f"cannot take back {text}: no {SIDE_NAMES[mover]} stone on "
                               f"{g.coord_text(s) if 0 <= s < g.size else s} (the last turn "
                               f"was {SIDE_NAMES[mover]}'s)")
    if n != NO_NEUTRAL and (not 0 <= n < g.size or not pos.neutral >> n & 1
                            or g.fixed_neutral_mask >> n & 1):
        raise IllegalTurnError(f"cannot take back {text}: no neutral of a turn on "
                               f"{g.coord_text(n) if 0 <= n < g.size else n}")
    if n != NO_NEUTRAL and pos.neutrals_left(mover) >= MAX_NEUTRALS_PER_SIDE:
        raise IllegalTurnError(f"cannot take back {text}: {SIDE_NAMES[mover]} already holds "
                               f"{MAX_NEUTRALS_PER_SIDE} neutrals, the most a side starts with")
    return code


def position_repr(pos) -> str:
    """``Position('<position string>')``, with the board when it is not Stars' Zone."""
    g = pos.geometry
    board = "" if g is STARS_ZONE or g == STARS_ZONE else f", geometry={g.name!r}"
    return f"Position({position_string(pos)!r}{board})"
