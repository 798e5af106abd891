"""solve(threads=N) / szsolver solve --threads: the root's probes run over threads.

Checked against independent computations: a plain minimax on the reference back end
(1-2 turns left), the serial solver (value, every optimal turn, every turn's value),
and each PV replayed on the reference back end with every step re-solved serially.
Limits and Ctrl-C: the bounds hold the true value and every thread has stopped."""
import functools
import os
import random
import signal
import subprocess
import threading
import time

import pytest
from click.testing import CliRunner

from szsolver import interrupt
from szsolver.cli import main
from szsolver.endgame.solver import solve, turn_values
from szsolver.errors import UnsupportedError
from szsolver.formats.notation import parse_position, position_string
from szsolver.rules import reference
from szsolver.rules.base import ADVANCED, BASIC, RED
from szsolver.rules.playout import random_play
from szsolver.rules.seeds import playout_seed_v1


def random_game_at(seed, turns_left, rule, neutrals=(5, 5), p_neutral=0.35):
    """Seeded random legal play (neutrals used too) until ``turns_left`` remain."""
    rng = random.Random(playout_seed_v1("solver-threads-test", seed, rule, neutrals))
    p = reference.Position(red_neutrals=neutrals[0], blue_neutrals=neutrals[1], rule=rule)
    random_play(p, p.turns_left - turns_left, rng, p_neutral)
    return p


def minimax(p) -> dict:
    """Every legal turn's value by plain minimax over the reference rules."""
    def value(q):
        if q.is_over():
            return q.value()
        vals = []
        for t in q.legal_turns():
            q.make(t)
            vals.append(value(q))
            q.unmake(t)
        return max(vals) if q.side == RED else min(vals)

    out = {}
    q = p.copy()
    for t in q.legal_turns():
        q.make(t)
        out[t] = value(q)
        q.unmake(t)
    return out


def check_pv(p, res):
    """The PV starts with a best turn, every step keeps the value (each position after
    it solved afresh, serially) and the end has the claimed scores (reference rules)."""
    assert res.pv and res.pv[0] in res.best
    q = p.copy()
    for k, t in enumerate(res.pv):
        q.play(t)
        if not q.is_over() and k < 3:
            assert solve(q, pv=False).value == res.value
    assert q.is_over() and q.value() == res.value
    assert {"red": q.score(0), "blue": q.score(1)} == res.scores


def no_solver_threads():
    return not any(t.name.startswith("szsolver-solve") for t in threading.enumerate())


# --- values against brute force and the serial solver ---------------------------------------

@pytest.mark.parametrize("seed,tl,rule,neutrals", [
    (0, 1, BASIC, (5, 5)), (1, 2, BASIC, (1, 1)), (2, 1, ADVANCED, (4, 4)),
    (3, 2, ADVANCED, (1, 1)), (4, 2, BASIC, (0, 0)), (5, 2, ADVANCED, (0, 1))])
def test_threads_match_brute_force(seed, tl, rule, neutrals):
    p = random_game_at(seed, tl, rule, neutrals)
    bv = minimax(p)
    best_val = max(bv.values()) if p.side == RED else min(bv.values())
    for threads in (2, 3):
        res = solve(p, threads=threads)
        assert res.exact and res.complete and res.value == best_val
        assert sorted(res.best) == sorted(t for t, v in bv.items() if v == best_val)
        check_pv(p, res)
        every = solve(p, threads=threads, all_turns=True)
        assert {t.turn: t.value for t in every.turns} == bv


DEEP = [(10, 3, BASIC), (11, 4, BASIC), (12, 5, BASIC), (13, 3, ADVANCED),
        (14, 4, ADVANCED), (15, 4, BASIC), (16, 5, BASIC)]


@pytest.mark.parametrize("seed,tl,rule", DEEP)
def test_threads_match_serial(seed, tl, rule):
    p = random_game_at(seed, tl, rule, (5, 5) if rule == BASIC else (4, 4))
    serial = solve(p)
    assert serial.complete
    for threads in (2, 4):
        res = solve(p, threads=threads)
        assert res.exact and res.complete and res.stopped is None
        assert res.value == serial.value and res.winner == serial.winner
        assert sorted(res.best) == sorted(serial.best)
        assert res.tt["threads"] == threads
        check_pv(p, res)
        assert solve(p, threads=threads, pv=False).value == serial.value
    assert no_solver_threads()


def test_threads_all_turns_match_serial():
    p = random_game_at(20, 3, ADVANCED, (4, 4))
    assert turn_values(p, threads=2) == turn_values(p)
    p = random_game_at(21, 4, BASIC)
    res = solve(p, threads=3, all_turns=True)
    assert [(t.turn, t.value, t.group) for t in res.turns] == \
        [(t.turn, t.value, t.group) for t in solve(p, all_turns=True).turns]


def test_symmetric_position_and_blue_to_move():
    """A position fixed by a board symmetry (orbits of several turns), both movers."""
    for text in (".R/N..NN./NRNBB../.....RRR/RRBBNBNBB/BR..R..R/RRBBB../NRB.B./.. R 3 0 basic",
                 "NN/N.R.N./RBRBNB./.NBRBRRR/....NRN../.R..RBN./BRBBRBB/.R...B/B. R 0 0 advanced"):
        p = parse_position(text)
        serial = solve(p)
        res = solve(p, threads=2)
        assert (res.value, sorted(res.best)) == (serial.value, sorted(serial.best))
    p = random_game_at(30, 5, BASIC)
    if p.side == RED:
        p.play(p.legal_turns()[0])
    assert p.side != RED
    serial = solve(p)
    res = solve(p, threads=2)
    assert (res.value, sorted(res.best)) == (serial.value, sorted(serial.best))
    check_pv(p, res)


# --- limits and Ctrl-C --------------------------------------------------------------------------

# random play, both supplies in hand: the first probe alone takes millions of nodes
HARD = "BR/..RBB./B...RR./...RB.../RBR.NB..R/.R.RBR.B/.B...../BR.B.B/R. R 4 4 advanced"


# random play, both supplies in hand, six turns left (benchmarks/solver_positions_random.txt):
# the value takes some 120 k nodes, the optimal turns and the PV about as many again
LIMITED = ".B/BB...B/.B....R/R.RBB.../R..BNR..B/.RRR..BB/.B.R.RR/R.R.B./.. R 5 5 basic"


@functools.lru_cache(maxsize=None)
def limited_truth():
    return solve(parse_position(LIMITED))


@pytest.mark.parametrize("limit", [1, 5000, 40000, 100000, 150000, 160000, 165000, 170000, 400000])
def test_node_limit_bounds_and_prefixes(limit):
    p = parse_position(LIMITED)
    truth = limited_truth()
    res = solve(p, threads=2, node_limit=limit)
    assert res.lower <= truth.value <= res.upper
    if not res.exact:
        assert res.value is None and res.stopped == "node limit"
        return
    assert res.value == truth.value
    if res.complete:
        assert sorted(res.best) == sorted(truth.best)
        check_pv(p, res)
    else:
        assert res.stopped.startswith("node limit after the value was proved")
        if res.best_complete:
            assert sorted(res.best) == sorted(truth.best)
        else:
            assert set(res.best) <= set(truth.best)
        assert not res.pv or res.pv[0] in res.best
        q = p.copy()
        for t in res.pv:
            q.play(t)
            assert solve(q, pv=False).value == truth.value
    assert no_solver_threads()


@pytest.mark.parametrize("limit", [1, 5000, 20000, 35000])
def test_node_limit_all_turns_bounds(limit):
    p = random_game_at(24, 5, BASIC)
    truth = dict(turn_values(p))
    res = solve(p, threads=2, all_turns=True, node_limit=limit)
    assert sorted(t.turn for t in res.turns) == sorted(truth)
    for t in res.turns:
        assert t.lower <= truth[t.turn] <= t.upper
        assert t.value == (truth[t.turn] if t.exact else None)
    if not res.exact:
        assert res.stopped == "node limit"
    assert no_solver_threads()


def test_a_stop_as_a_child_fails_high_stays_a_stop(monkeypatch):
    """A limit that strikes in the round where a child fails high: no later round runs
    (the next round's limit reset must not revive the threads)."""
    from szsolver.endgame import solver as solver_module
    seen = {}
    halt = solver_module._Team.halt_round

    def halt_and_stop(team):
        seen.setdefault("nodes", team.nodes())
        halt(team)
        team.stop("node limit")

    monkeypatch.setattr(solver_module._Team, "halt_round", halt_and_stop)
    # MTD(f) climbs here: its first rounds fail high, more follow
    p = parse_position("BB/..B..R/B...RBR/.B.BRRR./R.B.N..B./.R.RB..R/R.R.R../B..BB./.. "
                       "R 5 5 basic")
    truth = solve(p, pv=False)
    res = solve(p, threads=2)
    assert "nodes" in seen
    assert not res.exact and res.stopped == "node limit"
    assert res.lower <= truth.value <= res.upper and res.lower < res.upper
    assert res.nodes <= seen["nodes"] + 2 * 4096 + 1000    # what was running stops at once
    assert no_solver_threads()


def assert_time_limit_stops_every_thread(threads):
    """A 0.3 s limit on HARD: proved bounds within the static ones, no thread left."""
    p = parse_position(HARD)
    res = solve(p, threads=threads, time_limit=0.3)
    assert not res.exact and res.stopped == "time limit" and res.lower <= res.upper
    static = solve(p, node_limit=1)
    assert static.lower <= res.lower and res.upper <= static.upper
    assert no_solver_threads()


def test_time_limit_stops_every_thread():
    assert_time_limit_stops_every_thread(2)


def kill_me_in(delay: float):
    return subprocess.Popen(["sh", "-c", f"sleep {delay}; kill -INT {os.getpid()}"])


@pytest.mark.parametrize("installed", [False, True], ids=["library", "command-line"])
def test_ctrl_c_stops_every_thread(installed):
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    if installed:
        interrupt.uninstall()
        assert interrupt.install()
    try:
        k = kill_me_in(0.5)
        res = solve(parse_position(HARD), threads=2, node_limit=10**9)
        k.wait()
        assert not res.exact and res.stopped == "interrupted" and res.lower <= res.upper
        assert no_solver_threads()
        assert interrupt.requested() == installed
    finally:
        interrupt.uninstall()
        signal.signal(signal.SIGINT, previous)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc")
def test_ctrl_c_on_the_command_line_stops_every_thread():
    """``szsolver solve --threads 2`` in its own process: Ctrl-C ends it with the bounds
    proved so far, labelled interrupted, exit code 130 (the threads do not keep it
    alive)."""
    import sys
    p = subprocess.Popen([sys.executable, "-m", "szsolver", "solve", HARD, "--threads", "2",
                          "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    t0 = time.monotonic()                # wait until it searches: 1.5 s of its CPU time
    while time.monotonic() - t0 < 60 and cpu_seconds(p.pid) < 1.5 and p.poll() is None:
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    import json
    data = json.loads(out)
    assert data["exact"] is False and data["stopped"] == "interrupted"
    assert data["lower"] <= data["upper"] and data["tt"]["threads"] == 2


# --- bad input and the command line ---------------------------------------------------------------

@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2", None])
def test_bad_thread_counts(bad):
    p = random_game_at(50, 2, BASIC)
    with pytest.raises(UnsupportedError, match="threads"):
        solve(p, threads=bad)


def test_pvs_driver_is_one_thread():
    with pytest.raises(UnsupportedError, match="one thread"):
        solve(random_game_at(51, 2, BASIC), threads=2, driver="pvs")


def test_cli_threads():
    p = random_game_at(60, 4, ADVANCED, (4, 4))
    text = position_string(p)
    serial = solve(p)
    r = CliRunner().invoke(main, ["solve", text, "--threads", "2", "--json"])
    assert r.exit_code == 0, r.output
    import json
    data = json.loads(r.output)
    assert data["value"] == serial.value and data["complete"]
    assert data["tt"]["threads"] == 2
    for bad in ("0", "-3", "x"):
        r = CliRunner().invoke(main, ["solve", text, "--threads", bad])
        assert r.exit_code == 2 and "Error" in r.output
    r = CliRunner().invoke(main, ["solve", text, "--threads", "2", "--workers", "2"])
    assert r.exit_code == 2 and "--threads" in r.output


# --- one table for every thread --------------------------------------------------------------

def test_torn_table_slots_never_pass_for_an_entry():
    """Threads write a slot word by word: a slot mixing two writes must read as empty,
    including two writes of one key whose bound and footprint differ in matching bits
    (a plain xor seal lets those pass); intact slots read back exactly."""
    from szsolver.endgame import _tt
    assert _tt.torn_reads_accepted(20000) == (0, 0)


def test_searchers_sharing_a_table_see_each_others_proofs():
    from szsolver.endgame._search import Searcher
    from szsolver.rules.backends import to_core
    core = to_core(random_game_at(40, 4, ADVANCED, (4, 4)))
    owner, other = Searcher(core, 1 << 14), Searcher(core, 2)
    other.share_table(owner)
    assert other.stats()["tt_entries"] == owner.stats()["tt_entries"] == 1 << 14
    t = owner.legal_turns()[3]
    owner.make(t)
    v = owner.probe(-30000, 30000)          # exact: stored as lo == hi
    other.make(t)
    assert other.tt_bounds() == owner.tt_bounds() == (v, v)
    # one node, answered by the entry the owner stored
    assert other.probe(-30000, 30000) == v and other.stats()["nodes"] == 1 < owner.stats()["nodes"]
    with pytest.raises(UnsupportedError):
        owner.share_table(owner)
    with pytest.raises(UnsupportedError):
        Searcher(core, 2).share_table(other)            # other does not own its table
    with pytest.raises(UnsupportedError):
        Searcher(core, 2, 1).share_table(owner)         # other techniques


@pytest.mark.parametrize("tl,rule", [(3, ADVANCED), (4, BASIC), (4, ADVANCED)])
def test_a_helper_order_gives_the_same_bounds(tl, rule):
    """A helper searches its root's turns from the middle of the list: every probe
    still holds the value (fail-soft), checked against the serial solver's value on
    positions from seeded random play."""
    from szsolver.endgame.solver import new_searcher
    from szsolver.rules.backends import to_core
    for seed in range(12):
        p = random_game_at(100 + seed, tl, rule, (5, 5) if rule == BASIC else (4, 4))
        core = to_core(p)
        v = solve(p, pv=False).value
        v = v if core.side == RED else -v                   # mover's view
        s = new_searcher(core, 1 << 14, None, None)
        s.set_helper(True)
        for a, b in ((-30000, 30000), (v - 1, v), (v, v + 1), (v - 50, v + 50), (v - 3, v - 2)):
            r = s.probe(a, b)
            assert (r <= a and v <= r) or (r >= b and v >= r) or (a < r < b and r == v), (seed, a, b)


# --- the shared tree (every thread on the same probe) ---------------------------------------------

def plain_value(p):
    """The value by alpha-beta with every technique off (serial)."""
    return solve(p, options=[], pv=False).value


@pytest.fixture
def tiny_tables(monkeypatch):
    """The shared tree at every node from two turns left, on a busy table of one
    counter: every thread defers nearly every child it can (past the first)."""
    from szsolver.endgame import solver as solver_module
    monkeypatch.setattr(solver_module, "SHARED_TREE", True)
    monkeypatch.setattr(solver_module, "SHARED_TREE_MIN_TURNS", 2)
    monkeypatch.setattr(solver_module, "BUSY_ENTRIES", 1)


def assert_threads_match_serial_and_plain_search(seed, tl, rule):
    """Value, optimal turns and PV over 2, 4 and 16 threads (oversubscribed on a small
    machine), with the default table and one of 64 entries, against the serial solver
    and alpha-beta with every technique off."""
    p = random_game_at(seed, tl, rule, (5, 5) if rule == BASIC else (4, 4))
    serial = solve(p)
    assert serial.complete and plain_value(p) == serial.value
    for threads in (2, 4, 16):
        for tt_size in (None, 64):
            res = solve(p, threads=threads, tt_size=tt_size)
            assert res.exact and res.complete and res.stopped is None
            assert res.value == serial.value
            assert sorted(res.best) == sorted(serial.best)
            assert res.tt["threads"] == threads
        check_pv(p, res)
    assert no_solver_threads()


@pytest.mark.parametrize("seed,tl,rule", DEEP)
def test_shared_tree_matches_serial_and_plain_search(seed, tl, rule, tiny_tables):
    """... with a tiny busy table: every thread defers nearly every child it can."""
    assert_threads_match_serial_and_plain_search(seed, tl, rule)


@pytest.mark.parametrize("seed,tl,rule", [(10, 3, BASIC), (11, 4, BASIC), (13, 3, ADVANCED),
                                          (14, 4, ADVANCED)])
def test_shared_tree_every_turn_value(seed, tl, rule, tiny_tables):
    """Every turn's value through the shared tree: each child solved on 2 and 16
    threads equals its value by the serial solver and by plain alpha-beta."""
    p = random_game_at(seed, tl, rule, (5, 5) if rule == BASIC else (4, 4))
    truth = dict(turn_values(p))
    for t in p.legal_turns()[:12]:
        q = p.copy()
        q.play(t)
        assert plain_value(q) == truth[t]
        for threads in (2, 16):
            assert solve(q, threads=threads, pv=False, tt_size=64).value == truth[t]


@pytest.mark.parametrize("tl,rule", [(4, ADVANCED), (5, BASIC), (5, ADVANCED)])
def test_deferred_children_give_the_same_bounds(tl, rule):
    """One searcher on a busy table of one counter that its own path keeps marked:
    every child past a node's first waits for the second pass. Every probe still
    holds the value (fail-soft) that the serial solver gives, on positions from seeded
    random play."""
    from szsolver.endgame.solver import new_searcher
    from szsolver.rules.backends import to_core
    deferred = 0
    for seed in range(10):
        p = random_game_at(200 + seed, tl, rule, (5, 5) if rule == BASIC else (4, 4))
        core = to_core(p)
        v = solve(p, pv=False).value
        v = v if core.side == RED else -v                   # mover's view
        for min_turns in (1, 3):
            s = new_searcher(core, 64, None, None)
            s.set_shared_tree(min_turns, 1)
            for a, b in ((-30000, 30000), (v - 1, v), (v, v + 1), (v - 50, v + 50),
                         (v - 3, v - 2), (v + 2, v + 3)):
                r = s.probe(a, b)
                assert (r <= a and v <= r) or (r >= b and v >= r) or (a < r < b and r == v), \
                    (seed, a, b)
            deferred += s.deferrals
    assert deferred > 0


def test_shared_tree_is_off_in_the_serial_search():
    """threads=1 defers nothing and searches the nodes it always did (a busy table
    left on, min_turns 0, changes nothing either)."""
    from szsolver.endgame.solver import new_searcher
    from szsolver.rules.backends import to_core
    p = random_game_at(14, 4, ADVANCED, (4, 4))
    core = to_core(p)
    counts = []
    for setup in (None, 0):
        s = new_searcher(core, 1 << 14, None, None)
        if setup is not None:
            s.set_shared_tree(3, 16)
            s.set_shared_tree(setup)
        s.probe(-30000, 30000)
        counts.append((s.stats()["nodes"], s.deferrals))
    assert counts[0] == counts[1] and counts[0][1] == 0


def assert_node_limit_bounds(threads, limit):
    """Under a node limit the threads' bounds hold the true value, a value proved is the
    true one with optimal turns, and every thread has stopped."""
    p = parse_position(LIMITED)
    truth = limited_truth()
    res = solve(p, threads=threads, node_limit=limit)
    assert res.lower <= truth.value <= res.upper
    if res.exact:
        assert res.value == truth.value
        assert set(res.best) <= set(truth.best)
    else:
        assert res.value is None and res.stopped == "node limit"
    assert no_solver_threads()


@pytest.mark.parametrize("limit", [1, 5000, 40000, 150000])
def test_shared_tree_node_limit_bounds(limit, tiny_tables):
    assert_node_limit_bounds(2, limit)


def test_shared_tree_time_limit_stops_every_thread(tiny_tables):
    assert_time_limit_stops_every_thread(4)


# --- the rounds: young brothers wait (a helper joins a child once its first replies failed) ---

@pytest.fixture
def eager_helpers(monkeypatch):
    """The rounds with a free thread joining any child as soon as its thread has started
    it, on a busy table of one counter: every helper defers nearly every reply."""
    from szsolver.endgame import solver as solver_module
    monkeypatch.setattr(solver_module, "SHARED_TREE", False)
    monkeypatch.setattr(solver_module, "ROUNDS_YBW", True)
    monkeypatch.setattr(solver_module, "YBW_MIN_THREADS", 2)
    monkeypatch.setattr(solver_module, "JOIN_AFTER", 0)
    monkeypatch.setattr(solver_module, "BUSY_ENTRIES", 1)


@pytest.mark.parametrize("seed,tl,rule", DEEP)
def test_rounds_with_helpers_match_serial_and_plain_search(seed, tl, rule, eager_helpers):
    """... with helpers joining every child at once on a tiny busy table."""
    assert_threads_match_serial_and_plain_search(seed, tl, rule)


@pytest.mark.parametrize("limit", [1, 5000, 40000, 150000])
def test_rounds_with_helpers_node_limit_bounds(limit, eager_helpers):
    assert_node_limit_bounds(4, limit)


@pytest.mark.parametrize("tl,rule", [(4, ADVANCED), (5, BASIC), (5, ADVANCED)])
def test_a_helper_defers_even_its_first_reply(tl, rule):
    """A helper (a thread joining a child another thread searches) defers every busy
    reply, its first too, to the second pass; the thread it helps searches its first at
    once. With every reply at the root marked busy, a full-window probe defers all of
    them (n - 1 without the helper flag), and every window's fail-soft bound still holds
    the serial solver's value (positions from seeded random play)."""
    from szsolver.endgame.solver import new_searcher
    from szsolver.rules.backends import to_core
    for seed in range(8):
        p = random_game_at(300 + seed, tl, rule, (5, 5) if rule == BASIC else (4, 4))
        core = to_core(p)
        v = solve(p, pv=False).value
        v = v if core.side == RED else -v                   # mover's view
        n = len(core.legal_turns())
        for helper in (False, True):
            s = new_searcher(core, 1 << 12, None, None)
            s.set_shared_tree(tl, 1 << 12)                  # marks at the root alone
            for t in core.legal_turns():
                s.hold_busy(t, 1)
            s.set_helper(helper)
            s.probe(-30000, 30000)
            assert s.deferrals == (n if helper else n - 1)
            for a, b in ((v - 1, v), (v, v + 1), (v - 50, v + 50), (v - 3, v - 2), (v + 2, v + 3)):
                r = s.probe(a, b)
                assert (r <= a and v <= r) or (r >= b and v >= r) or (a < r < b and r == v), \
                    (seed, helper, a, b)
