"""Bad starmap input raises the right szsolver.errors class with a one-line message:
InvalidPuzzleError for malformed or inconsistent puzzles and solutions,
UnknownPuzzleError for IDs that name no puzzle, ParseError for text that does not parse."""
import json

import pytest

from szsolver.errors import (InputError, InvalidPuzzleError, ParseError, UnknownPuzzleError,
                             UnsupportedError)
from szsolver.rules.geometry import STARS_ZONE, square
from szsolver.starmaps.complete import NoStarmap, complete_starmap
from szsolver.starmaps.daily import parse_date
from szsolver.starmaps.generate import generate, parse_id, puzzle_from_id
from szsolver.starmaps.io import (load_puzzle, parse_puzzle_string, puzzle_from_json, puzzle_from_text,
                                  stars_from_points)
from szsolver.starmaps.logic import grade, grade_level
from szsolver.starmaps.model import Puzzle
from szsolver.starmaps.sat import other_solution

SZ = STARS_ZONE
CENTRE = SZ.fixed_neutral_mask


def raises(cls, fn, *args, match=None, **kwargs):
    with pytest.raises(cls, match=match) as info:
        fn(*args, **kwargs)
    assert isinstance(info.value, ValueError) and "\n" not in str(info.value)
    return str(info.value)


def test_malformed_puzzles():
    a, b = SZ.index[(4, 4)], SZ.index[(2, 4)]
    raises(InvalidPuzzleError, Puzzle, SZ, blocked=CENTRE | 1 << a, givens=((a, 5),),
           match="^given on blocked point 44$")
    raises(InvalidPuzzleError, Puzzle, SZ, blocked=0, match="fixed neutral")
    raises(InvalidPuzzleError, Puzzle, SZ, blocked=CENTRE, givens=((a, 5), (b, 5)),
           match="^two givens show the same pattern$")
    raises(InvalidPuzzleError, puzzle_from_json, {"format": "other"}, match="^not a starmap puzzle")
    raises(InvalidPuzzleError, puzzle_from_json, {"board": 8}, match="^board must be a name")
    raises(InvalidPuzzleError, puzzle_from_json, {"board": "stars-zone", "givens": [{"point": "44"}]},
           match="^a given needs 'point' and 'pattern'$")
    raises(InvalidPuzzleError, puzzle_from_json, {"board": "stars-zone", "stars": 15},
           match="^'stars' is 15, the stars-zone board needs 16$")
    raises(InvalidPuzzleError, puzzle_from_json, {"board": "pentagon"}, match="^unknown board 'pentagon'")
    raises(InvalidPuzzleError, stars_from_points, SZ, ["44", "44"], match="^point 44 listed twice$")
    raises(InvalidPuzzleError, stars_from_points, SZ, 44, match="^a solution must be a list of points$")
    raises(InvalidPuzzleError, load_puzzle, "   \n", match="^empty puzzle$")


def test_text_that_does_not_parse():
    raises(ParseError, parse_puzzle_string, "stars-zone;basic", match="^bad puzzle string")
    raises(ParseError, parse_puzzle_string, "stars-zone;basic;x=;g=44", match="^bad given '44'")
    raises(ParseError, parse_puzzle_string, "stars-zone;basic;x=;g=44:g", match="^bad pattern 'g'$")
    raises(ParseError, parse_puzzle_string, "stars-zone;basic;x=;g=4x:1", match="^bad point '4x'")
    raises(ParseError, parse_puzzle_string, "stars-zone;clever;x=;g=", match="^unknown rule 'clever'")
    raises(ParseError, parse_puzzle_string, "hexagon;basic;x=;g=", match="^unknown board 'hexagon'")
    raises(ParseError, puzzle_from_text, "hello\nworld", match="^not a starmap puzzle text")
    raises(ParseError, parse_date, "2026-13-01", match="^bad date '2026-13-01': there is no such day")
    raises(ParseError, parse_date, "2026-02-30", match="^bad date '2026-02-30': there is no such day")
    raises(ParseError, parse_date, "2026-2-3", match="^bad date '2026-2-3': expected YYYY-MM-DD")
    raises(ParseError, grade_level, "tricky", match="^unknown grade 'tricky'")
    raises(ParseError, generate, "sz", "easy", "a b", match="^bad seed 'a b'")
    raises(InputError, load_puzzle, "nofile.json", match="^no such puzzle file: nofile.json$")


def test_ids_that_name_no_puzzle():
    raises(UnknownPuzzleError, parse_id, "sz-tricky-1", match="^bad puzzle ID 'sz-tricky-1'")
    raises(UnknownPuzzleError, puzzle_from_id, "sq13-easy-1", match="^unknown board code 'sq13'")
    raises(UnknownPuzzleError, puzzle_from_id, "", match="^bad puzzle ID ''")


def test_requests_outside_what_is_offered():
    raises(UnsupportedError, generate, "hex", "fiendish", "1", match="not offered")
    raises(UnsupportedError, generate, "square-7", "easy", "1", match="out of range 8..12")
    msg = raises(NoStarmap, complete_starmap, square(7), 0, match="^no complete starmap on square-7")
    assert issubclass(NoStarmap, InvalidPuzzleError) and msg.endswith("proved")
    # no blocked points were given, so the message speaks of none (it said "with these
    # blocked points"); with some given it names them
    assert msg == "no complete starmap on square-7 (basic rule): proved"
    msg = raises(NoStarmap, complete_starmap, square(7), 0, blocked=1, match="^no complete")
    assert msg == "no complete starmap on square-7 with these blocked points (basic rule): proved"


def test_bad_solutions():
    g = square(8)
    stars = complete_starmap(g, 0)
    pz = Puzzle(g)
    raises(InvalidPuzzleError, other_solution, pz, stars & (stars - 1), match="^not a solution: 15 stars")
    contradictory = Puzzle(SZ, CENTRE, ((SZ.index[(1, 4)], 15),))  # a corner cannot see all ways
    raises(InvalidPuzzleError, grade, contradictory, match="^the puzzle has no solution")


def test_cli_prints_one_line(tmp_path):
    from click.testing import CliRunner

    from szsolver.cli import main
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "szsolver-starmap-puzzle", "board": "stars-zone", "blocked": "44"}))
    for args, want in ((["puzzle", "solve", str(bad)], "Error: 'blocked' must be a list of points\n"),
                       (["puzzle", "show", "sz-tricky-1"], "Error: bad puzzle ID 'sz-tricky-1'")):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and r.output.startswith(want) and r.output.count("\n") == 1


def test_starmap_cut_short_by_its_limit_is_unknown_exit_12(monkeypatch):
    """Not an error (exit 1 is for the system's failures): the answer a limit cut
    short, exit 12 as puzzle solve's unknown, in words and in JSON."""
    from click.testing import CliRunner
    from szsolver.cli import main
    from szsolver.starmaps import complete

    def cut_short(*a, **k):              # how complete_starmap says its limit ran out
        raise TimeoutError("time limit")
    monkeypatch.setattr(complete, "complete_starmap", cut_short)
    r = CliRunner().invoke(main, ["starmap", "--board", "hex", "--time-limit", "0.001"])
    assert r.exit_code == 12, r.output
    assert r.stdout == "No starmap found within 0.001 s (nothing proved: the search was cut short).\n"
    r = CliRunner().invoke(main, ["starmap", "--board", "hex", "--time-limit", "0.001", "--json"])
    assert r.exit_code == 12 and json.loads(r.stdout) == {
        "status": "unknown", "board": "hex-768", "seed": "0", "time_limit": 0.001}
