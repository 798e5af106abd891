"""Endgame solver benchmark: fixed positions at 2 to 10 turns left, both rules.

Run: python3 benchmarks/bench_solver.py [--set main|random|selfplay] [--depths 2,4,6]
         [--rules basic,advanced] [--options tt,leaf,...] [--time-limit S]
         [--node-limit N] [--tt-size N] [--names SUBSTRING] [--value-only | --both]
         [--threads N]

Positions: ``--set main`` (default) benchmarks/solver_positions.txt (the rulebook
example game and four greedy-policy games per rule, 2 to 10 turns left);
``--set random`` benchmarks/solver_positions_random.txt (ten random-play games per
rule with both neutral supplies in hand, 4, 5, 6 and 8 turns left); ``--set selfplay``
benchmarks/solver_positions_selfplay.txt (ten engine self-play games per rule, 6, 8,
9 and 10 turns left); see make_solver_positions.py. Prints, per position, value, nodes, seconds (wall clock
and this process's CPU time: on a shared machine the CPU time is the steadier
figure) and nodes/s, then the median and worst per (rule, depth), and the load
average before and after.
``--options`` lists the techniques to keep (default all) so that each one's
effect can be measured; ``--value-only`` skips the best-turns/PV extraction,
``--both`` measures the value alone and then the full answer (best turns and PV)
on each position. A position stopped by a limit prints its proved bounds and
counts at the limit (its time then stands for "more than the limit").
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


SETS = {"main": os.path.join(HERE, "solver_positions.txt"),
        "random": os.path.join(HERE, "solver_positions_random.txt"),
        "selfplay": os.path.join(HERE, "solver_positions_selfplay.txt")}


def load(path=SETS["main"]):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, depth, text = (x.strip() for x in line.split("|"))
            out.append((name, int(depth), parse_position(text, backend=_core.Position)))
    return out


def measure(pos, a, options, full):
    """Solve once; returns (result, wall s, cpu s)."""
    t = time.perf_counter()
    c = time.process_time()
    kw = {"threads": a.threads} if a.threads != 1 else {}
    res = solve(pos, time_limit=a.time_limit, node_limit=a.node_limit, tt_size=a.tt_size,
                options=options, pv=full, **kw)
    return res, time.perf_counter() - t, time.process_time() - c


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="main", choices=sorted(SETS))
    ap.add_argument("--depths", default="2,4,6")
    ap.add_argument("--rules", default="basic,advanced")
    ap.add_argument("--options", default=None,
                    help="comma-separated techniques to use (default: all): " + ",".join(OPTIONS))
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--node-limit", type=int, default=None)
    ap.add_argument("--tt-size", type=int, default=None)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--names", default="")
    ap.add_argument("--value-only", action="store_true")
    ap.add_argument("--both", action="store_true")
    a = ap.parse_args()
    depths = {int(d) for d in a.depths.split(",")}
    rules = a.rules.split(",")
    options = None if a.options is None else [o for o in a.options.split(",") if o]
    modes = [False, True] if a.both else [not a.value_only]
    load_before = os.getloadavg()
    rows = {}
    print(f"{'position':22} {'mode':5} {'value':>11} {'nodes':>12} {'seconds':>9} {'cpu s':>8} "
          f"{'nodes/s':>11}")
    for name, depth, pos in load(SETS[a.set]):
        rule = name.split("-")[0]
        if depth not in depths or rule not in rules or a.names not in name:
            continue
        for full in modes:
            if full and a.both and not res.exact:
                continue            # the value alone was not proved: the full answer won't be
            res, dt, dc = measure(pos, a, options, full)
            val = f"{res.value:+d}" if res.exact else f"[{res.lower:+d},{res.upper:+d}]"
            mode = "full" if full else "value"
            print(f"{name:22} {mode:5} {val:>11} {res.nodes:12,d} {dt:9.3f} {dc:8.3f} "
                  f"{res.nodes / max(dt, 1e-9):11,.0f}"
                  + ("" if res.stopped is None else f"  ({res.stopped})"), flush=True)
            rows.setdefault((rule, depth, mode), []).append((res.nodes, dt, res.exact, dc))
    print()
    print(f"{'rule':9} {'turns':>5} {'mode':5} {'n':>3} {'proved':>6} {'median nodes':>13} "
          f"{'median s':>9} {'median cpu':>10} {'max s':>8} {'max cpu':>8}")
    for (rule, depth, mode), r in sorted(rows.items()):
        print(f"{rule:9} {depth:5d} {mode:5} {len(r):3d} {sum(x[2] for x in r):6d} "
              f"{statistics.median(x[0] for x in r):13,.0f} "
              f"{statistics.median(x[1] for x in r):9.3f} {statistics.median(x[3] for x in r):10.3f} "
              f"{max(x[1] for x in r):8.3f} {max(x[3] for x in r):8.3f}")
    print(f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
