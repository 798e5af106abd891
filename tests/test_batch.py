"""Batch work on a Dask cluster (szsolver.batch, ``szsolver batch``): on a real
``distributed.LocalCluster`` of 2 worker processes, the outputs equal a serial run
(and the serial solver's own answers), a worker killed mid-run loses and duplicates
nothing, a resumed run computes only what was missing, and a deep solve split over
jobs gives the serial solver's value, best turns and a proved line."""
from __future__ import annotations

import json
import os
import signal
import time

import pytest

distributed = pytest.importorskip("distributed")

# one worker of a parallel run (-n, --dist loadgroup) runs the Dask tests, one local
# cluster at a time on the machine, each module's cluster started once
pytestmark = pytest.mark.xdist_group("dask")

from click.testing import CliRunner  # noqa: E402

from szsolver.batch.deep import deep_solve  # noqa: E402
from szsolver.batch.run import Directory, JsonLines, Unit, run_units  # noqa: E402
from szsolver.batch.units import (TIMING_KEYS, annotate_unit, puzzle_dates,  # noqa: E402
                                  puzzle_unit, solve_unit)
from szsolver.endgame.solver import solve  # noqa: E402
from szsolver.rules.backends import to_core  # noqa: E402
from szsolver.formats.notation import format_turn, parse_position, position_string  # noqa: E402
from szsolver.formats.record import GameRecord, example_game, game_string  # noqa: E402


def _late_positions(low=3, high=6):
    """The rulebook game's positions with ``low``..``high`` turns left, under both rules
    (the basic ones are the game as played; the advanced ones replay its stones)."""
    game = example_game()
    out = []
    for p in game.positions:
        if low <= to_core(p).turns_left <= high:
            out.append(position_string(to_core(p)))
            out.append(position_string(to_core(p.with_rule("advanced"))))
    return out


POSITIONS = _late_positions(2, 5)


def _no_neutrals_for_the_mover(text: str) -> str:
    """``text`` with the side to move out of neutrals: a few dozen root turns, not hundreds."""
    fields = text.split()
    fields[2 if fields[1] == "R" else 3] = "0"
    return " ".join(fields)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=50)
    try:
        with distributed.Client(cluster) as c:
            yield c
    finally:
        cluster.close()


def _strip(record: dict) -> dict:
    return {k: v for k, v in record.items()
            if k not in TIMING_KEYS and k not in ("source_sha256", "options")}


def _read_jsonl(path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(ln) for ln in f]


def _solve_units(lines, **limits):
    return [Unit(i + 1, solve_unit, (i, ln, limits.get("time_limit"), limits.get("node_limit")))
            for i, ln in enumerate(lines)]


def test_batch_solve_equals_the_serial_solver(client, tmp_path):
    lines = POSITIONS + ["not a position"]
    out = tmp_path / "out.jsonl"
    report = run_units(client, _solve_units(lines), JsonLines(str(out), "line"))
    assert sorted(report.computed) == list(range(1, len(lines) + 1)) and report.skipped == 0
    got = _read_jsonl(out)
    assert [r["line"] for r in got] == list(range(1, len(lines) + 1))   # input order
    for rec, text in zip(got, lines):
        assert rec["input"] == text
        if text == "not a position":
            assert rec["error"] and "value" not in rec
            continue
        from szsolver.formats.record import parse_source_text
        pos, _ = parse_source_text(text)
        want = solve(pos).to_json(pos.geometry)      # the serial solver, in this process
        assert _strip(rec) == {"line": rec["line"], "input": text, **_strip(want)}
        assert rec["exact"] and rec["value"] is not None


def test_node_limit_per_position_gives_proved_bounds(client, tmp_path):
    deep = _late_positions(5, 6)[:2]
    out = tmp_path / "limited.jsonl"
    run_units(client, _solve_units(deep, node_limit=50), JsonLines(str(out), "line"))
    for rec, text in zip(_read_jsonl(out), deep):
        from szsolver.formats.record import parse_source_text
        exact = solve(parse_source_text(text)[0])
        assert rec["lower"] <= exact.value <= rec["upper"]
        assert rec["exact"] is False or rec["value"] == exact.value


class _Stop(Exception):
    pass


def test_resumed_run_repeats_no_work(client, tmp_path):
    lines = POSITIONS
    out = tmp_path / "resume.jsonl"
    seen = []

    def stop_after_three(key, record):
        seen.append(key)
        if len(seen) == 3:
            raise _Stop
    with pytest.raises(_Stop):
        run_units(client, _solve_units(lines), JsonLines(str(out), "line"),
                  on_result=stop_after_three, window=2)
    first = set(seen)
    assert len(_read_jsonl(out)) == 3
    with open(out, "a", encoding="utf-8") as f:       # a run killed while writing
        f.write('{"line": 99, "inp')
    report = run_units(client, _solve_units(lines), JsonLines(str(out), "line"))
    assert report.skipped == 3
    assert set(report.computed) == set(range(1, len(lines) + 1)) - first
    assert len(report.computed) == len(set(report.computed))
    resumed = [_strip(r) for r in _read_jsonl(out)]
    fresh = tmp_path / "fresh.jsonl"
    run_units(client, _solve_units(lines), JsonLines(str(fresh), "line"))
    assert resumed == [_strip(r) for r in _read_jsonl(fresh)]
    again = run_units(client, _solve_units(lines), JsonLines(str(out), "line"))
    assert again.computed == [] and again.skipped == len(lines)


def test_another_inputs_results_are_never_dropped(client, tmp_path):
    """OUT.jsonl holding another input's results (lines this input does not have, or
    no record of this input's text) is refused before any work, the file untouched;
    an input edited in one line resumes, that line done again."""
    from szsolver.errors import InputError

    def units(lines):               # as batch solve makes them: each of its line's text
        return [Unit(i + 1, solve_unit, (i, ln, None, None), source=ln)
                for i, ln in enumerate(lines)]
    lines = POSITIONS[:4]
    out = tmp_path / "kept.jsonl"
    run_units(client, units(lines), JsonLines(str(out), "line"))
    before = out.read_bytes()
    for other in (lines[:1], [lines[3], lines[2], lines[1], lines[0]]):
        with pytest.raises(InputError, match="holds the results of another input"):
            run_units(client, units(other), JsonLines(str(out), "line"))
        assert out.read_bytes() == before
    edited = lines[:3] + [lines[0]]
    report = run_units(client, units(edited), JsonLines(str(out), "line"))
    assert report.computed == [4] and report.skipped == 3


def test_a_smaller_limit_keeps_the_earlier_record_that_proved_more(client, tmp_path):
    """A line done again under other limits keeps the earlier record where it proved
    more (narrower bounds, or the value): no run throws away a proof; a larger limit
    that proves more replaces it."""
    from szsolver.batch.units import solve_kept, solve_settled
    # 9 turns left (a greedy game's): 200,000 nodes prove more than 1,000
    deep = "NN/NN..NR/NBBB.NR/NRR.RBB./.BR.N..../RR....../.B.R.../RBBBRR/B. B 2 0 basic"

    def units(node_limit):
        return [Unit(1, solve_unit, (0, deep, None, node_limit), deep,
                     {"time_limit": None, "node_limit": node_limit}, solve_settled, solve_kept)]
    out = tmp_path / "kept.jsonl"
    run_units(client, units(200_000), JsonLines(str(out), "line"))
    earlier = _read_jsonl(out)[0]
    fresh = tmp_path / "fresh.jsonl"
    run_units(client, units(1000), JsonLines(str(fresh), "line"))
    looser = _read_jsonl(fresh)[0]
    assert looser["upper"] - looser["lower"] > earlier["upper"] - earlier["lower"]
    report = run_units(client, units(1000), JsonLines(str(out), "line"))
    assert report.again == [1] and report.kept == [1]
    assert _read_jsonl(out) == [earlier]
    assert solve_kept(looser, earlier) is earlier and solve_kept(earlier, looser) is earlier
    assert solve_kept(earlier, {**looser, "exact": True}) is not earlier
    assert solve_kept({"error": "x"}, looser) is looser


def test_a_killed_worker_loses_and_duplicates_nothing(client, tmp_path):
    lines = _late_positions(4, 6)
    out = tmp_path / "killed.jsonl"
    killed = []

    def kill_a_busy_worker(key, record):
        if killed:
            return
        pids = client.run(os.getpid)
        busy = [w for w, keys in client.processing().items() if keys]
        if busy:
            os.kill(pids[busy[0]], signal.SIGKILL)
            killed.append(pids[busy[0]])
    report = run_units(client, _solve_units(lines), JsonLines(str(out), "line"),
                       on_result=kill_a_busy_worker, window=4)
    assert killed, "no worker was busy to kill"
    assert sorted(report.computed) == list(range(1, len(lines) + 1))
    got = _read_jsonl(out)
    assert [r["line"] for r in got] == list(range(1, len(lines) + 1))
    serial = [_strip(solve_unit(i, ln)) for i, ln in enumerate(lines)]
    assert [_strip(r) for r in got] == serial
    deadline = time.time() + 30                      # the nanny brings a worker back
    while len(client.run(os.getpid)) < 2 and time.time() < deadline:
        time.sleep(0.2)
    assert killed[0] not in client.run(os.getpid).values()


def test_batch_puzzles_equal_serial_and_resume(client, tmp_path):
    dates = puzzle_dates("2026-11-23", 2)              # a Monday and a Tuesday: easy
    assert dates == ["2026-11-23", "2026-11-24"]
    from szsolver.starmaps.daily import daily, daily_id
    units = [Unit(daily_id(d), puzzle_unit, (d,)) for d in dates]
    report = run_units(client, units, Directory(str(tmp_path)))
    assert sorted(report.computed) == sorted(daily_id(d) for d in dates)
    for d in dates:
        with open(tmp_path / f"{daily_id(d)}.json", encoding="utf-8") as f:
            got = json.load(f)
        want = daily(d).to_json()
        assert got == {**want, "date": d}
        assert got["id"] == daily_id(d) and got["solution"]
    (tmp_path / f"{daily_id(dates[1])}.json").unlink()
    (tmp_path / f".{daily_id(dates[1])}.json.tmp123").write_text("{")   # a torn temporary
    again = run_units(client, units, Directory(str(tmp_path)))
    assert again.computed == [daily_id(dates[1])] and again.skipped == 1


def test_batch_annotate_equals_serial(client, tmp_path):
    from szsolver.analysis.annotate import annotate
    game = example_game()
    k = [i for i, p in enumerate(game.positions) if to_core(p).turns_left == 5][0]
    short = GameRecord({"Position": position_string(to_core(game.positions[k]))},
                 game.turns[k + 1:])
    text = game_string(short)
    units = [Unit("late", annotate_unit, ("late.szg", text, 0.5, 8, 30.0)),
             Unit("bad", annotate_unit, ("bad.szg", "1. zz", 0.5, 8, 30.0))]
    run_units(client, units, Directory(str(tmp_path)))
    with open(tmp_path / "late.json", encoding="utf-8") as f:
        got = json.load(f)
    want = annotate(short, time_per_turn=0.5, exact_turns=8, solver_time=30.0).to_json()
    for key in ("seconds", "cpu_seconds"):          # measured, not computed
        got.pop(key), want.pop(key)
    assert got == {"source": "late.szg", **want, "warnings": []}     # as annotate --json
    with open(tmp_path / "bad.json", encoding="utf-8") as f:
        assert json.load(f)["error"]


@pytest.mark.parametrize("turns_left, frontier", [(5, None), (6, None), (5, 3)])
def test_deep_solve_equals_the_serial_solver(client, turns_left, frontier):
    """The root's children as jobs, and (frontier 3) the client keeping two plies."""
    from szsolver.formats.record import parse_source_text
    for text in _late_positions(turns_left, turns_left):
        pos, _ = parse_source_text(_no_neutrals_for_the_mover(text))
        got = deep_solve(client, pos, frontier_turns=frontier)
        want = solve(pos)
        g = pos.geometry
        assert got["exact"] and got["value"] == want.value
        assert (got["lower"], got["upper"], got["winner"]) == (want.lower, want.upper,
                                                              want.winner)
        assert got["best"] == [format_turn(t, g) for t in want.best]
        assert got["pv"][0] in got["best"]
        end = to_core(pos)                       # the line keeps the value to the end
        for t in got["pv"]:
            end.make(end.parse_turn(t))
        assert end.is_over() and end.value() == want.value
        assert got["scores"] == dict(zip(("red", "blue"), end.scores()))
        assert len(got["tasks"]) == len({tuple(o) for o in _orbits(pos)})


def _orbits(pos):
    from szsolver.endgame.solver import turn_orbits
    return turn_orbits(to_core(pos))


def test_cli_batch_solve_on_a_running_scheduler(client, tmp_path):
    from szsolver.cli import main
    src = tmp_path / "positions.txt"
    src.write_text("# late positions\n\n" + "\n".join(POSITIONS[:3]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["batch", "solve", str(src), str(out), "--scheduler",
                                  client.scheduler.address])
    assert r.exit_code == 0, r.output
    got = _read_jsonl(out)
    assert [r_["line"] for r_ in got] == [3, 4, 5]           # file lines, comments skipped
    import hashlib
    assert [r_.pop("source_sha256") for r_ in got] == [
        hashlib.sha256(p.strip().encode()).hexdigest() for p in POSITIONS[:3]]
    assert [_strip(r_) for r_ in got] == [_strip(solve_unit(i + 2, p))
                                          for i, p in enumerate(POSITIONS[:3])]
    assert "3 units: 3 computed, 0 done before" in r.output
    r = CliRunner().invoke(main, ["batch", "solve", str(src), str(out), "--scheduler",
                                  client.scheduler.address])
    assert r.exit_code == 0 and "3 units: 0 computed, 3 done before" in r.output
    # a line changed since: its record is of other input, done again; the others kept
    src.write_text("# late positions\n\n" + "\n".join([POSITIONS[0], POSITIONS[3], POSITIONS[2]])
                   + "\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["batch", "solve", str(src), str(out), "--scheduler",
                                  client.scheduler.address])
    assert r.exit_code == 0 and "3 units: 1 computed, 2 done before" in r.output
    got = _read_jsonl(out)
    assert [g["input"] for g in got] == [POSITIONS[0].strip(), POSITIONS[3].strip(),
                                         POSITIONS[2].strip()]


def test_cli_batch_solve_under_a_larger_limit_tries_the_unproved_lines_again(client, tmp_path):
    """A re-run with a larger limit solves again the lines a limit stopped before (they
    were skipped, their input unchanged, and stayed unproved without a word), keeps
    those proved exact and complete, and says how many a limit stopped."""
    from szsolver.cli import main
    addr = ["--scheduler", client.scheduler.address]
    src = tmp_path / "positions.txt"
    # proved in 129 nodes; the value proved, not its best turns; not proved in 50 nodes
    src.write_text("\n".join([POSITIONS[4], POSITIONS[0], POSITIONS[1]]) + "\n",
                   encoding="utf-8")
    out = tmp_path / "out.jsonl"

    def batch(*limit):
        r = CliRunner().invoke(main, ["batch", "solve", str(src), str(out), *addr, *limit])
        assert r.exit_code == 0, r.output
        return r.stdout.splitlines(), _read_jsonl(out)
    first, got = batch("--node-limit", "50")
    assert [(g["exact"], g["complete"]) for g in got] == [(True, True), (True, False),
                                                          (False, False)]
    same, again = batch("--node-limit", "50")                 # the same limit: nothing new
    assert [_strip(g) for g in again] == [_strip(g) for g in got]
    larger, got = batch("--node-limit", "10000000")
    assert all(g["exact"] and g["complete"] for g in got)     # it kept the unproved ones
    assert [_strip(g) for g in got[1:]] == [_strip(solve_unit(i, p))
                                            for i, p in ((1, POSITIONS[0]), (2, POSITIONS[1]))]
    assert [g["options"] for g in got] == [{"time_limit": None, "node_limit": n}
                                           for n in (50, 10000000, 10000000)]
    none, _ = batch()                  # no limit: every record is proved already, kept
    note = ("2 stopped by a limit (not proved whole): a run with a larger limit solves them "
            "again")
    assert first[0].startswith("3 units: 3 computed, 0 done before;") and first[1:] == [note]
    assert same[0].startswith("3 units: 0 computed, 3 done before;") and same[1:] == [note]
    assert len(larger) == 1 and larger[0].startswith(
        "3 units: 2 computed, 2 of them again (done before under other options), 1 done before;")
    assert len(none) == 1 and none[0].startswith("3 units: 0 computed, 3 done before;")


# late positions of the other games of the family: proved in a moment
STAR = "star:4x5:BWWB/BBWW./BWWBBW/WB.W.WB/BB.BBBWW/BWBWBWW/BWBB.W/WBWW.:B"
STARGAZERS = ("stargazers:12-star:1-2:r=2,3,4,6,8,9,10,13,14,16,20,21,24,29,32:"
              "b=7,15,18,19,23,25,26,30,31,33,36,37,39,43,44,45")
FAMILY_RECORDS = {"star": f'[Game "star"] [Position "{STAR}"] 1. E7 E8 2. H2',
                  "stargazers": f'[Game "stargazers"] [Position "{STARGAZERS}"] 9. 35,47 11'}


def test_cli_batch_solve_and_annotate_take_star_and_stargazers(client, tmp_path):
    """Each unit through the registry's entry for its game: the records are what
    ``solve --json`` and ``annotate --json`` print for that game."""
    from szsolver.cli import main
    addr = ["--scheduler", client.scheduler.address]
    src = tmp_path / "positions.txt"
    src.write_text(f"{STAR}\n{STARGAZERS}\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["batch", "solve", str(src), str(out), *addr])
    assert r.exit_code == 0 and "2 units: 2 computed, 0 done before" in r.output, r.output
    got = _read_jsonl(out)
    for line, (record, text) in enumerate(zip(got, (STAR, STARGAZERS)), 1):
        want = _cli_json("solve", text)
        assert _strip(record) == {"line": line, "input": text, **_strip(want)}
    paths = []
    for name, text in FAMILY_RECORDS.items():
        paths.append(tmp_path / f"{name}.txt")
        paths[-1].write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["batch", "annotate", *map(str, paths), str(tmp_path / "ann"),
                                  *addr])
    assert r.exit_code == 0 and "2 units: 2 computed, 0 done before" in r.output, r.output
    for name, path in zip(FAMILY_RECORDS, paths):
        got = json.loads((tmp_path / "ann" / f"{name}.json").read_text(encoding="utf-8"))
        want = _cli_json("annotate", str(path))
        assert _timeless(got) == {"source": str(path), **_timeless(want)}, name


def _timeless(x):
    """``x`` without its timings at any depth (a Star annotation times every move)."""
    if isinstance(x, dict):
        return {k: _timeless(v) for k, v in x.items()
                if k not in TIMING_KEYS and k not in ("source_sha256", "options")}
    return [_timeless(v) for v in x] if isinstance(x, list) else x


def _cli_json(*args):
    from szsolver.cli import main
    r = CliRunner().invoke(main, [*args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_cli_batch_solve_refuses_a_file_that_holds_no_results(tmp_path):
    """OUT.jsonl that is an earlier run's results is resumed; any other file (a game
    record given by mistake) or a device is refused before any work, untouched."""
    from szsolver.cli import main
    from szsolver.formats.record import example_path
    src = tmp_path / "positions.txt"
    src.write_text(POSITIONS[0] + "\n", encoding="utf-8")
    record = tmp_path / "important.szg"
    record.write_text(open(example_path(), encoding="utf-8").read(), encoding="utf-8")
    before = record.read_bytes()
    for out in (str(record), "/dev/null"):
        r = CliRunner().invoke(main, ["batch", "solve", str(src), out, "--workers", "1"])
        assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, r.output
    assert record.read_bytes() == before


@pytest.mark.parametrize("args, words", [
    (["batch", "solve", "no-such-file.txt", "out.jsonl", "--workers", "1"], "no-such-file"),
    (["batch", "solve", "{src}", "{tmp}", "--workers", "1"], "is a directory"),
    (["batch", "solve", "{src}", "out.jsonl", "--workers", "0"], "--workers"),
    (["batch", "puzzles", "--start", "2026-13-01", "--days", "1", "{tmp}/p"], "bad date"),
    (["batch", "deep-solve", "garbage", "--workers", "1"], "garbage"),
])
def test_cli_bad_input_is_one_line_exit_2(tmp_path, args, words):
    from szsolver.cli import main
    src = tmp_path / "positions.txt"
    src.write_text(POSITIONS[0] + "\n", encoding="utf-8")
    args = [a.format(src=src, tmp=tmp_path) for a in args]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    assert "Error:" in r.output and words in r.output


@pytest.mark.parametrize("n", ["9", "9" * 20])
def test_batch_annotate_refuses_an_exact_horizon_past_a_games_reach_before_any_work(tmp_path, n):
    """--exact-turns 9: past Stars' Zone's horizon; one line naming the file, exit 2,
    no OUT/ made (each game's range is its own, asked of its registry entry). A number
    past 64 bits too (it was refused with 'at most 9223372036854775807')."""
    from szsolver.cli import main
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["batch", "annotate", "--example", str(out), "--exact-turns", n,
                                  "--workers", "1"])
    assert r.exit_code == 2, r.output
    assert r.stderr == (f"Error: rulebook example game: --exact-turns {n}: at most 8 turns left "
                        "(the exact solver's horizon without a limit)\n")
    assert not out.exists()


def test_cli_deep_solve_says_how_deep_it_goes_without_a_limit():
    """12 turns left without a limit: refused in words that hold for the jobs of today
    (the client keeps the top plies; it said each task would solve 11 turns)."""
    from szsolver.cli import main
    deep = position_string(example_game().positions[19])        # 12 turns left, Red to move
    r = CliRunner().invoke(main, ["batch", "deep-solve", deep, "--workers", "1"])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == ("Error: position has 12 turns left: too deep to solve on a "
                                "cluster without a limit (up to 9 turns left without one); give "
                                "a time limit or a node limit")


@pytest.mark.parametrize("start, days", [("9999-12-31", "2"), ("9999-12-01", "40"),
                                         ("2026-01-01", "9223372036854775807"),
                                         ("2026-01-01", "9" * 20)])
def test_batch_puzzles_past_the_last_date_is_one_line_exit_2(tmp_path, start, days):
    """Dates past 9999-12-31 are bad input named as such (they were an OverflowError),
    found before OUT/ is made; however many days are asked for (past 64 bits it said
    'at most 9223372036854775807')."""
    from szsolver.cli import main
    out = tmp_path / "p"
    r = CliRunner().invoke(main, ["batch", "puzzles", "--start", start, "--days", days, str(out)])
    assert r.exit_code == 2, r.output
    assert r.stdout == "" and r.stderr.startswith("Error: ") and r.stderr.count("\n") == 1
    assert "run past 9999-12-31, the last date there is" in r.stderr
    assert not out.exists()


def test_puzzle_dates_reach_the_last_date():
    assert puzzle_dates("9999-12-30", 2) == ["9999-12-30", "9999-12-31"]


# --- deep solve: the jobs ----------------------------------------------------------------------

def _children(text):
    """(position string, Red to move, [(root turn, the child's value by the serial solver)])."""
    from szsolver.endgame.solver import turn_orbits
    from szsolver.formats.record import parse_source_text
    core = to_core(parse_source_text(text)[0])
    out = []
    for orb in turn_orbits(core):
        child = core.copy()
        child.make(orb[0])
        out.append((orb[0], solve(child).value))
    return position_string(core), core.side == 0, out


@pytest.mark.parametrize("text", [_no_neutrals_for_the_mover(t) for t in _late_positions(4, 4)])
def test_a_job_answers_a_proved_bound_warm_or_cold(text):
    """A job is a pure function of (solve, root, path, gamma): its answer to "value >=
    gamma" holds for the child's true value, the same from a cold table as from one
    warm with its siblings' proofs (which only saves nodes); once its solve ended on
    the worker, its searchers are gone and a late job answers None at once."""
    from szsolver.batch.deep import end_solve, job, warm_solves
    pstr, red, kids = _children(text)
    value = (max if red else min)(v for _, v in kids)
    import uuid
    warm = f"szsolver-test-warm-{uuid.uuid4().hex}"
    solves = [warm]
    try:
        for t, v in kids:
            for gamma in sorted({value, value + 1, v, v + 1}):
                solves.append(f"{warm}-cold-{len(solves)}")
                for r in (job(warm, pstr, [t], gamma), job(solves[-1], pstr, [t], gamma)):
                    assert r["stopped"] is None and r["is_lower"] == (v >= gamma)
                    assert (v >= r["bound"]) if r["is_lower"] else (r["bound"] >= v)
        assert warm in warm_solves()
    finally:
        for sid in solves:
            end_solve(sid)
    assert not [s for s in warm_solves() if s.startswith("szsolver-test")]
    assert job(warm, pstr, [kids[0][0]], value) is None


def parse(text):
    from szsolver.formats.record import parse_source_text
    return parse_source_text(text)[0]


def test_a_set_cancel_event_stops_a_job_and_is_cleared(client):
    """A job looks at its parent's cancel event before it searches and between slices:
    set, the job answers "cancelled" at once; the events a solve set are cleared
    (deleted from the scheduler) when it ends."""
    from szsolver.batch.deep import end_solve, job
    text = _no_neutrals_for_the_mover(_late_positions(4, 4)[0])
    pstr, red, kids = _children(text)
    name = "szsolver-test-cancel"
    event = distributed.Event(name, client=client)
    try:
        event.set()
        r = client.submit(job, "szsolver-test-c", pstr, [kids[0][0]], 0, cancel=name,
                          pure=False).result()
        assert r["stopped"] == "cancelled" and r["nodes"] == 0 and "bound" not in r
        event.clear()
        r = client.submit(job, "szsolver-test-c", pstr, [kids[0][0]], 0, cancel=name,
                          pure=False).result()
        assert r["stopped"] is None and r["is_lower"] == (kids[0][1] >= 0)
    finally:
        event.clear()
        client.run(end_solve, "szsolver-test-c")
    assert _scheduler_state(client) == []



def test_deep_solve_in_small_slices_equals_the_serial_solver(client):
    """Probes stopped every 64 nodes to read the window, and resumed: same answers."""
    from szsolver.batch import deep
    client.run(setattr, deep, "SLICE_NODES", 64)
    try:
        for text in _late_positions(6, 6)[1:]:         # the advanced rule: most work
            pos = parse(_no_neutrals_for_the_mover(text))
            got, want = deep_solve(client, pos), solve(pos)
            assert got["exact"] and got["value"] == want.value
            assert got["best"] == [format_turn(t, pos.geometry) for t in want.best]
    finally:
        client.run(setattr, deep, "SLICE_NODES", deep.SLICE_NODES)


def test_deep_solve_survives_a_killed_worker(client, worker_killer):
    """A worker killed while it runs a job: Dask runs the job again elsewhere (a pure
    function of its inputs, from a cold table), the value is right."""
    pos = parse(_no_neutrals_for_the_mover(_late_positions(6, 6)[1]))
    kill_a_busy_worker = worker_killer(client)
    got = deep_solve(client, pos, progress=kill_a_busy_worker)
    want = solve(pos)
    assert kill_a_busy_worker.killed, "no worker was busy to kill"
    assert got["exact"] and got["value"] == want.value
    assert got["best"] == [format_turn(t, pos.geometry) for t in want.best]
    assert len(got["tasks"]) == len(_orbits(pos))


def test_deep_solve_node_limit_gives_proved_bounds(client):
    text = _no_neutrals_for_the_mover(_late_positions(6, 6)[0])
    pos = parse(text)
    got = deep_solve(client, pos, node_limit=200)
    want = solve(pos).value
    assert got["lower"] <= want <= got["upper"]
    assert got["exact"] is False or got["value"] == want


# --- the commands: standard input, --example, bad input -----------------------------------

def test_cli_deep_solve_reads_standard_input_and_example(client):
    from szsolver.cli import main
    from szsolver.cli.common import example_position
    addr = ["--scheduler", client.scheduler.address, "--json"]
    r = CliRunner().invoke(main, ["batch", "deep-solve", "--example", *addr])
    assert r.exit_code == 0, r.output
    want = solve(example_position(6))
    got = json.loads(r.output)
    assert got["value"] == want.value and got["exact"]
    assert got["best"] == [format_turn(t, example_position(6).geometry) for t in want.best]
    text = position_string(to_core(example_position(4)))
    r = CliRunner().invoke(main, ["batch", "deep-solve", "-", *addr], input=text + "\n")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["value"] == solve(example_position(4)).value


def test_cli_batch_solve_reads_standard_input_and_example(client, tmp_path):
    from szsolver.cli import main
    addr = ["--scheduler", client.scheduler.address]
    out = tmp_path / "stdin.jsonl"
    r = CliRunner().invoke(main, ["batch", "solve", "-", str(out), *addr],
                           input="\n".join(POSITIONS[:2]) + "\n")
    assert r.exit_code == 0, r.output
    assert [_strip(x) for x in _read_jsonl(out)] == [_strip(solve_unit(i, p))
                                                    for i, p in enumerate(POSITIONS[:2])]
    out = tmp_path / "example.jsonl"
    r = CliRunner().invoke(main, ["batch", "solve", "--example", str(out), *addr])
    assert r.exit_code == 0, r.output
    from szsolver.cli.common import example_position
    got = _read_jsonl(out)
    assert [x["value"] for x in got] == [solve(example_position(k)).value for k in range(6, 0, -1)]


@pytest.mark.parametrize("args, words", [
    (["batch", "solve", "{src}", "out.jsonl", "--workers", "-3"], "--workers"),
    (["batch", "solve", "{src}", "out.jsonl", "--workers", "100000"], "local worker processes"),
    # past 64 bits too (it said 'at most 9223372036854775807')
    (["batch", "solve", "{src}", "out.jsonl", "--workers", "9" * 20],
     f"{'9' * 20} is more than"),
    (["batch", "solve", "{src}", "out.jsonl", "--scheduler", "not an address"],
     "not a scheduler address"),
    (["batch", "solve", "{src}", "/proc/no/such/out.jsonl", "--workers", "1"], "cannot write"),
    (["batch", "solve", "{src}", "/proc/version", "--workers", "1"], "cannot write"),
    (["batch", "solve", "{src}", "-", "--workers", "1"], "file name"),
    (["batch", "solve", "{src}", "--workers", "1"], "missing OUT.jsonl"),
    (["batch", "solve", "--example", "{src}", "out.jsonl", "--workers", "1"], "not POSITIONS_FILE"),
    (["batch", "annotate", "{src}", "/proc/no/such/dir", "--workers", "1"], "cannot"),
    (["batch", "annotate", "{tmp}", "--workers", "1"], "missing GAMES"),
    (["batch", "deep-solve", "--workers", "1"], "missing SOURCE"),
    (["batch", "deep-solve", "--example", "{src}", "--workers", "1"], "not both"),
    (["batch", "deep-solve", "--example", "--workers", "0"], "--workers"),
    (["batch", "deep-solve", "--example", "--scheduler", "tcp://127.0.0.1:1"],
     "cannot reach the Dask scheduler"),
])
def test_cli_more_bad_input_is_one_line_exit_2(tmp_path, args, words):
    from szsolver.cli import main
    src = tmp_path / "positions.txt"
    src.write_text(POSITIONS[0] + "\n", encoding="utf-8")
    args = [a.format(src=src, tmp=tmp_path) for a in args]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and words in lines[0], r.output


@pytest.mark.parametrize("answer, words", [
    (None, "no Dask scheduler answered there within 0.5 s"),     # listens, says nothing
    (b"HTTP/1.0 400 Bad Request\r\n\r\n" * 4, "not a Dask scheduler"),
])
def test_a_scheduler_address_where_no_scheduler_answers_fails_at_once(monkeypatch, answer,
                                                                      words):
    """A TCP address where something other than a Dask scheduler listens is refused
    with one line, within the handshake's wait (Dask's own connect would wait for
    its handshake without end, or misread the answer as a huge message); a refused
    port is reported at once rather than after Dask's 10 s of retries."""
    import socket
    import threading
    from szsolver.batch import cluster
    from szsolver.cli import main
    monkeypatch.setattr(cluster, "HANDSHAKE_SECONDS", 0.5)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    held = []

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if answer:
                conn.sendall(answer)
    threading.Thread(target=serve, daemon=True).start()
    try:
        t = time.perf_counter()
        r = CliRunner().invoke(main, ["batch", "deep-solve", "--example", "--scheduler",
                                      f"tcp://127.0.0.1:{port}"])
        took = time.perf_counter() - t
    finally:
        server.shutdown(socket.SHUT_RDWR)     # wakes the accept: the port is closed
        server.close()
        for conn in held:
            conn.close()
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "cannot reach the Dask scheduler" in lines[0]
    assert words in lines[0] and took < 5
    t = time.perf_counter()
    r = CliRunner().invoke(main, ["batch", "deep-solve", "--example", "--scheduler",
                                  f"tcp://127.0.0.1:{port}"])      # closed now: refused
    assert r.exit_code == 2 and "connection refused" in r.output
    assert time.perf_counter() - t < 5


def test_a_scheduler_that_does_not_answer_leaves_no_output_behind(tmp_path):
    """OUT/ is tested writable before the work, but made only when the work starts: a
    refused scheduler left an empty OUT/ behind."""
    from szsolver.cli import main
    out = tmp_path / "daily"
    r = CliRunner().invoke(main, ["batch", "puzzles", "--start", "2026-11-23", "--days", "1",
                                  "--scheduler", "tcp://127.0.0.1:1", str(out)])
    assert r.exit_code == 2 and "cannot reach the Dask scheduler" in r.output
    assert not out.exists()


def test_cli_solve_splits_over_workers_with_the_serial_answer(client):
    """``solve --scheduler``/``--workers``: the deep solve's answer, equal to the serial
    one; --example and standard input as for the serial solve."""
    from szsolver.cli import main
    from szsolver.cli.common import example_position
    addr = ["--scheduler", client.scheduler.address, "--json"]
    for args, kwargs, pos in ((["solve", "--example"], {}, example_position(6)),
                              (["solve", "-"], {"input": position_string(to_core(
                                  example_position(5))) + "\n"}, example_position(5))):
        r = CliRunner().invoke(main, args + addr, **kwargs)
        assert r.exit_code == 0, r.output
        got, want = json.loads(r.output), solve(pos)
        assert got["exact"] and got["value"] == want.value and got["tasks"]
        assert got["best"] == [format_turn(t, pos.geometry) for t in want.best]


def test_cli_split_and_batch_solves_take_a_table_size(client, tmp_path):
    """``--tt-size``: each worker's table for the deep solve (``solve --scheduler``,
    ``batch deep-solve``), each solve's table for ``batch solve``; the answers are the
    serial solver's, and the batch records say the size among their options."""
    from szsolver.cli import main
    from szsolver.cli.common import example_position
    addr = ["--scheduler", client.scheduler.address]
    pos = example_position(6)
    for args in (["solve", "--example"], ["batch", "deep-solve", "--example"]):
        r = CliRunner().invoke(main, args + addr + ["--json", "--tt-size", "64"])
        assert r.exit_code == 0, r.output
        got, want = json.loads(r.output), solve(pos)
        assert got["exact"] and got["value"] == want.value
        assert got["best"] == [format_turn(t, pos.geometry) for t in want.best]
    src = tmp_path / "positions.txt"
    src.write_text("\n".join(POSITIONS[:2]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["batch", "solve", str(src), str(out), "--tt-size", "64"]
                           + addr)
    assert r.exit_code == 0, r.output
    got = _read_jsonl(out)
    assert [g["options"]["tt_size"] for g in got] == [64, 64]
    for g, p in zip(got, POSITIONS[:2]):
        assert g["exact"] and g["value"] == solve(parse_position(p.strip())).value
    r = CliRunner().invoke(main, ["batch", "solve", str(src), str(out), "--tt-size", "1"])
    assert r.exit_code == 2 and r.output.startswith("Error:") and "--tt-size" in r.output


@pytest.mark.parametrize("args, words", [
    (["solve", "--example", "--workers", "0"], "--workers"),
    (["solve", "--example", "--workers", "-2"], "--workers"),
    (["solve", "--example", "--workers", "99999999"], "local worker processes"),
    (["solve", "--example", "--workers", "9" * 20], f"{'9' * 20} is more than"),
    (["solve", "--example", "--scheduler", "localhost"], "not a scheduler address"),
    (["solve", "--example", "--workers", "1", "--all-turns"], "--all-turns"),
    (["solve", "--example", "--workers", "1", "--scheduler", "tcp://127.0.0.1:1"], "not both"),
])
def test_cli_solve_split_bad_input_is_one_line_exit_2(args, words):
    from szsolver.cli import main
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and words in lines[0], r.output


# --- deep solve: one deadline and one node budget for the whole answer ---------------------

def _scheduler_state(client) -> list[str]:
    """The names of the shared variables, locks (semaphores) and events the scheduler
    holds, once the deletions sent have arrived (Dask sends a variable's deletion
    without waiting for it: up to 10 s)."""
    def names(dask_scheduler):
        ext = dask_scheduler.extensions
        return sorted(list(ext["variables"].variables) + list(ext["semaphores"].max_leases)
                      + list(ext["events"]._events))
    deadline = time.time() + 10
    while (left := client.run_on_scheduler(names)) and time.time() < deadline:
        time.sleep(0.05)
    return left


def _check_against_serial(got, pos, want):
    """``got`` (a deep solve's answer, maybe stopped by a limit) says only what the
    serial solver's exact answer ``want`` confirms, labelled as the serial solve labels
    a stopped answer."""
    g = pos.geometry
    assert got["lower"] <= want.value <= got["upper"]
    assert got["complete"] == (got["exact"] and got["best_complete"] and got["pv_complete"])
    if not got["exact"]:
        assert got["value"] is None and got["stopped"] in ("node limit", "time limit")
        assert not got["best_complete"] and not got["pv_complete"]
        return
    serial_best = [format_turn(t, g) for t in want.best]
    assert got["value"] == want.value
    assert set(got["best"]) <= set(serial_best)
    assert (got["best"] == serial_best) if got["best_complete"] else got["stopped"]
    if got["pv"]:
        assert got["pv"][0] in got["best"]
    line = to_core(pos)                    # every turn of the (partial) line keeps the value
    for t in got["pv"]:
        line.make(line.parse_turn(t))
    if got["pv_complete"]:
        assert line.is_over() and line.value() == want.value and got["scores"]
    else:
        assert got["scores"] is None
        assert line.is_over() or solve(line).value == want.value
    assert (got["stopped"] is None) == got["complete"]
    if not got["complete"]:
        assert "after the value was proved" in got["stopped"]


def test_deep_solve_node_limit_bounds_the_whole_answer(client):
    """One node budget for the value, the best-turn checks and the line: the nodes
    of all jobs together stay within it (plus the search's 4096-node check interval
    per job), and whatever it leaves unproved is labelled as the serial solve does."""
    text = _no_neutrals_for_the_mover(_late_positions(6, 6)[0])     # 25 k nodes serially
    pos = parse(text)
    want = solve(pos)
    seen = set()
    for limit in (1, 300, 3000, 8000, 15000, 30000, 10**7):
        got = deep_solve(client, pos, node_limit=limit)
        tasks = got["task_count"] + got["workers"] + 1            # + checks + the line
        assert got["nodes"] <= limit + 4096 * tasks, (limit, got["nodes"])
        _check_against_serial(got, pos, want)
        seen.add("complete" if got["complete"] else "exact" if got["exact"] else "bounds")
        assert _scheduler_state(client) == []
    assert {"complete", "bounds"} <= seen, seen


def test_deep_solve_past_its_deadline_searches_nothing(client):
    """A deadline already past (the command's clock ran out while the cluster started):
    no task searches a node, the answer is the static bounds, labelled time limit."""
    pos = parse(_no_neutrals_for_the_mover(_late_positions(6, 6)[1]))
    got = deep_solve(client, pos, deadline=time.time() - 1.0)
    assert got["nodes"] == 0 and all(t["nodes"] == 0 for t in got["tasks"])
    assert not got["exact"] and got["stopped"] == "time limit"
    _check_against_serial(got, pos, solve(pos))
    assert _scheduler_state(client) == []


def test_deep_solve_time_limit_gives_a_labelled_answer(client):
    """A short time limit: proved bounds or the value with what is proved of the rest,
    never more than the serial solver confirms; nothing left on the scheduler."""
    pos = parse(_no_neutrals_for_the_mover(_late_positions(6, 6)[1]))   # 350 k nodes
    want = solve(pos)
    for limit in (0.05, 0.5):
        got = deep_solve(client, pos, time_limit=limit)
        _check_against_serial(got, pos, want)
        assert got["stopped"] in (None, "time limit") or got["stopped"].startswith("time limit")
    assert _scheduler_state(client) == []


def test_the_best_turns_and_the_line_stay_within_their_grant(client):
    """The best-turn and line jobs draw on the node pool through their grant and stop
    at the deadline: a grant of one node or a deadline past leaves them incomplete
    (labelled), with no more nodes than the search's check interval; without a limit
    the best turns are the serial ones and the line keeps the value to the end."""
    from szsolver.batch.deep import end_solve, job
    from szsolver.endgame.solver import turn_orbits
    pos = parse(_no_neutrals_for_the_mover(_late_positions(5, 5)[0]))
    want = solve(pos)
    core = to_core(pos)
    pstr = position_string(core)
    orbits = turn_orbits(core)
    sid = "szsolver-test-grant"

    def run(path, what, kind, **limits):
        return client.submit(job, sid, pstr, path, what, kind, want.value, pure=False,
                             **limits).result()
    try:
        got = run([], orbits, "best", grant=1)
        assert not got["complete"] and got["stopped"] == "node limit" and got["nodes"] <= 4097
        got = run([], orbits, "best", deadline=time.time() - 1)
        assert not got["complete"] and got["stopped"] == "time limit" and got["nodes"] == 0
        line = run([want.best[0]], 0, "pv", deadline=time.time() - 1)
        assert line["line"] == [] and not line["complete"] and line["nodes"] == 0
        got = run([], orbits, "best")
        assert got["complete"] and sorted(got["best"]) == sorted(want.best)
        line = run([want.best[0]], 0, "pv")
        assert line["complete"]
        end = to_core(pos)
        for t in [want.best[0]] + line["line"]:
            end.make(t)
        assert end.is_over() and end.value() == want.value
    finally:
        client.run(end_solve, sid)


def test_a_finished_solve_leaves_no_searchers_on_the_workers(client):
    """The workers' warm searchers of a solve are deleted when it ends, and a job of it
    that starts later (one queued when it ended) answers None without making them
    again."""
    from szsolver.batch.deep import end_solve, job, warm_solves
    pos = parse(_no_neutrals_for_the_mover(_late_positions(5, 5)[1]))
    got = deep_solve(client, pos)
    assert got["exact"]
    assert all(v == [] for v in client.run(warm_solves).values())
    pstr = position_string(to_core(pos))
    client.run(end_solve, "szsolver-test-ended")
    assert client.submit(job, "szsolver-test-ended", pstr, [], 0, pure=False).result() is None
    assert all(v == [] for v in client.run(warm_solves).values())
    assert _scheduler_state(client) == []



def test_a_failed_deep_solve_leaves_nothing_on_the_scheduler(client):
    pos = parse(_no_neutrals_for_the_mover(_late_positions(5, 5)[1]))

    def fail(done, total):
        raise _Stop
    with pytest.raises(_Stop):
        deep_solve(client, pos, node_limit=10**6, progress=fail)
    assert _scheduler_state(client) == []


def test_cli_split_solve_stopped_by_a_limit_says_so(client):
    """``solve --scheduler ... --node-limit``: the limit bounds the whole split solve;
    not proved is exit code 3 with proved bounds, as for the serial solve."""
    from szsolver.cli import main
    from szsolver.cli.common import example_position
    want = solve(example_position(6)).value
    addr = ["--scheduler", client.scheduler.address]
    r = CliRunner().invoke(main, ["solve", "--example", "--node-limit", "1", "--json", *addr])
    assert r.exit_code == 3, r.output
    got = json.loads(r.output)
    assert not got["exact"] and not got["complete"] and got["stopped"] == "node limit"
    assert got["lower"] <= want <= got["upper"]
    r = CliRunner().invoke(main, ["solve", "--example", "--node-limit", "1", *addr])
    assert r.exit_code == 3 and "Value: not proved (node limit);" in r.output
    assert _scheduler_state(client) == []


def test_cli_deep_solve_says_its_limit_ran_out_as_the_cluster_started(client):
    """A time limit spent before the first job (the clock starts before the cluster):
    said, not read as a search stopped after a few milliseconds."""
    from szsolver.cli import main
    addr = ["--scheduler", client.scheduler.address]
    r = CliRunner().invoke(main, ["batch", "deep-solve", "--example", "--time-limit", "0.001",
                                  *addr])
    assert r.exit_code == 3, r.output
    assert "; 0 jobs on " in r.output and "s to start, within the time limit)" in r.output
    assert "The time limit ran out as the cluster started (" in r.output
    assert "of 0.001 s): nothing was searched." in r.output


def test_cli_batch_annotate_does_a_changed_game_again(client, tmp_path):
    """A game record changed since the run that annotated it is annotated again (its
    result held the old game); an unchanged one is resumed."""
    from szsolver.cli import main
    game = tmp_path / "g.szg"
    out = tmp_path / "out"
    addr = ["--scheduler", client.scheduler.address, "--time-per-turn", "0.01",
            "--exact-turns", "0"]
    late = "R./.NN..B/N.R.R../RB.RRR../BR.BN..R./B.BBN.../RBRNB../B.BNRB/BR R 1 3 basic"
    game.write_text(f'[Position "{late}"]\n\n14. 35 57\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["batch", "annotate", str(game), str(out), *addr])
    assert r.exit_code == 0 and "1 unit: 1 computed, 0 done before" in r.output, r.output
    r = CliRunner().invoke(main, ["batch", "annotate", str(game), str(out), *addr])
    assert r.exit_code == 0 and "1 unit: 0 computed, 1 done before" in r.output, r.output
    game.write_text(f'[Position "{late}"]\n\n14. 35\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["batch", "annotate", str(game), str(out), *addr])
    assert r.exit_code == 0 and "1 unit: 1 computed, 0 done before" in r.output, r.output
    with open(out / "g.json", encoding="utf-8") as f:
        assert json.load(f)["game"]["turns"] == ["35"]
    # other options: annotated again under them (the earlier budget's answer was kept)
    addr[addr.index("--time-per-turn") + 1] = "0.02"
    r = CliRunner().invoke(main, ["batch", "annotate", str(game), str(out), *addr])
    assert r.exit_code == 0 and r.output.startswith(
        "1 unit: 1 computed, 1 of them again (done before under other options), "
        "0 done before;"), r.output
    with open(out / "g.json", encoding="utf-8") as f:
        got = json.load(f)
    assert got["settings"]["time_per_turn"] == 0.02
    assert got["options"] == {"time_per_turn": 0.02, "exact_turns": 0, "solver_time": None}
