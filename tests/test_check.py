"""szsolver check: judgements against a brute-force minimax written here, in pure
Python on the reference rules (independent of the C solver), and the command line."""
import json

import pytest
from click.testing import CliRunner

from szsolver.analysis.check import Facts, check, checked_turn_to_judge, judge, turn_facts
from szsolver.verdict import ESTIMATE_MARGIN, classify, classify_bounds
from szsolver.cli import main
from szsolver.endgame.solver import solve
from szsolver.errors import IllegalTurnError, InputError
from szsolver.formats.notation import format_turn, position_string
from szsolver.formats.record import GameRecord, example_game, example_path, game_string
from szsolver.rules.reference import Position as Reference


def minimax(pos, memo):
    """The exact value (Red's side) by plain minimax over every legal turn."""
    if pos.is_over():
        return pos.value()
    key = (pos.red, pos.blue, pos.neutral, pos.red_neutrals, pos.blue_neutrals, pos.side)
    if key not in memo:
        vals = []
        for t in pos.legal_turns():
            pos.make(t)
            vals.append(minimax(pos, memo))
            pos.unmake(t)
        memo[key] = max(vals) if pos.side == 0 else min(vals)
    return memo[key]


_BRUTE = {}


def brute(text):
    """{turn text: value after it} for every legal turn of the position ``text``."""
    if text not in _BRUTE:
        pos, memo, out = Reference(text), {}, {}
        for t in pos.legal_turns():
            pos.make(t)
            out[str(t)] = minimax(pos, memo)
            pos.unmake(t)
        _BRUTE[text] = out
    return _BRUTE[text]


def verdict_by_hand(best, played, red_moves):
    """The rules of the verdicts, written out again (Red's-side values)."""
    gain = lambda v: v if red_moves else -v          # the mover's view
    result = lambda v: (gain(v) > 0) - (gain(v) < 0)
    loss = gain(best) - gain(played)
    if loss == 0:
        return 0, "optimal"
    if result(played) < result(best):
        return loss, "blunder"
    return loss, ("mistake" if loss >= 100 else "inaccuracy")


# Positions found by a seeded search (random play, then brute force) and pinned:
# one turn of each verdict, 1-3 turns left, both rules. The test re-derives every
# number by brute force; the pins only say which verdict each turn must show.
CASES = [
    ("R./BBNR.R/NBRBRRN/..B.BRBR/.BNRN.NR./NRNB...R/NBB..RB/BRRRBB/.. B 0 2 basic",
     {"27": "optimal", "27n15": "inaccuracy", "15": "mistake", "56": "blunder"}),
    ("N./NN.R.R/.B.R.RN/..RBBNBB/BBR.NBB.R/.NRBRR.R/BN.R.RB/..BBNR/RB R 2 0 basic",
     {"25": "optimal", "25n15": "inaccuracy", "15": "mistake", "74": "blunder"}),
    ("B./BNRRR./RRRBBNR/N.NNNBBR/BBRRN.R../.B.B..RB/..NRB../.NRB.R/B. B 1 0 basic",
     {"56": "optimal", "59": "inaccuracy", "58": "mistake", "28": "blunder"}),
    ("../.NRR../RNN.RBB/.BBBR..R/..BBNBNBN/RRRB.NRR/RRB..BR/B..B.N/BR R 1 0 advanced",
     {"41n75": "optimal", "66": "inaccuracy", "14": "mistake", "14n15": "blunder"}),
    (".R/.NBRN./N..B..B/NRB.NNRR/RBRBNRRR./RN...BBR/NBRB..B/.BBR.R/B. B 1 0 advanced",
     {"64": "optimal", "37": "inaccuracy", "14": "mistake", "23": "blunder"}),
]
TURN_CASES = [(pos, turn, v) for pos, turns in CASES for turn, v in turns.items()]


@pytest.mark.parametrize("text,turn,verdict", TURN_CASES)
def test_check_agrees_with_brute_force(text, turn, verdict):
    values = brute(text)
    red_moves = text.split()[1] == "R"
    best_value = max(values.values()) if red_moves else min(values.values())
    best = sorted(t for t, v in values.items() if v == best_value)
    loss, by_hand = verdict_by_hand(best_value, values[turn], red_moves)
    assert by_hand == verdict          # the pinned position still shows this verdict

    res = check(Reference(text), turn)
    assert res.exact and res.method == "solver"
    assert res.value_before == res.best_value == best_value
    assert res.played_value == values[turn]
    assert res.loss == loss and res.verdict == verdict
    from szsolver.formats.notation import format_turn
    assert sorted(format_turn(t) for t in res.best) == best
    assert res.lower == res.upper == {"value_before": best_value, "played_value": values[turn],
                                      "loss": loss}


def test_cases_cover_every_verdict_for_each_rule():
    for rule in ("basic", "advanced"):
        seen = {v for pos, turns in CASES if pos.endswith(rule) for v in turns.values()}
        assert seen == {"optimal", "inaccuracy", "mistake", "blunder"}
    assert {Reference(p).turns_left for p, _ in CASES} == {1, 2, 3}


def test_classify_matches_the_rules_by_hand():
    for best in range(-303, 304, 7):
        for played in range(-303, 304, 11):
            for mover in (0, 1):
                if (best - played) * (1 if mover == 0 else -1) < 0:
                    continue
                assert classify(best, played, mover) == verdict_by_hand(best, played, mover == 0)


def test_estimates_read_results_with_a_margin():
    assert classify(40, 10, 0, ESTIMATE_MARGIN) == (0, "optimal")       # within precision
    assert classify(80, 20, 0, ESTIMATE_MARGIN) == (60, "blunder")      # clear win -> unclear
    assert classify(300, 190, 0, ESTIMATE_MARGIN) == (110, "mistake")
    assert classify(-300, -220, 1, ESTIMATE_MARGIN) == (80, "inaccuracy")


def test_bound_verdicts_hold_for_every_value_inside_the_bounds():
    boxes = [(-205, -95), (-101, 3), (-2, 2), (0, 0), (1, 99), (95, 205), (198, 202), (300, 300)]
    for mover in (0, 1):
        for b in boxes:
            for p in boxes:
                v = classify_bounds(b, p, mover)
                pairs = [(x, y) for x in range(b[0], b[1] + 1) for y in range(p[0], p[1] + 1)
                         if (x - y) * (1 if mover == 0 else -1) >= 0]
                if v is not None and pairs:      # (boxes with no pair cannot arise)
                    assert {classify(x, y, mover)[1] for x, y in pairs} == {v}


@pytest.mark.parametrize("text,turn,verdict", [c for c in TURN_CASES if c[2] == "optimal"])
def test_a_value_proved_without_its_optimal_turns_does_not_condemn_a_turn(text, turn, verdict):
    """A limit may strike after the value is proved and before the optimal turns are:
    a turn missing from that partial list is not thereby proved worse."""
    from szsolver.rules.backends import to_core
    values = brute(text)
    core = to_core(Reference(text))
    v = values[turn]
    res = judge(core, checked_turn_to_judge(core, turn), Facts(v, v, stopped="node limit"),
                Facts(v, v, True))
    assert res.played_value == v and res.loss == 0 and res.verdict == "optimal"
    assert res.verdict_proved and not res.exact


def _truth(pos, turn):
    """(value before, every optimal turn, value after ``turn``) by two plain solves."""
    r = solve(pos)
    child = pos.copy()
    child.make(turn)
    return r.value, sorted(r.best), solve(child).value


def _scores_fit(facts, pos):
    """The final scores of a proved line agree with the proved value: the value is
    100 x the score difference plus a tie-break the position allows."""
    from szsolver.bounds.value import tie_break_range
    lo, hi = tie_break_range(pos)
    tie = facts.lower - 100 * (facts.scores["red"] - facts.scores["blue"])
    return lo <= tie <= hi


@pytest.mark.parametrize("text", [c[0] for c in CASES])
def test_turn_facts_agree_with_brute_force_on_every_turn(text):
    from szsolver.rules.backends import to_core
    from szsolver.formats.notation import format_turn
    values = brute(text)
    core = to_core(Reference(text))
    best_value = (max if core.side == 0 else min)(values.values())
    best = sorted(t for t, v in values.items() if v == best_value)
    for turn in core.legal_turns():
        before, played = turn_facts(core, turn)
        assert before.exact and played.exact
        assert before.lower == before.upper == best_value
        assert sorted(format_turn(t) for t in before.best) == best
        assert played.lower == played.upper == values[format_turn(turn)]
        assert _scores_fit(before, core)


@pytest.mark.parametrize("text", [c[0] for c in CASES])
def test_is_any_turn_better_answers_as_brute_force_does(text):
    """The root test "is any turn better than the played one?" (9 turns left by
    default) on every turn of small positions: no better turn exactly when the brute
    force calls the turn optimal, and then the value before is the played value; else
    a proved bound beyond it that the true value meets."""
    from szsolver.analysis.check import better_than_played
    from szsolver.rules.backends import to_core
    from szsolver.formats.notation import format_turn
    values = brute(text)
    core = to_core(Reference(text))
    red = core.side == 0
    best_value = (max if red else min)(values.values())
    for turn in core.legal_turns():
        v = values[format_turn(turn)]
        f, used = better_than_played(core, Facts(v, v, True), 10 ** 8)
        assert used > 0 and not f.exact
        if v == best_value:
            assert (f.lower, f.upper) == (v, v)
        elif red:
            assert f.lower == v + 1 <= best_value and f.upper == Facts().upper
        else:
            assert f.upper == v - 1 >= best_value and f.lower == Facts().lower


def _deeper_cases():
    """Positions with 4-6 turns left (the rulebook game, and random play under both
    rules with neutrals in hand), each with the game's or a random turn and an
    optimal one."""
    from szsolver import Position
    from szsolver.rules.backends import to_core
    from szsolver.rules.playout import random_play, seeded_rng
    game = example_game()
    out = []
    for left in (4, 5, 6):
        i = len(game.turns) - left
        out.append((to_core(game.position_before(i)), game.turns[i]))
    for rule, left in ((0, 5), (1, 4), (1, 5), (0, 6)):
        p = Position(rule=rule, red_neutrals=5 - rule, blue_neutrals=5 - rule)
        rng = seeded_rng("turn facts", rule, left)
        random_play(p, p.turns_left - left, rng)
        core = to_core(p)
        turns = core.legal_turns()
        out.append((core, turns[rng.randrange(len(turns))]))
    return out


def test_turn_facts_agree_with_plain_solves():
    for core, turn in _deeper_cases():
        value, best, after = _truth(core, turn)
        for t in {turn, best[0]}:
            before, played = turn_facts(core, t)
            child = core.copy()
            child.make(t)
            assert before.exact and before.lower == value and before.best == best
            assert played.exact and played.lower == (after if t == turn else solve(child).value)
            assert _scores_fit(before, core) and _scores_fit(played, child)


def test_beyond_the_horizon_probes_prove_the_played_value_and_claim_no_more_than_proved():
    """One or two turns beyond ``exact_turns`` (9 and 10 turns left by default) the
    positions after the played turn and the engine's turns are probed by the solver:
    the played value comes out proved, a verdict called proved is the solver's, the
    bounds hold the true values, and the best turn is a legal one."""
    from szsolver.analysis.check import PROBE_TURNS
    for core, turn in _deeper_cases():
        value, best, after = _truth(core, turn)
        loss, truth = classify(value, after, core.side)
        for beyond in range(1, PROBE_TURNS + 1):
            res = check(core, turn, exact_turns=core.turns_left - beyond,
                        engine_seconds=0.02, cpsat=False)
            assert res.method == "engine" and not res.exact
            assert res.played_exact and res.played_value == after
            assert res.lower["value_before"] <= value <= res.upper["value_before"]
            assert res.lower["played_value"] <= after <= res.upper["played_value"]
            assert res.lower["loss"] <= loss <= res.upper["loss"]
            if res.verdict_proved:
                assert res.verdict == truth
            legal = {format_turn(t) for t in core.legal_turns()}
            assert res.best and {format_turn(t) for t in res.best} <= legal


@pytest.mark.parametrize("rule, left", [(0, 9), (0, 11), (1, 10)])
def test_beyond_the_horizon_with_the_supplies_spent_the_check_is_exact(rule, left):
    """Where the solver usually finishes beyond 8 turns left (uniformly random play
    spends the neutrals early), the check is the solver's: exact, its values those of
    solves of the position and of the position after the turn on their own, and its
    verdict theirs."""
    from szsolver import Position
    from szsolver.engine.search import spendable_neutrals
    from szsolver.rules.backends import to_core
    from szsolver.rules.playout import seeded_rng
    pos = Position(rule=rule, red_neutrals=5 - rule, blue_neutrals=5 - rule)
    rng = seeded_rng("check beyond", rule, left)
    while pos.turns_left > left:
        pos.play(rng.choice(list(pos.legal_turns())))
    core = to_core(pos)
    assert spendable_neutrals(core) == 0
    turn = rng.choice(list(core.legal_turns()))
    res = check(core, turn)
    assert res.method == "solver" and res.exact and res.verdict_proved
    value = solve(core, pv=False, node_limit=100_000_000)
    child = core.copy()
    child.make(turn)
    after = solve(child, pv=False, node_limit=100_000_000)
    assert value.exact and after.exact
    assert (res.value_before, res.played_value) == (value.value, after.value)
    assert res.verdict == classify(value.value, after.value, core.side)[1]
    first = core.copy()
    first.make(int(res.best[0]))
    assert solve(first, pv=False, node_limit=100_000_000).value == value.value


def test_probes_beyond_the_horizon_are_fixed_work():
    """The probes' nodes come from the budget by one pure conversion (the rule's
    solver rate), so the same check gives the same answer twice."""
    from szsolver.analysis.check import probe_nodes
    from szsolver.engine.search import SOLVER_NODES_PER_SECOND
    core, turn = _deeper_cases()[0]
    assert probe_nodes(core, 2.0) == probe_nodes(core, 2.0) == \
        int(2.0 * SOLVER_NODES_PER_SECOND[core.rule])
    runs = [check(core, turn, exact_turns=core.turns_left - 2, engine_seconds=0.02,
                  cpsat=False).to_json() for _ in range(2)]
    for r in runs:
        del r["seconds"]
    assert runs[0] == runs[1]


def test_a_probed_turn_proved_better_than_the_engine_s_becomes_the_best_turn():
    from szsolver.analysis.check import probe
    from szsolver.endgame.solver import turn_values
    for core, turn in _deeper_cases()[:2]:
        values = dict(turn_values(core))             # best first for the side to move
        ranked = list(values)
        top, worst = ranked[0], ranked[-1]
        estimate = {"best": worst, "best_value": values[worst], "played_value": 0,
                    "candidates": [worst, top], "iterations": 100, "pv": []}
        out = probe(core, turn if turn not in (top, worst) else ranked[1], estimate,
                    10 ** 6, exact_turns=core.turns_left - 2)
        assert out["best"] == top and out["best_exact"]
        assert out["best_value"] == out["best_bound"] == values[top]


def test_an_estimate_reads_a_result_the_bounds_prove():
    """A played +1 proved (a win on a neutral) is a win, not "too close to call":
    against an estimated +101 the turn lost a point, a mistake, not a blunder. Not
    proved, +1 is still read with the estimate's margin."""
    core, turn = _deeper_cases()[0]
    other = next(t for t in core.legal_turns() if t != turn)
    sign = 1 if core.side == 0 else -1
    estimate = {"best": other, "best_value": 101 * sign, "played_value": sign,
                "iterations": 1000, "pv": []}
    res = judge(core, turn, Facts(), Facts(sign, sign, True), estimate)
    assert (res.loss, res.verdict, res.verdict_proved) == (100, "mistake", False)
    res = judge(core, turn, Facts(), Facts(0, 0, True), {**estimate, "played_value": 0})
    assert (res.loss, res.verdict) == (101, "blunder")
    res = judge(core, turn, Facts(), Facts(), estimate)
    assert res.verdict == "blunder"          # +1 estimated: too close to call


def test_a_proved_bound_on_the_played_value_does_not_widen_the_engine_s_loss():
    """The engine's two estimates come from one search and are comparable; a proved
    bound moves both, not one: the played value proved at most -1 (a loss on a
    neutral), estimated +29 beside a best turn at +64, is no loss of 65 (a blunder),
    and a best turn estimated too close to call is no proved change of result."""
    core, turn = _deeper_cases()[0]
    other = next(t for t in core.legal_turns() if t != turn)
    sign = 1 if core.side == 0 else -1
    played = Facts(-803, -1) if sign > 0 else Facts(1, 803)
    estimate = {"best": other, "best_value": 64 * sign, "played_value": 29 * sign,
                "iterations": 1000, "pv": []}
    res = judge(core, turn, Facts(), played, estimate)
    assert (res.verdict, res.played_value) == ("optimal", -sign)      # 35: within precision
    res = judge(core, turn, Facts(), played,
                {**estimate, "best_value": 47 * sign, "played_value": -10 * sign})
    assert (res.loss, res.verdict) == (57, "inaccuracy")


def test_the_engine_s_own_turn_proved_is_the_best_s_level():
    """Where the engine's own turn is proved, its value, not the gap of the search's
    estimates, says how good the best turn is: played proved a neutral worse than the
    engine's turn (both lost by a neutral), estimated 81 apart, is an inaccuracy."""
    core, turn = _deeper_cases()[0]
    other = next(t for t in core.legal_turns() if t != turn)
    s = 1 if core.side == 0 else -1
    estimate = {"best": other, "best_value": -s, "best_exact": True, "best_estimate": 29 * s,
                "played_value": -52 * s, "iterations": 1000, "pv": []}
    res = judge(core, turn, Facts(), Facts(-2 * s, -2 * s, True), estimate)
    assert (res.best_value, res.loss, res.verdict) == (-s, 1, "inaccuracy")


def test_turn_facts_stopped_by_a_node_limit_keep_proved_bounds():
    for core, turn in _deeper_cases()[:4]:
        value, best, after = _truth(core, turn)
        loss, verdict = classify(value, after, core.side)
        for limit in (1, 30, 300, 3000, 30_000, 300_000):
            before, played = turn_facts(core, turn, node_limit=limit)
            assert before.lower <= value <= before.upper
            assert played.lower <= after <= played.upper
            if before.exact:
                assert before.best == best
            if played.exact:
                assert played.lower == after
            res = judge(core, turn, before, played)
            assert res.lower["value_before"] <= value <= res.upper["value_before"]
            assert res.lower["loss"] <= loss <= res.upper["loss"]
            if res.verdict is not None:
                assert res.verdict_proved and res.verdict == verdict
            if res.exact:
                assert (res.value_before, res.played_value, res.loss) == (value, after, loss)


def _told_bounds(msgs, phase):
    """The (lower, upper) pairs a progress callback was told in ``phase``."""
    out = []
    for m in msgs:
        if m.startswith(phase + ": ") and "<= value <=" in m:
            lo, rest = m[len(phase) + 2:].split(" <= value <= ")
            out.append((int(lo), int(rest.split()[0])))
    return out


def test_check_tells_its_progress_and_every_bound_it_tells_holds():
    for core, turn in _deeper_cases()[:5]:
        value, best, after = _truth(core, turn)
        msgs = []
        res = check(core, turn, progress=msgs.append)
        assert res.exact and res.value_before == value and res.played_value == after
        told_after, told_before = _told_bounds(msgs, "after the turn"), \
            _told_bounds(msgs, "before the turn")
        assert told_after and told_after[-1] == (after, after)
        assert all(lo <= after <= hi for lo, hi in told_after)
        assert all(lo <= value <= hi for lo, hi in told_before)
        if turn not in best:           # the played value alone does not settle it
            assert told_before and told_before[-1] == (value, value)
        assert msgs == [m for m in msgs if m.split(":")[0] in
                        ("after the turn", "before the turn", "best turns")], msgs


def test_check_tells_when_it_estimates():
    game = example_game()
    i = 20                                      # 12 turns left: bounds, then the engine
    msgs = []
    check(game.position_before(i), game.turns[i], engine_seconds=0.05, progress=msgs.append)
    assert msgs[0] == "CP-SAT score bounds"
    assert msgs[1].startswith("engine estimate (") and msgs[1].endswith(" iterations)")


def test_cli_check_shows_progress_on_a_terminal_and_clears_it(on_a_terminal):
    """On a terminal, stderr carries one updating progress line that is cleared at the
    end; the answer on stdout is the same as without a terminal."""
    text = CASES[3][0]
    plain = run("check", text, "66")
    code, out, err = on_a_terminal(["check", text, "66"])
    assert code == 0
    assert out == plain.output
    err = err.decode()
    assert "before the turn: " in err or "after the turn: " in err
    assert err.endswith("\r\x1b[K")            # the line is cleared


def test_a_progress_line_is_cleared_before_an_error_is_printed():
    import click
    from szsolver.cli.common import BadInput, _ProgressLine

    lines = []

    @click.command()
    def fails():
        lines.append(_ProgressLine())
        lines[0]("working")
        raise BadInput("it went wrong")

    r = CliRunner().invoke(fails, [])
    assert r.exit_code == 2
    # off a terminal click drops the escape codes: the clearing shows as its "\r"
    assert r.stderr == "\rworking, 0 s\rError: it went wrong\n"
    assert lines[0].done.is_set()               # and its clock stopped


def test_a_time_limit_too_small_still_answers_with_proved_bounds():
    game = example_game()
    i = 26                                      # 6 turns left: the true values are quick
    pos, turn = game.position_before(i), game.turns[i]
    true_before = solve(pos).value
    after = pos.copy()
    after.play(turn)
    true_after = solve(after).value
    res = check(pos, turn, time_limit=0.001)
    assert not res.exact and res.method in ("engine", "bounds")
    assert res.lower["value_before"] <= true_before <= res.upper["value_before"]
    assert res.lower["played_value"] <= true_after <= res.upper["played_value"]
    loss = abs(true_before - true_after)
    assert res.lower["loss"] <= loss <= res.upper["loss"]


def test_engine_judgement_far_from_the_end_is_estimated_and_bounded():
    game = example_game()
    i = 20                                      # 12 turns left
    res = check(game.position_before(i), game.turns[i], engine_seconds=0.05)
    assert res.method == "engine" and not res.exact
    assert res.verdict in ("optimal", "inaccuracy", "mistake", "blunder")
    assert res.lower["value_before"] <= res.value_before <= res.upper["value_before"]
    assert res.lower["played_value"] <= res.played_value <= res.upper["played_value"]
    assert res.score_bounds is not None
    again = check(game.position_before(i), game.turns[i], engine_seconds=0.05)
    assert (again.value_before, again.played_value, again.best) == \
        (res.value_before, res.played_value, res.best)          # deterministic


def test_a_time_limit_holds_where_the_engine_cost_model_is_too_hopeful(monkeypatch):
    """The engine's budget is a number of iterations from a cost model; on a machine
    slower than the model (here: a model that thinks iterations are free) the time
    limit still stops it, and the answer says so and keeps its proved bounds."""
    import szsolver.engine.search as search
    monkeypatch.setattr(search, "ITERATION_COST", {0: (-60, 0, 0, 0, 0), 1: (-60, 0, 0, 0, 0)})
    game = example_game()
    i = 20                                      # 12 turns left: bounds, then the engine
    pos, turn = game.position_before(i), game.turns[i]
    assert search.iterations_for(pos, 1.0) == search.MAX_ITERATIONS
    res = check(pos, turn, time_limit=1.0, cpsat=False)
    note = next(n for n in res.notes if n.startswith("engine estimate ("))
    assert note.endswith("; stopped by the time limit)")
    iterations = int(note.split("(")[1].split(" ")[0].replace(",", ""))
    assert 0 < iterations < search.MAX_ITERATIONS
    assert res.method == "engine" and not res.exact and res.engine_stopped
    assert res.lower["value_before"] <= res.value_before <= res.upper["value_before"]
    r = CliRunner().invoke(main, ["check", position_string(pos), format_turn(turn, pos.geometry),
                                  "--time-limit", "0.5"])
    assert r.exit_code == 0 and "cut the engine's search short" in r.output
    monkeypatch.undo()          # the real model: without a time limit nothing stops it
    assert check(pos, turn, engine_seconds=0.05, cpsat=False).engine_stopped is False


@pytest.mark.parametrize("index, limit", [(20, 5.0), (23, 1.0), (24, 1.0), (24, 3.0)])
def test_a_time_limit_is_fixed_work_planned_from_the_limit(monkeypatch, index, limit):
    """Under a time limit every part of a check is fixed work from the limit alone
    (``plan``): the CP-SAT bounds by work, every solve by nodes, the engine by
    iterations; the clock is only a safety net. So a fresh process (the command, with
    OR-Tools still to import) and a warm one (the web's jobs) do the same work and give
    the same answer (12, 9 and 8 turns left: the engine, the probes, the solver)."""
    import szsolver.endgame.solver as solver_module
    from szsolver.analysis import check as check_module
    from szsolver.bounds import value
    from szsolver.engine.search import Engine
    plan = check_module.plan(limit)
    bounds, solves, judged = [], [], []
    real_bounds, real_solve, real_facts = value.score_bounds, solver_module.solve, \
        check_module.turn_facts
    real_judge = Engine.judge

    def spy_bounds(pos, time_limit=None, work_limit=None):
        bounds.append((time_limit, work_limit))
        return real_bounds(pos, time_limit, work_limit)

    def spy_solve(pos, **kw):
        solves.append(kw.get("node_limit"))
        return real_solve(pos, **kw)

    def spy_facts(pos, turn, time_limit=None, node_limit=None, **kw):
        solves.append(node_limit)
        return real_facts(pos, turn, time_limit, node_limit, **kw)

    def spy_judge(self, pos, turn, seconds=None, **kw):
        judged.append(seconds)
        return real_judge(self, pos, turn, seconds, **kw)
    monkeypatch.setattr(value, "score_bounds", spy_bounds)
    monkeypatch.setattr(solver_module, "solve", spy_solve)
    monkeypatch.setattr(check_module, "turn_facts", spy_facts)
    monkeypatch.setattr(Engine, "judge", spy_judge)
    game = example_game()
    pos = game.position_before(index)
    res = check(pos, game.turns[index], time_limit=limit)
    assert all(t is None and w == plan.bounds_work for t, w in bounds)
    assert bool(bounds) == (plan.bounds_work is not None and pos.turns_left > 10)
    assert all(n is not None for n in solves) and bool(solves) == (pos.turns_left <= 10)
    solver_used = pos.turns_left <= 10
    assert judged == ([] if res.exact else
                      [check_module.plan(limit, solver=solver_used).engine_seconds])
    assert res.lower["value_before"] <= res.value_before <= res.upper["value_before"]


def test_bad_turns_are_input_errors():
    game = example_game()
    pos = game.position_before(10)
    with pytest.raises(IllegalTurnError, match="illegal turn 44"):
        checked_turn_to_judge(pos, "44")                  # occupied
    with pytest.raises(InputError, match="game is over"):
        checked_turn_to_judge(game.final, "15")
    with pytest.raises(ValueError):
        check(pos, "4x")


def test_an_illegal_turn_is_worded_once_for_judging_and_playing():
    # the judge and the rules refuse an illegal turn with one message, naming the turn
    pos = example_game().position_before(10)
    for turn in ("44", "15n44"):
        with pytest.raises(IllegalTurnError) as judged:
            checked_turn_to_judge(pos, turn)
        with pytest.raises(IllegalTurnError) as played:
            pos.copy().play(turn)
        assert str(judged.value) == str(played.value) == f"illegal turn {turn}: point 44 is occupied"


# --- command line -----------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(main, list(args))


def test_cli_check_a_proved_turn_of_the_example_game():
    r = run("check", example_path(), "--turn", "30")
    assert r.exit_code == 0, r.output
    assert r.output.strip().startswith("48 was optimal (proved): Red still wins 16-14.")
    r = run("check", "--example", "--turn", "26", "--json")
    data = json.loads(r.output)
    assert {"position", "played", "value_before", "played_value", "best", "best_value", "loss",
            "verdict", "exact", "method", "lower", "upper", "seconds"} <= set(data)
    assert (data["played"], data["value_before"], data["played_value"], data["best"],
            data["loss"], data["verdict"], data["exact"], data["method"]) == \
        ("42n75", 100, 198, ["35n75"], 98, "inaccuracy", True, "solver")
    assert data["turn_number"] == 26


def test_cli_check_position_and_turn():
    text, turns = CASES[0]
    r = run("check", text, "56", "--json")
    data = json.loads(r.output)
    assert data["verdict"] == "blunder" and data["exact"] and data["mover"] == "blue"


@pytest.mark.parametrize("args,message", [
    (["--example", "--turn", "33"], "turn 33 is outside the game"),
    (["--example", "--turn", "0"], "turn 0 is outside the game"),
    # the game's own range, not the option's ("must be at least 0", and 0 was refused)
    (["--example", "--turn", "-1"], "turn -1 is outside the game (turns 1-32)"),
    # however large: past 64 bits too (it said 'must be at least -9223372036854775807')
    (["--example", "--turn", "-" + "9" * 20],
     f"turn -{'9' * 20} is outside the game (turns 1-32)"),
    (["--example", "--turn", "9" * 20], f"turn {'9' * 20} is outside the game (turns 1-32)"),
    (["--example", "--turn", "9" * 5000],
     f"turn {'9' * 40}... is outside the game (turns 1-32)"),
    (['[Position "R./.NN..B/N.R.R../RB.RRR../BR.BN..R./B.BBN.../RBRNB../B.BNRB/BR R 1 3 basic"]'
      " 14. 35 57", "--turn", "-1"], "turn -1 is outside the game (turns 27-28)"),
    (["--example", "--turn", "3", "44"], "not both"),
    (["--example"], "missing TURN"),
    (["../....../......./......../....N..../......../......./....../.. R 5 5 basic", "55"],
     "illegal turn 55: point 55 is occupied"),        # said once
    (["../....../......./......../....N..../......../......./....../.. R 5 5 basic",
      "--turn", "1"], "needs a game record"),
    (["--example", "--turn", "5", "--time-limit", "0"], "must be positive"),
])
def test_cli_check_bad_input_is_one_line_exit_2(args, message):
    r = run("check", *args)
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and message in lines[0]


def test_cli_check_a_game_that_ends_before_the_turn(tmp_path):
    game = example_game()
    tags = {k: v for k, v in game.tags.items() if k != "Result"}
    short = GameRecord(tags, game.turns[:12])                            # six rounds
    f = tmp_path / "short.szg"
    f.write_text(game_string(short))
    r = run("check", str(f), "--turn", "13")
    assert r.exit_code == 2 and "was not played" in r.output and len(r.output.splitlines()) == 1


def test_a_node_limit_leaves_proved_bounds_and_bad_ones_are_refused():
    game = example_game()
    i = len(game.turns) - 6
    pos, turn = game.position_before(i), game.turns[i]
    value, _best, after = _truth(pos, turn)
    res = check(pos, turn, node_limit=1000, engine_seconds=0.05, cpsat=False)
    assert not res.exact
    assert res.lower["value_before"] <= value <= res.upper["value_before"]
    assert res.lower["played_value"] <= after <= res.upper["played_value"]
    full = check(pos, turn, node_limit=10 ** 9)
    assert full.exact and (full.value_before, full.played_value) == (value, after)
    for bad in (0, -5, 2.5, True, "10"):
        with pytest.raises(InputError):
            check(pos, turn, node_limit=bad)


def test_without_a_time_limit_each_cpsat_bound_gets_a_work_budget(monkeypatch):
    """Without a time limit the CP-SAT bounds are not unlimited (an exact floor at a
    game's first turn took up to 47 s, the whole check 138 s): each of the four gets
    ``CPSAT_TIME`` as CP-SAT work (reproducible), and what it returns still holds for
    a real continuation."""
    from szsolver.analysis import check as check_module
    from szsolver.bounds.model import WORK_PER_SECOND
    from szsolver.bounds import value
    from szsolver.rules.playout import random_play, seeded_rng
    calls = []
    real = value.score_bounds

    def spy(pos, time_limit=None, work_limit=None):
        calls.append((time_limit, work_limit))
        return real(pos, time_limit, work_limit)
    monkeypatch.setattr(value, "score_bounds", spy)
    monkeypatch.setattr(check_module, "CPSAT_TIME", 0.05)
    from szsolver.formats.notation import parse_position, parse_turn
    pos = parse_position("../....../......./......../....N..../......../......./....../.. "
                         "R 5 5 basic", backend=Reference)          # the first turn
    res = check(pos, "44", engine_seconds=0.05)
    assert calls == [(None, pytest.approx(0.05 * WORK_PER_SECOND))] * 2
    end = pos.copy()
    end.play(parse_turn("44"))
    random_play(end, end.turns_left, seeded_rng("check", "work budget"))
    r, b = end.scores()
    sb = res.score_bounds
    assert sb["red"][0] <= r <= sb["red"][1] and sb["blue"][0] <= b <= sb["blue"][1]


def test_cli_check_early_leads_with_the_estimate_and_its_line_then_the_proved_bounds():
    """At the first turn nothing but the trivial bounds is proved: the answer leads
    with the engine's estimate and its line (a legal line from its choice, labelled
    estimated), then the proved bounds, said to be the trivial ones."""
    from szsolver.bounds.value import trivial_bounds
    game = example_game()
    r = run("check", "--example", "--turn", "1", "--time-limit", "1")
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert lines[0].startswith("44n66 was ") and "estimated by the engine" in lines[0]
    assert lines[1].startswith("Engine's line (estimated): ")
    assert lines[2].startswith("Proved: value after 44n66 between ")
    pos = game.position_before(0)
    line = lines[1].split(": ", 1)[1].split()
    assert line and (line[0] in lines[0] or "engine finds nothing better" in lines[0])
    after = pos.copy()
    for t in line:                            # a line of legal turns from the position
        after.play(t)
    child = pos.copy()
    child.play(game.turns[0])
    lo, hi = trivial_bounds(child)
    assert f"between {lo:+d} and {hi:+d}" in lines[2]
    assert "These are the trivial bounds" in lines[2]


def test_check_json_keeps_its_keys_and_adds_the_engine_s_line():
    r = run("check", "--example", "--turn", "1", "--time-limit", "1", "--json")
    data = json.loads(r.stdout)
    assert {"turn_number", "position", "played", "mover", "value_before", "played_value",
            "best", "best_value", "loss", "verdict", "exact", "played_exact",
            "verdict_proved", "engine_stopped", "method", "lower", "upper", "scores",
            "score_bounds", "notes", "seconds"} <= set(data)
    assert data["method"] == "engine" and data["engine_line"]


def test_an_optimal_turns_equals_beyond_eight_are_counted_not_hidden():
    """Many equally good turns: the text names eight and counts the rest, which --json
    lists, every one an optimal turn by the solver's own values."""
    pos = "BB/B..RRB/RR....B/..BRRR../.B..N.BB./R.R.BR../R.B..B./R.RRRB/.B B 0 0 basic"
    text = CliRunner().invoke(main, ["check", pos, "24"]).output
    data = json.loads(CliRunner().invoke(main, ["check", pos, "24", "--json"]).output)
    others = [t for t in data["best"] if t != "24"]
    assert len(others) > 8
    named = text.split("Equally good: ")[1].split(" and ")[0].split()
    assert named == others[:8]
    assert f"and {len(others) - 8} more (--json lists them all)." in text
    from szsolver.formats.notation import parse_position
    p = parse_position(pos)
    turns = solve(p, all_turns=True).turns
    value = min(t.value for t in turns)                       # Blue to move
    assert sorted(data["best"]) == sorted(format_turn(t.turn) for t in turns if t.value == value)
