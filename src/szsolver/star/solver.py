"""Exact values of late Star positions: the value, every optimal move, every move's
value, a line of best play.

Contracts
---------
* The value is Black's final score minus White's under perfect play (Black
  maximises); its sign is the winner (on a full standard board it is odd: no draws).
* ``SolveResult.exact``: the value was proved (then ``value == lower == upper``,
  ``best`` holds every optimal move, ``moves`` every legal move's exact value).
  When a node or time limit stops the search first, ``value`` is None and
  ``lower <= value <= upper`` are the proved bounds of the position (what each colour
  already has, and the most it could still reach). A limit never raises: ``stopped``
  says what stopped the search (None when nothing did); when it struck after the value
  was proved, the answer stays exact and ``best`` and ``pv`` hold what was proved by
  then (``complete`` is False). A Ctrl-C during the search stops it the same way
  (``stopped == "interrupted"``, the Stars' Zone solver's word), so the command can
  print what was proved before it ends as interrupted.
* Deterministic: node limits never depend on the clock.

How the game's structure makes it fast
--------------------------------------
* **Passing never helps, so the search only fills the board.** A stone never costs
  its owner a point and never gives the opponent one (two groups of one colour never
  share a border cell, so joining them never loses points; the opponent's groups do
  not change). By stealing the strategy that follows a pass, a stone is always at
  least as good as a pass; so, from a position where nobody has just passed, the
  value is that of the game where both sides fill the board. Passes and ``swap`` are
  valued at the root only (a pass lets the opponent end the game at once), and on a
  board without stones at each first stone too: Black's first stone opens the swap.
  The tests check all of this against a plain minimax with passes.
* **Dead cells** are left out: an empty cell whose neighbours are all stones of one
  group that already touches every border cell the cell touches (and at most two, so
  a lone opposing stone there scores nothing) changes no score whoever fills it, so
  filling it is a pass.
* **Points already decided bound the value**: a colour's stars never lose points,
  so the scores now are lower bounds of the final ones; the score each colour would
  have with every empty cell is an upper bound; and on a full board the two add up to
  the board's total. A node whose window these bounds settle is not searched.
* A union-find of the groups updated stone by stone (:class:`~szsolver.star.groups.Groups`)
  gives the scores at every node, a transposition table the values already proved,
  and the history heuristic orders the moves (a cell that refuted one line usually
  refutes its neighbours: 20 times fewer nodes at 12 empty cells).

>>> from szsolver.star.position import Position, format_move
>>> p = Position.from_string("star:4x5:BWWB/BBWW./BWWBBW/WB.W.WB/BB.BBBWW/BWBWBWW/BWBB.W/WBWW.:B")
>>> res = solve(p, all_turns=True)
>>> res.value, describe(res.value), [format_move(m, p.board) for m in res.best]
(1, 'Black wins by 1 point', ['E8', 'H2'])
>>> [(format_move(m.turn, p.board), m.value) for m in res.turns][-2:]
[('F4', -1), ('pass', -1)]
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .. import interrupt
from ..errors import UnsupportedError
from ..limits import check_count, check_seconds
from ..verdict import wins_by
from .groups import BLACK, Groups, grid_mask, grid_score
from .position import COLOUR_NAMES, PASS, SWAP, Position, format_move, position_string

__all__ = ["solve", "SolveResult", "TurnValue", "dead_cells", "describe", "MAX_EMPTY_WITHOUT_LIMIT"]

#: positions with more live empty cells need a node or time limit (the search grows
#: about tenfold every two cells; docs/star.md has the figures)
MAX_EMPTY_WITHOUT_LIMIT = 16
_CHECK_EVERY = 1024
_INF = 10 ** 6


@dataclass
class TurnValue:
    """One legal turn's exact value (Black's side): Stars' Zone's
    :class:`szsolver.endgame.prover.TurnValue` without its bounds and symmetry group
    (Star's solver values every turn exactly, with no symmetries)."""
    turn: int
    value: int


@dataclass
class SolveResult:
    """The answer of :func:`solve`; see the module doc for the contracts."""
    position: str
    value: int | None
    exact: bool
    lower: int
    upper: int
    best: list[int] = field(default_factory=list)
    turns: list[TurnValue] | None = None
    pv: list[int] = field(default_factory=list)
    empty: int = 0
    dead: int = 0
    nodes: int = 0
    seconds: float = 0.0
    stopped: str | None = None
    board: object = None
    best_complete: bool = True
    pv_complete: bool = True

    @property
    def complete(self) -> bool:
        """Whether everything asked for was proved (no limit stopped the search)."""
        return self.stopped is None

    @property
    def winner(self) -> str | None:
        if not self.exact:
            return ("black" if self.lower > 0 else "white" if self.upper < 0 else None)
        return "black" if self.value > 0 else "white" if self.value < 0 else "draw"

    def to_json(self) -> dict:
        b = self.board
        return {"game": "star", "position": self.position, "value": self.value,
                "exact": self.exact, "lower": self.lower, "upper": self.upper,
                "winner": self.winner, "best": [format_move(m, b) for m in self.best],
                "pv": [format_move(m, b) for m in self.pv], "empty_cells": self.empty,
                "dead_cells": self.dead, "nodes": self.nodes,
                "seconds": round(self.seconds, 3), "stopped": self.stopped,
                "complete": self.complete,
                # every move's value, when asked for (Stars' Zone's --all-turns key)
                **({} if self.turns is None else {"turns": [
                    {"turn": format_move(m.turn, b), "value": m.value} for m in self.turns]})}


class _Stop(Exception):
    """A limit stopped the search."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def dead_cells(board, groups, empty: int) -> int:
    """The mask of dead empty cells (see the module doc) given the ``groups`` of the
    stones on the board."""
    colour, bmask, nmask, touch = groups.colour, board.border_mask, board.neighbour_mask, \
        groups.touch
    dead = 0
    e = empty
    while e:
        low = e & -e
        c = low.bit_length() - 1
        e ^= low
        if nmask[c] & empty or bmask[c].bit_count() > 2:
            continue
        nbrs = board.neighbours[c]
        x = colour[nbrs[0]]
        if any(colour[n] != x for n in nbrs):
            continue
        root = groups.root(nbrs[0])
        if all(groups.root(n) == root for n in nbrs) and not bmask[c] & ~touch[root]:
            dead |= low
    return dead


class _Search:
    """Fill-the-board alpha-beta, Black's side, fail-soft, with a transposition table."""

    def __init__(self, pos: Position, node_limit: int | None, deadline: float | None):
        self.board = b = pos.board
        self.groups = Groups(b, pos.black, pos.white)
        self.total = b.total
        self.size = b.size
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self.progress = None        # told ("solver", nodes, node_limit) now and then
        self.tt: dict[int, tuple[int, int, int]] = {}
        self.order_key = [2 * len(b.border_of[c]) for c in range(b.size)]
        # history heuristic: moves that refuted a node before, weighted by its depth
        self.history = [0] * b.size

    def bounds(self, black: int, white: int) -> tuple[int, int]:
        """Proved bounds of the fill-the-board value from the stones alone."""
        bn, wn = self.groups.score
        t = self.total
        empty = self.board.full & ~(black | white)
        if not empty:
            return bn - wn, bn - wn
        b = self.board
        bmax = grid_score(b, grid_mask(b, black | empty))
        wmax = grid_score(b, grid_mask(b, white | empty))
        return max(2 * bn - t, t - 2 * wmax), min(t - 2 * wn, 2 * bmax - t)

    def search(self, black: int, white: int, gb: int, gw: int, side: int, alpha: int,
               beta: int) -> int:
        """The value of the stones ``black``, ``white`` (``gb``, ``gw``: the same on the
        padded grid) with ``side`` to move, fail-soft inside (alpha, beta)."""
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0:
            self._check()
        g = self.groups
        full = self.board.full
        empty = full & ~(black | white)
        bn, wn = g.score
        if not empty:
            return bn - wn
        t = self.total
        lo, hi = 2 * bn - t, t - 2 * wn
        key = (black << self.size | white) << 1 | side
        hit = self.tt.get(key)
        best_move = -1
        if hit is not None:
            lo, hi = max(lo, hit[0]), min(hi, hit[1])
            best_move = hit[2]
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if hit is None and empty.bit_count() > 3:
            b = self.board
            ge = b.grid_board & ~(gb | gw)
            wmax = grid_score(b, gw | ge)
            bmax = grid_score(b, gb | ge)
            lo, hi = max(lo, t - 2 * wmax), min(hi, 2 * bmax - t)
            if lo >= beta or lo == hi:
                self.tt[key] = (lo, hi, -1)
                return lo
            if hi <= alpha:
                self.tt[key] = (lo, hi, -1)
                return hi
        live = empty & ~dead_cells(self.board, g, empty)
        if not live:
            return bn - wn
        moves = self._ordered(live, black | white, best_move)
        a0, b0 = alpha, beta
        alpha, beta = max(alpha, lo), min(beta, hi)
        best = -_INF if side == BLACK else _INF
        grid_bit = self.board.grid_bit
        for c in moves:
            g.add(c, side)
            if side == BLACK:
                v = self.search(black | 1 << c, white, gb | 1 << grid_bit[c], gw, 1, alpha, beta)
            else:
                v = self.search(black, white | 1 << c, gb, gw | 1 << grid_bit[c], 0, alpha, beta)
            g.undo()
            if side == BLACK:
                if v > best:
                    best, best_move = v, c
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            self.history[c] += 1 << min(empty.bit_count(), 30)
                            break
            else:
                if v < best:
                    best, best_move = v, c
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            self.history[c] += 1 << min(empty.bit_count(), 30)
                            break
        # what this search proved, from the window it was given
        if best <= a0:
            lo2, hi2 = lo, best
        elif best >= b0:
            lo2, hi2 = best, hi
        else:
            lo2 = hi2 = best
        if hit is not None:
            lo2, hi2 = max(lo2, hit[0]), min(hi2, hit[1])
        self.tt[key] = (lo2, hi2, best_move)
        return best

    def _ordered(self, live: int, stones: int, first: int) -> list[int]:
        """Moves to try: the table's best move first, then by history (cut-offs found
        before, deep ones weighing most), then cells next to many stones and to border
        cells."""
        nmask, key, hist = self.board.neighbour_mask, self.order_key, self.history
        cells = []
        while live:
            low = live & -live
            c = low.bit_length() - 1
            live ^= low
            cells.append((-hist[c], -(key[c] + 3 * (nmask[c] & stones).bit_count()), c))
        cells.sort()
        out = [c for _h, _k, c in cells]
        if first in out:
            out.remove(first)
            out.insert(0, first)
        return out

    def _check(self) -> None:
        if self.progress is not None:
            self.progress("solver", self.nodes, self.node_limit)
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _Stop(f"node limit {self.node_limit:,} reached")
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _Stop("time limit reached")

    def value(self, pos: Position, alpha: int = -_INF, beta: int = _INF) -> int:
        """The fill-the-board value of ``pos``'s stones with ``pos.side`` to move (the
        groups must hold those stones); fail-soft: exact when inside (alpha, beta)."""
        b = self.board
        return self.search(pos.black, pos.white, grid_mask(b, pos.black),
                           grid_mask(b, pos.white), pos.side, alpha, beta)


def solve(pos: Position, *, all_turns: bool = False, node_limit: int | None = None,
          time_limit: float | None = None, progress=None) -> SolveResult:
    """Solve ``pos`` exactly (see the module doc). ``all_turns``: also every legal
    move's value (``moves``, best first for the side to move). Positions with more than
    :data:`MAX_EMPTY_WITHOUT_LIMIT` live empty cells need ``node_limit`` or
    ``time_limit`` (UnsupportedError otherwise). ``progress``: told ``("solver",
    nodes, node_limit)`` every 1,024 nodes (the answer is the same without it)."""
    check_count(node_limit, "node_limit")
    check_seconds(time_limit)
    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    search = _Search(pos, node_limit, deadline)
    search.progress = progress
    b = pos.board
    empty = pos.empty
    dead = dead_cells(b, search.groups, empty)
    live = (empty & ~dead).bit_count()
    if live > MAX_EMPTY_WITHOUT_LIMIT and node_limit is None and time_limit is None \
            and not pos.is_over():
        raise UnsupportedError(f"{live} live empty cells is too deep to solve without a limit "
                               f"(at most {MAX_EMPTY_WITHOUT_LIMIT}): give a node or time limit")
    now = pos.value()
    res = SolveResult(position=position_string(pos), value=None, exact=False, lower=now,
                      upper=now, empty=empty.bit_count(), dead=dead.bit_count(), board=b)
    if pos.is_over():
        res.value, res.exact = now, True
        res.turns = [] if all_turns else None
        return res
    lo, hi = search.bounds(pos.black, pos.white)
    if pos.passes == 1:     # the side to move may end the game now by passing
        lo, hi = (max(lo, now), max(hi, now)) if pos.side == BLACK else (min(lo, now), min(hi, now))
    if pos.swap_open():     # White takes the smaller of its stone and the swap
        swapped = pos.after(SWAP)
        slo, shi = _Search(swapped, None, None).bounds(swapped.black, swapped.white)
        lo, hi = min(lo, slo), min(hi, shi)
    res.lower, res.upper = lo, hi
    sign = 1 if pos.side == BLACK else -1
    res.best_complete = res.pv_complete = False
    try:
        if all_turns:
            values = []
            for m in pos.legal_turns():
                values.append(TurnValue(m, _move_value(search, pos, m)))
            values.sort(key=lambda mv: -sign * mv.value)
            res.turns = values
            res.value = values[0].value
            res.best = [mv.turn for mv in values if mv.value == res.value]
        else:
            res.value = _rules_value(search, pos)
            res.exact, res.lower, res.upper = True, res.value, res.value
            # a move is optimal when its value is the position's: a narrow window says
            # so (one by one, so that a limit striking here keeps the ones proved)
            for m in pos.legal_turns():
                if _move_value(search, pos, m, res.value) == res.value:
                    res.best.append(m)
        res.exact, res.lower, res.upper = True, res.value, res.value
        res.best_complete = True
        res.pv = _line(search, pos, res.value)
        res.pv_complete = True
    except (_Stop, KeyboardInterrupt) as stop:
        res.stopped = stop.reason if isinstance(stop, _Stop) else interrupt.STOPPED
        if res.exact is False:
            res.value = None
    res.nodes = search.nodes
    res.seconds = time.monotonic() - t0
    return res


def _rules_value(search: _Search, pos: Position) -> int:
    """The exact value of ``pos`` (``search.groups`` holding its stones) under every
    rule: the fill search, and what it leaves out, which only arises here: the end
    by a pass (``passes == 1``), the swap when open, and on a board without stones
    the swap that Black's first stone opens (each first stone valued apart)."""
    if pos.is_over():
        return pos.value()
    pick = max if pos.side == BLACK else min
    if not (pos.black | pos.white):
        return pick(_move_value(search, pos, m) for m in pos.legal_turns())
    v = search.value(pos)
    if pos.passes == 1:     # the side to move may end the game now by passing
        v = pick(v, pos.value())
    if pos.swap_open():
        v = pick(v, _move_value(search, pos, SWAP))
    return v


def _move_value(search: _Search, pos: Position, move: int, target: int | None = None) -> int:
    """The exact value of playing ``move`` in ``pos``; with ``target``, only whether it
    is ``target`` (the value returned equals ``target`` exactly when it is)."""
    after = pos.after(move)
    if after.is_over():
        return after.value()
    if move == SWAP:
        inner = _Search(after, search.node_limit, search.deadline)
        inner.nodes, inner.progress = search.nodes, search.progress
        try:
            return inner.value(after)
        finally:
            search.nodes = inner.nodes
    if move == PASS:        # the opponent may end the game at once, or play on
        return _rules_value(search, after)
    window = (-_INF, _INF) if target is None else (target - 1, target + 1)
    search.groups.add(move, pos.side)
    try:
        if after.swap_open():       # Black's first stone: White may swap
            return _rules_value(search, after)
        return search.value(after, *window)
    finally:
        search.groups.undo()


def _line(search: _Search, pos: Position, value: int) -> list[int]:
    """A line of best play to the end: at each step the first stone keeping the value
    (the swap, then a pass, only when no stone does)."""
    line = []
    added = 0
    p = pos
    try:
        while not p.is_over():
            moves = p.legal_turns()
            stones = [m for m in moves if m >= 0]
            pick = None
            for m in stones + [m for m in moves if m < 0]:
                if m == SWAP:
                    if _move_value(search, p, SWAP) == value:
                        pick = m
                        break
                    continue
                if m == PASS:
                    if _move_value(search, p, PASS) == value:
                        pick = m
                    break
                if not (p.black | p.white):     # a first stone: the swap it opens counts
                    if _move_value(search, p, m) == value:
                        search.groups.add(m, p.side)
                        added += 1
                        pick = m
                        break
                    continue
                search.groups.add(m, p.side)
                added += 1
                v = search.value(p.after(m), value - 1, value + 1)
                if v == value:
                    pick = m
                    break
                search.groups.undo()
                added -= 1
            if pick is None:
                break
            line.append(pick)
            if pick == PASS:
                break
            if pick == SWAP:
                # the stones change colour: the rest of the line on a search of its own
                swapped = p.after(SWAP)
                inner = _Search(swapped, search.node_limit, search.deadline)
                inner.nodes, inner.progress = search.nodes, search.progress
                try:
                    line += _line(inner, swapped, value)
                finally:
                    search.nodes = inner.nodes
                break
            p = p.after(pick)
            if not (p.empty & ~dead_cells(p.board, search.groups, p.empty)):
                break
    finally:
        for _ in range(added):
            search.groups.undo()
    return line


def describe(value: int) -> str:
    """'Black wins by 3 points', 'White wins by 1 point', 'a draw'."""
    if value == 0:
        return "a draw"
    return wins_by(COLOUR_NAMES[0 if value > 0 else 1].capitalize(), abs(value))
