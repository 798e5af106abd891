"""What both Stargazers back ends share: turn protocols, the side to move, play, the
end and the result, and the position string.

A position is the board, the red and blue stones (masks) and the turn protocol.
Nothing is ever removed and no one passes, so the number of stones on the board says
whose placement it is and how many placements are left in the current turn:

- protocol ``1-2`` (the default): Red places one stone, then the sides alternate
  placing two stones a turn;
- protocol ``1``: one stone a turn.

A back end supplies two facts (:meth:`PositionBase.inspired` and
:meth:`PositionBase.legal_mask`); everything else is here, once.

Position strings start with the game's prefix, so they can never be taken for a
Stars' Zone position: ``stargazers:BOARD:PROTOCOL:r=CELLS:b=CELLS`` with cells as
comma-separated indices, e.g. ``stargazers:12-star:1-2:r=9,23:b=16``.

>>> from szsolver.stargazers.fast import Position
>>> p = Position()
>>> p.side_name, p.placements_left
('red', 1)
>>> p.play(9); p.side_name, p.placements_left
('blue', 2)
>>> str(p)
'stargazers:12-star:1-2:r=9:b='
"""
from __future__ import annotations

from ..errors import IllegalTurnError, InvalidPositionError, ParseError
from ..inputs import is_digits, name_key, number, shown
from ..rules.bits import bit_list, mask_of, popcount
from .geometry import DEFAULT_BOARD, board as board_named

__all__ = ["RED", "BLUE", "SIDE_NAMES", "PROTOCOLS", "DEFAULT_PROTOCOL", "PREFIX",
           "side_of_placement", "PositionBase", "parse_position_fields", "protocol_name"]

RED, BLUE = 0, 1
SIDE_NAMES = ("red", "blue")
#: the turn protocols by name: ``1-2`` (one stone first, then two a turn) and ``1``
PROTOCOLS = ("1-2", "1")
DEFAULT_PROTOCOL = "1-2"
#: the game prefix of a position string
PREFIX = "stargazers"


def protocol_name(protocol) -> str:
    """``1-2`` or ``1`` from a protocol name (``1-2``, ``12``, ``pairs``, ``1``,
    ``single``); ParseError for anything else."""
    text = name_key(str(protocol))
    if text in ("1-2", "12", "1-then-2", "pairs", "2"):
        return "1-2"
    if text in ("1", "single", "one"):
        return "1"
    raise ParseError(f"unknown turn protocol {shown(str(protocol))}: use 1-2 (one stone, "
                     "then two a turn) or 1 (one a turn)")


def side_of_placement(j: int, protocol: str) -> tuple[int, int]:
    """(side, placements left in its turn) for placement number ``j`` (0-based) of a
    game under ``protocol``.

    >>> [side_of_placement(j, "1-2") for j in range(5)]
    [(0, 1), (1, 2), (1, 1), (0, 2), (0, 1)]
    >>> [side_of_placement(j, "1")[0] for j in range(4)]
    [0, 1, 0, 1]
    """
    if protocol == "1":
        return j % 2, 1
    if j == 0:
        return RED, 1
    k = j - 1
    return (k // 2 + 1) % 2, 2 - k % 2


def _red_count(n: int, protocol: str) -> int:
    """How many of the first ``n`` placements are Red's."""
    if protocol == "1":
        return (n + 1) // 2
    if n == 0:
        return 0
    # placement 0 is red; then blocks of two alternate blue, red, blue...
    k = n - 1
    full, rest = divmod(k, 4)
    return 1 + 2 * full + max(0, rest - 2)


def parse_position_fields(text: str):
    """(board, red, blue, protocol) from a position string; ParseError naming the
    problem."""
    s = str(text).strip().lstrip("\ufeff")
    if any(ch.isspace() for ch in s):       # one word, as every position's fields are
        raise ParseError(f"a Stargazers position string has no space inside, got "
                         f"{shown(s)} (write {''.join(s.split())})")
    parts = s.split(":")
    if name_key(parts[0]) != PREFIX:
        raise ParseError(f"a Stargazers position starts with '{PREFIX}:', got "
                         f"{shown(s)}")
    if len(parts) != 5:
        raise ParseError("a Stargazers position is stargazers:BOARD:PROTOCOL:r=CELLS:b=CELLS "
                         f"(5 fields separated by ':'), got {len(parts)} fields")
    b = board_named(parts[1])
    protocol = protocol_name(parts[2])
    masks = []
    for field, key in zip(parts[3:], ("r", "b")):
        field = field.strip()
        if field[:2].lower() != key + "=":        # in any case, as the prefix and board
            raise ParseError(f"expected '{key}=' and the {SIDE_NAMES[len(masks)]} stones' "
                             f"cells, got {shown(field)}")
        body = field[2:].strip()
        cells = []
        for tok in body.split(",") if body else ():
            tok = tok.strip()
            if not is_digits(tok):
                raise ParseError(f"bad cell {shown(tok)} in a Stargazers position: "
                                 "cell indices are whole numbers (digits 0-9)")
            cells.append(number(tok, "a Stargazers cell index"))
        if len(set(cells)) != len(cells):
            raise InvalidPositionError(f"a cell is listed twice among the "
                                       f"{SIDE_NAMES[len(masks)]} stones")
        for c in cells:
            why = b.cell_error(c)
            if why:
                raise InvalidPositionError(f"{SIDE_NAMES[len(masks)]} stone: {why}")
        masks.append(mask_of(cells))
    return b, masks[0], masks[1], protocol


class PositionBase:
    """A Stargazers position. ``Position(text)`` reads a position string;
    ``Position(board=..., red=..., blue=..., protocol=...)`` builds one (masks of
    cells; the empty 12-star board under ``1-2`` by default). InvalidPositionError
    when the stones cannot stand so (a stone on a star, on both sides, or stone counts
    that do not fit the protocol's order of play).

    Back ends define :meth:`inspired` and :meth:`legal_mask`.
    """

    backend = "base"

    def __init__(self, text: str | None = None, *, board=None, red: int = 0, blue: int = 0,
                 protocol=DEFAULT_PROTOCOL):
        if text is not None:
            b, red, blue, protocol = parse_position_fields(text)
        else:
            b = board_named(board if board is not None else DEFAULT_BOARD)
            protocol = protocol_name(protocol)
        self.board = b
        self.red = red
        self.blue = blue
        self.protocol = protocol
        self._check()

    def _check(self) -> None:
        b = self.board
        for side, m in ((RED, self.red), (BLUE, self.blue)):
            if m < 0 or m & ~b.full:
                raise InvalidPositionError(f"{SIDE_NAMES[side]} stones outside the board")
            if m & b.stars:
                raise InvalidPositionError(f"{SIDE_NAMES[side]} stone on a star (cell "
                                           f"{bit_list(m & b.stars)[0]})")
        if self.red & self.blue:
            raise InvalidPositionError(f"cell {bit_list(self.red & self.blue)[0]} holds "
                                       "stones of both sides")
        n = popcount(self.red | self.blue)
        want = _red_count(n, self.protocol)
        if popcount(self.red) != want:
            raise InvalidPositionError(
                f"{popcount(self.red)} red and {popcount(self.blue)} blue stones cannot "
                f"arise under protocol {self.protocol} ({n} placements give red {want})")

    # --- facts ------------------------------------------------------------------------
    def copy(self):
        p = object.__new__(type(self))
        p.__dict__.update(self.__dict__)
        return p

    @property
    def ply(self) -> int:
        """Placements made so far."""
        return popcount(self.red | self.blue)

    @property
    def side(self) -> int:
        """The side to place (RED or BLUE)."""
        return side_of_placement(self.ply, self.protocol)[0]

    @property
    def side_name(self) -> str:
        return SIDE_NAMES[self.side]

    @property
    def placements_left(self) -> int:
        """Placements the side to move still makes in this turn (1 or 2)."""
        return side_of_placement(self.ply, self.protocol)[1]

    @property
    def placed_in_turn(self) -> int:
        """Placements the side to move has made in this turn already: 1 in the middle
        of a turn of two (one of its stones placed), else 0.

        >>> from szsolver.stargazers.fast import Position
        >>> [Position(t).placed_in_turn for t in ("stargazers:12-star:1-2:r=:b=",
        ...     "stargazers:12-star:1-2:r=9:b=", "stargazers:12-star:1-2:r=9:b=16")]
        [0, 0, 1]
        """
        if not self.ply:
            return 0
        return int(side_of_placement(self.ply - 1, self.protocol)[0] == self.side)

    @property
    def empty(self) -> int:
        return self.board.playable & ~(self.red | self.blue)

    def stones(self, side: int) -> int:
        return self.blue if side else self.red

    def __eq__(self, other) -> bool:
        return isinstance(other, PositionBase) and (
            self.board.name, self.red, self.blue, self.protocol) == (
            other.board.name, other.red, other.blue, other.protocol)

    def __hash__(self) -> int:
        return hash((self.board.name, self.red, self.blue, self.protocol))

    def __str__(self) -> str:
        return (f"{PREFIX}:{self.board.name}:{self.protocol}:"
                f"r={','.join(map(str, bit_list(self.red)))}:"
                f"b={','.join(map(str, bit_list(self.blue)))}")

    def __repr__(self) -> str:
        return f"Position({str(self)!r})"

    # --- the rules (back ends) --------------------------------------------------------
    def inspired(self) -> tuple[int, int]:
        """(red, blue): the masks of each side's inspired stones."""
        raise NotImplementedError

    def legal_mask(self, side: int | None = None) -> int:
        """The cells where ``side`` (default the side to move) may place now: empty
        playable cells where its stone would be inspired once placed."""
        raise NotImplementedError

    # --- derived ----------------------------------------------------------------------
    def legal_placements(self) -> list[int]:
        """The side to move's legal placements, ascending: single cells, not the
        family's turns of one or two placements (``legal_turns`` of the game's entry,
        :mod:`szsolver.games.stargazers`, builds those from these)."""
        return bit_list(self.legal_mask())

    def is_legal(self, cell: int) -> bool:
        return isinstance(cell, int) and 0 <= cell < self.board.size and \
            bool(self.legal_mask() >> cell & 1)

    def is_over(self) -> bool:
        """The game has ended: the side to move cannot place."""
        return self.legal_mask() == 0

    def placement_error(self, cell) -> str | None:
        """Why placing on ``cell`` is illegal here (None when it is legal)."""
        if not isinstance(cell, int) or isinstance(cell, bool):
            return f"a placement is a cell index, got {cell!r}"
        why = self.board.cell_error(cell)
        if why:
            return why
        if (self.red | self.blue) >> cell & 1:
            return f"cell {cell} is taken"
        if not self.legal_mask() >> cell & 1:
            if self.is_over():
                return f"the game is over: {self.side_name} cannot place"
            return (f"a {self.side_name} stone on cell {cell} would not be inspired "
                    "(it sees no star across an empty cell and no inspired "
                    f"{self.side_name} stone)")
        return None

    def play(self, cell: int) -> None:
        """Place the side to move's stone on ``cell``; IllegalTurnError naming why not."""
        why = self.placement_error(cell)
        if why:
            raise IllegalTurnError(why)
        self._place(cell)

    def _place(self, cell: int) -> None:
        """Place without checking (the caller knows it is legal)."""
        if self.side == RED:
            self.red |= 1 << cell
        else:
            self.blue |= 1 << cell

    def after(self, cell: int):
        """A copy with the side to move's stone on ``cell`` (checked)."""
        p = self.copy()
        p.play(cell)
        return p

    def uninspired(self) -> tuple[int, int]:
        """(red, blue): the masks of each side's uninspired stones."""
        r, b = self.inspired()
        return self.red & ~r, self.blue & ~b

    def scores(self) -> tuple[int, int]:
        """(red, blue): a side scores the opponent's uninspired stones."""
        ur, ub = self.uninspired()
        return popcount(ub), popcount(ur)

    def winner(self) -> int | None:
        """The winner (RED/BLUE) of a finished game, None while it goes on: the higher
        score wins; on a tie the side that could not place loses."""
        if not self.is_over():
            return None
        r, b = self.scores()
        if r != b:
            return RED if r > b else BLUE
        return 1 - self.side

    def result_text(self) -> str:
        """'red wins 3-1', 'blue wins 2-2 (red cannot place)' or 'unfinished, 1-0'."""
        r, b = self.scores()
        w = self.winner()
        if w is None:
            return f"unfinished, {r}-{b}"
        tie = f" ({self.side_name} cannot place)" if r == b else ""
        return f"{SIDE_NAMES[w]} wins {r}-{b}{tie}"
