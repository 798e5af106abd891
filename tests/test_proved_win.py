"""A stopped solve still names a turn that reaches the bound it proved
(``SolveResult.reached``), and the engine plays a win so proved instead of its
tree's estimate; both against exact values."""
import pytest

from szsolver import Position
from szsolver.endgame.solver import solve
from szsolver.engine import search
from szsolver.engine.search import Engine
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


def test_the_engine_plays_a_win_its_stopped_solver_proved(monkeypatch):
    # a small solver budget stops before the value; where it proved a win for the
    # mover, the engine's turn is a proved winning one, whatever its tree thought
    checked = changed = 0
    for seed in range(16):
        core = random_play(0, 8, seed)
        engine = Engine(iterations=3000, solver_nodes=3_000)
        res = engine.analyse(core)
        if res.exact or mine(res.lower if core.side == RED else res.upper, core.side) < 1:
            continue
        assert mine(value_after(core, res.turn), core.side) >= 1
        assert mine(res.value, core.side) >= 1          # within the proved bounds
        checked += 1
        monkeypatch.setattr(search, "PLAY_PROVED_WIN", False)
        changed += Engine(iterations=3000, solver_nodes=3_000).analyse(core).turn != res.turn
        monkeypatch.setattr(search, "PLAY_PROVED_WIN", True)
    assert checked >= 2
    assert changed >= 1                 # the tree alone chose another turn somewhere
