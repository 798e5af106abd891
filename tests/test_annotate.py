"""szsolver annotate: every turn judged, the proved part checked against the solver
and a brute force, the estimated part kept apart; the HTML page; the command."""
import json
import re
from types import SimpleNamespace
import time
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from szsolver.analysis.annotate import annotate, turn_number
from szsolver.games import views
from szsolver.analysis.report import annotation_html
from szsolver.cli import main
from szsolver.endgame.solver import solve
from szsolver.errors import InputError
from szsolver.formats.notation import format_turn, position_string
from szsolver.formats.record import GameRecord, example_game, game_string
from szsolver.rules.reference import Position as Reference


def tail_game(turns_left):
    """The rulebook game's last ``turns_left`` turns, set up from its position there."""
    g = example_game()
    i = len(g.turns) - turns_left
    return GameRecord({"Position": position_string(g.positions[i - 1]), "Red": "MY Tian",
                 "Blue": "Aza Reyyaiya"}, g.turns[i:])


@pytest.fixture(scope="module")
def ann():
    return annotate(tail_game(10), engine_seconds=0.05, exact_turns=4)


def brute(pos):
    if pos.is_over():
        return pos.value()
    vals = []
    for t in pos.legal_turns():
        pos.make(t)
        vals.append(brute(pos))
        pos.unmake(t)
    return max(vals) if pos.side == 0 else min(vals)


def test_proved_part_is_exact_and_apart(ann):
    game = ann.game
    assert ann.numbers == list(range(23, 33))           # numbered over the whole game
    assert ann.proved_from == 29                        # 4 turns left at turn 29
    for k, r in enumerate(ann.turns):
        assert r.exact == (ann.numbers[k] >= 29)
        assert r.method == ("solver" if r.exact else "engine")
        assert game.round_of(k) == (ann.numbers[k] + 1) // 2


def test_proved_values_agree_with_the_solver_and_brute_force(ann):
    game = ann.game
    for k, r in enumerate(ann.turns):
        if not r.exact:
            continue
        before = game.position_before(k)
        after = game.positions[k]
        assert r.value_before == solve(before).value
        assert r.played_value == (after.value() if after.is_over() else solve(after).value)
        if before.turns_left <= 2:                      # small enough for plain minimax
            assert r.value_before == brute(Reference(position_string(before)))
    # the value after a turn is the value before the next one
    for a, b in zip(ann.turns, ann.turns[1:]):
        if a.exact and b.exact:
            assert a.played_value == b.value_before


def test_estimates_lie_inside_proved_bounds(ann):
    for r in ann.turns:
        for key in ("value_before", "played_value", "loss"):
            v = getattr(r, key)
            assert r.lower[key] <= v <= r.upper[key]


@pytest.mark.parametrize("time_per_turn", [None, 1.0, 0.05])
def test_each_position_gets_cpsat_bounds_once_within_the_budget(monkeypatch, time_per_turn):
    """A position is shared by the turn before and the turn after it: its CP-SAT
    bounds are computed once, each call limited as CP-SAT work and not wall time
    (reproducible): without a time per turn to ``CPSAT_TIME``, as ``check`` without a
    limit; with one, as ``check``'s plan for that limit, which leaves them out where
    it cannot afford them. The estimates stay inside the bounds they gave."""
    from szsolver.analysis import check as check_module
    from szsolver.bounds.model import WORK_PER_SECOND
    from szsolver.bounds import value
    monkeypatch.setattr(check_module, "BOUNDS_MOST", 1.0)   # 1 s affords them, 0.05 not
    calls = []
    real = value.score_bounds

    def spy(pos, time_limit=None, work_limit=None):
        calls.append((position_string(pos), time_limit, work_limit))
        return real(pos, time_limit, work_limit)
    monkeypatch.setattr(value, "score_bounds", spy)
    if time_per_turn is None:
        from szsolver.analysis import annotate as annotate_module
        monkeypatch.setattr(annotate_module, "CPSAT_TIME", 0.03)
    ann = annotate(GameRecord({"Rule": "basic"}, ["44n66", "64", "41"]),
                   time_per_turn=time_per_turn, engine_seconds=0.05, exact_turns=4)
    if time_per_turn == 0.05:
        assert calls == [] and all(r.score_bounds is None for r in ann.turns)
    else:
        work = 0.03 * WORK_PER_SECOND if time_per_turn is None else \
            check_module.plan(time_per_turn).bounds_work
        assert len(calls) == 4                              # the start and three positions
        assert len({pos for pos, _, _ in calls}) == 4
        assert all((t, w) == (None, pytest.approx(work)) for _, t, w in calls)
    for r in ann.turns:
        for key in ("value_before", "played_value"):
            assert r.lower[key] <= getattr(r, key) <= r.upper[key]


def test_summary_counts(ann):
    for side, name in enumerate(("red", "blue")):
        mine = [r for r in ann.turns if r.mover == side]
        s = ann.summary[name]
        assert s["turns"] == len(mine) == 5
        assert s["judged_exactly"] == sum(r.exact for r in mine) == 2
        assert s["optimal"] + s["inaccuracies"] + s["mistakes"] + s["blunders"] == len(mine)
        opt = sum(1 for r in mine if r.exact and r.verdict == "optimal")
        assert s["accuracy"] == opt / 2
        for v, key in (("inaccuracy", "inaccuracies"), ("mistake", "mistakes"),
                       ("blunder", "blunders")):
            # proved: by the solver, or by the bounds of an estimated turn
            assert s[key + "_proved"] == sum(1 for r in mine if r.verdict == v
                                             and (r.exact or r.verdict_proved))


def test_summary_counts_a_verdict_proved_by_bounds_as_proved():
    """An estimated turn whose verdict the proved bounds decide (the rulebook game's
    turn 24) counts among the proved ones; an estimate alone does not."""
    from types import SimpleNamespace as R
    from szsolver.analysis.annotate import summarise
    game = SimpleNamespace(side_of=lambda k: k % 2)
    results = [R(exact=False, verdict="blunder", verdict_proved=True),     # red
               R(exact=False, verdict="blunder", verdict_proved=False),    # blue
               R(exact=True, verdict="blunder", verdict_proved=True),      # red
               R(exact=True, verdict="optimal", verdict_proved=True)]      # blue
    s = summarise(game, results)
    assert (s["red"]["blunders"], s["red"]["blunders_proved"]) == (2, 2)
    assert (s["blue"]["blunders"], s["blue"]["blunders_proved"]) == (1, 0)
    assert s["blue"]["accuracy"] == 1.0 and s["red"]["accuracy"] == 0.0


def test_json_has_values_over_the_game(ann):
    data = json.loads(json.dumps(ann.to_json()))
    assert data["proved_from"] == 29 and len(data["turns"]) == 10
    assert len(data["values"]) == 11
    assert data["values"][-1] == {"ply": 32, "exact": True, "value": 199, "lower": 199,
                                  "upper": 199, "position": position_string(ann.game.final),
                                  "board": "stars-zone"}
    assert [t["number"] for t in data["turns"]] == list(range(23, 33))
    assert data["turns"][6]["played"] == "38" and data["turns"][6]["exact"]


def test_seconds_cover_the_whole_run_and_each_turn():
    # Each turn's time is its own share of the run (not 0), and the run's time
    # covers every turn's; the CPU time of the run is recorded beside the wall time.
    start = time.perf_counter()
    ann = annotate(tail_game(6), time_per_turn=0.05, exact_turns=4)
    whole = time.perf_counter() - start
    parts = [r.seconds for r in ann.turns]
    assert all(p > 0 for p in parts)
    assert sum(parts) <= ann.seconds <= whole
    data = ann.to_json()
    assert data["seconds"] == round(ann.seconds, 1) and data["cpu_seconds"] >= 0
    assert not any("seconds" in t for t in data["turns"])


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.refs, self.steps = [], [], 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        self.refs += [v for k, v in attrs if k in ("src", "href") and v]
        if "step" in (a.get("class") or "").split():
            self.steps += 1


def test_html_page_is_self_contained(ann):
    page = annotation_html(ann)
    p = _Page()
    p.feed(page)
    assert p.steps == 11                                # a board for every position
    assert p.tags.count("svg") == 12                    # + the value chart
    assert p.refs == []                                 # nothing fetched from outside
    assert "input" in p.tags and "script" in p.tags
    assert "Estimated: turns 23-28" in page and "Proved: turns 29-32" in page
    assert "blunder" in page or "optimal" in page


def turn_index(game, number):
    """Stars' Zone's turn ``number`` (counted over the whole game) in the record."""
    return views.turn_index(game, number, turn_number(game, 0))


def test_turn_numbers_and_errors():
    g = example_game()
    assert turn_index(g, 1) == 0 and turn_index(g, 32) == 31
    assert turn_number(g, 31) == 32
    t = tail_game(10)
    assert turn_index(t, 23) == 0
    with pytest.raises(InputError, match="outside the game"):
        turn_index(t, 22)
    short = GameRecord({}, g.turns[:5])
    with pytest.raises(InputError, match="turn 6 was not played"):
        turn_index(short, 6)
    with pytest.raises(InputError, match="no turns"):
        annotate(GameRecord({}, []))


def test_cli_annotate_json_and_html(tmp_path):
    f = tmp_path / "tail.szg"
    f.write_text(game_string(tail_game(6)))
    html = tmp_path / "a.html"
    r = CliRunner().invoke(main, ["annotate", str(f), "--time-per-turn", "0.05",
                                  "--exact-turns", "4", "--json", "--html", str(html)])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["proved_from"] == 29 and data["turns"][0]["method"] == "engine"
    assert html.read_text().startswith("<!DOCTYPE html>")
    r = CliRunner().invoke(main, ["annotate", str(f), "--time-per-turn", "0.05",
                                  "--exact-turns", "4"])
    assert r.exit_code == 0
    out = r.output
    assert out.index("Estimated (turns 27-28") < out.index("Proved (turns 29-32")
    # how an estimated loss is read, said where the estimates are
    assert out.index("(a loss under 50, half a point, is within the estimates' precision") \
        < out.index("Proved (turns 29-32")
    assert "accuracy" in out
    # Stars' Zone proves at most 8 turns left; the other games' counts are cells
    r = CliRunner().invoke(main, ["annotate", str(f), "--exact-turns", "9"])
    assert r.exit_code == 2 and "--exact-turns 9: at most 8 turns left" in r.output


def test_cli_annotate_text_counts_the_best_turns_it_leaves_out():
    """Eleven best turns: the text's best column names four and says how many more, in
    check's words (it ended '...')."""
    pos = "BB/B..RRB/RR....B/..BRRR../.B..N.BB./R.R.BR../R.B..B./R.RRRB/.B B 0 0 basic"
    record = f'[Position "{pos}"] 15... 25'
    r = CliRunner().invoke(main, ["annotate", record, "--json"])
    assert r.exit_code == 0, r.output
    best = json.loads(r.stdout)["turns"][0]["best"]
    assert len(best) == 11
    r = CliRunner().invoke(main, ["annotate", record])
    assert r.exit_code == 0, r.output
    row = next(ln for ln in r.stdout.splitlines() if " 25??" in ln)
    assert row.endswith("  " + " ".join(best[:4]) + " and 7 more (--json lists them all)")
    # a short annotation's time in tenths, as its JSON has it (it said '0 s')
    final = r.stdout.splitlines()[-1]
    assert re.fullmatch(r"Final: \d+-\d+\. \d\.\d s \(\d\.\d s of CPU\)\.", final), final


def test_threads_give_the_same_judgements(ann, monkeypatch):
    """Each exact solve on two threads: the same values, verdicts and best turns. (The
    probes beyond the horizon, value only under a node limit, run on one thread: the
    nodes they leave each other are fixed work only there.)"""
    import szsolver.endgame.solver as solver
    seen, real = [], solver.solve

    def spy(pos, **kw):
        if kw.get("pv", True):
            seen.append(kw.get("threads"))
        return real(pos, **kw)
    monkeypatch.setattr(solver, "solve", spy)
    two = annotate(tail_game(10), engine_seconds=0.05, exact_turns=4, threads=2)
    assert seen and set(seen) == {2}
    for a, b in zip(ann.turns, two.turns):
        assert (a.exact, a.value_before, a.played_value, a.verdict, a.loss) == \
            (b.exact, b.value_before, b.played_value, b.verdict, b.loss)
        if a.exact:
            assert a.best == b.best
    with pytest.raises(InputError, match="threads"):
        annotate(tail_game(4), threads=0)


@pytest.mark.parametrize("args,message", [
    (["../....../......./......../....N..../......../......./....../.. R 5 5 basic"],
     "needs a game record"),
    (["--example", "--threads", "0"], "must be at least 1"),
    (["--example", "--time-per-turn", "-1"], "must be positive"),
    (["--example", "--html", "/nonexistent-dir/x.html"], "cannot write"),
    (["--example", "--exact-turns", "9"], "9"),
    (["no-such-file.szg"], "no such file"),
])
def test_cli_annotate_bad_input(args, message):
    r = CliRunner().invoke(main, ["annotate", *args])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    assert r.output.startswith("Error:") and message in r.output


class _Told:
    """A stand-in for the progress line: records what it is told."""

    def __init__(self):
        self.msgs = []

    def __call__(self, msg):
        self.msgs.append(msg)

    def close(self):
        pass


ROW = re.compile(r"^\s+(\d+)\s+\d+ (red|blue)\s+\S+\s+\S+\s+\S+\s+\S+\s+(\w+)")


def test_cli_annotate_counts_turns_done_and_accuracy_over_every_judged_turn(monkeypatch):
    """The progress counts the turns judged (the last ones are proved first), not the
    index of the next; each player's accuracy is over every judged turn, the proved
    verdicts apart from the estimated ones, as the table shows them."""
    import szsolver.cli.games as cli_analysis
    told = _Told()
    monkeypatch.setattr(cli_analysis, "progress_printer", lambda *a, **k: told)
    r = CliRunner().invoke(main, ["annotate", "--example", "--time-per-turn", "0.01",
                                  "--exact-turns", "2"])
    assert r.exit_code == 0, r.output
    steps = [re.search(r"\] (\d+) of (\d+) turns judged; (.*)$", m) for m in told.msgs]
    assert all(steps), told.msgs
    done = [int(s[1]) for s in steps]
    assert done == sorted(done) and done[-1] == 32 and {int(s[2]) for s in steps} == {32}
    proved = re.search(r"Proved \(turns (\d+)-(\d+)", r.stdout)
    n_proved = int(proved[2]) - int(proved[1]) + 1
    first_estimate = next(s for s in steps if s[3].startswith("estimating"))
    assert int(first_estimate[1]) == n_proved       # k of 32 done, not the turn's index
    # accuracy, per player, from the table's rows
    text = r.stdout
    proved_part = text[text.index("Proved (turns"):]
    for side in ("red", "blue"):
        rows = [(m, "(verdict proved)" in line or line in proved_part)
                for line in text.splitlines() if (m := ROW.match(line)) and m[2] == side]
        judged = [(m[3], p) for m, p in rows if m[3] != "open"]
        want = {k: (sum(v == "optimal" for v, p in judged if p == (k == "proved")),
                    sum(p == (k == "proved") for _v, p in judged))
                for k in ("proved", "estimated")}
        opt = sum(v == "optimal" for v, _p in judged)
        line = next(x for x in text.splitlines() if x.startswith(side.capitalize() + ":"))
        assert line.startswith(f"{side.capitalize()}: {opt} of {len(judged)} judged turns "
                               f"optimal ({opt / len(judged):.0%}: "), line
        for k, (o, j) in want.items():
            if j:
                assert f"{o} of {j} {k}" in line, line
        assert "judged exactly" not in line


def test_a_level_standing_is_said_in_words():
    r = CliRunner().invoke(main, ["show", "../....../......./......../....N..../......../"
                                  "......./....../.. R 5 5 basic"])
    assert r.exit_code == 0
    assert "Standing: scores tied 0-0, neutrals left 5-5." in r.stdout
    assert "level" not in r.stdout


def test_annotate_shows_progress_off_a_terminal_too(monkeypatch):
    """A long annotate run into a log (stderr no terminal) says how far it is now and
    then (it printed nothing for minutes); --json stays quiet there."""
    from szsolver.cli import common
    monkeypatch.setattr(common, "PLAIN_SECONDS", 0.2)
    record = game_string(tail_game(10))
    r = CliRunner().invoke(main, ["annotate", record, "--time-per-turn", "0.1"])
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.stderr.splitlines() if "turns judged" in ln]
    assert lines and all(" of 10 turns judged" in ln for ln in lines), r.stderr
    done = [int(ln.split("] ")[1].split(" of")[0]) for ln in lines]
    assert done == sorted(done)
    r = CliRunner().invoke(main, ["annotate", record, "--time-per-turn", "0.1", "--json"])
    assert r.exit_code == 0 and "turns judged" not in r.stderr


def test_rows_beyond_the_horizon_are_check_s_judgements():
    """One and two turns beyond ``exact_turns`` check probes the positions after the
    played turn and the engine's turns with the exact solver; annotate does the same,
    so its row is what ``check`` says of that turn."""
    from szsolver.analysis.check import check
    game = tail_game(6)
    res = annotate(game, engine_seconds=0.05, exact_turns=4, cpsat=False)
    pos = game.start.copy()
    for k, turn in enumerate(game.turns[:2]):
        row = res.turns[k].to_json()
        alone = check(pos, turn, engine_seconds=0.05, exact_turns=4, cpsat=False).to_json()
        for d in (row, alone):
            del d["seconds"]
        assert row == alone, k
        pos.play(turn)
    assert res.turns[0].played_exact and not res.turns[0].exact     # probed and proved


@pytest.mark.parametrize("rule", ["basic", "advanced"])
def test_a_time_per_turn_judges_each_turn_as_check_with_that_time_limit(rule):
    """``annotate --time-per-turn S`` plans each estimated turn's work (bounds, probes,
    engine) as ``check --time-limit S`` does, so each turn takes about S seconds and its
    row is what that check says, the root's "is any turn better?" test included (one
    turn beyond the horizon, the played value proved). The check's limit is also a
    deadline, a safety net on a machine slower than the cost models (annotate's turns
    are fixed work only): a turn it cut short is not compared."""
    from szsolver.analysis.check import check
    game = tail_game(6)
    if rule == "advanced":
        game = game.with_rule(1)
    res = annotate(game, time_per_turn=0.6, exact_turns=4)
    pos = game.start.copy()
    compared = 0
    for k, turn in enumerate(game.turns[:2]):            # 6 and 5 turns left: estimated
        row = res.turns[k].to_json()
        alone = check(pos, turn, time_limit=0.6, exact_turns=4)
        pos.play(turn)
        if alone.engine_stopped or any("time limit" in n for n in alone.notes):
            continue
        alone = alone.to_json()
        for d in (row, alone):
            del d["seconds"]
        assert row == alone, (k, row, alone)
        compared += 1
    assert compared, "every check was cut short by its deadline"
    assert res.settings["time_per_turn"] == 0.6 and res.turns[0].method == "engine"
