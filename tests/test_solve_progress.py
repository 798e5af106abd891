"""szsolver solve shows its work on stderr: the proved bounds narrowing probe by probe,
the best turn so far, the nodes and the nodes per second; stdout stays the answer."""
import json
import re

from click.testing import CliRunner

from szsolver.cli import main
from szsolver.cli.common import example_position
from szsolver.endgame.solver import Progress, solve
from szsolver.formats.notation import parse_turn, position_string

# the rulebook game with 7 turns left, Blue to move: five probes, 2.4 M nodes
SEVEN_LEFT = position_string(example_position(7))
INTERVAL = re.compile(r"^([+-]\d+) <= value <= ([+-]\d+) \(")
PROVED = re.compile(r"^value ([+-]\d+) \(proved\)")
NODES = re.compile(r"; ([\d,]+) nodes, ([\d,]+) nodes/s")
BEST = re.compile(r"best so far (\S+?);")


def run(*args):
    return CliRunner().invoke(main, list(args))


def reported(stderr: str) -> list[dict]:
    """The progress lines of ``stderr``: bounds, nodes, best turn so far."""
    out = []
    for line in stderr.splitlines():
        m, p = INTERVAL.match(line), PROVED.match(line)
        if not (m or p):
            continue
        lo, hi = (int(m[1]), int(m[2])) if m else (int(p[1]), int(p[1]))
        n = NODES.search(line)
        b = BEST.search(line)
        out.append({"bounds": (lo, hi), "nodes": int(n[1].replace(",", "")) if n else 0,
                    "best": b[1] if b else None, "line": line})
    return out


def consistent(lines: list[dict], lower: int, upper: int) -> None:
    """Each report narrows the one before, and [lower, upper] (the answer's bounds, or
    the value twice) lies inside every one; the node counts only grow."""
    los = [x["bounds"][0] for x in lines]
    his = [x["bounds"][1] for x in lines]
    assert los == sorted(los) and his == sorted(his, reverse=True), lines
    assert all(lo <= lower and upper <= hi for lo, hi in zip(los, his)), lines
    nodes = [x["nodes"] for x in lines]
    assert nodes == sorted(nodes), lines


def test_solve_reports_each_probe_off_a_terminal_and_the_bounds_narrow():
    r = run("solve", "--example")
    assert r.exit_code == 0, r.output
    value = int(re.search(r"^Value: ([+-]\d+) ", r.stdout, re.M)[1])
    total = int(re.search(r"^Nodes: ([\d,]+) ", r.stdout, re.M)[1].replace(",", ""))
    lines = reported(r.stderr)
    assert len(lines) >= 3, r.stderr          # the static bounds, a probe, the value
    assert "before the first probe" in lines[0]["line"]
    consistent(lines, value, value)
    assert lines[-1]["bounds"] == (value, value)
    assert lines[-1]["nodes"] <= total
    # the best turn so far reaches the lower bound its probe proved (Red to move)
    pos = example_position(6)
    for x in lines:
        if x["best"] is not None:
            child = pos.copy()
            child.play(parse_turn(x["best"], pos.geometry))
            assert solve(child).value >= x["bounds"][0], x
    assert any(x["best"] for x in lines)
    # the answer on stdout is the same without the progress, and with --quiet none
    quiet = run("solve", "--example", "--quiet")
    assert quiet.stdout.replace(re.search(r"Nodes: .*", quiet.stdout)[0], "") == \
        r.stdout.replace(re.search(r"Nodes: .*", r.stdout)[0], "")
    assert quiet.stderr == ""


def test_a_stopped_solve_reports_bounds_that_hold_and_ends_on_the_answer_s():
    """A node limit stops the third probe: every interval shown holds the true value,
    and the last one is the answer's."""
    true = solve(example_position(7)).value
    r = run("solve", SEVEN_LEFT, "--node-limit", "1200000")
    assert r.exit_code == 3, r.output
    m = re.search(r"not proved \(node limit\); ([+-]\d+) <= value <= ([+-]\d+)", r.stdout)
    lower, upper = int(m[1]), int(m[2])
    lines = reported(r.stderr)
    assert len(lines) >= 2, r.stderr
    consistent(lines, lower, upper)
    consistent(lines, true, true)
    assert lines[-1]["bounds"] == (lower, upper)


def test_threads_report_narrowing_bounds_too():
    r = run("solve", "--example", "--threads", "2")
    assert r.exit_code == 0, r.output
    value = int(re.search(r"^Value: ([+-]\d+) ", r.stdout, re.M)[1])
    lines = reported(r.stderr)
    assert len(lines) >= 3, r.stderr
    consistent(lines, value, value)
    assert lines[-1]["bounds"] == (value, value)


def test_json_keeps_its_keys_and_stderr_clean():
    r = run("solve", "--example", "--json")
    assert r.exit_code == 0 and r.stderr == ""
    data = json.loads(r.stdout)
    assert {"position", "value", "winner", "exact", "lower", "upper", "scores", "best", "pv",
            "nodes", "seconds", "nodes_per_second", "tt", "stopped", "complete",
            "best_complete", "pv_complete"} <= set(data)


def test_the_progress_messages_stay_text_and_carry_what_the_search_proved():
    """The callback still gets text (what check and other callers print), and each
    probe's message carries the bounds, the probe and its test value."""
    msgs = []
    res = solve(example_position(7), progress=msgs.append)
    probes = [m for m in msgs if isinstance(m, Progress)]
    assert all(isinstance(m, str) for m in msgs)
    assert probes[0].probes == 0 and probes[-1].bounds == (res.value, res.value)
    for m in probes[1:]:
        lo, hi = m.bounds
        assert m.startswith(f"{lo:+d} <= value <= {hi:+d} (")
        # the probe asked "value >= gamma?": its answer is one of the bounds
        assert (lo >= m.gamma) if m.proved_at_least else (hi < m.gamma)
        assert m.node_counter() >= m.nodes


def test_a_large_table_is_told_before_it_is_set_up(monkeypatch):
    """A GiB table takes seconds to fault in before the first probe: the callback
    hears of it first, with the table's size, and a small table says nothing (the
    threshold lowered here so that a small solve reaches it)."""
    from szsolver.endgame import solver
    msgs = []
    solve(example_position(4), progress=msgs.append, tt_size=2 ** 16)
    assert not any("transposition table" in m for m in msgs)
    monkeypatch.setattr(solver, "TOLD_TABLE_BYTES", 2 ** 20)
    msgs = []
    solve(example_position(4), progress=msgs.append, tt_size=2 ** 16)
    assert msgs[0] == "setting up the transposition table (2 MiB)"
    assert not isinstance(msgs[0], Progress) and isinstance(msgs[1], Progress)


def test_solve_on_a_terminal_rewrites_one_line_and_clears_it(on_a_terminal):
    plain = run("solve", "--example", "--quiet").stdout
    code, out, err = on_a_terminal(["solve", "--example"])
    assert code == 0
    strip = lambda s: re.sub(r"Nodes: .*", "", s)
    assert strip(out) == strip(plain)
    err = err.decode()
    assert "\n" not in err                       # one line, rewritten in place
    shown = [s for s in err.split("\r\x1b[K") if s]
    assert any("<= value <=" in s for s in shown), err
    assert err.endswith("\r\x1b[K")              # and cleared at the end


def test_a_running_probe_says_how_far_it_is():
    """Inside a probe (the first of a deep solve can take minutes) the display reads
    which root turn, and which reply to it, the search is at: read from another thread
    while the probe runs, each index within its list, the root's never going back
    while the reply counter stays within its own list."""
    import threading
    import time
    from szsolver.endgame.solver import new_searcher, tt_entries_for
    from szsolver.rules.backends import to_core
    pos = to_core(example_position(7))
    s = new_searcher(pos, tt_entries_for(pos.turns_left), None, None)
    assert s.root_progress() == (0, 0, 0, 0)
    seen, done = [], threading.Event()

    def watch():
        while not done.is_set():
            seen.append(s.root_progress())
            time.sleep(0.001)
    t = threading.Thread(target=watch)
    t.start()
    try:
        v = solve(pos).value
        s.red_probe(v)                       # a probe the value passes: all-node at Blue
    finally:
        done.set()
        t.join()
    i, n, j, m = s.root_progress()
    assert 1 <= i <= n and 0 <= j <= m
    assert all(a <= b and c <= d for a, b, c, d in seen)
    roots = [a for a, b, c, d in seen if b]
    assert roots == sorted(roots)            # one probe: the root only goes forward
    msgs = []
    solve(pos, progress=msgs.append)
    probes = [m_ for m_ in msgs if isinstance(m_, Progress)]
    assert probes and all(p.root_counter is not None for p in probes)
    r = CliRunner().invoke(main, ["solve", position_string(example_position(7))])
    assert r.exit_code == 0
