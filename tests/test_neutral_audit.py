"""The solver's null-window tests (``endgame.solver.ValueTests``), against exact values."""
import pytest

from szsolver import Position
from szsolver.endgame.solver import ValueTests, solve
from szsolver.rules.base import NO_NEUTRAL, RED, turn_neutral
from szsolver.rules.backends import to_core
from szsolver.rules.playout import seeded_rng


def stones_only(rule, turns_left, seed):
    """Uniformly random stones, every neutral kept: both supplies in hand."""
    pos = Position(rule=rule, red_neutrals=5 - rule, blue_neutrals=5 - rule)
    rng = seeded_rng("neutral audit", rule, turns_left, seed)
    while pos.turns_left > turns_left:
        pos.play(rng.choice([q for q in range(pos.geometry.size) if pos.empty >> q & 1]))
    return to_core(pos)


def neutral_turns(core, k, seed):
    """``k`` stone-and-neutral turns at ``core``, drawn from the legal ones."""
    rng = seeded_rng("neutral turns", seed)
    turns = sorted(t for t in core.legal_turns() if turn_neutral(t) != NO_NEUTRAL)
    return rng.sample(turns, k)


def mine(value, side):
    return value if side == RED else -value


@pytest.mark.parametrize("rule", [0, 1])
@pytest.mark.parametrize("seed", [0, 1])
def test_a_value_test_answers_as_the_value_says_or_not_at_all(rule, seed):
    """Each test's answer is the exact value's, in either side's view, at positions
    sharing one table; on a small pool an answer may be missing, never wrong."""
    core = stones_only(rule, 5, seed)
    children = []
    for t in neutral_turns(core, 3, seed):
        c = core.copy()
        c.make(t)
        children.append((c, solve(c, pv=False).value))
    for pool in (10 ** 8, 2_000, 100):
        tests = ValueTests(pool, 4)
        answered = 0
        for c, v in children:
            for side in (0, 1):
                for gamma in (mine(v, side) - 1, mine(v, side), mine(v, side) + 1, 0, 1):
                    r = tests.at_least(c, gamma, side)
                    if r is not None:
                        answered += 1
                        assert r == (mine(v, side) >= gamma)
        assert tests.nodes <= pool + 10_000        # a probe stops within a chunk
        if pool == 10 ** 8:
            assert answered == 3 * 2 * 5


def test_value_tests_check_their_pool():
    from szsolver.errors import UnsupportedError
    for bad in (0, -5, 1.5, None):
        with pytest.raises(UnsupportedError):
            ValueTests(bad, 4)
