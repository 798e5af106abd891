"""The engine's budget against the clock: how long ``szsolver best POSITION --time S``
takes, start-up and bounds included, at every stage of the game.

Run: python3 benchmarks/bench_budget.py [--time 1] [--rules basic,advanced]
         [--stages 32,25,17,12,11,10,9,8,6] [--sources example,uniform,random,greedy,stones]
         [--positions 1] [--wall-clock] [--out results.jsonl] [--report results.jsonl]

Each run is one whole command in a new process, as a person types it (``szsolver
best POS --time S --json``): its wall time, its CPU time (user + system, the honest
figure on a shared machine: under load the wall time grows, the CPU time does not),
and what the answer says it spent (iterations, solver nodes). The load average is
printed before and after every run.

Positions, per rule and stage (turns left; 32 is the start, 25 the position before
turn 8, 17 before turn 16, 9 before turn 24):

* ``example``: the rulebook game (Basic; under Advanced it is replayed under that
  rule) at that many turns left;
* ``uniform``: uniformly random legal play: each turn drawn uniformly from all legal
  turns (so neutral turns, which far outnumber stone turns, spend the supplies early);
* ``random``: the project's random player (a random stone, a random neutral 35 % of
  the time while the supply lasts);
* ``greedy``: two greedy players (the stone that most raises the score lead);
* ``stones``: uniformly random stones, no neutral spent: both supplies in hand to the
  end, where an iteration and a proof cost the most;

the random and greedy players as benchmarks/bench_engine.py samples them
(``sample_position``), which also gives ``engine``: two engines at a tiny budget (not
in the default set).

``--positions K``: K seeded positions per random source and cell. The start position
is the same for every source and is run once. The table gives per rule and stage the
worst wall and CPU time, the median, and the CPU time against the budget; then the
worst case over all runs. ``--baseline SRC``: the same commands with another copy of
the package (the code before a change), alternating with this one, so that both see
the same load; the tables then come per version.

``--calibrate``: no commands; in this process, per position, the rates the budget's
conversion rests on (``szsolver.engine.search.budget``): tree iterations per CPU
second and the budget's cost per iteration against the measured one, the CPU time of
the four CP-SAT bounds at their work for ``--time``, solver nodes per CPU second.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time

RULES = {"basic": 0, "advanced": 1}
STAGES = [32, 25, 17, 12, 11, 10, 9, 8, 6]
SOURCES = ["example", "uniform", "random", "greedy", "stones"]


def stage_position(rule: int, turns_left: int, source: str, k: int):
    """The position of ``source`` (see the module doc) with ``turns_left`` turns left,
    seeded by ``k``; None when the source has none (the example under another rule is
    replayed, so it always has one)."""
    from szsolver import Game, Position
    from szsolver.rules.base import NO_NEUTRAL, turn_neutral
    from bench_engine import sample_position
    n = 5 if rule == 0 else 4
    if source == "example":
        if k:
            return None
        game = Game.example(rule=rule)
        pos = game.start
        for t in game.turns:
            if pos.turns_left <= turns_left:
                break
            pos.play(t)
        return pos
    pos = Position(red_neutrals=n, blue_neutrals=n, rule=rule)
    if source in ("uniform", "stones"):
        rng = random.Random(f"{source}-{rule}-{turns_left}-{k}")
        while pos.turns_left > turns_left:
            turns = list(pos.legal_turns())
            if source == "stones":
                turns = [t for t in turns if turn_neutral(t) == NO_NEUTRAL]
            pos.play(rng.choice(turns))
        return pos
    return sample_position(rule, turns_left, k, source)


def positions(a):
    """(rule name, stage, source, k, position string), the start once per rule."""
    from szsolver.formats.notation import position_string
    seen = set()
    for rule in a.rules:
        for stage in a.stages:
            for source in a.sources:
                for k in range(a.positions):
                    pos = stage_position(RULES[rule], stage, source, k)
                    if pos is None:
                        continue
                    s = position_string(pos)
                    if s in seen:
                        continue
                    seen.add(s)
                    yield rule, stage, source, k, s


def command() -> list[str]:
    exe = shutil.which("szsolver", path=os.path.dirname(sys.executable))
    return [exe] if exe else [sys.executable, "-m", "szsolver"]


def run_best(pstr: str, seconds: float, wall_clock: bool, source: str | None = None) -> dict:
    """One ``szsolver best`` in a new process: wall and CPU time, and its answer.
    ``source``: a folder holding another ``szsolver`` package to run instead (on the
    path before the installed one)."""
    argv = [sys.executable, "-m", "szsolver"] if source else command()
    argv += ["best", pstr, "--time", repr(seconds), "--json"]
    env = dict(os.environ, PYTHONPATH=source) if source else None
    if wall_clock:
        argv.append("--wall-clock")
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if out.returncode != 0:
        raise SystemExit(f"best failed ({out.returncode}): {out.stderr.strip()}")
    ans = json.loads(out.stdout)
    return {"wall": wall, "cpu": cpu, "load": [load0, os.getloadavg()[0]],
            "iterations": ans.get("iterations"), "nodes": ans.get("nodes"),
            "method": ans.get("method"), "inner": ans.get("seconds"),
            "budget": ans.get("budget")}


def table(rows: list[dict], seconds: float) -> str:
    versions = sorted({r.get("version", "") for r in rows})
    if len(versions) > 1:
        return "\n\n".join(f"{v}:\n" + table([r for r in rows if r.get("version", "") == v],
                                               seconds) for v in versions)
    out = [f"budget {seconds:g} s per command", "",
           "| rule | turns left | runs | wall s median | wall s worst | CPU s median "
           "| CPU s worst | CPU / budget worst | load |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    cells: dict = {}
    for r in rows:
        cells.setdefault((r["rule"], r["stage"]), []).append(r)
    for (rule, stage), rs in sorted(cells.items(), key=lambda kv: (kv[0][0], -kv[0][1])):
        walls = [r["wall"] for r in rs]
        cpus = [r["cpu"] for r in rs]
        loads = [x for r in rs for x in r["load"]]
        out.append(f"| {rule} | {stage} | {len(rs)} | {statistics.median(walls):.2f} | "
                   f"{max(walls):.2f} | {statistics.median(cpus):.2f} | {max(cpus):.2f} | "
                   f"{max(cpus) / seconds:.2f} | {min(loads):.1f}-{max(loads):.1f} |")
    worst = max(rows, key=lambda r: r["wall"])
    worst_cpu = max(rows, key=lambda r: r["cpu"])
    least = min(rows, key=lambda r: r["wall"])
    out += ["", f"worst wall {worst['wall']:.2f} s ({worst['rule']}, {worst['stage']} left, "
            f"{worst['source']}; CPU {worst['cpu']:.2f} s, load {worst['load'][0]:.1f})",
            f"worst CPU {worst_cpu['cpu']:.2f} s ({worst_cpu['rule']}, {worst_cpu['stage']} "
            f"left, {worst_cpu['source']})",
            f"least wall {least['wall']:.2f} s ({least['rule']}, {least['stage']} left, "
            f"{least['source']}; CPU {least['cpu']:.2f} s)"]
    return "\n".join(out)


def calibrate(a) -> None:
    """Rates per position, in this process (CPU time): see the module doc. The tree's
    measured cost beside the budget's (``iteration_seconds``), CP-SAT's four bounds at
    the work a budget of ``--time`` gives them (OR-Tools imported first, its import
    timed apart), the solver's nodes a second under a node limit (table of 2**19)."""
    from szsolver import parse_position
    from szsolver.bounds.model import work_for
    from szsolver.endgame.solver import solve
    from szsolver.rules.backends import to_core
    from szsolver.bounds.value import score_bounds
    from szsolver.engine.search import BOUNDS_SHARE, Engine, iteration_seconds
    from szsolver.rules.base import BASIC
    c = time.process_time()
    from ortools.sat.python import cp_model  # noqa: F401 - timed: the bounds' fixed cost
    print(f"OR-Tools' import: {time.process_time() - c:.2f} CPU s\n")
    print("| rule | turns left | source | iterations/CPU s | budget's cost / measured "
          "| CP-SAT CPU s (4 bounds) | solver nodes/CPU s |")
    print("|---|---:|---|---:|---:|---:|---:|")
    units = work_for(a.time * BOUNDS_SHARE / 4)
    for rule, stage, source, k, pstr in positions(a):
        core = to_core(parse_position(pstr))
        tree = Engine(a.time, solver_turns=0)._tree(core, pstr)
        n = 0
        c = time.process_time()
        while time.process_time() - c < 0.3:
            tree.run(2048)
            n += 2048
        measured = (time.process_time() - c) / n
        c = time.process_time()
        score_bounds(core, work_limit=units)
        cp = time.process_time() - c
        nodes = ""
        if stage <= 9 and not (stage <= 2 and core.rule == BASIC):
            c = time.process_time()
            res = solve(core, node_limit=300_000, tt_size=2 ** 19)
            nodes = f"{res.nodes / max(time.process_time() - c, 1e-9):,.0f}"
        print(f"| {rule} | {stage} | {source} | {1 / measured:,.0f} | "
              f"{iteration_seconds(core) / measured:.2f} | {cp:.2f} | {nodes} |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=1.0)
    ap.add_argument("--rules", default="basic,advanced")
    ap.add_argument("--stages", default=",".join(map(str, STAGES)))
    ap.add_argument("--sources", default=",".join(SOURCES))
    ap.add_argument("--positions", type=int, default=1)
    ap.add_argument("--wall-clock", action="store_true")
    ap.add_argument("--calibrate", action="store_true")
    ap.add_argument("--baseline", default=None, metavar="SRC",
                    help="also run the szsolver package in folder SRC (say, the code before "
                         "a change: git archive main src | tar -x -C DIR, plus the built "
                         "cores), each position right after this one, at the same load")
    ap.add_argument("--out", default=None)
    ap.add_argument("--report", default=None)
    a = ap.parse_args()
    a.rules = a.rules.split(",")
    a.stages = [int(s) for s in a.stages.split(",")]
    a.sources = a.sources.split(",")
    if a.report:
        with open(a.report) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        print(table(rows, rows[0]["seconds"]))
        return
    if a.calibrate:
        calibrate(a)
        return
    rows = []
    out = open(a.out, "a") if a.out else None
    print(f"load average at the start {os.getloadavg()}", flush=True)
    for rule, stage, source, k, pstr in positions(a):
        for version, src in [("after", None)] + ([("before", a.baseline)] if a.baseline else []):
            r = {"rule": rule, "stage": stage, "source": source, "k": k, "position": pstr,
                 "seconds": a.time, "wall_clock": a.wall_clock,
                 **({"version": version} if a.baseline else {}),
                 **run_best(pstr, a.time, a.wall_clock, src)}
            rows.append(r)
            print(f"{version if a.baseline else '':6} {rule:8} {stage:2} {source:8} "
                  f"wall {r['wall']:5.2f} cpu {r['cpu']:5.2f} {r['method']:6} "
                  f"it {r['iterations']:>9,} nodes {r['nodes']:>9,} "
                  f"load {r['load'][0]:.1f}-{r['load'][1]:.1f}", flush=True)
            if out:
                out.write(json.dumps(r) + "\n")
                out.flush()
    print()
    print(table(rows, a.time))


if __name__ == "__main__":
    main()
