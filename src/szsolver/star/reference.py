"""The scoring rules in plain Python, straight from the coordinates: the reference
the fast scorers are tested against.

A group is a maximal set of same-coloured stones connected through adjacent cells;
it touches a border cell when one of its stones is next to it. A group touching
``k >= 3`` distinct border cells is a star worth ``k - 2``; a player's score is the
sum over their stars. This module walks groups with sets of (q, r) coordinates and
finds border cells by looking at each stone's six neighbours, using nothing of the
board's precomputed tables but its cells and border cells.

>>> from szsolver.star.board import STANDARD
>>> b = STANDARD
>>> stones = {b.cell_of(n) for n in ("A10", "B10", "C10")}   # three bottom cells
>>> reference_groups(b, stones)
[([0, 1, 2], 5)]
>>> reference_score(b, stones)
3
"""
from __future__ import annotations

from collections.abc import Iterable

__all__ = ["reference_groups", "reference_score", "reference_scores"]

_STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def reference_groups(board, stones: Iterable[int]) -> list[tuple[list[int], int]]:
    """The groups of one colour's ``stones`` (cell numbers): (sorted cells, number of
    distinct border cells touched), groups ordered by their lowest cell."""
    coords = {board.cells[c]: c for c in stones}
    border = set(board.border)
    seen: set = set()
    out = []
    for start in sorted(coords, key=coords.get):
        if start in seen:
            continue
        seen.add(start)
        todo, group, touched = [start], [], set()
        while todo:
            q, r = todo.pop()
            group.append(coords[(q, r)])
            for dq, dr in _STEPS:
                n = (q + dq, r + dr)
                if n in border:
                    touched.add(n)
                elif n in coords and n not in seen:
                    seen.add(n)
                    todo.append(n)
        out.append((sorted(group), len(touched)))
    return out


def reference_score(board, stones: Iterable[int]) -> int:
    """One colour's score: the sum of ``k - 2`` over its groups touching ``k >= 3``
    border cells."""
    return sum(k - 2 for _g, k in reference_groups(board, stones) if k >= 3)


def reference_scores(board, black: Iterable[int], white: Iterable[int]) -> tuple[int, int]:
    """(black score, white score)."""
    return reference_score(board, black), reference_score(board, white)
