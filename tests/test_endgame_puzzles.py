"""Endgame puzzles: every published puzzle re-proved (one optimal turn group, the stored
value, each punishment's exact value), checked against a second method (every turn's
exact value from all_turns) and the pure-Python rules (the lines replayed), IDs that
rebuild the same puzzle, the daily pick, and the command line's answers and exit codes."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from szsolver.cli.app import main
from szsolver.puzzles import endgame as P
from szsolver.endgame.solver import solve, turn_orbits
from szsolver.errors import ParseError, UnknownPuzzleError
from szsolver.rules.reference import Position as RefPosition
from szsolver.rules.text import checked_turn, turn_table

COLLECTION = P.load_collection()


def _ids(ps):
    return [p.id for p in ps]


def test_the_collection_holds_every_grade_of_both_rules():
    counts = {}
    for p in COLLECTION:
        counts[(p.rule, p.grade)] = counts.get((p.rule, p.grade), 0) + 1
    for rule in ("basic", "advanced"):
        for grade in P.GRADES:
            assert counts.get((rule, grade), 0) >= 20
    assert len({p.id for p in COLLECTION}) == len(COLLECTION)


@pytest.mark.parametrize("p", COLLECTION, ids=_ids(COLLECTION))
def test_every_published_puzzle_is_reproved_unique(p):
    pos = p.load_position()
    assert pos.turns_left == p.turns_left
    r = solve(pos)
    assert r.exact and r.value == p.value
    table = turn_table(pos.geometry)
    best = {str(table[t]) for t in r.best}
    assert best == {p.solution, *p.also}          # exactly the solution's group is optimal
    orbit = [o for o in turn_orbits(pos) if checked_turn(pos, p.solution) in o][0]
    assert {str(table[t]) for t in orbit} == best
    # the grade's definition holds
    assert P.grade_of({"turns_left": p.turns_left, "greedy": p.greedy, "solution": p.solution,
                       "also": p.also, "neutral": p.neutral}, p.rule) == p.grade
    assert set(p.greedy) == {str(table[t]) for t in P.greedy_turns(pos)}
    # each punishment: a wrong turn whose exact value is the stored one, worse than the best
    assert p.punishments
    for w in p.punishments:
        child = pos.copy()
        child.make(checked_turn(pos, w["turn"]))
        cr = solve(child, pv=False)             # the value is what is stored and tested
        assert cr.exact and cr.value == w["value"] and w["loss"] > 0
        assert w["loss"] == (p.value - w["value"] if pos.side == 0 else w["value"] - p.value)


def _replay_reference(position: str, line: list) -> RefPosition:
    """The line played with the pure-Python rules (every turn checked legal)."""
    ref = RefPosition(position)
    for t in line:
        ref.play(checked_turn(ref, t))
    assert ref.is_over()
    return ref


@pytest.mark.parametrize("p", COLLECTION, ids=_ids(COLLECTION))
def test_lines_replay_on_the_reference_rules(p):
    """The solution's line and every punishment's line reach their stored value and
    final scores under the independent pure-Python rules."""
    ref = _replay_reference(p.position, [p.solution, *p.line])
    assert ref.value() == p.value and dict(zip(("red", "blue"), ref.scores())) == p.scores
    for w in p.punishments:
        ref = _replay_reference(p.position, [w["turn"], *w["line"]])
        assert ref.value() == w["value"]
        assert dict(zip(("red", "blue"), ref.scores())) == w["scores"]


SECOND_METHOD = [p for p in COLLECTION if p.rule == "basic" and p.turns_left <= 4][:12] + \
    [p for p in COLLECTION if p.rule == "advanced" and p.turns_left <= 3][:4]


@pytest.mark.parametrize("p", SECOND_METHOD, ids=_ids(SECOND_METHOD))
def test_uniqueness_agrees_with_every_turns_exact_value(p):
    """A second method: the exact value of every legal turn (all_turns); only the
    solution's group reaches the puzzle's value, and the punished values agree."""
    pos = p.load_position()
    res = solve(pos, all_turns=True)
    table = turn_table(pos.geometry)
    values = {str(table[t.turn]): t.value for t in res.turns}
    assert all(t.exact for t in res.turns)
    assert {t for t, v in values.items() if v == p.value} == {p.solution, *p.also}
    for w in p.punishments:
        assert values[w["turn"]] == w["value"]


def test_ids_rebuild_the_published_puzzles():
    index = P.collection_index()
    for pid in ("eg-basic-easy-1", "eg-basic-medium-2", "eg-basic-hard-4", "eg-advanced-easy-3",
                "eg-advanced-hard-2", "eg-advanced-hard-20"):
        kind, rule, grade, seed = P.parse_id(pid)
        fresh = P.generate(rule, grade, seed).to_json()
        stored = index[pid].to_json()
        for k in ("seconds",):
            fresh.pop(k), stored.pop(k)
        assert fresh == stored


def test_ids_parse_and_refuse():
    assert P.parse_id("eg-basic-medium-7") == ("seed", 0, "medium", 7)
    assert P.parse_id("eg-advanced-ex4") == ("example", 1, 4)
    assert P.parse_id("eg-basic-d20261122")[0] == "daily"
    for bad in ("eg-basic-medium-0", "eg-basic-fiendish-1", "sz-easy-1", "eg-basic-medium-7x",
                "eg-basic-ex9", ""):
        with pytest.raises(UnknownPuzzleError):
            P.parse_id(bad)
    with pytest.raises(ParseError):
        P.puzzle_from_id("eg-basic-d20260230")


def test_the_daily_puzzle_is_picked_by_date():
    d = P.daily("2026-11-22")                     # a Sunday: hard
    assert d.id == "eg-basic-d20261122" and d.grade == "hard"
    assert d.source == "eg-basic-hard-5"          # golden: the pick never changes
    again = P.puzzle_from_id("eg-basic-d20261122")
    assert again.to_json() == d.to_json()
    assert P.daily("2026-11-23").grade == "easy"   # a Monday
    assert P.daily("2026-11-25", rule="advanced").rule == "advanced"


def test_puzzles_added_later_never_change_a_dates_daily(monkeypatch):
    """The daily draws from seeds 1..DAILY_SEEDS (and example-game puzzles) only: a
    collection grown by more seeds keeps every date's puzzle."""
    dates = [f"2026-12-{d:02d}" for d in range(1, 29)]
    before = {(d, r): P.daily(d, r).source for d in dates for r in ("basic", "advanced")}
    index = dict(P.collection_index())
    for p in list(index.values()):
        extra = P.EndgamePuzzle.from_json(p.to_json())
        kind, *rest = P.parse_id(p.id)
        if kind == "seed":
            extra.id = P.puzzle_id(p.rule, p.grade, rest[-1] + P.DAILY_SEEDS)
            index.setdefault(extra.id, extra)
    assert len(index) > len(P.collection_index())
    monkeypatch.setattr(P, "_INDEX", index)
    assert {(d, r): P.daily(d, r).source for d in dates for r in ("basic", "advanced")} == before
    assert all(P.parse_id(s)[0] == "example" or P.parse_id(s)[-1] <= P.DAILY_SEEDS
               for s in before.values())


def test_a_limit_that_stops_the_optimal_turns_is_not_taken_for_uniqueness(monkeypatch):
    """When the screening solve proves the value but a limit stops the optimal turns
    (``best_complete`` False: ``best`` may hold one group only), the generator proves
    them in full: a position with two optimal groups is still no puzzle."""
    from szsolver.rules.seeds import puzzle_rng_v1
    pos = None
    for attempt in range(50):
        game = P._play_game(0, puzzle_rng_v1("endgame-test", "basic", "easy", 1, attempt))
        for k in (2, 3):
            cand = game[len(game) - 1 - k]
            groups = {i for i, o in enumerate(turn_orbits(cand)) for t in o
                      if t in set(solve(cand).best)}
            if len(groups) >= 2:
                pos = cand
                break
        if pos is not None:
            break
    assert pos is not None and P.prove(pos) is None
    real = P.solve

    def stopped_after_value(position, **kw):
        r = real(position, **kw)
        if kw.get("node_limit"):                     # as if the limit hit after the value
            first = next(o for o in turn_orbits(position) if r.pv[0] in o)
            r.best, r.best_complete = sorted(first), False
        return r
    monkeypatch.setattr(P, "solve", stopped_after_value)
    assert P.prove(pos) is None


def test_starmaps_collection_is_unaffected():
    from szsolver.starmaps import generate as starmaps
    assert not [f for f in starmaps.collection_files() if "endgame" in f.name]
    assert starmaps.load_collection()


# --- the command line ---------------------------------------------------------------------

def _run(*args):
    return CliRunner().invoke(main, ["puzzle", "endgame", *args])


def test_cli_check_right_and_wrong():
    p = P.collection_index()["eg-basic-hard-3"]
    r = _run("check", p.id, p.solution)
    assert r.exit_code == 0 and "right" in r.output
    wrong = p.punishments[0]
    r = _run("check", p.id, wrong["turn"], "--json")
    assert r.exit_code == 1
    data = json.loads(r.output)
    assert data["correct"] is False and data["value"] == wrong["value"]
    assert data["line"] == wrong["line"] and data["scores"] == wrong["scores"]
    r = _run("check", p.id, wrong["turn"])
    assert r.exit_code == 1 and "wrong" in r.output and " ".join(wrong["line"]) in r.output


def test_cli_show_and_daily_json():
    r = _run("show", "eg-basic-easy-1", "--json")
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert data["id"] == "eg-basic-easy-1" and "solution" not in data
    r = _run("show", "eg-basic-easy-1", "--solution", "--json")
    assert json.loads(r.output)["solution"] == P.collection_index()["eg-basic-easy-1"].solution
    r = _run("daily", "--date", "2026-11-22", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["source"] == "eg-basic-hard-5"
    r = _run("generate", "--grade", "easy", "--seed", "1", "--json", "--solution")
    assert r.exit_code == 0
    assert json.loads(r.output)["position"] == P.collection_index()["eg-basic-easy-1"].position


@pytest.mark.parametrize("args, words", [
    (("show", "eg-basic-nope-1"), "no endgame puzzle"),
    (("check", "eg-basic-easy-1", "zz"), "bad point"),
    (("check", "eg-basic-easy-1", "11"), ""),
    (("daily", "--date", "2026-13-01"), "bad date"),
    (("daily", "--date", "2026-02-30"), "bad date '2026-02-30': there is no such day"),
    (("daily", "--date", "2026-2-30"), "expected YYYY-MM-DD"),
])
def test_cli_bad_input_is_one_line_exit_2(args, words):
    r = _run(*args)
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and words in lines[0]


def test_the_documented_check_is_real_output():
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs" / "endgame-puzzles.md").read_text()
    shown = [ln for ln in doc.splitlines() if ln.startswith("14: wrong.")]
    r = _run("check", "eg-basic-hard-3", "14")
    assert shown and r.exit_code == 1 and r.output.strip() == shown[0]



def test_a_puzzle_words_a_value_as_every_command_does():
    from szsolver.verdict import describe_value
    r = _run("check", "eg-basic-hard-3", "14")
    assert f"The best gives: {describe_value(101)} (+101);" in r.output
    assert f"gives: {describe_value(-97)} (-97)," in r.output

def test_daily_check_exit_codes():
    p = P.daily("2026-11-23")
    assert _run("daily", "--date", "2026-11-23", "--check", p.solution).exit_code == 0
    wrong = p.punishments[0]["turn"]
    r = _run("daily", "--date", "2026-11-23", "--check", wrong, "--json")
    assert r.exit_code == 1 and json.loads(r.output)["correct"] is False
