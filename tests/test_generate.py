"""Generation: proved unique, graded, reproducible from the seed; IDs; the daily puzzle."""
import datetime as dt

import pytest
from click.testing import CliRunner

from szsolver.cli import main
from szsolver.starmaps.daily import WEEKDAY_GRADES, daily, daily_id, grade_for, parse_date
from szsolver.starmaps.generate import Rng, generate, parse_id, puzzle_from_id, seed_int
from szsolver.starmaps.logic import grade
from szsolver.starmaps.io import puzzle_string
from szsolver.starmaps.model import is_solution
from szsolver.starmaps.sat import solve


def test_rng_is_pinned():
    """Generation's randomness is our own splitmix64: pinned values, any machine."""
    r = Rng(12345)
    assert [r.below(100) for _ in range(6)] == [44, 97, 5, 50, 63, 46]
    assert seed_int("szsolver", 1) == 9668509843236717645
    items = list(range(10))
    Rng(7).shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))


def test_seed_int_is_hashlib_stable():
    # sha256 of "a\x1fb": the same on every machine and run
    assert seed_int("a", "b") == int.from_bytes(
        __import__("hashlib").sha256(b"a\x1fb").digest()[:8], "big")


@pytest.mark.parametrize("board,target", [("stars-zone", "easy"), ("stars-zone", "medium"),
                                          ("stars-zone", "hard"), ("stars-zone", "fiendish"),
                                          ("square-8", "medium")])
def test_generated_unique_graded_reproducible(board, target):
    a = generate(board, target, "t7")
    b = generate(board, target, "t7")
    assert puzzle_string(a.puzzle) == puzzle_string(b.puzzle) and a.solution == b.solution
    assert a.grade == b.grade == target == grade(a.puzzle)
    r = solve(a.puzzle)
    assert r.status == "unique" and r.solutions == [a.solution]
    assert is_solution(a.puzzle, a.solution)
    assert a.id.endswith("-" + target + "-t7") and parse_id(a.id)[1] == target


def test_advanced_rule_puzzle():
    a = generate("stars-zone", "hard", "t-adv", rule="advanced")
    assert a.id == "sza-hard-t-adv" and a.puzzle.rule == 1
    assert solve(a.puzzle).solutions == [a.solution] and grade(a.puzzle) == "hard"
    assert puzzle_string(puzzle_from_id(a.id).puzzle) == puzzle_string(a.puzzle)


def test_ids():
    g, gr, s = parse_id("sz-hard-17")
    assert (g.name, gr, s) == ("stars-zone", "hard", "17")
    assert parse_id("sq8-easy-x.1")[0].name == "square-8"
    for bad in ("sz-nasty-1", "zz-easy-1", "sz-easy-", "sq99-easy-1", "sz-easy-a b"):
        with pytest.raises(ValueError):
            parse_id(bad)
    gen = puzzle_from_id("sz-medium-t-id")
    assert gen.id == "sz-medium-t-id" and gen.grade == "medium"
    assert puzzle_string(gen.puzzle) == puzzle_string(generate("sz", "medium", "t-id").puzzle)


def test_bad_generate_input():
    with pytest.raises(ValueError, match="unknown grade"):
        generate("stars-zone", "nasty", "1")
    with pytest.raises(ValueError, match="unknown board"):
        generate("moon", "easy", "1")
    with pytest.raises(ValueError, match="not offered"):
        generate("hex", "fiendish", "1")
    with pytest.raises(ValueError, match="bad seed"):
        generate("stars-zone", "easy", "a b")


def test_daily_grades_and_ids():
    assert [grade_for(f"2026-11-{d}") for d in range(23, 30)] == list(WEEKDAY_GRADES)
    assert daily_id("2026-11-23") == "sz-easy-d20261123"
    assert daily_id("2027-01-03") == "sz-fiendish-d20270103"  # a Sunday
    assert parse_date(None) == dt.datetime.now(dt.timezone.utc).date()
    for bad in ("2026-02-30", "26-1-1", "tomorrow", "2026-11-23x"):
        with pytest.raises(ValueError, match="bad date"):
            parse_date(bad)


def test_daily_stable():
    a = daily("2026-11-25")
    b = daily("2026-11-25")
    assert a.id == b.id == "sz-medium-d20261125"
    assert puzzle_string(a.puzzle) == puzzle_string(b.puzzle) and a.grade == "medium"
    assert solve(a.puzzle).status == "unique"
    assert puzzle_string(puzzle_from_id(a.id).puzzle) == puzzle_string(a.puzzle)


def test_cli_daily_show_generate(tmp_path):
    r = CliRunner()
    out1 = r.invoke(main, ["puzzle", "daily", "--date", "2026-11-24", "--json"])
    out2 = r.invoke(main, ["puzzle", "daily", "--date", "2026-11-24", "--json"])
    assert out1.exit_code == 0, out1.output
    assert out1.output == out2.output and '"sz-easy-d20261124"' in out1.output
    shown = r.invoke(main, ["puzzle", "show", "sz-easy-d20261124", "--json"])
    assert shown.exit_code == 0
    import json
    a, b = json.loads(out1.output), json.loads(shown.output)
    assert a["givens"] == b["givens"] and a["blocked"] == b["blocked"]
    svg = tmp_path / "p.svg"
    g = r.invoke(main, ["puzzle", "generate", "--grade", "easy", "--seed", "3", "--count", "2",
                        "--out", str(tmp_path / "out"), "--svg", str(svg), "--solution"])
    assert g.exit_code == 0, g.output
    assert "sz-easy-3" in g.output and "sz-easy-4" in g.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["sz-easy-3.json", "sz-easy-4.json"]
    assert (tmp_path / "p-3.svg").read_text().startswith("<svg")
    ex = r.invoke(main, ["puzzle", "show", "sz-easy-3", "--explain"])
    assert ex.exit_code == 0 and "[" in ex.output


@pytest.mark.parametrize("args,msg", [
    (["puzzle", "daily", "--date", "2026-13-01"], "bad date"),
    (["puzzle", "show", "sz-bogus-1"], "bad puzzle ID"),
    (["puzzle", "generate", "--grade", "nasty"], "unknown grade"),
    (["puzzle", "generate", "--board", "moon"], "unknown board"),
])
def test_cli_bad_input(args, msg):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and "Error: " in r.output and msg in r.output
    assert len(r.output.strip().splitlines()) == 1
