"""The registry of the family's games (szsolver.games): one contract for Stars' Zone,
Star and Stargazers."""
import json

import pytest

from szsolver import games
from szsolver.errors import InputError, UnsupportedError
from szsolver.games import COMMANDS, Source

START = "../....../......./......../....N..../......../......./....../.. R 5 5 basic"
STAR = "star:4x5:BWWB/BBWW./BWWBBW/WB.W.WB/BB.BBBWW/BWBWBWW/BWBB.W/WBWW.:B"
STARGAZERS = "stargazers:12-star:1-2:r=9,30:b=16,23"
TEXTS = {"stars-zone": START, "star": STAR, "stargazers": STARGAZERS}


def test_one_entry_a_game_found_by_name_alias_or_text():
    assert games.names() == ["stars-zone", "star", "stargazers"]
    for g in games.GAMES:
        assert games.get(g.name.upper()) is g
        for alias in g.aliases:
            assert games.get(alias) is g
        assert games.of_text(TEXTS[g.name]) is g
    assert games.of_text('[Game "stargazers"] [Board "12-star"] 1. 17').name == "stargazers"
    assert games.of_text("1. 44n66 64").name == "stars-zone"
    with pytest.raises(UnsupportedError, match="unknown game 'go'"):
        games.get("go")


def test_every_game_answers_every_command_and_says_which_options():
    vocabulary = {"rule", "svg", "beams", "final", "diagrams", "time", "wall_clock", "turn",
                  "turn_number", "time_limit", "node_limit", "all_turns", "top", "tt_size",
                  "threads", "quiet", "two_turn_bounds", "workers", "scheduler",
                  "time_per_turn", "exact_turns", "solver_time", "html", "force"}
    for g in games.GAMES:
        assert set(g.commands) == set(COMMANDS) == set(g.options), g
        for command, options in g.options.items():
            assert options <= vocabulary, (g, command, options - vocabulary)
        assert g.takes("solve", "time_limit") and g.takes("solve", "node_limit")
        assert g.takes("annotate", "exact_turns") and g.takes("check", "turn")
    # what only Stars' Zone has
    assert [g.name for g in games.GAMES if g.takes("show", "rule")] == ["stars-zone"]
    assert [g.name for g in games.GAMES if g.takes("solve", "threads")] == ["stars-zone"]


@pytest.mark.parametrize("name", ["stars-zone", "star", "stargazers"])
def test_turns_read_and_written_under_one_vocabulary(name):
    g = games.get(name)
    text = TEXTS[name]
    pos, record = g.load(Source(given=text, text=text))
    assert record is None
    turns = g.legal_turns(pos)
    assert turns
    for t in turns[:20]:
        written = g.format_turn(t, pos)
        assert g.parse_turn(written, pos) == t, (name, written)
    assert g.diagram(pos).strip()
    assert g.svg(pos).lstrip().startswith("<")
    assert g.position_text(pos) == text            # the position string load reads


def test_a_command_answers_with_data_and_text():
    """What a program (the web, batch) asks: the answer, its options by name."""
    for g in games.GAMES:
        pos, record = g.load(Source(text=TEXTS[g.name]))
        answer = g.answer("score", pos, record)
        assert isinstance(answer.data, dict) and answer.text and answer.exit_code == 0
        answer = g.answer("show", pos, record, svg="x.svg")     # the file is the caller's
        assert [path for path, _svg in answer.files] == ["x.svg"]
        assert answer.files[0][1].lstrip().startswith("<")
    with pytest.raises(TypeError, match="star show takes no option beams"):
        games.get("star").answer("show", pos, None, beams=True)


def test_every_game_reads_the_text_alone():
    """What the web and batch hold is text, not a path: every game reads it."""
    record = '[Rule "basic"] 1. 44n66 64'
    for g, text in ((games.DEFAULT, record), (games.get("star"), RECORDS["star"]),
                    (games.get("stargazers"), RECORDS["stargazers"])):
        pos, game = g.load(Source(text=text))
        assert game is not None and game.final == pos and len(game) >= 1
    pos, game = games.DEFAULT.load(Source(text=record), rule="advanced")
    assert game.rule == 1 and pos.rule == 1


def test_a_bad_source_is_bad_input():
    for g in games.GAMES:
        with pytest.raises(InputError):
            g.load(Source(given=f"{g.name}:nonsense", text=f"{g.name}:nonsense"))


# --- the command line, written once against the registry ---------------------------------

RECORDS = {"star": '[Game "star"] [Position "' + STAR + '"] 1. E7 E8 2. H2',
           "stargazers": '[Game "stargazers"] [Board "12-star"] [Protocol "1-2"] 1. 9 16,23'}


def _refusals():
    """(command, the arguments, the flag, the game's title) for every option of a
    command that a game does not take, given to that game's source."""
    from szsolver.cli.app import main
    values = {"--svg": "out.svg", "--time": "1", "--turn": "1", "--time-limit": "1",
              "--node-limit": "10", "--top": "2", "--tt-size": "64", "--threads": "2",
              "--workers": "2", "--scheduler": "tcp://127.0.0.1:1", "--rule": "basic",
              "--time-per-turn": "0.1", "--exact-turns": "2", "--solver-time": "1",
              "--html": "a.html"}
    for g in games.GAMES[1:]:
        for command in COMMANDS:
            params = {p.name: p for p in main.commands[command].params}
            for name, p in params.items():
                if not p.opts[0].startswith("--") or name in ("as_json", "example") \
                        or g.takes(command, name):
                    continue
                flag = max(p.opts, key=len)
                value = [] if p.is_flag else [values[flag]]
                source = RECORDS[g.name] if command in ("annotate", "replay", "check") \
                    else TEXTS[g.name]
                yield command, [source, *([] if command != "check" else ["--turn", "1"]),
                                flag, *value], flag, g.title


@pytest.mark.parametrize("command,args,flag,title", list(_refusals()))
def test_an_option_a_game_does_not_take_is_refused_in_one_place(command, args, flag, title,
                                                                 tmp_path, monkeypatch):
    """Every command, every option a game does not offer: one line naming the command,
    the option and the game, exit code 2, before any work and any file written."""
    from click.testing import CliRunner
    from szsolver.cli.app import main
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, [command, *args])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"Error: {command} does not take {flag} for {title} ("), lines
    assert list(tmp_path.iterdir()) == []


# --- one record base ----------------------------------------------------------------------

def test_one_record_base_replays_and_checks_the_result_for_every_game():
    """The replay, the rounds and sides, and the Result tag's check are the record
    base's, for all three games (each says only how a play is made): one wording of the
    warning, counted alike."""
    from szsolver.formats.record import GameRecord as StarsZoneGameRecord, RecordedGame
    from szsolver.star.record import GameRecord as StarGameRecord
    from szsolver.stargazers.record import GameRecord as StargazersGameRecord
    for cls in (StarsZoneGameRecord, StarGameRecord, StargazersGameRecord):
        assert issubclass(cls, RecordedGame)
        shared = {"play", "_replay", "_check_result", "where", "round_of", "side_of"}
        assert not shared & set(vars(cls)), (cls, shared & set(vars(cls)))
    one_play = {"stars-zone": ('[Result "1-0"] 1. 44', "1 turn", "red-blue"),
                "star": ('[Game "star"] [Result "1-0"] 1. E5', "1 turn", "black-white"),
                "stargazers": ('[Game "stargazers"] [Board "12-star"] [Result "1-0"] 1. 9',
                               "1 turn", "red-blue")}
    for name, (record, played, sides) in one_play.items():
        g = games.get(name)
        _pos, game = g.load(Source(given=record, text=record))
        [warning] = game.warnings
        assert warning.startswith(f"Result tag says 1-0 but the game is unfinished after "
                                  f"{played} (scores now "), name
        assert game.where(0) == f"round 1, {sides.split('-')[0]}"
        bad = record.replace('"1-0"', '"won"')
        with pytest.raises(InputError, match=f"use the final scores {sides} like"):
            g.load(Source(given=bad, text=bad))
        junk = record + " junk"          # a play that is none, named by round and side
        with pytest.raises(InputError, match="^round 1, "):
            g.load(Source(given=junk, text=junk))


@pytest.mark.parametrize("name, record, written", [
    ("stars-zone", "1. 44n66 45", ["44n66", "45"]),
    ("star", '[Game "star"] 1. E5 swap 2. D3', ["E5", "swap", "D3"]),
    ("stargazers", '[Game "stargazers"] 1. 9 16,23 2. 30', ["9", "16,23", "30"])])
def test_every_games_record_keeps_its_turns_under_one_name(name, record, written):
    """A record of any of the three games holds what each side played under ``turns``
    and is built again from its tags and ``turns=`` (Star's record called them
    ``moves``, and its constructor took ``moves=``); a Stargazers turn stays its one or
    two placements."""
    entry = games.get(name)
    _pos, game = entry.load(Source(given=record, text=record))
    assert [entry.format_turn(t, game.position_before(i))
            for i, t in enumerate(game.turns)] == written
    assert len(game) == len(written)
    again = type(game)(game.tags, turns=game.turns)
    assert again == game and again.final == game.final
    if name == "stargazers":
        assert [len(t) for t in game.turns] == [1, 2, 1]


def test_star_and_stargazers_name_their_game_tag_word_alike():
    """The word in a record's Game tag (and a position string's prefix) is GAME_NAME in
    both games' modules, the registry's name for the game."""
    from szsolver.star.position import GAME_NAME as star_name
    from szsolver.stargazers.record import GAME_NAME as stargazers_name
    assert (star_name, stargazers_name) == (games.get("star").name,
                                            games.get("stargazers").name)


LATE = {"stars-zone": None,            # the rulebook game's position, 4 turns left
        "star": STAR,
        "stargazers": "stargazers:12-star:1-2:r=2,3,4,6,8,9,10,13,14,16,20,21,24,29,32:"
                      "b=7,15,18,19,23,25,26,30,31,33,36,37,39,43,44,45"}


@pytest.mark.parametrize("name", ["stars-zone", "star", "stargazers"])
def test_one_limits_contract(name):
    """Every game's solve under one contract: proved, it is exact with a pv and
    stopped None; stopped by a limit, it returns the bounds proved and says what
    stopped it, never an exception."""
    g = games.get(name)
    late = (Source(example=True, example_turns_left=4) if LATE[name] is None
            else Source(text=LATE[name]))
    pos, _ = g.load(late)
    res = g.solve(pos)
    assert res.exact and res.stopped is None and res.lower == res.upper and res.pv
    assert all(isinstance(g.format_turn(t, pos), str) for t in res.pv)
    if name == "star":
        from szsolver.star.position import Position
        start = Position()                  # the empty standard board
    else:
        start, _ = g.load(Source(text=TEXTS[name]))
    cut = g.solve(start, node_limit=2000)
    assert not cut.exact and cut.stopped and cut.lower <= cut.upper


# --- one vocabulary inside the games' packages -------------------------------------------

def test_the_games_packages_name_alike_what_is_alike():
    """The solver's answer, the judge's answer and the engine's answer carry one name
    in the three games, and their functions take the contract's words."""
    import inspect
    from szsolver.analysis import check as sz_check
    from szsolver.endgame import prover as sz_prover, solver as sz_solver
    from szsolver.engine import search as sz_engine
    from szsolver.star import analysis as star_analysis, engine as star_engine, \
        position as star_position, solver as star_solver
    from szsolver.stargazers import analysis as sg_analysis, engine as sg_engine, \
        solver as sg_solver
    for name, modules in (("SolveResult", (sz_prover, star_solver, sg_solver)),
                          ("CheckResult", (sz_check, star_analysis, sg_analysis)),
                          ("EngineResult", (sz_engine, star_engine, sg_engine)),
                          ("TurnValue", (sz_prover, star_solver))):
        assert all(hasattr(m, name) for m in modules), name
    for solve in (sz_solver.solve, star_solver.solve, sg_solver.solve):
        assert "all_turns" in inspect.signature(solve).parameters, solve.__module__
    for f in (star_analysis.check, star_analysis.annotate, sg_analysis.check,
              sg_analysis.annotate):
        assert "exact_turns" in inspect.signature(f).parameters, f.__module__
    assert "time_per_turn" in inspect.signature(star_analysis.annotate).parameters
    assert "engine_seconds" in inspect.signature(star_analysis.check).parameters
    assert hasattr(star_position.Position, "legal_turns")
    assert "pv" in sg_solver.SolveResult.__dataclass_fields__
    assert "pv" in sg_engine.EngineResult.__dataclass_fields__
    assert "turns" in star_solver.SolveResult.__dataclass_fields__
    assert "turn" in star_solver.TurnValue.__dataclass_fields__
    assert "turn" in star_analysis.CheckResult.__dataclass_fields__
    assert "turn" in star_engine.EngineResult.__dataclass_fields__


@pytest.mark.parametrize("number", ["0", "99", "-" + "9" * 20, "9" * 20])
def test_a_turn_number_outside_the_record_is_worded_alike_in_every_game(number):
    """``check RECORD --turn N`` with no turn N: one line, exit code 2, one wording
    for the three games (only the numbers differ), however large N is (past 64 bits
    it was the option's own bound: 'must be at least -9223372036854775807')."""
    import re
    from click.testing import CliRunner
    from szsolver.cli.app import main
    records = {"stars-zone": "1. 44n66 64", "star": '[Game "star"] 1. E5 swap 2. A10',
               "stargazers": RECORDS["stargazers"]}
    said = {}
    for name, record in records.items():
        r = CliRunner().invoke(main, ["check", record, "--turn", number])
        assert r.exit_code == 2, (name, r.output)
        lines = r.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"Error: turn {number} "), (name, lines)
        said[name] = re.sub(r"\d+", "N", lines[0])
    assert len(set(said.values())) == 1, said
    want = ("Error: turn N was not played: the record ends after turn N"
            if number.startswith("9") else
            f"Error: turn {'-' * number.startswith('-')}N is outside the game (turns N-N)")
    assert said["star"] == want


@pytest.mark.parametrize("name", ["stars-zone", "star", "stargazers"])
def test_an_annotation_saved_with_json_reads_back_as_its_game(name, tmp_path):
    """``annotate --json > a.json``, then a.json as the SOURCE of a command that reads a
    game: the annotation's game, tags and turns (it said "game JSON: unknown key
    'cpu_seconds'" for Stars' Zone, 'seconds' for Star)."""
    record = {"stars-zone": "[Red \"A\"]\n\n1. 44n66 64 2. 41",
              "star": '[Game "star"] 1. E5 swap 2. A10', "stargazers": RECORDS["stargazers"]}[name]
    printed = _cli(["annotate", record, "--time-per-turn", "0.05", "--json"])
    assert printed.exit_code == 0, printed.output
    saved = tmp_path / "a.json"
    saved.write_text(printed.stdout)
    game = json.loads(printed.stdout)["game"]
    replay = _cli(["replay", str(saved), "--json"])
    assert replay.exit_code == 0, replay.output
    assert json.loads(replay.stdout) == json.loads(_cli(["replay", record, "--json"]).stdout)
    assert json.loads(replay.stdout)["game"] == game
    check = _cli(["check", str(saved), "--turn", "2", "--json"])
    assert check.exit_code == 0, check.output
    assert json.loads(check.stdout)["played"] == game["turns"][1]
    again = _cli(["annotate", str(saved), "--time-per-turn", "0.05", "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["game"] == game


def test_a_record_of_another_game_is_refused_in_one_wording():
    """Star's and Stargazers' record readers refuse a Game tag naming another game
    alike (the record base words it)."""
    import re
    from szsolver.errors import ParseError
    from szsolver.star.record import GameRecord as StarGameRecord
    from szsolver.stargazers.record import GameRecord as StargazersGameRecord
    said = []
    for cls in (StarGameRecord, StargazersGameRecord):
        with pytest.raises(ParseError) as e:
            cls({"Game": "Go"})
        said.append(re.sub(r"Star(gazers)?|star(gazers)?", "G", str(e.value)))
    assert said[0] == said[1] == "Game tag 'Go': a G record has [Game \"G\"]"


# --- progress: every game's long commands show their work alike ---------------------------

#: positions where ``best`` searches a tree (the solver is far): the start of each game
EARLY = {"stars-zone": START, "star": "star:5x6:...../....../......./......../........./"
         "........../........./......../......./......:B",
         "stargazers": STARGAZERS}


def _masked(text: str) -> str:
    """An answer's text with the seconds it took left out (the only part that varies)."""
    import re
    return re.sub(r"\d+(\.\d+)? s\.", "N s.", text)


def _timeless(data):
    """A JSON answer without the seconds it (and each judged turn) took."""
    if isinstance(data, dict):
        return {k: _timeless(v) for k, v in data.items() if k != "seconds"}
    if isinstance(data, list):
        return [_timeless(v) for v in data]
    return data


def _cli(args):
    from click.testing import CliRunner
    from szsolver.cli.app import main
    return CliRunner().invoke(main, args)


@pytest.mark.parametrize("name", ["stars-zone", "star", "stargazers"])
def test_best_shows_the_engine_at_work_on_a_terminal_and_answers_the_same(name, on_a_terminal):
    """On a terminal ``best`` draws a progress line (the tree search's iterations) on
    stderr and clears it before the answer, which is the answer given off a terminal
    (where nothing is drawn)."""
    args = ["best", EARLY[name], "--time", "0.2"]
    plain = _cli(args)
    assert plain.exit_code == 0 and plain.stderr == "", plain.output
    code, out, err = on_a_terminal(args)
    assert code == 0
    err = err.decode()
    assert "tree search: " in err and " iterations" in err, err
    assert err.endswith("\r\x1b[K")               # the line is cleared
    assert _masked(out) == _masked(plain.stdout)


@pytest.mark.parametrize("name", ["star", "stargazers"])
def test_solve_shows_the_nodes_on_a_terminal_and_answers_the_same(name, on_a_terminal):
    """Star's and Stargazers' exact solvers count their nodes on the progress line
    (Stars' Zone's shows its probes: tests/test_solve_progress.py); the answer, here
    bounds where the node limit stopped the search (exit code 3), is the same."""
    args = ["solve", EARLY[name], "--node-limit", "3000"]
    plain = _cli(args)
    assert plain.exit_code == 3, plain.output
    code, out, err = on_a_terminal(args)
    assert code == 3
    err = err.decode()
    assert "exact solver: 1,024 nodes (at most 3,000)" in err, err
    assert err.endswith("\r\x1b[K")
    assert _masked(out) == _masked(plain.stdout)


@pytest.mark.parametrize("name", ["star", "stargazers"])
def test_annotate_shows_the_turns_judged_on_a_terminal_and_answers_the_same(name,
                                                                            on_a_terminal):
    """Star and Stargazers ``annotate`` draw Stars' Zone's bar of the turns judged, and
    clear it before the answer, which is the answer given without it."""
    args = ["annotate", RECORDS[name], "--time-per-turn", "0.1"]
    plain = _cli(args + ["--json"])
    assert plain.exit_code == 0, plain.output
    n = len(json.loads(plain.stdout)["turns"])
    code, out, err = on_a_terminal(args)
    assert code == 0
    err = err.decode()
    assert f"] 0 of {n} turns judged; turn 1, round 1" in err, err
    assert err.endswith("\r\x1b[K")
    assert _masked(out) == _masked(_cli(args).stdout)
    # --json on a terminal: the line still drawn on stderr, the same JSON on stdout
    code, out, err = on_a_terminal(args + ["--json"])
    assert code == 0 and "turns judged" in err.decode()
    assert _timeless(json.loads(out)) == _timeless(json.loads(plain.stdout))


@pytest.mark.parametrize("name", ["stars-zone", "star", "stargazers"])
def test_every_game_asks_for_the_progress_line_stars_zone_asks_for(name, monkeypatch):
    """``best`` and ``check``: a line on a terminal, none with --json; ``annotate``: a
    line on a terminal, plain lines off one unless --json (a log of a long run);
    ``solve``: a line on a terminal, plain lines off one, none with --json: the
    command line's one progress printer, told what the work is, in every game."""
    import szsolver.cli.games as cli_games
    asked, told = [], []

    class Line:
        def __call__(self, msg):
            told.append(msg)
        note = __call__

        def close(self):
            pass

    def printer(enabled=True, lines=False):
        asked.append((enabled, lines))
        return Line() if enabled else None
    monkeypatch.setattr(cli_games, "progress_printer", printer)
    source = {"stars-zone": TEXTS["stars-zone"], **RECORDS}[name]
    commands = [["best", EARLY[name], "--time", "0.1"]]
    if name != "stars-zone":    # Stars' Zone's check and annotate: tests/test_check.py,
        commands += [["check", source, "--turn", "1", "--time-limit", "0.1"],  # test_annotate.py
                     ["annotate", source, "--time-per-turn", "0.1"],
                     ["solve", EARLY[name], "--node-limit", "3000"]]
    for args in commands:
        for as_json in (False, True):
            asked.clear()
            told.clear()
            r = _cli(args + ["--json"] * as_json)
            assert r.exit_code == (3 if args[0] == "solve" else 0), r.output
            want = {"annotate": (True, not as_json),
                    "solve": (not as_json, True)}.get(args[0], (not as_json, False))
            assert asked == [want], (args, as_json)
            assert bool(told) == want[0], (args, as_json, told)
