"""Pure-Python reference implementation of the Stars' Zone rules.

Written for clarity, not speed: every question is answered straight from the
rules text (walk each beam point by point, :mod:`szsolver.rules.beams`). The Cython
core (:mod:`szsolver.rules._core`) has the same API; the test suite runs on both and
checks they agree. What both share (sides, rules, the turn code, the checks, the
text forms) lives in :mod:`szsolver.rules.base` and :mod:`szsolver.rules.text`.

>>> p = Position()
>>> p.play("44n66")
>>> p
Position('../....../......./...R..../....N..../....N.../......./....../.. B 4 5 basic')
>>> [str(t) for t in p.legal_turns()[:3]]
['14', '14n15', '14n23']
"""
from __future__ import annotations

from .base import (ADVANCED, BLUE, NO_NEUTRAL, RED, encode_turn, position_svg_or_none,
                   rule_code, side_code, turn_error, turn_neutral, turn_stone)
from . import beams
from .bits import popcount
from .text import (checked_take_back, checked_turn, parse_turn, position_fields, position_repr, position_string,
                   turn_code, turn_table)
from .zobrist import NEUTRALS_LEFT_KEYS, RULE_KEY, SIDE_KEY, STONE_KEYS, MAX_NEUTRALS


class Position:
    """A Stars' Zone position (reference back end).

    ``Position(text)`` reads a position string (``str(position)`` gives it back);
    ``Position(geometry, red=..., ...)`` builds one from its fields: ``red``, ``blue``,
    ``neutral`` (bitmasks; ``neutral`` includes the centre), ``red_neutrals`` /
    ``blue_neutrals`` (neutral stones left in each supply), ``side`` (RED or BLUE to
    move), ``rule`` (BASIC or ADVANCED, or its name). Fields not given are the start's.
    ``geometry`` is a Geometry or a board name. The constructor checks the position
    could arise in play (InvalidPositionError; ParseError for a bad string).
    """

    backend = "reference"

    def __init__(self, source=None, geometry=None, *, red=None, blue=None, neutral=None,
                 red_neutrals=None, blue_neutrals=None, side=None, rule=None,
                 stones_per_side=None):
        (self.geometry, self.red, self.blue, self.neutral, self.red_neutrals,
         self.blue_neutrals, self.side, self.rule, self.stones_per_side) = position_fields(
            source, geometry, red, blue, neutral, red_neutrals, blue_neutrals, side, rule,
            stones_per_side)

    @classmethod
    def from_string(cls, text: str, geometry=None) -> "Position":
        """The position a position string describes (on Stars' Zone unless ``geometry``)."""
        return cls(text, geometry)

    # --- plain facts ------------------------------------------------------------------
    def copy(self) -> "Position":
        """An independent copy (positions change in place when turns are played)."""
        p = object.__new__(type(self))
        p.__dict__.update(self.__dict__)
        return p

    def stones(self, side: int) -> int:
        """The stones of ``side`` (RED/BLUE or 'red'/'blue'): a bitmask."""
        return self.red if side_code(side) == RED else self.blue

    def neutrals_left(self, side: int) -> int:
        """Neutral stones left in the supply of ``side``."""
        return self.red_neutrals if side_code(side) == RED else self.blue_neutrals

    @property
    def empty(self) -> int:
        """The empty points: a bitmask."""
        return self.geometry.full_mask & ~(self.red | self.blue | self.neutral)

    @property
    def ply(self) -> int:
        """Turns played so far (each turn places exactly one own stone)."""
        return popcount(self.red) + popcount(self.blue)

    @property
    def turns_left(self) -> int:
        """Turns still to play, both sides together."""
        return 2 * self.stones_per_side - self.ply

    def is_over(self) -> bool:
        """Whether both sides have placed all their stones."""
        return self.ply >= 2 * self.stones_per_side

    @property
    def key(self) -> int:
        """Zobrist hash of the whole state (stones, neutrals left, side, rule)."""
        k = 0
        for kind, m in enumerate((self.red, self.blue, self.neutral)):
            for p in range(self.geometry.size):
                if m >> p & 1:
                    k ^= STONE_KEYS[kind * 64 + p]
        k ^= NEUTRALS_LEFT_KEYS[self.red_neutrals] ^ NEUTRALS_LEFT_KEYS[MAX_NEUTRALS + self.blue_neutrals]
        if self.side == BLUE:
            k ^= SIDE_KEY
        if self.rule == ADVANCED:
            k ^= RULE_KEY
        return k

    def __eq__(self, other) -> bool:
        return hasattr(other, "neutral") and \
            self.geometry.name == other.geometry.name and \
            (self.red, self.blue, self.neutral, self.red_neutrals, self.blue_neutrals,
             self.side, self.rule) == (other.red, other.blue, other.neutral,
                                       other.red_neutrals, other.blue_neutrals,
                                       other.side, other.rule)

    def __hash__(self) -> int:
        return self.key

    def __str__(self) -> str:
        return position_string(self)

    def __repr__(self) -> str:
        return position_repr(self)

    # --- turns ------------------------------------------------------------------------
    def parse_turn(self, text: str):
        """The Turn that ``text`` ('44n66') names on this board, legal or not (ParseError)."""
        return parse_turn(text, self.geometry)

    def is_legal(self, turn) -> bool:
        """Whether ``turn`` (text or int code) is legal here (ParseError for bad text)."""
        return turn_error(self, turn_code(self.geometry, turn)) is None

    def legal_turns(self) -> list:
        """All legal turns as Turns (ints that print as turn text): stones in point
        order, each first without a neutral, then with a neutral on each other empty
        point in point order."""
        if self.is_over():
            return []
        table = turn_table(self.geometry)
        empties = [p for p in range(self.geometry.size) if self.empty >> p & 1]
        with_neutral = self.neutrals_left(self.side) > 0
        out = []
        for s in empties:
            out.append(table[encode_turn(s)])
            if with_neutral:
                out.extend(table[encode_turn(s, n)] for n in empties if n != s)
        return out

    def play(self, turn) -> None:
        """Make a turn given as text ('44n66') or an int code, after checking it:
        IllegalTurnError naming why it is illegal, ParseError for bad text."""
        self.make(checked_turn(self, turn))

    def make(self, turn: int) -> None:
        """Make a turn (an int code). Assumes it is legal (see :meth:`play`)."""
        s, n = turn_stone(turn), turn_neutral(turn)
        if self.side == RED:
            self.red |= 1 << s
            if n != NO_NEUTRAL:
                self.neutral |= 1 << n
                self.red_neutrals -= 1
        else:
            self.blue |= 1 << s
            if n != NO_NEUTRAL:
                self.neutral |= 1 << n
                self.blue_neutrals -= 1
        self.side ^= 1

    def take_back(self, turn) -> None:
        """Take back the last turn made, given as text ('44n66') or an int code, after
        checking the position holds it: IllegalTurnError naming what does not fit."""
        self.unmake(checked_take_back(self, turn))

    def unmake(self, turn: int) -> None:
        """Take back ``turn``, which must be the last turn made. Assumes it is (see
        :meth:`take_back`)."""
        self.side ^= 1
        s, n = turn_stone(turn), turn_neutral(turn)
        if self.side == RED:
            self.red &= ~(1 << s)
            if n != NO_NEUTRAL:
                self.neutral &= ~(1 << n)
                self.red_neutrals += 1
        else:
            self.blue &= ~(1 << s)
            if n != NO_NEUTRAL:
                self.neutral &= ~(1 << n)
                self.blue_neutrals += 1

    # --- scoring ----------------------------------------------------------------------
    def _blockers(self) -> int:
        return beams.rule_blockers(self.rule, self.neutral)

    def pattern(self, point: int) -> int:
        """The pattern (bit d = beam in direction d) of the stone on ``point``, or -1
        when no stone is there (or ``point`` is off the board)."""
        if not 0 <= point < self.geometry.size:
            return -1
        if self.red >> point & 1:
            own = self.red
        elif self.blue >> point & 1:
            own = self.blue
        else:
            return -1
        return beams.pattern_at(self.geometry, point, own, self._blockers())

    def patterns(self, side: int) -> dict[int, int]:
        """{point: pattern} for each of the side's stones."""
        return beams.patterns(self.geometry, self.stones(side), self._blockers())

    def pattern_set(self, side: int) -> int:
        """Bitmask over patterns: bit k set when some stone of the side shows pattern k."""
        return beams.pattern_set(self.geometry, self.stones(side), self._blockers())

    def score(self, side: int) -> int:
        """The score of ``side`` now: how many distinct patterns its stones show."""
        return popcount(self.pattern_set(side))

    def scores(self) -> tuple[int, int]:
        """(red score, blue score) now (final once the game is over)."""
        return self.score(RED), self.score(BLUE)

    def value(self) -> int:
        """100 * (red score - blue score) + (red neutrals left - blue neutrals left)."""
        r, b = self.scores()
        return 100 * (r - b) + (self.red_neutrals - self.blue_neutrals)

    def winner(self) -> str | None:
        """'red', 'blue' or 'draw' once the game is over (the sign of :meth:`value`:
        scores, then neutrals left); None before (the value then says who leads)."""
        if not self.is_over():
            return None
        v = self.value()
        return "red" if v > 0 else "blue" if v < 0 else "draw"

    # --- symmetry ---------------------------------------------------------------------
    def transformed(self, sym: int) -> "Position":
        """The position with the board mapped by symmetry number ``sym``."""
        s = self.geometry.symmetries[sym]
        p = self.copy()
        p.red, p.blue, p.neutral = s.map_mask(self.red), s.map_mask(self.blue), s.map_mask(self.neutral)
        return p

    def canonical(self) -> tuple["Position", int]:
        """The symmetric image with the smallest (red, blue, neutral) masks, and its symmetry."""
        best, best_sym = None, 0
        for i in range(len(self.geometry.symmetries)):
            t = self.transformed(i)
            if best is None or (t.red, t.blue, t.neutral) < (best.red, best.blue, best.neutral):
                best, best_sym = t, i
        return best, best_sym

    def with_rule(self, rule) -> "Position":
        """A copy under ``rule`` (BASIC/ADVANCED or its name)."""
        p = self.copy()
        p.rule = rule_code(rule)
        return p

    def _repr_svg_(self):
        """The position as SVG, so that it shows as a picture in a notebook."""
        return position_svg_or_none(self)
