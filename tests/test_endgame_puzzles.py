"""Endgame puzzles: every published puzzle re-proved (one optimal turn group, the stored
value, each punishment's exact value), checked against a second method (every turn's
exact value from all_turns) and the pure-Python rules (the lines replayed), IDs that
rebuild the same puzzle, the daily pick, and the command line's answers and exit codes."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from szsolver.cli.app import main
from szsolver.endgame import puzzles as P
from szsolver.endgame.solver import solve, turn_orbits
from szsolver.errors import ParseError, UnknownPuzzleError
from szsolver.rules.reference import Position as RefPosition
from szsolver.rules.text import checked_turn, turn_table

COLLECTION = P.load_collection()
# Advanced hard puzzles whose re-proof takes seconds (5-40 s measured): re-proved in
# benchmarks/bench_endgame_puzzles.py; the other Advanced hard ones are the suite's sample.
SLOW = {"eg-advanced-ex5", "eg-advanced-hard-3", "eg-advanced-hard-5"}
FAST = [p for p in COLLECTION if p.id not in SLOW]


def _ids(ps):
    return [p.id for p in ps]


def test_the_collection_holds_every_grade_of_both_rules():
    counts = {}
    for p in COLLECTION:
        counts[(p.rule, p.grade)] = counts.get((p.rule, p.grade), 0) + 1
    for grade in P.GRADES:
        assert counts.get(("basic", grade), 0) >= 20
    for grade in ("easy", "medium"):
        assert counts.get(("advanced", grade), 0) >= 20
    assert counts.get(("advanced", "hard"), 0) >= 7
    assert [p for p in FAST if p.rule == "advanced" and p.grade == "hard"]
    assert len({p.id for p in COLLECTION}) == len(COLLECTION)


@pytest.mark.parametrize("p", FAST, ids=_ids(FAST))
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
        cr = solve(child)
        assert cr.value == w["value"] and w["loss"] > 0
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


SECOND_METHOD = [p for p in FAST if p.rule == "basic" and p.turns_left <= 4][:12] + \
    [p for p in FAST if p.rule == "advanced" and p.turns_left <= 3][:4]


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
                "eg-advanced-hard-2"):
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


def test_daily_check_exit_codes():
    p = P.daily("2026-11-23")
    assert _run("daily", "--date", "2026-11-23", "--check", p.solution).exit_code == 0
    wrong = p.punishments[0]["turn"]
    r = _run("daily", "--date", "2026-11-23", "--check", wrong, "--json")
    assert r.exit_code == 1 and json.loads(r.output)["correct"] is False
