"""Early end: what is already settled in a Stargazers position.

Stones are only ever added, so sight lines only get shorter. From that:

- A side's **reach** is every own stone and empty cell that could still be inspired:
  grow it from the cells that see a star across empty cells only, along lines of empty
  cells and own stones (any chain of inspiration later on runs along such lines,
  because the cells between its links are empty then, so empty now). A stone outside
  its side's reach is **dead**: uninspired for the rest of the game.
- A stone is **safe** (inspired for the rest of the game) when it is tied to a
  permanent gaze by permanent links: a gaze whose empty cells between stone and star
  no side can ever fill (they are in neither side's reach), a link to an own stone whose
  empty cells between only the owner can fill (an own stone placed there keeps the
  chain). A stone later placed next to a safe stone is safe too.

A side's **assured** score is the opponent's dead stones: it can only grow. Its
**potential** is the most it could still reach: every opponent stone that is not
safe, and every empty cell in the opponent's reach that is not next to a safe
opponent stone. The final score lies between the two, so a side whose assured
score exceeds the opponent's potential has won (the game is decided). Once the game
is over both bounds are the final scores.

These are proofs, so they are cautious: a side's own later stone can cut its own gaze
(a stone placed next to the star sees it from too close), which leaves few stones safe
before the end, and a potential that stays high until the last placements.

>>> from szsolver.stargazers.fast import Position
>>> s = status(Position())
>>> s.assured, s.potential, s.decided
((0, 0), (39, 39), None)
"""
from __future__ import annotations

from dataclasses import dataclass

from ..rules.bits import popcount
from .base import BLUE, RED

__all__ = ["Status", "status", "reach", "safe_stones"]


def _segments(board, cell: int, occupied: int):
    """For each line from ``cell``: (mask of the empty cells before the first piece,
    the first piece's bit or 0)."""
    for d, line in enumerate(board.line_masks[cell]):
        hit = line & occupied
        if not hit:
            yield line, 0
        elif d < 3:
            f = hit & -hit
            yield line & (f - 1), f
        else:
            f = 1 << (hit.bit_length() - 1)
            yield line & ~((f << 1) - 1), f


def reach(board, own: int, enemy: int) -> int:
    """The own stones and empty cells that could still be inspired for ``own``'s side."""
    occupied = board.stars | own | enemy
    empty = board.playable & ~occupied
    nodes = own | empty
    stars = board.stars
    edges = {}
    start = 0
    m = nodes
    while m:
        low = m & -m
        x = low.bit_length() - 1
        m ^= low
        near = 0
        for between, f in _segments(board, x, occupied):
            near |= between
            if f & stars:
                if not f & board.neighbours[x]:
                    start |= low
            elif f & own:
                near |= f
        edges[x] = near
    seen = start
    todo = start
    while todo:
        low = todo & -todo
        todo ^= low
        new = edges[low.bit_length() - 1] & ~seen
        seen |= new
        todo |= new
    return seen


def safe_stones(board, own: int, enemy: int, own_reach: int, enemy_reach: int) -> int:
    """The own stones inspired for the rest of the game (see the module doc)."""
    occupied = board.stars | own | enemy
    stars = board.stars
    fillable = own_reach | enemy_reach
    start = 0
    links = {}
    m = own
    while m:
        low = m & -m
        x = low.bit_length() - 1
        m ^= low
        ls = 0
        for between, f in _segments(board, x, occupied):
            if f & stars:
                if not f & board.neighbours[x] and not between & fillable:
                    start |= low
            elif f & own and not between & enemy_reach:
                ls |= f
        links[x] = ls
    seen = start
    todo = start
    while todo:
        low = todo & -todo
        todo ^= low
        new = links[low.bit_length() - 1] & ~seen
        seen |= new
        todo |= new
    return seen


@dataclass(frozen=True)
class Status:
    """What is settled, per side as (red, blue): ``dead`` and ``safe`` stones (masks),
    ``reach`` (masks), ``assured`` and ``potential`` scores, and ``decided``: the side
    that has won already (RED/BLUE) or None."""
    dead: tuple
    safe: tuple
    reach: tuple
    assured: tuple
    potential: tuple
    decided: int | None


def status(position) -> Status:
    """The settled part of ``position`` (either back end)."""
    b = position.board
    red, blue = position.red, position.blue
    rr, br = reach(b, red, blue), reach(b, blue, red)
    rs, bs = safe_stones(b, red, blue, rr, br), safe_stones(b, blue, red, br, rr)
    dead = (red & ~rr, blue & ~br)
    empty = b.playable & ~(red | blue)

    def next_to(mask):
        n = 0
        while mask:
            low = mask & -mask
            mask ^= low
            n |= b.neighbours[low.bit_length() - 1]
        return n

    # a side's potential: the opponent's stones that are not safe, and the empty cells
    # the opponent could still fill that would not be safe at once
    potential = (popcount(blue & ~bs) + popcount(empty & br & ~next_to(bs)),
                 popcount(red & ~rs) + popcount(empty & rr & ~next_to(rs)))
    assured = (popcount(dead[BLUE]), popcount(dead[RED]))
    decided = None
    if position.is_over():
        # nothing changes any more: both bounds are the final scores
        assured = potential = position.scores()
        decided = position.winner()
    elif assured[RED] > potential[BLUE]:
        decided = RED
    elif assured[BLUE] > potential[RED]:
        decided = BLUE
    return Status(dead, (rs, bs), (rr, br), assured, potential, decided)
