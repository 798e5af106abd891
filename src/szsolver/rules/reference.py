"""Pure-Python reference implementation of the Stars' Zone rules.

Written for clarity, not speed: every question is answered straight from the
rules text (walk each beam point by point). The Cython core
(:mod:`szsolver.rules._core`) has the same API and the test suite runs on both and
checks they agree.

Turns are small ints: ``stone + 64 * (neutral + 1)``, neutral ``-1`` for none
(see :func:`encode_turn`). Point sets are int bitmasks, bit ``p`` = point ``p``
of the geometry.
"""
from __future__ import annotations

from .geometry import STARS_ZONE, Geometry
from .zobrist import NEUTRALS_LEFT_KEYS, RULE_KEY, SIDE_KEY, STONE_KEYS, MAX_NEUTRALS

RED, BLUE = 0, 1
BASIC, ADVANCED = 0, 1
SIDE_NAMES = ("red", "blue")
RULE_NAMES = ("basic", "advanced")
NO_NEUTRAL = -1
STONES_PER_SIDE = 16
MAX_NEUTRALS_PER_SIDE = 7


def encode_turn(stone: int, neutral: int = NO_NEUTRAL) -> int:
    """Pack a turn: own stone on ``stone``, optional neutral on ``neutral``."""
    return stone + 64 * (neutral + 1)


def turn_stone(turn: int) -> int:
    return turn & 63


def turn_neutral(turn: int) -> int:
    """The neutral's point, or -1 when the turn places none."""
    return (turn >> 6) - 1


def rule_code(rule) -> int:
    """'basic' / 'advanced' (or 0 / 1) to the rule's code."""
    if rule in (BASIC, ADVANCED):
        return int(rule)
    if isinstance(rule, str) and rule.strip().lower() in RULE_NAMES:
        return RULE_NAMES.index(rule.strip().lower())
    raise ValueError(f"unknown rule {rule!r}: use basic or advanced")


def _popcount(x: int) -> int:
    return bin(x).count("1")


def check_position(geometry, red, blue, neutral, red_neutrals, blue_neutrals, side,
                   stones_per_side=STONES_PER_SIDE) -> None:
    """Raise ValueError (one line naming the problem) if the position cannot arise in play."""
    g = geometry
    if g.size > 64:
        raise ValueError(f"the {g.name} board has {g.size} points; game positions need at most 64")
    full = g.full_mask
    for name, m in (("red", red), ("blue", blue), ("neutral", neutral)):
        if m < 0 or m & ~full:
            raise ValueError(f"{name} stones off the board")
    if red & blue or red & neutral or blue & neutral:
        raise ValueError("two stones on one point")
    fixed = g.fixed_neutral_mask
    for p in range(g.size):
        if fixed >> p & 1:
            where = g.coords[p]
            if (red | blue) >> p & 1:
                raise ValueError(f"a stone on the centre {where}: it holds a neutral from the start")
            if not neutral >> p & 1:
                raise ValueError(f"the centre {where} must hold its neutral stone")
    nr, nb = _popcount(red), _popcount(blue)
    if nr > stones_per_side:
        raise ValueError(f"{nr} red stones: a side has only {stones_per_side}")
    if nb > stones_per_side:
        raise ValueError(f"{nb} blue stones: a side has only {stones_per_side}")
    if side not in (RED, BLUE):
        raise ValueError(f"bad side to move {side!r}")
    if side == RED and nr != nb:
        raise ValueError(f"stone counts (red {nr}, blue {nb}) do not fit red to move: "
                         "red moves when both have placed the same number")
    if side == BLUE and nr != nb + 1:
        raise ValueError(f"stone counts (red {nr}, blue {nb}) do not fit blue to move: "
                         "blue moves when red has placed one more")
    for name, left in (("red", red_neutrals), ("blue", blue_neutrals)):
        if not isinstance(left, int) or not 0 <= left <= MAX_NEUTRALS_PER_SIDE:
            raise ValueError(f"{name} neutrals left must be 0..{MAX_NEUTRALS_PER_SIDE}, got {left!r}")
    placed = _popcount(neutral & ~fixed)
    # Each turn places at most one neutral, from a supply of at most 7.
    can = min(nr, MAX_NEUTRALS_PER_SIDE - red_neutrals) + min(nb, MAX_NEUTRALS_PER_SIDE - blue_neutrals)
    if placed > can:
        raise ValueError(f"{placed} neutral stones placed, but with red {nr} and blue {nb} stones "
                         f"and {red_neutrals}+{blue_neutrals} left at most {can} can have been")


def turn_error(pos, turn: int) -> str | None:
    """Why ``turn`` is illegal in ``pos`` (either back end), or None if legal."""
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


class Position:
    """A Stars' Zone position (reference back end).

    Fields: ``red``, ``blue``, ``neutral`` (bitmasks; ``neutral`` includes the
    centre), ``red_neutrals`` / ``blue_neutrals`` (neutral stones left in each
    supply), ``side`` (RED or BLUE to move), ``rule`` (BASIC or ADVANCED).
    The constructor checks the position could arise in play.
    """

    backend = "reference"

    def __init__(self, geometry: Geometry = STARS_ZONE, *, red: int = 0, blue: int = 0,
                 neutral: int | None = None, red_neutrals: int = 5, blue_neutrals: int = 5,
                 side: int = RED, rule=BASIC, stones_per_side: int = STONES_PER_SIDE):
        if neutral is None:
            neutral = geometry.fixed_neutral_mask
        rule = rule_code(rule)
        check_position(geometry, red, blue, neutral, red_neutrals, blue_neutrals, side,
                       stones_per_side)
        self.geometry = geometry
        self.red, self.blue, self.neutral = red, blue, neutral
        self.red_neutrals, self.blue_neutrals = red_neutrals, blue_neutrals
        self.side = side
        self.rule = rule
        self.stones_per_side = stones_per_side

    # --- plain facts ------------------------------------------------------------------
    def copy(self) -> "Position":
        p = object.__new__(type(self))
        p.__dict__.update(self.__dict__)
        return p

    def stones(self, side: int) -> int:
        return self.red if side == RED else self.blue

    def neutrals_left(self, side: int) -> int:
        return self.red_neutrals if side == RED else self.blue_neutrals

    @property
    def empty(self) -> int:
        return self.geometry.full_mask & ~(self.red | self.blue | self.neutral)

    @property
    def ply(self) -> int:
        """Turns played so far (each turn places exactly one own stone)."""
        return _popcount(self.red) + _popcount(self.blue)

    @property
    def turns_left(self) -> int:
        return 2 * self.stones_per_side - self.ply

    def is_over(self) -> bool:
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
        return (isinstance(other, (Position,)) or hasattr(other, "neutral")) and \
            self.geometry.name == other.geometry.name and \
            (self.red, self.blue, self.neutral, self.red_neutrals, self.blue_neutrals,
             self.side, self.rule) == (other.red, other.blue, other.neutral,
                                       other.red_neutrals, other.blue_neutrals,
                                       other.side, other.rule)

    def __hash__(self) -> int:
        return self.key

    def __repr__(self) -> str:
        from ..formats.notation import position_string
        return f"Position({position_string(self)!r})"

    # --- turns ------------------------------------------------------------------------
    def turn_error(self, turn: int) -> str | None:
        """Why ``turn`` is illegal here, or None if it is legal."""
        return turn_error(self, turn)

    def is_legal(self, turn: int) -> bool:
        return self.turn_error(turn) is None

    def legal_turns(self) -> list[int]:
        """All legal turns: stones in point order, each first without a neutral,
        then with a neutral on each other empty point in point order."""
        if self.is_over():
            return []
        empties = [p for p in range(self.geometry.size) if self.empty >> p & 1]
        with_neutral = self.neutrals_left(self.side) > 0
        out = []
        for s in empties:
            out.append(encode_turn(s))
            if with_neutral:
                out.extend(encode_turn(s, n) for n in empties if n != s)
        return out

    def play(self, turn: int) -> None:
        """Make a turn after checking it; ValueError naming the problem if illegal."""
        err = self.turn_error(turn)
        if err:
            raise ValueError(f"illegal turn: {err}")
        self.make(turn)

    def make(self, turn: int) -> None:
        """Make a turn. Assumes it is legal (see :meth:`play`)."""
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

    def unmake(self, turn: int) -> None:
        """Take back ``turn``, which must be the last turn made."""
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
    def pattern(self, point: int) -> int:
        """The pattern (bit d = beam in direction d) of the stone on ``point``, or -1."""
        if self.red >> point & 1:
            own = self.red
        elif self.blue >> point & 1:
            own = self.blue
        else:
            return -1
        pat = 0
        for d, ray in enumerate(self.geometry.rays[point]):
            for q in ray:
                if own >> q & 1:
                    pat |= 1 << d
                    break
                if self.rule == ADVANCED and self.neutral >> q & 1:
                    break
        return pat

    def patterns(self, side: int) -> dict[int, int]:
        """{point: pattern} for each of the side's stones."""
        own = self.stones(side)
        return {p: self.pattern(p) for p in range(self.geometry.size) if own >> p & 1}

    def pattern_set(self, side: int) -> int:
        """Bitmask over patterns: bit k set when some stone of the side shows pattern k."""
        m = 0
        for pat in self.patterns(side).values():
            m |= 1 << pat
        return m

    def score(self, side: int) -> int:
        return _popcount(self.pattern_set(side))

    def scores(self) -> tuple[int, int]:
        return self.score(RED), self.score(BLUE)

    def value(self) -> int:
        """100 * (red score - blue score) + (red neutrals left - blue neutrals left)."""
        r, b = self.scores()
        return 100 * (r - b) + (self.red_neutrals - self.blue_neutrals)

    def winner(self) -> str:
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
        p = self.copy()
        p.rule = rule_code(rule)
        return p

    def _repr_svg_(self) -> str:
        from ..formats.svg import position_svg
        return position_svg(self)
