"""Bounds on a position's value from what each side can still score: one home for the
formulas. The engine, ``check`` and the exact solver's first guess call them; the
compiled search's static bound (``Searcher.bounds`` in ``endgame/_search.pyx``) is the
same formula in C, tested equal to :func:`bounds_from_scores`.

Values are the rules' composite value ``100 * (red score - blue score) + (red neutrals
left - blue neutrals left)`` from Red's side. A side's final score lies in a range
(``score_bounds``: ``{"red": [floor, bound], "blue": [floor, bound]}``), and each side
can still spend at most one neutral stone per own turn left, so the tie-break lies in
:func:`tie_break_range`; the value's bounds put the two together.

>>> from szsolver.rules.reference import Position
>>> pos = Position()                       # 16 turns each, 5 neutral stones each
>>> tie_break_range(pos), trivial_bounds(pos)
((-5, 5), (-1605, 1605))
>>> bounds_from_scores(pos, {"red": [3, 10], "blue": [2, 12]})
(-905, 805)
"""
from __future__ import annotations


def tie_break_range(pos) -> tuple[int, int]:
    """The least and greatest (red neutrals left - blue neutrals left) at the end: each
    side spends at most one neutral stone per own turn left."""
    per = pos.stones_per_side
    kr = per - bin(pos.red).count("1")
    kb = per - bin(pos.blue).count("1")
    rl, bl = pos.red_neutrals, pos.blue_neutrals
    return rl - min(kr, rl) - bl, rl - (bl - min(kb, bl))


def bounds_from_scores(pos, score_bounds: dict) -> tuple[int, int]:
    """(lower, upper) bounds on the value from each side's proved final-score range
    ``score_bounds`` (``{"red": [floor, bound], "blue": [floor, bound]}``): Red's floor
    against Blue's bound, Red's bound against Blue's floor, each with the tie-break's
    extreme."""
    lo_t, hi_t = tie_break_range(pos)
    (rf, rb), (bf, bb) = score_bounds["red"], score_bounds["blue"]
    return 100 * (rf - bb) + lo_t, 100 * (rb - bf) + hi_t


def trivial_bounds(pos) -> tuple[int, int]:
    """Bounds on the value that need no search: each side's score anywhere from 0 to
    the board's number of patterns (:func:`bounds_from_scores` of those ranges)."""
    n = pos.geometry.n_patterns
    return bounds_from_scores(pos, {"red": [0, n], "blue": [0, n]})


def value_guess(pos, score_bounds: dict) -> int:
    """A guess at the value, not a bound (MTD(f)'s first test value): 100 x (Red's
    best reachable score - Blue's) plus the tie-break as it stands."""
    return 100 * (score_bounds["red"][1] - score_bounds["blue"][1]) \
        + pos.red_neutrals - pos.blue_neutrals


def score_bounds(pos, time_limit: float | None = None, work_limit: float | None = None) -> dict:
    """Each side's proved final-score range ``{"red": [floor, bound], "blue": [...]}``
    against any play (CP-SAT, :func:`~szsolver.bounds.bounds.score_floor` and
    :func:`~szsolver.bounds.bounds.score_bound`). Each of the four CP-SAT solves gets
    ``time_limit`` (wall clock) and ``work_limit`` (CP-SAT's deterministic time: the
    same bounds on any machine and under any load)."""
    from . import score_bound, score_floor     # the package's (a test may stand in there)
    out = {}
    for side, name in ((0, "red"), (1, "blue")):
        out[name] = [score_floor(pos, side, time_limit, work_limit),
                     score_bound(pos, side, time_limit, work_limit)]
    return out
