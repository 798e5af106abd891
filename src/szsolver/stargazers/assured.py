"""Early end: what is already settled in a Stargazers position.

Stones are only ever added, so sight lines only get shorter. From that:

- A side's **reach** is every own stone and empty cell that could still be inspired:
  grow it from the cells that see a star across empty cells only, along lines of empty
  cells and own stones (any chain of inspiration later on runs along such lines,
  because the cells between its links are empty then, so empty now). A stone outside
  its side's reach is **dead**: uninspired for the rest of the game. So is an empty
  cell outside it: the side can never place there.
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

The proofs are cautious, and no sharper proof of this kind exists for most of a game:
an empty cell two or more cells from a star on a line with only empty cells between
is a legal placement for both sides (a stone there sees the star), so every gaze but
one across a single cell next to its star can still be blocked, and until the last
placements nearly every stone could still go dark in some line of play (measured:
the highest final score over every line of play stays near the number of the
opponent's stones until about six cells are left). So late in the game, when at most
``EXACT_CELLS`` empty cells lie in either side's reach, :func:`status` looks at every
line of play (:func:`continuations`, within a node budget): the bounds become the
lowest and highest final scores, and the game is decided when every line ends with
the same winner.

>>> from szsolver.stargazers.fast import Position
>>> s = status(Position())
>>> s.assured, s.potential, s.decided
((0, 0), (39, 39), None)
"""
from __future__ import annotations

from dataclasses import dataclass

from ..rules.bits import popcount
from .base import BLUE, RED, side_of_placement
from .fast import inspired_mask, legal_mask

__all__ = ["Status", "status", "reach", "safe_stones", "continuations", "EXACT_NODES"]

#: positions the look at every continuation (:func:`continuations`) may visit; past
#: that, :func:`status` keeps the proved bounds
EXACT_NODES = 3000


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


class _TooMany(Exception):
    pass


def continuations(position, node_limit: int = EXACT_NODES):
    """(lowest scores, highest scores, winners) over every way the game can still go
    from ``position`` (either back end): the scores as (red, blue) tuples and the set of
    sides that win at the end of some line of play. None when that takes more than
    ``node_limit`` distinct positions. Every line of play is enumerated, with the
    positions met twice (placements in another order) looked at once."""
    b = position.board
    protocol = position.protocol
    memo = {}

    def walk(red: int, blue: int):
        key = (red, blue)
        got = memo.get(key)
        if got is not None:
            return got
        if len(memo) >= node_limit:
            raise _TooMany
        side = side_of_placement(popcount(red | blue), protocol)[0]
        own, enemy = (red, blue) if side == RED else (blue, red)
        legal = legal_mask(b, own, enemy)
        if not legal:
            score = (popcount(blue & ~inspired_mask(b, blue, red)),
                     popcount(red & ~inspired_mask(b, red, blue)))
            if score[RED] != score[BLUE]:
                win = RED if score[RED] > score[BLUE] else BLUE
            else:
                win = 1 - side      # the side that cannot place loses a tie
            got = (score, score, frozenset((win,)))
        else:
            lo, hi, wins = [99999, 99999], [-1, -1], set()
            while legal:
                low = legal & -legal
                legal ^= low
                a, z, w = walk(red | low, blue) if side == RED else walk(red, blue | low)
                lo = [min(lo[0], a[0]), min(lo[1], a[1])]
                hi = [max(hi[0], z[0]), max(hi[1], z[1])]
                wins |= w
            got = (tuple(lo), tuple(hi), frozenset(wins))
        memo[key] = got
        return got

    try:
        return walk(position.red, position.blue)
    except _TooMany:
        return None


#: the look at every continuation is tried with at most this many empty cells that
#: either side could still fill
EXACT_CELLS = 12


@dataclass(frozen=True)
class Status:
    """What is settled, per side as (red, blue): ``dead`` and ``safe`` stones (masks),
    ``reach`` (masks), ``assured`` and ``potential`` scores, ``decided``: the side that
    has won already (RED/BLUE) or None, and ``exact``: whether the bounds come from
    every continuation (:func:`continuations`, then they are the lowest and highest
    final scores) rather than from the proofs alone."""
    dead: tuple
    safe: tuple
    reach: tuple
    assured: tuple
    potential: tuple
    decided: int | None
    exact: bool = False


def status(position, node_limit: int = EXACT_NODES) -> Status:
    """The settled part of ``position`` (either back end). Late in a game (at most
    ``EXACT_CELLS`` empty cells in either side's reach) every continuation is looked at,
    within ``node_limit`` positions (0: never)."""
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
    exact = False
    if position.is_over():
        # nothing changes any more: both bounds are the final scores
        assured = potential = position.scores()
        decided = position.winner()
        exact = True
    else:
        if node_limit > 0 and popcount(empty & (rr | br)) <= EXACT_CELLS:
            every = continuations(position, node_limit)
            if every is not None:
                assured, potential, winners = every
                exact = True
                if len(winners) == 1:
                    # every line of play ends with the same winner (this covers an
                    # assured score above the other's potential, and ties that only
                    # one side can lose)
                    decided = next(iter(winners))
        if decided is None and assured[RED] > potential[BLUE]:
            decided = RED
        elif decided is None and assured[BLUE] > potential[RED]:
            decided = BLUE
    return Status(dead, (rs, bs), (rr, br), assured, potential, decided, exact)
