"""Star benchmarks: the solver's horizon, the engine against random and greedy play,
and the engine's agreement with the solver near the end.

    python benchmarks/bench_star.py horizon --empty 10 12 14 --positions 5
    python benchmarks/bench_star.py play --games 10 --iterations 2000
    python benchmarks/bench_star.py agree --empty 10 12 --positions 20 --iterations 2000

Positions come from seeded random play on the standard board (and, for ``agree``,
greedy play too). Times are CPU seconds (time.process_time); the load average is
printed with every table, since the machine is shared.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

from szsolver.rules.seeds import playout_rng_v1
from szsolver.star.board import by_name
from szsolver.star.engine import Engine, EnginePlayer, GreedyPlayer, RandomPlayer, play_game
from szsolver.star.position import Position
from szsolver.star.solver import solve
from stats import rate


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def position_at(board, empty: int, seed, player: str = "random") -> Position:
    """A position with ``empty`` empty cells reached by seeded random (or greedy) play."""
    rng = playout_rng_v1("bench-star", seed, player)
    greedy = GreedyPlayer(seed=(seed, player))
    p = Position(board)
    while p.empty.bit_count() > empty:
        if player == "greedy" and rng.random() < 0.8:
            p.play(greedy.move(p))
        else:
            p.play(rng.choice(p.legal_turns(passes=False)))
    return p


def horizon(args) -> None:
    board = by_name(args.board)
    print(f"solver horizon, {board.name}, node limit {args.node_limit:,}, load {_load()}")
    print(" empty  solved  median nodes  max nodes  median CPU s  max CPU s")
    for n in args.empty:
        nodes, cpu, solved = [], [], 0
        for k in range(args.positions):
            p = position_at(board, n, k)
            t = time.process_time()
            r = solve(p, node_limit=args.node_limit)
            cpu.append(time.process_time() - t)
            nodes.append(r.nodes)
            solved += r.exact
        print(f"{n:>6}  {solved:>3}/{args.positions:<3} {statistics.median(nodes):>12,.0f} "
              f"{max(nodes):>10,} {statistics.median(cpu):>12.2f} {max(cpu):>10.2f}", flush=True)


def play(args) -> None:
    board = by_name(args.board)
    print(f"engine ({args.iterations} iterations a move) against random and greedy, "
          f"{board.name}, load {_load()}")
    for name, cls in (("random", RandomPlayer), ("greedy", GreedyPlayer)):
        wins = {"black": [0, 0], "white": [0, 0]}
        margin = []
        t = time.process_time()
        for k in range(args.games):
            eng = EnginePlayer(Engine(iterations=args.iterations, seed=k))
            other = cls(seed=k)
            engine_black = k % 2 == 0
            g = play_game(eng if engine_black else other, other if engine_black else eng,
                          Position(board))
            v = g.final.value()
            mine = v if engine_black else -v
            colour = "black" if engine_black else "white"
            wins[colour][0] += mine > 0
            wins[colour][1] += 1
            margin.append(mine)
        won = wins["black"][0] + wins["white"][0]
        print(f"  vs {name}: engine won {rate(won, args.games)} in all, "
              f"{rate(*wins['black'])} as Black, {rate(*wins['white'])} as White "
              f"(Wilson 95 %); mean margin {statistics.mean(margin):+.1f} points; "
              f"{time.process_time() - t:.0f} CPU s; load {_load()}", flush=True)


def agree(args) -> None:
    board = by_name(args.board)
    print(f"engine ({args.iterations} iterations, solver off) against the solver, "
          f"{board.name}, load {_load()}")
    print(" empty  from    positions  move optimal  winner right  mean |estimate - value|"
          "  share of optimal moves")
    for n in args.empty:
        for player in ("random", "greedy"):
            good = right = total = 0
            err, share = [], []
            for k in range(args.positions):
                p = position_at(board, n, k, player)
                exact = solve(p, node_limit=args.node_limit)
                if not exact.exact:
                    continue
                est = Engine(iterations=args.iterations, seed=k, solver_empty=0).analyse(p)
                total += 1
                good += est.turn in exact.best
                right += (est.value > 0) == (exact.value > 0)
                err.append(abs(est.value - exact.value))
                # how often a move picked at random would be optimal: the baseline
                share.append(len(exact.best) / len(p.legal_turns(passes=False)))
            if total:
                print(f"{n:>6}  {player:<6}  {total:>9}  {good:>5} ({good / total:>4.0%})  "
                      f"{right:>5} ({right / total:>4.0%})  {statistics.mean(err):>10.2f}"
                      f"  {statistics.mean(share):>21.0%}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    h = sub.add_parser("horizon")
    h.add_argument("--empty", type=int, nargs="+", default=[10, 12, 14])
    h.add_argument("--positions", type=int, default=5)
    h.add_argument("--node-limit", type=int, default=5_000_000)
    p = sub.add_parser("play")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--iterations", type=int, default=2000)
    a = sub.add_parser("agree")
    a.add_argument("--empty", type=int, nargs="+", default=[10, 12])
    a.add_argument("--positions", type=int, default=20)
    a.add_argument("--iterations", type=int, default=2000)
    a.add_argument("--node-limit", type=int, default=5_000_000)
    for s in (h, p, a):
        s.add_argument("--board", default="5x6")
    args = ap.parse_args()
    {"horizon": horizon, "play": play, "agree": agree}[args.what](args)


if __name__ == "__main__":
    main()
