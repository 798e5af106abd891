"""Exact Stargazers endgames: alpha-beta with a transposition table on the fast rules.

**Move unit: one placement.** The side to move after a placement follows from the
number of stones (:mod:`.base`), so a turn of two is two plies of the same side in a
row; the search maximises for Red and minimises for Blue at each ply, and the best
turn is the first one or two placements of the principal variation.

**Value.** The final margin, own score minus the opponent's, for the side to move in
the position solved, under best play by both. A margin of 0 is a tie, and a tie is
lost by the side that could not place: ``winner`` says who wins. Inside the search a
result is one number for Red, ``2 * margin`` or ``+1`` / ``-1`` for a tie Red wins /
loses, so that a won tie is worth more than a lost one and less than any win on score.

The transposition table is a dict keyed by the two stone masks (the protocol is fixed
within a search), holding a value with its bound kind and the best placement found;
that placement is tried first next time; the others follow by how often each was
best so far (the history heuristic). Measured on random 12-star endgames, this order
takes about a third of the CPU time of ordering by the margin each placement leaves
(which halves the nodes but costs two inspiration passes a placement).

>>> from szsolver.stargazers.fast import Position
>>> p = Position("stargazers:12-star:1-2:r=2,3,4,6,8,9,10,13,14,16,20,21,24,29,32,35,42:"
...              "b=7,15,18,19,23,25,26,30,31,33,36,37,39,43,44,45,47,48")
>>> s = solve(p)          # a finished game: red, to move, cannot place
>>> s.margin, s.winner, s.best
(0, 'blue', [])
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .. import interrupt
from ..errors import UnsupportedError
from ..limits import check_count, check_seconds
from ..rules.bits import popcount
# at the top, not in the function: after a Ctrl-C the bounds are still given, and
# szsolver.interrupt refuses every import from then on
from .assured import status
from .base import BLUE, RED, SIDE_NAMES, side_of_placement
from .fast import inspired_mask, legal_mask

__all__ = ["SolveResult", "solve", "SearchLimit", "result_value", "MAX_EMPTY_WITHOUT_LIMIT"]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF = 10 ** 6


class SearchLimit(Exception):
    """The node or time limit was reached before the search finished."""


def result_value(board, red: int, blue: int, stuck: int) -> int:
    """Red's search value of a finished game (``stuck`` the side that cannot place)."""
    rs = popcount(blue & ~inspired_mask(board, blue, red))
    bs = popcount(red & ~inspired_mask(board, red, blue))
    if rs != bs:
        return 2 * (rs - bs)
    return 1 if stuck == BLUE else -1


def _margin(v: int) -> int:
    """Red's margin from a search value."""
    return v // 2 if v % 2 == 0 else 0


@dataclass
class SolveResult:
    """The solver's answer (Stars' Zone's and Star's :class:`SolveResult` by name; its
    value is the side to move's ``margin``, as the search works). ``margin``: own score minus the opponent's at the end for the
    side to move; ``winner``: 'red' or 'blue'; ``best``: the best placements (all of
    them, ascending); ``best_turns``: the best turns of the ``turn_length`` placements
    asked for (all of them, each in an order it can be played in, ascending where both
    can; in ascending order; of one placement: the
    ``best``); ``best_complete``: whether ``best`` and ``best_turns`` hold every one
    (False when a limit stopped the search first: they hold those proved by then);
    ``moves``: {placement: margin for the side to move} (every legal
    placement when asked for, else the best ones); ``pv``: a principal
    variation; ``nodes``; ``seconds`` (CPU time); ``side``: the side to move; ``wins``:
    {placement: whether the side to move wins after it} (ties decided as in play).

    The limits' contract, the family's: a limit that strikes never raises. It says what
    ``stopped`` the search (None when nothing did); ``exact`` tells whether the value
    was proved. Before it was, ``margin`` and ``winner`` are None, ``best``, ``moves``
    and ``pv`` empty, and ``lower`` <= margin <= ``upper`` are the bounds proved
    (the assured scores and potentials, :func:`~szsolver.stargazers.assured.status`);
    after it was, ``lower`` = ``upper`` = ``margin`` and what the limit cut short
    (every placement's value, the line) holds what was proved by then."""
    margin: int | None
    winner: str | None
    best: list
    moves: dict
    pv: list
    nodes: int
    seconds: float
    side: str = field(default="red")
    wins: dict = field(default_factory=dict)
    lower: int | None = None
    upper: int | None = None
    stopped: str | None = None
    best_turns: list = field(default_factory=list)
    best_complete: bool = True

    def __post_init__(self):
        if self.margin is not None:
            self.lower = self.upper = self.margin

    @property
    def exact(self) -> bool:
        """Whether the value (``margin``) is proved."""
        return self.margin is not None


class _Search:
    def __init__(self, board, protocol, node_limit, time_limit, progress=None):
        self.board = board
        self.protocol = protocol
        self.tt: dict = {}
        self.history = ([0] * board.size, [0] * board.size)
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = None if time_limit is None else time.process_time() + time_limit
        self.progress = progress        # told ("solver", nodes, node_limit) now and then

    def _ordered(self, red, blue, side, legal, first):
        """Legal placements: the table's move first, then by the history of best moves
        (how often each placement was best for that side so far in this search)."""
        h = self.history[side]
        order = []
        m = legal
        while m:
            low = m & -m
            m ^= low
            order.append(low.bit_length() - 1)
        order.sort(key=h.__getitem__, reverse=True)
        if first is not None:
            order.remove(first)
            order.insert(0, first)
        return order

    def value(self, red: int, blue: int, alpha: int, beta: int) -> int:
        """Red's exact value if it lies in (alpha, beta), else a bound on the right side."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchLimit
        if self.nodes % 1024 == 0:
            if self.deadline is not None and time.process_time() > self.deadline:
                raise SearchLimit
            if self.progress is not None:
                self.progress("solver", self.nodes, self.node_limit)
        key = (red, blue)
        entry = self.tt.get(key)
        first = None
        if entry is not None:
            v, kind, first = entry
            if kind == _EXACT:
                return v
            if kind == _LOWER and v > alpha:
                alpha = v
            elif kind == _UPPER and v < beta:
                beta = v
            if alpha >= beta:
                return v
        side = side_of_placement(popcount(red | blue), self.protocol)[0]
        own, enemy = (red, blue) if side == RED else (blue, red)
        legal = legal_mask(self.board, own, enemy)
        if not legal:
            v = result_value(self.board, red, blue, side)
            self.tt[key] = (v, _EXACT, None)
            return v
        a0, b0 = alpha, beta
        best_v, best_c = (-_INF if side == RED else _INF), None
        for c in self._ordered(red, blue, side, legal, first):
            bit = 1 << c
            if side == RED:
                v = self.value(red | bit, blue, alpha, beta)
                if v > best_v:
                    best_v, best_c = v, c
                    if v > alpha:
                        alpha = v
            else:
                v = self.value(red, blue | bit, alpha, beta)
                if v < best_v:
                    best_v, best_c = v, c
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        kind = _EXACT if a0 < best_v < b0 else (_LOWER if best_v >= b0 else _UPPER)
        self.history[side][best_c] += 1
        self.tt[key] = (best_v, kind, best_c)
        return best_v

    def optimal(self, red: int, blue: int, target: int):
        """The placements at (red, blue) whose value is ``target`` (the position's,
        Red's), ascending, one at a time (so that a limit striking keeps those found):
        each told by a search on a window of one value, less work than its value."""
        side = side_of_placement(popcount(red | blue), self.protocol)[0]
        own, enemy = (red, blue) if side == RED else (blue, red)
        legal = legal_mask(self.board, own, enemy)
        while legal:
            low = legal & -legal
            legal ^= low
            if side == RED:
                if self.value(red | low, blue, target - 1, target) >= target:
                    yield low.bit_length() - 1
            elif self.value(red, blue | low, target, target + 1) <= target:
                yield low.bit_length() - 1

    def line(self, red: int, blue: int, length: int = 12) -> list:
        """A principal variation of up to ``length`` placements: at each ply the first
        placement (in search order) whose exact value is the position's."""
        out = []
        target = self.value(red, blue, -_INF, _INF)
        while len(out) < length:
            side = side_of_placement(popcount(red | blue), self.protocol)[0]
            own, enemy = (red, blue) if side == RED else (blue, red)
            legal = legal_mask(self.board, own, enemy)
            if not legal:
                return out
            first = self.tt.get((red, blue), (0, 0, None))[2]
            for c in self._ordered(red, blue, side, legal, first):
                r2, b2 = (red | 1 << c, blue) if side == RED else (red, blue | 1 << c)
                if self.value(r2, b2, -_INF, _INF) == target:
                    out.append(c)
                    red, blue = r2, b2
                    break
            else:
                raise AssertionError("no child has the position's value")
        return out


#: positions with more empty playable cells need a node or time limit: 16 take about
#: 15 CPU s and each more cell about three times the work (docs/stargazers.md; 18 took
#: 101 CPU s with every placement's value)
MAX_EMPTY_WITHOUT_LIMIT = 16


def solve(position, *, all_turns: bool = True, node_limit: int | None = None,
          time_limit: float | None = None, progress=None,
          turn_length: int = 1) -> SolveResult:
    """Solve ``position`` exactly (either back end). ``all_turns``: the value of every
    legal placement (else only the best ones are proved best, each on a window of one
    value); ``turn_length`` 2: ``best_turns`` holds the best turns of two placements (the
    side to move has two left in its turn), else the best placements. Limits: ``node_limit``
    (search nodes) and ``time_limit`` (CPU seconds); reaching one stops the search and
    the answer says so (``stopped``, with the bounds proved: see :class:`SolveResult`). A
    limit that is not a positive finite number is bad input (UnsupportedError), and so
    is a position too deep to solve without a limit. ``progress``: told ``("solver",
    nodes, node_limit)`` every 1,024 nodes (the answer is the same without it)."""
    check_count(node_limit, "node_limit")
    check_seconds(time_limit)
    empties = position.empty.bit_count()
    if node_limit is None and time_limit is None and empties > MAX_EMPTY_WITHOUT_LIMIT:
        raise UnsupportedError(
            f"too deep to solve without a limit: {empties} empty playable cells (at most "
            f"{MAX_EMPTY_WITHOUT_LIMIT}: 16 take about 15 s, each more about three times "
            "that); give a time limit or a node limit")
    start = time.process_time()
    s = _Search(position.board, position.protocol, node_limit, time_limit, progress)
    red, blue = position.red, position.blue
    side = position.side
    sign = 1 if side == RED else -1
    stopped = None
    try:
        root = s.value(red, blue, -_INF, _INF)
    except (SearchLimit, KeyboardInterrupt) as stop:
        lower, upper = _margin_bounds(position)
        return SolveResult(margin=None, winner=None, best=[], moves={}, pv=[], nodes=s.nodes,
                        seconds=time.process_time() - start, side=SIDE_NAMES[side],
                        lower=lower, upper=upper,
                        stopped=interrupt.STOPPED if isinstance(stop, KeyboardInterrupt) else
                        f"the Stargazers solver reached its limit of "
                        f"{_limit_text(s, node_limit, time_limit)} before proving the value")
    moves = {}
    best_c = s.tt[(red, blue)][2]
    if best_c is not None:          # at the root, on the full window: a best placement
        moves[best_c] = root
    turns = set()
    pairs = turn_length == 2 and position.placements_left >= 2
    try:
        if all_turns:
            for c in position.legal_placements():
                r2, b2 = (red | 1 << c, blue) if side == RED else (red, blue | 1 << c)
                moves[c] = s.value(r2, b2, -_INF, _INF)
        else:
            for c in s.optimal(red, blue, root):
                moves[c] = root
        for c in sorted(c for c, v in moves.items() if v == root) if pairs else ():
            r2, b2 = (red | 1 << c, blue) if side == RED else (red, blue | 1 << c)
            own, enemy = (r2, b2) if side == RED else (b2, r2)
            if not legal_mask(position.board, own, enemy):
                turns.add((c,))         # the game ends: a turn of one placement
            turns.update((c, d) for d in s.optimal(r2, b2, root))   # in the order played
    except SearchLimit:
        stopped = (f"the Stargazers solver reached its limit of "
                   f"{_limit_text(s, node_limit, time_limit)} after proving the value, "
                   + ("before every placement's" if all_turns else "before every best turn"))
    except KeyboardInterrupt:       # what was proved kept; the command ends as interrupted
        stopped = interrupt.STOPPED
    best = sorted(c for c, v in moves.items() if v == root)
    if not pairs:
        turns = {(c,) for c in best}
    # One turn each, in an order it can be played in: ascending where that order can
    # (a stone may be inspired only through the other, so only one order is legal).
    turns = {t for t in turns if len(t) < 2 or t[0] < t[1] or (t[1], t[0]) not in turns}
    root_margin = sign * _margin(root)
    winner = SIDE_NAMES[RED] if root > 0 else SIDE_NAMES[BLUE]
    try:
        line = [] if stopped == interrupt.STOPPED else s.line(red, blue)
    except SearchLimit:
        line = []
    except KeyboardInterrupt:
        line, stopped = [], interrupt.STOPPED
    return SolveResult(margin=root_margin, winner=winner, best=best,
                    moves={c: sign * _margin(v) for c, v in sorted(moves.items())},
                    pv=line, nodes=s.nodes, seconds=time.process_time() - start,
                    side=SIDE_NAMES[side], stopped=stopped,
                    wins={c: (v > 0) == (side == RED) for c, v in sorted(moves.items())},
                    best_turns=sorted(turns), best_complete=stopped is None)


def _margin_bounds(position) -> tuple[int, int]:
    """The margin's proved bounds for the side to move: each side's final score lies
    between its assured score and its potential."""
    st = status(position)
    own, other = (RED, BLUE) if position.side == RED else (BLUE, RED)
    return (st.assured[own] - st.potential[other], st.potential[own] - st.assured[other])


def move_values(position, *, node_limit: int | None = None,
                time_limit: float | None = None) -> dict:
    """{placement: Red's search value} for every legal placement (for tests and tools
    that need the tie-breaks too). Limits as in :func:`solve`: a limit that strikes
    leaves the placements not proved by then at None."""
    check_count(node_limit, "node_limit")
    check_seconds(time_limit)
    s = _Search(position.board, position.protocol, node_limit, time_limit)
    out = dict.fromkeys(position.legal_placements())
    try:
        for c in out:
            q = position.after(c)
            out[c] = s.value(q.red, q.blue, -_INF, _INF)
    except SearchLimit:
        pass
    return out


def _limit_text(s: _Search, node_limit, time_limit) -> str:
    """The limit that stopped ``s``: '1000 nodes' or '2.0 seconds'."""
    return (f"{node_limit} nodes" if node_limit is not None and s.nodes > node_limit
            else f"{time_limit} seconds")
