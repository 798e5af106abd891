"""The tree search's own speed, and whether a change left its trees as they were.

Run: python3 benchmarks/bench_tree.py make POSITIONS.txt [--stages ...] [--positions K]
     python3 benchmarks/bench_tree.py check POSITIONS.txt [--iterations N]
     python3 benchmarks/bench_tree.py speed POSITIONS.txt [--cpu S] [--stages ...] [--out RATES]
     python3 benchmarks/bench_tree.py fit RATES [RATES ...]

``make`` writes positions of every stage and both rules (benchmarks/bench_budget.py's
sources: the rulebook game, uniformly random legal play, the random and the greedy
players, random stones with every neutral kept), one a line: rule, stage, source, k
and the position string.

``check`` prints the root's statistics (``Tree.root_stats()``, full precision) after
``--iterations`` iterations per position, the tree made as ``Engine`` makes it (the
rule's options, the engine's seed for the position): run it on two builds and diff the
outputs; identical outputs mean identical searches.

``speed`` runs each position's tree for ``--cpu`` CPU seconds (``time.process_time``:
on a shared machine the honest figure) and prints iterations per CPU second per
position, then the median per rule and stage. To compare two builds on a loaded
machine, run them alternately on small groups of stages (``--stages``). ``--out``
appends each position's rate to a file (JSON lines) for ``fit``.

``fit`` fits the budget's cost per iteration (``szsolver.engine.search``,
``iteration_seconds``: the log of the cost is ``c0 + c1 ln t + c2 ln^2 t + ln(1 + n)
(q0 + q1 ln t)``, plus ``dc + dq ln(1 + n)`` for each of the rule's ``LATE_COST`` bands
whose turns left the position is within) to the measured costs, per rule, by linear
least squares on the log of the cost; each late band's ``dc`` is then raised where
needed so that the fit is at least ``--floor`` of the measured cost at each of its
positions. Prints the constants (before ``COST_MARGIN``) and how far the fit and the
budget's constants now are from the measured cost (the 5th and 95th percentiles of the
ratio, and the extremes; per stage the extremes).
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
                           sources=["example", "uniform", "random", "greedy", "stones"],
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


def _features(t, n, keys):
    """The fit's terms: 1, ln t, ln^2 t, ln(1 + n), ln(1 + n) ln t, then for each
    ``LATE_COST`` key (turns left at most the key) 1 and ln(1 + n)."""
    import numpy as np
    lt, ln = np.log(t), np.log1p(n)
    cols = [np.ones_like(t), lt, lt * lt, ln, ln * lt]
    for key in keys:
        late = (t <= key).astype(float)
        cols += [late, late * ln]
    return np.stack(cols, 1)


def fit(a):
    """Per rule: linear least squares of the log cost on :func:`_features`, then each
    late band's constant raised where needed so that the fit is at least ``--floor`` of
    the measured cost at every position of the band (below it, a budget would run over
    by more than 1 / floor)."""
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
        keys = sorted((key for key, _dc, _dq in search.LATE_COST[code]), reverse=True)
        t = np.array([r["t"] for r in rs], float)
        n = np.array([r["n"] for r in rs], float)
        y = np.log(np.array([1 / r["rate"] for r in rs]))
        x = _features(t, n, keys)
        c = np.linalg.lstsq(x, y, rcond=None)[0]
        for i, key in enumerate(keys):
            inside = t <= key
            if i + 1 < len(keys):
                inside &= t > keys[i + 1]
            worst = float(np.min((x @ c - y)[inside])) if inside.any() else 0.0
            c[5 + 2 * i] += max(0.0, math.log(a.floor) - worst)
        ratio = np.exp(x @ c - y)
        late = tuple((key, round(float(c[5 + 2 * i]), 4), round(float(c[6 + 2 * i]), 4))
                     for i, key in enumerate(keys))
        print(f"{rule}: {len(rs)} positions: ITERATION_COST "
              f"({', '.join(f'{v:.4f}' for v in c[:5])}), LATE_COST {late}")
        print(f"  fit / measured: 5-95 % {np.percentile(ratio, 5):.2f}-"
              f"{np.percentile(ratio, 95):.2f}, all {ratio.min():.2f}-{ratio.max():.2f}")
        now = np.array([search.iteration_seconds(_pos(r)) / search.COST_MARGIN * r["rate"]
                        for r in rs])
        print(f"  the budget's fit now (before the margin) / measured: 5-95 % "
              f"{np.percentile(now, 5):.2f}-{np.percentile(now, 95):.2f}, "
              f"median {np.median(now):.2f}")
        for stage in sorted({r["stage"] for r in rs}, reverse=True):
            cell = [(r, x, y) for r, x, y in zip(rs, ratio, now) if r["stage"] == stage]
            print(f"  {stage:2} turns left: median {np.median([r['rate'] for r, _, _ in cell]):>9,.0f} "
                  f"it/CPU s, fit / measured {min(x for _, x, _ in cell):.2f}-"
                  f"{max(x for _, x, _ in cell):.2f}, now {min(y for *_, y in cell):.2f}-"
                  f"{max(y for *_, y in cell):.2f}")


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
    ap.add_argument("--floor", type=float, default=0.25,
                    help="fit: each late band's fit at least this share of the measured cost")
    a = ap.parse_args()
    a.path = a.paths[0]
    a.stages = [int(s) for s in a.stages.split(",")] if a.stages else None
    if a.mode == "make":
        a.stages = a.stages or [32, 25, 20, 17, 14, 12, 10, 9, 8, 6, 4]
    {"make": make, "check": check, "speed": speed, "fit": fit}[a.mode](a)


if __name__ == "__main__":
    main()
