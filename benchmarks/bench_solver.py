"""Endgame solver benchmark: fixed positions at 2, 4, 6 and 8 turns left, both rules.

Run: python3 benchmarks/bench_solver.py [--depths 2,4,6] [--rules basic,advanced]
         [--options tt,leaf,tables,order,sym] [--time-limit S] [--node-limit N]
         [--tt-size N] [--names SUBSTRING]

Positions: benchmarks/solver_positions.txt (the rulebook example game and four
greedy-policy games per rule; see make_solver_positions.py). Prints, per
position, value, nodes, seconds (wall clock and this process's CPU time: on a shared
machine the CPU time is the steadier figure) and nodes/s, then the medians per
(rule, depth).
``--options`` lists the techniques to keep (default all) so that each one's
effect can be measured; ``--value-only`` skips the best-turns/PV extraction.
A position stopped by a limit prints its proved bounds and counts at the limit.
"""
import argparse
import os
import statistics
import sys
import time

from szsolver.rules import _core
from szsolver.formats.notation import parse_position
from szsolver.endgame.solver import solve, OPTIONS

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path=os.path.join(HERE, "solver_positions.txt")):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, depth, text = (x.strip() for x in line.split("|"))
            out.append((name, int(depth), parse_position(text, backend=_core.Position)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depths", default="2,4,6")
    ap.add_argument("--rules", default="basic,advanced")
    ap.add_argument("--options", default=None,
                    help="comma-separated techniques to use (default: all): " + ",".join(OPTIONS))
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--node-limit", type=int, default=None)
    ap.add_argument("--tt-size", type=int, default=None)
    ap.add_argument("--names", default="")
    ap.add_argument("--value-only", action="store_true")
    a = ap.parse_args()
    depths = {int(d) for d in a.depths.split(",")}
    rules = a.rules.split(",")
    options = None if a.options is None else [o for o in a.options.split(",") if o]
    rows = {}
    print(f"{'position':22} {'value':>11} {'nodes':>12} {'seconds':>9} {'cpu s':>8} {'nodes/s':>11}")
    for name, depth, pos in load():
        rule = name.split("-")[0]
        if depth not in depths or rule not in rules or a.names not in name:
            continue
        t = time.perf_counter()
        c = time.process_time()
        res = solve(pos, time_limit=a.time_limit, node_limit=a.node_limit, tt_size=a.tt_size,
                    options=options, pv=not a.value_only)
        dt = time.perf_counter() - t
        dc = time.process_time() - c
        val = f"{res.value:+d}" if res.exact else f"[{res.lower:+d},{res.upper:+d}]"
        print(f"{name:22} {val:>11} {res.nodes:12,d} {dt:9.3f} {dc:8.3f} {res.nodes / dt:11,.0f}"
              + ("" if res.exact else f"  ({res.stopped})"), flush=True)
        rows.setdefault((rule, depth), []).append((res.nodes, dt, res.exact, dc))
    print()
    print(f"{'rule':9} {'turns left':>10} {'positions':>9} {'median nodes':>13} "
          f"{'median s':>9} {'median cpu s':>12} {'max s':>8}")
    for (rule, depth), r in sorted(rows.items()):
        note = "" if all(x[2] for x in r) else "  (some stopped by a limit)"
        print(f"{rule:9} {depth:10d} {len(r):9d} {statistics.median(x[0] for x in r):13,.0f} "
              f"{statistics.median(x[1] for x in r):9.3f} {statistics.median(x[3] for x in r):12.3f} "
              f"{max(x[1] for x in r):8.3f}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
