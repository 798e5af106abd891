"""Puzzle formats (JSON, one-line string, text, SVG) and the puzzle/starmap CLI."""
import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from szsolver.cli import main
from szsolver.errors import InvalidPuzzleError, ParseError
from szsolver.rules.geometry import STARS_ZONE, by_name, hex_starmap, square
from szsolver.starmaps.io import (
    parse_puzzle_string,
    puzzle_and_solution_from_json,
    puzzle_from_json,
    puzzle_from_text,
    puzzle_string,
    puzzle_svg,
    puzzle_text,
    puzzle_to_json,
    stars_to_points,
)
from szsolver.formats.palette import BLOCKED, NEUTRAL_STONE
from szsolver.rules.base import ADVANCED, BASIC
from szsolver.starmaps.model import Puzzle, star_patterns
from szsolver.starmaps.complete import complete_starmap


def sample_puzzles():
    out = []
    for board in ["stars-zone", "square-8", "square-12", "hex"]:
        g = by_name(board)
        for rule in (BASIC, ADVANCED):
            stars = complete_starmap(g, "io")
            blocked = g.fixed_neutral_mask
            empty = [p for p in range(g.size) if not (stars | blocked) >> p & 1]
            for p in empty[::7][:5]:
                blocked |= 1 << p
            if rule == ADVANCED:      # blocked points cut beams: a starmap of its own
                stars = complete_starmap(g, "io", rule=ADVANCED, blocked=blocked)
            pats = sorted(star_patterns(g, stars, blocked, rule).items())
            givens = tuple(pats[:: 3])
            out.append((Puzzle(g, blocked=blocked, givens=givens, rule=rule), stars))
    out.append((Puzzle(square(1)), None))
    return out


SAMPLES = sample_puzzles()


@pytest.mark.parametrize("k", range(len(SAMPLES)))
def test_round_trips(k):
    p, stars = SAMPLES[k]
    d = puzzle_to_json(p, stars)
    assert puzzle_from_json(d) == p
    assert puzzle_from_json(json.dumps(d)) == p
    assert puzzle_and_solution_from_json(json.loads(json.dumps(d))) == (p, stars)
    assert parse_puzzle_string(puzzle_string(p)) == p
    text = puzzle_text(p)
    assert puzzle_from_text(text) == p
    if stars is not None:
        assert puzzle_from_text(puzzle_text(p, stars)) == p
        assert "*" in puzzle_text(p, stars)


def test_text_shows_true_shape_and_legend():
    g = STARS_ZONE
    p = Puzzle(g, blocked=g.fixed_neutral_mask, givens=((g.index[(4, 4)], 5),))
    t = puzzle_text(p)
    assert "up 1, right 2, down 4, left 8" in t
    rows = [ln for ln in t.splitlines() if ln[:1].isdigit()]
    assert len(rows) == 9
    assert rows[0].split() == ["1", ".", "."]          # row 1: columns 4-5 only
    assert rows[4].split()[5] == "#"                   # the centre (5,5) is blocked
    assert rows[3].split()[4] == "5"                   # the given on (4,4)


def test_hex_text_is_hexagonal():
    g = hex_starmap()
    t = puzzle_text(Puzzle(g))
    rows = [ln for ln in t.splitlines() if ln[:2].strip().isdigit()]
    assert len(rows) == 32
    assert [ln.count(".") for ln in rows[:2]] == [17, 18]
    assert rows[15].count(".") == 32 and rows[31].count(".") == 16


@pytest.mark.parametrize("k", [0, 1, 6, 7])
def test_svg_palette(k):
    p, stars = SAMPLES[k]
    for sol in (None, stars):
        svg = puzzle_svg(p, sol)
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg")
        for colour in ("#00007f", "#ffff00", "#ff3838", BLOCKED):
            assert colour in svg
        assert NEUTRAL_STONE not in svg  # a blocked point is not drawn as a neutral stone
        assert ("#00bfff" in svg) == (sol is not None)
    if p.geometry.cell == "hex":
        assert "<polygon" in puzzle_svg(p)


BAD_JSON = [
    "{", "[]", '{"board": "nowhere"}', '{"board": "stars-zone", "rule": "strange"}',
    '{"board": "stars-zone", "givens": [{"point": "55", "pattern": 3}]}',   # on the centre
    '{"board": "stars-zone", "givens": [{"point": "11", "pattern": 3}]}',   # off the board
    '{"board": "stars-zone", "givens": [{"point": "44", "pattern": 16}]}',
    '{"board": "stars-zone", "givens": [{"point": "44", "pattern": 3}, {"point": "45", "pattern": 3}]}',
    '{"board": "stars-zone", "givens": [{"point": "44", "pattern": 3, "beams": ["up"]}]}',
    '{"board": "stars-zone", "givens": [{"point": "44"}]}',
    '{"board": "stars-zone", "givens": [{"point": "44", "pattern": "3"}]}',
    '{"board": "stars-zone", "blocked": "44"}',
    '{"board": "stars-zone", "format": "something-else"}',
    '{"board": "stars-zone", "stars": 15}',
]


@pytest.mark.parametrize("text", BAD_JSON)
def test_bad_json_is_a_value_error(text):
    with pytest.raises(ValueError):
        puzzle_from_json(text)


@pytest.mark.parametrize("text", ["stars-zone;basic;x=;g=44", "hex;basic", "stars-zone;basic;x=99;g=",
                                  "stars-zone;odd;x=;g=", "square-8;basic;x=;g=11:g"])
def test_bad_strings(text):
    with pytest.raises(ValueError):
        parse_puzzle_string(text)


def test_bad_text():
    with pytest.raises(ValueError):
        puzzle_from_text("hello\nworld\n")


def _edit_row(text: str, label: str, edit) -> str:
    """``text`` with the row labelled ``label`` replaced by ``edit(row line)``."""
    return "\n".join(edit(ln) if ln.split(" ", 1)[0] == label else ln
                     for ln in text.splitlines())


@pytest.mark.parametrize("board", ["square-8", "stars-zone", "square-12"])
def test_a_text_that_lost_or_gained_cells_is_refused(board):
    """A puzzle text is read only if every row shows exactly its points: a row cut
    short (it lost a given, or an empty point), text past a row's end or between
    its points, a row twice, a row the board does not have. Before, each of these
    read as some other puzzle, silently."""
    from szsolver.starmaps.generate import generate
    p = generate(board, "easy", f"text-strictness-{board}").puzzle
    text = puzzle_text(p)
    last = str(max(r for r, _ in p.geometry.coords))
    row = next(ln for ln in text.splitlines() if ln.split(" ", 1)[0] == last)
    cases = {
        "a point shows nothing": _edit_row(text, last, lambda ln: ln.rstrip()[:-2]),
        "is not on a point": _edit_row(text, last, lambda ln: ln.rstrip() + " zz"),
        "appears twice": text.replace(row, row + "\n" + row),
        "is not on the": text.rstrip("\n") + "\n" + str(int(last) + 1) + " " + row[len(last) + 1:],
    }
    for words, bad in cases.items():
        with pytest.raises(ParseError, match=words):
            puzzle_from_text(bad)
    assert puzzle_from_text(text) == p


# --- CLI ----------------------------------------------------------------------------------

@pytest.fixture
def unique_puzzle(tmp_path):
    g = STARS_ZONE
    stars = complete_starmap(g, 5)
    pats = star_patterns(g, stars, g.fixed_neutral_mask)
    p = Puzzle(g, blocked=g.fixed_neutral_mask, givens=tuple(pats.items()))
    f = tmp_path / "p.json"
    f.write_text(json.dumps(puzzle_to_json(p)))
    return f, p, stars


def test_cli_solve_and_check(unique_puzzle, tmp_path):
    f, p, stars = unique_puzzle
    r = CliRunner().invoke(main, ["puzzle", "solve", str(f), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["status"] == "unique" and d["proved"]
    assert d["solutions"] == [stars_to_points(p.geometry, stars)]
    good = " ".join(stars_to_points(p.geometry, stars))
    r = CliRunner().invoke(main, ["puzzle", "check", str(f), good])
    assert r.exit_code == 0 and r.output.startswith("correct")
    wrong = " ".join(stars_to_points(p.geometry, stars)[:-1] + ["45" if "45" not in good else "46"])
    r = CliRunner().invoke(main, ["puzzle", "check", str(f), wrong])
    assert r.exit_code == 1 and "not a solution" in r.output
    svg = tmp_path / "s.svg"
    r = CliRunner().invoke(main, ["puzzle", "solve", puzzle_string(p), "--svg", str(svg)])
    assert r.exit_code == 0 and "unique" in r.output
    ET.parse(svg)


def test_cli_solve_reports_multiple_and_none(tmp_path):
    f = tmp_path / "empty.txt"
    f.write_text(puzzle_string(Puzzle(STARS_ZONE, blocked=STARS_ZONE.fixed_neutral_mask)))
    r = CliRunner().invoke(main, ["puzzle", "solve", str(f)])
    assert r.exit_code == 10 and r.output.startswith("multiple")
    r = CliRunner().invoke(main, ["puzzle", "solve", "square-7;basic;x=;g=", "--json"])
    assert r.exit_code == 11 and json.loads(r.output)["status"] == "none"


@pytest.mark.parametrize("args", [
    ["puzzle", "solve", "no-such-file.json"],
    ["puzzle", "solve", "stars-zone;basic;x=;g=44:z"],
    ["puzzle", "check", "stars-zone;basic;x=;g=", "44 x9"],
    ["starmap", "--board", "octagon"],
])
def test_cli_bad_input_exit_2(args, tmp_path):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    assert r.output.startswith("Error: ") and r.output.count("\n") == 1


def test_cli_broken_file_exit_2(tmp_path):
    f = tmp_path / "broken.json"
    f.write_text('{"board": "stars-zone", "givens": [')
    r = CliRunner().invoke(main, ["puzzle", "solve", str(f)])
    assert r.exit_code == 2 and "malformed JSON" in r.output


@pytest.mark.parametrize("board", ["stars-zone", "square-8", "hex"])
def test_cli_starmap(board, tmp_path):
    svg = tmp_path / "m.svg"
    r = CliRunner().invoke(main, ["starmap", "--board", board, "--seed", "3", "--json", "--svg", str(svg)])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    p, stars = puzzle_and_solution_from_json(d)
    assert sorted(star_patterns(p.geometry, stars, p.blocked, p.rule).values()) == \
        list(range(p.geometry.n_patterns))
    ET.parse(svg)
    r2 = CliRunner().invoke(main, ["starmap", "--board", board, "--seed", "3"])
    assert r2.exit_code == 0 and "verified" in r2.output


def test_cli_starmap_good_form_advanced():
    r = CliRunner().invoke(main, ["starmap", "--good-form", "--rule", "advanced", "--json"])
    assert r.exit_code == 0
    d = json.loads(r.output)
    assert d["good_form"] and d["rule"] == "advanced"


def test_a_recorded_solution_that_is_not_one_is_refused(tmp_path):
    """A puzzle file's recorded solution is shown and trusted (``puzzle show
    --solution`` of the collection), so one that is not a solution of the puzzle is
    a broken file: one line, exit code 2, never a wrong solution passed on."""
    p, stars = SAMPLES[0]
    d = puzzle_to_json(p, stars)
    assert puzzle_and_solution_from_json(d) == (p, stars)
    short = dict(d, solution=d["solution"][:5])
    free = next(q for q in range(p.geometry.size) if not (stars | p.blocked) >> q & 1)
    last = stars.bit_length() - 1
    moved = dict(d, solution=puzzle_to_json(p, stars ^ (1 << last) | (1 << free))["solution"])
    for bad, words in ((short, "5 stars, a complete starmap needs 16"), (moved, "")):
        with pytest.raises(InvalidPuzzleError, match="the recorded 'solution' is not a "
                                                     "solution: " + words):
            puzzle_and_solution_from_json(bad)
    path = tmp_path / "short.json"
    path.write_text(json.dumps(short), encoding="utf-8")
    r = CliRunner().invoke(main, ["puzzle", "solve", str(path)])
    assert r.exit_code == 2 and r.output.count("\n") == 1
    assert r.output.startswith("Error: the recorded 'solution' is not a solution")
