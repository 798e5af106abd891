"""The puzzle workflow on the real command line: puzzle IDs for solve and check, --check
on show and daily, solutions that list only the placed stars, wrong solutions
explained point by point, mistyped IDs refused, exit codes, and bad input of every
kind answered with one line and exit code 2."""
import json
import pathlib
import random

import pytest
from click.testing import CliRunner

from szsolver.cli import main
from szsolver.errors import UnknownPuzzleError
from szsolver.rules.geometry import STARS_ZONE, square
from szsolver.starmaps import ids
from szsolver.starmaps.generate import collection_index, puzzle_from_id
from szsolver.starmaps.io import puzzle_string, puzzle_to_json, stars_to_points
from szsolver.starmaps.model import Puzzle, check_solution, solution_problems

ROOT = pathlib.Path(__file__).resolve().parents[1]
SZ = STARS_ZONE
P7 = collection_index()["sz-hard-7"]               # 8 givens, 1 blocked point (95)
SOL7 = stars_to_points(SZ, P7.solution)            # all 16 stars
GIVEN7 = {SZ.coord_text(p) for p, _ in P7.puzzle.givens}
PLACED7 = [q for q in SOL7 if q not in GIVEN7]     # the 8 stars a player places


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(r):
    """Bad input: exit 2, nothing on stdout, one line 'Error: ...' on stderr."""
    assert r.exit_code == 2, (r.exit_code, r.output)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    return lines[0]


# --- an independent beam walk (coordinates and direction steps only) ----------------------

def walk_patterns(puzzle, stars):
    """{point: pattern} of every star, walking each line step by step on the coordinates
    (not through szsolver.rules.beams); under the advanced rule a blocked point cuts."""
    g = puzzle.geometry
    out = {}
    for p in range(g.size):
        if not stars >> p & 1:
            continue
        pat = 0
        for d, (dr, dc) in enumerate(g.directions):
            r, c = g.coords[p]
            while True:
                r, c = r + dr, c + dc
                q = g.index.get((r, c))
                if q is None:
                    break
                if stars >> q & 1:
                    pat |= 1 << d
                    break
                if puzzle.rule == 1 and puzzle.blocked >> q & 1:
                    break
        out[p] = pat
    return out


# --- IDs -------------------------------------------------------------------------------------

def test_solve_and_check_take_an_id():
    r = run("puzzle", "solve", "sz-hard-7", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["id"] == "sz-hard-7" and d["status"] == "unique" and d["solutions"] == [SOL7]
    assert d["puzzle"] == puzzle_string(P7.puzzle)
    r = run("puzzle", "check", "sz-hard-7", " ".join(SOL7))
    assert r.exit_code == 0 and r.stdout.startswith("sz-hard-7: correct")
    # a daily ID and a generator seed are IDs too
    r = run("puzzle", "check", "sz-easy-d20261123",
            " ".join(stars_to_points(SZ, puzzle_from_id("sz-easy-d20261123").solution)))
    assert r.exit_code == 0, r.output
    assert run("puzzle", "solve", "sz-medium-golden").exit_code == 0


def test_an_id_wins_over_a_file_of_that_name(tmp_path, monkeypatch):
    """``echo junk > sz-hard-7; szsolver puzzle solve sz-hard-7`` solves the puzzle
    sz-hard-7 and says on stderr, in one line, that the file was ignored and how to read
    it; ``./sz-hard-7`` (a path with a '/') reads the file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sz-hard-7").write_text("junk\n")
    note = ("Note: sz-hard-7 is read as a puzzle ID; the file sz-hard-7 is ignored "
            "(give ./sz-hard-7 to read the file)")
    r = run("puzzle", "solve", "sz-hard-7", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["id"] == "sz-hard-7" and r.stderr.splitlines() == [note]
    r = run("puzzle", "check", "sz-hard-7", " ".join(SOL7))
    assert r.exit_code == 0 and r.stdout.startswith("sz-hard-7: correct")
    assert r.stderr.splitlines() == [note]
    assert "bad puzzle string 'junk'" in one_line_error(run("puzzle", "solve", "./sz-hard-7"))
    other = Puzzle(square(8), givens=())
    (tmp_path / "sz-hard-7").write_text(puzzle_string(other))
    r = run("puzzle", "solve", "./sz-hard-7", "--json", "--max-solutions", "1")
    assert json.loads(r.stdout)["puzzle"] == puzzle_string(other) and "id" not in json.loads(r.stdout)


def test_a_file_named_like_no_valid_id_is_read_as_the_file(tmp_path, monkeypatch):
    """A name that is no valid ID (past the collection) names the file, as before."""
    monkeypatch.chdir(tmp_path)
    other = Puzzle(square(8), givens=())
    (tmp_path / "sz-hard-999").write_text(puzzle_string(other))
    r = run("puzzle", "solve", "sz-hard-999", "--json", "--max-solutions", "1")
    assert r.exit_code == 0 and r.stderr == ""
    assert json.loads(r.stdout)["puzzle"] == puzzle_string(other) and "id" not in json.loads(r.stdout)


MISTYPED = {
    "sz-hard-999": "the published collection has sz-hard-1 .. sz-hard-24",
    "sz-hard-0": "the published collection has sz-hard-1 .. sz-hard-24",
    "sz-hard-25": "the published collection has sz-hard-1 .. sz-hard-24",
    "sza-hard-4": "the published collection has sza-hard-1 .. sza-hard-3",
    "hex-easy-2": "the published collection has only hex-easy-1",
    "sz-hard-07": "without leading zeros (sz-hard-7)",
    "sz-easy-d20260230": "2026-02-30 is not a date",
    "sz-easy-d20261301": "2026-13-01 is not a date",
    "sz-hard-d20261123": "the puzzle of 2026-11-23 (a Monday) is easy: sz-easy-d20261123",
    "sz-fiendish-d20261128": "(a Saturday) is hard: sz-hard-d20261128",
    "sq8-easy-d20261123": "daily puzzles are on the Stars' Zone board",
    "sza-easy-d20261123": "daily puzzles are on the Stars' Zone board",
    "sz-easy-d2026112": "dYYYYMMDD",
    "sz-hard--7": "begins and ends with a letter or digit",
    "sz-hard-7.": "begins and ends with a letter or digit",
    "sz-hard-7.1": "a seed that begins with a digit is a number (did you mean sz-hard-7?)",
    "sz-hard-7_": "a seed begins and ends with a letter or digit",
    "sz-hard-7x": "a seed that begins with a digit is a number",
    "sz-easy-d2026_123": "dYYYYMMDD",
    "sz-hard-7 x": "bad puzzle ID",
    "sz-hard": "bad puzzle ID",
    "sz-nasty-7": "bad puzzle ID",
    "sq13-easy-1": "unknown board code 'sq13'",
    "sq08-easy-1": "bad puzzle ID",
    "sz-hard-\u0667": "bad puzzle ID",          # an Arabic-Indic 7 is not a 7
    "eg-basic-medium-7": "an eg-... ID is an endgame puzzle: `szsolver puzzle endgame show`",
}


@pytest.mark.parametrize("pid", sorted(MISTYPED))
def test_mistyped_ids_are_errors_never_another_puzzle(pid, monkeypatch):
    from szsolver.starmaps import generate as generate_module

    def no_generation(*a, **k):
        raise AssertionError("a mistyped ID was generated")
    monkeypatch.setattr(generate_module, "generate", no_generation)
    with pytest.raises(UnknownPuzzleError) as info:
        puzzle_from_id(pid)
    assert MISTYPED[pid] in str(info.value)
    for args in (["puzzle", "show", pid], ["puzzle", "solve", pid], ["puzzle", "check", pid, "44"],
                 ["puzzle", "show", pid, "--check", "44"]):
        assert MISTYPED[pid] in one_line_error(run(*args))


def test_accepted_ids_and_spaces():
    assert ids.check_id("  sz-hard-7 \n")[1:] == ("hard", "7", 0)
    assert ids.check_id("sq9-easy-999")[2] == "999"        # no published sq9 collection
    assert ids.check_id("sz-easy-d20261123")[2] == "d20261123"
    assert ids.check_id("sz-medium-golden")[2] == "golden"
    # names in any case, printed in lower case; a daily seed's d too, other seeds as written
    assert ids.check_id("SZ-Hard-7")[1:] == ("hard", "7", 0)
    assert ids.canonical_id(" SZA-EASY-D20261123") == "sza-easy-d20261123"
    assert ids.canonical_id("SZ-EASY-Golden") == "sz-easy-Golden"
    assert run("puzzle", "show", " sz-hard-7 ").exit_code == 0


def test_generate_refuses_seeds_whose_id_names_no_puzzle(tmp_path):
    for args, msg in ((["--seed", "25", "--grade", "hard"], "sz-hard-1 .. sz-hard-24"),
                      (["--seed", "07"], "leading zeros"),
                      (["--seed", "23", "--count", "3"], "sz-medium-1 .. sz-medium-24"),
                      (["--seed", "d20261123", "--grade", "hard"], "is easy"),
                      (["--seed", "x-"], "begins and ends")):
        out = tmp_path / "out"
        assert msg in one_line_error(run("puzzle", "generate", *args, "--out", out))
        assert not out.exists()  # refused before anything was generated or written
    r = run("puzzle", "generate", "--seed", "s25", "--grade", "easy", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["id"] == "sz-easy-s25"
    assert run("puzzle", "show", "sz-easy-s25").exit_code == 0


# --- --check on show and daily ----------------------------------------------------------------

def test_show_and_daily_check():
    r = run("puzzle", "show", "sz-hard-7", "--check", " ".join(PLACED7))
    assert r.exit_code == 0 and r.stdout.startswith("sz-hard-7: correct"), r.output
    r = run("puzzle", "show", "sz-hard-7", "--check", " ".join(PLACED7[:-1]), "--json")
    assert r.exit_code == 1 and json.loads(r.stdout)["correct"] is False
    daily = puzzle_from_id("sz-easy-d20261123")
    placed = [q for q in stars_to_points(SZ, daily.solution)
              if q not in {SZ.coord_text(p) for p, _ in daily.puzzle.givens}]
    r = run("puzzle", "daily", "--date", "2026-11-23", "--check", " ".join(placed))
    assert r.exit_code == 0 and r.stdout.startswith("sz-easy-d20261123: correct"), r.output
    r = run("puzzle", "daily", "--date", "2026-11-23", "--check", " ".join(placed[1:]))
    assert r.exit_code == 1 and "not a solution" in r.stdout
    one_line_error(run("puzzle", "daily", "--date", "2026-11-23", "--check", "44", "--solution"))


def test_daily_ids_of_the_first_and_last_years_name_their_date():
    """A year before 1000 keeps its zeros in the ID (strftime dropped them: sz-easy-d10101,
    an ID that names nothing); the last date there is has its puzzle too."""
    from szsolver.puzzles import endgame
    from szsolver.starmaps.daily import daily_id
    assert daily_id("0001-01-01") == "sz-easy-d00010101"          # a Monday
    assert ids.check_id("sz-easy-d00010101")[1:3] == ("easy", "d00010101")
    assert endgame.daily_id("0001-01-01") == "eg-basic-d00010101"
    assert endgame.parse_id("eg-basic-d00010101")[2].isoformat() == "0001-01-01"
    r = run("puzzle", "daily", "--date", "0001-01-01", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["id"] == "sz-easy-d00010101", r.output
    r = run("puzzle", "daily", "--date", "9999-12-31", "--json")   # a Friday
    assert r.exit_code == 0 and json.loads(r.stdout)["id"] == "sz-hard-d99991231", r.output


# --- solutions list the placed stars; wrong ones are explained --------------------------------

def test_solution_lists_placed_stars_givens_implied():
    text = run("puzzle", "show", "sz-hard-7").stdout
    assert "place 8 more stars" in text and "the 16 stars (with the 8 givens)" in text
    assert "a solution lists the points of the stars you placed" in text
    for listed in (PLACED7, SOL7, PLACED7 + sorted(GIVEN7)[:3]):
        r = run("puzzle", "check", "sz-hard-7", " ".join(listed), "--json")
        d = json.loads(r.stdout)
        assert r.exit_code == 0 and d["correct"] and d["stars"] == SOL7 and d["placed"] == PLACED7


def test_wrong_solution_explained_by_points():
    # 83 instead of 82 (a given): 82 stays a star (givens are implied), 83 is extra
    listed = PLACED7 + ["83"]
    r = run("puzzle", "check", "sz-hard-7", " ".join(listed), "--json")
    assert r.exit_code == 1
    d = json.loads(r.stdout)
    stars = P7.solution | 1 << SZ.index[(8, 3)]
    shown = walk_patterns(P7.puzzle, stars)
    # givens contradicted: exactly those whose walked pattern differs from the printed one
    want = [{"point": SZ.coord_text(p), "shows": shown[p], "needs": pat}
            for p, pat in P7.puzzle.givens if shown[p] != pat]
    assert d["givens_contradicted"] == want and want
    counts = {}
    for p, t in shown.items():
        counts.setdefault(t, []).append(SZ.coord_text(p))
    assert d["clashes"] == [{"pattern": t, "points": pts} for t, pts in sorted(counts.items())
                            if len(pts) > 1]
    assert d["missing_patterns"] == [t for t in range(16) if t not in counts]
    text = run("puzzle", "check", "sz-hard-7", " ".join(listed)).stdout
    assert text.startswith("sz-hard-7: not a solution:")
    g = want[0]
    assert f"given {g['point']} shows {g['shows']:x} (" in text
    assert "17 stars (8 given + 9 placed), a complete starmap has 16: 1 too many" in text


def test_two_points_joined_by_a_comma_are_told_to_take_a_space():
    """44,52 reads as one point, row 44 and column 52: the explanation says how to
    write the two board points it looks like."""
    last = PLACED7[-1]
    r = run("puzzle", "check", "sz-hard-7", " ".join(PLACED7[:-2]) + f" {PLACED7[-2]},{last}")
    assert r.exit_code == 1
    assert (f"a star off the stars-zone board: {PLACED7[-2]},{last} ({PLACED7[-2]},{last} is "
            f"one point, row {PLACED7[-2]}, column {last}; separate points with spaces: "
            f"{PLACED7[-2]} {last})") in r.stdout
    # written with the space, the same points are the solution
    assert run("puzzle", "check", "sz-hard-7", " ".join(PLACED7)).exit_code == 0


def test_blocked_and_off_board_stars_are_explained():
    listed = PLACED7[:-1] + ["95", "11", "10,10"]  # 95 is blocked; 11 and 10,10 are no points
    r = run("puzzle", "check", "sz-hard-7", " ".join(listed), "--json")
    d = json.loads(r.stdout)
    assert r.exit_code == 1 and d["on_blocked"] == ["95"] and d["off_board"] == ["11", "10,10"]
    text = run("puzzle", "check", "sz-hard-7", " ".join(listed)).stdout
    assert "2 stars off the stars-zone board: 11 10,10\n" in text   # no hint: 10 is no point
    assert "a star on blocked points: 95" not in text and "a star on blocked point: 95" in text
    assert "15 stars (8 given + 7 placed), a complete starmap has 16: place 1 more" in text
    stars = P7.solution & ~(1 << SZ.index[(int(PLACED7[-1][0]), int(PLACED7[-1][1]))])
    missing = sorted(set(range(16)) - set(walk_patterns(P7.puzzle, stars).values()))
    assert d["missing_patterns"] == missing and missing
    assert f"pattern{'s' if len(missing) > 1 else ''} no star shows: {missing[0]:x} (" in text


def test_check_solution_agrees_with_the_checker_and_a_walk():
    """On random star sets (givens added), the verdict agrees with solution_problems and
    every listed reason with an independent walk."""
    rnd = random.Random(7)
    free = [p for p in range(SZ.size) if not P7.puzzle.blocked >> p & 1]
    for trial in range(300):
        n = rnd.choice([6, 7, 8, 9, 10])
        placed = sum(1 << p for p in rnd.sample(free, n))
        if trial % 3 == 0:  # near misses: the solution with one star moved
            sol = [p for p in range(SZ.size) if P7.solution >> p & 1 and p not in dict(P7.puzzle.givens)]
            placed = sum(1 << p for p in sol)
            placed ^= 1 << rnd.choice(sol)
            placed |= 1 << rnd.choice(free)
        res = check_solution(P7.puzzle, placed)
        stars = placed | P7.puzzle.given_mask
        assert res.correct == (not solution_problems(P7.puzzle, stars))
        shown = walk_patterns(P7.puzzle, stars)
        assert res.missing_patterns == sorted(set(range(16)) - set(shown.values()))
        assert {c["pattern"] for c in res.clashes} == {t for t in shown.values()
                                                      if list(shown.values()).count(t) > 1}
        assert [g["point"] for g in res.givens_contradicted] == \
            [SZ.coord_text(p) for p, t in P7.puzzle.givens if shown[p] != t]
    # the advanced rule: blocked points cut beams
    adv = collection_index()["sza-hard-1"]
    assert check_solution(adv.puzzle, adv.solution).correct
    moved = adv.solution ^ (adv.solution & -adv.solution)
    res = check_solution(adv.puzzle, moved)
    assert not res.correct and res.correct == (not solution_problems(adv.puzzle, moved | adv.puzzle.given_mask))


# --- exit codes ------------------------------------------------------------------------------

def test_solve_exit_codes(tmp_path):
    empty = puzzle_string(Puzzle(SZ, blocked=SZ.fixed_neutral_mask))
    assert run("puzzle", "solve", "sz-hard-7").exit_code == 0                     # unique
    assert run("puzzle", "solve", "sz-hard-7", "--max-solutions", "1").exit_code == 0  # found
    assert run("puzzle", "solve", empty).exit_code == 10                          # multiple
    assert run("puzzle", "solve", "square-7;basic;x=;g=").exit_code == 11         # none
    r = run("puzzle", "solve", empty, "--time-limit", "1e-9", "--json")           # unknown
    assert r.exit_code == 12 and json.loads(r.stdout)["status"] == "unknown"
    assert run("puzzle", "check", "sz-hard-7", " ".join(SOL7)).exit_code == 0
    assert run("puzzle", "check", "sz-hard-7", "44").exit_code == 1


def test_exit_codes_are_documented():
    solve_help = run("puzzle", "solve", "--help").stdout
    for code in ("0 unique", "10 several", "11 no solution", "12 unknown", "2 bad input", "130"):
        assert code in " ".join(solve_help.split()), code
    for cmd in ("check", "show", "daily"):
        text = " ".join(run("puzzle", cmd, "--help").stdout.split())
        assert "1 wrong" in text and "2 bad input" in text and "130" in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Puzzles", 1)[1].split("\n## ", 1)[0]
    for code in ("10", "11", "12", "130"):
        assert f"`{code}`" in section


def test_ctrl_c_is_exit_130(monkeypatch):
    from szsolver.starmaps import sat

    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(sat, "solve", interrupted)
    r = run("puzzle", "solve", "sz-hard-7")
    assert r.exit_code == 130 and "Interrupted" in r.stderr and r.stdout == ""


# --- bad input everywhere --------------------------------------------------------------------

def test_svg_needs_a_name_and_a_writable_place(tmp_path):
    for args in (["puzzle", "show", "sz-hard-7"], ["puzzle", "solve", "sz-hard-7"],
                 ["puzzle", "daily", "--date", "2026-11-23"], ["puzzle", "generate", "--seed", "s1"],
                 ["starmap"]):
        assert "--svg needs a file name" in one_line_error(run(*args, "--svg", ""))
        bad = tmp_path / "missing" / "x.svg"
        assert "cannot write" in one_line_error(run(*args, "--svg", bad))
        assert not bad.parent.exists()
    assert "--out needs a directory name" in one_line_error(
        run("puzzle", "generate", "--seed", "s1", "--out", ""))


def test_generate_writes_all_or_nothing(tmp_path):
    out = tmp_path / "out"
    r = run("puzzle", "generate", "--grade", "easy", "--seed", "s1", "--count", "2", "--out", out,
            "--svg", tmp_path / "missing" / "p.svg")
    assert r.exit_code == 2 and not out.exists()  # the JSON files are taken back too


def test_puzzle_solve_reads_standard_input_for_dash():
    """``-`` is standard input, as for every SOURCE (it was taken for a puzzle ID)."""
    shown = run("puzzle", "show", "sz-easy-1", "--json")
    assert shown.exit_code == 0
    by_id = run("puzzle", "solve", "sz-easy-1", "--json")
    r = CliRunner().invoke(main, ["puzzle", "solve", "-", "--json"], input=shown.stdout)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["solutions"] == json.loads(by_id.stdout)["solutions"]


def test_generate_stopped_keeps_the_puzzles_it_proved(tmp_path, monkeypatch, ctrl_c_on_call):
    """Ctrl-C during the third of five puzzles: the two proved are written whole, each
    the puzzle a run of its own seed writes, and the command exits 130."""
    from szsolver.starmaps import generate as gen_mod
    real = gen_mod.generate
    monkeypatch.setattr(gen_mod, "generate", ctrl_c_on_call(real, 3))
    out = tmp_path / "out"
    r = run("puzzle", "generate", "--grade", "easy", "--seed", "s", "--count", "5", "--out", out)
    assert r.exit_code == 130, r.output
    assert "Stopped after 2 of 5 puzzles; their files are written." in r.stderr
    monkeypatch.setattr(gen_mod, "generate", real)
    one = tmp_path / "one"
    for seed in ("s.0", "s.1"):
        assert run("puzzle", "generate", "--grade", "easy", "--seed", seed, "--out", one).exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in one.iterdir())
    for p in out.iterdir():
        assert p.read_text() == (one / p.name).read_text()


def _puzzle_sources(tmp_path):
    """(label, SOURCE) pairs that are not puzzles: files and inline text."""
    rnd = random.Random(20261123)
    good = json.dumps(puzzle_to_json(P7.puzzle))
    out = []

    def file(name, data):
        path = tmp_path / name
        (path.write_bytes if isinstance(data, bytes) else path.write_text)(data)
        out.append((name, str(path)))
    for k in range(8):
        file(f"binary{k}.dat", bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 400))) + b"\xff")
    file("empty.json", "")
    file("spaces.txt", "  \n\t\n")
    file("deep-list.json", "[" * 50000)
    file("deep-object.json", '{"a":' * 50000)
    file("deep-given.json", good[:-1] + ', "givens": ' + "[" * 30000 + "]" * 30000 + "}")
    file("huge-int.json", '{"board": "stars-zone", "stars": ' + "9" * 5000 + "}")
    file("nul.txt", "stars-zone;basic;x=;g=44:5\x00")
    for cut in range(1, len(good), 23):
        file(f"cut{cut}.json", good[:cut])
    for key, values in {"board": [None, 8, [], {}, "", "moon", "square-7x"],
                        "rule": [None, 7, [], "", "expert"],
                        "blocked": [None, 7, "44", {}, [44], ["4x"], ["11"], ["44", "44"], ["55x"]],
                        "givens": [None, 3, "44", {}, [1], [{}], [{"point": "44"}], [["44"]],
                                   [{"point": "44", "pattern": "5"}], [{"point": "44", "pattern": 99}],
                                   [{"point": "44", "pattern": True}], [{"point": 44, "pattern": 5}],
                                   [{"point": "55", "pattern": 5}], [["44", 5], ["45", 5]],
                                   [{"point": "44", "pattern": 5, "beams": "up"}]],
                        "stars": [15, 17, "16", None],
                        "format": ["other", 1], "version": [2, "1", None],
                        "solution": [7, "4x", ["44", "44"], [1]]}.items():
        for v in values:
            d = dict(puzzle_to_json(P7.puzzle))
            d[key] = v
            file(f"{key}-{json.dumps(v)[:20]}.json".replace("/", "_"), json.dumps(d))
    for text in ["stars-zone;basic", "stars-zone;basic;x=;g=44", "stars-zone;odd;x=;g=",
                 "stars-zone;basic;x=99;g=", "hexagon;basic;x=;g=", "square-8;basic;x=;g=11:g",
                 "stars-zone;basic;x=44;g=44:5", "stars-zone;basic;x=;g=44:5.45:5",
                 "starmap puzzle: board moon, rule basic\n1 .", "hello\nworld", "{", "[]", "{}",
                 "no-such-file.json", "nothing", ";;;;", "\x00"]:
        out.append((repr(text)[:30], text))
    return out


def test_malformed_puzzles_are_one_line_errors(tmp_path):
    sources = _puzzle_sources(tmp_path)
    assert len(sources) > 80
    for label, src in sources:
        for args in (["puzzle", "solve", src], ["puzzle", "check", src, " ".join(SOL7)],
                     ["puzzle", "solve", src, "--json"]):
            r = run(*args)
            assert r.exit_code == 2, (label, r.exit_code, r.output)
            one_line_error(r)


def _bad_solutions(tmp_path):
    rnd = random.Random(5)
    out = []
    for k in range(5):
        path = tmp_path / f"sol{k}.bin"
        path.write_bytes(bytes(rnd.randrange(128, 256) for _ in range(50)))
        out.append(str(path))
    for k, text in enumerate(["[" * 50000, '{"solution":' * 50000, '{"solution": ' + "[" * 40000]):
        path = tmp_path / f"deep{k}.json"
        path.write_text(text)
        out.append(str(path))
    out += ["", "  ", "x", "44 4x", "44 44", "4", "444", "[44]", "[[]]", '{"stars": []}',
            '{"solution": 44}', '{"solution": [1]}', "[", '{"solution": ["44",', "no-such-file.txt",
            "44,", ",", "1" * 5000, "[" + "9" * 5000 + "]", '["44", null]', "\x00", "44\x0055"]
    return out


def test_malformed_solutions_are_one_line_errors(tmp_path):
    bad = _bad_solutions(tmp_path)
    for sol in bad:
        for args in (["puzzle", "check", "sz-hard-7", sol], ["puzzle", "show", "sz-hard-7", "--check", sol],
                     ["puzzle", "check", puzzle_string(P7.puzzle), sol, "--json"]):
            r = run(*args)
            assert r.exit_code == 2, (sol[:40], r.exit_code, r.output)
            one_line_error(r)
    for sol in bad[:4] + ["44 4x", "[[]]"]:  # each regenerates the daily: a few only
        one_line_error(run("puzzle", "daily", "--date", "2026-11-23", "--check", sol))


def test_mistyped_ids_and_dates_generated(tmp_path):
    """Every way of garbling a real ID (case, padding, digits, dashes, cut) and a real
    date is an error, for show, solve, check and daily alike."""
    rnd = random.Random(11)
    real = ["sz-hard-7", "sza-easy-2", "sq8-hard-1", "hex-medium-1", "sz-easy-d20261123"]
    garbled = set()
    for pid in real:
        board, grade, seed = pid.split("-")
        garbled |= {pid.upper(), pid.title(), f"{board}-{grade.upper()}-{seed}",
                    f"{board}--{grade}-{seed}", f"{board}-{grade}-0{seed}", f"{board}-{grade}-{seed}-",
                    f"{board}-{grade}-+{seed}", f"{board}-{grade}-{seed} 1", f"{board}{grade}{seed}",
                    f"{board}-{grade}-{seed}0000", f"{board}-{grade}", pid[:-1] + "\u0661",
                    f"{board}x-{grade}-{seed}", f"{board}-{grade}s-{seed}"}
        for _ in range(6):
            k = rnd.randrange(len(pid))
            garbled.add(pid[:k] + rnd.choice("-_ .:/") + pid[k + 1:])
    garbled |= {f"sz-{g}-d2026{m:02d}{d:02d}" for g in ("easy", "hard")
                for m, d in ((2, 29), (2, 30), (4, 31), (0, 1), (13, 1), (6, 0), (6, 32))}
    garbled |= {f"sz-{g}-d20261123" for g in ("medium", "hard", "fiendish")}
    garbled -= set(real)
    assert len(garbled) > 80
    for pid in sorted(garbled):
        if ids.SEED_RE.fullmatch(pid.rsplit("-", 1)[-1]) and not pid.endswith("-"):
            try:
                ids.check_id(pid)
            except UnknownPuzzleError:
                pass
            else:  # a garbling that is a valid generator seed (e.g. sz-hard-7_): not a typo we refuse
                continue
        for args in (["puzzle", "show", pid], ["puzzle", "solve", pid],
                     ["puzzle", "check", pid, " ".join(SOL7)]):
            r = run(*args)
            assert r.exit_code == 2, (pid, r.exit_code, r.output)
            one_line_error(r)
    for date in ["2026-02-30", "2026-13-01", "26-11-23", "2026-11-23x", "", " ", "tomorrow",
                 "2026/11/23", "2026-11-3", "\x00"]:
        one_line_error(run("puzzle", "daily", "--date", date))


def test_the_explained_example_in_docs_is_real_output():
    doc = (ROOT / "docs" / "puzzles.md").read_text(encoding="utf-8")
    block = doc.split('$ szsolver puzzle check sz-hard-7 "15 23 27 41 44 47 54 57 83"\n', 1)[1]
    block = block.split("```", 1)[0]
    r = run("puzzle", "check", "sz-hard-7", "15 23 27 41 44 47 54 57 83")
    assert r.exit_code == 1 and r.stdout == block


# --- what the commands print, saved and given back ---------------------------------------

@pytest.mark.parametrize("printer", [
    ["puzzle", "show", "sz-hard-7", "--solution"],
    ["puzzle", "show", "sz-hard-7", "--solution", "--json"],
    ["puzzle", "solve", "sz-hard-7"],
    ["puzzle", "solve", "sz-hard-7", "--json"],
])
def test_a_printed_solution_is_read_back_by_check(tmp_path, printer):
    """Every solution a command prints, saved to a file, is a SOLUTION for puzzle check
    and --check (puzzle show --solution printed a picture check could not read)."""
    printed = run(*printer)
    assert printed.exit_code == 0, printed.output
    saved = tmp_path / "solution.txt"
    saved.write_text(printed.stdout, encoding="utf-8")
    for checker in (["puzzle", "check", "sz-hard-7", saved], ["puzzle", "show", "sz-hard-7",
                                                            "--check", saved]):
        r = run(*checker)
        assert r.exit_code == 0, r.output
        assert r.stdout.startswith("sz-hard-7: correct")
    wrong = run("puzzle", "check", "sz-hard-8", saved)       # another puzzle: explained
    assert wrong.exit_code == 1 and "not a solution" in wrong.stdout


def test_a_daily_solution_printed_is_read_back_by_its_check(tmp_path):
    saved = tmp_path / "daily.txt"
    saved.write_text(run("puzzle", "daily", "--date", "2026-11-23", "--solution").stdout)
    r = run("puzzle", "daily", "--date", "2026-11-23", "--check", saved)
    assert r.exit_code == 0 and "correct" in r.stdout


@pytest.mark.parametrize("text, words", [
    ("puzzle_text", "shows no stars placed"),
    ("two", "more than one puzzle picture"),
    ("square", "picture is of the square-8 board, the puzzle is on stars-zone"),
    ('{"solutions": [["44"], ["45"]]}', "lists 2 solutions under 'solutions': give one"),
    ("null", "a solution in JSON is a list of points or an object with 'solution', not null"),
])
def test_a_saved_output_that_is_no_one_solution_is_one_line(tmp_path, text, words):
    from szsolver.starmaps.io import puzzle_text
    shown = run("puzzle", "show", "sz-hard-7").stdout
    with_stars = run("puzzle", "show", "sz-hard-7", "--solution").stdout
    text = {"puzzle_text": shown, "two": with_stars + with_stars,
            "square": puzzle_text(Puzzle(square(8)), 1)}.get(text, text)
    saved = tmp_path / "solution.txt"
    saved.write_text(text)
    assert words in one_line_error(run("puzzle", "check", "sz-hard-7", saved))


@pytest.mark.parametrize("printer", [["puzzle", "show", "sz-hard-7"],
                                     ["puzzle", "show", "sz-hard-7", "--json"],
                                     ["puzzle", "show", "sz-hard-7", "--solution"]])
def test_a_printed_puzzle_is_read_back_by_solve(tmp_path, printer):
    saved = tmp_path / "puzzle.txt"
    saved.write_text(run(*printer).stdout)
    r = run("puzzle", "solve", saved, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["puzzle"] == puzzle_string(P7.puzzle) and data["solutions"] == [SOL7]


@pytest.mark.parametrize("stars, words", [
    ("44 zz", "bad point 'zz'"), ("44 52 zz", "bad point 'zz'"),
    # one point in another script's digits is a point too, told the digits it takes
    ("\uff11\uff15", "bad point '\uff11\uff15': expected two digits 0-9"),
    ("\u0663\u0668 44", "bad point '\u0663\u0668': expected two digits 0-9"),
    ("no such file.txt", "no such solution file: no such file.txt")])
def test_a_solution_written_inline_names_its_bad_point(stars, words):
    """Points separated by spaces are a solution, whatever they hold: '44 zz' was taken
    for the name of a missing file."""
    r = run("puzzle", "check", "sz-hard-7", stars)
    assert r.exit_code == 2 and words in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
