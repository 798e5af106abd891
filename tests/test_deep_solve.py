"""The deep solve's job-level null-window search (szsolver.batch.deep) against the serial
solver and plain alpha-beta: the client keeping two and three plies (the frontier
lowered), on one and two worker processes, with a tiny table and probes stopped every
64 nodes; a worker killed mid-solve; node limits that leave proved bounds."""
from __future__ import annotations

import pytest

distributed = pytest.importorskip("distributed")

# one worker of a parallel run (-n, --dist loadgroup) runs the Dask tests, one local
# cluster at a time on the machine, each module's cluster started once
pytestmark = pytest.mark.xdist_group("dask")

from szsolver.batch import deep  # noqa: E402
from szsolver.batch.deep import deep_solve  # noqa: E402
from szsolver.endgame.solver import solve  # noqa: E402
from szsolver.rules.backends import to_core  # noqa: E402
from szsolver.formats.notation import format_turn, position_string  # noqa: E402
from szsolver.formats.record import example_game, parse_source_text  # noqa: E402


def _positions():
    """The rulebook game's positions with 4 and 5 turns left (the two movers), under
    both rules, the mover out of neutrals (tens of root turns, not hundreds)."""
    out = []
    for p in example_game().positions:
        if to_core(p).turns_left in (4, 5):
            for q in (p, p.with_rule("advanced")):
                fields = position_string(to_core(q)).split()
                fields[2 if fields[1] == "R" else 3] = "0"
                out.append(" ".join(fields))
    return out


POSITIONS = _positions()


@pytest.fixture(scope="module", params=[1, 2], ids=["1 worker", "2 workers"])
def client(request):
    cluster = distributed.LocalCluster(n_workers=request.param, threads_per_worker=1,
                                       processes=True, dashboard_address=":0",
                                       silence_logs=50)
    try:
        with distributed.Client(cluster) as c:
            yield c
    finally:
        cluster.close()


@pytest.fixture
def small_slices(client):
    client.run(setattr, deep, "SLICE_NODES", 64)
    try:
        yield
    finally:
        client.run(setattr, deep, "SLICE_NODES", deep.SLICE_NODES)


def _same_as_serial_and_plain(got, pos):
    g = pos.geometry
    want, plain = solve(pos), solve(pos, options=[])
    assert want.value == plain.value and want.best == plain.best
    assert got["exact"] and got["complete"] and got["value"] == want.value
    assert got["best"] == [format_turn(t, g) for t in want.best]
    end = to_core(pos)                 # the line keeps the value to the end
    for t in got["pv"]:
        end.make(end.parse_turn(t))
    assert end.is_over() and end.value() == want.value
    assert got["scores"] == dict(zip(("red", "blue"), end.scores()))


@pytest.mark.parametrize("text", POSITIONS)
def test_the_client_keeping_plies_gives_the_serial_answer(client, small_slices, text):
    """Frontier lowered so that the client searches two or three plies itself (young
    brothers wait, cut nodes cancelling their children), jobs on a 64-entry table in
    64-node slices: the value and every best turn of the serial solver and of plain
    alpha-beta."""
    pos = parse_source_text(text)[0]
    # the client keeps 2 plies at 4 turns left, 3 at 5 under the Basic rule; under the
    # Advanced rule 2 at 5 (3 plies there are ~1,000 jobs of a few nodes: 7 s of Dask)
    frontier = 3 if to_core(pos).turns_left == 5 and text.endswith("advanced") else 2
    got = deep_solve(client, pos, frontier_turns=frontier, tt_size=64)
    _same_as_serial_and_plain(got, pos)
    assert got["task_count"] > len(got["tasks"])       # jobs below the root's children


def test_a_worker_killed_while_the_client_keeps_plies(client, worker_killer):
    """A worker killed mid-solve (its jobs are run again elsewhere, from a cold table):
    the same answer. With one worker, as ``--workers N`` runs, the jobs wait for the
    worker its nanny starts in its place, at a new address (they were left waiting for
    the old one, and the solve with them, for ever)."""
    import threading
    pos = parse_source_text(POSITIONS[3])[0]
    kill_a_busy_worker = worker_killer(client)
    out = {}
    solving = threading.Thread(target=lambda: out.update(got=deep_solve(
        client, pos, frontier_turns=2, progress=kill_a_busy_worker)), daemon=True)
    solving.start()
    solving.join(180)               # a solve that waits for ever fails here, not hangs
    assert "got" in out, "the deep solve did not end after its worker was killed"
    got = out["got"]
    assert kill_a_busy_worker.killed, "no worker was busy to kill"
    _same_as_serial_and_plain(got, pos)


@pytest.mark.parametrize("limit", [1, 800])
def test_node_limits_give_proved_bounds_while_the_client_keeps_plies(client, limit):
    """A node limit over jobs at several plies: proved bounds (or the value with what is
    proved of the rest, labelled), within the budget but for the search's check
    interval per job."""
    pos = parse_source_text(POSITIONS[0])[0]
    want = solve(pos)
    got = deep_solve(client, pos, frontier_turns=2, node_limit=limit)
    assert got["nodes"] <= limit + 4096 * got["task_count"]
    assert got["lower"] <= want.value <= got["upper"]
    if not got["exact"]:
        assert got["value"] is None and got["stopped"] == "node limit"
    else:
        assert got["value"] == want.value
        assert set(got["best"]) <= {format_turn(t, pos.geometry) for t in want.best}
        assert (got["stopped"] is None) == got["complete"]


@pytest.mark.parametrize("when", ["first job", "last job"])
def test_ctrl_c_keeps_what_the_deep_solve_proved(client, when):
    """Ctrl-C as a job ends: the solve stops with the bounds (or the value) proved by
    then, labelled interrupted, for the command to print, as the serial solve does;
    they hold the serial solve's value. As the first job ends nothing is proved yet;
    as the last one does, the value is (one worker: the same jobs in the same order)."""
    pos = parse_source_text(POSITIONS[2])[0]    # 55 jobs, a second
    want = solve(pos).value
    jobs = deep_solve(client, pos, frontier_turns=2)["task_count"]
    after = 1 if when == "first job" else jobs - 1
    seen = []

    def ctrl_c(done, total):
        seen.append(done)
        if len(seen) == after:
            raise KeyboardInterrupt
    with pytest.raises(deep.SolveInterrupted) as stop:
        deep_solve(client, pos, frontier_turns=2, progress=ctrl_c)
    got = stop.value.answer
    assert got["lower"] <= want <= got["upper"] and not got["complete"]
    if got["exact"]:
        assert got["value"] == want and got["stopped"] == (
            "interrupted after the value was proved (best turns and PV incomplete)")
    else:
        assert got["value"] is None and got["stopped"] == "interrupted"
    if len(client.scheduler_info()["workers"]) == 1:
        assert got["exact"] == (when == "last job"), got


def test_a_scheduler_with_no_worker_keeps_the_limit_or_says_so(monkeypatch):
    """No worker alive: jobs wait in the scheduler and never answer. A time limit still
    ends the solve (each job's deadline cannot: nothing runs it), with the static
    bounds, which hold the true value; with no time limit, the solve gives up after
    WORKERLESS_SECONDS and says why (it waited for ever before)."""
    import time
    pos = parse_source_text(POSITIONS[3])[0]
    want = solve(pos).value
    cluster = distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0",
                                       silence_logs=50)
    try:
        with distributed.Client(cluster) as c:
            t = time.monotonic()
            got = deep_solve(c, pos, time_limit=1.0, frontier_turns=2)
            assert time.monotonic() - t < 30      # it ends (it waited for ever before)
            assert not got["exact"] and got["stopped"] == "time limit"
            assert got["lower"] <= want <= got["upper"]
            assert got["task_count"] == 0 and got["workers"] == 0
            monkeypatch.setattr(deep, "WORKERLESS_SECONDS", 1.0)
            with pytest.raises(OSError, match="no Dask worker was alive for 1 s"):
                deep_solve(c, pos, node_limit=10 ** 6, frontier_turns=2)
    finally:
        cluster.close()

