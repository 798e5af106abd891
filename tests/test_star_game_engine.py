"""The Star engine, players, check and annotate, and the analysis commands' Star
functions."""
import json

import pytest

from szsolver.cli import games as game_star
from szsolver.star.analysis import annotate, check
from szsolver.star.board import by_name
from szsolver.star.engine import (Engine, EnginePlayer, GreedyPlayer, RandomPlayer,
                                  first_stone_cap, play_game, value_bounds)
from szsolver.star.position import PASS, SWAP, Position, parse_move
from szsolver.star.record import game_string
from szsolver.star.solver import solve

LATE = "star:4x5:BWWB/BBWW./BWWBBW/WB.W.WB/BB.BBBWW/BWBWBWW/BWBB.W/WBWW.:B"


def test_near_the_end_the_engine_is_the_solver():
    pos = Position.from_string(LATE)
    res = Engine(iterations=100).analyse(pos)
    exact = solve(pos)
    assert res.exact and res.method == "solver" and res.value == exact.value
    assert res.turn in exact.best and res.best == exact.best


def test_the_tree_search_is_legal_and_reproducible():
    pos = Position.from_string(LATE)
    a = Engine(iterations=400, solver_empty=0).analyse(pos)
    b = Engine(iterations=400, solver_empty=0).analyse(pos)
    assert a.method == "engine" and not a.exact and pos.legal(a.turn)
    assert a.to_json() | {"seconds": 0} == b.to_json() | {"seconds": 0}
    assert a.lower <= a.value <= a.upper


def test_the_engine_tells_its_progress_and_answers_the_same():
    """The tree search tells its iterations as it goes (the tree grown in chunks is the
    tree of one run); near the end the solver's start is told first."""
    pos = Position.from_string(LATE)
    told = []
    a = Engine(iterations=2_500, solver_empty=0).analyse(pos, progress=lambda *e: told.append(e))
    b = Engine(iterations=2_500, solver_empty=0).analyse(pos)
    assert told == [("tree", 0, 2_500), ("tree", 1_000, 2_500), ("tree", 2_000, 2_500)]
    assert a.to_json() | {"seconds": 0} == b.to_json() | {"seconds": 0}
    told.clear()
    assert Engine(iterations=100).analyse(pos, progress=lambda *e: told.append(e)).exact
    assert [e[0] for e in told] == ["solver"]


def test_check_and_annotate_tell_their_progress_and_judge_the_same():
    board = by_name("4x5")
    g = play_game(RandomPlayer(seed=3), GreedyPlayer(seed=4), Position(board))
    i = 2                                       # early: estimated by the engine
    told = []
    r = check(g.position_before(i), g.turns[i], engine_seconds=0.1,
              progress=lambda *e: told.append(e))
    assert r.method == "engine" and told and {e[0] for e in told} == {"tree"}
    alone = check(g.position_before(i), g.turns[i], engine_seconds=0.1)
    assert r.to_json() | {"seconds": 0} == alone.to_json() | {"seconds": 0}
    steps = []
    ann = annotate(g, time_per_turn=0.01, exact_turns=6,
                   progress=lambda *e: steps.append(e))
    n = len(g.turns)
    assert [s[:2] for s in steps] == [(k, n) for k in range(n + 1)]
    assert steps[0][2] == "turn 1, round 1, black" and steps[-1][2] == "done"
    plain = annotate(g, time_per_turn=0.01, exact_turns=6)
    assert [x.to_json() | {"seconds": 0} for x in ann.results] == \
        [x.to_json() | {"seconds": 0} for x in plain.results]


def test_swapping_is_worth_minus_the_position_without_the_swap():
    # the colour exchange behind the engine's swap rule, on a board small enough to solve
    tiny = by_name("2x2")
    for c in range(tiny.size):
        pos = Position(tiny, 1 << c, 0, 1)
        res = solve(pos, all_turns=True)
        without = min(m.value for m in res.turns if m.turn != SWAP)
        assert solve(pos.after(SWAP)).value == -without


def test_a_first_stone_is_worth_no_more_than_the_swap_it_opens():
    """Black's first stone opens the swap, so White takes the better of its move and the
    swap: no first stone is worth more than 0 to Black (Star has no draws, so the solver
    proves at most -1). The engine's estimates there, of its own stone, of every
    candidate and of any stone judged, say so too; before, the tree valued the first
    stone as if White could not swap (+1.5 at the empty 5x6 board)."""
    for name in ("2x2", "2x3"):     # totals 10 and 13: the caps 0 and -1
        empty = Position(by_name(name))
        proved = solve(empty, all_turns=True)
        lo, hi = value_bounds(empty)
        assert lo <= proved.value <= hi <= 0
        for m in proved.turns:
            if m.turn >= 0:
                after = empty.after(m.turn)
                lo, hi = value_bounds(after)
                assert lo <= m.value <= hi <= first_stone_cap(empty.board)
    for name, iterations in (("2x2", 500), ("2x3", 2_000), ("5x6", 2_000)):
        pos = Position(by_name(name))
        eng = Engine(iterations=iterations, solver_empty=0)
        res = eng.analyse(pos)
        assert res.value <= 0 and all(c["value"] <= 0 for c in res.candidates)
        if res.pv[1:2] == [SWAP]:          # White swaps where Black's stone is ahead
            assert len(res.pv) == 2
        for cell in range(0, pos.board.size, 3):
            _, value = eng.judge(pos, cell)
            assert value <= 0, (name, cell, value)


def test_the_first_stone_is_judged_with_the_swap():
    """A first stone is no blunder: before it the game is lost for Black already (the
    swap), so no first stone changes the result. Before, ``annotate`` called the first
    stone of '1. E5 swap' a blunder (+2.6 -> -0.4)."""
    board = by_name("4x5")
    pos = Position(board)
    for cell in ("C3", "E5", "A8"):
        res = check(pos, parse_move(cell, board), engine_seconds=0.2)
        assert res.method == "engine" and res.verdict != "blunder"
        assert res.best_value <= 0 and res.played_value <= 0


def test_the_engine_beats_the_random_player():
    board = by_name("4x5")
    wins = 0
    for k in range(4):
        eng = EnginePlayer(Engine(iterations=300, seed=k, solver_empty=6))
        rnd = RandomPlayer(seed=k)
        black, white = (eng, rnd) if k % 2 == 0 else (rnd, eng)
        g = play_game(black, white, Position(board))
        v = g.final.value()
        wins += (v > 0) if k % 2 == 0 else (v < 0)
        assert g.final.is_over() and game_string(g).startswith('[Game "star"]')
    assert wins >= 3


def test_greedy_takes_an_immediate_point():
    # Black to move beside its own two-stone group on the bottom edge: extending it
    # along the edge gains a border cell at once
    board = by_name("4x5")
    pos = Position(board, black=0b11, side=0)
    m = GreedyPlayer().move(pos)
    assert pos.after(m).scores()[0] > pos.scores()[0]


def test_check_near_the_end_is_proved_and_agrees_with_every_move_value():
    pos = Position.from_string(LATE)
    full = solve(pos, all_turns=True)
    for mv in full.turns:
        r = check(pos, mv.turn)
        assert r.exact and r.played_value == mv.value and r.best_value == full.value
        assert (r.verdict == "optimal") == (mv.value == full.value)
        assert r.loss == full.value - mv.value      # Black to move
    early = Position(by_name("4x5"))
    r = check(early, parse_move("D4", early.board), engine_seconds=0.02)
    assert r.method == "engine" and r.verdict in ("optimal", "inaccuracy", "mistake", "blunder")


def test_check_and_annotate_say_how_many_best_moves_they_leave_out():
    """Nine optimal moves: check's text names six and annotate's four, each then says
    how many more (--json lists them all); they were cut without a word."""
    position = "star:4x5:B.WW/WBWBB/WB.BBB/B...WBB/BB..BWWW/WBWWBWB/B.WW.B/.WBWW:B"
    r = _run("check", position, "pass", "--json")
    assert r.exit_code == 0, r.output
    best = json.loads(r.stdout)["best"]
    assert len(best) == 9 and "pass" not in best
    r = _run("check", position, "pass")
    assert r.exit_code == 0, r.output
    assert f"best {' or '.join(best[:6])} and 3 more (--json lists them all): " in r.stdout
    record = f'[Game "star"] [Position "{position}"] 1. pass'
    r = _run("annotate", record)
    assert r.exit_code == 0, r.output
    row = r.stdout.splitlines()[1]
    assert row.endswith("  " + " ".join(best[:4]) + " and 5 more (--json lists them all)")


def test_annotate_proves_the_last_moves():
    board = by_name("4x5")
    g = play_game(RandomPlayer(seed=1), GreedyPlayer(seed=2), Position(board))
    ann = annotate(g, time_per_turn=0.01, exact_turns=6)
    assert len(ann.results) == len(g.turns)
    assert all(r.exact for r in ann.results[-6:])
    for colour in ("black", "white"):
        s = ann.summary[colour]
        assert s["optimal"] + s["inaccuracies"] + s["mistakes"] + s["blunders"] == s["turns"]
    assert json.loads(json.dumps(ann.to_json()))["turns"][-1]["exact"] is True


def test_the_command_functions(capsys):
    game_star.solve(LATE, all_turns=True, as_json=True)
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] and data["value"] == solve(Position.from_string(LATE)).value
    assert len(data["turns"]) == 7
    with pytest.raises(SystemExit) as e:
        game_star.solve(str(Position()), node_limit=100)
    assert e.value.code == 3
    assert "not proved (node limit" in capsys.readouterr().out
    game_star.best(LATE, as_json=True)
    assert json.loads(capsys.readouterr().out)["method"] == "solver"
    game_star.check(LATE, args=("E7",), as_json=True)
    assert json.loads(capsys.readouterr().out)["verdict"] == "blunder"
    with pytest.raises(Exception, match="tt-size"):
        game_star.solve(LATE, tt_size=100)


def _run(*args):
    from click.testing import CliRunner
    from szsolver.cli.app import main
    return CliRunner().invoke(main, list(args))


def test_the_analysis_commands_take_star_sources(tmp_path):
    r = _run("solve", LATE, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["value"] == solve(Position.from_string(LATE)).value
    r = _run("best", LATE, "--json")
    assert r.exit_code == 0 and json.loads(r.output)["exact"] is True
    r = _run("check", LATE, "E7", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["verdict"] == "blunder"
    record = tmp_path / "g.star"
    record.write_text('[Game "star"] [Position "' + LATE + '"] 1. E7 E8 2. H2', encoding="utf-8")
    r = _run("check", str(record), "--turn", "1", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["verdict"] == "blunder"
    r = _run("annotate", str(record), "--json")
    assert r.exit_code == 0, r.output
    assert [m["verdict"] for m in json.loads(r.output)["turns"]][0] == "blunder"
    for args in (("solve", LATE, "--tt-size", "64"), ("check", LATE, "E7", "F4"),
                 ("annotate", str(record), "--html", str(tmp_path / "a.html")),
                 ("annotate", str(record), "--threads", "2"),
                 ("best", LATE, "--rule", "basic"), ("check", LATE, "K9")):
        r = _run(*args)
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, (args, r.output)


def test_exact_turns_takes_what_the_docs_and_the_help_say(tmp_path):
    """Star's ``--exact-turns``: 0 to the solver's reach without a limit (16 live empty
    cells), default check's 14, as docs/star.md and the help say (any number was taken)."""
    import pathlib
    from szsolver.star.analysis import EXACT_TURNS as EXACT_TURNS
    from szsolver.star.solver import MAX_EMPTY_WITHOUT_LIMIT as MAX
    docs = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "star.md").read_text()
    assert f"N live empty cells (0 to {MAX}, default {EXACT_TURNS};" in " ".join(docs.split())
    help_text = " ".join(_run("annotate", "--help").output.split())
    assert f"Star: N live empty cells, 0 to {MAX}, default {EXACT_TURNS};" in help_text
    record = tmp_path / "g.star"
    record.write_text('[Game "star"] [Position "' + LATE + '"] 1. E7 E8 2. H2', encoding="utf-8")
    r = _run("annotate", str(record), "--exact-turns", str(MAX + 1))
    assert r.exit_code == 2 and r.output.strip() == (
        f"Error: --exact-turns {MAX + 1}: a Star game proves moves with at most {MAX} live "
        f"empty cells (0 to {MAX}, default {EXACT_TURNS}: the exact solver's reach)")
    r = _run("annotate", str(record), "--exact-turns", str(MAX), "--json")
    assert r.exit_code == 0, r.output


def test_best_says_how_little_an_estimate_rests_on():
    """Below the Stars' Zone threshold (engine.search.ROUGH_ITERATIONS) an estimate is
    called a rough guess, in the words Stars' Zone uses; a count of one is singular."""
    from szsolver.engine.search import ROUGH_ITERATIONS
    start = str(Position())
    r = _run("best", start, "--time", "1e-9")
    assert r.exit_code == 0, r.output
    first, last = r.output.splitlines()[0], r.output.splitlines()[-1]
    assert first.endswith("(Black's side), from only 16 playouts: a rough guess."), first
    assert last.startswith("16 iterations,"), last
    r = _run("best", start, "--time", "0.2", "--json")
    assert json.loads(r.output)["iterations"] >= ROUGH_ITERATIONS
    assert "rough guess" not in _run("best", start, "--time", "0.2").output


# --- budgets: a limit is the whole of the work, planned from the seconds ----------------

def check_turn(pos, move, time_limit):
    """What ``szsolver check SOURCE TURN --time-limit S`` runs on a Star position."""
    from szsolver.games.star import check_turn as command_check
    return command_check(pos, move, time_limit=time_limit)


def _counting(monkeypatch):
    """Count the trees the engine builds and the iterations it grows them by."""
    from szsolver.star import engine as star_engine
    seen = {"trees": 0, "iterations": 0}
    search, grow = star_engine.Engine._search, star_engine.Engine._grow

    def counted_search(self, *a, **k):
        seen["trees"] += 1
        return search(self, *a, **k)

    def counted_grow(self, pos, root, rng, cells, iterations, forced=None):
        seen["iterations"] += iterations
        return grow(self, pos, root, rng, cells, iterations, forced)
    monkeypatch.setattr(star_engine.Engine, "_search", counted_search)
    monkeypatch.setattr(star_engine.Engine, "_grow", counted_grow)
    return seen


def _swap_open():
    """White to move after Black's first stone, on the 4x5 board."""
    board = by_name("4x5")
    return Position(board).after(parse_move("C3", board))


@pytest.mark.parametrize("which", ["another stone", "swap"])
def test_check_builds_the_engine_tree_once_within_its_limit(monkeypatch, which):
    """The engine's move and the played one are valued in one tree, built once, and
    the whole check grows it by at most the iterations its limit buys (it built the
    tree twice, once for the engine's move and again for the played one, and swap
    needed a third search: 2-2.7 times the limit)."""
    pos = _swap_open()
    first = check_turn(pos, SWAP, time_limit=0.3)
    move = SWAP if which == "swap" else next(
        m for m in pos.legal_turns(passes=False) if m >= 0 and m not in first.best)
    seen = _counting(monkeypatch)
    r = check_turn(pos, move, time_limit=0.3)
    assert r.method == "engine"
    assert seen["trees"] == 1
    # an estimate says what is proved beside it
    assert r.bounds_before[0] <= r.best_value <= r.bounds_before[1]
    assert r.bounds_played[0] <= r.played_value <= r.bounds_played[1]
    assert "\nProved: the value before the move between" in r.text()
    from szsolver.star.analysis import plan
    from szsolver.star.engine import budget
    work = plan(pos, 0.3)
    assert work.solver_nodes == 0 and work.engine_seconds == 0.3      # too early to prove
    assert seen["iterations"] <= budget(pos, 0.3).iterations


def test_a_checks_limit_is_split_so_its_parts_add_up_and_the_answer_repeats(monkeypatch):
    """Where the solver is tried, it gets its share of the limit as nodes (no clock) and
    the engine the rest; a proof ends the check early with the solver's verdict; the
    same limit gives the same answer. (The solver had 3 M nodes whatever the limit.)"""
    from szsolver.star import analysis
    pos = Position.from_string(LATE)
    limits = []
    real = analysis.solve

    def solve_(*a, **k):
        limits.append((k.get("node_limit"), k.get("time_limit")))
        return real(*a, **k)
    monkeypatch.setattr(analysis, "solve", solve_)
    full = solve(pos, all_turns=True)
    for mv in full.turns:
        r = check_turn(pos, mv.turn, time_limit=0.5)
        assert r.exact and r.played_value == mv.value and r.best_value == full.value
    (nodes, seconds), = set(limits)
    assert seconds is None and nodes < analysis.EXACT_NODES
    from szsolver.star.engine import SOLVER_NODES_PER_SECOND
    work = analysis.plan(pos, 0.5)
    assert nodes == work.solver_nodes
    assert work.solver_nodes / SOLVER_NODES_PER_SECOND + work.engine_seconds == \
        pytest.approx(0.5)
    assert analysis.plan(pos).solver_nodes == analysis.EXACT_NODES   # no limit
    early = _swap_open()
    m = early.legal_turns(passes=False)[-1]
    assert check_turn(early, m, time_limit=0.2).to_json() | {"seconds": 0} == \
        check_turn(early, m, time_limit=0.2).to_json() | {"seconds": 0}


def test_best_splits_its_budget_between_the_solver_and_the_tree(monkeypatch):
    """Where the solver is tried and does not finish, the tree search gets the rest of
    the budget, not the whole budget again; a budget buys more iterations where they
    cost less (late in a game)."""
    from szsolver.star import engine as star_engine
    board = by_name("5x6")
    pos = Position(board)
    rng = __import__("random").Random(4)
    while pos.empty.bit_count() > 14:
        pos = pos.after(rng.choice(pos.legal_turns(passes=False)))
    monkeypatch.setattr(star_engine, "solve", lambda *a, **k: solve(pos, node_limit=10))
    res = Engine(0.2).analyse(pos)
    assert res.method == "engine" and res.iterations < 0.2 * star_engine.ITERATIONS_PER_SECOND
    from szsolver.star.engine import SOLVER_NODES_PER_SECOND, budget, iteration_seconds
    plan = budget(pos, 0.2, solver=True)
    assert res.iterations == plan.iterations
    assert plan.solver_nodes / SOLVER_NODES_PER_SECOND + \
        plan.iterations * iteration_seconds(pos) <= 0.2
    assert budget(pos, 1).iterations > budget(Position(board), 1).iterations
