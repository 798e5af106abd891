"""The web app's JSON API (Starlette's TestClient, the app's own lifespan and job
processes), the puzzle page's data, and the page's JavaScript rules run in node
against the Python checker and solver.

Every answer that mirrors a CLI command is compared with that command's ``--json``
output (run in-process with click's CliRunner): the same JSON, not a look-alike.
"""
import hashlib
import json
import math
import os
import shutil
import socket
import subprocess
import time

import anyio
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

# one worker of a parallel run (-n, --dist loadgroup) runs them all: one app and its
# job processes
pytestmark = pytest.mark.xdist_group("web api")

import warnings  # noqa: E402

from click.testing import CliRunner  # noqa: E402

with warnings.catch_warnings():       # Starlette 1.x prefers httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from szsolver import errors  # noqa: E402
from szsolver.cli import main  # noqa: E402
from szsolver.formats.record import example_game  # noqa: E402
from szsolver.formats.notation import position_string  # noqa: E402
from szsolver.starmaps.generate import collection_index, load_collection  # noqa: E402
from szsolver.starmaps.io import stars_from_points, stars_to_points  # noqa: E402
from szsolver.starmaps.model import check_solution, solution_problems, star_patterns  # noqa: E402
from szsolver.web import analysis as an  # noqa: E402
from szsolver.web import assets, guard, puzzles  # noqa: E402
from szsolver.web.app import MAX_BODY, create_app  # noqa: E402
from szsolver.web.jobs import Busy, Gone, Jobs, TimedOut  # noqa: E402

BASE = "http://127.0.0.1"     # the Host the app serves (a TestClient's own is "testserver")
STATIC = os.path.join(os.path.dirname(puzzles.__file__), "static")
DATE = "2026-11-23"            # a Monday: an easy daily, quick to generate
LATE = position_string(example_game().positions[-5])   # 4 turns left, Red wins with 38


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(warm_daily=False, workers=2), base_url=BASE) as c:
        yield c


def cli_json(*args):
    r = CliRunner().invoke(main, [*args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def without(d, *keys):
    return {k: v for k, v in d.items() if k not in keys}


# --- the same JSON as the CLI ----------------------------------------------------------------

def test_daily_is_the_cli_json(client):
    r = client.get(f"/api/puzzles/daily?date={DATE}")
    assert r.status_code == 200
    assert r.json() == cli_json("puzzle", "daily", "--date", DATE)
    r = client.get(f"/api/puzzles/daily?date={DATE}&solution=1&explain=1")
    assert r.json() == cli_json("puzzle", "daily", "--date", DATE, "--solution", "--explain")
    assert r.json()["id"] == "sz-easy-d20261123" and r.json()["date"] == DATE


def test_puzzle_by_id_is_the_cli_json(client):
    for pid in ("sz-hard-7", "sza-medium-2"):
        assert client.get(f"/api/puzzles/{pid}").json() == cli_json("puzzle", "show", pid)
        assert client.get(f"/api/puzzles/{pid}?explain=1&solution=1").json() == \
            cli_json("puzzle", "show", pid, "--explain", "--solution")


def test_a_puzzle_rebuilt_from_its_seed(client):
    """An ID outside the collection is generated in a job process: the same puzzle as
    the CLI builds."""
    pid = "sz-medium-web1"
    assert client.get(f"/api/puzzles/{pid}").json() == cli_json("puzzle", "show", pid)


def test_score_is_the_cli_json(client):
    for source in (LATE, "../....../......./...R..../....N..../....N.../......./....../.. B 4 5 basic"):
        assert client.post("/api/score", json={"position": source}).json() == cli_json("score", source)
    record = open(example_game.__globals__["example_path"](), encoding="utf-8").read()
    assert client.post("/api/score", json={"position": record}).json() == \
        cli_json("score", "--example")
    wrong = record.replace("16-14", "14-16")            # a Result the replay contradicts
    got = client.post("/api/score", json={"position": wrong}).json()
    assert got == cli_json("score", wrong) and got["warnings"][0].startswith("Result tag says")


def test_solve_is_the_cli_json(client):
    r = client.post("/api/solve", json={"position": LATE, "all_turns": True, "time_limit": 10})
    assert r.status_code == 200
    got = r.json()
    want = cli_json("solve", LATE, "--all-turns")
    volatile = ("seconds", "nodes_per_second")
    assert without(got, *volatile) == without(want, *volatile)
    assert got["value"] == 199 and got["best"] == ["38"] and got["exact"]


def test_every_turn_beyond_the_solver_comes_with_the_engines_estimates(client):
    """Where the solver does not prove the value, "value of every turn" adds the
    engine's candidate turns (``best``'s answer on the rest of the limit), estimated."""
    mid = position_string(example_game().positions[16])        # 16 turns left
    got = client.post("/api/solve", json={"position": mid, "all_turns": True, "time_limit": 1}).json()
    assert not got["exact"] and got["stopped"]
    est = got["estimates"]
    legal = {t["turn"] for t in got["turns"]}
    assert est["method"] == "engine" and not est["exact"] and est["turn"] in legal
    assert est["candidates"] and {c["turn"] for c in est["candidates"]} <= legal
    assert est["lower"] <= est["value"] <= est["upper"]
    assert without(est, "seconds") == without(cli_json("best", mid, "--time", "0.75"), "seconds")
    near = client.post("/api/solve", json={"position": LATE, "all_turns": True, "time_limit": 10}).json()
    assert near["exact"] and "estimates" not in near
    assert all(t["exact"] for t in near["turns"])


def test_every_turn_the_limit_leaves_unproved_comes_with_the_engines_estimates(monkeypatch):
    """The solver proves the value first: where a limit then stops it before every
    turn's value (here a node limit, for a fixed answer), the value is exact, the turns
    not reached are bounded, and the engine's answer comes beside them where it is an
    estimate (where the engine's own solve proves the value, it adds nothing)."""
    from szsolver.endgame import solver
    from szsolver.web import tasks
    pos = example_game().positions[27]                            # 4 turns left
    real = solver.solve
    monkeypatch.setattr(solver, "solve", lambda p, **kw: real(
        p, **{**kw, "time_limit": None, "node_limit": 300}))
    got = tasks.solve_position({"position": position_string(pos)}, 2.0, True)
    assert got["exact"] and got["value"] == real(pos).value
    assert not got["complete"] and not all(t["exact"] for t in got["turns"])
    assert "estimates" not in got                  # the engine proves the value: no more
    # an engine far off either way: its answer comes within what is proved (the value,
    # each turn's bounds), as check clamps its estimates
    far = [(t["turn"], 5000 * (-1) ** k) for k, t in enumerate(got["turns"][:6])]
    guess = {"method": "engine", "turn": far[0][0], "value": 5000, "lower": -9999,
             "upper": 9999, "iterations": 10,
             "candidates": [{"turn": t, "visits": 3, "value": v, "mean": v, "estimate": v}
                            for t, v in far]}
    monkeypatch.setattr(tasks, "evaluate_position", lambda position, seconds: guess)
    got = tasks.solve_position({"position": position_string(pos)}, 2.0, True)
    est = got["estimates"]
    assert got["exact"] and est["lower"] == est["upper"] == est["value"] == got["value"]
    assert [c["turn"] for c in est["candidates"]] == [t for t, _ in far]
    bounds = {t["turn"]: (t["lower"], t["upper"]) for t in got["turns"]}
    for c in est["candidates"]:
        lo, hi = bounds[c["turn"]]
        assert lo <= c["estimate"] == c["mean"] == c["value"] <= hi
        assert c["estimate"] in (lo, hi)                       # it was outside: clamped
    # and the mover does no better with any turn than the proved value
    red = pos.side == 0
    assert all((c["estimate"] <= got["value"]) if red else (c["estimate"] >= got["value"])
               for c in est["candidates"])


def test_check_is_the_cli_json(client):
    for turn in ("38", "48"):
        r = client.post("/api/check", json={"position": LATE, "turn": turn, "time_limit": 10})
        assert r.status_code == 200
        want = cli_json("check", LATE, turn)
        assert without(r.json(), "seconds") == without(want, "seconds")
    assert r.json()["verdict"] != "optimal" and r.json()["best"] == ["38"]


def test_potential_is_the_cli_json_with_a_map(client):
    r = client.post("/api/potential", json={"position": LATE, "side": "blue", "svg": True})
    assert r.status_code == 200
    got = r.json()
    want = cli_json("potential", LATE, "--map", "--side", "blue")
    strip = lambda side: without(side, "seconds")  # noqa: E731
    assert strip(got["blue"]) == strip(want["blue"])
    assert got["svg"].startswith("<svg") and "red" not in got
    # the side's name in any case, as the command line reads it
    upper = client.post("/api/potential", json={"position": LATE, "side": "BLUE", "svg": True})
    assert upper.status_code == 200 and strip(upper.json()["blue"]) == strip(got["blue"])


def test_annotate_is_the_cli_json(client, tmp_path):
    """A game set up 5 turns before the end: every turn proved, as the CLI proves it."""
    from szsolver.formats.record import GameRecord, game_string
    game = example_game()
    record = game_string(GameRecord({"Position": position_string(game.positions[-6])}, game.turns[-5:]))
    r = client.post("/api/annotate", json={"source": record})
    assert r.status_code == 200, r.text
    got = r.json()
    (tmp_path / "g.szg").write_text(record, encoding="utf-8")
    want = cli_json("annotate", str(tmp_path / "g.szg"), "--exact-turns", "6", "--solver-time", "5")
    assert got["proved_from"] == want["proved_from"] == 28
    for key in ("game", "summary", "values", "turns"):
        assert got[key] == want[key], key
    assert got["chart"].startswith("<svg") and got["settings"]["cpsat"] is False


def test_view_and_game(client):
    g = client.post("/api/game", json={"example": True}).json()
    game = example_game()
    assert g["positions"] == [position_string(game.start)] + [position_string(p) for p in game.positions]
    assert [t["turn"] for t in g["turns"]] == [str(t) for t in game.turns]
    # A turn played on the board: the game JSON with one turn more, replayed.
    nxt = client.post("/api/game", json={"game": {"type": "game", "tags": {"Rule": "basic"},
                                                  "turns": ["44n66", "64"]}}).json()
    assert nxt["positions"][-1] == cli_json("show", "1. 44n66 64")["position"]["position"]
    v = client.post("/api/view", json={"position": nxt["positions"][-1], "last_turn": "64"}).json()
    assert v["score"] == cli_json("score", nxt["positions"][-1])
    assert v["side"] == "red" and v["neutrals_left_to_move"] == 4 and v["last_turn"] == "64"
    assert v["svg"].count('class="sz-point"') == 55 and 'data-point="64"' in v["svg"]
    # a last turn that cannot lead there is refused, not drawn: an empty point, the
    # centre's neutral, the other side's stone, a neutral that is not on the board
    for turn, words in (("38", "holds no blue stone"), ("55", "holds no blue stone"),
                        ("44", "holds no blue stone"), ("64n38", "38 holds no neutral")):
        r = client.post("/api/view", json={"position": nxt["positions"][-1], "last_turn": turn})
        assert r.status_code == 400 and words in r.json()["error"], (turn, r.text)
    # What the page's own rules start from: the start, the board, its bare picture.
    from szsolver.formats.notation import position_json
    assert g["start"] == position_json(game.start) and g["stones_per_side"] == 16
    assert g["geometry"] == an.geometry_data(game.geometry) and len(g["geometry"]["points"]) == 55
    assert g["svg"].count('class="sz-point"') == 55 and '<g class="sz-stones"></g>' in g["svg"]
    assert g["svg"].count("<circle") == 55 + 54 + 1     # the points, the dots, the centre's neutral
    # A position becomes a game starting there.
    s = client.post("/api/game", json={"source": LATE}).json()
    assert s["positions"] == [LATE] and s["turns"] == []


# late positions of the other games of the family (proved in a moment), a record from
# each, and a turn to judge
FAMILY = {
    "star": ("star:4x5:BWWB/BBWW./BWWBBW/WB.W.WB/BB.BBBWW/BWBWBWW/BWBB.W/WBWW.:B",
             '1. E7 E8 2. H2', "E7"),
    "stargazers": ("stargazers:12-star:1-2:r=2,3,4,6,8,9,10,13,14,16,20,21,24,29,32:"
                   "b=7,15,18,19,23,25,26,30,31,33,36,37,39,43,44,45", "9. 35,47 11", "35,47"),
}


def timeless(x):
    """``x`` without ``seconds`` at any depth (a Star annotation times every move)."""
    if isinstance(x, dict):
        return {k: timeless(v) for k, v in x.items() if k != "seconds"}
    return [timeless(v) for v in x] if isinstance(x, list) else x


@pytest.mark.parametrize("name", list(FAMILY))
def test_the_other_games_answers_are_the_cli_json(client, name, tmp_path):
    """A Star or Stargazers position or record, found as the command line finds it:
    score, solve, check, annotate and the live evaluation answer with that game's
    ``--json``; what only Stars' Zone offers is a 400 naming the game."""
    position, moves, turn = FAMILY[name]
    record = f'[Game "{name}"] [Position "{position}"] {moves}'
    post = lambda path, body: client.post(path, json=body)  # noqa: E731
    assert post("/api/score", {"position": position}).json() == cli_json("score", position)
    got = post("/api/solve", {"position": position, "all_turns": True}).json()
    assert timeless(got) == timeless(cli_json("solve", position, "--all-turns"))
    got = post("/api/check", {"position": position, "turn": turn}).json()
    assert timeless(got) == timeless(cli_json("check", position, turn))
    (tmp_path / "g.txt").write_text(record, encoding="utf-8")
    for path in ("/api/annotate", "/api/annotate/events"):
        r = post(path, {"source": record, "time_per_turn": 0.2})
        assert r.status_code == 200, r.text
        got = r.json() if path == "/api/annotate" else events_of(r.text)[-1][1]
        assert timeless(got) == timeless(cli_json("annotate", str(tmp_path / "g.txt"),
                                                  "--time-per-turn", "0.2"))
    # the annotation's progress as Stars' Zone's: before each turn judged, then done
    events = events_of(post("/api/annotate/events", {"source": record, "time_per_turn": 0.2}).text)
    n = len(got["turns"])
    assert [e for e, _ in events] == ["progress"] * (n + 1) + ["done"]
    assert [(d["done"], d["total"]) for _, d in events[:-1]] == [(k, n) for k in range(n + 1)]
    assert events[0][1]["text"].startswith("turn 1, ") and events[-2][1]["text"] == "done"
    # the live evaluation: the exact solver starts (its nodes, of at most its limit), then
    # the answer
    events = events_of(client.get("/api/evaluate", params={"position": position,
                                                           "time_limit": "0.3"}).text)
    assert [e for e, _ in events] == ["progress", "done"]
    assert events[0][1]["partial"] == "solver" and events[0][1]["done"] == 0 and events[0][1]["total"] > 0
    assert timeless(events[-1][1]) == timeless(cli_json("best", position, "--time", "0.3"))
    r = post("/api/potential", {"position": position})
    assert r.status_code == 400 and r.json() == {
        "error": f"potential is not available for {name} positions and games"}, r.text
    # the board, which has no rules of these games: the server replays and draws
    g = post("/api/game", {"source": record}).json()
    replay = cli_json("replay", str(tmp_path / "g.txt"))
    played = replay["turns"]
    assert g["family"] and g["game"] == name and g["record"] == record
    assert g["positions"] == [position] + [t["position"] for t in played]
    assert [t["turn"] for t in g["turns"]] == [t["turn"] for t in played]
    start = post("/api/game", {"source": position}).json()    # a position: a game from there
    assert start["positions"] == [position] and start["turns"] == [] and start["sides"]
    v = post("/api/view", {"position": g["positions"][1]}).json()
    assert v["score"] == cli_json("score", g["positions"][1]) and v["svg"].lstrip().startswith("<")
    r = post("/api/check", {"position": position, "turn": "nowhere"})
    assert r.status_code == 400 and "\n" not in r.json()["error"], r.text



# early positions of the other games: their engines search (no exact solve)
FAMILY_EARLY = {"star": '[Game "star"]',
                "stargazers": '[Game "stargazers"] 1. 11 47,7 2. 24,13 45,42'}


@pytest.mark.parametrize("name", list(FAMILY_EARLY))
def test_the_other_games_live_evaluation_streams_the_engines_work(client, name):
    """Early in a Star or Stargazers game the live evaluation streams the tree search's
    iterations so far, of those planned, as the engine reports them, then the answer:
    that game's ``best --json``."""
    position = FAMILY_EARLY[name]
    events = events_of(client.get("/api/evaluate", params={"position": position,
                                                           "time_limit": "0.3"}).text)
    assert {e for e, _ in events[:-1]} == {"progress"} and events[-1][0] == "done"
    done = events[-1][1]
    progress = [d for _, d in events[:-1]]
    assert len(progress) >= 2 and all(d["partial"] == "tree" and d["total"] == done["iterations"]
                                      for d in progress), progress
    counts = [d["done"] for d in progress]
    assert counts[0] == 0 and counts == sorted(set(counts)) and counts[-1] < done["iterations"]
    assert timeless(done) == timeless(cli_json("best", position, "--time", "0.3"))

@pytest.mark.parametrize("name", list(FAMILY))
def test_play_a_line_of_the_other_games(client, name):
    """/api/play: the board's turns of a Star or Stargazers game, played by that game's
    record from the game's start: the position after them (as the game's replay has
    it), its legal turns (the registry's), a target on every cell, the line's record;
    the game's own turns keep its record's last turn even when it is unfinished."""
    from szsolver import games
    position, moves, _turn = FAMILY[name]
    record = f'[Game "{name}"] [Position "{position}"] [Result "*"] {moves}'
    entry = games.get(name)
    g = client.post("/api/game", json={"source": record}).json()
    own = [t["turn"] for t in g["turns"]]
    start = client.post("/api/play", json={"source": record, "turns": []}).json()
    pos = entry.load(games.Source(text=position))[0]
    assert start["position"] == position and start["turns"] == [] and not start["unfinished"]
    assert start["legal"] == [entry.format_turn(t, pos) for t in entry.legal_turns(pos)]
    assert start["score"] == cli_json("score", position)
    assert start["svg"].count('class="sz-point"') == len(set(start["svg"].split('data-point="')[1:]))
    for t in start["legal"]:
        for cell in t.split(","):
            assert f'data-point="{cell}"' in start["svg"] or cell in ("pass", "swap")
    one = client.post("/api/play", json={"source": record, "turns": own[:1]}).json()
    assert one["position"] == g["positions"][1] and one["turns"] == g["turns"][:1]
    assert "Result" not in one["record"]                 # not the game's own line
    if name == "star":                                   # the last turn marked
        assert one["svg"].count("<title>last move</title>") == 1
    other = next(t for t in start["legal"] if t != own[0])
    v = client.post("/api/play", json={"source": record, "turns": [other]}).json()
    assert v["turns"][0]["turn"] == other and v["position"] == entry.position_text(
        entry.load(games.Source(text=v["record"]))[0])
    whole = client.post("/api/play", json={"source": record, "turns": own}).json()
    assert whole["position"] == g["positions"][-1] and '[Result "*"]' in whole["record"]
    assert whole["unfinished"] == (name == "stargazers") and (whole["legal"] == []) == whole["unfinished"]


# A Stargazers position (round 8, Blue to place two) where 39 is a legal placement only
# after 48: a Blue stone on 39 is inspired only through a stone on 48.
ORDERED = "stargazers:12-star:1-2:r=4,6,10,11,13,21,24,26,30,31,33,35,37,44,46:b=2,3,7,8,9,14,19,20,29,40,42,43,45,47"


def test_the_legal_turns_name_their_placements_in_an_order_the_rules_play(client):
    """/api/play's legal turns are the turns it plays: a Stargazers turn of two
    placements in the order they are made (each legal when made), so 48,39 and not
    39,48, which it refuses saying why; both orders where either may go first."""
    from szsolver.stargazers.fast import Position
    start = client.post("/api/play", json={"source": ORDERED, "turns": []}).json()
    assert "48,39" in start["legal"] and "39,48" not in start["legal"]
    pos = Position(ORDERED)
    for t in start["legal"]:                      # each as written, in its order
        q = pos.copy()
        for c in t.split(","):
            assert q.is_legal(int(c)), t
            q.play(int(c))
    pairs = {t for t in start["legal"] if "," in t}
    assert any(",".join(reversed(t.split(","))) in pairs for t in pairs)     # either first
    played = client.post("/api/play", json={"source": ORDERED, "turns": ["48,39"]})
    assert played.status_code == 200 and played.json()["turns"][0]["turn"] == "48,39"
    r = client.post("/api/play", json={"source": ORDERED, "turns": ["39,48"]})
    assert r.status_code == 400
    assert "a blue stone on cell 39 would not be inspired" in r.json()["error"]


def test_a_position_in_the_middle_of_a_turn_is_played_on(client):
    """/api/play from a Stargazers position where Red has placed one of two: its legal
    turns are the one placement that finishes the turn, and the line goes on from it."""
    mid = "stargazers:12-star:1-2:r=9,30:b=16,23"
    g = client.post("/api/game", json={"source": mid}).json()
    assert g["positions"] == [mid] and g["turns"] == []
    start = client.post("/api/play", json={"source": mid, "turns": []}).json()
    assert start["to_move"] == "red" and not start["unfinished"] and start["round"] == 2
    assert start["legal"] and all("," not in t for t in start["legal"])
    line = client.post("/api/play", json={"source": mid, "turns": ["40", "24,25"]}).json()
    assert [(t["turn"], t["round"], t["side"]) for t in line["turns"]] == [
        ("40", 2, "red"), ("24,25", 2, "blue")]
    assert line["to_move"] == "red"
    r = client.post("/api/play", json={"source": mid, "turns": ["40,41"]})
    assert r.status_code == 400 and "2 placements where the turn has 1" in r.json()["error"]


def cli_check_json(pid, stars):
    """``szsolver puzzle check PID STARS --json`` (exit 0 when correct, 1 when not)."""
    r = CliRunner().invoke(main, ["puzzle", "check", pid, " ".join(stars), "--json"])
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout)


def test_puzzle_check_endpoint_is_the_cli_json(client):
    """The API answers what ``szsolver puzzle check`` prints, the placed stars alone or
    with the givens, right and wrong, with a point off the board; its verdict is the
    independent checker's."""
    gen = next(g for g in load_collection() if g.id == "sz-hard-7")
    p, g = gen.puzzle, gen.puzzle.geometry
    right = stars_to_points(g, gen.solution)
    placed = stars_to_points(g, gen.solution & ~p.given_mask)
    free = stars_to_points(g, ((1 << g.size) - 1) & ~gen.solution & ~p.blocked)
    moved = placed[1:] + free[:1]
    for stars in (right, placed, placed[1:], moved, placed + ["11"]):
        r = client.post("/api/puzzles/sz-hard-7/check", json={"stars": stars})
        assert r.status_code == 200, r.text
        assert r.json() == cli_check_json("sz-hard-7", stars)
        on_board = [t for t in stars if t != "11"]
        mask = stars_from_points(g, on_board) | p.given_mask
        assert r.json()["correct"] is (not solution_problems(p, mask) and on_board == stars)
    assert client.post("/api/puzzles/sz-hard-7/check", json={"stars": placed}).json()["correct"]
    r = client.post("/api/puzzles/sz-hard-7/check", json={"stars": placed[1:]})
    assert any("place 1 more" in x for x in r.json()["problems"])


def test_daily_dates_and_seeds_are_bounded(client):
    """The server generates daily puzzles of the years 2000-2099 only, and new puzzles
    from seeds of at most 40 characters: one line naming the limit, before any work
    (the command line still makes the daily of 0001-01-01)."""
    started = client.get("/api/health").json()["jobs"]["started"]
    for path in ("/puzzle/daily?date=0001-01-01", "/api/puzzles/daily?date=2100-01-01",
                 "/api/puzzles/sz-easy-d00010101", "/puzzle/sz-easy-d21000104"):
        r = client.get(path, follow_redirects=False)
        assert r.status_code == 400, (path, r.text)
        assert "daily puzzles are made for 2000-01-01 to 2099-12-31 here" in r.text, path
    r = client.get("/api/puzzles/sz-easy-" + "x" * 41)
    assert r.status_code == 400
    assert r.json()["error"] == "a puzzle seed has at most 40 characters here, got 41"
    assert client.get("/api/health").json()["jobs"]["started"] == started
    r = client.get("/puzzle/daily?date=2000-01-03", follow_redirects=False)
    assert r.status_code == 302 and r.headers["location"] == "/puzzle/sz-easy-d20000103"


def test_pages_and_docs(client):
    for path in ("/", "/analysis", "/api", "/puzzle/sz-easy-1"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    r = client.get("/puzzle/daily?date=2026-11-24", follow_redirects=False)
    assert r.status_code == 302 and r.headers["location"] == "/puzzle/sz-easy-d20261124"
    schema = client.get("/api/openapi.json").json()
    for path in ("/api/puzzles/daily", "/api/puzzles/{pid}", "/api/score", "/api/solve", "/api/check"):
        assert path in schema["paths"], path
    assert "post" in schema["paths"]["/api/solve"] and "get" in schema["paths"]["/api/puzzles/daily"]
    docs = client.get("/api").text
    assert "/api/puzzles/daily" in docs and "/api/check" in docs
    assert client.get("/favicon.ico").status_code == 204      # no 404 in a browser's log
    # the endpoints' texts name commands as code, not as Markdown backticks
    assert "`" not in docs and "<code>szsolver puzzle check ID STARS --json</code>" in docs
    assert client.get("/static/puzzle.js").status_code == 200


def test_a_hex_puzzle_page_stays_small(client):
    """The hex board's page carries no rays (the script walks them): it was 434 KB."""
    r = client.get("/puzzle/hex-easy-1")
    assert r.status_code == 200 and len(r.content) < 220_000
    data = json.loads(r.text.split('id="sz-data">')[1].split("</script>")[0])
    assert "rays" not in data["board"] and len(data["board"]["points"]) == 768


def test_the_next_puzzle_a_solved_page_offers(client):
    ids = list(collection_index())
    assert puzzles.next_puzzle_id("sz-hard-7") == "sz-hard-8"
    assert puzzles.next_puzzle_id(ids[-1]) == ids[0]
    assert puzzles.next_puzzle_id("sz-medium-anything") == "sz-medium-1"
    assert puzzles.next_puzzle_id("sz-easy-d20261123", "2026-11-23") == "sz-fiendish-d20261122"
    page = client.get("/puzzle/sz-hard-7").text
    assert json.loads(page.split('id="sz-data">')[1].split("</script>")[0])["next"] == "sz-hard-8"


# --- bad requests ------------------------------------------------------------------------------

@pytest.mark.parametrize("path,body,status,words", [
    ("/api/score", b"{bad", 400, "malformed JSON"),
    ("/api/score", b"[1, 2]", 400, "must be a JSON object"),
    ("/api/score", b"", 400, "needs a JSON object"),
    ("/api/score", b"\xff\xfe", 400, "not UTF-8"),
    ("/api/score", b"[" * 60000 + b"]" * 60000, 413, "over"),
    ("/api/score", b"[" * 30000 + b"]" * 30000, 400, "nested too deeply"),
    ("/api/score", b'{"position": "x", "position": "y"}', 400, "the key 'position' twice"),
    ("/api/score", {"position": LATE, "colour": "red"}, 400, "unknown key 'colour'"),
    ("/api/score", {}, 400, "missing key 'position'"),
    ("/api/score", {"position": 44}, 400, "position must be a string"),
    ("/api/score", {"position": "x/y"}, 400, "position string"),
    ("/api/score", {"position": "../....../......./...R..../....R..../......../......./....../.. B 4 5 basic"},
     400, "centre"),
    ("/api/solve", {"position": LATE, "time_limit": -1}, 400, "time_limit must be a positive number"),
    ("/api/solve", {"position": LATE, "time_limit": "5"}, 400, "time_limit must be a positive number"),
    ("/api/solve", b'{"position": %s, "time_limit": NaN}' % json.dumps(LATE).encode(), 400,
     "time_limit: NaN is not a number of seconds"),
    ("/api/solve", {"position": LATE, "time_limit": 0}, 400,
     "time_limit must be a positive number of seconds, finite (more than 10 is cut to 10), got 0"),
    ("/api/annotate", b'{"example": true, "time_per_turn": NaN}', 400,
     "time_per_turn: NaN is not a number of seconds"),
    ("/api/annotate", {"example": True, "time_per_turn": -1}, 400,
     "time_per_turn must be a positive number of seconds, finite (more than 1 is cut to 1), got -1"),
    ("/api/score", {"position": LATE.replace(" 1 2 ", " -1 2 ")}, 400,
     "red neutrals left must be 0..7, got '-1'"),
    ("/api/check", {"position": LATE, "turn": "\u0663\u0668"}, 400,
     "bad point '\u0663\u0668': expected two digits 0-9"),
    ("/api/check", {"position": LATE, "turn": "38n\u0663\u0665"}, 400, "bad point '\u0663\u0665'"),
    ("/api/view", {"position": LATE, "last_turn": "\u0663,\u0668"}, 400, "bad point"),
    ("/api/solve", {"position": LATE, "all_turns": "yes"}, 400, "all_turns must be true or false"),
    # values quoted as JSON spells them, not as Python does
    ("/api/solve", {"position": LATE, "all_turns": [True]}, 400,
     "all_turns must be true or false, got [true]"),
    ("/api/solve", {"position": LATE, "time_limit": True}, 400, "got true"),
    ("/api/potential", {"position": LATE, "side": False}, 400,
     "side must be 'red' or 'blue', got false"),
    ("/api/score", {"position": 44}, 400, "position must be a string, got a number"),
    ("/api/score", {"position": {"type": "position", "board": "stars-zone", "red": [],
                                 "blue": [], "neutral": [], "side": "red", "rule": "basic",
                                 "neutrals_left": {"red": 4.0, "blue": 5}}}, 400,
     "neutrals_left's red must be a whole number, got 4.0"),
    ("/api/check", {"position": LATE, "turn": "24"}, 400, "occupied"),
    ("/api/check", {"position": LATE, "turn": "9z"}, 400, "turn"),
    ("/api/check", {"position": LATE}, 400, "missing key 'turn'"),
    ("/api/potential", {"position": LATE, "side": "green"}, 400, "side must be 'red' or 'blue'"),
    ("/api/potential", {"position": LATE, "side": "both"}, 400, "(a map is of one side)"),
    ("/api/game", {"source": LATE, "example": True}, 400, "exactly one of"),
    ("/api/game", {"game": {"type": "game", "turns": ["44n66", "44"]}}, 400, "round 1, blue"),
    ("/api/view", {"position": LATE, "last_turn": "99"}, 400, "off"),
    ("/api/play", {"source": FAMILY["star"][0], "turns": ["E7", "E7"]}, 400,
     "round 1, white: E7 is not empty"),
    ("/api/play", {"source": FAMILY["star"][0], "turns": ["Z9"]}, 400, "round 1, black: no cell 'z9'"),
    ("/api/play", {"source": FAMILY["stargazers"][0], "turns": ["35"]}, 400,
     "round 9, red: 35 is not a whole turn (legal turns here: 28,42, 28,46, 28,47 ...)"),
    ("/api/play", {"source": FAMILY["stargazers"][0], "turns": ["35,99"]}, 400, "no cell 99"),
    ("/api/play", {"source": FAMILY["star"][0], "turns": "E7"}, 400, "turns must be a list"),
    ("/api/play", {"source": FAMILY["star"][0], "turns": [7]}, 400, "turns must be a list"),
    ("/api/play", {"source": FAMILY["star"][0], "turns": ["pass"] * 201}, 400, "at most 200 turns"),
    ("/api/play", {"source": FAMILY["star"][0]}, 400, "missing key 'turns'"),
    ("/api/play", {"source": LATE, "turns": []}, 400, "a Stars' Zone game is played on the page itself"),
    ("/api/play", {"source": "star:nonsense", "turns": []}, 400, "star"),
    ("/api/puzzles/sz-easy-1/check", {"stars": "44 45"}, 400, "stars must be a list"),
    ("/api/puzzles/sz-easy-1/check", {"stars": ["44", "44"]}, 400, "listed twice"),
    # a board too small for both sides' stones and neutrals: the searches refuse it
    # (the tree's playouts once found no point and the analysis process died)
    ("/api/check", {"position": '[Board "square-6"] 1. 11', "turn": "22", "time_limit": 1},
     400, "35 empty points may not hold the 31 stones still to place"),
    ("/api/annotate", {"source": '[Board "square-3"] 1. 11 12 2. 13', "time_per_turn": 0.05},
     400, "may not hold"),
])
def test_bad_requests_get_a_clear_4xx(client, path, body, status, words):
    if isinstance(body, bytes):
        r = client.post(path, content=body, headers={"content-type": "application/json"})
    else:
        r = client.post(path, json=body)
    assert r.status_code == status, r.text
    msg = r.json()["error"]
    assert words in msg and "\n" not in msg


@pytest.mark.parametrize("path,status,words", [
    ("/api/puzzles/sz-xx-1", 404, "bad puzzle ID"),
    ("/api/puzzles/nonsense", 404, "bad puzzle ID"),
    ("/api/puzzles/sq13-easy-1", 404, "board code"),
    ("/api/puzzles/daily?date=2026-02-30", 400, "bad date"),
    ("/api/puzzles/sz-easy-1?solution=maybe", 400,
     "solution must be 1 or 0 (or true or false, yes or no), got 'maybe'"),
    ("/api/nowhere", 404, "no such page"),
    ("/api/score", 405, "method not allowed"),
])
def test_bad_gets(client, path, status, words):
    r = client.get(path)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]


def test_a_bug_is_a_500_in_one_line(monkeypatch):
    """Only an InputError is bad input; anything else is reported as an internal error."""
    monkeypatch.setattr(an, "score_json", lambda pos: 1 / 0)
    with TestClient(create_app(warm_daily=False), raise_server_exceptions=False, base_url=BASE) as c:
        r = c.post("/api/score", json={"position": LATE})
    assert r.status_code == 500
    assert r.json() == {"error": "internal error: ZeroDivisionError: division by zero"}


def test_unknown_puzzle_page_is_a_404_page(client):
    r = client.get("/puzzle/not-a-puzzle")
    assert r.status_code == 404 and "bad puzzle ID" in r.text and r.headers["content-type"].startswith("text/html")


def test_oversized_bodies_are_refused(client):
    big = {"position": " " * MAX_BODY + LATE}
    r = client.post("/api/score", json=big)
    assert r.status_code == 413 and "over" in r.json()["error"]

    def chunks():                    # no content-length: counted while read
        for _ in range(MAX_BODY // 1000 + 2):
            yield b" " * 1000
    r = client.post("/api/score", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_nothing_from_a_request_reaches_the_file_system(client, tmp_path):
    """A path is text like any other: never opened, whatever it names."""
    record = tmp_path / "game.szg"
    record.write_text("1. 44n66 64\n", encoding="utf-8")
    for value in (str(record), "/etc/passwd", "../../setup.py"):
        r = client.post("/api/score", json={"position": value})
        assert r.status_code == 400
        assert "position string" in r.json()["error"]
        r = client.post("/api/game", json={"source": value})
        assert r.status_code == 400


def test_time_limits_are_capped():
    assert an.time_limit_from(None) == an.DEFAULT_TIME
    assert an.time_limit_from(3) == 3.0
    assert an.time_limit_from(1e9) == an.TIME_CAP
    assert an.time_limit_from(1e12) == an.TIME_CAP        # cut, as every number above the cap
    for bad in (0, -2, True, math.inf, "1", [1]):
        with pytest.raises(errors.UnsupportedError):
            an.time_limit_from(bad)


# --- other websites, limits and headers ----------------------------------------------------------

def test_a_post_that_is_not_json_starts_nothing(client):
    """A form or text/plain post (what any page can make a browser send without
    asking) is a 415 before the body is read: no job starts."""
    started = client.get("/api/health").json()["jobs"]["started"]
    body = json.dumps({"position": LATE, "time_limit": 1}).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                 None):
        headers = {} if kind is None else {"content-type": kind}
        r = client.post("/api/solve", content=body, headers=headers)
        assert r.status_code == 415, (kind, r.text)
        assert r.json()["error"].startswith("the request must be JSON, sent with Content-Type: "
                                            "application/json")
    r = client.post("/api/score", content=json.dumps({"position": LATE}),
                    headers={"content-type": "Application/JSON; charset=utf-8"})
    assert r.status_code == 200
    assert client.get("/api/health").json()["jobs"]["started"] == started


def test_another_websites_origin_is_refused(client):
    for origin in ("http://evil.example", "null", "http://127.0.0.1:9999", "https://127.0.0.1"):
        r = client.post("/api/score", json={"position": LATE}, headers={"origin": origin})
        assert r.status_code == 403, origin
        assert "from another website" in r.json()["error"]
    for headers in ({"origin": BASE}, {}):       # the app's own pages, or not a browser
        assert client.post("/api/score", json={"position": LATE}, headers=headers).status_code == 200


def test_a_host_the_server_does_not_serve_is_refused():
    """A website's name pointed at 127.0.0.1 (DNS rebinding) reaches nothing: the Host
    must be a loopback name or the address served, on the port served."""
    with TestClient(create_app(warm_daily=False, port=8000), base_url="http://127.0.0.1:8000") as c:
        for host in ("evil.example", "evil.example:8000", "127.0.0.1:8001", "localhost:80x",
                     "127.0.0.2:8000"):
            r = c.get("/api/health", headers={"host": host})
            assert r.status_code == 421, host
            assert "Host" in r.json()["error"] or "serve" in r.json()["error"], r.text
        r = c.get("/", headers={"host": "evil.example"})
        assert r.status_code == 421 and r.headers["content-type"].startswith("text/html")
        for host in ("127.0.0.1:8000", "localhost:8000", "LOCALHOST", "[::1]:8000", "app.localhost:8000"):
            assert c.get("/api/health", headers={"host": host}).status_code == 200, host
    served = guard.Served("0.0.0.0", 8000)          # every interface: any address, the machine's name
    assert served.problem("192.168.1.7:8000") is None and served.problem("[fe80::1]:8000") is None
    assert served.problem(socket.gethostname() + ":8000") is None
    assert served.problem("evil.example:8000") is not None


def test_headers_of_every_answer(client):
    r = client.get("/puzzle/sz-easy-1")
    assert r.status_code == 200
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
    csp = r.headers["content-security-policy"]
    assert "script-src 'self';" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert r.headers["content-encoding"] == "gzip"             # a page of some 24 KB
    assert "<svg" in r.text
    js = client.get("/static/puzzle.js")
    assert js.headers["cache-control"] == "public, max-age=300" and js.headers["etag"]
    assert client.get("/static/puzzle.js", headers={"if-none-match": js.headers["etag"]}).status_code == 304
    missing = client.get("/static/nothing.js")         # a missing file is asked for again
    assert missing.status_code == 404 and "cache-control" not in missing.headers
    small = client.get("/api/health")
    assert "content-encoding" not in small.headers and small.headers["x-frame-options"] == "DENY"
    assert "cache-control" not in small.headers
    refused = client.post("/api/score", content=b"{}", headers={"content-type": "text/plain"})
    assert refused.headers["x-content-type-options"] == "nosniff"


def test_the_pages_run_no_inline_script():
    """The policy allows no inline script or style: the pages have none (their data is
    a JSON block, which is not run), and the pictures carry no style attribute."""
    import re
    from szsolver.analysis.annotate import annotate
    from szsolver.analysis.report import value_chart
    for name in ("puzzle.html", "analysis.html", "index.html", "api.html"):
        html = (open(os.path.join(os.path.dirname(STATIC), "templates", name), encoding="utf-8").read())
        for tag in re.findall(r"<script[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, (name, tag)
        assert not re.search(r"\sstyle=|<style|\son[a-z]+=", html), name
    game = example_game()
    chart = value_chart(annotate(game, time_per_turn=0.01, exact_turns=0, cpsat=False))[0]
    assert "style=" not in chart and 'cursor="pointer"' in chart


def test_a_busy_answer_says_when_to_try_again():
    with TestClient(create_app(warm_daily=False, max_waiting=0), base_url=BASE) as c:
        r = c.post("/api/solve", json={"position": LATE, "time_limit": 1})
        assert r.status_code == 503 and r.headers["retry-after"] == "5"
        assert "busy" in r.json()["error"]
        r = c.get("/puzzle/sz-medium-busy1")        # a page: the same, as HTML
        assert r.status_code == 503 and r.headers["retry-after"] == "5"


def test_health_shows_the_jobs(client):
    h = client.get("/api/health").json()
    assert h["ok"] is True and h["jobs"]["running"] == 0 and h["jobs"]["waiting"] == 0
    assert {"started", "done", "cancelled", "timed_out", "failed", "refused",
            "busy"} <= set(h["jobs"])
    assert h["cached_bytes"] > 0


def test_new_puzzles_are_rate_limited_per_client():
    """A client may have GENERATIONS new puzzles made a minute (here 1); then a 429
    with Retry-After, and no job; the collection and the cache are not counted."""
    with TestClient(create_app(warm_daily=False, generations=1), base_url=BASE) as c:
        assert c.get("/api/puzzles/sz-easy-rate1").status_code == 200
        assert c.get("/api/puzzles/sz-easy-rate1").status_code == 200     # cached: not counted
        assert c.get("/api/puzzles/sz-easy-3").status_code == 200         # published: not counted
        started = c.get("/api/health").json()["jobs"]["started"]
        r = c.get("/api/puzzles/sz-easy-rate2")
        assert r.status_code == 429, r.text
        assert r.json()["error"].startswith("at most 1 new puzzle a client in 60 s: try again in ")
        assert 0 < int(r.headers["retry-after"]) <= 60
        assert c.get("/api/health").json()["jobs"]["started"] == started


def test_the_puzzle_cache_is_bounded_in_bytes():
    """Pages are what a cached puzzle mostly holds: with room for about one and a half,
    the cache keeps one, the most recently seen."""
    app = create_app(warm_daily=False)
    web = app.state.web
    with TestClient(app, base_url=BASE) as c:
        c.get("/puzzle/sz-easy-1")
        one = web.cached_bytes
        assert one > 10_000
        web.cache_bytes = one * 3 // 2
        for pid in ("sz-easy-2", "sz-easy-3"):
            assert c.get(f"/puzzle/{pid}").status_code == 200
        assert list(web.cache) == [("puzzle", "sz-easy-3")] and web.cached_bytes <= web.cache_bytes


# --- the job runner ----------------------------------------------------------------------------

def test_a_job_past_its_deadline_is_killed():
    jobs = Jobs(workers=1)

    async def run():
        with pytest.raises(TimedOut, match="limit of 1 s"):
            await jobs.run(time.sleep, 600, deadline=1.0)
    anyio.run(run)
    assert jobs.stats["timed_out"] == 1 and not jobs._live     # the process is gone


def _uvloop():
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("uvloop", [False, pytest.param(True, marks=pytest.mark.skipif(
    not _uvloop(), reason="uvloop is not installed"))], ids=["asyncio", "uvloop"])
def test_an_answer_longer_than_the_pipe_comes_back_whole(uvloop):
    """2 MB from a job's process (the pipe holds 64 kB): whole, on the event loop
    ``serve`` runs on (uvloop, with the web extras, makes the pipe non-blocking while
    it waits for it; the answer then came back half read, a 500)."""
    jobs = Jobs(workers=1)

    async def run():
        return await jobs.run(os.urandom, 2_000_000, deadline=60)
    for _ in range(3):
        assert len(anyio.run(run, backend_options={"use_uvloop": uvloop})) == 2_000_000
    assert jobs.stats["done"] == 3 and jobs.stats["failed"] == 0


def test_a_message_is_read_whole_from_a_non_blocking_pipe():
    """The cause above without an event loop: the read end left non-blocking, a message
    far longer than the pipe, written as it is read."""
    import multiprocessing
    import threading
    from szsolver.web.jobs import _receive
    parent, child = multiprocessing.Pipe(duplex=False)
    os.set_blocking(parent.fileno(), False)
    big = ("ok", b"x" * 4_000_000)
    writer = threading.Thread(target=child.send, args=(big,), daemon=True)
    writer.start()
    try:
        assert parent.poll(30)
        assert _receive(parent) == big
    finally:
        parent.close()      # a writer still blocked (the read failed) ends at once
        writer.join(30)
        child.close()


def test_a_job_that_fails_or_dies_is_a_500_and_logged(caplog):
    """A bug in a job's process is logged with its traceback, and a process that dies
    without an answer (a crash in C, once a floating-point exception) with its exit
    code: the 500 the client gets says one line, the log says what happened."""
    import operator
    from szsolver.web.jobs import JobFailed
    jobs = Jobs(workers=1)

    async def run(fn, *args):
        with pytest.raises(JobFailed) as e:
            await jobs.run(fn, *args, deadline=30)
        return str(e.value)
    with caplog.at_level("ERROR", logger="szsolver.web"):
        said = anyio.run(run, operator.truediv, 1, 0)
    assert said == "the analysis failed: ZeroDivisionError: division by zero"
    assert "Traceback" in caplog.text and "truediv failed" in caplog.text
    caplog.clear()
    with caplog.at_level("ERROR", logger="szsolver.web"):
        said = anyio.run(run, os._exit, 3)
    assert said == "the analysis process ended without an answer"
    assert "_exit ended without an answer (exit code 3)" in caplog.text
    assert jobs.stats["failed"] == 2


def test_bad_input_in_a_job_comes_back_as_its_class():
    from szsolver.web import tasks
    jobs = Jobs(workers=1)

    async def run():
        with pytest.raises(errors.ParseError, match="position string"):
            await jobs.run(tasks.solve_position, {"position": "nonsense"}, 1.0, False, deadline=30)
        return await jobs.run(tasks.solve_position, {"position": LATE}, 5.0, False, deadline=30)
    assert anyio.run(run)["value"] == 199
    # every job started is counted once: the bad input it found among the refused
    assert jobs.stats["started"] == 2 and (jobs.stats["refused"], jobs.stats["done"]) == (1, 1)


def test_too_many_waiting_jobs_are_refused():
    jobs = Jobs(workers=1, max_waiting=1)

    async def run():
        results = []

        async def one(i):
            try:
                await jobs.run(time.sleep, 1.5, deadline=20)
                results.append("done")
            except Busy:
                results.append("busy")
        async with anyio.create_task_group() as tg:
            for i in range(3):
                tg.start_soon(one, i)
                await anyio.sleep(0.2)
        return sorted(results)
    assert anyio.run(run) == ["busy", "done", "done"]


def test_a_waiting_job_whose_client_hangs_up_leaves_the_queue():
    """One slot, busy; a second job waits, and its client hangs up: it leaves the
    queue at once (before the running job ends), and never runs."""
    jobs = Jobs(workers=1)
    order = []

    async def run():
        async def first():
            await jobs.run(time.sleep, 3, deadline=30)
            order.append("first done")

        async def second():
            hung_up = anyio.Event()

            async def gone():
                return hung_up.is_set()
            async with anyio.create_task_group() as inner:
                inner.start_soon(_set_later, hung_up)
                with pytest.raises(Gone):
                    await jobs.run(time.sleep, 3, deadline=30, client="b", gone=gone)
            order.append(("second gone", jobs.counts()["waiting"], jobs.counts()["running"]))
        async with anyio.create_task_group() as tg:
            tg.start_soon(first)
            await anyio.sleep(0.3)
            tg.start_soon(second)
    anyio.run(run)
    assert order == [("second gone", 0, 1), "first done"]
    assert jobs.stats["started"] == 1 and jobs.stats["cancelled"] == 1


async def _set_later(event, seconds=0.5):
    await anyio.sleep(seconds)
    event.set()


def test_a_running_job_whose_client_hangs_up_is_killed():
    jobs = Jobs(workers=1)

    async def run():
        hung_up = anyio.Event()

        async def gone():
            return hung_up.is_set()
        async with anyio.create_task_group() as tg:
            tg.start_soon(_set_later, hung_up, 1.0)
            with pytest.raises(Gone):
                await jobs.run(time.sleep, 600, deadline=600, gone=gone)
    anyio.run(run)
    assert jobs.stats == {**jobs.stats, "started": 1, "done": 0, "cancelled": 1, "timed_out": 0}
    assert not jobs._live and jobs.counts()["running"] == 0     # the process is gone


def test_one_client_cannot_fill_the_queue():
    """At most per_client jobs of one client wait; another client still gets in."""
    jobs = Jobs(workers=1, per_client=2)

    async def run():
        results = []

        async def one(client):
            try:
                await jobs.run(time.sleep, 0.5, deadline=20, client=client)
                results.append((client, "done"))
            except Busy as e:
                results.append((client, str(e)))
        async with anyio.create_task_group() as tg:
            for client in ("a", "a", "a", "a", "b"):
                tg.start_soon(one, client)
                await anyio.sleep(0.1)
        return results
    results = anyio.run(run)
    refused = [r for r in results if r[1] != "done"]
    assert refused == [("a", "2 analyses of yours are waiting already: try again when one is done")]
    assert sorted(results)[-1] == ("b", "done") and len(results) == 5


async def _acall(app, method, path, body=b"", hang_up_after=None, headers=(), query=b""):
    """``app`` called as the server calls it, by a client that hangs up after
    ``hang_up_after`` seconds (None: never): the status it answered, or None."""
    sent = []
    parts = [{"type": "http.request", "body": body, "more_body": False}]
    end = None if hang_up_after is None else time.monotonic() + hang_up_after

    async def receive():
        if parts:
            return parts.pop()
        if end is None:
            await anyio.sleep_forever()
        if time.monotonic() < end:        # as a server does: at once when it is known
            await anyio.sleep(end - time.monotonic())
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            sent.append(message["status"])
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": query, "root_path": "", "client": ("127.0.0.1", 50000),
             "server": ("127.0.0.1", 8000),
             "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json"),
                         *headers]}
    await app(scope, receive, send)
    return sent[0] if sent else None


def _call(app, *args, **kwargs):
    return anyio.run(lambda: _acall(app, *args, **kwargs))


def _together(app, path, hang_ups):
    """GET ``path`` by several clients at once, each hanging up after its seconds in
    ``hang_ups`` (None: never): their statuses."""
    out = {}

    async def run():
        async with anyio.create_task_group() as tg:
            for k, after in enumerate(hang_ups):
                async def one(k=k, after=after):
                    out[k] = await _acall(app, "GET", path, hang_up_after=after)
                tg.start_soon(one)
                await anyio.sleep(0.05)
    anyio.run(run)
    return [out[k] for k in range(len(hang_ups))]


def test_a_generation_stops_only_when_all_its_requests_have_gone():
    """Two requests wait for one new puzzle: one hanging up does not stop it (the other
    gets the puzzle); when both have hung up, the job is cancelled."""
    app = create_app(warm_daily=False, workers=1)
    jobs = app.state.web.jobs
    statuses = _together(app, "/api/puzzles/sz-hard-flight1", [0.3, None])
    assert statuses[1] == 200 and jobs.stats["done"] == 1 and jobs.stats["cancelled"] == 0
    # a hex board: its generation takes seconds (a Stars' Zone one may end in 0.3 s)
    _together(app, "/api/puzzles/hex-hard-flight2", [0.3, 0.3])
    assert jobs.stats["done"] == 1 and jobs.stats["cancelled"] == 1 and not jobs._live
    assert ("puzzle", "hex-hard-flight2") not in app.state.web.cache


def test_the_servers_own_generation_is_not_stopped_by_a_visitor_leaving():
    """Today's puzzle, made at start-up: a visitor who asks for it meanwhile and
    hangs up does not stop it."""
    app = create_app(warm_daily=False, workers=1)
    web = app.state.web

    async def run():
        async with anyio.create_task_group() as tg:
            tg.start_soon(web.puzzle, "sz-hard-flight3")        # as the start-up does
            await anyio.sleep(0.05)
            tg.start_soon(lambda: _acall(app, "GET", "/api/puzzles/sz-hard-flight3", hang_up_after=0.3))
    anyio.run(run)
    assert web.jobs.stats["done"] == 1 and web.jobs.stats["cancelled"] == 0
    assert ("puzzle", "sz-hard-flight3") in web.cache


DEEP = "../....../......./...R..../....N..../....N.../......./....../.. B 4 5 basic"


def test_a_request_whose_client_hangs_up_stops_its_solve():
    """A 10 s solve of an opening position, its client gone after 1 s: the job's
    process is killed, it is counted as cancelled and never as done."""
    app = create_app(warm_daily=False, workers=1)
    jobs = app.state.web.jobs
    body = json.dumps({"position": DEEP, "time_limit": 10}).encode()
    _call(app, "POST", "/api/solve", body, hang_up_after=1.0)
    assert jobs.stats["started"] == 1 and jobs.stats["done"] == 0
    assert jobs.counts()["cancelled"] == 1 and not jobs._live


def test_the_server_answers_while_jobs_run(client):
    """A light request is answered while both job slots are busy with solves that
    cannot finish before their 5 s limit (an opening position)."""
    import threading
    deep = DEEP
    out = []

    def slow():
        out.append(client.post("/api/solve", json={"position": deep, "time_limit": 5}).json())
    threads = [threading.Thread(target=slow) for _ in range(2)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    r = client.post("/api/score", json={"position": deep})
    busy = [t.is_alive() for t in threads]
    for t in threads:
        t.join()
    assert r.status_code == 200 and r.json()["red"]["score"] == 1
    assert busy == [True, True]            # answered while both solves still ran
    assert len(out) == 2 and all(o["exact"] is False and o["stopped"] == "time limit" for o in out)


# --- the puzzle page's data and its JavaScript -------------------------------------------------

COLLECTION = load_collection()


def test_logic_steps_name_the_solution():
    """Each step's point and outcome, read from the logic solver's text, agree with the
    proved solution: a star step on a star of it (with its pattern when named), an
    empty step off it; a finished run decides every free point."""
    for gen in COLLECTION:
        p, sol = gen.puzzle, gen.solution
        pats = star_patterns(p.geometry, sol, p.blocked, p.rule)
        steps, solved = puzzles.logic_steps(p)
        decided = set()
        for s in steps:
            if s["outcome"] == "star":
                assert sol >> s["index"] & 1, (gen.id, s)
                if s["pattern"] is not None:
                    assert pats[s["index"]] == s["pattern"], (gen.id, s)
            else:
                assert not sol >> s["index"] & 1, (gen.id, s)
            decided.add(s["index"])
        free = {q for q in range(p.geometry.size) if not p.blocked >> q & 1} - {q for q, _ in p.givens}
        assert solved == (decided == free), gen.id


def _cases():
    """(puzzle board data, star sets) for every published puzzle: the solution, the
    solution less a star, with a star moved, seeded random sets, and one star alone."""
    out = []
    for gen in COLLECTION:
        p, sol = gen.puzzle, gen.solution
        g = p.geometry
        stars = [q for q in range(g.size) if sol >> q & 1]
        free = [q for q in range(g.size) if not (sol | p.blocked) >> q & 1]
        seed = int.from_bytes(hashlib.sha256(gen.id.encode()).digest()[:8], "big")
        sets = [sol, sol & ~(1 << stars[seed % len(stars)])]
        moved = sol & ~(1 << stars[seed % len(stars)]) | 1 << free[seed % len(free)]
        sets.append(moved)
        for k in range(3):
            h = hashlib.sha256(f"{gen.id}/{k}".encode()).digest()
            m = sol
            for j in range(0, 8, 2):
                m ^= 1 << (int.from_bytes(h[j:j + 2], "big") % g.size)
            sets.append(m)
        sets.append(1 << stars[seed % len(stars)])
        out.append((gen, puzzles.board_data(p), sets))
    return out


def _node(script: str, payload, module: str = "starmap.js", name: str = "sm") -> object:
    """``script`` run by node with ``module`` (from static/) imported as ``name`` and
    ``payload`` (JSON) as ``input``; what it prints, read as JSON."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the page's rules are tested in the browser tests only")
    url = "file://" + os.path.join(STATIC, module)
    code = (f"import * as {name} from '{url}';\n"
            "import {{ readFileSync }} from 'node:fs';\n".replace("{{", "{").replace("}}", "}")
            + "const input = JSON.parse(readFileSync(0, 'utf8'));\n" + script)
    r = subprocess.run([node, "--input-type=module", "-e", code], input=json.dumps(payload),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_the_pages_patterns_and_beams_agree_with_the_python_rules():
    cases = _cases()
    payload = [{"board": b, "sets": [[q for q in range(len(b["points"])) if m >> q & 1] for m in sets]}
               for _gen, b, sets in cases]
    got = _node("""
const out = input.map(({board, sets}) => sets.map((s) => {
  const stars = new Set(s);
  return {patterns: [...sm.starPatterns(board, stars)], pairs: sm.beamPairs(board, stars).length};
}));
console.log(JSON.stringify(out));""", payload)
    from szsolver.rules.beams import beam_pairs, rule_blockers
    n = 0
    for (gen, _b, sets), answers in zip(cases, got):
        p = gen.puzzle
        for m, a in zip(sets, answers):
            assert [tuple(x) for x in a["patterns"]] == sorted(
                star_patterns(p.geometry, m, p.blocked, p.rule).items()), gen.id
            assert a["pairs"] == len(beam_pairs(p.geometry, m, rule_blockers(p.rule, p.blocked)))
            n += 1
    assert n == 7 * len(COLLECTION)


def test_the_pages_findings_are_the_python_checkers():
    """boardCheck finds what check_solution finds (the givens contradicted, the clashes,
    the patterns no star shows, the stars on blocked points) and names the star each
    extra beam reaches, on the same cases as above; the rays the page walks are the
    geometry's, on every kind of board."""
    from szsolver.rules.beams import beam_target, rule_blockers
    cases = _cases()
    payload = [{"board": b, "sets": [[q for q in range(len(b["points"])) if (m | gen.puzzle.given_mask) >> q & 1]
                                     for m in sets]}
               for gen, b, sets in cases]
    got = _node("""
const out = input.map(({board, sets}) => ({rays: sm.boardRays(board), checks: sets.map((s) => {
  const c = sm.boardCheck(board, new Set(s));
  return {count: c.count, onBlocked: c.onBlocked, contradicted: c.contradicted, clashes: c.clashes,
          missingPatterns: c.missingPatterns, correct: c.correct};
})}));
console.log(JSON.stringify(out));""", payload)
    kinds = set()
    for (gen, _b, sets), answer in zip(cases, got):
        p = gen.puzzle
        g = p.geometry
        name = g.coord_text
        if (g.name, p.rule) not in kinds:
            kinds.add((g.name, p.rule))
            assert answer["rays"] == [[list(r) for r in per] for per in g.rays], gen.id
        blockers = rule_blockers(p.rule, p.blocked)
        for m, a in zip(sets, answer["checks"]):
            want = check_solution(p, m)
            valid = (m | p.given_mask) & ~p.blocked
            assert a["correct"] == want.correct, (gen.id, m)
            assert [name(q) for q in a["onBlocked"]] == want.on_blocked
            assert [{"point": name(c["point"]), "shows": c["shows"], "needs": c["needs"]}
                    for c in a["contradicted"]] == want.givens_contradicted, (gen.id, m)
            for c in a["contradicted"]:
                for d, to in c["extra"]:
                    assert to == beam_target(g.rays[c["point"]][d], valid, blockers)
                assert c["missing"] == [d for d in range(g.n_directions) if c["needs"] >> d & 1
                                        and not c["shows"] >> d & 1]
            assert [{"pattern": c["pattern"], "points": [name(q) for q in c["points"]]}
                    for c in a["clashes"]] == want.clashes, (gen.id, m)
            assert a["missingPatterns"] == want.missing_patterns
            assert a["count"] == bin(valid).count("1")
    assert {k for k, _ in kinds} == {"stars-zone", "square-8", "hex-768"}


def test_the_mistakes_shown_are_certain():
    """What the page marks as a mistake is one: never on the way to the solution (the
    givens and any part of the solution's stars show none, on every published
    puzzle), and always when the board is full and wrong (a star moved) or has a
    star too many."""
    payload = []
    for gen in COLLECTION:
        p, sol = gen.puzzle, gen.solution
        g = p.geometry
        stars = [q for q in range(g.size) if sol >> q & 1 and q not in dict(p.givens)]
        free = [q for q in range(g.size) if not (sol | p.blocked) >> q & 1]
        seed = int.from_bytes(hashlib.sha256(gen.id.encode()).digest()[:8], "big")
        parts = [[q for k, q in enumerate(stars) if (seed >> (k % 60) ^ j) & 1] for j in range(4)]
        moved = [q for q in stars if q != stars[seed % len(stars)]] + [free[seed % len(free)]]
        payload.append({"board": puzzles.board_data(p), "givens": [q for q, _ in p.givens],
                        "parts": parts + [[]], "moved": moved, "extra": stars + [free[seed % len(free)]]})
    got = _node("""
const out = input.map(({board, givens, parts, moved, extra}) => {
  const mistakes = (s) => sm.certainMistakes(board, sm.boardCheck(board, new Set([...givens, ...s])));
  return {parts: parts.map((s) => mistakes(s).length), moved: mistakes(moved).map((m) => m.kind),
          extra: mistakes(extra).map((m) => m.kind)};
});
console.log(JSON.stringify(out));""", payload)
    for gen, a in zip(COLLECTION, got):
        assert a["parts"] == [0] * 5, gen.id
        assert a["moved"], gen.id
        assert "too-many" in a["extra"], gen.id


def test_the_pages_words_name_no_pattern_codes():
    """The one-line summary says a mistake in words: directions and point names, no
    URDL codes or pattern numbers; the legend says what the givens' numbers mean."""
    gen = next(g for g in COLLECTION if g.id == "sz-hard-7")
    board = puzzles.board_data(gen.puzzle)
    hexgen = next(g for g in COLLECTION if g.puzzle.geometry.cell == "hex")
    url = "file://" + os.path.join(STATIC, "wording.js")
    got = _node(f"""
const w = await import('{url}');
const [b, h] = input;
const mistakes = [{{kind: 'beam', point: 0, dir: 2, to: 5}}, {{kind: 'clash', pattern: 9, points: [1, 2]}},
  {{kind: 'no-beam', point: 3, dir: 0}}, {{kind: 'too-many', count: 17, needed: 16}}];
console.log(JSON.stringify({{summary: w.summary(b, mistakes), each: mistakes.map((m) => w.mistakeText(b, m)),
  legend: w.legendText(b), hexLegend: w.legendText(h), caption: w.caption(7, 16, false),
  given: w.givenText(b, 0, 12)}}));""", [board, puzzles.board_data(hexgen.puzzle)])
    name = [p["name"] for p in board["points"]]
    assert got["summary"] == (f"Given {name[0]} must not see a star down, but it sees {name[5]} "
                              "(and 3 more: see below).")
    assert got["each"][1] == f"{name[1]} and {name[2]} have the same beams (up and left): each pattern only once"
    import re
    for text in [got["summary"], *got["each"]]:
        assert not re.search(r"\b[URDL.]{4}\b|pattern [0-9a-f]\b", text), text
    assert "up 1, right 2, down 4 and left 8" in got["legend"] and "So 5 is beams up and down" in got["legend"]
    assert "left 1, right 2, up-left 4, up-right 8, down-left 16 and down-right 32" in got["hexLegend"]
    assert got["caption"] == "Place 9 more stars (7 of 16)."
    assert got["given"] == f"{name[0]} is a given star: its c means beams down and left, and none up and right."


def test_following_the_hints_solves_every_puzzle():
    """A player who does what each hint says (place the star, mark the point empty,
    remove the wrong star) ends with the solution, on every published puzzle, even
    from a board with a wrong star on it."""
    payload = []
    for gen in COLLECTION:
        steps, _ = puzzles.logic_steps(gen.puzzle)
        g = gen.puzzle.geometry
        wrong = next(q for q in range(g.size) if not (gen.solution | gen.puzzle.blocked) >> q & 1)
        payload.append({"board": puzzles.board_data(gen.puzzle), "steps": steps, "wrong": wrong,
                        "solution": [q for q in range(g.size) if gen.solution >> q & 1]})
    got = _node("""
const out = input.map(({board, steps, wrong, solution}) => {
  const placed = new Set([wrong]), empties = new Set(), kinds = [];
  for (let i = 0; i < 5000; i++) {
    const h = sm.nextHint(board, steps, placed, empties, new Set(solution));
    kinds.push(h.kind);
    if (h.kind === 'done' || h.kind === 'stuck') break;
    if (h.kind === 'wrong') placed.delete(h.index);
    else if (h.kind === 'reveal' || (h.kind === 'step' && steps.find((s) => s.index === h.index && s.text === h.text).outcome === 'star')) placed.add(h.index);
    else empties.add(h.index);
  }
  return {placed: [...placed], first: kinds[0], last: kinds[kinds.length - 1]};
});
console.log(JSON.stringify(out));""", payload)
    for gen, a in zip(COLLECTION, got):
        stars = 0
        for q in a["placed"]:
            stars |= 1 << q
        for q, _ in gen.puzzle.givens:
            stars |= 1 << q
        assert a["first"] == "wrong" and a["last"] == "done", gen.id
        assert solution_problems(gen.puzzle, stars) == [] and stars == gen.solution, gen.id


def test_board_svg_has_a_clickable_point_for_every_point():
    for gen in COLLECTION[:3] + [g for g in COLLECTION if g.puzzle.geometry.cell == "hex"][:1]:
        svg = puzzles.board_svg(gen.puzzle)
        g = gen.puzzle.geometry
        assert svg.count('class="sz-point"') == g.size
        assert all(f'data-point="{g.coord_text(q)}"' in svg for q in range(g.size))
        import xml.etree.ElementTree as ET
        ET.fromstring(svg)            # still one well-formed picture


def test_the_static_page_is_self_contained(tmp_path):
    r = CliRunner().invoke(main, ["puzzle", "daily", "--date", DATE, "--html", str(tmp_path / "d.html")])
    assert r.exit_code == 0, r.output
    html = (tmp_path / "d.html").read_text(encoding="utf-8")
    import re
    assert not re.search(r"""(src|href)=["'](?!data:|#)""", html)   # nothing fetched
    assert "import " not in html.split('<script type="module">')[1].split("</script>")[0].split("const __mod_")[0]
    data = json.loads(html.split('id="sz-data">')[1].split("</script>")[0])
    assert data["puzzle"]["id"] == "sz-easy-d20261123" and data["puzzle"]["date"] == DATE
    gen = next(iter([g for g in [__import__("szsolver.starmaps.daily", fromlist=["daily"]).daily(DATE)]]))
    assert data["puzzle"]["solution"] == stars_to_points(gen.puzzle.geometry, gen.solution)
    assert data["steps"] == puzzles.logic_steps(gen.puzzle)[0]


def test_inline_script_keeps_every_module():
    code = assets.inline_script("puzzle.js")
    for name in ("starmap.js", "wording.js", "board.js", "puzzle.js"):
        assert f"// --- {name}" in code
    assert "boardCheck" in code and "summary" in code and "\nimport " not in code and "\nexport " not in code


def _random_games():
    """Random legal games to their end, of both rules, with supplies of 0 to 7
    neutrals, one on the 8x8 board and one from a set-up start (Blue to move)."""
    import random
    from szsolver.formats.record import GameRecord
    rng = random.Random(20261127)
    games = []
    for k in range(10):
        rule = ("basic", "advanced")[k % 2]
        tags = {"Rule": rule, "Neutrals": f"{rng.randint(0, 7)} {rng.randint(0, 7)}"}
        if k == 8:
            tags["Board"] = "square-8"
        if k == 9:
            tags = {"Position": position_string(example_game().positions[4].with_rule("advanced"))}
        game = GameRecord(tags)
        while not game.final.is_over():
            legal = game.final.legal_turns()
            # a neutral as often as not, while there are any
            plain = [t for t in legal if t.neutral < 0]
            game.play(rng.choice(plain if rng.random() < 0.5 else legal))
        games.append(game)
    return games


def test_the_boards_rules_agree_with_the_python_rules():
    """game.js, the analysis board's rules, against szsolver's on random games of both
    rules to their end: every position's legal turns (in order), the position string,
    each side's patterns and score, the value and the result, the caption, the beams
    the picture draws, why an illegal turn is illegal, the final value and winner, and
    the record's text."""
    from szsolver.formats.notation import position_json, result_text
    from szsolver.formats.record import game_string
    from szsolver.formats.svg import beam_pairs, position_caption
    games = _random_games()
    errors_seen = set()
    payload = [{"board": an.geometry_data(g.geometry), "start": position_json(g.start),
                "tags": g.tags, "turns": [str(t) for t in g.turns]} for g in games]
    got = _node("""
const out = input.map(({board, start, tags, turns}) => {
  let pos = sz.positionFromJson(board, start);
  const first = pos;
  const rows = [];
  const look = (pos) => {
    const occupied = [...pos.red, ...pos.blue, ...pos.neutral].sort((a, b) => a - b);
    const [r, b] = sz.scores(board, pos);
    return {position: sz.positionString(board, pos),
      legal: sz.legalTurns(board, pos).map((t) => sz.turnText(board, t)).join(' '),
      patterns: [0, 1].map((s) => [...sz.patterns(board, pos, s)].sort((x, y) => x[0] - y[0])),
      shown: [0, 1].map((s) => sz.patternSet(board, pos, s)),
      scores: [r, b], value: sz.value(board, pos), result: sz.resultText(board, pos),
      caption: sz.caption(board, pos), over: sz.isOver(pos),
      occupiedError: occupied.length && sz.turnError(board, pos, {stone: occupied[occupied.length - 1], neutral: -1}),
      neutralError: occupied.length && sz.turnError(board, pos, {stone: sz.legalTurns(board, pos).length ?
        sz.legalTurns(board, pos)[0].stone : 0, neutral: occupied[0]}),
      supplyError: sz.turnError(board, pos, {stone: board.points.length - 1, neutral: board.points.length - 2})};
  };
  let last = null;
  for (const text of turns) {
    rows.push({...look(pos), beams: sz.picture(board, pos, last).beams});
    last = sz.parseTurn(board, text);
    pos = sz.playTurn(board, pos, last);
  }
  rows.push({...look(pos), beams: sz.picture(board, pos, last).beams, marks: sz.picture(board, pos, last).marks});
  return {rows, record: sz.recordText(board, tags, first, turns)};
});
console.log(JSON.stringify(out));""", payload, "game.js", "sz")
    from szsolver.rules.base import turn_error, encode_turn
    for game, answer in zip(games, got):
        positions = [game.start] + game.positions
        assert len(answer["rows"]) == len(positions)
        for pos, a in zip(positions, answer["rows"]):
            g = pos.geometry
            assert a["position"] == position_string(pos)
            assert a["legal"] == " ".join(str(t) for t in pos.legal_turns())
            for side in (0, 1):
                assert [tuple(x) for x in a["patterns"][side]] == sorted(pos.patterns(side).items())
                assert a["shown"][side] == [k for k in range(16) if pos.pattern_set(side) >> k & 1]
            assert tuple(a["scores"]) == pos.scores() and a["value"] == pos.value()
            assert a["result"] == result_text(pos) and a["caption"] == position_caption(pos)
            assert a["over"] == pos.is_over()
            assert sorted(map(tuple, a["beams"])) == sorted(beam_pairs(pos))
            occupied = [p for p in range(g.size) if not pos.empty >> p & 1]
            if not occupied:          # the 8x8 board's start
                continue
            assert a["occupiedError"] == turn_error(pos, encode_turn(occupied[-1]))
            legal = pos.legal_turns()
            stone = legal[0].stone if legal else 0
            assert a["neutralError"] == turn_error(pos, encode_turn(stone, occupied[0]))
            assert a["supplyError"] == turn_error(pos, encode_turn(g.size - 1, g.size - 2))
            errors_seen.add(a["supplyError"] and a["supplyError"].split(" has ")[-1])
        last = game.turns[-1]
        assert a["marks"] == [last.stone] + ([last.neutral] if last.neutral >= 0 else [])
        assert answer["rows"][-1]["value"] == game.final.value() and game.final.is_over()
        assert answer["record"] == game_string(game)
    assert "no neutral stones left" in errors_seen
    assert {g.rule for g in games} == {0, 1} and {g.geometry.name for g in games} == {"stars-zone", "square-8"}


# --- streams: the live evaluation, the annotation's progress -----------------------------------

def events_of(text: str) -> list:
    """(name, data) of each Server-Sent Event in a stream, checking its form."""
    out = []
    assert text.endswith("\n\n"), text[-80:]
    for block in text.split("\n\n")[:-1]:
        lines = block.split("\n")
        assert len(lines) == 2 and lines[0].startswith("event: ") and lines[1].startswith("data: "), block
        out.append((lines[0][7:], json.loads(lines[1][6:])))
    return out


MID = position_string(example_game().positions[15])      # 16 turns left


def test_the_live_evaluation_streams_and_ends_with_the_best_commands_answer(client):
    r = client.get("/api/evaluate", params={"position": MID, "time_limit": "0.3"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    assert r.headers["cache-control"] == "no-store"
    events = events_of(r.text)
    names = [e for e, _ in events]
    assert names[-1] == "done" and set(names[:-1]) == {"progress"}
    progress = [d for _, d in events[:-1]]
    assert progress[0]["partial"] == "bounds" and progress[0]["value"] is None
    tree = [d for d in progress if d["partial"] == "tree"]
    assert tree and all(d["turn"] == d["pv"][0] and d["lower"] <= d["value"] <= d["upper"] for d in tree)
    counts = [d["iterations"] for d in tree]
    assert counts == sorted(counts) and counts[-1] < events[-1][1]["iterations"]
    done = events[-1][1]
    cli = cli_json("best", MID, "--time", "0.3")
    assert without(done, "seconds") == without(cli, "seconds")
    again = events_of(client.get("/api/evaluate", params={"position": MID, "time_limit": "0.3"}).text)
    assert without(again[-1][1], "seconds") == without(done, "seconds")


def test_the_live_evaluation_is_proved_near_the_end(client):
    events = events_of(client.get("/api/evaluate", params={"position": LATE, "time_limit": "1"}).text)
    assert [(e, d["partial"]) for e, d in events[:-1]] == [("progress", "solver")]
    assert events[-1][0] == "done" and events[-1][1]["exact"] and events[-1][1]["value"] == 199
    assert events[-1][1]["method"] == "solver" and "38" in events[-1][1]["best"]


@pytest.mark.parametrize("query, words", [
    ({"position": "garbage"}, "'garbage' starts neither a position string"),
    ({}, "missing 'position'"),
    ({"position": LATE, "time_limit": "soon"}, "time_limit must be a number of seconds, got 'soon'"),
    ({"position": LATE, "time_limit": "0"}, "time_limit must be a positive number"),
    ({"position": LATE, "time_limit": "NaN"}, "time_limit: NaN is not a number of seconds"),
    ({"position": LATE, "time_limit": "inf"}, "finite (more than 10 is cut to 10), got inf"),
    ({"position": LATE, "time_limit": "\u0663"}, "time_limit must be a number of seconds, got '\u0663'"),
    ({"position": LATE.replace(" 1 2 ", " -1 2 ")}, "red neutrals left must be 0..7, got '-1'"),
    ({"position": LATE, "depth": "3"}, "unknown parameter 'depth'"),
    ({"position": position_string(example_game().final)}, "the game is over"),
])
def test_a_bad_live_evaluation_is_a_4xx_in_one_line(client, query, words):
    before = client.get("/api/health").json()["jobs"]["started"]
    r = client.get("/api/evaluate", params=query)
    assert r.status_code == 400 and words in r.json()["error"] and "\n" not in r.json()["error"]
    assert client.get("/api/health").json()["jobs"]["started"] == before      # no job


def test_a_puzzle_the_server_does_not_make_is_refused_before_any_job(client):
    """A grade not offered on a board, and a daily puzzle of a date outside the server's
    years, are refused before a job starts (the first was refused inside one, which no
    counter counted; the second got a 404 suggesting another ID of the same date)."""
    before = client.get("/api/health").json()["jobs"]["started"]
    r = client.get("/api/puzzles/hex-fiendish-trialq1")
    assert r.status_code == 400 and "not offered" in r.json()["error"], r.text
    for pid in ("sz-easy-d19991231", "sz-hard-d21000101"):
        r = client.get(f"/api/puzzles/{pid}")
        assert r.status_code == 400 and "daily puzzles are made for" in r.json()["error"], r.text
    assert client.get("/api/health").json()["jobs"]["started"] == before


@pytest.mark.parametrize("path", [
    "/api/puzzles/daily?date=2026-11-29&date=2026-11-30", "/api/puzzles/daily?foo=1",
    "/api/puzzles/sz-hard-7?solution=1&solution=0", "/api/puzzles/sz-hard-7/steps?x=1",
    "/api/health?x=1", f"/api/evaluate?position={LATE}&time_limit=1&time_limit=2"])
def test_a_query_parameter_unknown_or_given_twice_is_refused(client, path):
    """As a JSON body's keys are: a parameter given twice kept its last value, and
    most endpoints took any unknown one, silently."""
    r = client.get(path)
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith(("unknown parameter", "parameter ")), r.text


def test_a_live_evaluations_time_limit_is_refused_as_written(client):
    """The query's text is quoted as written (not as the float it became), with the
    real maximum, which a larger limit is cut to (not refused)."""
    for text in ("-1", "0", "-0.5"):
        r = client.get("/api/evaluate", params={"position": LATE, "time_limit": text})
        assert r.json()["error"] == ("time_limit must be a positive number of seconds, finite "
                                     f"(more than 10 is cut to 10), got {text}"), r.text


def test_another_website_cannot_start_a_live_evaluation(client):
    for headers in ({"sec-fetch-site": "cross-site"}, {"origin": "http://evil.example"}):
        r = client.get("/api/evaluate", params={"position": LATE}, headers=headers)
        assert r.status_code == 403 and "another website" in r.json()["error"]
    r = client.get("/api/evaluate", params={"position": LATE, "time_limit": "0.1"},
                   headers={"sec-fetch-site": "same-origin", "origin": BASE})
    assert r.status_code == 200


# a browser's headers for: an image on another site's page, its script's fetch, a frame
# of it, and a link on it that the user followed (then the address typed, a bookmark)
IMAGE = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image"}
FETCH = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty",
         "origin": "http://evil.example"}
FRAME = {"sec-fetch-site": "same-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "iframe"}
LINK = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document",
        "sec-fetch-user": "?1"}
TYPED = {"sec-fetch-site": "none", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document"}


def test_another_websites_page_cannot_have_puzzles_made():
    """An image, a script or a frame of another site's page pointing at a new puzzle
    (its page, its JSON, its steps, a daily one) starts no job: 403, and its seed is
    not counted against the client's new puzzles. A link to it followed from
    another site, the address typed, this site's own pages and a client that sends no
    Sec-Fetch headers (curl) get it."""
    with TestClient(create_app(warm_daily=False, generations=2), base_url=BASE) as c:
        for path in ("/puzzle/sz-easy-xsite1", "/api/puzzles/sz-easy-xsite1",
                     "/api/puzzles/sz-easy-xsite1/steps", "/api/puzzles/sz-hard-3/steps",
                     "/api/puzzles/daily?date=2031-01-01", "/puzzle/daily?date=2031-01-01"):
            for headers in (IMAGE, FETCH, FRAME):
                r = c.get(path, headers=headers, follow_redirects=False)
                assert r.status_code == 403 and "another website" in r.text, (path, headers, r.text)
        assert "open the link in the browser" in c.get("/api/puzzles/sz-easy-xsite1", headers=IMAGE).json()["error"]
        assert c.get("/api/health").json()["jobs"]["started"] == 0
        assert c.get("/puzzle/sz-easy-xsite1", headers=LINK).status_code == 200          # generated
        assert c.get("/puzzle/sz-easy-xsite1", headers=TYPED).status_code == 200
        assert c.get("/api/puzzles/sz-easy-xsite1", headers={"sec-fetch-site": "same-origin",
                                                             "sec-fetch-mode": "cors"}).status_code == 200
        assert c.get("/api/puzzles/sz-easy-xsite2").status_code == 200                   # curl: generated
        assert c.get("/api/health").json()["jobs"]["started"] == 2
        # a collection puzzle's page is served to anyone's link; the steps to its own page
        assert c.get("/puzzle/sz-hard-3", headers=LINK).status_code == 200
        assert c.get("/puzzle/daily?date=2031-01-01", headers=LINK, follow_redirects=False).status_code == 302


def test_a_live_evaluation_whose_client_hangs_up_is_stopped():
    from urllib.parse import urlencode
    app = create_app(warm_daily=False, workers=1)
    jobs = app.state.web.jobs
    query = urlencode({"position": DEEP, "time_limit": "10"}).encode()
    assert _call(app, "GET", "/api/evaluate", query=query, hang_up_after=1.0) == 200
    assert jobs.stats["started"] == 1 and jobs.stats["done"] == 0
    assert jobs.counts()["cancelled"] == 1 and not jobs._live


def test_the_annotation_streams_its_progress(client):
    from szsolver.formats.record import GameRecord, game_json
    game = example_game()
    short = GameRecord({"Position": position_string(game.positions[-9])}, game.turns[-8:])
    body = {"game": game_json(short)}
    events = events_of(client.post("/api/annotate/events", json=body).text)
    progress = [d for e, d in events[:-1]]
    assert {e for e, _ in events[:-1]} == {"progress"} and events[-1][0] == "done"
    assert [d["done"] for d in progress] == sorted(d["done"] for d in progress)
    assert all(d["total"] == 8 for d in progress) and progress[-1] == {"done": 8, "total": 8, "text": "done"}
    assert progress[0]["text"].startswith("solving turn 32")
    plain = client.post("/api/annotate", json=body).json()
    assert without(events[-1][1], "seconds", "cpu_seconds") == without(plain, "seconds", "cpu_seconds")


def test_job_progress_reaches_the_caller_and_a_failing_caller_stops_the_job():
    from szsolver.web import tasks
    jobs = Jobs(workers=1)
    seen = []

    async def run():
        async def hear(data):
            seen.append(data)
        out = await jobs.run(tasks.evaluate_position, {"position": MID}, 0.2, deadline=30,
                             progress=hear)

        async def gone(data):
            raise Gone("the client has gone")
        with pytest.raises(Gone):
            await jobs.run(tasks.evaluate_position, {"position": DEEP}, 10.0, deadline=60,
                           progress=gone)
        return out
    out = anyio.run(run)
    assert seen and seen[-1]["partial"] == "tree" and out["iterations"] == out["budget"]["iterations"]
    assert jobs.stats["cancelled"] == 1 and jobs.stats["done"] == 1 and not jobs._live


def test_value_of_every_turn_gives_the_solver_most_of_the_limit_within_its_reach(monkeypatch):
    """With the supplies spent the solver usually proves 10 turns left in a moment
    (``check.within_reach``): "value of every turn" gives it the near share of the
    limit, as up to 8 turns left, and its answer is exact with no estimates."""
    from szsolver import Position
    from szsolver.endgame import solver
    from szsolver.rules.playout import seeded_rng
    from szsolver.web import tasks
    pos = Position(red_neutrals=5, blue_neutrals=5)
    rng = seeded_rng("every turn within reach")
    while pos.turns_left > 10:
        pos.play(rng.choice(list(pos.legal_turns())))
    seen, real = [], solver.solve

    def spy(p, **kw):
        seen.append(kw["time_limit"])
        return real(p, **kw)
    monkeypatch.setattr(solver, "solve", spy)
    # (a limit with room: the proof takes 3.6 CPU s, over 6 s of wall time under CI's load)
    got = tasks.solve_position({"position": position_string(pos)}, 40.0, True)
    assert seen == [40.0 * tasks.SOLVER_SHARE_NEAR]
    assert got["exact"] and "estimates" not in got
    assert len(got["turns"]) == len(pos.legal_turns())


@pytest.mark.parametrize("client_does, status", [("hangs up", 400), ("waits", 408)])
def test_a_body_cut_short_is_the_clients_doing_not_a_bug(monkeypatch, client_does, status):
    """A client that sends part of a body and hangs up was logged as an internal error
    (ClientDisconnect's traceback); one that sends part and waits held its request for
    ever. Now a 400 and a 408, one line each."""
    from starlette.requests import Request

    from szsolver.web import app as web_app
    monkeypatch.setattr(web_app, "BODY_SECONDS", 0.2)
    sent = []

    async def receive():
        if not sent:
            sent.append(1)
            return {"type": "http.request", "body": b'{"pos', "more_body": True}
        if client_does == "hangs up":
            return {"type": "http.disconnect"}
        await anyio.sleep(30)
    scope = {"type": "http", "method": "POST", "path": "/api/score", "headers": [],
             "query_string": b""}

    async def read():
        return await web_app.read_json(Request(scope, receive), {"position"})
    with pytest.raises(web_app.ApiError) as e:
        anyio.run(read)
    assert e.value.status == status and "request body" in str(e.value)


def test_a_wrong_method_names_the_one_to_use(client):
    """A 405 says which method the endpoint takes, in words and in the Allow header that
    HTTP asks of it (the header was lost: the server's own error page replaced the
    answer)."""
    for path, allowed in (("/api/score", "POST"), ("/api/puzzles/daily", "GET")):
        r = client.request("PUT", path, json={})
        assert r.status_code == 405 and allowed in r.headers["allow"], (path, r.headers)
        assert r.json()["error"] == f"method not allowed here: use {r.headers['allow']}"


def test_an_annotation_carries_the_records_warnings_as_the_command_does(client):
    """/api/annotate is ``annotate --json``: the record's warnings too (a Result tag the
    replay contradicts), which it left out."""
    record = '[Result "9-9"]\n1. 44n66 64 2. 41 54'
    r = client.post("/api/annotate", json={"source": record, "time_per_turn": 0.05})
    assert r.status_code == 200, r.text
    assert r.json()["warnings"] == cli_json("annotate", record, "--time-per-turn", "0.05",
                                            "--exact-turns", "6", "--solver-time", "5")["warnings"]
    assert r.json()["warnings"] and "Result tag says 9-9" in r.json()["warnings"][0]
