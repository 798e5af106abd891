"""solve / best / check / annotate on Stargazers sources, against brute force."""
import json
import random

import pytest
from click.testing import CliRunner

from szsolver.cli.app import main
from szsolver.stargazers import fast, reference
from szsolver.stargazers.base import BLUE, RED
from szsolver.stargazers.record import GameRecord, game_string


def brute(p) -> int:
    """Red's value by plain minimax on the reference rules (ties: +1 / -1)."""
    legal = p.legal_placements()
    if not legal:
        r, b = p.scores()
        return 2 * (r - b) if r != b else (1 if p.side == BLUE else -1)
    values = [brute(p.after(c)) for c in legal]
    return max(values) if p.side == RED else min(values)


def endgame(seed, empties=7):
    rng = random.Random(seed)
    while True:
        p = fast.Position()
        while not p.is_over() and p.empty.bit_count() > empties:
            p.play(rng.choice(p.legal_placements()))
        if not p.is_over() and len(p.legal_placements()) >= 3:
            return p


def run(*args):
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


def test_solve_all_turns_matches_brute_force():
    p = endgame("cli-solve")
    q = reference.Position(str(p))
    code, out = run("solve", str(p), "--all-turns", "--json")
    assert code == 0, out
    d = json.loads(out)
    values = {c: brute(q.after(c)) for c in q.legal_placements()}
    sign = 1 if q.side == RED else -1
    best = max(values.values()) if q.side == RED else min(values.values())
    assert d["best"] == [str(c) for c in sorted(c for c, v in values.items() if v == best)]
    for m in d["turns"]:
        v = values[int(m["turn"])]
        assert m["margin"] == sign * (v // 2 if v % 2 == 0 else 0)
        assert m["wins"] == ((v > 0) == (q.side == RED))


def test_best_near_the_end_is_proved():
    p = endgame("cli-best")
    q = reference.Position(str(p))
    code, out = run("best", str(p), "--json", "--time", "0.1")
    d = json.loads(out)
    assert code == 0 and d["method"] == "solver"
    assert brute(q.after(int(d["turn"]))) == brute(q)


def test_check_verdicts_follow_the_values():
    p = endgame("cli-check")
    q = reference.Position(str(p))
    root = brute(q)
    for c in q.legal_placements():
        code, out = run("check", str(p), str(c), "--json")
        assert code == 0, out
        d = json.loads(out)
        v = brute(q.after(c))
        assert d["method"] == "solver"
        if v == root:
            assert d["verdict"] == "optimal"
        elif (v > 0) != (root > 0):
            assert d["verdict"] == "blunder"
        elif abs(v - root) >= 2:
            assert d["verdict"] == "mistake"
        else:
            assert d["verdict"] == "inaccuracy"


def _short_game():
    """A game record from a set-up start with 8 empty cells: (start, turns, record)."""
    p = endgame("cli-annotate", empties=8)
    while p.placements_left != (1 if p.ply == 0 else 2):
        p.play(p.legal_placements()[0])
    rng = random.Random("annotate-turns")
    q = p.copy()
    turns = []
    while not q.is_over():
        t = []
        for _ in range(q.placements_left):
            if q.is_over():
                break
            c = rng.choice(q.legal_placements())
            t.append(c)
            q.play(c)
        turns.append(",".join(map(str, t)))
    return p, turns, game_string(GameRecord({"Game": "stargazers", "Position": str(p)}, turns))


def test_annotate_shows_every_best_turn_its_json_lists_as_check_does():
    """The text's best column lists the best turns the JSON lists (it showed one), the
    first four and then how many more, in check's words."""
    record = ('[Game "stargazers"] [Position "stargazers:12-star:1-2:r=4,7,8,11,15,18,21,24,'
              '25,29,30,31,35,44,48:b=2,3,9,10,13,14,16,19,20,23,28,32,33,36,42,46"] '
              "9. 40,45 43,47 10. 37")
    code, out = run("annotate", record, "--json")
    assert code == 0, out
    best = [t["best"] for t in json.loads(out)["turns"]]
    assert [len(b) for b in best] == [9, 2, 1]
    code, out = run("annotate", record)
    assert code == 0, out
    rows = out.splitlines()[1:4]
    assert rows[0].endswith("  " + " ".join(best[0][:4]) + " and 5 more (--json lists them all)")
    assert rows[1].endswith("  " + " ".join(best[1])) and rows[2].endswith("  37")
    code, out = run("check", record, "--turn", "1")                 # check's own words
    assert code == 0, out
    assert f"Best turn {' or '.join(best[0][:6])} and 3 more (--json lists them all);" in out


def test_annotate_a_short_game_from_a_set_up_start():
    p, turns, record = _short_game()
    code, out = run("annotate", record, "--json")
    assert code == 0, out
    d = json.loads(out)
    assert len(d["turns"]) == len(turns)
    pos = reference.Position(str(p))
    for t, j in zip(turns, d["turns"]):
        before = brute(pos)
        for c in map(int, t.split(",")):
            pos.play(c)
        assert j["method"] == "solver"
        assert (j["verdict"] == "optimal") == (brute(pos) == before)


def test_annotate_and_check_tell_their_progress_and_judge_the_same():
    """annotate tells each turn before judging it and its end; check tells the
    solver's start or the tree search's iterations. The judgements are the same."""
    from szsolver.stargazers.analysis import annotate, check
    from szsolver.stargazers.record import parse_game
    _p, turns, record = _short_game()
    game = parse_game(record)
    for exact_turns in (0, 8):                  # every turn estimated, every turn proved
        steps, told = [], []
        got = annotate(game, engine_seconds=0.1, exact_turns=exact_turns,
                       progress=lambda *e: steps.append(e))
        # a set-up start in round 9: the turns judged so far, the game's number of turns
        assert steps == [(0, 2, "turn 1, round 9, red"), (1, 2, "turn 2, round 9, blue"),
                         (2, 2, "done")]
        assert got == annotate(game, engine_seconds=0.1, exact_turns=exact_turns)
        c = check(game.position_before(0), game.turns[0], engine_seconds=0.1,
                  exact_turns=exact_turns, progress=lambda *e: told.append(e))
        assert {e[0] for e in told} == ({"tree"} if exact_turns == 0 else {"solver"})
        assert c == got[0]


def test_annotate_honours_exact_turns():
    """``--exact-turns N`` proves the turns with at most N empty cells: with 0 every
    turn is the engine's; with 6 the first turn (8 empty cells) is estimated and the
    second (6) proved; with 8 both are proved."""
    p, turns, record = _short_game()
    pos = reference.Position(str(p))
    empties = []
    for t in turns:
        empties.append(pos.empty.bit_count())
        for c in map(int, t.split(",")):
            pos.play(c)
    assert empties == [8, 6]
    for n in (0, 6, 8):
        code, out = run("annotate", record, "--exact-turns", str(n), "--json")
        assert code == 0, out
        methods = [j["method"] for j in json.loads(out)["turns"]]
        assert methods == ["solver" if e <= n else "engine" for e in empties], (n, empties)
    code, out = run("annotate", record, "--threads", "2")      # a Stars' Zone option
    assert code == 2 and "--threads is a Stars' Zone option" in out
    assert len(out.strip().splitlines()) == 1


@pytest.mark.parametrize("args,words", [
    (["solve", "stargazers:12-star:1-2:r=9:b=", "--rule", "basic"], "--rule is a Stars' Zone"),
    (["annotate", "stargazers:12-star:1-2:r=9:b="], "needs a game record"),
    (["check", "stargazers:12-star:1-2:r=9:b="], "missing TURN"),
    (["check", "stargazers:12-star:1-2:r=9:b=", "0"], "holds a star"),
    (["solve", "stargazers:12-star:1-2:r=9:b="], "too deep to solve without a limit"),
    (["solve", "stargazers:12-star:1-2:r=3,8,9,14,16,18,21,39,42,43,48:"
               "b=2,4,7,19,20,23,26,29,30,36,45"], "17 empty playable cells (at most 16"),
])
def test_bad_input_is_one_line(args, words):
    code, out = run(*args)
    assert code == 2 and words in out and len(out.strip().splitlines()) == 1


def test_a_limit_leaves_the_value_unproved_with_exit_code_3():
    code, out = run("solve", "stargazers:12-star:1-2:r=9:b=", "--node-limit", "10", "--json")
    d = json.loads(out)
    assert code == 3 and d["complete"] is False and "limit of 10 nodes" in d["stopped"]


def test_a_limit_gives_the_proved_bounds():
    """A limit is no error: the answer gives the margin's proved bounds (the assured
    scores and the potentials), the side they are for, the nodes searched. The JSON's
    bounds are Red's side, as every game's values; the text's the side to place's."""
    code, out = run("solve", "stargazers:12-star:1-2:r=9:b=", "--node-limit", "10", "--json")
    d = json.loads(out)
    assert code == 3 and d["side_to_move"] == "blue" and d["nodes"] > 10
    assert d["lower"] <= d["upper"] and d["complete"] is False
    code, out = run("solve", "stargazers:12-star:1-2:r=9:b=", "--node-limit", "10")
    assert code == 3 and out.startswith("Not proved: the Stargazers solver reached its "
                                        "limit of 10 nodes before proving the value; ")
    assert f"{-d['upper']:+d} <= margin <= {-d['lower']:+d} for blue" in out


def test_exact_turns_takes_what_the_docs_and_the_help_say():
    """``--exact-turns``: 0 to the solver's reach without a limit (16 empty cells),
    default 13, as docs/stargazers.md and the help say (the docs said 0-8 and 20 was
    taken)."""
    import pathlib
    from szsolver.stargazers.analysis import EXACT_TURNS
    from szsolver.stargazers.solver import MAX_EMPTY_WITHOUT_LIMIT as MAX
    docs = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "stargazers.md").read_text()
    assert f"(N from 0 to {MAX}, default {EXACT_TURNS};" in docs
    help_text = " ".join(CliRunner().invoke(main, ["annotate", "--help"]).output.split())
    assert f"Stargazers: N empty cells, 0 to {MAX}, default {EXACT_TURNS})" in help_text
    _p, _turns, record = _short_game()
    for n in (MAX + 1, 20):
        code, out = run("annotate", record, "--exact-turns", str(n))
        assert code == 2 and out.strip() == (
            f"Error: --exact-turns {n}: a Stargazers game proves turns with at most {MAX} "
            f"empty cells (0 to {MAX}, default {EXACT_TURNS}: the exact solver's reach)")
    code, out = run("annotate", record, "--exact-turns", str(MAX), "--json")
    assert code == 0 and [j["method"] for j in json.loads(out)["turns"]] == ["solver"] * 2


# --- budgets: a limit is the whole of the work, planned from the seconds ----------------

def _check_turn(pos, turn, time_limit):
    """What ``szsolver check SOURCE TURN --time-limit S`` runs on a Stargazers position."""
    from szsolver.games.stargazers import check_turn
    return check_turn(pos, turn, time_limit=time_limit)


def test_a_checks_limit_covers_the_solver_and_the_engine(monkeypatch):
    """With --time-limit S the two proofs get node limits (no clock: the same answer on
    every run) and the engine the rest of S; the parts add up to S. (The limit bounded
    each proof's CPU time alone, and the engine had its own second whatever S was.)"""
    from szsolver.stargazers import analysis, engine as sg_engine, solver as sg_solver
    p = endgame("limit-split", 13)
    turn = str(p.legal_placements()[0])
    solves, engines = [], []
    real_solve, real_init = sg_solver.solve, sg_engine.Engine.__init__

    def solve_(position, **k):
        solves.append((k.get("node_limit"), k.get("time_limit")))
        return real_solve(position, **{**k, "node_limit": 10, "time_limit": None})

    def init_(self, seconds=1.0, **k):
        engines.append(seconds)
        real_init(self, seconds, **k)
    monkeypatch.setattr(sg_solver, "solve", solve_)
    monkeypatch.setattr(sg_engine.Engine, "__init__", init_)
    a = _check_turn(p, turn, 2.0)
    assert a.method == "engine"                   # the proofs stopped (10 nodes)
    assert [t for _, t in solves] == [None]       # no clock: the first stopped at its nodes
    (nodes, _), = solves
    work = analysis.plan(p, 2.0)
    assert nodes == work.solver_nodes < work.solver_pool and engines == [work.engine_seconds]
    assert work.solver_pool / sg_engine.EXACT_NODES + work.engine_seconds == \
        pytest.approx(2.0)
    assert analysis.plan(endgame("limit-early", 25), 2.0) == analysis.Plan(2.0)
    b = _check_turn(p, turn, 2.0)
    assert a.to_json() == b.to_json()
    # a proof ends the check early (the second gets what the first left), with the
    # solver's verdict, as without a limit
    monkeypatch.undo()

    def scaled(v):                      # brute's 2 a point (a tie +1 / -1): 100 a point
        return v if abs(v) == 1 else 50 * v
    p = endgame("limit-exact", 9)
    best = scaled(brute(p))
    for c in p.legal_placements()[:3]:
        r = _check_turn(p, str(c), 1.0)
        assert r.exact and r.played_value == scaled(brute(p.after(c))), c
        assert r.best_value == best
        assert r.to_json() == _check_turn(p, str(c), None).to_json()


def test_the_judge_spends_its_budget_once():
    """Engine.judge's first search, the second placement's and the focus on the two
    turns add up to the budget's iterations (they took up to 2.5 times: the whole
    budget, half again for the second placement, up to half for each focus)."""
    from szsolver.stargazers.engine import MIN_JUDGE_VISITS, Engine, budget
    p = fast.Position("stargazers:12-star:1-2:r=9:b=16,23")
    turn = [c for c in p.legal_placements()[:1]]
    turn.append(p.after(turn[0]).legal_placements()[0])
    j = Engine(0.3, seed="x").judge(p, turn)
    assert j["iterations"] <= budget(p, 0.3).iterations + 2 * MIN_JUDGE_VISITS
    assert j == Engine(0.3, seed="x").judge(p, turn)


def test_a_budget_buys_fewer_iterations_where_they_cost_more():
    """best --time S takes about S on every board: an iteration on the 27-star board
    costs about eight times one on 12-star (the same 500 iterations a second took 6 s
    a second of budget there)."""
    from szsolver.stargazers.engine import Engine
    small = Engine(0.1).analyse(fast.Position(board="12-star")).iterations
    large = Engine(0.1).analyse(fast.Position(board="27-star")).iterations
    assert large * 5 < small


def test_an_estimated_check_says_what_is_proved():
    code, out = run("check", "stargazers:12-star:1-2:r=9:b=16,23", "42,6", "--time-limit",
                    "0.2")
    assert code == 0, out
    assert "(estimated by the engine, not proved)" in out
    assert "Proved: the value before the turn between" in out
    code, out = run("check", "stargazers:12-star:1-2:r=9:b=16,23", "42,6", "--time-limit",
                    "0.2", "--json")
    data = json.loads(out)
    assert data["lower"]["value_before"] <= data["upper"]["value_before"]


#: Blue to place (two left in the turn), two optimal placements: 23 and 25
TWO_BEST = ("stargazers:12-star:1-2:r=4,6,10,11,13,21,24,26,30,31,33,35,37,44,46:"
            "b=2,3,7,8,9,14,19,20,29,40,42,43,45,47")


def _solved_best(position: str) -> list[str]:
    """The best placements by ``solve --all-turns``: every placement's value, computed apart."""
    code, out = run("solve", position, "--all-turns", "--json")
    assert code == 0, out
    d = json.loads(out)
    best = max(t["margin"] for t in d["turns"])
    assert d["best"] == [t["turn"] for t in d["turns"] if t["margin"] == best]
    return d["best"]


def _several_best():
    """The position above and endgames after uniformly random play with more than one
    optimal placement."""
    out = [TWO_BEST]
    for seed in range(40):
        p = endgame(f"several-best-{seed}", 10)
        if len(_solved_best(str(p))) > 1:
            out.append(str(p))
        if len(out) == 4:
            return out
    raise AssertionError("too few endgames with several optimal placements")


def test_best_and_check_list_every_optimal_placement():
    for position in _several_best():
        want = _solved_best(position)
        code, out = run("best", position, "--json")
        d = json.loads(out)
        assert code == 0 and d["exact"] and d["best_complete"], out
        assert d["best"] == want and d["turn"] in want
        p = fast.Position(position)
        others = sorted(set(p.legal_placements()) - set(map(int, want)))
        for played in [want[-1]] + [str(c) for c in others[:1]]:
            code, out = run("check", position, played, "--json")
            d = json.loads(out)
            assert code == 0 and d["exact"] and d["best_complete"], out
            assert d["best"] == want
            assert (d["verdict"] == "optimal") == (played in want)
    code, out = run("check", TWO_BEST, "25")
    assert code == 0 and "Best turn 23 or 25;" in out


@pytest.mark.parametrize("position,played", [
    (TWO_BEST, "25,15"),
    ("stargazers:12-star:1-2:r=2,4,6,7,10,19,23,24,25,26,28,35,44,45,47:"
     "b=11,13,15,16,21,30,31,32,33,36,37,42,46,48", "14,8")])
def test_check_of_two_placements_lists_every_optimal_turn(position, played):
    p = fast.Position(position)
    assert p.placements_left == 2
    want = set()
    for first in _solved_best(position):
        after = p.after(int(first))
        want |= {",".join(sorted((first, second), key=int))
                 for second in _solved_best(str(after))}
    code, out = run("check", position, played, "--json")
    d = json.loads(out)
    assert code == 0 and d["exact"] and d["best_complete"], out
    assert (d["verdict"] == "optimal") == (",".join(sorted(played.split(","), key=int)) in want)
    assert sorted(d["best"]) == sorted(want)
