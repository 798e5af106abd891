"""Ctrl-C stress test: start a real long szsolver command, send SIGINT at a seeded
random moment, check that it ends within LIMIT seconds with exit code 130, exactly
one stderr line ``Interrupted.``, no traceback, no ``Aborted!`` and nothing labelled
as a time limit. Prints one row per trial, then the latencies (SIGINT -> process
reaped): median, 90th percentile and worst, per command and per kind of trial.

    python3 benchmarks/stress_interrupt.py [--trials 60] [--startup 10] [--double 15]
        [--seed 1] [--limit 1.5] [--commands solve,potential,...] [--hold-gib 0]

``--hold-gib G`` holds G GiB of touched memory through the trials, so the kernel must
make room for the solve's table (measured with it: docs/solver.md, "Ctrl-C").

Kinds of trials:
* ``main``: SIGINT a random 0-2.5 s after the command is running (its heavy module is
  loaded: the handler is installed by then);
* ``double``: the same, and a second SIGINT 0-0.3 s after the first (an impatient user);
* ``startup``: SIGINT 0-0.3 s after the process was started, during the interpreter's
  start-up and the imports. Before szsolver's first statement runs nothing of ours can
  act (Python's own handler), so these are reported apart and not counted as failures
  unless they hang.

Each child gets SIGINT reset to the default before exec and its own process group, and
SIGINT goes to that group, like a foreground job in a terminal (``cmd &`` in a script starts it with SIGINT ignored, which szsolver keeps).
The command runs as ``python3 -m szsolver`` (the console script runs the same entry).
``tests/test_interrupt.py`` runs a few trials per command from here.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

#: where the commands that write files write them (a re-run overwrites)
SCRATCH = os.path.join(tempfile.gettempdir(), "szsolver-stress-interrupt")
DEEP = "R./.N...B/..R..../R..R.R../...BN..../..BBN.../......./..BN../BR R 2 5 basic"
START = "../....../......./......../....N..../......../......./....../.. R 5 5 basic"

#: name -> the command's arguments and ``ready``: a shared library that is mapped into
#: the process once the command body runs (so the handler is installed)
WORKLOADS = {
    # the C endgame search (polls PyErr_CheckSignals every 4096 nodes)
    "solve": {"args": ["solve", DEEP, "--node-limit", "4000000000"], "ready": "_search"},
    # many CP-SAT solves with Python in between
    "potential": {"args": ["potential", START, "--map"], "ready": "ortools"},
    # one long CP-SAT solve (an empty hex starmap, looking for 3 solutions)
    "puzzle-solve": {"args": ["puzzle", "solve", "hex;basic;x=;g=", "--max-solutions", "3"],
                     "ready": "ortools"},
    # the C local search (nogil, polls every 256 steps), CP-SAT, the logic solver
    "puzzle-generate": {"args": ["puzzle", "generate", "--board", "hex", "--count", "40",
                                 "--seed", "x7"], "ready": "_complete"},
    # a complete starmap on the hex board, good form: the C local search for seconds
    "starmap": {"args": ["starmap", "--board", "hex", "--good-form", "--seed", "2"],
                "ready": "_complete"},
    # the engine (C tree search, polls every 64 iterations), the solver and CP-SAT bounds
    "check": {"args": ["check", "--example", "--turn", "8"], "ready": "_search"},
    "annotate": {"args": ["annotate", "--example"], "ready": "_search"},
    # the engine alone from the start of a game: CP-SAT bounds, then seconds of tree search
    "best": {"args": ["best", START, "--time", "60"], "ready": "_search"},
    # game after game of the engine against itself, each record written when it ends
    "selfplay": {"args": ["selfplay", "--games", "50", "--time", "0.3", "--out",
                          os.path.join(SCRATCH, "selfplay")], "ready": "_search"},
    # a local Dask cluster (one worker process) annotating the rulebook game
    "batch": {"args": ["batch", "annotate", "--example", os.path.join(SCRATCH, "batch"),
                       "--workers", "1", "--time-per-turn", "1"], "ready": "_multiprocessing"},
    # one solve split over the root turns on a local Dask cluster of two worker processes
    "solve-workers": {"args": ["solve", DEEP, "--workers", "2", "--node-limit", "4000000000"],
                      "ready": "_multiprocessing"},
}


def _child_setup():
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.setpgid(0, 0)        # its own process group, as a terminal's foreground job


def _interrupt(p) -> None:
    """Ctrl-C as a terminal sends it: SIGINT to the command's whole process group (its
    helper processes too: Dask workers, forkservers)."""
    try:
        os.killpg(p.pid, signal.SIGINT)
    except ProcessLookupError:
        pass


def _mapped(pid: int, name: str) -> bool:
    try:
        with open(f"/proc/{pid}/maps", encoding="utf-8", errors="replace") as f:
            return name in f.read()
    except OSError:
        return False


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _group_processes(pgid: int) -> str:
    """The processes of group ``pgid`` (Linux: from /proc): pid, state and command, for
    the report."""
    found = []
    for name in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")[:80]
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 2 and int(fields[2]) == pgid:
            found.append(f"{name} {fields[0].decode()} {cmd or '[zombie]'}")
    return "; ".join(found) or "gone by now"


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def command(args: list[str]) -> list[str]:
    return [sys.executable, "-m", "szsolver", *args]


#: a progress line of ``szsolver solve`` off a terminal (docs/solver.md, "Progress")
PROGRESS_LINE = re.compile(r"^(?:[+-]\d+ <= value <= [+-]\d+ \(|value [+-]\d+ \(proved\))")


def trial(args: list[str], delay: float, second: float | None = None, limit: float = 1.5,
          ready: str | None = None, wait_ready: bool = False, hang: float = 15.0) -> dict:
    """Run ``szsolver ARGS``; SIGINT ``delay`` seconds after it started (with
    ``wait_ready``: after the library ``ready`` - or the workload's - is loaded), a second
    SIGINT ``second`` seconds after the first. Returns status ("ok", "finished-early",
    "finished-late" - it ended before the signal mattered - or the problems joined by
    commas), rc, latency, out, err (without solve's progress lines, which come first)."""
    if wait_ready and ready is None:
        ready = next((w["ready"] for w in WORKLOADS.values() if w["args"] == args[:len(w["args"])]),
                     None)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(command(args), stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                             preexec_fn=_child_setup)
        if wait_ready and ready:
            while p.poll() is None and not _mapped(p.pid, ready) and time.monotonic() - t0 < 60:
                time.sleep(0.005)
        t_ready = time.monotonic()
        while time.monotonic() - t_ready < delay and p.poll() is None:
            time.sleep(0.001)
        if p.poll() is not None:
            out.seek(0)
            return dict(status="finished-early", rc=p.returncode, latency=None, out=out.read().decode(),
                        err="")
        t_sig = time.monotonic()
        _interrupt(p)
        sent2 = second is None
        while p.poll() is None:
            now = time.monotonic()
            if not sent2 and now - t_sig >= second:
                _interrupt(p)
                sent2 = True
            if now - t_sig > hang:
                _kill_group(p.pid)
                p.wait()
                break
            time.sleep(0.001)
        latency = time.monotonic() - t_sig
        left = _group_alive(p.pid)
        if left:                # helper processes that outlived the command
            time.sleep(0.5)
            left = _group_alive(p.pid) and _group_processes(p.pid)
            _kill_group(p.pid)
        err.seek(0)
        errtext = err.read().decode(errors="replace")
        out.seek(0)
        outtext = out.read().decode(errors="replace")
    # solve's progress lines (plain lines off a terminal) report the search, not its
    # end: set apart, they must all come before the rest
    lines = errtext.splitlines(True)
    progress = "".join(x for x in lines if PROGRESS_LINE.match(x))
    rest = "".join(x for x in lines if not PROGRESS_LINE.match(x))
    late_progress = bool(rest) and not errtext.endswith(rest)
    errtext = rest
    rc = p.returncode
    if rc == 0 and errtext == "" and latency <= limit:
        # the process had decided its exit (szsolver._entry._leave: the last moment a
        # Ctrl-C counts) or was gone when SIGINT came; the output is complete
        return dict(status="finished-late", rc=rc, latency=None, out=outtext, err=errtext)
    problems = []
    if left:
        problems.append(f"left processes behind ({left})")
    if latency > hang:
        problems.append("HUNG")
    if rc != 130:
        problems.append(f"rc={rc}")
    if "Traceback" in errtext:
        problems.append("traceback")
    if "Aborted" in errtext:
        problems.append("Aborted!")
    if rc == 130 and errtext != "Interrupted.\n":
        problems.append(f"stderr {errtext[-200:]!r}")
    if late_progress:
        problems.append(f"progress after the end {progress[-200:]!r}")
    if "time limit" in outtext:
        problems.append("labelled time limit")
    if latency > limit:
        problems.append(f"slow {latency:.2f}s")
    return dict(status=",".join(problems) or "ok", rc=rc, latency=latency, out=outtext,
                err=errtext, since_start=t_sig - t0)


def _summary(label: str, lats: list[float]) -> str:
    lats = sorted(lats)
    return (f"{label:18} n={len(lats):3d}  median {statistics.median(lats):.3f} s  "
            f"p90 {lats[int(0.9 * (len(lats) - 1))]:.3f} s  worst {lats[-1]:.3f} s")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=60)
    ap.add_argument("--double", type=int, default=15)
    ap.add_argument("--startup", type=int, default=10)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--limit", type=float, default=1.5)
    ap.add_argument("--commands", default=",".join(WORKLOADS))
    ap.add_argument("--hold-gib", type=float, default=0.0,
                    help="hold this much memory (touched) during the trials: memory pressure")
    a = ap.parse_args(argv)
    held = bytearray(int(a.hold_gib * 2**30))
    for i in range(0, len(held), 4096):      # touched, so the kernel must find it room
        held[i] = 1
    rng = random.Random(f"stress_interrupt {a.seed}")
    names = a.commands.split(",")
    plan = [("main", rng.choice(names), rng.uniform(0.0, 2.5), None) for _ in range(a.trials)]
    plan += [("double", rng.choice(names), rng.uniform(0.0, 2.5), rng.uniform(0.0, 0.3))
             for _ in range(a.double)]
    plan += [("startup", rng.choice(names), rng.uniform(0.0, 0.3), None)
             for _ in range(a.startup)]
    print(f"load average {os.getloadavg()[0]:.1f}; {len(plan)} trials, limit {a.limit} s"
          + (f"; {a.hold_gib:g} GiB held" if held else ""))
    print(f"{'#':>3} {'kind':8} {'command':16} {'delay':>6} {'latency':>8} {'rc':>4}  status")
    results = []
    for i, (kind, name, delay, second) in enumerate(plan):
        w = WORKLOADS[name]
        r = trial(w["args"], delay, second, a.limit, ready=w["ready"], wait_ready=kind != "startup")
        r.update(kind=kind, name=name)
        results.append(r)
        lat = "-" if r["latency"] is None else f"{r['latency']:.3f}"
        print(f"{i:3d} {kind:8} {name:16} {delay:6.3f} {lat:>8} {r['rc']!s:>4}  {r['status']}",
              flush=True)
        if r["status"] not in ("ok", "finished-early", "finished-late"):
            print("    " + r["err"].strip().replace("\n", "\n    ")[-1200:])
    counted = [r for r in results if r["kind"] != "startup" or "HUNG" in r["status"]]
    bad = [r for r in counted if r["status"] not in ("ok", "finished-early", "finished-late")]
    print()
    print(f"load average {os.getloadavg()[0]:.1f}; trials {len(results)}, "
          f"failures {len(bad)} (start-up trials apart)")
    lats = [r["latency"] for r in results if r["latency"] is not None and r["kind"] != "startup"]
    if lats:
        print(_summary("all after start-up", lats))
    for name in names:
        ls = [r["latency"] for r in results
              if r["name"] == name and r["latency"] is not None and r["kind"] != "startup"]
        if ls:
            print(_summary(name, ls))
    for kind in ("main", "double", "startup"):
        rs = [r for r in results if r["kind"] == kind and r["latency"] is not None]
        if rs:
            ok = sum(r["status"] == "ok" for r in rs)
            print(_summary(kind, [r["latency"] for r in rs]) + f"  ok {ok}/{len(rs)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
