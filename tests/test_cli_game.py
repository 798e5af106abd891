"""szsolver show / score / replay through click's CliRunner."""
import json
import re
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from szsolver.cli import main
from szsolver.formats.notation import START, parse_position, position_string
from szsolver.formats.record import example_path

# The board from rules.md's table, written out again so the checks below do not
# lean on szsolver.rules.geometry.
COLUMNS = {1: (4, 5), 2: (3, 8), 3: (2, 8), 4: (1, 8), 5: (1, 9), 6: (2, 9), 7: (2, 8),
           8: (2, 7), 9: (5, 6)}
ON_BOARD = {(r, c) for r, (a, b) in COLUMNS.items() for c in range(a, b + 1)}
STEPS = [(-1, 0), (0, 1), (1, 0), (0, -1)]  # up, right, down, left = pattern bits 0..3


def oracle_patterns(position_text):
    """Per side {(r, c): pattern} straight from the rules text, from the position string."""
    board, _side, _rl, _bl, rule = position_text.split()
    cells = {}
    for r, row in enumerate(board.split("/"), start=1):
        for c, ch in zip(range(COLUMNS[r][0], COLUMNS[r][1] + 1), row):
            cells[(r, c)] = ch
    out = {"R": {}, "B": {}}
    for (r, c), ch in cells.items():
        if ch not in "RB":
            continue
        pat = 0
        for bit, (dr, dc) in enumerate(STEPS):
            k = 1
            while 1 <= r + k * dr <= 9 and 1 <= c + k * dc <= 9:
                q = cells.get((r + k * dr, c + k * dc))
                if q == ch:
                    pat |= 1 << bit
                    break
                if q == "N" and rule == "advanced":
                    break
                k += 1
        out[ch][(r, c)] = pat
    return out


@pytest.fixture
def run(Position, monkeypatch):
    """Invoke the CLI with each back end in turn as the default."""
    from szsolver.rules import backends
    monkeypatch.setattr(backends, "_default", Position)
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, list(args), catch_exceptions=False)
    return invoke


def as_json(result):
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# --- the rulebook example ------------------------------------------------------------------

def test_replay_example_basic_16_14_red_wins(run):
    data = as_json(run("replay", "--example", "--json"))
    assert data["scores"] == {"red": 16, "blue": 14}
    assert data["winner"] == "red" and data["over"] is True
    assert data["neutrals_used"] == {"red": 4, "blue": 3}
    assert data["warnings"] == []
    assert len(data["turns"]) == 32 and data["turns"][0]["turn"] == "44n66"
    assert data["turns"][-1] == {**data["turns"][-1], "round": 16, "side": "blue", "turn": "69"}


def test_replay_example_advanced_11_11_blue_wins_on_neutrals(run):
    data = as_json(run("replay", "--example", "--rule", "advanced", "--json"))
    assert data["scores"] == {"red": 11, "blue": 11}
    assert data["winner"] == "blue"
    assert data["neutrals_used"] == {"red": 4, "blue": 3}
    assert data["rule"] == "advanced" and data["game"]["tags"]["Rule"] == "advanced"


def test_replay_running_scores_match_the_rules_text(run):
    data = as_json(run("replay", example_path(), "--json"))
    for entry in data["turns"]:
        pats = oracle_patterns(entry["position"])
        assert entry["scores"] == {"red": len(set(pats["R"].values())),
                                   "blue": len(set(pats["B"].values()))}


def test_replay_text_shows_turns_scores_and_result(run):
    r = run("replay", "--example")
    assert r.exit_code == 0
    assert "Red: MY Tian" in r.stdout
    assert "    1  red   44n66" in r.stdout
    assert "Result: red wins 16-14." in r.stdout
    assert "Neutrals used: red 4, blue 3." in r.stdout
    final = run("replay", "--example", "--final").stdout
    assert "44n66" not in final and "Result: red wins 16-14." in final
    adv = run("replay", "--example", "--rule", "advanced").stdout
    assert "Result: blue wins on neutrals: 11-11, neutrals left 1-2." in adv


@pytest.mark.parametrize("rule", ["basic", "advanced"])
def test_score_json_matches_the_rules_text(run, rule):
    data = as_json(run("score", "--example", "--rule", rule, "--json"))
    pats = oracle_patterns(data["position"])
    for side, letter in (("red", "R"), ("blue", "B")):
        got = {(s["row"], s["col"]): s["pattern"] for s in data[side]["stones"]}
        assert got == pats[letter]
        assert [p["pattern"] for p in data[side]["patterns"]] == sorted(set(pats[letter].values()))
        assert data[side]["score"] == len(set(pats[letter].values()))
        for s in data[side]["stones"]:  # the name spells the bits: U R D L or '.'
            assert s["name"] == "".join("URDL"[i] if s["pattern"] >> i & 1 else "."
                                        for i in range(4))
            assert s["point"] == f"{s['row']}{s['col']}"
    expected = (16, 14) if rule == "basic" else (11, 11)
    assert (data["red"]["score"], data["blue"]["score"]) == expected


def test_score_text(run):
    out = run("score", "--example").stdout
    assert out.splitlines()[0] == "Rule: basic."
    assert any(line.startswith("Red 16: ") for line in out.splitlines())
    assert "     44 URDL" in out.splitlines()


def test_show_refuses_beams_without_a_picture_to_draw_them_on(run):
    r = run("show", START, "--beams")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == "Error: --beams draws the beams in the SVG picture: give --svg FILE too\n"


def test_show_position_string_and_svg(run, tmp_path):
    svg = tmp_path / "p.svg"
    r = run("show", START, "--svg", str(svg), "--beams")
    assert r.exit_code == 0
    assert "  5  . . . . N . . . ." in r.stdout.splitlines()
    assert "Red to move, round 1" in r.stdout
    assert ET.parse(svg).getroot().tag.endswith("svg")
    data = as_json(run("show", "--example", "--json"))
    assert data["last_turn"] == "69" and data["scores"] == {"red": 16, "blue": 14}
    assert data["position"]["position"] == position_string(
        parse_position(data["position"]["position"]))


def test_show_reads_position_and_json_files(run, tmp_path):
    f = tmp_path / "pos.txt"
    f.write_text(START + "\n")
    assert run("show", str(f), "--json").exit_code == 0
    js = tmp_path / "pos.json"
    js.write_text(run("show", START, "--json").stdout)
    # show --json wraps the position; its 'position' member is a position JSON
    js.write_text(json.dumps(json.loads(js.read_text())["position"]))
    assert as_json(run("score", str(js), "--json"))["position"] == START


def test_result_tag_disagreement_is_a_warning_not_silence(run, tmp_path):
    f = tmp_path / "g.szg"
    f.write_text(open(example_path()).read().replace("16-14", "14-16"))
    r = run("replay", str(f))
    assert r.exit_code == 0
    assert "Warning: Result tag says 14-16 but the replay scores 16-14" in r.stderr
    assert as_json(run("replay", str(f), "--json"))["warnings"]
    # every command's JSON carries the warnings of the record it read
    want = ["Result tag says 14-16 but the replay scores 16-14 under the basic rule"]
    for args in (["show"], ["score"], ["solve"], ["potential"], ["check", "--turn", "32"]):
        r = run(*args[:1], str(f), *args[1:], "--json")
        assert r.exit_code == 0, (args, r.output)
        assert as_json(r)["warnings"] == want, args
    assert "warnings" not in as_json(run("score", START, "--json"))     # no record read


# --- bad input: exit code 2 and one line 'Error: ...' --------------------------------------

def rows(*changes):
    """START's rows with some rows replaced: changes are (row number, text)."""
    board = START.split()[0].split("/")
    for r, text in changes:
        board[r - 1] = text
    return "/".join(board)


SEVENTEEN_RED = rows((3, "R......"), (4, "RRRRRRRR"), (5, "RRRRNRRRR"), (6, "BBBBBBBB"),
                     (7, "BBBBBBB"), (8, "B....."))
EXAMPLE = open(example_path(), encoding="utf-8").read()

BAD = {
    "wrong row length": (rows((2, ".....")) + " R 5 5 basic", "row 2 has 5 points, expected 6"),
    "unknown character": (rows((3, "..X....")) + " R 5 5 basic", "unknown character 'X' in row 3"),
    "stone on the centre": (rows((5, "....R....")) + " B 5 5 basic", "a stone on the centre"),
    "more than 16 stones": (SEVENTEEN_RED + " B 5 5 basic", "17 red stones"),
    "counts vs side": (rows((4, "...R....")) + " R 5 5 basic", "do not fit red to move"),
    "too many neutrals": (rows((4, "...N....")) + " R 5 5 basic", "1 neutral stone placed,"),
    "occupied point": ("1. 44 64 2. 41 44", "round 2, blue: illegal turn 44: point 44 is occupied"),
    "off-board point": ("1. 44 64 2. 19", "round 2, red: bad turn '19'"),
    "no neutral left": ('[Neutrals "0 5"] 1. 44n66', "red has no neutral stones left"),
    "after the end": (EXAMPLE + "17. 15", "round 17, red: a turn after the game ended"),
    "malformed record": ('[Rule basic] 1. 44', "malformed tag on line 1"),
    "malformed JSON": ('{"red": [', "malformed JSON"),
    "missing file": ("no-such-game.szg", "no such file: no-such-game.szg"),
    "bad rule in record": ('[Rule "sideways"] 1. 44', "unknown rule 'sideways'"),
}


@pytest.mark.parametrize("command", ["show", "score", "replay"])
@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_exit_2_one_line(run, command, case):
    source, message = BAD[case]
    r = run(command, source)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    assert message in lines[0]
    assert "Traceback" not in r.output


def test_bad_input_from_a_file_too(run, tmp_path):
    f = tmp_path / "bad.szg"
    f.write_text(EXAMPLE.replace("2. 41 54", "2. 41 44"))
    r = run("replay", str(f))
    assert r.exit_code == 2
    assert r.stderr.strip() == "Error: round 2, blue: illegal turn 44: point 44 is occupied"


def test_source_and_example_together_or_neither(run):
    for args in (("show",), ("score", START, "--example")):
        r = run(*args)
        assert r.exit_code == 2 and r.stderr.startswith("Error: ")


def test_cli_loads_with_the_back_end_under_test(run, Position):
    from szsolver.cli.common import load_position
    pos, game = load_position(example_path())
    assert isinstance(pos, Position) and isinstance(game.start, Position)


# --- SOURCE: standard input, byte-order marks, JSON read back, quoting --------------------

def test_dash_reads_standard_input(run):
    for text in (START, EXAMPLE, run("show", "--example", "--json").stdout):
        r = CliRunner().invoke(main, ["score", "-", "--json"], input=text.encode("utf-8"))
        assert r.exit_code == 0, r.output
        from_file = json.loads(CliRunner().invoke(main, ["score", "--json", "-"],
                                                  input=text).stdout)
        assert json.loads(r.stdout) == from_file
    data = as_json(CliRunner().invoke(main, ["replay", "-", "--json"], input=EXAMPLE))
    assert data["scores"] == {"red": 16, "blue": 14} and len(data["turns"]) == 32


def test_a_byte_order_mark_is_accepted(run, tmp_path):
    for name, text in (("g.szg", EXAMPLE), ("p.txt", START + "\n"),
                       ("p.json", json.dumps({"position": START}))):
        f = tmp_path / name
        f.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
        plain = tmp_path / ("plain-" + name)
        plain.write_text(text, encoding="utf-8")
        r = run("show", str(f), "--json")
        assert r.exit_code == 0, r.output
        assert r.stdout == run("show", str(plain), "--json").stdout
    r = CliRunner().invoke(main, ["show", "-"], input=b"\xef\xbb\xbf" + START.encode())
    assert r.exit_code == 0 and "Red to move, round 1" in r.stdout


def test_a_json_list_is_not_a_game_record(run):
    for text in ("[1, 2]", "[]", '[{"type": "game"}]', ' [ "44" ]'):
        r = run("show", text)
        assert r.exit_code == 2
        assert r.stderr.strip() in ("Error: JSON input must be an object (a position or a "
                                    "game), not a list",)
    assert run("show", '[Rule "basic"] 1. 44').exit_code == 0      # a record's tag still is


def test_deeply_nested_json_is_one_line(run, tmp_path):
    for text in ("[" * 100000, '{"a": ' * 50000 + "1" + "}" * 50000,
                 '{"type": "game", "tags": ' + "[" * 100000):
        f = tmp_path / "deep.json"
        f.write_text(text)
        for source in (str(f), text[:200000]):
            r = run("show", source)
            assert r.exit_code == 2, r.output
            assert r.stderr.count("\n") == 1 and "nested too deeply" in r.stderr or \
                "malformed JSON" in r.stderr, r.stderr


def test_an_unquoted_position_string_gets_a_hint(run):
    r = run("show", *START.split())
    assert r.exit_code == 2
    line = r.stderr.strip()
    assert "\n" not in line and "unexpected extra arguments (R 5 5 basic)" in line
    assert f'quote it: main show "{START}"' in line
    r = run("score", "a", "b")                      # not a position: no hint
    assert r.exit_code == 2 and "quote" not in r.stderr


@pytest.mark.parametrize("source", [START, "--example", SETUP_GAME := (
    '[Position "R./.NN..B/N.R.R../RB.RRR../BR.BN..R./B.BBN.../RBRNB../B.BNRB/BR R 1 3 basic"]'
    "\n\n14. 35 57")])
def test_the_json_show_and_replay_print_reads_back(run, source):
    """Round trip: the output of show --json and replay --json, given back as SOURCE,
    is the same position (and the same game)."""
    args = ["--example"] if source == "--example" else [source]
    show = run("show", *args, "--json").stdout
    replay = run("replay", *args, "--json").stdout
    for printed in (show, replay):
        again = run("show", printed, "--json")
        assert again.exit_code == 0, again.output
        assert json.loads(again.stdout)["position"] == json.loads(show)["position"]
    replay_again = as_json(run("replay", replay, "--json"))
    assert replay_again == json.loads(replay)     # the game itself came back, tags and all


@pytest.mark.parametrize("args", [
    ["score", "--example"], ["solve", "--example"], ["best", "--example", "--time", "0.05"],
    ["check", "--example", "--turn", "30"]])
def test_the_answers_json_reads_back_as_its_position(args):
    """An answer saved with --json names its position: given back as SOURCE it is read
    as that position (it said 'position JSON: unknown key ...')."""
    printed = CliRunner().invoke(main, args + ["--json"])
    assert printed.exit_code == 0, printed.output
    position = json.loads(printed.stdout)["position"]
    for command in ("show", "score"):
        again = CliRunner().invoke(main, [command, printed.stdout, "--json"])
        assert again.exit_code == 0, again.output
        got = json.loads(again.stdout)["position"]     # show --json: the position's JSON
        assert (got["position"] if isinstance(got, dict) else got) == position
    # a position's own JSON still refuses a key it does not have
    r = CliRunner().invoke(main, ["show", json.dumps({"position": position, "sied": "blue"})])
    assert r.exit_code == 2 and "unknown key 'sied'" in r.stderr


SQUARE_8_GAME = '[Board "square-8"] 1. 11n88 64'


@pytest.mark.parametrize("args", [
    ["score"], ["solve", "--node-limit", "2000"], ["best", "--time", "0.05"],
    ["check", "--turn", "2", "--time-limit", "0.2"]])
def test_the_answers_json_reads_back_on_its_own_board(args):
    """An answer about a position on another board names that board beside the position
    string: given back as SOURCE it is the same position on the same board (it was read
    on the Stars' Zone board: 'position string has 8 rows, the stars-zone board has 9')."""
    printed = CliRunner().invoke(main, [args[0], SQUARE_8_GAME, *args[1:], "--json"])
    assert printed.exit_code in (0, 3), printed.output      # 3: solve's node limit
    answer = json.loads(printed.stdout)
    assert answer["board"] == "square-8"
    again = CliRunner().invoke(main, ["show", printed.stdout, "--json"])
    assert again.exit_code == 0, again.output
    got = json.loads(again.stdout)["position"]
    assert (got["board"], got["position"]) == ("square-8", answer["position"])


@pytest.mark.parametrize("args", [
    ["best", '[Board "square-6"] 1. 11', "--time", "0.2"],
    ["check", '[Board "square-6"] 1. 11', "22", "--time-limit", "1"],
    ["annotate", '[Board "square-3"] 1. 11 12 2. 13 21', "--time-per-turn", "0.05"]])
def test_a_board_too_small_for_the_game_is_refused_by_the_searches(args):
    """On square-6, 36 points, some line of play leaves a stone no point (32 stones and
    10 neutrals): the engine refuses it as the solver does, in one line (its playouts
    once found no point and the process died of a floating-point exception)."""
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    assert r.stderr.count("\n") == 1 and "may not hold" in r.stderr
    assert ("on the square-6 board" if "square-6" in args[1] else "square-3") in r.stderr


def test_annotate_and_replay_name_the_board_of_each_position():
    """The positions annotate --json and replay --json list, one a turn, name their board
    as the answers do: each read back as SOURCE is on that board."""
    from szsolver.analysis.annotate import annotate
    from szsolver.formats.record import load_text, parse_game
    ann = annotate(parse_game(SQUARE_8_GAME), time_per_turn=0.05, solver_time=0.2).to_json()
    replay = as_json(CliRunner().invoke(main, ["replay", SQUARE_8_GAME, "--json"]))
    for item in ann["turns"] + ann["values"] + replay["turns"]:
        assert item["board"] == "square-8"
        pos, _ = load_text(json.dumps(item))
        assert pos.geometry.name == "square-8" and position_string(pos) == item["position"]


def test_example_of_solve_and_potential_is_the_game_with_6_turns_left(Position):
    """Replayed here turn by turn on the back end under test, independently of the CLI."""
    text = open(example_path(), encoding="utf-8").read()
    turns = [t for line in text.splitlines() if re.match(r"\d+\. ", line)
             for t in line.split()[1:]]
    assert len(turns) == 32
    pos = Position(START)
    for t in turns[:26]:
        pos.play(t)
    r = CliRunner().invoke(main, ["solve", "--example", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["position"] == position_string(pos)
    assert json.loads(r.stdout)["value"] == 198       # Red wins by 2 points (rules.md game)
    r = CliRunner().invoke(main, ["potential", "--example", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["red"]["potential"] >= pos.score(0) and data["blue"]["potential"] >= pos.score(1)
    adv = CliRunner().invoke(main, ["solve", "--example", "--rule", "advanced", "--json"])
    assert json.loads(adv.stdout)["position"] == position_string(pos.with_rule(1))


LATE = "R./.NN..B/N.R.R../RB.RRR../BR.BN..R./B.BBN.../RBRNB../B.BNRB/BR R 1 3 basic"


@pytest.mark.parametrize("args,stdin", [
    (["show"], START), (["score"], START), (["replay"], EXAMPLE), (["solve"], LATE),
    (["potential"], LATE), (["check", "-", "35"], LATE), (["annotate"], SETUP_GAME),
    (["best"], LATE)],
    ids=lambda a: a[0] if isinstance(a, list) else "")
def test_every_source_command_takes_example_and_dash(args, stdin):
    command = args[0]
    text = " ".join(CliRunner().invoke(main, [command, "--help"]).stdout.split())
    assert "--example" in text
    full = args if len(args) > 1 else args + ["-"]
    r = CliRunner().invoke(main, full + ["--json"], input=stdin)
    assert r.exit_code == 0, r.output
    if command != "check":
        r = CliRunner().invoke(main, [command, "-", "--example"], input=stdin)
        assert r.exit_code == 2 and "give SOURCE or --example, not both" in r.stderr



@pytest.mark.parametrize("command", ["score", "potential"])
def test_source_is_read_once(command, tmp_path, monkeypatch):
    """The command line reads SOURCE once: a file is not read again by Stars' Zone's
    reader, and standard input is not swapped for a copy of itself."""
    import io
    import sys

    from szsolver.cli import common, games as cli_games
    from szsolver.formats import record, sources
    reads = []

    def counted(path):
        reads.append(path)
        return sources.read_text_file(path)

    monkeypatch.setattr(cli_games, "read_text_file", counted)
    monkeypatch.setattr(record, "read_text_file", counted)
    path = tmp_path / "late.txt"
    path.write_text(LATE)

    def read(source):
        if command == "score":
            return cli_games.prepare("score", source)[1]
        return common.load_source_arg(cli_games.stars_zone_only("potential", source), None)[0]

    assert position_string(read(str(path))) == LATE and reads == [str(path)]
    stdin = io.TextIOWrapper(io.BytesIO(LATE.encode()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    assert position_string(read("-")) == LATE and sys.stdin is stdin

STAR_LATE = "star:5x6:BBWWB/BWBWWW/W.BBBBW/WWBBWBWW/WWBW.W.WB/WBBWWBB.BW/WBW.BBB.W/BWBBB.WW/WBBW.../BBBWBW:W"
STARGAZERS_START = "stargazers:12-star:1-2:r=9:b="


@pytest.mark.parametrize("source", [STAR_LATE, STARGAZERS_START])
@pytest.mark.parametrize("option", [["--threads", "2"], ["--workers", "2"],
                                    ["--scheduler", "tcp://127.0.0.1:1"], ["--two-turn-bounds"]])
def test_solve_options_of_stars_zone_are_refused_for_the_other_games(source, option):
    result = CliRunner().invoke(main, ["solve", source, *option, "--time-limit", "1"])
    assert result.exit_code == 2
    assert option[0] in result.output and "does not apply" in result.output
    assert "Traceback" not in result.output


def test_help_and_usage_errors_name_the_command():
    """-h is --help; an option's error points to its own command's --help."""
    from szsolver.cli.app import main
    r = CliRunner().invoke(main, ["show", "-h"], prog_name="szsolver")
    assert r.exit_code == 0 and r.output.startswith("Usage: szsolver show")
    r = CliRunner().invoke(main, ["show", "--example", "--rule"], prog_name="szsolver")
    assert r.exit_code == 2
    assert r.output.strip() == ("Error: Option '--rule' requires an argument. "
                                "(see 'szsolver show --help')")
    r = CliRunner().invoke(main, ["nosuch"], prog_name="szsolver")
    assert r.exit_code == 2 and "(see 'szsolver --help')" in r.output
