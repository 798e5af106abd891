"""The prover's steps (szsolver.endgame.prover): the Bound's arithmetic against brute
enumeration of small intervals, and its MTD(f), best-turn and line steps against plain
alpha-beta (no technique on: a full window, itself checked against brute force in
tests/test_solver.py) on small positions."""
import itertools
import random

import pytest

from szsolver.endgame import prover
from szsolver.endgame.prover import Bound
from szsolver.endgame.solver import new_searcher, turn_orbits
from szsolver.rules.backends import to_core
from szsolver.rules import reference
from szsolver.rules.base import ADVANCED, BASIC, BLUE, RED
from szsolver.rules.playout import random_play
from szsolver.rules.seeds import playout_seed_v1

SMALL = range(-4, 5)
BOUNDS = [Bound(lo, hi) for lo in SMALL for hi in SMALL if lo <= hi]


def members(b: Bound) -> set[int]:
    return set(range(b.lo, b.hi + 1))


# --- the Bound's arithmetic, by enumeration -----------------------------------------------------

@pytest.mark.parametrize("b", BOUNDS, ids=str)
def test_a_bound_seen_by_each_side(b):
    assert b.for_side(RED) == b
    assert members(b.for_side(BLUE)) == {-x for x in members(b)}
    assert b.for_side(BLUE).for_side(BLUE) == b
    assert b.exact == (len(members(b)) == 1)
    assert b.value == (b.lo if b.exact else None)


def fail_soft_answers(x: int, gamma: int):
    """Every answer a fail-soft null-window probe "value >= gamma" may give when the
    value is ``x``: a bound on the side of gamma that x is on, between gamma and x."""
    if x >= gamma:
        return [(v, True) for v in range(gamma, x + 1)]
    return [(v, False) for v in range(x, gamma)]


@pytest.mark.parametrize("b", BOUNDS, ids=str)
def test_a_probe_s_answer_narrows_to_the_values_it_leaves(b):
    for x in members(b):
        for gamma in range(b.lo - 1, b.hi + 2):
            for v, is_lower in fail_soft_answers(x, gamma):
                got = b.after(v, is_lower)
                left = {y for y in members(b) if (y >= v if is_lower else y <= v)}
                assert x in members(got)
                assert members(got) == left


@pytest.mark.parametrize("b", BOUNDS, ids=str)
def test_a_bound_decides_a_test_only_when_every_value_in_it_agrees(b):
    for gamma in range(b.lo - 2, b.hi + 3):
        answers = {x >= gamma for x in members(b)}
        d = b.decides(gamma)
        if len(answers) == 2:
            assert d is None
        else:
            assert d is not None and d[1] == answers.pop()
            assert d[0] == (b.lo if d[1] else b.hi)


@pytest.mark.parametrize("b", [b for b in BOUNDS if not b.exact], ids=str)
def test_mtdf_s_test_value_splits_the_bound_as_the_drivers_did(b):
    for g in range(b.lo - 3, b.hi + 4):
        gamma = b.test_value(g)
        assert b.lo < gamma <= b.hi               # both answers narrow the bound
        # the formula the serial driver and the threads each wrote out before
        clamped = min(max(g, b.lo), b.hi)
        serial = min(max(clamped + 1 if clamped <= b.lo else clamped, b.lo + 1), b.hi)
        threads = min(max(g + 1 if g <= b.lo else g, b.lo + 1), b.hi)
        assert gamma == serial == threads


@pytest.mark.parametrize("side", [RED, BLUE])
def test_a_mover_reaches_at_least_what_a_turn_gives(side):
    for parent, child in itertools.product(BOUNDS, BOUNDS):
        got = parent.reaches(side, child)
        # the parent's values the mover can have when one turn leads to a value in child
        want = {p for p in members(parent)
                if any((p >= c) if side == RED else (p <= c) for c in members(child))}
        if want:
            assert members(got) == want, (parent, child)
        else:
            assert got.lo > got.hi


class FixedValue:
    """A stand-in searcher whose position has Red's value ``x`` (fail-soft: a probe
    returns the value itself) and ``side`` to move."""

    def __init__(self, x):
        self.x = x

    def red_probe(self, gamma):
        return self.x, self.x >= gamma


@pytest.mark.parametrize("side", [RED, BLUE])
def test_a_probe_in_a_side_s_view(side):
    for x in SMALL:
        mine = Bound(x, x).for_side(side).lo              # the value in side's view
        for gamma in range(-6, 7):
            v, is_lower = prover.probe(FixedValue(x), gamma, side)
            assert is_lower == (mine >= gamma)
            assert (mine >= v) if is_lower else (mine <= v)


def test_the_stopped_words():
    assert prover.stopped_text("node limit", False) == "node limit"
    assert prover.stopped_text("node limit", True) is None
    assert prover.stopped_text("time limit", True, best_complete=False) == \
        "time limit after the value was proved (best turns incomplete)"
    assert prover.stopped_text("interrupted", True, False, False) == \
        "interrupted after the value was proved (best turns and PV incomplete)"
    r = prover.solve_result("p", Bound(-3, 5), False, "node limit", best_complete=True,
                            pv_complete=True)
    assert (r.value, r.exact, r.lower, r.upper, r.winner, r.stopped) == \
        (None, False, -3, 5, None, "node limit")
    assert not (r.best_complete or r.pv_complete or r.complete)
    r = prover.solve_result("p", Bound(7, 7), True, "node limit", best=[3], best_complete=True,
                            pv=[3], pv_complete=False)
    assert (r.value, r.winner, r.best_complete, r.complete) == (7, "red", True, False)
    assert r.stopped == "node limit after the value was proved (PV incomplete)"


# --- the steps against plain alpha-beta ---------------------------------------------------------

INF = 30000


def small_position(seed, turns_left, rule):
    """Seeded random play with neutral turns until ``turns_left`` turns remain."""
    neutrals = (5, 5) if rule == BASIC else (4, 4)
    rng = random.Random(playout_seed_v1("prover-test", seed, rule, neutrals))
    p = reference.Position(red_neutrals=neutrals[0], blue_neutrals=neutrals[1], rule=rule)
    random_play(p, p.turns_left - turns_left, rng, 0.3)
    return to_core(p)


def plain_value(core) -> int:
    """Red's value by one full-window alpha-beta with no technique on."""
    s = new_searcher(core, 2, [], None)
    v = s.probe(-INF, INF)
    return v if core.side == RED else -v


CASES = [(seed, tl, rule) for seed, tl in ((1, 2), (2, 3), (3, 3), (4, 4))
         for rule in (BASIC, ADVANCED)]


@pytest.mark.parametrize("seed,tl,rule", CASES)
def test_mtdf_best_turns_and_line_match_plain_alpha_beta(seed, tl, rule):
    core = small_position(seed, tl, rule)
    value = plain_value(core)
    s = new_searcher(core, 1 << 14, None, None)
    static = prover.static_bound(s)
    assert value in members(static)
    # MTD(f) reaches the value from any first guess
    for guess in (prover.first_guess(s), static.lo, static.hi, 0):
        bound, done = prover.mtdf(s, static, guess)
        assert done and bound == Bound(value, value)
    # a turn keeps the value exactly when its child has it
    red = core.side == RED
    children = {}
    for t in core.legal_turns():
        child = core.copy()
        child.make(t)
        children[t] = plain_value(child)
        s.make(t)
        assert prover.keeps(s, value, red) == (children[t] == value)
        s.unmake(t)
    best = []
    prover.best_turns(s, turn_orbits(core), value, red, best)
    assert best == sorted(t for t, v in children.items() if v == value)
    line = []
    prover.pv(s, value, line)
    end = core.copy()
    for t in line:
        end.make(t)
    assert end.is_over() and end.value() == value
    assert line[0] in best
    assert prover.line_scores(core, line) == dict(zip(("red", "blue"), end.scores()))


def test_a_node_pool_shared_by_two_searchers():
    """The node limit counts every searcher of the pool: once one has spent it, the
    other is not armed, and the budget names the reason."""
    core = small_position(4, 4, BASIC)
    budget = prover.Budget(node_limit=5000)
    a = budget.join(new_searcher(core, 1 << 14, [], None))
    b = budget.join(new_searcher(core, 1 << 14, [], None))
    assert budget.arm(a)
    a.probe(-INF, INF)
    assert a.aborted and prover.stop_reason(a) == prover.NODE_LIMIT
    assert budget.spent() >= 5000
    assert not budget.arm(b)
    assert budget.reason == budget.why(b) == prover.NODE_LIMIT
