"""Game records: the rulebook example, round trips, errors, sources."""
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from szsolver.errors import IllegalTurnError, InputError, InvalidPositionError, ParseError
from szsolver.rules import reference
from szsolver.formats.notation import format_turn, position_json, position_string
from szsolver.formats.record import (GameRecord, example_game, example_path, game_json, game_string,
                                     load_source, parse_game, parse_game_json, read_record,
                                     tag_line)

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# The rulebook's table (rules.md), transcribed independently of the bundled file.
RULEBOOK_ROUNDS = [
    ("4,4 n6,6", "6,4"), ("4,1", "5,4"), ("1,4", "2,8"), ("3,4 n2,4", "8,4"), ("9,6", "9,5"),
    ("4,6 n8,5", "6,5"), ("7,4", "7,6"), ("8,6", "8,7"), ("7,2", "8,2"), ("5,2", "5,1"),
    ("3,6", "6,2"), ("4,5 n2,5", "7,3 n3,2"), ("5,8", "4,2 n7,5"), ("5,9", "7,8 n3,5"),
    ("3,8", "4,8"), ("2,7", "6,9"),
]


def rulebook_turns():
    out = []
    for pair in RULEBOOK_ROUNDS:
        for cell in pair:
            stone, _, neutral = cell.partition(" n")
            out.append(stone.replace(",", "") + ("n" + neutral.replace(",", "") if neutral else ""))
    return out


# --- the rulebook's published facts --------------------------------------------------------

def test_bundled_example_is_the_rulebook_game(Position):
    g = example_game(Position)
    assert [format_turn(t) for t in g.turns] == rulebook_turns()
    assert g.tags["Red"] == "MY Tian" and g.tags["Blue"] == "Aza Reyyaiya"
    assert g.tags["Date"] == "2023-07-17" and g.tags["Result"] == "16-14"


def test_example_scores_16_14_under_basic_red_wins(Position):
    g = example_game(Position)
    final = g.final
    assert final.is_over() and len(g.turns) == 32
    assert final.scores() == (16, 14)
    assert final.winner() == "red"
    assert (5 - final.red_neutrals, 5 - final.blue_neutrals) == (4, 3)
    assert g.warnings == []  # the Result tag agrees with the replay


def test_example_scores_11_11_under_advanced_blue_wins_on_neutrals(Position):
    g = example_game(Position).with_rule("advanced")
    final = g.final
    assert final.scores() == (11, 11)
    assert final.winner() == "blue"
    assert final.value() == 1 - 2  # equal scores: red 1 neutral left, blue 2
    assert "Result" not in g.tags and g.tags["Rule"] == "advanced"


def test_example_agrees_with_the_reference_position_by_position(Position):
    ours = example_game(Position)
    ref = example_game(reference.Position)
    for a, b in zip(ours.positions, ref.positions):
        assert position_string(a) == position_string(b)
        assert a.scores() == b.scores()
        assert a.with_rule("advanced").scores() == b.with_rule("advanced").scores()


def test_bundled_file_is_canonical():
    text = open(example_path(), encoding="utf-8").read()
    assert game_string(parse_game(text, reference.Position)) == text


# --- round trips ---------------------------------------------------------------------------

@st.composite
def random_games(draw, Position=reference.Position):
    tags = {}
    rule = draw(st.sampled_from(["basic", "advanced"]))
    if draw(st.booleans()):
        tags["Rule"] = rule
    red_n, blue_n = draw(st.integers(0, 7)), draw(st.integers(0, 7))
    tags["Neutrals"] = f"{red_n} {blue_n}"
    name = st.text(st.characters(blacklist_categories=["Cs", "Cc"]), max_size=12)
    if draw(st.booleans()):
        tags["Red"] = draw(name)
    if draw(st.booleans()):
        tags["Event"] = draw(name)
    game = GameRecord(tags, (), backend=Position)
    for _ in range(draw(st.integers(0, 32))):
        turns = game.final.legal_turns()
        game.play(turns[draw(st.integers(0, len(turns) - 1))])
    return game


@SETTINGS
@given(data=st.data())
def test_records_round_trip(Position, data):
    game = data.draw(random_games(Position))
    text = game_string(game)
    back = parse_game(text, Position)
    assert back == game and game_string(back) == text
    assert position_string(back.final) == position_string(game.final)
    # JSON too, through real JSON text
    again = parse_game_json(json.dumps(game_json(game)), Position)
    assert again == game and game_string(again) == text
    # and with the turns squashed onto one line it parses to the same game
    # (only the turns: tag values keep their own spacing)
    if game.turns:
        head, _, moves = text.rpartition("\n\n") if game.tags else ("", "", text)
        assert parse_game(head + " " + " ".join(moves.split()), Position) == game


@SETTINGS
@given(data=st.data())
def test_set_up_games_round_trip(Position, data):
    """A [Position] tag starts from a set-up; with Blue to move rounds start 'N...'."""
    prefix = data.draw(random_games(Position))
    rest = data.draw(st.integers(0, 5))
    game = GameRecord({"Position": position_string(prefix.final)}, (), backend=Position)
    for _ in range(rest):
        if game.final.is_over():
            break
        game.play(game.final.legal_turns()[data.draw(st.integers(0, 50))
                                             % len(game.final.legal_turns())])
    text = game_string(game)
    if game.turns and prefix.final.side == 1:
        assert f"{prefix.final.ply // 2 + 1}... " in text
    back = parse_game(text, Position)
    assert back == game and game_string(back) == text


# --- errors --------------------------------------------------------------------------------

def record(moves, tags='[Rule "basic"] [Neutrals "5 5"]'):
    return f"{tags}\n\n{moves}\n"


@pytest.mark.parametrize("text, error, message", [
    (record("1. 44 64 2. 41 44"), IllegalTurnError,
     "round 2, blue: illegal turn 44: point 44 is occupied"),
    (record("1. 44 64 2. 41 n44"), ParseError, "round 2, blue: bad turn 'n44'"),
    (record("1. 44 64 2. 19"), ParseError, "round 2, red: bad turn '19': point '19' is off"),
    (record("1. 44n66 64", '[Neutrals "0 5"]'), IllegalTurnError,
     "round 1, red: illegal turn 44n66: red has no neutral stones left"),
    (record("1. 44 2. 41"), ParseError, "round 1, blue: turn missing before '2.'"),
    (record("1. 44 64 3. 41"), ParseError, "expected round number '2.', got '3.'"),
    (record("1. 44 64 41"), ParseError, "turn '41' needs its round number first"),
    (record("44 64"), ParseError, "turn '44' needs its round number first"),
    (record("1. 44 64 2."), ParseError, "round 2 has no turns"),
    ('[Rule "basic"] [Rule "basic"]', ParseError, "tag [Rule] given twice"),
    ('1. 44 [Rule "basic"]', ParseError, "comes after the turns"),
    ('[Rule basic]', ParseError, "malformed tag on line 1"),
    ('[Rule "sideways"]', ParseError, "unknown rule 'sideways'"),
    ('[Board "hexagon"]', ParseError, "unknown board 'hexagon'"),
    ('[Neutrals "9 9"]', ParseError, "Neutrals tag '9 9'"),
    ('[Result "red wins"]', ParseError, "Result tag 'red wins'"),
    ('[Position "../....../......./......../....N..../......../......./....../.. R 5 5 basic"]'
     ' [Neutrals "5 5"]', ParseError, "not a Neutrals tag"),
    ('[Position "R./....../......./......../....N..../......../......./....../.. R 5 5 basic"]',
     InvalidPositionError, "do not fit red to move"),
    ('1. 44 64 ]', ParseError, "unexpected ']'"),
])
def test_bad_records_name_the_problem(text, error, message):
    with pytest.raises(error, match=re.escape(message)):
        parse_game(text, reference.Position)


# --- the habits PGN players bring --------------------------------------------------------

CANONICAL = "1. 44n66 64\n2. 41\n"


@pytest.mark.parametrize("text", [
    "1.44n66 64 2.41",                                   # no space after the round number
    "1. 44n66 {a fine start} 64 2. 41",                  # comments between any parts
    "{before}1.{inside\nover lines}44n66 64 2. 41{after}",
    "1. 44n66 64 ; the rest of the line is a comment 2. 99\n2. 41",
    "1. 44n66 {a comment} 1... 64 2. 41",                # the round number again before Blue
    "% an escape line\n1. 44n66 64\n%another\r\n2. 41",     # PGN's escape lines
    "1.\u00a044n66\u00a064\u30002.\t41",                  # any Unicode whitespace separates
])
def test_pgn_habits_read_as_the_canonical_record(text):
    game = parse_game(text, reference.Position)
    assert game == parse_game(CANONICAL, reference.Position)
    assert game_string(game) == CANONICAL


@pytest.mark.parametrize("text, result", [
    ("1. 44n66 64 2. 41 *", "*"),
    ("1.44n66 64 2.41 3-2", "3-2"),
    ('[Result "3-2"] 1. 44n66 64 2. 41 3-2', "3-2"),
])
def test_a_result_after_the_turns_is_the_result_tag(text, result):
    game = parse_game(text, reference.Position)
    assert game.tags["Result"] == result
    canonical = f'[Result "{result}"]\n\n{CANONICAL}'
    assert game_string(game) == canonical and parse_game(canonical, reference.Position) == game
    if result != "*":   # checked against the replay as the Result tag is
        assert game.warnings == [f"Result tag says {result} but the game is unfinished "
                                 "after 3 turns (scores now 2-1)"]


def test_a_trailing_result_the_replay_contradicts_is_warned_like_the_tag():
    text = open(example_path(), encoding="utf-8").read()
    moves = text.split("\n\n", 1)[1]
    game = parse_game(moves + " 15-14", reference.Position)
    assert game.warnings == ["Result tag says 15-14 but the replay scores 16-14 under the "
                             "basic rule"]
    assert parse_game(moves + " 16-14", reference.Position).warnings == []


@pytest.mark.parametrize("text, error, message", [
    # a word where a round number belongs is named for what it is, with round and side
    (record("1. 44 64 foo"), ParseError, "round 2, red: bad turn 'foo'"),
    (record("1. 44 64 41"), ParseError, "round 2, red: turn '41' needs its round number "
                                        "first: '2. 41'"),
    ('[Position "../....../......./...R..../....N..../....N.../......./....../.. B 4 5 '
     'basic"] 64', ParseError, "round 1, blue: turn '64' needs its round number first: '1... 64'"),
    (record("1. 44 64 16-14 2. 41"), ParseError,
     "round number '2.' on line 3 after the result '16-14': the result ends the record"),
    (record("1. 44 64 * 41"), ParseError, "'41' on line 3 after the result '*'"),
    ('[Result "16-14"] 1. 44 64 16-13', ParseError,
     "the result '16-13' after the turns disagrees with the Result tag '16-14'"),
    ('[Result "16-14"] 1. 44 64 *', ParseError, "the result '*' after the turns disagrees"),
    (record("1. 44 64 2. *"), ParseError, "round 2 has no turns"),
    (record("1. 44 {unclosed 64"), ParseError, "comment '{' on line 3 is never closed"),
    (record("1. 44 64 }"), ParseError, "unexpected '}' on line 3"),
    (record("1.. 44"), ParseError, "bad round number '1..' on line 3: write 'N.'"),
    (record("1. 44 1. 64"), ParseError, "round 1, blue: '1.' before blue's turn: write "
                                        "'1...' or no number"),
    (record("1. 44 2... 64"), ParseError, "round 1, blue: turn missing before '2...'"),
])
def test_bad_movetext_names_the_token_round_and_side(text, error, message):
    with pytest.raises(error, match=re.escape(message)):
        parse_game(text, reference.Position)


def test_a_record_opening_with_a_comment_is_read_as_a_record():
    pos, game = load_source("; exported by hand\n{the opening}\n1. 44n66 64",
                            backend=reference.Position)
    assert game is not None and len(game.turns) == 2
    with pytest.raises(ParseError, match="malformed JSON"):   # JSON stays JSON
        load_source('{"type": "game", "turns": [}', backend=reference.Position)


@pytest.mark.parametrize("lead", ['{"Exported by SZ Editor"}\n', "{}", "{ }\n", '{ "Game 1" } '])
def test_a_record_opening_with_a_comment_like_json_is_read_as_a_record(lead):
    """A comment that opens like a JSON object ({"...}, {}) is still a comment when a
    tag or a round number follows (it was refused as malformed JSON)."""
    with open(example_path(), encoding="utf-8") as f:
        text = f.read()
    pos, game = load_source(lead + text, backend=reference.Position)
    assert game == example_game(reference.Position)
    pos, game = load_source(lead + "1. 44 64", backend=reference.Position)
    assert [format_turn(t) for t in game.turns] == ["44", "64"]
    with pytest.raises(ParseError, match="malformed JSON"):   # JSON followed by junk
        load_source('{"a": 1} junk', backend=reference.Position)


def test_a_tag_the_reader_acts_on_is_read_in_any_case():
    """[rule "advanced"] is the Rule tag: another program's lower case was kept as an
    unknown tag and the game replayed under the Basic rule (16-14, not 11-11)."""
    with open(example_path(), encoding="utf-8") as f:
        text = f.read()
    game = parse_game(text.replace('[Rule "basic"]', '[rule "advanced"]'), reference.Position)
    assert game.tags["Rule"] == "advanced" and "rule" not in game.tags
    assert game.final.scores() == (11, 11)
    game = parse_game('[position "RB/....../......./......../....N..../......../......./'
                      '....../.. R 5 5 basic"]\n\n2. 44 64', reference.Position)
    assert game.start.ply == 2 and game.tags["Position"]
    with pytest.raises(ParseError, match=re.escape("tag [Rule] given twice (once as [RULE])")):
        parse_game('[Rule "basic"] [RULE "advanced"] 1. 44', reference.Position)
    assert parse_game('[event "x"] 1. 44', reference.Position).tags == {"event": "x"}
    g = parse_game_json({"type": "game", "tags": {"rule": "advanced"}, "turns": ["44"]},
                        reference.Position)
    assert g.tags == {"Rule": "advanced"} and g.final.rule == 1
    from szsolver.formats.sources import game_of_text
    assert game_of_text('[game "star"] [board "5x6"]') == "star"


def test_turns_after_the_game_ended_are_an_error(Position):
    text = open(example_path(), encoding="utf-8").read() + "17. 15\n"
    with pytest.raises(IllegalTurnError, match=r"^round 17, red: a turn after the game ended"):
        parse_game(text, Position)
    data = game_json(example_game(Position))
    data["turns"].append("15")
    with pytest.raises(IllegalTurnError, match=r"^round 17, red: a turn after the game ended"):
        parse_game_json(data, Position)


def test_a_result_the_replay_contradicts_is_kept_but_warned():
    text = open(example_path(), encoding="utf-8").read().replace("16-14", "15-14")
    g = parse_game(text, reference.Position)
    assert g.tags["Result"] == "15-14" and g.final.scores() == (16, 14)
    assert len(g.warnings) == 1 and "replay scores 16-14" in g.warnings[0]
    unfinished = parse_game('[Result "3-2"] 1. 44 64', reference.Position)
    assert "unfinished" in unfinished.warnings[0]
    assert parse_game('[Result "*"] 1. 44 64', reference.Position).warnings == []


def test_advanced_without_neutrals_tag_uses_the_rulebook_recommendation():
    assert parse_game('[Rule "advanced"]').neutrals == (4, 4)
    assert parse_game('').neutrals == (5, 5)
    # overriding the rule keeps the supply the game was played with
    g = parse_game('1. 44n66 64', reference.Position).with_rule("advanced")
    assert g.neutrals == (5, 5) and g.final.red_neutrals == 4


# --- sources -------------------------------------------------------------------------------

def test_load_source_reads_every_kind(tmp_path):
    ex = example_game(reference.Position)
    final = position_string(ex.final)
    (tmp_path / "pos.txt").write_text(final + "\n")
    (tmp_path / "pos.json").write_text(json.dumps(position_json(ex.final)))
    (tmp_path / "game.json").write_text(json.dumps(game_json(ex)))
    (tmp_path / "game.szg").write_text(game_string(ex))
    for src in (final, str(tmp_path / "pos.txt"), str(tmp_path / "pos.json")):
        pos, game = load_source(src, backend=reference.Position)
        assert position_string(pos) == final and game is None
    for src in (str(tmp_path / "game.json"), str(tmp_path / "game.szg"), game_string(ex),
                example_path()):
        pos, game = load_source(src, backend=reference.Position)
        assert position_string(pos) == final and game == ex
    pos, game = load_source(example_path(), rule="advanced", backend=reference.Position)
    assert pos.scores() == (11, 11) and game.rule == 1
    pos, game = load_source(final, rule="advanced", backend=reference.Position)
    assert pos.scores() == (11, 11) and game is None


@pytest.mark.parametrize("source, message", [
    ("no/such/file.szg", "no such file: no/such/file.szg"),
    ("", "empty input"),
    ("{", "malformed JSON"),
    ("../....", "position string needs 5 fields"),
    ("1 . 44 64", "'1' starts neither a position string (its rows joined by '/') nor a game "
                  "record (a [Tag] or the round number '1.')"),
    ("44 64", "'44' starts neither a position string"),
])
def test_load_source_errors(source, message, tmp_path):
    with pytest.raises(InputError, match=re.escape(message)):
        load_source(source, backend=reference.Position)
    with pytest.raises(InputError, match="is a directory"):
        load_source(str(tmp_path), backend=reference.Position)


def test_read_record_gives_the_parts_in_order():
    # the shared tag-pair reader, checked part by part on a hand-written record
    text = '[Game "star"]\n[Black "A \\"B\\" \\\\ C"]\n\n1. E5 swap\n2... 9,17 pass\n'
    assert list(read_record(text)) == [
        ("tag", 1, "Game", "star"),
        ("tag", 2, "Black", 'A "B" \\ C'),
        ("round", 4, 1, False, "1."),
        ("word", 4, "E5"), ("word", 4, "swap"),
        ("round", 5, 2, True, "2..."),
        ("word", 5, "9,17"), ("word", 5, "pass"),
    ]
    # a tag line written by tag_line reads back to the same name and value
    for value in ('plain', 'q"uote', 'back\\slash', '\\"'):
        assert list(read_record(tag_line("Event", value))) == [("tag", 1, "Event", value)]
    assert list(read_record("  \n ")) == []


@pytest.mark.parametrize("text, message", [
    ('1. 44\n[Rule basic]', "malformed tag on line 2"),
    ('1. 44 ]', "unexpected ']' on line 1"),
])
def test_read_record_names_the_line_of_a_bad_part(text, message):
    parts = read_record(text)
    assert next(parts) == ("round", 1, 1, False, "1.")     # read lazily, in order
    assert next(parts) == ("word", 1, "44")
    with pytest.raises(ParseError, match=re.escape(message)):
        next(parts)


@pytest.mark.parametrize("game", ["stars-zone", "star", "stargazers"])
def test_every_games_record_refuses_tags_it_could_not_write_back(game):
    """A record is read back as written only if its tags are well formed: each game's
    record refuses a tag name that is not letters, digits and _, and a value that is
    not one line (a Stargazers game took both and wrote a record it could not read)."""
    from szsolver.star.record import GameRecord as StarGameRecord
    from szsolver.stargazers.record import GameRecord as StargazersGameRecord
    make = {"stars-zone": GameRecord, "star": StarGameRecord,
            "stargazers": StargazersGameRecord}[game]
    with pytest.raises(ParseError, match="tag Event: value must be one line"):
        make({"Event": "a\nb"})
    with pytest.raises(ParseError, match="bad tag name 'bad name'"):
        make({"bad name": "x"})
    g = make({"Event": "ok"})
    assert len(g) == 0 and g.final is g.start and g.position_before(0) is g.start
    assert g == make({"Event": "ok"}) and g != make({"Event": "other"})
