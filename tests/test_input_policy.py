"""One input policy for numbers and names (:mod:`szsolver.inputs`), on every way in.

Numbers are ASCII digits: ``٥`` (Arabic-Indic), ``５`` (fullwidth), ``+5`` and ``0x5``
are refused, and a number of thousands of digits is refused as too large before it is
converted (``int()`` stops at 4,300 digits: that was an internal error). Names (rules,
boards, grades, puzzle IDs, game prefixes) are read in any case and printed in lower
case. Bad input is one line ``Error: ...`` and exit code 2 from a command (a 4xx from
the web), and the message never echoes thousands of characters.
"""
import json

import pytest
from click.testing import CliRunner

from szsolver import inputs
from szsolver.cli import main
from szsolver.errors import ParseError, UnknownPuzzleError
from szsolver.formats.notation import json_loads
from szsolver.rules.geometry import STARS_ZONE, by_name
from szsolver.rules.text import parse_position_fields

HUGE = "9" * 5000
#: numbers a user might type that are not numbers here (each would be read as 5 or
#: taken by int()/float() otherwise)
NOT_NUMBERS = ["\u0665", "\uff15", "+5", "0x5", "5_0", " \u0665 "]
BAD = NOT_NUMBERS + [HUGE]
ROWS = "../....../......./......../....N..../......../......./....../.."
START = f"{ROWS} R 5 5 basic"
LATE = "R./.NN..B/N.R.R../RB.RRR../BR.BN..R./B.BBN.../RBRNB../B.BNRB/BR R 1 3 basic"
STAR = ("star:5x6:...../....../......./......../........./........../........./......../"
        "......./......:B")


def run(*args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], **kw)


def one_line_error(r) -> str:
    """The one 'Error: ...' line of a command refused as bad input (exit 2)."""
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.exit_code == 2, (r.exit_code, r.stdout[:200], r.stderr[:300])
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr[:300]
    assert r.stdout == ""
    assert len(lines[0]) < 400, lines[0][:200]         # never 5000 characters echoed
    return lines[0]


def json_of(r) -> dict:
    assert r.exit_code == 0, (r.stdout[:300], r.stderr[:300])
    return json.loads(r.stdout)


# --- the helpers --------------------------------------------------------------------------

def test_numbers_are_ascii_digits_and_bounded():
    assert inputs.number("17", "cell") == 17
    assert inputs.number(" 0007 ", "cell") == 7
    assert inputs.number("-3", "x", negative=True) == -3
    for text in NOT_NUMBERS + ["-5", "", "5.0", "1e3", "\u00b2"]:
        with pytest.raises(ParseError, match="must be a number"):
            inputs.number(text, "cell")
    with pytest.raises(ParseError, match="too large: at most 18 digits"):
        inputs.number("1" * 19, "cell")
    with pytest.raises(ParseError, match=r"too large: at most 7, got '9{40}\.\.\.' \(5000 "):
        inputs.number(HUGE, "neutrals", hi=7)
    with pytest.raises(ParseError, match="too large"):
        inputs.number("0" * 5000 + "8", "neutrals", hi=7)      # leading zeros: no int() of 5001
    assert inputs.number("0" * 5000 + "7", "neutrals", hi=7) == 7
    assert not any(inputs.is_digits(t) for t in NOT_NUMBERS + ["", "\u00b2"])


def test_names_fold_ascii_case_only():
    assert inputs.name_key(" Stars-Zone ") == "stars-zone"
    assert inputs.choice("HARD", ("easy", "hard"), "grade") == "hard"
    for text in ("\uff28\uff21\uff32\uff24", "\u212aard"):      # fullwidth HARD, a Kelvin sign
        with pytest.raises(ParseError, match="unknown grade"):
            inputs.choice(text, ("easy", "hard", "kard"), "grade")


def test_dates_are_ascii():
    assert str(inputs.iso_date(" 2026-11-23 ")) == "2026-11-23"
    for text in ("\uff12\uff10\uff12\uff16-11-23", "2026-11-\u0662\u0663", "+2026-11-23",
                 HUGE, "2026-02-30"):
        with pytest.raises(ParseError, match="bad date"):
            inputs.iso_date(text)


# --- Stars' Zone positions, records, turns --------------------------------------------------

@pytest.mark.parametrize("count", BAD)
def test_position_counts(count):
    with pytest.raises(ParseError, match="red neutrals left"):
        parse_position_fields(f"{ROWS} R {count} 5 basic")
    msg = one_line_error(run("show", f"{ROWS} R {count} 5 basic"))
    assert "red neutrals left" in msg and ("too large" in msg) == (count == HUGE)
    one_line_error(run("show", f"{ROWS} R 5 {count} basic"))


def test_position_rule_in_any_case_prints_lower_case():
    for rule in ("BASIC", "Basic"):
        assert json_of(run("show", f"{ROWS} R 5 5 {rule}", "--json"))["position"]["position"] \
            == START
    assert json_of(run("score", "--example", "--rule", "ADVANCED", "--json"))["scores"] \
        == json_of(run("score", "--example", "--rule", "advanced", "--json"))["scores"]
    game = json_of(run("replay", '[Rule "ADVANCED"]\n[Board "Stars-Zone"]\n\n1. 44', "--json"))
    assert game["final"]["position"].endswith(" advanced")


@pytest.mark.parametrize("value", BAD + [f"5 {HUGE}"])
def test_record_neutrals_tag(value):
    msg = one_line_error(run("show", f'[Neutrals "{value}"]\n\n1. 44'))
    assert "Neutrals tag" in msg


@pytest.mark.parametrize("result", [f"{HUGE}-1", "\u0661\u0666-14", "+16-14"])
def test_record_result_tag(result):
    assert "Result tag" in one_line_error(run("show", f'[Result "{result}"]\n\n1. 44'))


@pytest.mark.parametrize("point", ["\u0664\u0664", "\uff14\uff14", "4,\u0664", "+4,4", "0x4,4",
                                   f"{HUGE},4", f"4,{HUGE}", "4_4,4", "-4,4"])
def test_points_and_turns(point):
    with pytest.raises(ParseError, match="bad point"):
        STARS_ZONE.parse_point(point)
    one_line_error(run("check", LATE, point))
    one_line_error(run("show", f"1. {point}"))
    assert STARS_ZONE.parse_point(" 4,4 ") == STARS_ZONE.parse_point("44")


@pytest.mark.parametrize("turn", BAD)
def test_check_turn_number(turn):
    one_line_error(run("check", "--example", "--turn", turn))


# --- numbers in JSON ------------------------------------------------------------------------

#: JSON a user may give, each with a number of 5000 digits where a number belongs
HUGE_JSON = [
    ("show", '{"type": "position", "red": [[' + HUGE + ', 4]], "blue": [], "neutral": [[5, 5]], '
             '"side": "red", "rule": "basic"}'),
    ("show", '{"type": "game", "turns": [], "neutrals": [' + HUGE + ', 5]}'),
    ("show", '{"game": "star", "moves": [' + HUGE + ']}'),
    ("show", '{"game": "stargazers", "position": ' + HUGE + '}'),
    ("puzzle", "solve", '{"board": "stars-zone", "stars": ' + HUGE + '}'),
]


@pytest.mark.parametrize("args", HUGE_JSON, ids=lambda a: a[-1][:30])
def test_huge_numbers_in_json(args):
    msg = one_line_error(run(*args))
    assert "too large: at most 18 digits" in msg and "sys." not in msg, msg[:200]
    with pytest.raises(ParseError, match="too large: at most 18 digits"):
        json_loads("[-" + HUGE + "]")
    assert json_loads("[-" + "9" * 18 + ", 0]") == [-int("9" * 18), 0]


# --- file names ----------------------------------------------------------------------------

#: commands given a file name of 5000 characters, to read, write or connect to ({out}: a
#: directory of the test's own): the message shows the name cut, never 5 KB of it
LONG_NAMES = [
    ("show", HUGE),
    ("puzzle", "solve", HUGE),
    ("puzzle", "check", HUGE, "1 2"),
    ("batch", "solve", HUGE, "{out}/o.jsonl"),
    ("batch", "annotate", HUGE, "{out}/o"),
    ("show", "--example", "--svg", f"{HUGE}.svg"),
    ("selfplay", "--games", "1", "--out", HUGE),
    ("batch", "solve", "--example", "--scheduler", f"tcp://127.0.0.1:{HUGE}", "{out}/o.jsonl"),
]


@pytest.mark.parametrize("args", LONG_NAMES, ids=lambda a: " ".join(x[:12] for x in a))
def test_file_names_in_messages_are_cut(args, tmp_path):
    msg = one_line_error(run(*(a.replace("{out}", str(tmp_path)) for a in args)))
    assert "9" * 20 in msg and "9" * (inputs.SHOWN_PATH + 1) not in msg, msg[:200]
    assert len(msg) < inputs.SHOWN_PATH + 150, msg[:300]


# --- Stargazers and Star ------------------------------------------------------------------

@pytest.mark.parametrize("cell", BAD)
def test_stargazers_cells(cell):
    one_line_error(run("show", f"stargazers:12-star:1-2:r={cell}:b="))
    one_line_error(run("show", f"stargazers:12-star:1-2:r=2:b=3,{cell}"))
    one_line_error(run("show", f'[Game "stargazers"]\n\n1. {cell}'))


@pytest.mark.parametrize("size", BAD)
def test_star_board_sizes(size):
    one_line_error(run("show", STAR.replace("5x6", f"{size}x6", 1)))
    one_line_error(run("show", STAR.replace("5x6", f"5x{size}", 1)))


# --- boards -------------------------------------------------------------------------------

@pytest.mark.parametrize("size", BAD)
def test_board_names(size):
    with pytest.raises(ValueError):
        by_name(f"square-{size}")
    one_line_error(run("starmap", "--board", f"square-{size}"))
    one_line_error(run("starmap", "--board", f"{size}x{size}"))
    one_line_error(run("show", f'[Board "square-{size}"]\n\n1. 44'))


def test_boards_and_game_prefixes_in_any_case():
    assert by_name("SQUARE-8") == by_name("square-8")
    data = json_of(run("starmap", "--board", "SQUARE-8", "--rule", "BASIC", "--json"))
    assert (data["board"], data["rule"]) == ("square-8", "basic")
    data = json_of(run("show", "STARGAZERS:12-STAR:1-2:r=:b=", "--json"))
    assert data["position"]["position"] == "stargazers:12-star:1-2:r=:b=" and data["board"] == "12-star"
    upper = "STAR:5X6" + STAR[len("star:5x6"):]
    assert json_of(run("show", upper, "--json"))["position"]["position"] == STAR



@pytest.mark.parametrize("name", ["chess", "", "  ", "stars zone", "HEX", HUGE])
def test_a_game_tag_naming_no_game_is_refused(name):
    for text in (f'[Game "{name}"] 1. 44 64', f'[Game "{name}"]\n[Rule "basic"]\n\n1. 44n66'):
        msg = one_line_error(run("show", text))
        assert "unknown game" in msg and "stars-zone, stargazers or star" in msg, msg
    one_line_error(run("replay", "--json", json.dumps(
        {"type": "game", "tags": {"Game": name}, "turns": ["44"]})))


def test_game_tags_in_any_case():
    plain = json_of(run("show", "1. 44 64", "--json"))
    for name in ("stars-zone", "STARS-ZONE", " Stars-Zone "):
        assert json_of(run("show", f'[Game "{name}"] 1. 44 64', "--json"))["position"] \
            == plain["position"]
    star = json_of(run("show", '[Game "STAR"] 1. E5', "--json"))
    assert star == json_of(run("show", '[Game "star"] 1. E5', "--json"))

# --- puzzles: IDs, seeds, dates, grades, days ------------------------------------------------

@pytest.mark.parametrize("seed", BAD)
def test_puzzle_ids(seed):
    for pid in (f"sz-easy-{seed}", f"sq9-easy-{seed}", f"eg-basic-medium-{seed}",
                f"sz-easy-d{seed}"):
        with pytest.raises(UnknownPuzzleError):
            from szsolver.starmaps.ids import check_id
            from szsolver.puzzles.endgame import parse_id
            (parse_id if pid.startswith("eg") else check_id)(pid)
        cmd = ["puzzle", "endgame", "show"] if pid.startswith("eg") else ["puzzle", "show"]
        one_line_error(run(*cmd, pid))


def test_puzzle_ids_in_any_case_are_the_lower_case_ones():
    for pid in ("SZ-HARD-7", "Sz-Hard-7"):
        assert json_of(run("puzzle", "show", pid, "--json"))["id"] == "sz-hard-7"
    assert json_of(run("puzzle", "endgame", "show", "EG-BASIC-MEDIUM-1", "--json"))["id"] \
        == "eg-basic-medium-1"


@pytest.mark.parametrize("seed", [HUGE, "\u0665", "+5", "0x5"])
def test_puzzle_seeds(seed, tmp_path):
    out = tmp_path / "out"
    one_line_error(run("puzzle", "generate", "--seed", seed, "--count", "2", "--out", out))
    one_line_error(run("puzzle", "endgame", "generate", "--seed", seed))
    assert not out.exists()


def test_puzzle_grades_and_boards_in_any_case():
    data = json_of(run("puzzle", "generate", "--board", "SQUARE-8", "--grade", "EASY",
                       "--rule", "BASIC", "--json"))
    assert (data["id"], data["grade"]) == ("sq8-easy-1", "easy")
    one_line_error(run("puzzle", "generate", "--grade", "\uff25\uff21\uff33\uff39"))
    one_line_error(run("puzzle", "endgame", "generate", "--grade", "\uff25\uff21\uff33\uff39"))


@pytest.mark.parametrize("date", ["\uff12\uff10\uff12\uff16-11-23", "2026-11-\u0662\u0663",
                                  HUGE, "+2026-11-23", f"2026-11-{HUGE}"])
def test_dates(date, tmp_path):
    one_line_error(run("puzzle", "daily", "--date", date))
    one_line_error(run("puzzle", "endgame", "daily", "--date", date))
    out = tmp_path / "out"
    one_line_error(run("batch", "puzzles", out, "--start", date, "--days", "1"))
    assert not out.exists()


def test_daily_rule_in_any_case():
    a = json_of(run("puzzle", "endgame", "daily", "--date", "2026-11-23", "--rule", "BASIC",
                    "--json"))
    assert a["id"] == "eg-basic-d20261123"


@pytest.mark.parametrize("days", BAD + ["1e3"])
def test_days(days, tmp_path):
    out = tmp_path / "out"
    one_line_error(run("batch", "puzzles", out, "--start", "2026-01-01", "--days", days))
    one_line_error(run("batch", "puzzles", out, "--start", "9999-12-30", "--days", "3"))
    assert not out.exists()


@pytest.mark.parametrize("value", NOT_NUMBERS)
def test_seconds_are_ascii(value):
    msg = one_line_error(run("solve", "--example", "--time-limit", value))
    assert "not a number of seconds" in msg


# --- the web ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from szsolver.web.app import create_app
    app = create_app(warm_daily=False, workers=1)
    yield TestClient(app, raise_server_exceptions=False, base_url="http://127.0.0.1")      # no jobs: all answered in-process
    app.state.web.jobs.shutdown()


def web_error(r, status=(400, 404)) -> str:
    assert r.status_code in status, (r.status_code, r.text[:300])
    msg = r.json()["error"]
    assert "\n" not in msg and len(msg) < 400, msg[:200]
    return msg


@pytest.mark.parametrize("seed", BAD)
def test_web_puzzle_ids(client, seed):
    for pid in (f"sz-easy-{seed}", f"sq9-easy-{seed}", f"sz-easy-d{seed}"):
        web_error(client.get(f"/api/puzzles/{pid}"))
        web_error(client.get(f"/api/puzzles/{pid}/steps"))
        web_error(client.post(f"/api/puzzles/{pid}/check", json={"stars": ["44"]}))


def test_web_names_in_any_case(client):
    r = client.get("/api/puzzles/SZ-HARD-7")
    assert r.status_code == 200 and r.json()["id"] == "sz-hard-7"
    r = client.post("/api/score", json={"position": f"{ROWS} R 5 5 ADVANCED"})
    assert r.status_code == 200, r.text
    assert r.json() == client.post("/api/score",
                                   json={"position": f"{ROWS} R 5 5 advanced"}).json()


@pytest.mark.parametrize("date", ["\uff12\uff10\uff12\uff16-11-23", HUGE, "+2026-11-23"])
def test_web_dates(client, date):
    assert "bad date" in web_error(client.get("/api/puzzles/daily", params={"date": date}))


@pytest.mark.parametrize("count", BAD)
def test_web_neutral_counts(client, count):
    assert "red neutrals left" in web_error(client.post(
        "/api/score", json={"position": f"{ROWS} R {count} 5 basic"}))
    web_error(client.post("/api/score", json={"position": f'[Neutrals "{count}"]\n\n1. 44'}))


def test_web_huge_json_integers(client):
    body = ('{"position": {"board": "stars-zone", "red": [], "blue": [], "neutral": [[5, 5]], '
            '"side": "red", "rule": "basic", "neutrals_left": {"red": ' + HUGE + ', "blue": 5}}}')
    msg = web_error(client.post("/api/score", content=body,
                                headers={"content-type": "application/json"}), (400,))
    assert "too large: at most 18 digits" in msg and "sys." not in msg, msg


def test_an_option_names_its_own_cap():
    """--games and --neutrals say the cap they have (they named 2**63 - 1, then refused
    100,001 games and 8 neutrals with another message)."""
    from click.testing import CliRunner
    from szsolver.cli import main
    for args, cap in ((["--games", "9223372036854775808"], "100000"),
                      (["--games", "100001"], "100000"), (["--neutrals", "8"], "7")):
        r = CliRunner().invoke(main, ["selfplay", "--out", "never-made", *args])
        assert r.exit_code == 2 and f"at most {cap}," in r.stderr, r.output


# --- whitespace and invisible characters --------------------------------------------------

@pytest.mark.parametrize("turn, fix", [("44 n66", "44n66"), ("44n 66", "44n66"),
                                       ("4 4", "44"), ("4, 4", "4,4"), ("44\u00a0n66", "44n66")])
def test_a_turn_has_no_space_inside_wherever_it_is_read(turn, fix):
    # `check POS TURN` reads the turn as a record does: spaces separate turns, so a
    # space inside one is refused on both ways in, with the text to write instead.
    line = one_line_error(run("check", START, turn))
    assert "has no space inside" in line and f"(write {fix})" in line, line
    record = one_line_error(run("show", f"1. {turn} 64"))
    assert record.startswith("Error: round 1, "), record



def test_spaces_around_a_turn_are_no_part_of_it():
    def answer(turn):
        return {k: v for k, v in json_of(run("check", LATE, turn, "--json")).items()
                if k != "seconds"}
    assert answer(" 15n23\u00a0") == answer("15n23")


def test_a_stargazers_turn_has_no_space_inside():
    line = one_line_error(run("check", "stargazers:12-star:1-2:r=9,30:b=16,23", "17, 20"))
    assert "(write 17,20)" in line, line


@pytest.mark.parametrize("text", ["1. 44n66\u200b 64", "1. 4\u200b4n66 64",
                                  f"{ROWS} R 5 5\u200b basic", f"{ROWS} R\u00ad 5 5 basic"])
def test_an_invisible_character_is_named(text):
    # its quoted form alone ('44n66\u200b') hides what to delete
    line = one_line_error(run("show", text))
    assert "invisible U+200B ZERO WIDTH SPACE" in line or \
        "invisible U+00AD SOFT HYPHEN" in line, line


@pytest.mark.parametrize("text, said", [
    ("\u200bstargazers:12-star:1-2:r=9,30:b=16,23", "is no file, and no position"),
    ('[Rule "basic"\u200b]\n1. 44', "malformed tag on line 1"),
    (f"{ROWS[:20]}\u200b{ROWS[20:]} R 5 5 basic", "(column 21)")])
def test_an_invisible_character_is_named_where_the_text_is_not_read(text, said):
    line = one_line_error(run("show", text))
    assert said in line and "invisible U+200B ZERO WIDTH SPACE" in line, line


@pytest.mark.parametrize("text, said", [
    ("1. 44 n66 64", "(a space inside a turn? 44n66 is one turn)"),
    ("1. 44n 66 64", "(a space inside a turn? write it without one)"),
    ('[Game "stargazers"] 1. 9 16, 23', "(a space inside a turn? write it without one)"),
    ("stargazers:12-star:1-2:r=9, 30:b=16,23", "(write stargazers:12-star:1-2:r=9,30:b=16,23)"),
    (STAR.replace("/", " /", 1), "a Star position string has no space inside")])
def test_a_space_inside_a_turn_of_a_record_or_a_position_says_so(text, said):
    assert said in one_line_error(run("show", text))


@pytest.mark.parametrize("game, turn, fix", [
    ("stargazers:12-star:1-2:r=9,30:b=16,23", "2 3", "2,3"),     # not 23: another cell
    (START, "6 4", "64")])
def test_the_text_to_write_instead_is_the_turn_meant(game, turn, fix):
    assert one_line_error(run("check", game, turn)).endswith(f"(write {fix})")


def test_no_text_to_write_where_the_spaces_part_two_turns():
    line = one_line_error(run("replay", '{"type": "game", "turns": ["44n66 64"]}'))
    assert line.endswith("a turn has no space inside"), line


def test_a_position_strings_letters_are_read_in_any_case():
    lower = START.replace("N", "n").replace(" R ", " r ").replace("basic", "BASIC")
    assert json_of(run("show", lower, "--json")) == json_of(run("show", START, "--json"))
    sg = "stargazers:12-star:1-2:r=9,30:b=16,23"
    assert json_of(run("show", sg.upper(), "--json")) == json_of(run("show", sg, "--json"))


def test_any_unicode_whitespace_separates_a_position_string_and_a_record():
    spaced = json_of(run("show", f"{ROWS}\u3000R\u00a05\t5 basic", "--json"))
    assert spaced == json_of(run("show", START, "--json"))
    # a vertical tab or a line separator is whitespace too, not a line break
    assert json_of(run("show", f"{ROWS}\vR\u20285\x1c5 basic", "--json")) == spaced
    game = json_of(run("replay", "1.\u00a044n66\u200a64\u20032. 41", "--json"))
    assert game == json_of(run("replay", "1. 44n66 64 2. 41", "--json"))
