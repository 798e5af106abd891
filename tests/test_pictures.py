"""Pictures from the real command line, parsed as XML: every picture has a caption
(side to move, scores and rule for a position; ID and grade for a puzzle), the heat
map's numbers sit over the grid with a legend and a heading, blocked points do not look
like neutral stones, hex labels are big enough to read, ``replay --svg DIR`` draws one
picture per turn and ``solve --svg FILE`` numbers the line of play on the board."""
import json
import os
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from szsolver.cli import main
from szsolver.formats.notation import parse_turn
from szsolver.formats.palette import (BLOCKED, BLUE_STONE, GRID, HEAT, NEUTRAL_STONE, RED_STONE,
                                      STONE_COLOURS)
from szsolver.formats.record import example_game
from szsolver.rules import reference
from szsolver.rules.base import turn_neutral, turn_stone
from szsolver.rules.geometry import STARS_ZONE
from szsolver.starmaps.generate import collection_index

NS = "{http://www.w3.org/2000/svg}"
LATE = "R./.NN..B/N.R.R../RB.RRR../BR.BN..R./B.BBN.../RBRNB../B.BNRB/BR R 1 3 basic"
SZ = STARS_ZONE


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def svg_of(path):
    root = ET.parse(path).getroot()
    assert root.tag == NS + "svg"
    return root


def caption(root):
    group = [g for g in root.iter(NS + "g") if g.get("class") == "caption"]
    assert len(group) == 1, "one caption per picture"
    return [t.text for t in group[0].iter(NS + "text")]


def at_point(x, y):
    """The point drawn at grid position (x, y) of position_svg: column x, row y."""
    return SZ.index[(round(float(y)), round(float(x)))]


def one_line_error(r):
    assert r.exit_code == 2, (r.exit_code, r.output)
    assert r.stdout == "" and len(r.stderr.splitlines()) == 1 and r.stderr.startswith("Error: ")


# --- captions ---------------------------------------------------------------------------------

def test_position_captions_say_side_scores_and_rule(tmp_path):
    svg = tmp_path / "end.svg"
    assert run("show", "--example", "--svg", svg).exit_code == 0
    score = json.loads(run("score", "--example", "--json").stdout)
    r, b = score["scores"]["red"], score["scores"]["blue"]
    lines = caption(svg_of(svg))
    assert lines[0] == f"Game over: red wins {r}-{b}; basic rule"
    assert lines[1].startswith(f"score red {r}, blue {b}; neutrals left red")
    late = tmp_path / "late.svg"
    assert run("show", LATE.replace("basic", "advanced"), "--svg", late).exit_code == 0
    pos = reference.Position(LATE.replace("basic", "advanced"))
    r, b = pos.scores()
    assert caption(svg_of(late)) == [
        f"Red to move, turn {pos.ply + 1} of 32; advanced rule",
        f"score red {r}, blue {b}; neutrals left red {pos.red_neutrals}, blue {pos.blue_neutrals}"]


@pytest.mark.parametrize("args,first,grade", [
    (["puzzle", "show", "sz-hard-7"], "sz-hard-7 (hard)", "hard"),
    (["puzzle", "show", "sza-fiendish-1", "--solution"], "sza-fiendish-1 (fiendish)", "fiendish"),
    (["puzzle", "daily", "--date", "2026-11-23"], "sz-easy-d20261123 (easy)", "easy"),
    (["puzzle", "generate", "--grade", "medium", "--seed", "3"], "sz-medium-3 (medium)", "medium"),
    (["puzzle", "solve", "sz-hard-7"], "sz-hard-7 (hard)", "hard"),
])
def test_puzzle_captions_give_id_and_grade(args, first, grade, tmp_path):
    svg = tmp_path / "p.svg"
    r = run(*args, "--svg", svg)
    assert r.exit_code == 0, r.output
    lines = caption(svg_of(svg))
    assert lines[0] == first
    rule = "advanced" if first.startswith("sza") else "basic"
    assert lines[1].startswith(f"{rule} rule; ")
    solved = "--solution" in args or args[1] == "solve"
    assert ("solution:" in lines[1]) == solved
    if not solved:
        gen = collection_index().get(first.split()[0])
        if gen is not None:
            assert f"place {16 - len(gen.puzzle.givens)} more stars" in lines[1]


def test_every_picture_has_a_caption(tmp_path):
    for args in (["starmap", "--seed", "1"], ["potential", LATE, "--side", "blue"],
                 ["solve", LATE], ["show", LATE]):
        svg = tmp_path / "x.svg"
        assert run(*args, "--svg", svg).exit_code == 0
        assert all(caption(svg_of(svg)))


# --- the potential map ------------------------------------------------------------------------

def test_heat_map_numbers_over_the_grid_with_legend_and_heading(tmp_path):
    svg = tmp_path / "heat.svg"
    r = run("potential", LATE, "--side", "red", "--svg", svg, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)["red"]
    values, top = data["map"], data["potential"]
    root = svg_of(svg)
    children = list(root)
    grid = next(i for i, e in enumerate(children) if e.tag == NS + "g" and e.get("stroke") == GRID)
    labels = [e for e in root.iter(NS + "text") if e.get("class") == "label"]
    label_group = next(i for i, e in enumerate(children) if any(t in labels for t in e))
    assert label_group > grid                     # drawn after (over) the grid lines
    # each number at its point, with the value the JSON gives, on a halo of its cell colour
    got = {SZ.coord_text(at_point(t.get("x"), t.get("y"))): int(t.text) for t in labels}
    assert got == values
    fills = {SZ.coord_text(at_point(float(e.get("x")) + 0.5, float(e.get("y")) + 0.5)): e.get("fill")
             for e in root.iter(NS + "rect") if e.get("width") == "1"}
    for t in labels:
        point = SZ.coord_text(at_point(t.get("x"), t.get("y")))
        assert t.get("stroke") == fills[point] == HEAT[min(top - values[point], len(HEAT) - 1)]
    assert children[label_group].get("paint-order") == "stroke"
    legend = next(g for g in root.iter(NS + "g") if g.get("class") == "legend")
    assert [e.get("fill") for e in legend.iter(NS + "rect")] == list(HEAT)
    assert [e.text for e in legend.iter(NS + "text")] == \
        [str(top), str(top - 1), str(top - 2), str(top - 3), f"\u2264{top - 4}"]
    heading = [e.text for e in root.iter(NS + "text") if e.get("class") == "heading"]
    assert heading == [f"Red's potential map: best {top}"]
    assert caption(root)[0] == "number: red's potential if its next stone goes there"


# --- legibility -------------------------------------------------------------------------------

def test_blocked_points_do_not_look_like_neutral_stones(tmp_path):
    gen = collection_index()["sz-hard-7"]
    svg = tmp_path / "p.svg"
    assert run("puzzle", "show", "sz-hard-7", "--svg", svg).exit_code == 0
    root = svg_of(svg)
    blocked = [g for g in root.iter(NS + "g") if g.get("class") == "blocked"]
    assert len(blocked) == bin(gen.puzzle.blocked).count("1") == 2   # 95 and the centre
    fills = {e.get("fill") for g in blocked for e in g if e.get("fill")}
    assert fills == {BLOCKED} and BLOCKED != NEUTRAL_STONE
    assert all(e.tag == NS + "rect" for g in blocked for e in g if e.get("fill"))  # squares
    assert not [e for e in root.iter() if e.get("fill") == NEUTRAL_STONE]
    stones = tmp_path / "s.svg"
    assert run("show", "--example", "--svg", stones).exit_code == 0
    neutral = [e for e in svg_of(stones).iter(NS + "circle") if e.get("fill") == NEUTRAL_STONE]
    assert len(neutral) == 1 + 4 + 3 and not [e for e in svg_of(stones).iter() if e.get("fill") == BLOCKED]


@pytest.mark.parametrize("pid", ["hex-easy-1", "sz-hard-7", "sq8-hard-1"])
def test_labels_are_legible_at_the_default_size(pid, tmp_path):
    """Every number and label is at least 11 pixels high as drawn (font size times the
    picture's scale); pattern numbers on the hex board are bold."""
    svg = tmp_path / "p.svg"
    assert run("puzzle", "show", pid, "--svg", svg).exit_code == 0
    root = svg_of(svg)
    scale = float(root.get("width")) / float(root.get("viewBox").split()[2])
    sizes = []
    for e in root.iter():
        size = e.get("font-size")
        if size is not None:
            sizes.append(float(size) * scale)
    assert sizes and min(sizes) >= 11, min(sizes)
    gen = collection_index()[pid]
    numbers = [t for t in root.iter(NS + "text") if t.get("font-weight") == "bold"]
    assert len(numbers) == len(gen.puzzle.givens)


# --- replay --svg DIR -------------------------------------------------------------------------

def test_replay_draws_one_picture_per_turn(tmp_path):
    out = tmp_path / "pictures" / "game"
    r = run("replay", "--example", "--svg", out)
    assert r.exit_code == 0, r.output
    game = example_game(reference.Position)
    names = sorted(os.listdir(out))
    assert names == [f"turn-{k:02d}.svg" for k in range(1, len(game.turns) + 1)]
    assert len(names) == 32
    for k, name in enumerate(names):
        root = svg_of(out / name)
        after = game.positions[k]
        lines = caption(root)
        assert lines[0].startswith(f"after turn {k + 1} of 32 (round {k // 2 + 1}): "
                                   f"{'red' if k % 2 == 0 else 'blue'} ")
        r_, b_ = after.scores()
        assert lines[2].startswith(f"score red {r_}, blue {b_};")
        marks = [e for e in root.iter(NS + "circle") if e.find(NS + "title") is not None]
        marked = {at_point(e.get("cx"), e.get("cy")) for e in marks}
        t = game.turns[k]
        want = {turn_stone(t)} | ({turn_neutral(t)} if turn_neutral(t) >= 0 else set())
        assert marked == want
        reds = {at_point(e.get("cx"), e.get("cy")) for e in root.iter(NS + "circle")
                if e.get("fill") == RED_STONE}
        assert reds == {p for p in range(SZ.size) if after.red >> p & 1}


def test_replay_svg_bad_input_leaves_nothing(tmp_path):
    one_line_error(run("replay", "--example", "--svg", ""))
    f = tmp_path / "file"
    f.write_text("")
    one_line_error(run("replay", "--example", "--svg", f / "sub"))
    one_line_error(run("replay", LATE, "--svg", tmp_path / "p"))   # a position has no turns
    assert not (tmp_path / "p").exists()
    # a write that fails half-way takes back the pictures already written
    out = tmp_path / "out"
    (out / "turn-05.svg").mkdir(parents=True)
    one_line_error(run("replay", "--example", "--svg", out, "--force"))
    assert os.listdir(out) == ["turn-05.svg"]


#: (a longer game, a shorter one, the naming of their pictures) in each game
REPLAYS = [("--example", "1. 44n66 64 2. 41 54", "turn-{:02d}.svg"),
           ('[Game "star"] 1. E5 swap 2. A10 C10 3. B10 D10 4. J1 pass',
            '[Game "star"] 1. E5 F5', "move-{:03d}.svg"),
           ('[Game "stargazers"] 1. 9 16,23 2. 30,31 2... 2,3',
            '[Game "stargazers"] 1. 9 16,23', "turn-{:02d}.svg")]


def _replay(source, out, *more):
    return run("replay", *(["--example"] if source == "--example" else [source]), "--svg",
               out, *more)


@pytest.mark.parametrize("longer,shorter,naming", REPLAYS)
def test_replay_svg_never_replaces_an_earlier_replay_unasked(tmp_path, longer, shorter,
                                                             naming):
    out = tmp_path / "pictures"
    assert _replay(longer, out).exit_code == 0
    before = {name: (out / name).read_bytes() for name in os.listdir(out)}
    assert len(before) > 2
    for source in (shorter, longer):            # a mixed set, or the same pictures again
        r = _replay(source, out)
        one_line_error(r)
        assert "exists (an earlier run?): pass --force" in r.stderr
        assert {name: (out / name).read_bytes() for name in os.listdir(out)} == before
    # another game's pictures, of another naming, are a replay's too
    other = tmp_path / "other"
    other.mkdir()
    (other / ("move-001.svg" if naming.startswith("turn") else "turn-01.svg")).write_text("")
    one_line_error(_replay(shorter, other))
    assert len(os.listdir(other)) == 1


@pytest.mark.parametrize("longer,shorter,naming", REPLAYS)
def test_replay_svg_force_leaves_no_older_picture_behind(tmp_path, longer, shorter, naming):
    out = tmp_path / "pictures"
    assert _replay(longer, out).exit_code == 0
    (out / "notes.txt").write_text("mine")                      # not a picture: kept
    # another game's replay picture, of the other naming: gone too
    (out / ("move-001.svg" if naming.startswith("turn") else "turn-01.svg")).write_text("")
    r = _replay(shorter, out, "--force")
    assert r.exit_code == 0, r.output
    fresh = tmp_path / "fresh"
    assert _replay(shorter, fresh).exit_code == 0
    pictures = sorted(os.listdir(fresh))
    assert pictures == [naming.format(k) for k in range(1, len(pictures) + 1)]
    assert sorted(os.listdir(out)) == sorted(pictures + ["notes.txt"])
    for name in pictures:
        assert (out / name).read_bytes() == (fresh / name).read_bytes()


def test_replay_svg_force_never_removes_its_own_input(tmp_path):
    """A game record named like an earlier replay's picture, in the --svg folder: the
    clean-up --force does would remove it; refused before anything is written."""
    out = tmp_path / "pictures"
    out.mkdir()
    record = out / "turn-09.svg"
    record.write_text("1. 44n66 64 2. 41 54\n")
    r = run("replay", record, "--svg", out, "--force")
    one_line_error(r)
    assert "--force would remove" in r.stderr and "read as the input" in r.stderr
    assert os.listdir(out) == ["turn-09.svg"]
    assert record.read_text() == "1. 44n66 64 2. 41 54\n"


def test_replay_force_needs_svg():
    one_line_error(run("replay", "--example", "--force"))


# --- solve --svg FILE -------------------------------------------------------------------------

def test_solve_draws_the_line_of_play_numbered(tmp_path):
    svg = tmp_path / "pv.svg"
    r = run("solve", LATE, "--svg", svg, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["exact"] and d["pv"][0] in d["best"]
    root = svg_of(svg)
    circles = {at_point(e.get("cx"), e.get("cy")): e.get("fill") for e in root.iter(NS + "circle")
               if e.get("class") == "numbered"}
    texts = {at_point(e.get("x"), e.get("y")): e.text for e in root.iter(NS + "text")
             if e.get("class") == "numbered"}
    want, colours = {}, {}
    side = 0  # red to move
    for k, text in enumerate(d["pv"], 1):
        t = parse_turn(text)
        want[turn_stone(t)] = str(k)
        colours[turn_stone(t)] = STONE_COLOURS[side]
        if turn_neutral(t) >= 0:
            want[turn_neutral(t)] = str(k)
            colours[turn_neutral(t)] = NEUTRAL_STONE
        side ^= 1
    assert texts == want and circles == colours
    assert texts[turn_stone(parse_turn(d["best"][0]))] == "1" or d["pv"][0] != d["best"][0]
    assert {RED_STONE, BLUE_STONE} <= set(colours.values())
    lines = caption(root)
    assert lines[0] == f"value {d['value']:+d} (Red's side, exact); best turn {d['pv'][0]}"
    assert lines[1] == "line: " + " ".join(d["pv"]) + f" (numbered 1-{len(d['pv'])})"


def test_solve_exit_codes_and_svg_errors(tmp_path):
    svg = tmp_path / "cut.svg"
    start = "../....../......./......../....N..../......../......./....../.. R 5 5 basic"
    r = run("solve", start, "--node-limit", "2000", "--svg", svg, "--json")
    assert r.exit_code == 3 and json.loads(r.stdout)["exact"] is False
    assert caption(svg_of(svg))[0].startswith("value not proved: ")
    assert "3 not proved" in " ".join(run("solve", "--help").stdout.split())
    one_line_error(run("solve", LATE, "--svg", ""))
    one_line_error(run("solve", LATE, "--svg", tmp_path / "missing" / "x.svg"))
