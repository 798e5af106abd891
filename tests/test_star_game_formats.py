"""Star records, position strings and JSON, pictures, and show/score/replay on Star
sources through the usual commands."""
import json
import random
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from szsolver.cli.app import main
from szsolver.errors import IllegalTurnError, ParseError
from szsolver.star.board import STANDARD, by_name
from szsolver.star.position import PASS, SWAP, Position, format_move
from szsolver.star.record import (GameRecord, game_json, game_string, parse_game,
                                  parse_game_json, parse_source_text, position_json,
                                  score_json)
from szsolver.star.reference import reference_scores
from szsolver.star.svg import position_svg

RECORD = """[Game "star"]
[Black "Ann"]
[White "Bob"]

1. E5 swap
2. A10 C10
3. B10 D10
4. J1 pass
"""


def _random_game(board, rng, tags=None):
    game = GameRecord({"Board": board.name, **(tags or {})})
    while not game.final.is_over():
        moves = game.final.legal_turns()
        # pass rarely, so games mostly fill the board
        choice = rng.choice(moves) if rng.random() < 0.05 else rng.choice(
            [m for m in moves if m != PASS] or moves)
        game.play(choice)
    return game


def test_records_round_trip_exactly():
    g = parse_game(RECORD)
    assert game_string(g) == RECORD
    rng = random.Random("star-records")
    for name in ("5x6", "4x5", "5x6-corners", "6x7"):
        g = _random_game(by_name(name), rng)
        text = game_string(g)
        assert text.startswith('[Game "star"]\n')
        back = parse_game(text)
        assert back == g and game_string(back) == text
        assert parse_game_json(json.dumps(game_json(g))) == g
        assert back.final.scores() == reference_scores(
            g.board, [c for c in range(g.board.size) if g.final.black >> c & 1],
            [c for c in range(g.board.size) if g.final.white >> c & 1])


def test_a_set_up_start_with_white_to_move():
    start = Position(STANDARD, black=1 << 10, side=1)
    g = parse_game(f'[Game "star"] [Position "{start}"] 1... D3 2. pass')
    assert g.start == start and g.where(0) == "round 1, white"
    assert game_string(g).endswith("1... D3\n2. pass\n")


@pytest.mark.parametrize("text,error,match", [
    ('[Game "star"] 1. D3 2. E5', ParseError, "move missing"),
    ('[Game "star"] 1. D3 D3', IllegalTurnError, "round 1, white: D3 is not empty"),
    ('[Game "star"] 1. D3 E5 2. swap', IllegalTurnError, "round 2, black: swap"),
    ('[Game "star"] 1. pass pass 2. D3', IllegalTurnError, "round 2, black: the game is over"),
    ('[Game "star"] 1. K3', ParseError, "no cell"),
    ('[Game "star"] 2. D3', ParseError, "expected round number"),
    ('[Game "stars"] 1. D3', ParseError, "Game tag"),
    ('[Game "star"] [Board "5x7x"] 1. D3', ParseError, "unknown Star board"),
    ('[Game "star"] [Result "17:14"]', ParseError, "Result tag"),
    ('[Game "star"] 1. D3 [Black "x"]', ParseError, "tags come first"),
])
def test_bad_records_name_the_problem(text, error, match):
    with pytest.raises(error, match=match):
        parse_game(text)


def test_pgn_habits_read_as_every_record_of_the_family():
    """Comments, a round number without a space, the round number again before
    White's move and a result after the moves, as the Stars' Zone record reads them."""
    plain = parse_game('[Game "star"] 1. E5 swap 2. D3 F6')
    text = ('[Game "star"]\n{opening} 1.E5 {the pie} 1... swap ; swapped\n'
            '2.D3 F6 *')
    g = parse_game(text)
    assert g.turns == plain.turns and g.tags == {"Game": "star", "Result": "*"}
    assert game_string(g) == '[Game "star"]\n[Result "*"]\n\n1. E5 swap\n2. D3 F6\n'
    assert parse_game(game_string(g)) == g
    pos, game = parse_source_text("; a comment first\n" + text)
    assert game == g
    r = _run("score", "{a comment first} " + text, "--json")     # read as Star
    assert r.exit_code == 0 and json.loads(r.stdout)["position"] == str(g.final)
    with pytest.raises(ParseError, match="round 2, black: no cell 'q99'"):
        parse_game('[Game "star"] 1. E5 swap Q99')
    with pytest.raises(ParseError, match="round 2, black: move 'D3' needs its round number"):
        parse_game('[Game "star"] 1. E5 swap D3')


def test_a_result_the_replay_contradicts_is_a_warning():
    g = parse_game('[Game "star"] [Board "4x5"] [Result "3-1"] 1. pass pass')
    assert g.final.is_over() and g.warnings and "0-0" in g.warnings[0]


def test_sources_position_strings_records_and_json():
    g = parse_game(RECORD)
    pos, game = parse_source_text(RECORD)
    assert game == g and pos == g.final
    assert parse_source_text(str(g.final)) == (g.final, None)
    assert parse_source_text(json.dumps(position_json(g.final)))[0] == g.final
    assert parse_source_text(json.dumps(game_json(g)))[1] == g
    for bad in ("", "[1, 2]", "star:5x6", "a\nb"):
        with pytest.raises(ParseError):
            parse_source_text(bad)


def test_score_json_lists_the_stars_and_keys_black_and_white():
    data = score_json(parse_game(RECORD).final)
    assert data["scores"] == {"black": 3, "white": 1}
    assert sorted(s["points"] for s in data["stars"]["black"]) == [1, 2]
    assert data["stars"]["white"] == [{"cells": ["C10", "D10"], "border_cells": 3, "points": 1}]


def test_the_picture_has_every_cell_border_cell_and_star():
    g = parse_game(RECORD)
    svg = ET.fromstring(position_svg(g.final, last_turn=g.turns[-2]))
    ns = {"s": "http://www.w3.org/2000/svg"}
    cells = svg.findall(".//s:g[@class='cells']/s:polygon", ns)
    border = svg.findall(".//s:g[@class='border']/s:polygon", ns)
    stars = svg.findall(".//s:path[@class='star']", ns)
    assert len(cells) == 75
    # 33 border cells, one drawn twice: the cell between B10 and C10 touched by a black
    # and a white star
    assert len(border) == 33 + 1
    assert len(stars) == 3
    # a star's outline: each cell edge not facing the same star (a pair of cells: 10)
    pair = [s for s in stars if "A10" not in s.findtext("s:title", "", ns)]
    assert all(s.get("d").count("M") in (6, 10) for s in stars)
    assert pair


def _run(*args, stdin=None):
    return CliRunner().invoke(main, list(args), input=stdin)


def test_show_score_and_replay_take_star_records_and_positions(tmp_path):
    path = tmp_path / "game.star"
    path.write_text(RECORD, encoding="utf-8")
    r = _run("score", str(path), "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["scores"] == {"black": 3, "white": 1} and data["over"] is False
    final = str(parse_game(RECORD).final)
    r = _run("show", final, "--json")
    assert r.exit_code == 0 and json.loads(r.output)["position"]["position"] == final
    r = _run("show", "-", stdin=RECORD)
    assert r.exit_code == 0 and "Last move: round 4, white pass." in r.output
    svg = tmp_path / "p.svg"
    assert _run("show", str(path), "--svg", str(svg)).exit_code == 0
    assert ET.parse(svg).getroot().tag.endswith("svg")
    r = _run("replay", str(path), "--json")
    data = json.loads(r.output)
    assert [m["turn"] for m in data["turns"]] == ["E5", "swap", "A10", "C10", "B10", "D10",
                                                  "J1", "pass"]
    assert data["turns"][-2]["scores"] == {"black": 3, "white": 1}
    r = _run("replay", str(path), "--svg", str(tmp_path / "moves"))
    assert r.exit_code == 0 and len(list((tmp_path / "moves").iterdir())) == 8


def test_stars_zone_options_and_bad_star_input_are_one_line_errors():
    for args in (("show", RECORD, "--rule", "basic"), ("show", RECORD, "--beams"),
                 ("score", "star:5x6:...:B"), ("replay", '[Game "star"] 1. D3 D3')):
        r = _run(*args)
        assert r.exit_code == 2, (args, r.output)
        lines = r.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: ")


def test_commands_for_stars_zone_only_name_the_game_they_were_given(tmp_path):
    """A Star or Stargazers record, position or JSON where only Stars' Zone is read:
    one line naming the game (not a Stars' Zone parse error about its moves), exit 2."""
    from szsolver.formats.record import parse_source_text
    star_pos = str(Position(by_name("2x2"), 0, 0, 0, 0))
    sg_pos = "stargazers:12-star:1-2:r=9,30:b=16,23"
    sg_record = '[Game "stargazers"] [Board "12-star"] 1. 17'
    for text, words in ((RECORD, "a Star record"), (star_pos, "a Star position"),
                        (sg_pos, "a Stargazers position"), (sg_record, "a Stargazers record"),
                        ('{"game": "star", "position": "x"}', "a Star JSON")):
        with pytest.raises(ParseError, match=words):
            parse_source_text(text)
    path = tmp_path / "game.star"
    path.write_text(RECORD, encoding="utf-8")
    for args, words in ((("potential", str(path)), "potential is not available for star"),
                        (("potential", sg_pos), "potential is not available for stargazers"),
                        (("batch", "deep-solve", star_pos, "--workers", "1"),
                         "batch deep-solve is not available for star")):
        r = _run(*args)
        assert r.exit_code == 2, (args, r.output)
        lines = r.output.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], (args, r.output)


def test_each_outline_edge_faces_the_neighbour_it_separates():
    from szsolver.star.svg import _CORNERS, _EDGE_STEP, _centre
    for q, r in STANDARD.cells:
        cx, cy = _centre(q, r)
        for e, (dq, dr) in enumerate(_EDGE_STEP):
            (x1, y1), (x2, y2) = _CORNERS[e], _CORNERS[(e + 1) % 6]
            # the edge's midpoint is halfway to the neighbour's centre (corners y up)
            nx, ny = _centre(q + dq, r + dr)
            assert abs(cx + (x1 + x2) - nx) < 1e-9 and abs(cy - (y1 + y2) - ny) < 1e-9


@pytest.mark.parametrize("command", ["show", "score", "replay"])
def test_the_json_the_commands_print_reads_back(tmp_path, command):
    """show, score and replay --json of a Star game, saved and given back as SOURCE, are
    read as Star (they were refused as 'a Star JSON: only Stars' Zone ...')."""
    printed = _run(command, RECORD, "--json")
    assert printed.exit_code == 0, printed.output
    saved = tmp_path / "out.json"
    saved.write_text(printed.stdout, encoding="utf-8")
    final = str(parse_game(RECORD).final)
    for source in (str(saved), printed.stdout):
        r = _run("score", source, "--json")
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["position"] == final
    if command == "replay":       # the game itself comes back
        again = _run("replay", str(saved), "--json")
        assert json.loads(again.stdout)["game"] == json.loads(printed.stdout)["game"]
