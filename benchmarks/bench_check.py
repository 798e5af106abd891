"""Timing of ``check`` at 4, 6 and 8 turns left, and of ``annotate`` on a whole game.

Run: python3 benchmarks/bench_check.py [--depths 4,6,8] [--rules basic,advanced]
         [--positions 10] [--time-limit S] [--annotate] [--annotate-only]

Positions: the rulebook game's turn at that many turns left (as played; under the
Advanced rule the same turns replayed) and ``--positions`` - 1 more from seeded
games between two engines at a tiny budget, each with the turn such an engine plays
next. Each ``check`` runs with no time limit (``--time-limit`` sets one, e.g. for
Advanced 8-turn positions, which can take minutes). Prints per position the
verdict, whether it was proved, wall and CPU seconds, then medians per cell.
``--annotate``: also the rulebook game annotated with the default budget (the
whole game, as ``szsolver annotate --example``), wall and CPU time.
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_engine import sample_position  # noqa: E402

from szsolver.analysis.check import check  # noqa: E402
from szsolver.engine.search import Engine  # noqa: E402
from szsolver.formats.notation import format_turn  # noqa: E402
from szsolver.formats.record import example_game  # noqa: E402

RULES = {"basic": 0, "advanced": 1}


def cases(rule, depth, count):
    game = example_game()
    if rule == 1:
        game = game.with_rule("advanced")
    i = len(game.turns) - depth
    out = [("example", game.position_before(i), game.turns[i])]
    for k in range(1, count):
        pos = sample_position(rule, depth, k)
        turn = Engine(0.003, solver_turns=0, seed=("check", k)).analyse(pos).turn
        out.append((f"engine-game-{k}", pos, turn))
    return out


def bench_checks(a):
    print("| rule | turns left | position | turn | verdict | proved | wall s | CPU s |")
    print("|---|---:|---|---|---|---|---:|---:|")
    cells = {}
    for rule in a.rules:
        for depth in a.depths:
            for name, pos, turn in cases(RULES[rule], depth, a.positions):
                w, c = time.perf_counter(), time.process_time()
                r = check(pos, turn, time_limit=a.time_limit)
                w, c = time.perf_counter() - w, time.process_time() - c
                cells.setdefault((rule, depth), []).append((w, c, r.exact))
                print(f"| {rule} | {depth} | {name} | {format_turn(turn)} | {r.verdict} | "
                      f"{'yes' if r.exact else 'no'} | {w:.2f} | {c:.2f} |")
                sys.stdout.flush()
    print("\n| rule | turns left | checks | proved | median wall s | max wall s | median CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for (rule, depth), rows in cells.items():
        print(f"| {rule} | {depth} | {len(rows)} | {sum(e for _, _, e in rows)} | "
              f"{statistics.median(w for w, _, _ in rows):.2f} | {max(w for w, _, _ in rows):.2f} | "
              f"{statistics.median(c for _, c, _ in rows):.2f} |")


def bench_annotate():
    from szsolver.analysis.annotate import annotate
    w, c = time.perf_counter(), time.process_time()
    ann = annotate(example_game())
    w, c = time.perf_counter() - w, time.process_time() - c
    print(f"\nannotate, rulebook game, default budget: wall {w:.0f} s, CPU {c:.0f} s; "
          f"proved from turn {ann.proved_from}; "
          + "; ".join(f"{k}: accuracy {v['accuracy']}, {v['inaccuracies']}/{v['mistakes']}/"
                      f"{v['blunders']} inaccuracies/mistakes/blunders"
                      for k, v in ann.summary.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depths", default="4,6,8")
    ap.add_argument("--rules", default="basic,advanced")
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--annotate", action="store_true")
    ap.add_argument("--annotate-only", action="store_true")
    a = ap.parse_args()
    a.depths = [int(d) for d in a.depths.split(",")]
    a.rules = a.rules.split(",")
    if not a.annotate_only:
        bench_checks(a)
    if a.annotate or a.annotate_only:
        bench_annotate()


if __name__ == "__main__":
    main()
