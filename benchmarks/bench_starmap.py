"""Seconds per complete starmap: median and worst of 20 seeds per board.

    python3 benchmarks/bench_starmap.py [--seeds 20] [--good-form] [--boards square-8,hex]

Each starmap is verified by the independent checker inside complete_starmap. The
first call per board also builds the board's tables (included, as a user would
see it); the search itself is single-threaded.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from szsolver.rules.geometry import by_name
from szsolver.starmaps.complete import complete_starmap

BOARDS = ["square-8", "square-10", "square-12", "stars-zone", "hex"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--good-form", action="store_true")
    ap.add_argument("--rule", default="basic")
    ap.add_argument("--boards", default=",".join(BOARDS))
    a = ap.parse_args()
    print(f"complete starmaps, {a.seeds} seeds each, rule {a.rule}"
          f"{', good form' if a.good_form else ''}")
    print(f"{'board':<12} {'median s':>9} {'mean s':>9} {'worst s':>9} {'steps med':>10}")
    for name in a.boards.split(","):
        g = by_name(name)
        times, steps = [], []
        for seed in range(a.seeds):
            st: dict = {}
            t = time.perf_counter()
            complete_starmap(g, seed, good_form=a.good_form, rule=a.rule, stats=st)
            times.append(time.perf_counter() - t)
            steps.append(st["steps"])
        print(f"{g.name:<12} {statistics.median(times):9.4f} {statistics.mean(times):9.4f} "
              f"{max(times):9.4f} {int(statistics.median(steps)):>10}", flush=True)


if __name__ == "__main__":
    main()
