"""The front door (``import szsolver as sz``): positions from and to text, turns that
print as text on their own board, one error style, Game, solve, the README's Python
block, the rules' place in the architecture, and the package without its C extension."""
import ast
import json
import pathlib
import pickle
import subprocess
import sys

import pytest

import szsolver as sz
from szsolver.formats.notation import format_turn, position_json
from szsolver.formats.record import example_path, parse_game
from szsolver.rules import reference
from szsolver.rules.geometry import STARS_ZONE, square

ROOT = pathlib.Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "szsolver"
EXAMPLE_TURNS = ("44n66 64 41 54 14 28 34n24 84 96 95 46n85 65 74 76 86 87 72 82 52 51 "
                 "36 62 45n25 73n32 58 42n75 59 78n35 38 48 27 69").split()


# --- positions and turns, both back ends ------------------------------------------------------

def test_position_reads_and_prints_its_string(Position):
    p = Position(sz.START)
    assert str(p) == sz.START and p == Position() and p.red == p.blue == 0
    for t in EXAMPLE_TURNS[:9]:
        p.play(t)
    text = str(p)
    q = Position.from_string(text)
    assert q == p and q.key == p.key and str(q) == text
    assert eval(repr(p), {"Position": Position}) == p
    # the other fields of the string: side, neutrals left, rule
    assert (q.side, q.red_neutrals, q.blue_neutrals, q.rule) == (sz.BLUE, 3, 5, sz.BASIC)


def test_position_string_on_another_board(Position):
    g = square(5)
    p = Position(g, red_neutrals=1)
    p.play("11n33")
    text = str(p)
    assert text == "R..../...../..N../...../..... B 0 5 basic"
    assert Position(text, "square-5") == p == Position(text, geometry=g)
    assert eval(repr(p), {"Position": Position}) == p
    with pytest.raises(sz.ParseError, match="rows"):
        Position(text)                     # five rows are not the Stars' Zone board


def test_constructor_refuses_fields_beside_a_string(Position):
    with pytest.raises(TypeError, match="red_neutrals"):
        Position(sz.START, red_neutrals=3)
    with pytest.raises(TypeError, match="twice"):
        Position(STARS_ZONE, geometry=STARS_ZONE)


@pytest.mark.parametrize("text, error, message", [
    ("../....../......./......../....N..../......../......./....../.. R 5 5", sz.ParseError,
     "5 fields"),
    ("../....../......./......../....N..../......../......./....../.. R 5 5 blitz",
     sz.ParseError, "unknown rule"),
    ("R./....../......./......../....N..../......../......./....../.. R 5 5 basic",
     sz.InvalidPositionError, "red to move"),
    ("../....../......./......../......../......../......./....../.. R 5 5 basic",
     sz.ParseError, "row 5"),
    ("../....../......./......../....R..../......../......./....../.. B 5 5 basic",
     sz.InvalidPositionError, "centre"),
])
def test_bad_strings_raise_one_error_class(Position, text, error, message):
    with pytest.raises(error, match=message):
        Position(text)


def test_play_takes_text_or_codes_and_raises_illegal_turn_error(Position):
    p = Position()
    p.play("44n66")
    p.play(sz.encode_turn(STARS_ZONE.index[(6, 4)]))
    assert str(p) == "../....../......./...R..../....N..../..B.N.../......./....../.. R 4 5 basic"
    before = str(p)
    for turn, message in [("44", "point 44 is occupied"), ("41n66", "point 66 is occupied"),
                          (sz.encode_turn(27), "point 55 is occupied"),
                          (sz.encode_turn(60), "point 60 is off the board")]:
        with pytest.raises(sz.IllegalTurnError, match=message):
            p.play(turn)
        assert not p.is_legal(turn)
    with pytest.raises(sz.ParseError, match="bad turn"):
        p.play("4x")
    with pytest.raises(sz.ParseError, match="off the stars-zone board"):
        p.is_legal("11")
    assert str(p) == before                        # nothing was played
    empty = Position(red_neutrals=0)
    with pytest.raises(sz.IllegalTurnError, match="no neutral stones left"):
        empty.play("44n66")
    assert isinstance(sz.IllegalTurnError("x"), ValueError)


def test_legal_turns_print_as_text_and_stay_codes(Position):
    p = Position()
    p.play("44n66")
    turns = p.legal_turns()
    texts = [str(t) for t in turns]
    assert texts == [format_turn(int(t)) for t in turns]
    assert len(set(texts)) == len(texts) == 52 * 52       # 52 empty points, 4 neutrals left
    assert all(isinstance(t, sz.Turn) and type(t).geometry is STARS_ZONE for t in turns)
    assert sorted(turns) == sorted(int(t) for t in turns) and turns[0] == sz.encode_turn(0)
    for t in turns[:200:7]:                # each one is legal, and the text plays the same
        q = p.copy()
        q.play(str(t))
        r = p.copy()
        r.make(int(t))
        assert q == r
    assert json.dumps(turns[:2]) == json.dumps([int(t) for t in turns[:2]])


def test_turns_on_another_board_print_on_it(Position):
    g = square(8)
    p = Position(g)
    turns = p.legal_turns()
    assert str(turns[1]) == "11n12" and turns[1] == sz.encode_turn(0, 1)
    assert str(sz.Turn(sz.encode_turn(0, 1))) == "14n15"   # the same code on Stars' Zone
    assert type(turns[1]) is sz.Turn.on(square(8)) is sz.Turn.on(g)
    assert p.parse_turn("88n11") == sz.encode_turn(63, 0)
    with pytest.raises(sz.IllegalTurnError, match="stars-zone board"):
        p.play(sz.Turn("44"))              # a Stars' Zone turn means another point here


def test_turn_class():
    t = sz.Turn("44n66")
    assert (t.stone, t.neutral) == (STARS_ZONE.index[(4, 4)], STARS_ZONE.index[(6, 6)])
    assert sz.Turn(int(t)) == t and repr(t) == "Turn('44n66')"
    assert f"{t}|{t:>7}|{t:d}|{t:x}" == f"44n66|  44n66|{int(t)}|{int(t):x}"
    assert t + 0 == int(t) and type(t + 0) is int
    for turn in (t, sz.Turn.on(square(8))("11n88")):
        back = pickle.loads(pickle.dumps(turn))
        assert back == turn and type(back) is type(turn) and str(back) == str(turn)
    with pytest.raises(sz.IllegalTurnError):
        sz.Turn(sz.encode_turn(60))        # no point 60 on the 55-point board
    with pytest.raises(sz.IllegalTurnError):
        sz.Turn(sz.encode_turn(3, 3))
    with pytest.raises(sz.ParseError):
        sz.Turn("44n44")
    with pytest.raises(TypeError):
        sz.Turn(4.0)
    # a wrong type is bad input too: one line naming it, caught as either error
    for bad in (None, 4.0, [44]):
        with pytest.raises(sz.WrongTypeError, match="a turn is text like '44n66' or an int code"):
            sz.Position().play(bad)
        with pytest.raises(sz.ParseError):
            sz.Position().is_legal(bad)
    with pytest.raises(sz.WrongTypeError, match="a game's turns are a list of turns, not one text"):
        sz.Game(turns="44 64")
    assert [str(t) for t in sz.Game(turns="44 64".split()).turns] == ["44", "64"]


def test_positions_show_as_pictures(Position):
    svg = Position()._repr_svg_()
    assert svg.startswith("<svg") and "</svg>" in svg


# --- Game ---------------------------------------------------------------------------------

def test_game_example_load_and_positions(Position, tmp_path):
    game = sz.Game.example(backend=Position)
    assert [str(t) for t in game.turns] == EXAMPLE_TURNS
    positions = game.positions()
    assert len(positions) == len(game.turns) + 1
    # each position is the previous one with the turn played, from the start to the final
    assert positions[0] == game.start and positions[-1] == game.final
    p = Position()
    for turn, before in zip(game.turns, positions):
        assert p == before
        p.play(turn)
    assert p == game.final and game.final.scores() == (16, 14)
    positions[3].play(positions[3].legal_turns()[0])   # copies: the game is unchanged
    assert game.positions()[3] == sz.Game.example(backend=Position).positions()[3]
    # from a path, from the text, from JSON: the same game
    text = pathlib.Path(example_path()).read_text(encoding="utf-8")
    assert sz.Game.load(example_path(), backend=Position) == game
    assert sz.Game.load(text, backend=Position) == game
    assert sz.Game.load(json.dumps(game.to_json()), backend=Position).turns == game.turns
    assert str(game) == text
    assert sz.Game.example(rule="advanced", backend=Position).final.scores() == (11, 11)


def test_game_errors(Position):
    with pytest.raises(sz.IllegalTurnError, match="round 2, blue: illegal turn 44: point 44"):
        sz.Game.load("1. 44n66 64 2. 41 44", backend=Position)
    with pytest.raises(sz.ParseError, match="round 1, blue: bad turn"):
        sz.Game.load("1. 44n66 6x", backend=Position)
    with pytest.raises(sz.ParseError, match="not a game"):
        sz.Game.load(sz.START, backend=Position)
    # a dict as its text: {} and a position's JSON are no game, a game's JSON is one
    for data in ({}, position_json(Position())):
        with pytest.raises(sz.ParseError, match="not a game"):
            sz.Game.load(data, backend=Position)
        with pytest.raises(sz.ParseError):
            sz.Game.load(json.dumps(data), backend=Position)
    game = sz.Game.example(backend=Position)
    assert sz.Game.load(game.to_json(), backend=Position).turns == game.turns
    assert sz.Game.load({"turns": []}, backend=Position).turns == []
    with pytest.raises(sz.InputError, match="no such file"):
        sz.Game.load("nonexistent.szg", backend=Position)
    game = sz.Game(turns=["44", "64"], backend=Position)
    game.play("41n66")
    with pytest.raises(sz.IllegalTurnError, match="round 2, blue"):
        game.play("41")
    assert [str(t) for t in game.turns] == ["44", "64", "41n66"] and len(game) == 3


def test_record_turns_print_on_their_board():
    game = parse_game('[Board "square-5"]\n1. 11n55 12')
    assert [str(t) for t in game.turns] == ["11n55", "12"]
    assert [int(t) for t in game.turns] == [sz.encode_turn(0, 24), sz.encode_turn(1)]


# --- solve --------------------------------------------------------------------------------

def _minimax(pos) -> int:
    """Value (Red's side) by plain minimax over the reference rules: an independent check."""
    if pos.is_over():
        return pos.value()
    values = []
    for t in pos.legal_turns():
        pos.make(t)
        values.append(_minimax(pos))
        pos.unmake(t)
    return max(values) if pos.side == sz.RED else min(values)


def test_solve_gives_turns_on_the_positions_board():
    g = square(5)
    p = reference.Position(g, stones_per_side=2, red_neutrals=1, blue_neutrals=1)
    p.play("11n33")
    p.play("55")
    res = sz.solve(p, all_turns=True)
    assert res.exact and res.value == _minimax(p.copy())
    for tv in res.turns:
        q = p.copy()
        q.make(tv.turn)
        assert tv.value == _minimax(q)
    best = {str(t) for t in res.best}
    assert best == {str(tv.turn) for tv in res.turns if tv.value == res.value}
    assert all(type(t).geometry == g for t in res.best + res.pv)
    assert [str(t) for t in res.pv] == [format_turn(t, g) for t in res.pv]
    q = p.copy()
    for t in res.pv:                       # the PV plays out on this board to its value
        q.play(t)
    assert q.is_over() and q.value() == res.value


def test_solve_takes_a_position_string():
    pos = sz.Game.example().positions()[-3]
    res, same = sz.solve(str(pos)), sz.solve(pos)
    assert res.exact and (res.value, res.best, res.pv) == (same.value, same.best, same.pv)
    for t in res.pv:
        pos.play(str(t))
    assert pos.is_over() and pos.value() == res.value


# --- architecture -------------------------------------------------------------------------

def _imports(path: pathlib.Path) -> list[str]:
    """The modules a .py (parsed) or .pyx/.pxd (import lines) file imports, as written."""
    out = []
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                out.append("." * node.level + (node.module or ""))
            elif isinstance(node, ast.Import):
                out.extend(a.name for a in node.names)
    else:
        for line in path.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if words[:1] in (["from"], ["import"], ["cimport"]) and len(words) > 1:
                out.append(words[1])
    return out


def test_rules_import_nothing_above_them():
    # cli -> features (endgame, bounds, starmaps, formats, engine) -> rules: never back up.
    files = [f for f in (SRC / "rules").iterdir() if f.suffix in (".py", ".pyx", ".pxd")]
    assert len(files) >= 8
    for f in files:
        for name in _imports(f):
            if name.startswith("..") or name.startswith("szsolver"):
                top = name.lstrip(".").removeprefix("szsolver").lstrip(".").split(".")[0]
                # the ground floor: the errors and the reading of numbers and names
                assert top in ("errors", "inputs") or name.startswith("szsolver.rules"), \
                    (f.name, name)


# --- without the C extension --------------------------------------------------------------

HIDE_C = r"""
import importlib.machinery, sys

class HideCompiled:
    # Finds szsolver's compiled modules as if they were never built.
    def find_spec(self, name, path=None, target=None):
        if not name.startswith("szsolver."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and (spec.origin or "").endswith(
                tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, HideCompiled())
"""

LATE = "R./.NN..B/N.R.R../RB.RRR../BR.BN..R./B.BBN.../RBRNB../B.BNRB/BR R 1 3 basic"


def _cli(args, hide_c: bool):
    code = (HIDE_C if hide_c else "import sys\n") + (
        "from szsolver.cli.app import main\nsys.argv[0] = 'szsolver'\nmain()\n")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=600)


def test_the_package_works_on_the_reference_without_c():
    code = HIDE_C + (
        "import szsolver as sz\n"
        "p = sz.Position(sz.START); p.play('44n66')\n"
        "print(sz.HAVE_CORE, type(p).__module__, len(p.legal_turns()), sz.Game.example().final.scores())\n"
        "try:\n    sz.solve(p)\nexcept sz.UnsupportedError as e:\n    print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "False szsolver.rules.reference 2704 (16, 14)",
        "the endgame solver needs the compiled extension: pip install . (needs a C compiler)"]


@pytest.mark.parametrize("args", [
    ["show", "--example"],
    ["score", "--example", "--rule", "advanced", "--json"],
    ["replay", "--example"],
    ["show", LATE],
    ["potential", LATE],
    ["puzzle", "show", "sz-hard-7"],
])
def test_commands_without_c_give_the_same_output(args):
    with_c, without_c = _cli(args, hide_c=False), _cli(args, hide_c=True)
    assert with_c.returncode == 0, with_c.stderr
    assert (without_c.returncode, without_c.stdout, without_c.stderr) == (
        0, with_c.stdout, with_c.stderr)


@pytest.mark.parametrize("args, what", [
    (["solve", LATE], "the endgame solver"),
    (["starmap", "--seed", "1"], "the complete starmap search"),
    (["check", LATE, "15"], "a core position"),          # rules.backends.to_core
])
def test_commands_needing_c_say_so_in_one_line(args, what):
    r = _cli(args, hide_c=True)
    assert r.returncode == 2
    assert r.stderr.splitlines() == [
        f"Error: {what} needs the compiled extension: pip install . (needs a C compiler)"]


def test_every_analysis_result_hands_out_turns_that_print_as_turn_text():
    """The solver's, the engine's and check's turns are Turns of the position's board:
    str() gives the turn text the commands print, never the internal code."""
    from szsolver.analysis.check import check
    from szsolver.endgame.solver import solve
    from szsolver.engine.search import Engine
    game = sz.Game.example()
    late = game.positions()[27]
    for threads in (1, 2):
        r = solve(late, all_turns=True, threads=threads)
        data = r.to_json(late.geometry)
        assert [str(t) for t in r.pv] == data["pv"] and [str(t) for t in r.best] == data["best"]
        assert all(isinstance(t, sz.Turn) for t in r.pv + r.best + [tv.turn for tv in r.turns])
    for pos in (game.positions()[29], game.positions()[10]):
        e = Engine(0.05).analyse(pos)
        data = e.to_json(pos.geometry)
        assert str(e.turn) == data["turn"] and [str(t) for t in e.pv] == data["pv"]
        assert [str(c["turn"]) for c in e.candidates] == [c["turn"] for c in data["candidates"]]
    c = check(game.positions()[29], "48")
    assert str(c.turn) == "48" == c.to_json()["played"]
    assert [str(t) for t in c.best] == c.to_json()["best"]


def test_entry_points_take_what_a_user_has_and_name_what_they_cannot(tmp_path):
    """Game.load reads a pathlib.Path and to_json's dict; the analysis entry points read
    a position string too; anything else is a one-line ParseError, not an
    AttributeError from inside."""
    import pathlib
    from szsolver.analysis.check import check
    from szsolver.bounds.potential import potential
    example = sz.Game.example()
    path = tmp_path / "game.szg"
    path.write_text(str(example), encoding="utf-8")
    assert sz.Game.load(pathlib.Path(path)) == example == sz.Game.load(example.to_json())
    with pytest.raises(sz.errors.InputError, match="no such game file"):
        sz.Game.load(tmp_path / "none.szg")
    for bad in (b"1. 44 64", None, 3):
        with pytest.raises(sz.errors.ParseError, match="a game is a path"):
            sz.Game.load(bad)
    late = example.positions()[-5]
    assert check(str(late), "38").verdict == check(late, "38").verdict
    assert potential(str(late), sz.RED).potential == potential(late, sz.RED).potential
    for bad, words in ((example, "not Game .a game's position: game.final"), (None, "not NoneType")):
        with pytest.raises(sz.errors.ParseError, match=words):
            sz.solve(bad)
    with pytest.raises(sz.errors.ParseError, match="a turn is text"):
        check(late, None)
    with pytest.raises(sz.errors.InputError, match="node limit"):
        check(late, "38", node_limit=2 ** 63)
    for code in (10 ** 9, 64, -1):
        with pytest.raises(sz.errors.IllegalTurnError, match="is not a turn code"):
            sz.format_turn(code)
    p8 = sz.Position(geometry="square-8")
    t = p8.legal_turns()[5]
    assert sz.format_turn(t) == str(t)          # a Turn prints on its own board


def test_the_record_functions_take_the_front_doors_game():
    """The README sends a user from sz.Game to formats.record.game_string and game_json:
    they take it (it said 'Game' object has no attribute 'side_of')."""
    from szsolver.formats.record import game_json, game_string
    game = sz.Game.example()
    with open(example_path(), encoding="utf-8") as f:
        assert game_string(game) == str(game) == f.read()
    assert game_json(game) == game.to_json()
    with pytest.raises(sz.errors.ParseError, match="not a game: str"):
        game_string("1. 44n66")


def test_a_back_end_and_a_board_by_name():
    from szsolver.rules import reference
    assert isinstance(sz.Game.example(backend="reference").final, reference.Position)
    with pytest.raises(sz.errors.ParseError, match="unknown back end 'fast'"):
        sz.Game.example(backend="fast")
    with pytest.raises(sz.errors.ParseError, match="a board name is text"):
        sz.by_name(None)


def test_a_games_tags_are_read_only():
    """The game was replayed and checked under its tags: changing one in place would
    leave the positions out of step, so the view is read-only and a new Game replays."""
    game = sz.Game.example()
    with pytest.raises(TypeError):
        game.tags["Rule"] = "advanced"
    other = sz.Game({**game.tags, "Rule": "advanced"}, game.turns)
    assert other.final.scores() == (11, 11) and game.final.scores() == (16, 14)


def test_a_bad_limit_is_the_same_error_everywhere():
    """A limit that is not a finite number above 0 is an UnsupportedError (a ValueError)
    in every entry point, as errors.py says."""
    from szsolver.analysis.annotate import annotate
    from szsolver.analysis.check import check
    from szsolver.bounds.potential import potential
    from szsolver.engine.search import Engine
    game = sz.Game.example()
    late = game.positions()[-3]
    calls = [lambda v: sz.solve(late, time_limit=v), lambda v: check(late, "38", time_limit=v),
             lambda v: potential(late, sz.RED, time_limit=v), lambda v: Engine(v),
             lambda v: annotate(game.record, time_per_turn=v)]
    for call in calls:
        for bad in (float("nan"), float("inf"), -1.0, 0):
            with pytest.raises(sz.errors.UnsupportedError):
                call(bad)
