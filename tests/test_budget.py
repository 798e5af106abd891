"""The engine's budget: one conversion of seconds into fixed work (tree iterations,
solver nodes, CP-SAT work), deterministic, spent as planned and no more; the answers
it buys stay legal and inside the proved bounds. No timings here: the rates behind
the conversion are measured by benchmarks/bench_budget.py (docs/engine.md)."""
import json
import math

import pytest
from click.testing import CliRunner

from szsolver import Position
from szsolver.bounds.model import work_for
from szsolver.cli import main
from szsolver.endgame.solver import solve
from szsolver.bounds import value
from szsolver.engine import search
from szsolver.engine.search import Budget, Engine, budget, iteration_seconds
from szsolver.formats.notation import position_string
from szsolver.formats.record import example_game
from szsolver.rules.playout import random_play, seeded_rng


def sample(rule, ply, seed=0):
    p = Position(rule=rule, red_neutrals=5 - rule, blue_neutrals=5 - rule)
    random_play(p, ply, seeded_rng("budget test", rule, ply, seed))
    return p


def stated_iteration_seconds(pos):
    """docs/engine.md's formula, written out: the log of the cost is c0 + c1 ln t +
    c2 ln^2 t + ln(1 + n) (q0 + q1 ln t), plus under Basic the regimes of the tree's
    exact nodes and pair targets (dc + dq ln(1 + n) up to 10 turns left, and another
    up to 9, to 8 and to 7), under Advanced the late stages' dearer playouts (one term
    up to 9 turns left, another up to 7)."""
    c0, c1, c2, q0, q1 = search.ITERATION_COST[pos.rule]
    t = pos.turns_left
    mine, theirs = (t + 1) // 2, t // 2
    red, blue = (mine, theirs) if pos.side == 0 else (theirs, mine)
    ln = math.log1p(min(pos.red_neutrals, red) + min(pos.blue_neutrals, blue))
    lt = math.log(t)
    log_cost = c0 + c1 * lt + c2 * lt ** 2 + ln * (q0 + q1 * lt)
    if pos.rule == 0:
        (ten, dc10, dq10), (nine, dc9, dq9), (eight, dc8, dq8), (seven, dc7, dq7) = \
            search.LATE_COST[0]
        assert (ten, nine, eight, seven) == (10, 9, 8, 7)
        log_cost += ((dc10 + dq10 * ln if t <= 10 else 0) + (dc9 + dq9 * ln if t <= 9 else 0)
                     + (dc8 + dq8 * ln if t <= 8 else 0) + (dc7 + dq7 * ln if t <= 7 else 0))
    else:
        (nine, dc9, dq9), (seven, dc7, dq7) = search.LATE_COST[1]
        assert (nine, seven) == (9, 7)
        log_cost += (dc9 + dq9 * ln if t <= 9 else 0) + (dc7 + dq7 * ln if t <= 7 else 0)
    return search.COST_MARGIN * math.exp(log_cost)


@pytest.mark.parametrize("rule", [0, 1])
@pytest.mark.parametrize("ply", [0, 8, 16, 21])
def test_the_iterations_granted_are_the_stated_conversion(rule, ply):
    pos = sample(rule, ply)
    assert iteration_seconds(pos) == pytest.approx(stated_iteration_seconds(pos))
    for seconds in (1.0, 3.0):
        plain = budget(pos, seconds)
        assert plain == Budget(seconds, int(seconds / stated_iteration_seconds(pos)))
        assert plain.iterations == search.iterations_for(pos, seconds)
        b = budget(pos, seconds, bounds=True)
        per = seconds * search.BOUNDS_SHARE / 4
        # OR-Tools' import, then 4 solves charged their limit up to BOUNDS_CHARGE in all
        rest = seconds - search.BOUNDS_START - min(4 * per, search.BOUNDS_CHARGE)
        assert b.bounds_seconds == pytest.approx(per)
        assert b.bounds_work == pytest.approx(work_for(per))
        assert b.iterations == int(rest / stated_iteration_seconds(pos))
        assert b.solver_nodes == 0 and b.iterations < plain.iterations
        command = budget(pos, seconds, bounds=True, spent=search.COMMAND_START)
        left = max(rest - search.COMMAND_START, search.MIN_TREE_SHARE * seconds)
        assert command.iterations == int(left / stated_iteration_seconds(pos))


@pytest.mark.parametrize("rule", [0, 1])
@pytest.mark.parametrize("ply", [20, 21, 22, 23, 24, 25, 26, 28])
def test_the_late_cost_is_the_stated_one(rule, ply):
    pos = sample(rule, ply)
    assert iteration_seconds(pos) == pytest.approx(stated_iteration_seconds(pos))


def test_neutrals_in_hand_and_turns_left_make_an_iteration_dearer():
    """What the measurements say: a playout from further back, or with neutrals to
    place, costs more, so a budget buys fewer iterations there."""
    a = Position(rule=0, red_neutrals=5, blue_neutrals=5)
    b = Position(rule=0, red_neutrals=0, blue_neutrals=0)
    assert budget(a, 1.0).iterations < budget(b, 1.0).iterations
    late = sample(0, 20)
    assert budget(a, 1.0).iterations < budget(late, 1.0).iterations
    assert budget(a, 1.0, bounds=True).iterations < budget(a, 1.0).iterations


def test_a_solver_that_stops_leaves_the_rest_to_the_tree():
    pos = sample(1, 24)                                  # 8 turns left, Advanced
    rate = search.SOLVER_NODES_PER_SECOND[1]
    b = budget(pos, 1.0, solver=True)       # (2 s there: past the 1 M iterations' cap)
    assert b.solver_nodes == int(search.SOLVER_SHARE * 1.0 * rate)
    assert b.iterations == int(1.0 * (1 - search.SOLVER_SHARE) / stated_iteration_seconds(pos))
    small = budget(pos, 1.0, solver=True, solver_nodes=10)   # given: the tree has the rest
    assert small.solver_nodes == 10
    assert small.iterations == int((1.0 - 10 / rate) / stated_iteration_seconds(pos))
    assert small.iterations < search.MAX_ITERATIONS
    res = Engine(0.05, solver_nodes=10).analyse(pos)
    assert res.stopped == "node limit"
    assert res.budget == Engine(0.05, solver_nodes=10).plan(pos)
    assert res.iterations == res.budget.iterations == budget(
        pos, 0.05, solver=True, solver_nodes=10).iterations


@pytest.mark.parametrize("rule, ply", [(0, 24), (0, 25), (1, 25), (1, 26)])
def test_the_solver_gets_the_larger_share_where_its_proofs_need_it(rule, ply):
    """8 turns left under Basic, 7 under Advanced: half the budget; one turn later
    LATE_SOLVER_SHARE of it, the tree the rest."""
    pos = sample(rule, ply)
    late = pos.turns_left <= search.LATE_SOLVER_TURNS[rule]
    assert late == (pos.turns_left == (7 if rule == 0 else 6))
    share = search.LATE_SOLVER_SHARE if late else search.SOLVER_SHARE
    b = budget(pos, 1.0, solver=True)
    assert b.solver_nodes == int(share * search.SOLVER_NODES_PER_SECOND[rule])
    assert b.iterations == max(search.MIN_ITERATIONS,
                               int((1 - share) / stated_iteration_seconds(pos)))
    assert Engine(1.0).plan(pos) == b


def stones_only(rule, turns_left, seed=0):
    """Uniformly random stones, every neutral kept: where a proof and an iteration
    cost the most."""
    pos = Position(rule=rule, red_neutrals=5 - rule, blue_neutrals=5 - rule)
    rng = seeded_rng("stones only", rule, turns_left, seed)
    while pos.turns_left > turns_left:
        pos.play(rng.choice([q for q in range(pos.geometry.size) if pos.empty >> q & 1]))
    return pos


def test_under_basic_the_solvers_own_bounds_stand_in_for_the_cpsat_bounds():
    """Where the solver runs first under Basic and stops, its bounds are kept and the
    CP-SAT bounds are not computed: their part of the budget goes to the solver and the
    tree. The CP-SAT bounds, computed apart, are no tighter, and the exact value lies
    within. Under Advanced the CP-SAT bounds still run."""
    pos = stones_only(0, 7)
    eng = Engine(0.05, bounds=True)
    plan = eng.plan(pos)
    assert plan == budget(pos, 0.05, solver=True) and plan.bounds_work == 0
    assert plan.solver_nodes > budget(pos, 0.05, solver=True, bounds=True).solver_nodes
    res = eng.analyse(pos)
    assert res.method == "engine" and res.stopped == "node limit" and res.score_bounds is None
    lo, hi = value.bounds_from_scores(pos, value.score_bounds(pos, work_limit=work_for(1.0)))
    assert lo <= res.lower <= res.upper <= hi and (lo, hi) != value.trivial_bounds(pos)
    exact = solve(pos, pv=False).value
    assert res.lower <= exact <= res.upper and res.lower <= res.value <= res.upper
    far = stones_only(0, 9)                              # the solver not tried: CP-SAT's
    assert Engine(1.0, bounds=True).plan(far) == budget(far, 1.0, bounds=True)
    advanced = stones_only(1, 6)
    aplan = Engine(0.05, bounds=True).plan(advanced)
    assert aplan == budget(advanced, 0.05, solver=True, bounds=True) and aplan.bounds_work > 0
    ares = Engine(0.05, bounds=True).analyse(advanced)
    assert not ares.exact and ares.score_bounds is not None


@pytest.mark.parametrize("left", [8, 7])
def test_where_the_solver_seldom_finishes_the_tree_has_the_whole_budget(left):
    """Under Advanced at 8 and 7 turns left with the supplies in hand the solver is not
    tried (SOLVER_SELDOM) on fewer than SELDOM_NODES nodes: the tree gets the whole
    budget, and the answer stays legal and inside the proved bounds; with the supplies
    spent the solver still answers. Under Basic the same at 8 turns left, not at 7."""
    pos = stones_only(1, left)
    assert search.spendable_neutrals(pos) >= search.SOLVER_SELDOM[1][left]
    plan = Engine(1.0).plan(pos)
    assert plan.solver_nodes == 0 and plan == budget(pos, 1.0)
    # a budget whose nodes reach SELDOM_NODES tries the solver there
    large = search.SELDOM_NODES / search.SOLVER_NODES_PER_SECOND[1] / search.SOLVER_SHARE
    assert Engine(large * 0.99).plan(pos).solver_nodes == 0
    assert Engine(large * 1.01).plan(pos).solver_nodes >= search.SELDOM_NODES
    res = Engine(0.05, bounds=True).analyse(pos)
    assert res.method == "engine" and res.nodes == 0 and pos.is_legal(res.turn)
    assert res.lower <= res.value <= res.upper and res.score_bounds is not None
    spent = uniform_play(1, left, 0)
    assert search.spendable_neutrals(spent) == 0
    assert Engine(1.0).plan(spent).solver_nodes > 0
    res = Engine(1.0).analyse(spent)
    assert res.exact and res.value == solve(spent, pv=False).value
    basic = stones_only(0, left)
    assert Engine(1.0).plan(basic).solver_nodes == (0 if left == 8 else
                                                      budget(basic, 1.0, solver=True).solver_nodes)


@pytest.mark.parametrize("spent", [float("nan"), float("inf"), -0.1, True, "0.1"])
def test_the_engine_refuses_a_bad_time_spent_before(spent):
    from szsolver.errors import InputError
    with pytest.raises(InputError):
        Engine(1.0, spent=spent)


def test_a_budget_below_the_fixed_costs_still_searches():
    pos = sample(0, 10)
    b = budget(pos, 0.05, bounds=True)                   # less than OR-Tools' import alone
    assert b.iterations == max(search.MIN_ITERATIONS,
                               int(0.05 * search.MIN_TREE_SHARE / stated_iteration_seconds(pos)))
    assert b.bounds_seconds == search.MIN_BOUNDS_SECONDS


def test_the_engine_spends_its_plan_and_the_conversion_is_deterministic():
    pos = sample(0, 14)
    eng = Engine(0.05, bounds=True)
    plan = eng.plan(pos)
    assert plan == Engine(0.05, bounds=True).plan(pos.copy()) == budget(pos, 0.05, bounds=True)
    a, b = eng.analyse(pos), Engine(0.05, bounds=True).analyse(pos.copy())
    assert a.iterations == plan.iterations and a.budget == plan
    assert (a.turn, a.value, a.candidates, a.pv, a.score_bounds) == \
        (b.turn, b.value, b.candidates, b.pv, b.score_bounds)


def test_cli_best_is_the_api_and_says_what_it_spent():
    pos = sample(1, 16)
    run = CliRunner().invoke
    first = run(main, ["best", position_string(pos), "--time", "0.05", "--json"])
    assert first.exit_code == 0, first.output
    again = run(main, ["best", position_string(pos), "--time", "0.05", "--json"])
    data, data2 = json.loads(first.output), json.loads(again.output)
    # the command's start-up is planned as spent: a fixed figure
    api = Engine(0.05, bounds=True, spent=search.COMMAND_START).analyse(pos)
    for d in (data2, api.to_json(pos.geometry)):
        assert {k: v for k, v in d.items() if k != "seconds"} == \
            {k: v for k, v in data.items() if k != "seconds"}
    assert data["budget"] == budget(pos, 0.05, bounds=True,
                                    spent=search.COMMAND_START).to_json()
    assert data["iterations"] == data["budget"]["iterations"]


@pytest.mark.parametrize("rule", [0, 1])
@pytest.mark.parametrize("ply", [0, 8, 16, 20, 22, 23, 24, 26])
def test_answers_stay_legal_and_inside_the_proved_bounds_at_every_stage(rule, ply):
    """Start, turns 8, 16, 12 to 9 turns left (bounds; the solver from 9), 8 and 6
    turns left: a legal turn, the value inside the proved bounds (at 6 turns left
    around the exact value), and the CP-SAT score bounds hold for a real continuation
    (they bound any play; the value's bounds bound the game's value); under Basic,
    where the solver ran and stopped, there are none (its own bounds stand in)."""
    pos = sample(rule, ply)
    res = Engine(0.05, bounds=True).analyse(pos)
    assert pos.is_legal(res.turn)
    assert res.lower <= res.value <= res.upper
    if pos.turns_left <= 6:
        exact = solve(pos).value
        assert res.lower <= exact <= res.upper
        assert res.value == exact or not res.exact
    if res.exact:
        assert pos.turns_left <= search.SOLVER_TURNS and res.method == "solver"
    else:
        end = pos.copy()
        random_play(end, end.turns_left, seeded_rng("budget end", rule, ply))
        assert res.lower <= end.value() <= res.upper
        sb = res.score_bounds
        if rule == 0 and res.nodes:
            assert sb is None
            return
        r, b = end.scores()
        assert sb["red"][0] <= r <= sb["red"][1] and sb["blue"][0] <= b <= sb["blue"][1]


def test_the_solver_gets_a_table_its_node_limit_can_fill(monkeypatch):
    """At 8 turns left the default table is 256 MiB (0.5 s of page faults for a search
    of a third of a second): the engine's solve gets one no larger than its node
    limit, and its answer is still within the proved bounds."""
    from szsolver.endgame import solver as endgame_solver
    seen = []
    real = endgame_solver.solve

    def spy(pos, **kw):
        seen.append(kw)
        return real(pos, **kw)
    monkeypatch.setattr(endgame_solver, "solve", spy)
    pos = uniform_play(0, 8, 0)             # 8 turns left, the supplies spent: tried
    res = Engine(0.1).analyse(pos)
    (kw,) = seen
    nodes = Engine(0.1).plan(pos).solver_nodes
    assert kw["node_limit"] == nodes and nodes < kw["tt_size"] <= 2 * nodes
    assert kw["tt_size"] < endgame_solver.tt_entries_for(8)
    assert res.lower <= res.value <= res.upper


def test_a_judgement_stays_within_its_budget():
    """check and annotate judge a turn with one search and then more iterations through
    the played turn: both together within the budget's iterations."""
    pos = sample(0, 12)
    eng = Engine(0.05)
    planned = eng.iterations_for(pos)
    poor = next(t for t in pos.legal_turns() if t >= 64)    # a neutral turn, seldom chosen
    j = eng.judge(pos, poor)
    assert j["visits"]["played"] > 0 and j["best"] != poor
    assert j["iterations"] <= planned
    assert j == Engine(0.05).judge(pos.copy(), poor)


def test_wall_clock_search_keeps_its_time_when_the_bounds_overrun(monkeypatch):
    """--wall-clock: the tree search's clock starts when it starts; what the bounds
    took beyond their share (here ten times the whole budget, as OR-Tools' import on a
    busy machine) is not taken from it. A fake clock: each look advances it 0.1 s."""
    clock = [0.0]

    def perf_counter():
        clock[0] += 0.1
        return clock[0]

    def slow_bounds(pos, time_limit=None, work_limit=None):
        clock[0] += 10.0
        return {"red": [0, 16], "blue": [0, 16]}
    monkeypatch.setattr(search.time, "perf_counter", perf_counter)
    monkeypatch.setattr(value, "score_bounds", slow_bounds)
    pos = sample(0, 10)
    res = Engine(1.0, wall_clock=True, bounds=True, solver_turns=0).analyse(pos)
    # the search's 0.9 s (the budget less the bounds' share) is nine looks of the clock
    assert res.iterations >= 8 * search.DEADLINE_CHUNK
    assert res.budget is None and res.to_json()["budget"] is None


def uniform_play(rule, turns_left, seed):
    """Uniformly random legal play down to ``turns_left`` (neutral turns far outnumber
    stone turns, so the supplies go early)."""
    pos = Position(rule=rule, red_neutrals=5 - rule, blue_neutrals=5 - rule)
    rng = seeded_rng("horizon", rule, turns_left, seed)
    while pos.turns_left > turns_left:
        pos.play(rng.choice(list(pos.legal_turns())))
    return pos


@pytest.mark.parametrize("rule, left, seconds", [(0, 9, 1.0), (0, 10, 1.0), (1, 9, 1.0),
                                                 (1, 10, 2.0)])
@pytest.mark.parametrize("seed", [0, 1])
def test_beyond_eight_turns_the_spent_supplies_are_proved_within_the_budget(rule, left, seconds,
                                                                           seed):
    """Beyond 8 turns left the solver runs first where it usually finishes in its
    nodes: after uniformly random play, with the neutrals spent, 9 and 10 turns left
    are proved at the default budget under Basic (Advanced: 9 at 1 s, 10 at 2 s), and
    the engine's turn is an optimal one (its child's value, solved on its own, is the
    position's value, solved on its own)."""
    pos = uniform_play(rule, left, seed)
    assert search.spendable_neutrals(pos) == 0
    res = Engine(seconds, bounds=True).analyse(pos)
    assert res.method == "solver" and res.exact
    alone = solve(pos, pv=False, node_limit=50_000_000)
    assert alone.exact and res.value == res.lower == res.upper == alone.value
    child = pos.copy()
    child.play(res.turn)
    after = solve(child, pv=False, node_limit=50_000_000)
    assert after.exact and after.value == alone.value


@pytest.mark.parametrize("rule", [0, 1])
def test_beyond_eight_turns_with_neutrals_in_hand_the_tree_keeps_the_whole_budget(rule):
    """Where the solver seldom finishes (both supplies in hand at 9 turns left) it is
    not tried: the plan has no solver nodes and the tree its full iterations."""
    pos = stones_only(rule, 9)
    assert search.spendable_neutrals(pos) >= 8
    plan = Engine(1.0, bounds=True).plan(pos)
    assert plan.solver_nodes == 0
    assert plan.iterations == budget(pos, 1.0, bounds=True).iterations
    res = Engine(0.05).analyse(pos)
    assert res.method == "engine" and not res.exact
