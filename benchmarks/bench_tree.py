"""The tree search's own speed, and whether a change left its trees as they were.

Run: python3 benchmarks/bench_tree.py make POSITIONS.txt [--stages ...] [--positions K]
     python3 benchmarks/bench_tree.py check POSITIONS.txt [--iterations N]
     python3 benchmarks/bench_tree.py speed POSITIONS.txt [--cpu S] [--stages ...]

``make`` writes positions of every stage and both rules (benchmarks/bench_budget.py's
sources: the rulebook game, uniformly random legal play, the random and the greedy
players), one a line: rule, stage, source, k and the position string.

``check`` prints the root's statistics (``Tree.root_stats()``, full precision) after
``--iterations`` iterations per position, the tree made as ``Engine`` makes it (the
rule's options, the engine's seed for the position): run it on two builds and diff the
outputs; identical outputs mean identical searches.

``speed`` runs each position's tree for ``--cpu`` CPU seconds (``time.process_time``:
on a shared machine the honest figure) and prints iterations per CPU second per
position, then the median per rule and stage. To compare two builds on a loaded
machine, run them alternately on small groups of stages (``--stages``).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def read(path, stages=None):
    rows = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            rule, stage, source, k, pstr = line.rstrip("\n").split("\t")
            if stages and int(stage) not in stages:
                continue
            rows.append((rule, int(stage), source, int(k), pstr))
    return rows


def tree_for(pstr):
    from szsolver import parse_position
    from szsolver.engine.search import Engine
    from szsolver.formats.notation import position_string
    from szsolver.rules.backends import to_core
    core = to_core(parse_position(pstr))
    return Engine(1.0, solver_turns=0)._tree(core, position_string(core))


def make(a):
    from bench_budget import RULES, stage_position
    from szsolver.formats.notation import position_string
    seen = set()
    with open(a.path, "w") as f:
        f.write("# rule, stage (turns left), source, k, position (bench_tree.py make)\n")
        for rule in ("basic", "advanced"):
            for stage in a.stages:
                for source in ("example", "uniform", "random", "greedy"):
                    for k in range(a.positions):
                        pos = stage_position(RULES[rule], stage, source, k)
                        if pos is None:
                            continue
                        s = position_string(pos)
                        if s in seen:
                            continue
                        seen.add(s)
                        f.write(f"{rule}\t{stage}\t{source}\t{k}\t{s}\n")


def check(a):
    for rule, stage, source, k, pstr in read(a.path, a.stages):
        tree = tree_for(pstr)
        tree.run(a.iterations)
        print(f"{rule} {stage} {source} {k} {pstr}")
        for t, n, r, v in tree.root_stats():
            print(f"  {t} {n} {r!r} {v!r}")
        print(f"  size {tree.size}")


def speed(a):
    cells = {}
    for rule, stage, source, k, pstr in read(a.path, a.stages):
        tree = tree_for(pstr)
        tree.run(256)                    # the root's expansion, the first allocations
        n = 0
        c = time.process_time()
        while time.process_time() - c < a.cpu:
            tree.run(1024)
            n += 1024
        rate = n / (time.process_time() - c)
        cells.setdefault((rule, stage), []).append(rate)
        print(f"{rule:8} {stage:2} {source:8} {k} {rate:10,.0f} it/CPU s", flush=True)
    print("\n| rule | turns left | positions | iterations/CPU s median |")
    print("|---|---:|---:|---:|")
    for (rule, stage), rates in cells.items():
        print(f"| {rule} | {stage} | {len(rates)} | {statistics.median(rates):,.0f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["make", "check", "speed"])
    ap.add_argument("path")
    ap.add_argument("--stages", default=None, help="turns left, comma separated")
    ap.add_argument("--positions", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=3000)
    ap.add_argument("--cpu", type=float, default=0.3)
    a = ap.parse_args()
    a.stages = [int(s) for s in a.stages.split(",")] if a.stages else None
    if a.mode == "make":
        a.stages = a.stages or [32, 25, 20, 17, 14, 12, 10, 9, 8, 6, 4]
    {"make": make, "check": check, "speed": speed}[a.mode](a)


if __name__ == "__main__":
    main()
