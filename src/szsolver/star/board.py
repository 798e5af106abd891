"""Star boards as data: cells, names, neighbours and the partial border cells.

A board is the "limping" hexagon of hex cells with sides ``b, a, b, a, b, a``
(counter-clockwise from the bottom), built by one construction for any size
``a x b``: in axial coordinates (``q`` along a row, ``r`` up) the cells are

    -(a-1) <= q <= b-1,   0 <= r <= a+b-2,   0 <= q+r <= a+b-2.

The standard board is ``5x6``: 75 cells in rows of 6,7,8,9,10,9,8,7,6,5 from the
bottom. Cells are numbered bottom row first, left to right (that number is the
cell's bit in a mask). Names follow the usual diagram: rows 1..a+b-1 from the top
(``row = a+b-1 - r``), columns A, B, ... along one diagonal (``column = q + r``), so
the standard board's top row is F1-J1 and its bottom row A10-F10.

Around the board lie the **border cells** (not playable, used only for scoring):
every cell outside the board next to a board cell. Most touch two board cells;
the six *corner partials* touch one corner cell only. The corner variant removes
the corner partials, so each board corner counts as two border cells instead of three.
On a full board the two scores add up to (border cells - 2).

>>> b = STANDARD
>>> b.size, len(b.border), b.total, [len(r) for r in b.rows_bottom_up]
(75, 33, 31, [6, 7, 8, 9, 10, 9, 8, 7, 6, 5])
>>> b.name_of(0), b.cell_of("j1"), [b.name_of(c) for c in b.corner_cells]
('A10', 74, ['A10', 'F10', 'A6', 'J6', 'F1', 'J1'])
>>> by_name("5x6-corners").total, by_name("4x5").size, by_name("6x7").size
(25, 48, 108)
"""
from __future__ import annotations

from functools import lru_cache

from ..errors import ParseError, UnsupportedError
from ..inputs import is_digits, name_key, number, shown
from ..rules.bits import mask_of

__all__ = ["Board", "board", "by_name", "STANDARD", "BOARD_NAMES", "DIRECTIONS", "LETTERS"]

#: axial (dq, dr) of the six neighbours: E, NE, NW, W, SW, SE
DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: the sizes this project builds and tests (any a, b from 2 to 13 work)
BOARD_NAMES = ("5x6", "6x7", "4x5")
_MIN_SIDE, _MAX_SIDE = 2, 13


class Board:
    """One Star board (see the module doc). Attributes:

    - ``a``, ``b``: the sides (``5``, ``6`` for the standard board); ``corners``: the
      corner variant (no corner partials); ``name``: ``"5x6"`` or ``"5x6-corners"``.
    - ``cells``: (q, r) of each cell by number; ``index``: (q, r) -> number;
      ``size``: how many cells; ``full``: the mask of every cell.
    - ``neighbours[c]``: the board cells next to ``c``; ``neighbour_mask[c]`` as a mask.
    - ``border``: (q, r) of each border cell, numbered bottom row first, left to
      right; ``border_of[c]``: the border cells cell ``c`` touches;
      ``border_mask[c]`` the same as a mask over border numbers.
    - ``corner_cells``: the six board corners; ``corner_partials``: the border cells
      touching one board cell (none in the corner variant).
    - ``total``: what the two scores add up to on a full board (border cells - 2).
    """

    def __init__(self, a: int, b: int, corners: bool = False):
        if not (_MIN_SIDE <= a <= _MAX_SIDE and _MIN_SIDE <= b <= _MAX_SIDE):
            raise UnsupportedError(f"a Star board needs sides from {_MIN_SIDE} to "
                                   f"{_MAX_SIDE}, got {a}x{b}")
        self.a, self.b, self.corners = a, b, corners
        self.name = f"{a}x{b}" + ("-corners" if corners else "")
        top = a + b - 2                       # the highest r and the highest q + r
        self.row_count = top + 1
        self.cells = [(q, r) for r in range(top + 1) for q in range(-(a - 1), b)
                      if 0 <= q + r <= top]
        self.index = {c: i for i, c in enumerate(self.cells)}
        self.size = len(self.cells)
        self.full = (1 << self.size) - 1
        self.neighbours = tuple(
            tuple(self.index[(q + dq, r + dr)] for dq, dr in DIRECTIONS
                  if (q + dq, r + dr) in self.index)
            for q, r in self.cells)
        self.neighbour_mask = tuple(mask_of(n) for n in self.neighbours)
        outside = {(q + dq, r + dr) for q, r in self.cells for dq, dr in DIRECTIONS} \
            - set(self.index)
        touching = {o: [self.index[(o[0] + dq, o[1] + dr)] for dq, dr in DIRECTIONS
                        if (o[0] + dq, o[1] + dr) in self.index] for o in outside}
        partials = {o for o, t in touching.items() if len(t) == 1}
        ring = sorted(outside if not corners else outside - partials,
                      key=lambda o: (o[1], o[0]))
        self.border = ring
        self.border_index = {o: i for i, o in enumerate(ring)}
        self.corner_partials = tuple(i for i, o in enumerate(ring) if o in partials)
        self.border_of = tuple(
            tuple(sorted(self.border_index[(q + dq, r + dr)] for dq, dr in DIRECTIONS
                         if (q + dq, r + dr) in self.border_index))
            for q, r in self.cells)
        self.border_mask = tuple(mask_of(t) for t in self.border_of)
        self.corner_cells = tuple(sorted(touching[o][0] for o in partials))
        self.total = len(ring) - 2
        self.names = [f"{LETTERS[q + r]}{top + 1 - r}" for q, r in self.cells]
        self._by_name = {n: i for i, n in enumerate(self.names)}
        self._grid()

    # --- names ------------------------------------------------------------------------
    def name_of(self, cell: int) -> str:
        """The cell's name, like ``D3``."""
        return self.names[cell]

    def cell_of(self, text: str) -> int:
        """The cell a name like ``D3`` (any case) names; ParseError for any other text."""
        t = text.strip().upper() if isinstance(text, str) else None
        if t is None or t not in self._by_name:
            raise ParseError(f"no cell {shown(text)} on the {self.name} board (cells are named "
                             f"like {self.names[self.size // 2]}: column "
                             f"A-{LETTERS[self.row_count - 1]}, row 1-{self.row_count})")
        return self._by_name[t]

    @property
    def rows_top_down(self) -> list[list[int]]:
        """The cells of each row, row 1 (top) first, each left to right."""
        rows: list[list[int]] = [[] for _ in range(self.row_count)]
        for i, (_q, r) in enumerate(self.cells):
            rows[self.row_count - 1 - r].append(i)
        return rows

    @property
    def rows_bottom_up(self) -> list[list[int]]:
        return self.rows_top_down[::-1]

    def with_corners(self, corners: bool) -> "Board":
        """The same size with or without the corner variant."""
        return board(self.a, self.b, corners)

    def __repr__(self) -> str:
        return f"star.board({self.a}, {self.b}{', corners=True' if self.corners else ''})"

    # --- the padded grid of the playout scorer ----------------------------------------
    def _grid(self) -> None:
        """Board and border cells as bits of one grid, rows ``width`` bits apart with a
        spare column, so that a neighbour is a shift: E +1, W -1, NE +width,
        SW -width, NW +width-1, SE -width+1 (a shift across a row end lands in the
        spare column, which holds no cell)."""
        a, b = self.a, self.b
        self.width = w = a + b + 2

        def bit(q, r):
            return (r + 1) * w + (q + a)
        self.grid_bit = tuple(bit(q, r) for q, r in self.cells)
        self.grid_board = mask_of(self.grid_bit)
        self.grid_border = mask_of(bit(q, r) for q, r in self.border)


@lru_cache(maxsize=None)
def board(a: int = 5, b: int = 6, corners: bool = False) -> Board:
    """The ``a x b`` board (one object per size and variant)."""
    return Board(a, b, corners)


def by_name(name: str) -> Board:
    """A board by name: ``5x6`` (standard), ``6x7``, ``4x5``, any ``AxB``, with
    ``-corners`` for the corner variant; ParseError for anything else."""
    text = name_key(name) if isinstance(name, str) else ""
    size, dash, variant = text.partition("-")
    a, x, b = size.partition("x")
    if not (x and is_digits(a) and is_digits(b)) or (dash and variant != "corners"):
        raise ParseError(f"unknown Star board {shown(name)}: use a size like 5x6 (standard), "
                         "6x7 or 4x5, with -corners for the corner variant")
    try:
        return board(number(a, "a Star board's side", hi=_MAX_SIDE),
                     number(b, "a Star board's side", hi=_MAX_SIDE), bool(dash))
    except UnsupportedError as e:
        raise ParseError(str(e)) from None


STANDARD = board(5, 6)
