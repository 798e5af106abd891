"""The solver's proofs in the engine, against exact values: its null-window tests
(``endgame.solver.ValueTests``), the engine's audit of its tree's neutral
(``engine.search.audit_neutral``), and a stopped solve's turn that reaches the bound it
proved (``SolveResult.reached``), which the engine plays where it is a win."""
import pytest

from szsolver import Position
from szsolver.endgame.solver import ValueTests, solve
from szsolver.engine import search
from szsolver.engine.search import POINT_WIN, Engine, audit_neutral
from szsolver.rules.base import NO_NEUTRAL, RED, turn_neutral, turn_stone
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


def value_after(core, turn):
    child = core.copy()
    child.make(turn)
    return solve(child, pv=False).value


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


@pytest.mark.parametrize("rule, left", [(0, 6), (1, 5)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_audit_keeps_the_neutral_only_where_the_values_say(rule, left, seed):
    """With nodes enough, the audit's pick is its contract's, read off the exact
    values after the turn and after its stone alone; on any pool the stone alone is
    never a worse result than the turn, and the value it claims proved for the mover
    holds."""
    core = stones_only(rule, left, seed)
    side = core.side
    for turn in neutral_turns(core, 4, seed):
        spent = mine(value_after(core, turn), side)
        alone = mine(value_after(core, turn_stone(turn)), side)
        best = mine(solve(core, pv=False).value, side)
        if alone >= 1:
            want = turn if spent >= POINT_WIN > alone else turn_stone(turn)
        elif spent >= 1:
            want = turn
        else:
            want = turn_stone(turn) if alone >= 0 else turn
        pick, proved, nodes = audit_neutral(core, turn, 10 ** 8)
        assert pick == want and nodes > 0
        assert proved is None or proved <= best
        for pool in (1_000, 30_000, 300_000):
            pick, proved, _nodes = audit_neutral(core, turn, pool)
            assert pick in (turn, turn_stone(turn))
            if pick != turn:
                assert (alone > 0) - (alone < 0) >= (spent > 0) - (spent < 0)
            assert proved is None or proved <= best


def test_where_the_solver_seldom_finishes_the_tree_s_neutral_is_audited(monkeypatch):
    """Where SOLVER_SELDOM keeps the solver out, a tree's turn with a neutral is audited
    (the tests' nodes reported; a passed test's bound kept, else the tree runs on); the
    answer is legal, inside the proved bounds, which hold the exact value, and the same
    twice. Under Advanced no audit (its share is 0)."""
    monkeypatch.setitem(search.SOLVER_SELDOM, 0, {6: 0})
    monkeypatch.setitem(search.SOLVER_SELDOM, 1, {6: 0})
    monkeypatch.setattr(search, "AUDIT_NODES", 1_000)
    audited = 0
    for seed in range(6):
        core = stones_only(0, 6, seed)
        eng = Engine(0.1)
        assert eng.plan(core).solver_nodes == 0
        res = eng.analyse(core)
        assert res.method == "engine" and core.is_legal(res.turn)
        exact = solve(core, pv=False).value
        assert res.lower <= exact <= res.upper and res.lower <= res.value <= res.upper
        assert eng.analyse(core).to_json() | {"seconds": 0} == res.to_json() | {"seconds": 0}
        if res.nodes:
            audited += 1
            # a test that passed bounds the value; one that did not gave its nodes back
            assert (res.lower, res.upper) != search.trivial_bounds(core) or \
                res.iterations > eng.plan(core).iterations // 2
        assert Engine(0.1).analyse(stones_only(1, 6, seed)).nodes == 0
    assert audited >= 2


@pytest.mark.parametrize("answers", [None, 0, 1, 2])
def test_the_audit_s_decision_over_every_pair_of_results(monkeypatch, answers):
    """The audit's decision over values after the stone alone and after the turn of every
    kind (a loss, a draw, a win on neutrals, by a point, by two), its tests answered by
    those values (``answers``: only the first so many answered, the pool then spent):
    the stone alone exactly where its contract says with every test answered, and never
    a worse result than the turn's whatever is answered."""
    import szsolver.endgame.solver as solver_module
    from szsolver.formats.notation import position_string
    core = stones_only(0, 6, 0)
    turn = neutral_turns(core, 1, 0)[0]
    keys = []
    for t in (turn_stone(turn), turn):
        c = core.copy()
        c.make(t)
        keys.append(position_string(c))
    kinds = (-200, -100, -1, 0, 1, 2, 99, 100, 200)
    result = lambda v: (v > 0) - (v < 0)
    for alone in kinds:
        for spent in kinds:
            values = dict(zip(keys, (alone, spent)))      # in the mover's view

            class Oracle:
                def __init__(self, nodes, turns_left):
                    self.nodes, self.asked = 0, 0

                def at_least(self, pos, gamma, side):
                    self.asked += 1
                    if answers is not None and self.asked > answers:
                        return None
                    return values[position_string(pos)] >= gamma

            monkeypatch.setattr(solver_module, "ValueTests", Oracle)
            pick, proved, _nodes = audit_neutral(core, turn, 1000)
            if answers is None:
                want = alone >= 1 and not (spent >= POINT_WIN > alone) or \
                    spent < 1 and alone == 0
                assert pick == (turn_stone(turn) if want else turn), (alone, spent)
            if pick != turn:
                assert result(alone) >= result(spent)
            assert proved is None or proved <= max(alone, spent)


def test_the_audit_runs_where_its_pool_can_pass_a_test():
    """Under Basic at 8 turns left with the supplies in hand the players' engine (no
    bounds) audits on half its tree's part; ``best``'s (the CP-SAT bounds and the
    start-up charged) leaves too little for a test that passes at 1 s: no audit, the
    tree on the whole budget; at 1.6 s it audits. Nowhere else, and never under
    Advanced."""
    from szsolver.engine.search import AUDIT_NODES, COMMAND_START, NEUTRAL_AUDIT_SHARE
    from szsolver.engine.search import iteration_seconds, solver_nodes_for
    core = stones_only(0, 8, 0)
    eng = Engine(1.0)
    n = eng.plan(core).iterations
    pool = eng._audit_nodes(core, n)
    assert pool >= AUDIT_NODES
    assert pool == solver_nodes_for(core, NEUTRAL_AUDIT_SHARE[0] * n * iteration_seconds(core))
    best = Engine(1.0, bounds=True, spent=COMMAND_START)
    assert best._audit_nodes(core, best.plan(core).iterations) == 0
    more = Engine(1.6, bounds=True, spent=COMMAND_START)      # below the solver's SELDOM_NODES
    assert more.plan(core).solver_nodes == 0
    assert more._audit_nodes(core, more.plan(core).iterations) >= AUDIT_NODES
    for other in (stones_only(0, 9, 0), stones_only(0, 7, 0), stones_only(1, 8, 0)):
        assert eng._audit_nodes(other, eng.plan(other).iterations) == 0


def test_an_audit_that_proves_nothing_gives_its_nodes_back_to_the_tree(monkeypatch):
    """On a pool too small for any test to finish, no bound is claimed and the tree
    runs on with the iterations of the nodes the tests left."""
    monkeypatch.setitem(search.SOLVER_SELDOM, 0, {6: 0})
    monkeypatch.setattr(search, "AUDIT_NODES", 1)
    monkeypatch.setitem(search.NEUTRAL_AUDIT_SHARE, 0, 0.0005)
    gave = 0
    for seed in (0, 1, 4):
        core = stones_only(0, 6, seed)
        eng = Engine(0.1)
        n = eng.plan(core).iterations
        pool = eng._audit_nodes(core, n)
        res = eng.analyse(core)
        assert core.is_legal(res.turn) and res.lower <= res.value <= res.upper
        if res.nodes:
            gave += 1
            assert (res.lower, res.upper) == search.trivial_bounds(core)
            rest = int(n * 0.0005)
            assert res.iterations == n - rest + int(rest * (pool - res.nodes) / pool)
    assert gave >= 1


# --- a stopped solve's proved turn, and the engine playing a proved win -----------

def random_play(rule, turns_left, seed):
    """Uniformly random legal turns (neutrals with them or not) down to ``turns_left``."""
    pos = to_core(Position(rule=rule, red_neutrals=5 - rule, blue_neutrals=5 - rule))
    rng = seeded_rng("proved win", rule, turns_left, seed)
    while pos.turns_left > turns_left:
        pos.make(rng.choice(sorted(pos.legal_turns())))
    return pos


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
