"""Fast scoring: an incremental union-find of groups, and a shift-based flood fill.

:class:`Groups` keeps each colour's groups as stones are added one at a time (Star
never removes a stone): a union-find by size whose roots carry the mask of border
cells the group touches, and each colour's score, updated in constant time per
stone. :meth:`Groups.undo` takes the last stone back, so a search walks a tree on
one structure. Two groups of one colour never share a border cell (the two board
cells next to a border cell are neighbours), so a merge never loses points.

:func:`grid_score` scores one colour of a whole board at once with the board's
padded grid (neighbours are bit shifts, border cells are bits of the same grid):
the playouts' scorer.

Both are tested against :mod:`szsolver.star.reference` on random boards.

>>> from szsolver.star.board import STANDARD
>>> g = Groups(STANDARD)
>>> for name in ("A10", "B10", "C10"):
...     g.add(STANDARD.cell_of(name), BLACK)
>>> g.score
[3, 0]
>>> g.undo(); g.score
[2, 0]
>>> grid_score(STANDARD, grid_mask(STANDARD, 0b111))
3
"""
from __future__ import annotations

__all__ = ["BLACK", "WHITE", "EMPTY", "Groups", "star_points", "grid_mask", "grid_score",
           "full_board_scores"]

BLACK, WHITE, EMPTY = 0, 1, -1


def star_points(k: int) -> int:
    """What a group touching ``k`` distinct border cells scores: ``k - 2`` from 3 on."""
    return k - 2 if k >= 3 else 0


class Groups:
    """The groups of both colours on ``board`` as stones are added (see the module doc).

    Attributes: ``colour[c]`` (BLACK, WHITE or EMPTY), ``score`` ([black, white]).
    :meth:`add` places a stone on an empty cell, :meth:`undo` removes the last one,
    :meth:`root`, :meth:`border_count` describe a stone's group.
    """

    __slots__ = ("board", "colour", "parent", "size", "touch", "score", "_history",
                 "_nbrs", "_bmask")

    def __init__(self, board, black: int = 0, white: int = 0):
        self.board = board
        n = board.size
        self.colour = [EMPTY] * n
        self.parent = list(range(n))
        self.size = [1] * n
        self.touch = list(board.border_mask)
        self.score = [0, 0]
        self._history: list = []
        self._nbrs = board.neighbours
        self._bmask = board.border_mask
        for c in range(n):
            if black >> c & 1:
                self.add(c, BLACK)
            elif white >> c & 1:
                self.add(c, WHITE)
        self._history.clear()

    def root(self, c: int) -> int:
        """The root of the group holding the stone on ``c``."""
        parent = self.parent
        while parent[c] != c:
            c = parent[c]
        return c

    def border_count(self, c: int) -> int:
        """How many border cells the group of the stone on ``c`` touches."""
        return self.touch[self.root(c)].bit_count()

    def add(self, c: int, col: int) -> None:
        """Put a stone of colour ``col`` on the empty cell ``c``."""
        colour, parent, size, touch = self.colour, self.parent, self.size, self.touch
        roots = []
        for n in self._nbrs[c]:
            if colour[n] == col:
                while parent[n] != n:
                    n = parent[n]
                if n not in roots:
                    roots.append(n)
        colour[c] = col
        if not roots:
            self._history.append((c, col, None, (), 0, 0))
            self.score[col] += star_points(self._bmask[c].bit_count())
            return
        main = max(roots, key=size.__getitem__)
        old_touch, old_size = touch[main], size[main]
        merged, before, grown = self._bmask[c] | old_touch, 0, old_size + 1
        for r in roots:
            before += star_points(touch[r].bit_count())
            if r != main:
                merged |= touch[r]
                grown += size[r]
                parent[r] = main
        parent[c] = main
        size[main] = grown
        touch[main] = merged
        self.score[col] += star_points(merged.bit_count()) - before
        self._history.append((c, col, main, roots, old_touch, old_size))

    def undo(self) -> None:
        """Take back the last stone added."""
        c, col, main, roots, old_touch, old_size = self._history.pop()
        self.colour[c] = EMPTY
        if main is None:
            self.score[col] -= star_points(self._bmask[c].bit_count())
            return
        touch, parent = self.touch, self.parent
        after = star_points(touch[main].bit_count())
        parent[c] = c
        before = 0
        for r in roots:
            if r != main:
                parent[r] = r
                before += star_points(touch[r].bit_count())
        touch[main], self.size[main] = old_touch, old_size
        before += star_points(old_touch.bit_count())
        self.score[col] += before - after


def grid_mask(board, cells: int) -> int:
    """A mask of cells as a mask of the board's padded grid."""
    out, bits = 0, board.grid_bit
    while cells:
        low = cells & -cells
        out |= 1 << bits[low.bit_length() - 1]
        cells ^= low
    return out


def grid_score(board, stones: int) -> int:
    """The score of one colour whose stones are ``stones`` (a grid mask)."""
    w, border = board.width, board.grid_border
    w1 = w - 1
    total, rest = 0, stones
    while rest:
        g = rest & -rest
        while True:
            d = g | g << 1 | g >> 1 | g << w | g >> w | g << w1 | g >> w1
            grown = d & stones
            if grown == g:
                break
            g = grown
        rest &= ~g
        k = (d & border).bit_count()
        if k >= 3:
            total += k - 2
    return total


def full_board_scores(board, black: int) -> tuple[int, int]:
    """(black, white) on a full board whose black stones are ``black`` (a cell mask):
    White's score is the board's total minus Black's."""
    s = grid_score(board, grid_mask(board, black))
    return s, board.total - s
