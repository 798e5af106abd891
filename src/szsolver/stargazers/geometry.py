"""The three Stargazers boards, read from the board data shipped with the package.

A board is a set of hex cells numbered bottom row first, left to right (the
designer's app numbers them so). Some cells hold a **star** from the start; stones go
on the others, the **playable** cells. From every cell, six straight lines run to the
board's edge (or a gap): E, NE, NW, W, SW, SE. Along E, NE and NW the cell numbers
rise, along W, SW and SE they fall, so on a bitmask the first piece along a line is
the lowest (rising lines) or highest (falling lines) set bit of the line's mask
masked by the occupied cells: the fast rules (:mod:`.fast`) use exactly that.

>>> b = board("12-star")
>>> b.size, len(b.star_cells), b.playable.bit_count()
(51, 12, 39)
>>> b.lines[2][0], b.lines[2][3]      # cell 2, looking east and west
((3, 4), (1,))
>>> sorted(BOARDS), DEFAULT_BOARD
(['12-star', '18-star', '27-star'], '12-star')
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib.resources import files

from ..errors import ParseError
from ..inputs import name_key, shown
from ..rules.bits import mask_of

__all__ = ["Board", "board", "BOARDS", "DEFAULT_BOARD", "DIRECTIONS", "RISING"]

#: the six line directions, in the board data's order
DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")
#: directions along which cell numbers rise (the others fall)
RISING = (True, True, True, False, False, False)
#: board name -> data file in ``szsolver/stargazers/boards``
BOARDS = {"12-star": "stargazers_12star.json", "18-star": "stargazers_18star.json",
          "27-star": "stargazers_27star.json"}
DEFAULT_BOARD = "12-star"


class Board:
    """One Stargazers board (immutable; get it with :func:`board`).

    Attributes: ``name``, ``size`` (cells), ``stars`` / ``playable`` / ``full`` (masks),
    ``star_cells`` (sorted tuple), ``coords`` (axial ``(q, r)`` per cell), ``xy`` (centre
    per cell, unit hexes, y up), ``lines[cell][d]`` (cells along direction ``d``, nearest
    first), ``line_masks[cell][d]`` (the same as a mask), ``neighbours[cell]`` (mask of
    the adjacent cells), ``rot120`` (the board's rotation as a cell permutation),
    ``rim`` (mask), and ``data`` (the raw board data, test vectors included).
    """

    def __init__(self, name: str, data: dict):
        self.name = name
        self.data = data
        self.size = int(data["num_cells"])
        cells = data["cells"]
        if [c["index"] for c in cells] != list(range(self.size)):
            raise ValueError(f"board {name}: cells out of order")
        self.star_cells = tuple(sorted(data["star_indices"]))
        self.stars = mask_of(self.star_cells)
        self.full = (1 << self.size) - 1
        self.playable = self.full & ~self.stars
        self.coords = tuple((c["q"], c["r"]) for c in cells)
        self.xy = tuple((c["x"], c["y"]) for c in cells)
        self.lines = tuple(tuple(tuple(data["rays"][i][d]) for d in DIRECTIONS)
                           for i in range(self.size))
        self.line_masks = tuple(tuple(mask_of(line) for line in ls) for ls in self.lines)
        self.neighbours = tuple(mask_of(line[0] for line in ls if line) for ls in self.lines)
        self.rot120 = tuple(data["symmetry"]["rot120_permutation"])
        self.rim = mask_of(data["rim_indices"])

    def __repr__(self) -> str:
        return f"board({self.name!r})"

    def cell_error(self, cell: int) -> str | None:
        """Why ``cell`` cannot take a stone (None when it is a playable cell)."""
        if not 0 <= cell < self.size:
            return f"no cell {cell} on the {self.name} board (cells 0-{self.size - 1})"
        if self.stars >> cell & 1:
            return f"cell {cell} holds a star"
        return None


def board(name=DEFAULT_BOARD) -> Board:
    """The board called ``name`` (``12-star``, ``18-star``, ``27-star``; ``12`` and
    ``12star`` are accepted too; a Board is returned as is). ParseError for any other
    name. Each board is read once and shared."""
    if isinstance(name, Board):
        return name
    key = name_key(str(name)).replace("star", "").strip("- ")
    full = f"{key}-star"
    if full not in BOARDS:
        raise ParseError(f"unknown Stargazers board {shown(str(name))}: use "
                         + ", ".join(BOARDS))
    return _load(full)


@lru_cache(maxsize=None)
def _load(full: str) -> Board:
    text = (files("szsolver.stargazers") / "boards" / BOARDS[full]).read_text(encoding="utf-8")
    return Board(full, json.loads(text))
