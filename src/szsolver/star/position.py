"""Star positions and moves: play, the pie rule, passing, the end, the scores, and
the text forms (move text, position string, diagram).

Black moves first; each turn a player puts a stone on an empty cell or passes, and
two passes in a row end the game (so does a full board: no stone can be placed, but
the two passes that close it by the rules are still legal, so a record that ends
with them reads; they change nothing).
The **pie rule**: on the game's second turn, when the board holds Black's first
stone and nothing else, White may ``swap`` instead: the stone becomes White's and
Black moves again. That is the two players exchanging sides in the colour terms
this project uses everywhere: a colour always moves after the other, and scores
are always named by colour.

Moves are ints: a cell number, :data:`PASS` or :data:`SWAP`; as text a cell name
(``D3``), ``pass`` or ``swap``.

Position string, one word: the game's prefix ``star``, the board (``5x6``,
``5x6-corners``...), the rows from row 1 (top) to the last, each left to right with
``.`` empty, ``B`` black, ``W`` white, separated by ``/``; the side to move (``B`` or
``W``); then ``pass`` when the last turn was a pass, or ``end`` when two passes ended
the game; the fields separated by ``:``. The prefix tells it from a Stars' Zone
position, which has none.

>>> p = Position()
>>> for m in ("E5", "swap", "D3"):
...     p.play(parse_move(m, p.board))
>>> print(p)
star:5x6:...../....../B....../......../...W...../........../........./......../......./......:W
>>> p.scores(), p.legal(SWAP), len(p.legal_turns())
((0, 0), False, 74)
>>> Position.from_string(str(p)) == p
True
"""
from __future__ import annotations

from ..errors import IllegalTurnError, InvalidPositionError, ParseError
from ..inputs import name_key, shown
from .board import STANDARD, by_name
from .groups import BLACK, EMPTY, WHITE, Groups

__all__ = ["BLACK", "WHITE", "EMPTY", "PASS", "SWAP", "COLOUR_NAMES", "GAME_NAME",
           "Position", "parse_move", "format_move", "diagram"]

PASS, SWAP = -1, -2
COLOUR_NAMES = ("black", "white")
GAME_NAME = "star"
_LETTERS = "BW"


class Position:
    """A Star position: ``board``, ``black`` and ``white`` (cell masks), ``side`` to
    move (BLACK 0 or WHITE 1) and ``passes`` (consecutive passes just made: 0, 1, or
    2 when they ended the game). ``groups`` is the incremental union-find behind
    :meth:`scores`. Any two disjoint sets of stones with either side to move can
    arise in play (passes let one colour get ahead), so those are all checked."""

    __slots__ = ("board", "black", "white", "side", "passes", "groups")

    def __init__(self, board=STANDARD, black: int = 0, white: int = 0, side: int = BLACK,
                 passes: int = 0, *, _groups=None):
        if isinstance(board, str):
            if board.strip().lower().startswith(GAME_NAME + ":"):    # a position string
                p = parse_position(board)
                board, black, white, side, passes = p.board, p.black, p.white, p.side, p.passes
            else:                                                    # a board's name
                board = by_name(board)
        if black & white:
            raise InvalidPositionError("a cell holds a black and a white stone")
        if (black | white) & ~board.full:
            raise InvalidPositionError(f"a stone outside the {board.name} board")
        if side not in (BLACK, WHITE) or passes not in (0, 1, 2):
            raise InvalidPositionError("side must be black or white, passes 0, 1 or 2")
        self.board, self.black, self.white = board, black, white
        self.side, self.passes = side, passes
        self.groups = _groups if _groups is not None else Groups(board, black, white)

    # --- facts ------------------------------------------------------------------------
    @property
    def empty(self) -> int:
        """The mask of empty cells."""
        return self.board.full & ~(self.black | self.white)

    def stones(self, colour: int) -> int:
        return self.white if colour else self.black

    def scores(self) -> tuple[int, int]:
        """(black, white): each colour's points for its stars now (final when over)."""
        return self.groups.score[0], self.groups.score[1]

    def value(self) -> int:
        """Black's score minus White's: the game's value from Black's side."""
        s = self.groups.score
        return s[0] - s[1]

    def is_over(self) -> bool:
        """Two passes in a row ended the game, or the board is full."""
        return self.passes >= 2 or not self.empty

    def swap_open(self) -> bool:
        """May the side to move swap? Only White, on the board of Black's first stone."""
        return (self.side == WHITE and self.passes == 0 and not self.white
                and self.black.bit_count() == 1)

    def legal(self, move: int) -> bool:
        if move == PASS:        # a full board's closing passes too (the module doc)
            return self.passes < 2
        if self.is_over():
            return False
        if move == SWAP:
            return self.swap_open()
        return isinstance(move, int) and not isinstance(move, bool) and \
            0 <= move < self.board.size and not (self.black | self.white) >> move & 1

    def is_legal(self, move) -> bool:
        """Whether ``move`` (as :meth:`play` takes it) is legal here (the name the
        other games' positions use)."""
        try:
            return self.legal(parse_move(move, self.board) if isinstance(move, str) else move)
        except ParseError:
            return False

    def winner(self) -> str | None:
        """'black', 'white' or 'draw' once the game is over (by the sign of
        :meth:`value`), None before."""
        if not self.is_over():
            return None
        v = self.value()
        return "black" if v > 0 else "white" if v < 0 else "draw"

    def _repr_svg_(self) -> str | None:
        """The position as SVG, so that it shows as a picture in a notebook."""
        return _draw_svg(self) if _draw_svg is not None else None

    def legal_turns(self, *, passes: bool = True) -> list[int]:
        """Every legal move: the empty cells in order, then ``swap`` when open, then
        ``pass`` (left out with ``passes=False``). None once the game is over (a full
        board's closing passes are legal, but they change nothing: none to search)."""
        if self.is_over():
            return []
        e, out = self.empty, []
        while e:
            low = e & -e
            out.append(low.bit_length() - 1)
            e ^= low
        if self.swap_open():
            out.append(SWAP)
        if passes:
            out.append(PASS)
        return out

    # --- changes ----------------------------------------------------------------------
    def play(self, move) -> None:
        """Play ``move`` (a cell, PASS or SWAP, or its text: ``D3``, ``pass``, ``swap``)
        in place; IllegalTurnError naming the problem when it is not legal, ParseError
        for text that is no move."""
        if isinstance(move, str):
            move = parse_move(move, self.board)
        if not self.legal(move):
            raise IllegalTurnError(self._why_illegal(move))
        if move == PASS:
            self.passes += 1
        elif move == SWAP:
            self.white, self.black = self.black, 0
            self.groups = Groups(self.board, 0, self.white)
            self.passes = 0
        else:
            if self.side == BLACK:
                self.black |= 1 << move
            else:
                self.white |= 1 << move
            self.groups.add(move, self.side)
            self.passes = 0
        self.side ^= 1

    def _why_illegal(self, move) -> str:
        if self.is_over():
            return "the game is over (two passes in a row, or a full board)"
        if move == SWAP:
            return "swap is only allowed to White right after Black's first stone"
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < self.board.size:
            return f"no move {move!r} on the {self.board.name} board"
        return f"{self.board.name_of(move)} is not empty"

    def after(self, move: int) -> "Position":
        """A copy with ``move`` played."""
        p = self.copy()
        p.play(move)
        return p

    def copy(self) -> "Position":
        g = Groups.__new__(Groups)
        src = self.groups
        g.board, g._nbrs, g._bmask = src.board, src._nbrs, src._bmask
        g.colour, g.parent, g.size = src.colour[:], src.parent[:], src.size[:]
        g.touch, g.score, g._history = src.touch[:], src.score[:], []
        return Position(self.board, self.black, self.white, self.side, self.passes, _groups=g)

    # --- text -------------------------------------------------------------------------
    def __str__(self) -> str:
        return position_string(self)

    def __repr__(self) -> str:
        return f"star.Position({position_string(self)!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Position) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> tuple:
        return (self.board.name, self.black, self.white, self.side, self.passes)

    @classmethod
    def from_string(cls, text: str) -> "Position":
        """Read a position string (see the module doc); ParseError names the problem."""
        return parse_position(text)


#: draws a position as SVG (:func:`szsolver.star.svg.position_svg`), plugged in by the
#: package (the picture module sits above this one)
_draw_svg = None


def set_svg_drawer(draw) -> None:
    """Let positions draw themselves with ``draw(position) -> SVG text``."""
    global _draw_svg
    _draw_svg = draw


def format_move(move: int, board=STANDARD) -> str:
    """A move's text: a cell name, ``pass`` or ``swap``."""
    if move == PASS:
        return "pass"
    if move == SWAP:
        return "swap"
    if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < board.size:
        raise IllegalTurnError(f"no move {move!r} on the {board.name} board")
    return board.name_of(move)


def parse_move(text: str, board=STANDARD) -> int:
    """A move from text (``D3``, ``pass``, ``swap``, any case); ParseError otherwise.
    Whether it is legal is the position's question."""
    if not isinstance(text, str) or not text.strip():
        raise ParseError(f"bad move {text!r}: expected a cell like D3, pass or swap")
    t = text.strip().lower()
    if t == "pass":
        return PASS
    if t == "swap":
        return SWAP
    return board.cell_of(t)


def position_string(pos: Position) -> str:
    """The position string (see the module doc)."""
    b = pos.board
    rows = []
    for row in b.rows_top_down:
        rows.append("".join("B" if pos.black >> c & 1 else "W" if pos.white >> c & 1 else "."
                            for c in row))
    tail = {0: "", 1: ":pass", 2: ":end"}[pos.passes]
    return f"{GAME_NAME}:{b.name}:{'/'.join(rows)}:{_LETTERS[pos.side]}{tail}"


def parse_position(text: str) -> Position:
    """A Position from its string; ParseError for text that does not parse."""
    if not isinstance(text, str):
        raise ParseError("a Star position string is text")
    t = text.strip()
    if any(ch.isspace() for ch in t):       # one word, as every position's fields are
        raise ParseError(f"a Star position string has no space inside, got {shown(t)}")
    parts = t.split(":")
    if not parts or name_key(parts[0]) != GAME_NAME:
        raise ParseError(f"a Star position string starts with '{GAME_NAME}:', like "
                         f"'{GAME_NAME}:5x6:ROWS:B'")
    if not 4 <= len(parts) <= 5 or any(not p or p != p.strip() for p in parts):
        raise ParseError("a Star position string is star:BOARD:ROWS:SIDE with :pass or "
                         f":end after a pass, got {shown(text.strip())}")
    board = by_name(parts[1])
    rows = parts[2].split("/")
    want = board.rows_top_down
    if len(rows) != len(want):
        raise ParseError(f"the {board.name} board has {len(want)} rows separated by '/', "
                         f"got {len(rows)}")
    black = white = 0
    for k, (text_row, cells) in enumerate(zip(rows, want)):
        if len(text_row) != len(cells):
            raise ParseError(f"row {k + 1} has {len(cells)} cells, got {len(text_row)} "
                             f"({shown(text_row)})")
        for ch, c in zip(text_row.upper(), cells):
            if ch == "B":
                black |= 1 << c
            elif ch == "W":
                white |= 1 << c
            elif ch != ".":
                raise ParseError(f"row {k + 1}: {ch!r} is not '.', 'B' or 'W'")
    side = parts[3].upper()
    if side not in ("B", "W"):
        raise ParseError(f"side to move must be B or W, got {shown(parts[3])}")
    passes = 0
    if len(parts) == 5:
        flag = parts[4].lower()
        if flag not in ("pass", "end"):
            raise ParseError(f"after the side comes 'pass' or 'end', got {parts[4]!r}")
        passes = 1 if flag == "pass" else 2
    return Position(board, black, white, _LETTERS.index(side), passes)


def diagram(pos: Position, status: bool = True) -> str:
    """The board as text, row 1 on top, hex rows staggered, each row's cell names at
    the right (``B`` black, ``W`` white, ``.`` empty); then side to move and scores."""
    b = pos.board
    rows = b.rows_top_down
    widest = max(len(r) for r in rows)
    lines = []
    for k, row in enumerate(rows):
        cells = " ".join("B" if pos.black >> c & 1 else "W" if pos.white >> c & 1 else "."
                         for c in row)
        pad = " " * (widest - len(row))
        right = " " * (2 * widest - 1 - len(pad) - len(cells))
        lines.append(f"{k + 1:>3}  {pad}{cells}{right}  {b.name_of(row[0])}-{b.name_of(row[-1])}")
    if status:
        s = pos.scores()
        if pos.is_over():
            lines.append(f"Game over: black {s[0]}, white {s[1]}.")
        else:
            lines.append(f"{COLOUR_NAMES[pos.side].capitalize()} to move"
                         + (" (swap allowed)" if pos.swap_open() else "")
                         + (" after a pass" if pos.passes == 1 else "")
                         + f"; score black {s[0]}, white {s[1]}.")
    return "\n".join(lines)
