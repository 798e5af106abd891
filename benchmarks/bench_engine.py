"""Engine validation: matches against the baselines, agreement with the exact solver,
and scaling with time. Prints markdown tables (docs/engine.md holds the figures).

Run: python3 benchmarks/bench_engine.py [--parts baselines,solver,scaling]
         [--rules basic,advanced] [--games 200] [--time 0.1] [--random-time 0.02]
         [--opponents random,greedy,potential-greedy] [--pg-games N]
         [--solver-positions 20] [--solver-depths 4,6,8] [--solver-nodes 40000000]
         [--scaling-games 100] [--scaling-time 0.05] [--jobs 2] [--quick]

* baselines: per rule and opponent, ``--games`` games (half with the engine as
  Red, half as Blue; game k uses seed k for both players), the engine at ``--time``
  CPU seconds per turn (``--random-time`` against the random player,
  ``--pg-games`` games against potential-greedy, default ``--games``). Reported:
  wins, draws, losses, the win rate with its 95 % Wilson interval, and the score
  rate (a draw counts half).
* solver: positions with 4, 6 and 8 turns left from games between two engines at a
  tiny budget (seeded), solved exactly (every optimal turn); how often the
  engine's turn (solver switched off, ``--time`` per turn) is optimal, and its mean
  loss. Positions the solver does not finish within ``--solver-nodes`` are skipped
  and counted.
* scaling: the engine at 4 x ``--scaling-time`` against itself at
  ``--scaling-time``, both colours, Basic rule (and Advanced when listed).

The engine's budgets are fixed iteration counts (reproducible); ``--jobs`` runs
games in parallel processes. ``--quick``: a few games per cell, to try the script.
"""
import argparse
import math
import multiprocessing as mp
import statistics
import sys
import time

from szsolver import Position
from szsolver.engine.players import PLAYERS, EnginePlayer, play_game
from szsolver.engine.search import Engine

RULES = {"basic": 0, "advanced": 1}


def wilson(k, n, z=1.96):
    """95 % Wilson score interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def start_position(rule):
    n = 5 if rule == 0 else 4
    return Position(red_neutrals=n, blue_neutrals=n, rule=rule)


def _baseline_game(task):
    rule, opponent, k, engine_red, seconds = task
    t = time.process_time()
    eng = EnginePlayer(Engine(seconds, seed=("bench", k)))
    opp = PLAYERS[opponent](seed=("bench", k))
    red, blue = (eng, opp) if engine_red else (opp, eng)
    g = play_game(red, blue, start_position(rule))
    v = g.final.value()
    return rule, opponent, v if engine_red else -v, time.process_time() - t


def _scaling_game(task):
    rule, k, strong_red, seconds = task
    t = time.process_time()
    strong = EnginePlayer(Engine(4 * seconds, seed=("strong", k)), "engine-4x")
    weak = EnginePlayer(Engine(seconds, seed=("weak", k)), "engine-1x")
    red, blue = (strong, weak) if strong_red else (weak, strong)
    g = play_game(red, blue, start_position(rule))
    v = g.final.value()
    return rule, v if strong_red else -v, time.process_time() - t


def _table(results, label):
    print(f"| rule | {label} | games | W-D-L | win rate (95 % CI) | score rate | CPU s/game |")
    print("|---|---|---:|---|---|---:|---:|")
    for (rule, who), rows in sorted(results.items()):
        n = len(rows)
        w = sum(1 for v, _ in rows if v > 0)
        d = sum(1 for v, _ in rows if v == 0)
        lo, hi = wilson(w, n)
        cpu = statistics.mean(c for _, c in rows)
        print(f"| {rule} | {who} | {n} | {w}-{d}-{n - w - d} | {w / n:.1%} "
              f"({lo:.1%}-{hi:.1%}) | {(w + d / 2) / n:.1%} | {cpu:.1f} |")
    sys.stdout.flush()


def baselines(a, pool):
    tasks = []
    for rule in a.rules:
        for opp in a.opponents:
            n = a.pg_games if opp == "potential-greedy" else a.games
            secs = a.random_time if opp == "random" else a.time
            tasks += [(RULES[rule], opp, k, k % 2 == 0, secs) for k in range(n)]
    results = {}
    for rule, opp, v, cpu in pool.imap_unordered(_baseline_game, tasks):
        results.setdefault((["basic", "advanced"][rule], opp), []).append((v, cpu))
    print(f"\n### Engine ({a.time:g} s/turn; {a.random_time:g} s against random) "
          "against the baselines\n")
    _table(results, "opponent")


def sample_position(rule, depth, k):
    """Position ``k`` with ``depth`` turns left: a seeded game between two engines at a
    tiny budget (the seeds vary the games)."""
    pos = start_position(rule)
    players = [Engine(0.003, solver_turns=0, seed=("pos", rule, depth, k, s)) for s in (0, 1)]
    while pos.turns_left > depth:
        pos.play(players[pos.side].analyse(pos).turn)
    return pos


def _solver_task(task):
    from szsolver.endgame.solver import solve
    rule, depth, k, seconds, nodes = task
    pos = sample_position(rule, depth, k)
    t = time.process_time()
    r = solve(pos, node_limit=nodes)
    solve_cpu = time.process_time() - t
    if not r.exact:
        return rule, depth, None, None, solve_cpu
    e = Engine(seconds, solver_turns=0).analyse(pos)
    if e.turn in r.best:
        return rule, depth, True, 0, solve_cpu
    child = pos.copy()
    child.play(e.turn)
    c = solve(child)
    loss = abs(r.value - c.value)
    return rule, depth, False, loss, solve_cpu


def solver_agreement(a, pool):
    tasks = [(RULES[rule], d, k, a.time, a.solver_nodes)
             for rule in a.rules for d in a.solver_depths for k in range(a.solver_positions)]
    res = {}
    for rule, d, ok, loss, cpu in pool.imap_unordered(_solver_task, tasks):
        res.setdefault((["basic", "advanced"][rule], d), []).append((ok, loss, cpu))
    print(f"\n### Engine ({a.time:g} s/turn, solver off) against the exact solver\n")
    print("| rule | turns left | positions solved | engine turn optimal (95 % CI) | "
          "mean loss | worst loss | solver CPU s (median) |")
    print("|---|---:|---:|---|---:|---:|---:|")
    for (rule, d), rows in sorted(res.items()):
        solved = [(ok, loss) for ok, loss, _ in rows if ok is not None]
        n = len(solved)
        k = sum(1 for ok, _ in solved if ok)
        lo, hi = wilson(k, n)
        losses = [loss for _, loss in solved]
        med = statistics.median(c for _, _, c in rows)
        print(f"| {rule} | {d} | {n} of {len(rows)} | {k / max(n, 1):.0%} ({lo:.0%}-{hi:.0%}) | "
              f"{statistics.mean(losses) if losses else 0:.1f} | {max(losses, default=0)} | "
              f"{med:.2f} |")
    sys.stdout.flush()


def scaling(a, pool):
    tasks = [(RULES[rule], k, k % 2 == 0, a.scaling_time)
             for rule in a.rules for k in range(a.scaling_games)]
    results = {}
    for rule, v, cpu in pool.imap_unordered(_scaling_game, tasks):
        results.setdefault((["basic", "advanced"][rule], "4x vs 1x"), []).append((v, cpu))
    print(f"\n### Scaling: {4 * a.scaling_time:g} s/turn against {a.scaling_time:g} s/turn\n")
    _table(results, "match")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", default="baselines,solver,scaling")
    ap.add_argument("--rules", default="basic,advanced")
    ap.add_argument("--opponents", default="random,greedy,potential-greedy")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--pg-games", type=int, default=None)
    ap.add_argument("--time", type=float, default=0.1)
    ap.add_argument("--random-time", type=float, default=0.02)
    ap.add_argument("--solver-positions", type=int, default=20)
    ap.add_argument("--solver-depths", default="4,6,8")
    ap.add_argument("--solver-nodes", type=int, default=40_000_000)
    ap.add_argument("--scaling-games", type=int, default=100)
    ap.add_argument("--scaling-time", type=float, default=0.05)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    a.rules = a.rules.split(",")
    a.opponents = a.opponents.split(",")
    a.solver_depths = [int(d) for d in a.solver_depths.split(",")]
    if a.quick:
        a.games, a.pg_games, a.solver_positions, a.scaling_games = 4, 2, 2, 4
    if a.pg_games is None:
        a.pg_games = a.games
    parts = a.parts.split(",")
    t0 = time.time()
    with mp.get_context("fork").Pool(a.jobs) as pool:
        if "baselines" in parts:
            baselines(a, pool)
        if "solver" in parts:
            solver_agreement(a, pool)
        if "scaling" in parts:
            scaling(a, pool)
    print(f"\n(wall {time.time() - t0:.0f} s, {a.jobs} processes)")


if __name__ == "__main__":
    main()
