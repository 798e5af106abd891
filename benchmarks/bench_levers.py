"""What each solver technique buys: medians over the fixed benchmark positions with
all (default) techniques, with each one switched off in turn (e.g. -adv2, -adv3),
with none, with PVS instead of MTD(f), and with the killer heuristic added.

Run: python3 benchmarks/bench_levers.py [--set main|random] [--depths 4,6] [--rules basic,advanced]
         [--node-limit N] [--configs all,-tt,...]

Value-only solves (no best-turn/PV extraction); times are this process's CPU
seconds (steadier than wall clock on a shared machine). A configuration that hits the
node limit on some position prints '>' before its median (the limit, not the cost).
"""
import argparse
import statistics
import sys
import time

from bench_solver import SETS, load
from szsolver.endgame.solver import DEFAULT_OPTIONS, solve

ALL = list(DEFAULT_OPTIONS)
CONFIGS = {"all": (ALL, "mtdf"), "pvs": (ALL, "pvs"), "+killer": (ALL + ["killer"], "mtdf")}
for name in ALL:
    CONFIGS[f"-{name}"] = ([o for o in ALL if o != name], "mtdf")
CONFIGS["none"] = ([], "mtdf")
CONFIGS["tt+order"] = (["tt", "order"], "mtdf")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="main", choices=sorted(SETS))
    ap.add_argument("--depths", default="4,6")
    ap.add_argument("--rules", default="basic,advanced")
    ap.add_argument("--node-limit", type=int, default=5_000_000)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    a = ap.parse_args()
    depths = [int(d) for d in a.depths.split(",")]
    rules = a.rules.split(",")
    positions = load(SETS[a.set])
    print(f"{'config':10} {'rule':9} {'turns':>5} {'median nodes':>14} {'median cpu s':>13}")
    for cname in a.configs.split(","):
        options, driver = CONFIGS[cname]
        for rule in rules:
            for d in depths:
                nodes, secs, capped = [], [], False
                for name, depth, pos in positions:
                    if depth != d or not name.startswith(rule):
                        continue
                    t = time.process_time()
                    r = solve(pos, options=options, driver=driver, pv=False,
                              node_limit=a.node_limit)
                    secs.append(time.process_time() - t)
                    nodes.append(r.nodes)
                    capped |= not r.exact
                mark = ">" if capped else " "
                print(f"{cname:10} {rule:9} {d:5d} {mark}{statistics.median(nodes):13,.0f} "
                      f"{mark}{statistics.median(secs):12.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
