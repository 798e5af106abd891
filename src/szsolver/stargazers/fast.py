"""The fast Stargazers rules: positions as Python ints used as bitboards.

Boards have up to 138 cells, more than one 64-bit word. A Python int is a bitmask of
any width, and its bit operations run in C over 30-bit digits: five digits for the
27-star board. On a line's mask, the first piece is the lowest set bit of
``line & occupied`` along a rising line and the highest along a falling one
(:mod:`.geometry`), so sight costs a few int operations per line.

Legal placements come from one pass over the mover's stones: their sight groups and
how many stars each sees. A stone placed on cell ``c`` joins the groups of the own
stones it sees first on its lines; the only sight those stones lose is the line through
``c``, and the line through ``c`` is the one they share with it. So ``c`` is legal when
it sees a star across an empty cell itself, or one of the groups it joins keeps a
star-gazer once the stars seen through ``c`` are taken away.

>>> p = Position()
>>> p.play(9)
>>> len(p.legal_placements()), p.scores()
(38, (0, 0))
"""
from __future__ import annotations

from .base import PositionBase

__all__ = ["Position", "first_pieces", "inspired_mask", "legal_mask"]


def _first(mask: int, rising: bool) -> int:
    """The first set bit along a line: lowest for a rising line, highest for a falling one."""
    return (mask & -mask).bit_length() - 1 if rising else mask.bit_length() - 1


def first_pieces(board, cell: int, occupied: int) -> list[int]:
    """The first occupied cell in each direction from ``cell`` (-1 where the line meets
    nothing), in the board's direction order E NE NW W SW SE."""
    out = []
    for d, line in enumerate(board.line_masks[cell]):
        m = line & occupied
        out.append(_first(m, d < 3) if m else -1)
    return out


def _sight(board, own: int, occupied: int):
    """(gazes, links) for every own stone: how many lines end at a star across an empty
    cell, and the own stones first on its lines."""
    stars = board.stars
    gazes = {}
    links = {}
    m = own
    while m:
        low = m & -m
        s = low.bit_length() - 1
        m ^= low
        g = 0
        near = board.neighbours[s]
        ls = []
        for d, line in enumerate(board.line_masks[s]):
            hit = line & occupied
            if not hit:
                continue
            f = (hit & -hit) if d < 3 else 1 << (hit.bit_length() - 1)
            if f & stars:
                if not f & near:
                    g += 1
            elif f & own:
                ls.append(f.bit_length() - 1)
        gazes[s] = g
        links[s] = ls
    return gazes, links


def inspired_mask(board, own: int, enemy: int) -> int:
    """The mask of the inspired stones of ``own`` (``enemy`` the other side's stones)."""
    gazes, links = _sight(board, own, board.stars | own | enemy)
    inspired = 0
    todo = [s for s, g in gazes.items() if g]
    for s in todo:
        inspired |= 1 << s
    while todo:
        s = todo.pop()
        for t in links[s]:
            if not inspired >> t & 1:
                inspired |= 1 << t
                todo.append(t)
    return inspired


def legal_mask(board, own: int, enemy: int) -> int:
    """The cells where a stone of ``own``'s side would be inspired once placed."""
    occupied = board.stars | own | enemy
    stars = board.stars
    gazes, links = _sight(board, own, occupied)
    # sight groups of own stones, and how many star-gazers each holds
    group = {}
    gazers = []
    for s in gazes:
        if s in group:
            continue
        gid = len(gazers)
        group[s] = gid
        todo = [s]
        n = 0
        while todo:
            t = todo.pop()
            if gazes[t]:
                n += 1
            for u in links[t]:
                if u not in group:
                    group[u] = gid
                    todo.append(u)
        gazers.append(n)
    legal = 0
    empty = board.playable & ~occupied
    lines = board.line_masks
    neighbours = board.neighbours
    while empty:
        low = empty & -empty
        c = low.bit_length() - 1
        empty ^= low
        first = [0] * 6
        ok = False
        for d, line in enumerate(lines[c]):
            hit = line & occupied
            if hit:
                f = (hit & -hit) if d < 3 else 1 << (hit.bit_length() - 1)
                first[d] = f
                if f & stars and not f & neighbours[c]:
                    ok = True
                    break
        if ok:
            legal |= low
            continue
        # own stones seen first: their groups merge with c; a stone whose line through
        # c ended at a star loses that gaze
        joined = {}
        for d in range(6):
            f = first[d]
            if f and f & own:
                s = f.bit_length() - 1
                g = group[s]
                lost = 1 if first[(d + 3) % 6] & stars else 0
                joined.setdefault(g, []).append((s, lost))
        for g, members in joined.items():
            left = gazers[g]
            for s, lost in members:
                if lost and gazes[s] == 1:
                    left -= 1
            if left > 0:
                ok = True
                break
        if ok:
            legal |= low
    return legal


class Position(PositionBase):
    """A Stargazers position on the fast back end (see :class:`.base.PositionBase`).
    The legal mask is computed once per position and kept."""

    backend = "fast"

    def copy(self):
        p = object.__new__(type(self))
        p.__dict__.update(self.__dict__)
        p._legal = None
        return p

    def _check(self) -> None:
        super()._check()
        self._legal = None

    def inspired(self) -> tuple[int, int]:
        b = self.board
        return inspired_mask(b, self.red, self.blue), inspired_mask(b, self.blue, self.red)

    def legal_mask(self, side: int | None = None) -> int:
        if side is None or side == self.side:
            if self._legal is None:
                own = self.stones(self.side)
                self._legal = legal_mask(self.board, own, self.stones(1 - self.side))
            return self._legal
        return legal_mask(self.board, self.stones(side), self.stones(1 - side))

    def _place(self, cell: int) -> None:
        super()._place(cell)
        self._legal = None
