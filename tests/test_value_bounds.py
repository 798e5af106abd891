"""The value's bounds from each side's score range have one home (szsolver.bounds.value):
the compiled search's static bound (``Searcher.bounds``, C) is the same formula, and
the bounds hold for the game's real end."""
import pytest

from szsolver.bounds.value import bounds_from_scores, tie_break_range, trivial_bounds
from szsolver.rules import reference
from szsolver.rules.backends import to_core
from szsolver.rules.base import ADVANCED, BASIC
from szsolver.rules.playout import random_play
from szsolver.rules.seeds import playout_rng_v1

pytest.importorskip("szsolver.endgame._search")
from szsolver.endgame.solver import new_searcher  # noqa: E402


def positions():
    """Seeded random play to every number of turns left, both rules, a few neutral
    counts (neutrals used often, so the tie-break's range varies)."""
    for rule in (BASIC, ADVANCED):
        for neutrals in ((5, 5), (2, 4), (0, 1)):
            for turns_left in range(0, 13):
                for seed in range(3):
                    p = reference.Position(red_neutrals=neutrals[0], blue_neutrals=neutrals[1],
                                           rule=rule)
                    rng = playout_rng_v1("value bounds", rule, neutrals, turns_left, seed)
                    random_play(p, p.turns_left - turns_left, rng, 0.5)
                    yield p


def test_the_searchers_static_bound_is_the_formula_of_bounds_value():
    """``Searcher.bounds`` (C) is :func:`bounds_from_scores` of the searcher's own score
    ranges, with and without score tables and caps; at the end of the game both are
    the value itself."""
    seen = set()
    for pos in positions():
        for caps in (None, (9, 7)):
            s = new_searcher(to_core(pos), 1 << 10, None, caps)
            lr, ur, lb, ub = s.score_bounds()
            ranges = {"red": [lr, ur], "blue": [lb, ub]}
            if pos.is_over():
                r, b = pos.scores()
                v = pos.value()
                assert s.bounds() == (v, v)
                assert bounds_from_scores(pos, {"red": [r, r], "blue": [b, b]}) == (v, v)
                continue
            assert s.bounds() == bounds_from_scores(pos, ranges), str(pos)
            seen.add((s.has_tables, caps is not None, tie_break_range(pos)[0] < tie_break_range(pos)[1]))
    # every kind was compared: with and without tables and caps, a tie-break still open
    assert {(t, c) for t, c, _ in seen} == {(t, c) for t in (False, True) for c in (False, True)}
    assert any(open_ for _, _, open_ in seen)


def test_the_bounds_hold_at_the_real_end():
    """Trivial bounds, and the tie-break's range, contain what random play to the end
    gives."""
    for pos in positions():
        end = pos.copy()
        random_play(end, end.turns_left, playout_rng_v1("value bounds end", str(pos)))
        lo, hi = trivial_bounds(pos)
        assert lo <= end.value() <= hi
        t_lo, t_hi = tie_break_range(pos)
        assert t_lo <= end.red_neutrals - end.blue_neutrals <= t_hi
