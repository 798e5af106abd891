"""The tree search's own speed, and whether a change left its trees as they were.

Run: python3 benchmarks/bench_tree.py make POSITIONS.txt [--stages ...] [--positions K]
     python3 benchmarks/bench_tree.py check POSITIONS.txt [--iterations N]
     python3 benchmarks/bench_tree.py speed POSITIONS.txt [--cpu S] [--stages ...] [--out RATES]
     python3 benchmarks/bench_tree.py fit RATES [RATES ...]

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
machine, run them alternately on small groups of stages (``--stages``). ``--out``
appends each position's rate to a file (JSON lines) for ``fit``.

``fit`` fits the budget's cost per iteration (``szsolver.engine.search``:
``(a t^2 + b) (1 + n)^(q0 + q1 ln t)``, times the rule's ``LATE_COST`` by turns left)
to the measured costs, per rule: least squares on the log of the cost over a grid of
q0 and q1 (a and b in closed form for each ratio b / a on a grid), then each
``LATE_COST`` band's factor as the median of the measured cost over the fitted one
there (bands of one factor), and the fit again with those. Prints the constants
(before ``COST_MARGIN``) and how far the fit is from the measured cost (the 5th and
95th percentiles of the ratio, and the extremes). ``--keep-shape``: a and b alone,
q0, q1 and ``LATE_COST`` kept as they are.
"""
from __future__ import annotations

import argparse
import json
import math
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
    from types import SimpleNamespace
    from bench_budget import positions
    spec = SimpleNamespace(rules=["basic", "advanced"], stages=a.stages,
                           sources=["example", "uniform", "random", "greedy"],
                           positions=a.positions)
    with open(a.path, "w") as f:
        f.write("# rule, stage (turns left), source, k, position (bench_tree.py make)\n")
        for rule, stage, source, k, s in positions(spec):
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
        if a.out:
            with open(a.out, "a") as f:
                f.write(json.dumps({"rule": rule, "stage": stage, "source": source, "k": k,
                                    "position": pstr, "rate": rate}) + "\n")
    print("\n| rule | turns left | positions | iterations/CPU s median |")
    print("|---|---:|---:|---:|")
    for (rule, stage), rates in cells.items():
        print(f"| {rule} | {stage} | {len(rates)} | {statistics.median(rates):,.0f} |")


def _fit_base(rows, late, q=None):
    """(a, b, q0, q1) minimising the squared log error, with the late factors given
    (and q0, q1 when ``q`` gives them)."""
    import numpy as np
    t = np.array([r["t"] for r in rows], float)
    n = np.array([r["n"] for r in rows], float)
    y = np.log(np.array([1 / r["rate"] for r in rows]) / np.array([late(r["t"]) for r in rows]))
    best = None
    for q0 in (np.arange(0.0, 2.51, 0.05) if q is None else [q[0]]):
        for q1 in (np.arange(-0.8, 0.21, 0.05) if q is None else [q[1]]):
            z = y - (q0 + q1 * np.log(t)) * np.log1p(n)
            for rho in np.exp(np.linspace(math.log(1e-2), math.log(1e4), 240)):
                la = np.mean(z - np.log(t * t + rho))
                err = np.sum((z - la - np.log(t * t + rho)) ** 2)
                if best is None or err < best[0]:
                    best = (err, math.exp(la), math.exp(la) * rho, q0, q1)
    return best[1:]


def fit(a):
    import numpy as np
    from szsolver.engine import search
    rows = [json.loads(line) for path in a.paths for line in open(path) if line.strip()]
    for r in rows:
        pos = _pos(r)
        r["t"], r["n"] = max(pos.turns_left, 1), search.spendable_neutrals(pos)
    for rule, code in (("basic", search.BASIC), ("advanced", search.ADVANCED)):
        rs = [r for r in rows if r["rule"] == rule]
        if not rs:
            continue
        bands = search.LATE_COST[code]
        factors = [1.0] * len(bands) if not a.keep_shape else [f for _t, f in bands]

        def late(t):
            i = _band(bands, t)
            return 1.0 if i is None else factors[i]
        for _round in range(1 if a.keep_shape else 3):
            a_, b_, q0, q1 = _fit_base(rs, late, search.NEUTRAL_COST[code] if a.keep_shape
                                       else None)

            def model(r):
                return (a_ * r["t"] ** 2 + b_) * (1 + r["n"]) ** (q0 + q1 * math.log(r["t"]))
            for i in range(len(bands) if not a.keep_shape else 0):
                band = [r for r in rs if _band(bands, r["t"]) == i]
                if band:
                    factors[i] = float(np.median([1 / r["rate"] / model(r) for r in band]))
        ratio = np.array([late(r["t"]) * model(r) * r["rate"] for r in rs])
        print(f"{rule}: {len(rs)} positions: a = {a_:.3g}, b = {b_:.3g}, q0 = {q0:.2f}, "
              f"q1 = {q1:.2f}, late {[(t, round(f, 2)) for (t, _), f in zip(bands, factors)]}")
        print(f"  fit / measured: 5-95 % {np.percentile(ratio, 5):.2f}-"
              f"{np.percentile(ratio, 95):.2f}, all {ratio.min():.2f}-{ratio.max():.2f}")
        now = np.array([search.iteration_seconds(_pos(r)) / search.COST_MARGIN * r["rate"]
                        for r in rs])
        print(f"  the budget's fit now (before the margin) / measured: 5-95 % "
              f"{np.percentile(now, 5):.2f}-{np.percentile(now, 95):.2f}, "
              f"median {np.median(now):.2f}")
        for stage in sorted({r["stage"] for r in rs}, reverse=True):
            cell = [(r, x) for r, x in zip(rs, ratio) if r["stage"] == stage]
            print(f"  {stage:2} turns left: median {np.median([r['rate'] for r, _ in cell]):>9,.0f} "
                  f"it/CPU s, fit / measured {min(x for _, x in cell):.2f}-"
                  f"{max(x for _, x in cell):.2f}")


def _band(bands, t):
    """The first ``LATE_COST`` band that ``t`` turns left fit under (None: none)."""
    return next((i for i, (turns, _f) in enumerate(bands) if t <= turns), None)


def _pos(r):
    from szsolver import parse_position
    return parse_position(r["position"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["make", "check", "speed", "fit"])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--stages", default=None, help="turns left, comma separated")
    ap.add_argument("--positions", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=3000)
    ap.add_argument("--cpu", type=float, default=0.3)
    ap.add_argument("--out", default=None)
    ap.add_argument("--keep-shape", action="store_true",
                    help="fit: a and b only, q0, q1 and LATE_COST kept as they are")
    a = ap.parse_args()
    a.path = a.paths[0]
    a.stages = [int(s) for s in a.stages.split(",")] if a.stages else None
    if a.mode == "make":
        a.stages = a.stages or [32, 25, 20, 17, 14, 12, 10, 9, 8, 6, 4]
    {"make": make, "check": check, "speed": speed, "fit": fit}[a.mode](a)


if __name__ == "__main__":
    main()
