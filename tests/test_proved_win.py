"""A stopped solve still names a turn that reaches the bound it proved
(``SolveResult.reached``), against exact values."""
import pytest

from szsolver import Position
from szsolver.endgame.solver import solve
from szsolver.rules.base import RED
from szsolver.rules.backends import to_core
from szsolver.rules.playout import seeded_rng


def random_play(rule, turns_left, seed):
    """Uniformly random legal turns (neutrals with them or not) down to ``turns_left``."""
    pos = to_core(Position(rule=rule, red_neutrals=5 - rule, blue_neutrals=5 - rule))
    rng = seeded_rng("proved win", rule, turns_left, seed)
    while pos.turns_left > turns_left:
        pos.make(rng.choice(sorted(pos.legal_turns())))
    return pos


def value_after(core, turn):
    child = core.copy()
    child.make(turn)
    return solve(child, pv=False).value


def mine(value, side):
    return value if side == RED else -value


@pytest.mark.parametrize("rule, left", [(0, 8), (1, 7)])
def test_a_stopped_solve_names_a_turn_that_reaches_its_bound(rule, left):
    found = 0
    for seed in range(10):
        core = random_play(rule, left, seed)
        for limit in (3_000, 30_000):
            res = solve(core, node_limit=limit)
            if res.exact:
                assert res.reached is None
                continue
            if res.reached is None:
                continue
            turn, bound = res.reached
            assert core.is_legal(turn)
            # the turn reaches the bound, and the bound is within what was proved
            assert mine(value_after(core, turn), core.side) >= mine(bound, core.side)
            assert res.lower <= bound <= res.upper
            found += 1
    assert found >= 4
