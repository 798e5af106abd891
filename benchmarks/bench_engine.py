"""Engine validation: matches against the baselines, agreement with the exact solver,
and scaling with the budget. Prints markdown tables (docs/engine.md holds the figures).

Run: python3 benchmarks/bench_engine.py [--parts baselines,solver,scaling]
         [--rules basic,advanced] [--games 200] [--time 0.05] [--random-time 0.02]
         [--opponents random,greedy,potential-greedy]
         [--solver-positions 15] [--solver-depths 4,6,8] [--solver-sources random,greedy]
         [--solver-nodes 40000000] [--agree-time 1.0]
         [--scaling-games 200] [--scaling-time 0.025] [--jobs 2]
         [--first K] [--out results.jsonl] [--report results.jsonl] [--quick]

* baselines: per rule and opponent, ``--games`` games (even k: the engine is Red,
  odd k: Blue; game k uses seed k for both players), the engine at ``--time``
  seconds of budget per turn (``--random-time`` against the random player).
  Reported per colour and both together: wins, draws, losses, the win rate with
  its 95 % Wilson interval, the score rate (a draw counts half).
* solver: positions with 4, 6 and 8 turns left from seeded games between two
  random players and between two greedy players; how often the engine's turn
  (solver switched off, ``--agree-time`` per turn) is optimal, proved by the
  exact solver (the value after the turn equals the value before), and its mean
  loss. Positions the solver does not finish within ``--solver-nodes`` are
  skipped and counted.
* scaling: the engine at 4 x ``--scaling-time`` against itself at
  ``--scaling-time``, both colours, per rule.

Budgets are seconds converted to fixed iteration counts (``Engine``'s cost model):
the games do not depend on the machine's load, only their duration does. Tasks
are interleaved across the cells, every result is appended to ``--out`` (JSON
lines) as it arrives and the tables are printed every ``--every`` results, so a
run cut short still gives balanced figures. ``--report FILE``: only print the
tables of a results file (several files: comma-separated). ``--first K``: start at
game (position) K instead of 0, so several processes can share a run. ``--quick``: a few games per cell, to try the script.
"""
import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import time

from szsolver import Position
from szsolver.engine.players import PLAYERS, EnginePlayer, play_game
from szsolver.engine.search import Engine
from stats import wilson

RULES = {"basic": 0, "advanced": 1}
RULE_NAMES = ["basic", "advanced"]


def start_position(rule):
    n = 5 if rule == 0 else 4
    return Position(red_neutrals=n, blue_neutrals=n, rule=rule)


def _baseline_game(task):
    _part, rule, opponent, k, engine_red, seconds = task
    t = time.process_time()
    eng = EnginePlayer(Engine(seconds, seed=("bench", k)))
    opp = PLAYERS[opponent](seed=("bench", k))
    red, blue = (eng, opp) if engine_red else (opp, eng)
    g = play_game(red, blue, start_position(rule))
    v = g.final.value()
    return {"part": "baselines", "rule": RULE_NAMES[rule], "who": opponent, "k": k,
            "seconds": seconds, "red": engine_red, "value": v if engine_red else -v,
            "cpu": time.process_time() - t}


def _scaling_game(task):
    _part, rule, k, strong_red, seconds = task
    t = time.process_time()
    strong = EnginePlayer(Engine(4 * seconds, seed=("strong", k)), "engine-4x")
    weak = EnginePlayer(Engine(seconds, seed=("weak", k)), "engine-1x")
    red, blue = (strong, weak) if strong_red else (weak, strong)
    g = play_game(red, blue, start_position(rule))
    v = g.final.value()
    return {"part": "scaling", "rule": RULE_NAMES[rule], "who": "4x vs 1x", "k": k,
            "seconds": seconds, "red": strong_red, "value": v if strong_red else -v,
            "cpu": time.process_time() - t}


def sample_position(rule, depth, k, source="engine"):
    """Position ``k`` with ``depth`` turns left from a seeded game: two engines at a
    tiny budget (``source`` "engine"), two random players or two greedy players."""
    pos = start_position(rule)
    if source == "engine":
        players = [Engine(0.003, solver_turns=0, seed=("pos", rule, depth, k, s))
                   for s in (0, 1)]
        pick = [p.analyse for p in players]
        while pos.turns_left > depth:
            pos.play(pick[pos.side](pos).turn)
        return pos
    players = [PLAYERS[source](seed=("pos", rule, depth, k, s)) for s in (0, 1)]
    while pos.turns_left > depth:
        pos.play(players[pos.side].choose(pos.copy()))
    return pos


def _solver_task(task):
    """The engine's turn (solver off) judged exactly: the value after it and the
    value before, from one searcher (``analysis.check.turn_facts``: the turn's child
    first, its value the root's first bound, so a single probe proves an optimal
    turn optimal). Every optimal turn is not needed to tell whether this one is."""
    from szsolver.analysis.check import turn_facts
    from szsolver.rules.backends import to_core
    _part, rule, depth, source, k, seconds, nodes = task
    pos = sample_position(rule, depth, k, source)
    row = {"part": "solver", "rule": RULE_NAMES[rule], "depth": depth, "source": source,
           "k": k, "seconds": seconds}
    t = time.process_time()
    e = Engine(seconds, solver_turns=0).analyse(pos)
    row["engine_cpu"] = time.process_time() - t
    t = time.process_time()
    before, played = turn_facts(to_core(pos), e.turn, node_limit=nodes, best=False)
    row["solve_cpu"] = time.process_time() - t
    if not (before.lower == before.upper and played.exact):
        return {**row, "ok": None}
    loss = abs(before.lower - played.lower)
    return {**row, "ok": loss == 0, "loss": loss}


def _match_table(rows, label):
    out = [f"| rule | {label} | engine plays | games | W-D-L | win rate (95 % CI) | "
           "score rate | CPU s/game |", "|---|---|---|---:|---|---|---:|---:|"]
    cells = {}
    for r in rows:
        cells.setdefault((r["rule"], r["who"]), []).append(r)
    for (rule, who), rs in sorted(cells.items(), key=lambda kv: (RULES[kv[0][0]], kv[0][1])):
        for colour, sel in (("Red", [r for r in rs if r["red"]]),
                            ("Blue", [r for r in rs if not r["red"]]), ("both", rs)):
            n = len(sel)
            if not n:
                continue
            w = sum(1 for r in sel if r["value"] > 0)
            d = sum(1 for r in sel if r["value"] == 0)
            lo, hi = wilson(w, n)
            cpu = statistics.mean(r["cpu"] for r in sel)
            b = "**" if colour == "both" else ""
            out.append(f"| {rule} | {who} | {colour} | {n} | {w}-{d}-{n - w - d} | "
                       f"{b}{w / n:.1%} ({lo:.1%}-{hi:.1%}){b} | {(w + d / 2) / n:.1%} | "
                       f"{cpu:.1f} |")
    return out


def _solver_table(rows):
    out = ["| rule | turns left | positions from | solved | engine turn optimal (95 % CI) | "
           "mean loss | worst loss | solver CPU s (median) |",
           "|---|---:|---|---:|---|---:|---:|---:|"]
    cells = {}
    for r in rows:
        cells.setdefault((r["rule"], r["depth"], r["source"]), []).append(r)
    for (rule, d, src), rs in sorted(cells.items(), key=lambda kv: (RULES[kv[0][0]], kv[0][1],
                                                                      kv[0][2])):
        solved = [r for r in rs if r["ok"] is not None]
        n = len(solved)
        k = sum(1 for r in solved if r["ok"])
        lo, hi = wilson(k, n)
        losses = [r["loss"] for r in solved]
        med = statistics.median(r["solve_cpu"] for r in rs)
        out.append(f"| {rule} | {d} | {src} play | {n} of {len(rs)} | {k / max(n, 1):.0%} "
                   f"({lo:.0%}-{hi:.0%}) | {statistics.mean(losses) if losses else 0:.1f} | "
                   f"{max(losses, default=0)} | {med:.2f} |")
    return out


def report(rows):
    """The markdown tables of a list of result rows (a game or position that several
    processes played counts once)."""
    seen, unique = set(), []
    for r in rows:
        key = (r["part"], r["rule"], r.get("who"), r.get("depth"), r.get("source"), r["k"],
               r["seconds"])
        if key not in seen:
            seen.add(key)
            unique.append(r)
    rows = unique
    lines = []
    for part, title in (("baselines", "Engine against the baselines"),
                        ("scaling", "Scaling: 4x budget against 1x")):
        rs = [r for r in rows if r["part"] == part]
        if rs:
            budgets = sorted({(r["who"], r["seconds"]) for r in rs})
            lines += [f"\n### {title}\n", "Budget per turn: " + ", ".join(
                f"{s:g} s{' (4x: ' + format(4 * s, 'g') + ' s)' if part == 'scaling' else ''}"
                f" against {w}" if part == "baselines" else f"{4 * s:g} s against {s:g} s"
                for w, s in budgets) + ".\n"]
            lines += _match_table(rs, "opponent" if part == "baselines" else "match")
    rs = [r for r in rows if r["part"] == "solver"]
    if rs:
        lines += [f"\n### Engine (solver off, {rs[0]['seconds']:g} s/turn) against the exact "
                  "solver\n"]
        lines += _solver_table(rs)
    return "\n".join(lines)


def _interleave(groups):
    """Round-robin over lists of tasks, so a run cut short has every cell filled."""
    out = []
    for i in range(max((len(g) for g in groups), default=0)):
        out += [g[i] for g in groups if i < len(g)]
    return out


def tasks_for(a):
    groups = []
    if "baselines" in a.parts:
        for rule in a.rules:
            for opp in a.opponents:
                secs = a.random_time if opp == "random" else a.time
                groups.append([("baselines", RULES[rule], opp, k, k % 2 == 0, secs)
                               for k in range(a.first, a.first + a.games)])
    if "scaling" in a.parts:
        for rule in a.rules:
            groups.append([("scaling", RULES[rule], k, k % 2 == 0, a.scaling_time)
                           for k in range(a.first, a.first + a.scaling_games)])
    if "solver" in a.parts:
        for rule in a.rules:
            for d in a.solver_depths:
                for src in a.solver_sources:
                    groups.append([("solver", RULES[rule], d, src, k, a.agree_time,
                                    a.solver_nodes)
                                   for k in range(a.first, a.first + a.solver_positions)])
    return _interleave(groups)


def _run(task):
    return {"baselines": _baseline_game, "scaling": _scaling_game,
            "solver": _solver_task}[task[0]](task)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", default="baselines,solver,scaling")
    ap.add_argument("--rules", default="basic,advanced")
    ap.add_argument("--opponents", default="random,greedy,potential-greedy")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--time", type=float, default=0.05)
    ap.add_argument("--random-time", type=float, default=0.02)
    ap.add_argument("--solver-positions", type=int, default=15)
    ap.add_argument("--solver-depths", default="4,6,8")
    ap.add_argument("--solver-sources", default="random,greedy")
    ap.add_argument("--solver-nodes", type=int, default=40_000_000)
    ap.add_argument("--agree-time", type=float, default=1.0)
    ap.add_argument("--scaling-games", type=int, default=200)
    ap.add_argument("--scaling-time", type=float, default=0.025)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--every", type=int, default=50)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--out", default=None)
    ap.add_argument("--report", default=None)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    if a.report:
        rows = []
        for name in a.report.split(","):
            with open(name) as f:
                rows += [json.loads(line) for line in f if line.strip()]
        print(report(rows))
        return
    a.parts = a.parts.split(",")
    a.rules = a.rules.split(",")
    a.opponents = a.opponents.split(",")
    a.solver_sources = a.solver_sources.split(",")
    a.solver_depths = [int(d) for d in a.solver_depths.split(",")]
    if a.quick:
        a.games, a.solver_positions, a.scaling_games = 4, 2, 4
    tasks = tasks_for(a)
    t0, c0 = time.time(), time.process_time()
    rows = []
    out = open(a.out, "a") if a.out else None
    with mp.get_context("fork").Pool(a.jobs) as pool:
        for row in pool.imap_unordered(_run, tasks):
            rows.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            if len(rows) % a.every == 0:
                print(f"\n## {len(rows)} of {len(tasks)} results, wall "
                      f"{time.time() - t0:.0f} s, load {os.getloadavg()[0]:.1f}")
                print(report(rows))
                sys.stdout.flush()
    print(f"\n## all {len(rows)} results\n" + report(rows))
    print(f"\n(wall {time.time() - t0:.0f} s, {a.jobs} processes, load average "
          f"{os.getloadavg()[0]:.1f}; main process CPU {time.process_time() - c0:.0f} s)")


if __name__ == "__main__":
    main()
