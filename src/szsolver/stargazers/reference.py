"""Pure-Python reference of the Stargazers rules, written straight from the rules text.

Clarity, not speed: sight walks each line cell by cell; inspiration is grown from the
star-gazers until nothing changes; a placement is tried on a copy and kept only if the
new stone ends up inspired. The fast back end (:mod:`.fast`) must agree with it on
every position (the test suite plays random games on both).

>>> p = Position()
>>> p.play(9)
>>> sorted(sees_stars(p.board, 9, set(p.board.star_cells)))
[0, 5, 12, 41]
"""
from __future__ import annotations

from ..rules.bits import bit_list
from .base import PositionBase

__all__ = ["Position", "first_pieces", "sees_stars", "inspired_cells"]


def first_pieces(board, cell: int, occupied: set) -> list[int]:
    """The first occupied cell along each of the six lines from ``cell`` (lines that
    meet nothing are left out)."""
    seen = []
    for line in board.lines[cell]:
        for c in line:
            if c in occupied:
                seen.append(c)
                break
    return seen


def _adjacent(board, a: int, b: int) -> bool:
    return any(line and line[0] == b for line in board.lines[a])


def sees_stars(board, cell: int, occupied: set) -> list[int]:
    """The stars ``cell`` sees across at least one empty cell (a first piece that is a
    star and not adjacent)."""
    stars = set(board.star_cells)
    return [c for c in first_pieces(board, cell, occupied)
            if c in stars and not _adjacent(board, cell, c)]


def inspired_cells(board, own: set, enemy: set) -> set:
    """The inspired stones among ``own``: those that see a star across an empty cell,
    then, until nothing changes, those whose first piece on a line is an inspired
    ``own`` stone."""
    occupied = set(board.star_cells) | own | enemy
    inspired = {s for s in own if sees_stars(board, s, occupied)}
    changed = True
    while changed:
        changed = False
        for s in own - inspired:
            if any(c in inspired for c in first_pieces(board, s, occupied)):
                inspired.add(s)
                changed = True
    return inspired


def _mask(cells) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


class Position(PositionBase):
    """A Stargazers position on the reference back end (see :class:`.base.PositionBase`)."""

    backend = "reference"

    def inspired(self) -> tuple[int, int]:
        red, blue = set(bit_list(self.red)), set(bit_list(self.blue))
        return (_mask(inspired_cells(self.board, red, blue)),
                _mask(inspired_cells(self.board, blue, red)))

    def legal_mask(self, side: int | None = None) -> int:
        side = self.side if side is None else side
        own = set(bit_list(self.stones(side)))
        enemy = set(bit_list(self.stones(1 - side)))
        legal = 0
        for c in bit_list(self.empty):
            if c in inspired_cells(self.board, own | {c}, enemy):
                legal |= 1 << c
        return legal
