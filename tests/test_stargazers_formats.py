"""Stargazers records, position strings, pictures and the shared commands
(show / score / replay) on Stargazers sources."""
import json
import random
import re
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from szsolver.cli.app import main
from szsolver.formats.sources import game_of_text
from szsolver.errors import IllegalTurnError, ParseError
from szsolver.rules.bits import bit_list
from szsolver.stargazers import fast, reference
from szsolver.stargazers.record import game_string, parse_game
from szsolver.stargazers.svg import position_svg


def random_game(name, protocol, seed):
    """A full random game as a record (whole turns, played on the reference)."""
    rng = random.Random(seed)
    p = reference.Position(board=name, protocol=protocol)
    rounds, turns = [], []
    while not p.is_over():
        side, turn = p.side, []
        for _ in range(p.placements_left):
            if p.is_over():
                break
            c = rng.choice(p.legal_placements())
            turn.append(c)
            p.play(c)
        turns.append((side, ",".join(map(str, turn))))
    k = 1
    for side, t in turns:
        if side == 0:
            rounds.append(f"{k}. {t}")
            k += 1
        else:
            rounds[-1] += f" {t}"
    text = (f'[Game "stargazers"]\n[Board "{name}"]\n[Protocol "{protocol}"]\n\n'
            + "\n".join(rounds) + "\n")
    return text, p


def invoke(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.mark.parametrize("name", ["12-star", "18-star", "27-star"])
def test_a_full_random_game_is_replayed_and_scored(name, tmp_path):
    text, final = random_game(name, "1-2", f"full-{name}")
    path = tmp_path / "game.sgr"
    path.write_text(text)
    r = invoke("score", str(path), "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    red_un, blue_un = final.uninspired()
    assert data["scores"] == {"red": final.scores()[0], "blue": final.scores()[1]}
    assert data["uninspired"] == {"red": bit_list(red_un), "blue": bit_list(blue_un)}
    assert data["over"] and data["winner"] == ("red", "blue")[final.winner()]
    r = invoke("replay", str(path), "--json")
    assert r.exit_code == 0, r.output
    replayed = json.loads(r.output)
    assert replayed["final"]["position"] == str(final)
    assert replayed["turns"][-1]["scores"] == data["scores"]
    # the replay's positions, turn by turn, are the reference's
    g = parse_game(text)
    assert [t["position"] for t in replayed["turns"]] == [str(p) for p in g.positions]
    r = invoke("show", str(path), "--svg", str(tmp_path / "end.svg"))
    assert r.exit_code == 0 and "Game over" in r.output
    ET.parse(tmp_path / "end.svg")


@pytest.mark.parametrize("protocol", ["1-2", "1"])
def test_records_round_trip(protocol):
    for name in ("12-star", "18-star"):
        text, final = random_game(name, protocol, f"trip-{name}-{protocol}")
        g = parse_game(text)
        assert g.final == final
        assert game_string(g) == text
        assert parse_game(game_string(g)) == g


def test_a_turn_of_two_and_the_first_single_placement():
    g = parse_game('[Game "stargazers"]\n1. 9 16,23\n2. 30,31 24')
    assert [list(t) for t in g.turns] == [[9], [16, 23], [30, 31], [24]]
    assert g.final.side_name == "blue" and g.final.placements_left == 1  # turn in progress
    assert g.where(3) == "round 2, blue"


def test_a_record_may_start_in_the_middle_of_a_turn():
    """A position string in the middle of a turn (Blue has placed one of two) is a
    record's start: its first turn is the placement that finishes the turn."""
    start = "stargazers:12-star:1-2:r=9,30:b=16,23"          # Red has placed one of two
    g = parse_game(f'[Game "stargazers"] [Position "{start}"] 2. 40 24,25 3. 31')
    assert [list(t) for t in g.turns] == [[40], [24, 25], [31]]
    assert [g.where(i) for i in range(3)] == ["round 2, red", "round 2, blue", "round 3, red"]
    assert parse_game(game_string(g)) == g
    with pytest.raises(IllegalTurnError, match="2 placements where the turn has 1"):
        parse_game(f'[Game "stargazers"] [Position "{start}"] 2. 40,41')
    mid_blue = parse_game('[Game "stargazers"] [Position "stargazers:12-star:1-2:r=9:b=16"] 1... 40')
    assert mid_blue.where(0) == "round 1, blue" and mid_blue.final.side_name == "red"


@pytest.mark.parametrize("text,error,words", [
    ('[Game "stargazers"] 1. 9,10', IllegalTurnError, "2 placements where the turn has 1"),
    ('[Game "stargazers"] 1. 9 16 2. 30', IllegalTurnError, "one-placement turn"),
    ('[Game "stargazers"] 1. 0', IllegalTurnError, "star"),
    ('[Game "stargazers"] 1. 9 9,10', IllegalTurnError, "taken"),
    ('[Game "stargazers"] 2. 9', ParseError, "expected round number '1.', got '2.'"),
    ('[Game "stargazers"] 1. 9 16,23 30,31', ParseError, "round number"),
    ('[Game "stargazers"] 1. 9x', ParseError, "bad Stargazers turn"),
    ('[Game "stargazers"] [Board "7-star"] 1. 9', ParseError, "unknown Stargazers board"),
    ('[Game "stargazers"] [Protocol "3"]', ParseError, "protocol"),
])
def test_bad_records(text, error, words):
    with pytest.raises(error, match=words):
        parse_game(text)


def test_pgn_habits_read_as_every_record_of_the_family():
    """Comments, a round number without a space, the round number again before Blue's
    turn and a result after the turns, read as the Stars' Zone record reads them; the
    canonical text keeps the result as the Result tag."""
    plain = parse_game('[Game "stargazers"] 1. 9 16,23 2. 30')
    text = '[Game "stargazers"] 1.9 {a comment} 1... 16,23 ; to the end of the line\n2.30 *'
    g = parse_game(text)
    assert g.turns == plain.turns and g.tags["Result"] == "*"
    assert game_string(g) == '[Game "stargazers"]\n[Result "*"]\n\n1. 9 16,23\n2. 30\n'
    assert parse_game(game_string(g)) == g


@pytest.mark.parametrize("text, words", [
    ('[Game "stargazers"] 1. 9 16,23 x7', "round 2, red: bad Stargazers turn 'x7'"),
    ('[Game "stargazers"] 1. 9 16,23 30,31', "round 2, red: turn '30,31' needs its round "
                                             "number first: '2. 30,31'"),
    ('[Game "stargazers"] [Result "1-0"] 1. 9 2-0', "disagrees with the Result tag"),
    ('[Game "stargazers"] 1. 9 * 16,23', "after the result"),
])
def test_bad_movetext_names_the_token_round_and_side(text, words):
    with pytest.raises(ParseError, match=re.escape(words)):
        parse_game(text)


def test_a_suicide_in_a_record_names_its_round():
    # red 21, blue 25 26: red's 18 sees nothing that inspires (see the rules tests)
    with pytest.raises(IllegalTurnError, match="round 2, red: a red stone on cell 18 would not"):
        parse_game('[Game "stargazers"] 1. 21 25,26 2. 18')


def test_result_tag_is_checked():
    text, final = random_game("12-star", "1", "result")
    r, b = final.scores()
    g = parse_game(text.replace('[Protocol "1"]', f'[Protocol "1"]\n[Result "{r + 1}-{b}"]'))
    assert g.warnings and "replay scores" in g.warnings[0]
    g = parse_game(text.replace('[Protocol "1"]', f'[Protocol "1"]\n[Result "{r}-{b}"]'))
    assert g.warnings == []


def test_sources_are_routed_by_game():
    assert game_of_text('[Game "stargazers"]\n1. 9') == "stargazers"
    assert game_of_text("stargazers:12-star:1-2:r=:b=") == "stargazers"
    assert game_of_text('[Rule "basic"] 1. 44n66') is None
    assert game_of_text("stars-zone;basic;x=;g=44:5") is None


def test_position_strings_through_the_commands():
    p = fast.Position()
    for c in (9, 16, 23):
        p.play(c)
    r = invoke("score", str(p), "--json")
    assert r.exit_code == 0
    d = json.loads(r.output)
    assert d["position"] == str(p) and d["side_to_move"] == "red"
    r = invoke("show", "-", "--json", input=str(p) + "\n")   # standard input, read once
    assert r.exit_code == 0 and json.loads(r.output)["position"]["position"] == str(p)
    r = invoke("score", "-", input="44n66")                  # Stars' Zone keeps stdin
    assert r.exit_code == 2 and "Error:" in r.output and "stargazers" not in r.output.lower()


@pytest.mark.parametrize("args,words", [
    (["show", "stargazers:12-star:1-2:r=0:b="], "holds a star"),
    (["show", "stargazers:12-star:1-2:r=9:b=", "--rule", "basic"], "--rule is a Stars' Zone"),
    (["show", "stargazers:12-star:1-2:r=9:b=", "--beams"], "--beams is a Stars' Zone"),
    (["score", '[Game "stargazers"] 1. 0'], "round 1, red: cell 0 holds a star"),
])
def test_bad_input_is_one_line(args, words):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2
    assert words in r.output and len(r.output.strip().splitlines()) == 1


def test_svg_marks_inspired_uninspired_and_last_turn():
    p = fast.Position(board="12-star", protocol="1")
    for c in (3, 9, 46, 10, 47, 2):    # blue 2 cuts red 3 off (see the rules tests)
        p.play(c)
    svg = position_svg(p, last_turn=(2,))
    root = ET.fromstring(svg)
    circles = root.findall("{http://www.w3.org/2000/svg}circle")
    rings = [c for c in circles if c.get("fill") == "none"]
    assert len(rings) == bin(p.uninspired()[0] | p.uninspired()[1]).count("1") >= 1
    texts = [t.text for t in root.findall("{http://www.w3.org/2000/svg}text")]
    assert "17" not in texts and "18" in texts     # a star has no number; an empty cell has


def test_replay_draws_every_turn(tmp_path):
    text, _final = random_game("12-star", "1-2", "pictures")
    out = tmp_path / "turns"
    r = invoke("replay", text, "--svg", str(out), "--final")
    assert r.exit_code == 0, r.output
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == len(parse_game(text).turns) and files[0] == "turn-01.svg"
    for name in files[:3]:
        ET.parse(out / name)


def test_warnings_come_after_the_checks():
    text, final = random_game("12-star", "1", "warn")
    r, b = final.scores()
    wrong = text.replace('[Protocol "1"]', f'[Protocol "1"]\n[Result "{r + 1}-{b}"]')
    res = CliRunner().invoke(main, ["score", wrong])
    assert res.exit_code == 0 and "Warning: Result tag says" in res.stderr
    res = CliRunner().invoke(main, ["check", wrong, "--turn", "999"])
    assert res.exit_code == 2 and "Warning" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["show", "score", "replay"])
def test_the_json_the_commands_print_reads_back(tmp_path, command):
    """show, score and replay --json of a Stargazers game, saved and given back as
    SOURCE, are read as Stargazers (they were refused, or read as a Stars' Zone
    position)."""
    record = '[Game "stargazers"]\n\n1. 9 16,23\n2. 30\n'
    printed = CliRunner().invoke(main, [command, record, "--json"])
    assert printed.exit_code == 0, printed.output
    saved = tmp_path / "out.json"
    saved.write_text(printed.stdout, encoding="utf-8")
    final = str(parse_game(record).final)
    for source in (str(saved), printed.stdout):
        r = CliRunner().invoke(main, ["score", source, "--json"])
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["position"] == final
    if command == "replay":       # the game itself comes back
        again = CliRunner().invoke(main, ["replay", str(saved), "--json"])
        assert json.loads(again.stdout)["game"] == json.loads(printed.stdout)["game"]


def test_a_json_game_of_tags_and_turns_reads_as_the_other_games_do():
    """The family's game JSON ``{"type", "game", "tags", "turns"}``, without its
    ``record`` (Star's and Stars' Zone's are read from their turns): the same game as
    the record, and a bad turn named with its round and side."""
    record = '[Game "stargazers"]\n\n1. 9 16,23\n2. 30\n'
    game = {"type": "game", "game": "stargazers", "turns": ["9", "16,23", "30"]}
    for source in (record, json.dumps(game)):
        r = CliRunner().invoke(main, ["replay", source, "--json"])
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["game"]["record"] == parse_game(record).record_text(str)
    game["turns"][1] = "16, 23"
    r = CliRunner().invoke(main, ["replay", json.dumps(game)])
    assert r.exit_code == 2 and r.stderr.startswith("Error: round 1, blue: ")


def test_solve_of_a_finished_game_says_it_is_over():
    """The value of an ended game is its result: no side is 'to place' any more."""
    record = ('[Game "stargazers"] [Board "12-star"] [Protocol "1-2"] 1. 36 40,48 2. 35,11 42,3 '
              '3. 24,37 30,32 4. 13,20 14,26 5. 39,29 23,19 6. 28,44 9,25 7. 4,33 43,10 '
              '8. 15,7 2,47 9. 6,21 45,31 10. 8')
    final = parse_game(record).final
    assert final.is_over()
    r = invoke("solve", record)
    assert r.exit_code == 0, r.output
    first = r.output.splitlines()[0]
    assert first.startswith("Value for ") and "(the game is over)" in first and "to place" not in first
    assert "Best placements: none (the game is over)" in r.output
