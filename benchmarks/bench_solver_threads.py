"""Threads of the exact solver: the search overhead, the span and the idle time of the
shared tree (every thread on the same probe, ABDADA) against the root's children dealt
in rounds.

Run: python3 benchmarks/bench_solver_threads.py [--set random] [--depth 6]
         [--rules advanced] [--threads 1,2,4,8,16] [--modes shared,rounds]
         [--min-turns 4] [--helpers] [--names random0,random1] [--full] [--wall]

Per position and thread count: the nodes of every thread together over the serial
solve's (the search overhead), and the span: per parallel step (a probe over the
threads, a round, the children dealt) the most nodes one thread searched, plus what
one thread searched alone (the PV). With threads searching at the same speed the
wall time is the span's, so serial nodes / span is the speed-up a machine with a core
per thread gives, and 1 - nodes / (threads x span) the idle fraction. Nodes do not
depend on the machine's load; with more threads than cores the threads take turns,
which changes which thread proves what first, so those overheads are a machine's with
fewer cores. ``--wall``: also the wall-clock seconds (meaningful on an idle machine
with a core per thread). Value only unless ``--full`` (optimal turns and PV too).
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_solver import SETS, load  # noqa: E402

from szsolver.endgame import solver as solver_module  # noqa: E402
from szsolver.endgame.solver import solve  # noqa: E402


class Span:
    """Counts, over one solve, the most nodes a thread searched in each parallel step."""

    def __init__(self):
        self.parallel = 0       # sum over the steps of the most nodes one thread searched
        self.in_steps = 0       # nodes searched inside the steps (every thread)
        self.real_run = solver_module._Team.run
        span = self

        def run(team, work):
            before = [s.stats()["nodes"] for s in team.searchers]
            span.real_run(team, work)
            d = [s.stats()["nodes"] - b for s, b in zip(team.searchers, before)]
            span.parallel += max(d)
            span.in_steps += sum(d)

        solver_module._Team.run = run

    def close(self):
        solver_module._Team.run = self.real_run


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="random", choices=sorted(SETS))
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--rules", default="advanced")
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--modes", default="shared,rounds")
    ap.add_argument("--min-turns", type=int, default=solver_module.SHARED_TREE_MIN_TURNS)
    ap.add_argument("--names", default="", help="comma-separated substrings of the names")
    ap.add_argument("--helpers", action="store_true",
                    help="shared tree: threads but the first start the root's turns "
                         "from the middle")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--wall", action="store_true")
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    solver_module.SHARED_TREE_HELPERS = a.helpers
    modes = a.modes.split(",")
    rows = {}
    print(f"{'position':22} {'mode':6} {'thr':>3} {'nodes':>11} {'overhead':>8} {'span':>11} "
          f"{'speed-up':>8} {'idle':>5}" + (f" {'wall s':>7}" if a.wall else ""))
    for name, depth, pos in load(SETS[a.set]):
        if (depth != a.depth or name.split("-")[0] not in a.rules.split(",")
                or not any(x in name for x in a.names.split(","))):
            continue
        t = time.perf_counter()
        serial = solve(pos, pv=a.full)
        serial_s = time.perf_counter() - t
        print(f"{name:22} {'serial':6} {1:3d} {serial.nodes:11,d} {1:8.3f} {serial.nodes:11,d} "
              f"{1:8.2f} {0:5.2f}" + (f" {serial_s:7.2f}" if a.wall else ""), flush=True)
        for mode in modes:
            solver_module.SHARED_TREE = mode == "shared"
            solver_module.SHARED_TREE_MIN_TURNS = a.min_turns
            for n in threads:
                if n == 1:
                    continue
                span = Span()
                try:
                    t = time.perf_counter()
                    res = solve(pos, pv=a.full, threads=n)
                    wall = time.perf_counter() - t
                finally:
                    span.close()
                assert res.value == serial.value, (name, mode, n, res.value, serial.value)
                alone = res.nodes - span.in_steps           # one thread, outside the steps
                critical = span.parallel + alone
                over = res.nodes / serial.nodes
                idle = 1 - res.nodes / (n * critical)
                print(f"{name:22} {mode:6} {n:3d} {res.nodes:11,d} {over:8.3f} {critical:11,d} "
                      f"{serial.nodes / critical:8.2f} {idle:5.2f}"
                      + (f" {wall:7.2f}" if a.wall else ""), flush=True)
                rows.setdefault((mode, n), []).append((res.nodes, serial.nodes, critical, wall,
                                                       serial_s))
    print()
    print(f"{'mode':6} {'thr':>3} {'n':>3} {'overhead':>8} {'speed-up':>8} {'idle':>5}"
          + (f" {'wall x':>6}" if a.wall else "") + "   (totals over the positions)")
    for (mode, n), r in sorted(rows.items()):
        nodes, ser, crit = (sum(x[i] for x in r) for i in range(3))
        line = (f"{mode:6} {n:3d} {len(r):3d} {nodes / ser:8.3f} {ser / crit:8.2f} "
                f"{1 - nodes / (n * crit):5.2f}")
        if a.wall:
            line += f" {sum(x[4] for x in r) / sum(x[3] for x in r):6.2f}"
        print(line)
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
