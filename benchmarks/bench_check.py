"""Timing of ``check`` at 4, 6 and 8 turns left, and of ``annotate`` on a whole game.

Run: python3 benchmarks/bench_check.py [--depths 4,6,8] [--rules basic,advanced]
         [--sources file,random,greedy] [--positions 4] [--time-limit S] [--node-limit N]
         [--compare]
         [--advanced-time-limit S] [--annotate] [--annotate-only]

Positions: the rulebook game's turn at that many turns left (as played; under the
Advanced rule the same turns replayed), and ``--positions`` more per source:
``random`` and ``greedy``, seeded games between two random players (neutrals
now and then) and between two greedy players (the engine benchmark's
positions), each with the turn such a player plays next; ``file``, the
uniformly random positions of ``solver_positions_random.txt`` (stones on random
points, both sides' neutrals still in hand), each with a random player's turn.
``--compare``: also the two plain solves ``check`` made before it shared one
searcher (the position with every optimal turn, then the position after the
turn unless that turn is one of them), timed alternately on the same positions.
Each ``check`` runs with no time limit (``--time-limit`` sets one;
``--advanced-time-limit`` one for the Advanced rule only, whose 8-turn positions
can take minutes; ``--node-limit N`` caps each exact solve at N nodes instead,
deterministically: a check it stops is not proved and its CPU time is a lower
bound on the full one). Prints per position the verdict, whether it was proved, wall
and CPU seconds and the load average, then median and worst per cell.
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
from szsolver.formats.notation import format_turn  # noqa: E402
from szsolver.formats.record import example_game  # noqa: E402

RULES = {"basic": 0, "advanced": 1}


def cases(rule, depth, count, sources):
    from szsolver.engine.players import PLAYERS
    game = example_game()
    if rule == 1:
        game = game.with_rule("advanced")
    i = len(game.turns) - depth
    out = [("example", game.position_before(i), game.turns[i])]
    per_source = []
    for src in sources:
        per_source.append([])
        if src == "file":
            for name, pos in file_positions(rule, depth)[:count]:
                turn = PLAYERS["random"](seed=("check", name)).choose(pos.copy())
                per_source[-1].append((name, pos, turn))
            continue
        for k in range(count):
            pos = sample_position(rule, depth, k, src)
            turn = PLAYERS[src](seed=("check", k)).choose(pos.copy())
            per_source[-1].append((f"{src}-play-{k}", pos, turn))
    # one of each source in turn, so that a run cut short is balanced
    for k in range(count):
        out += [cs[k] for cs in per_source if k < len(cs)]
    return out


def file_positions(rule, depth):
    """(name, position) of ``solver_positions_random.txt`` with this rule and depth."""
    from szsolver.formats.notation import parse_position
    out = []
    with open(os.path.join(HERE, "solver_positions_random.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, d, text = (x.strip() for x in line.split("|"))
            pos = parse_position(text)
            if int(d) == depth and pos.rule == rule:
                out.append((name, pos))
    return out


def two_solves(pos, turn):
    """What ``check`` did before: the position solved with every optimal turn, then
    the position after the turn unless it is one of them. (value, played value)."""
    from szsolver.endgame.solver import solve
    r = solve(pos)
    if turn in r.best:
        return r.value, r.value
    child = pos.copy()
    child.play(turn)
    return r.value, solve(child).value


def bench_checks(a):
    extra = " two solves CPU s |" if a.compare else ""
    print("| rule | turns left | position | turn | verdict | proved | wall s | CPU s | load |"
          + extra)
    print("|---|---:|---|---|---|---|---:|---:|---:|" + ("---:|" if a.compare else ""))
    cells = {}
    for rule in a.rules:
        limit = a.advanced_time_limit if rule == "advanced" and a.advanced_time_limit \
            else a.time_limit
        for depth in a.depths:
            for name, pos, turn in cases(RULES[rule], depth, a.positions, a.sources):
                w, c = time.perf_counter(), time.process_time()
                r = check(pos, turn, time_limit=limit, node_limit=a.node_limit)
                w, c = time.perf_counter() - w, time.process_time() - c
                load = os.getloadavg()[0]
                cells.setdefault((rule, depth), []).append((w, c, r.exact, load))
                more = ""
                if a.compare:
                    c2 = time.process_time()
                    vals = two_solves(pos, turn)
                    c2 = time.process_time() - c2
                    cells.setdefault((rule, depth, "two solves"), []).append(c2)
                    if r.exact and vals != (r.value_before, r.played_value):
                        raise SystemExit(f"{name}: check gave {r.value_before}, "
                                         f"{r.played_value}; two solves {vals}")
                    more = f" {c2:.2f} |"
                print(f"| {rule} | {depth} | {name} | {format_turn(turn)} | {r.verdict} | "
                      f"{'yes' if r.exact else 'no'} | {w:.2f} | {c:.2f} | {load:.1f} |" + more)
                sys.stdout.flush()
    print("\n| rule | turns left | checks | proved | median CPU s | worst CPU s | "
          "median wall s | worst wall s | load (mean) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for key, rows in cells.items():
        if len(key) == 3:
            continue
        rule, depth = key
        cpu = [c for _, c, _, _ in rows]
        wall = [w for w, _, _, _ in rows]
        print(f"| {rule} | {depth} | {len(rows)} | {sum(e for _, _, e, _ in rows)} | "
              f"{statistics.median(cpu):.2f} | {max(cpu):.2f} | {statistics.median(wall):.2f} | "
              f"{max(wall):.2f} | {statistics.mean(x for *_, x in rows):.1f} |")
        old = cells.get((rule, depth, "two solves"))
        if old:
            print(f"| {rule} | {depth} | (two solves, as before) | | {statistics.median(old):.2f} "
                  f"| {max(old):.2f} | | | |")


def bench_annotate():
    from szsolver.analysis.annotate import annotate
    w, c = time.perf_counter(), time.process_time()
    load0 = os.getloadavg()[0]
    ann = annotate(example_game())
    w, c = time.perf_counter() - w, time.process_time() - c
    print(f"\nannotate, rulebook game, default budget: wall {w:.0f} s, CPU {c:.0f} s "
          f"(load {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end); "
          f"proved from turn {ann.proved_from}; "
          + "; ".join(f"{k}: accuracy {v['accuracy']}, {v['inaccuracies']}/{v['mistakes']}/"
                      f"{v['blunders']} inaccuracies/mistakes/blunders"
                      for k, v in ann.summary.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depths", default="4,6,8")
    ap.add_argument("--rules", default="basic,advanced")
    ap.add_argument("--sources", default="file,random,greedy")
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--advanced-time-limit", type=float, default=None)
    ap.add_argument("--node-limit", type=int, default=None)
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--annotate", action="store_true")
    ap.add_argument("--annotate-only", action="store_true")
    a = ap.parse_args()
    a.depths = [int(d) for d in a.depths.split(",")]
    a.rules = a.rules.split(",")
    a.sources = a.sources.split(",")
    if not a.annotate_only:
        bench_checks(a)
    if a.annotate or a.annotate_only:
        bench_annotate()


if __name__ == "__main__":
    main()
