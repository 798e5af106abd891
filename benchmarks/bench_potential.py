"""CP-SAT potential benchmark: seconds per potential and per full map, mid and late game.

Run: python3 benchmarks/bench_potential.py [--rounds 6,9,12,14] [--rules basic,advanced]
         [--games 3] [--no-map] [--solver]

Positions, per rule (Basic with 5+5 neutrals, Advanced with 4+4): the rulebook
example game (rules.md) replayed under that rule, and ``--games`` games played by
the greedy policy below, each cut after rounds 6, 9, 12 and 14.

Greedy policy (simple, deterministic per seed): for each empty point p,
gain(p) = 2 * (own score with a stone on p - own score now)
        + (opponent's score with a stone on p - opponent's score now);
the stone goes on the best gain, ties broken by a seeded random draw (hashlib).
Then, with neutrals left and from round 3 on, with probability 0.4 (seeded) a
neutral goes on the empty point where an opponent stone would gain most.

Prints one row per (position, side): potential, seconds, proven, score_bound and
quick_bound with their seconds; then per position the full map (side to move):
seconds and CP-SAT solves; then medians and worst per rule. ``--solver`` also
measures the endgame solver's nodes with and without ``score_caps`` from
:func:`szsolver.bounds.bounds.score_bound` on benchmarks/solver_positions.txt.
CP-SAT runs with fixed parameters (szsolver.bounds.model.NUM_WORKERS, RANDOM_SEED).
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from szsolver.bounds import bounds as B, potential as P
from szsolver.formats.notation import parse_turn
from szsolver.rules.base import ADVANCED, BASIC, encode_turn
from szsolver.rules.reference import Position
from szsolver.rules.seeds import playout_rng_v1

EXAMPLE = ["44n66", "64", "41", "54", "14", "28", "34n24", "84", "96", "95", "46n85", "65", "74", "76", "86", "87", "72", "82", "52", "51", "36", "62", "45n25", "73n32", "58", "42n75", "59", "78n35", "38", "48", "27", "69"]


rng_for = playout_rng_v1


def example_positions(rule, rounds):
    p = Position(red_neutrals=5 if rule == BASIC else 4, blue_neutrals=5 if rule == BASIC else 4,
                 rule=rule)
    out = {}
    for i, t in enumerate(EXAMPLE):
        p.play(parse_turn(t))
        if (i + 1) % 2 == 0 and (i + 1) // 2 in rounds:
            out[(i + 1) // 2] = p.copy()
    return out


def _score_with(p, side, point):
    q = p.copy()
    if side == 0:
        q.red |= 1 << point
    else:
        q.blue |= 1 << point
    return q.score(side)


def greedy_positions(rule, rounds, seed):
    rng = rng_for("bench_potential", rule, seed)
    n = 5 if rule == BASIC else 4
    p = Position(red_neutrals=n, blue_neutrals=n, rule=rule)
    out = {}
    for turn in range(2 * max(rounds)):
        me, op = p.side, 1 - p.side
        empties = [q for q in range(p.geometry.size) if p.empty >> q & 1]
        mine, theirs = p.score(me), p.score(op)
        gains = {q: 2 * (_score_with(p, me, q) - mine) + (_score_with(p, op, q) - theirs)
                 for q in empties}
        best = max(gains.values())
        stone = rng.choice([q for q in empties if gains[q] == best])
        neutral = -1
        if p.neutrals_left(me) and turn >= 4 and rng.random() < 0.4:
            opp_gain = {q: _score_with(p, op, q) - theirs for q in empties if q != stone}
            top = max(opp_gain.values())
            neutral = min(q for q in opp_gain if opp_gain[q] == top)
        p.play(encode_turn(stone, neutral))
        if (turn + 1) % 2 == 0 and (turn + 1) // 2 in rounds:
            out[(turn + 1) // 2] = p.copy()
    return out


def timed(f, *a, **k):
    t = time.perf_counter()
    r = f(*a, **k)
    return r, time.perf_counter() - t


def solver_section(depths):
    from szsolver.rules import _core
    from szsolver.formats.notation import parse_position
    from szsolver.endgame.solver import solve
    path = os.path.join(HERE, "solver_positions.txt")
    print("\nEndgame solver with and without score_caps = (score_bound(red), score_bound(blue))")
    print("floors = (score_floor(red), score_floor(blue)); the last column is the value")
    print("interval those four numbers prove at the root (solve() takes caps only)")
    print(f"{'position':24} {'caps':>8} {'floors':>8} {'nodes':>11} {'nodes+caps':>11} {'s':>7} "
          f"{'s+caps':>7} {'bound s':>7} {'value':>6} interval")
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, depth, text = (x.strip() for x in line.split("|"))
            if int(depth) not in depths:
                continue
            pos = parse_position(text, backend=_core.Position)
            (caps, tb) = timed(lambda p=pos: (B.score_bound(p, 0), B.score_bound(p, 1)))
            floors = (B.score_floor(pos, 0), B.score_floor(pos, 1))
            r0, t0 = timed(solve, pos, pv=False)
            r1, t1 = timed(solve, pos, pv=False, score_caps=caps)
            assert r0.value == r1.value, (name, r0.value, r1.value)
            lo = 100 * (floors[0] - caps[1]) - 7
            hi = 100 * (caps[0] - floors[1]) + 7
            print(f"{name:24} {caps!s:>8} {floors!s:>8} {r0.nodes:>11,} {r1.nodes:>11,} "
                  f"{t0:7.2f} {t1:7.2f} {tb:7.2f} {r0.value:>6} [{lo:+d}, {hi:+d}]", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", default="6,9,12,14")
    ap.add_argument("--rules", default="basic,advanced")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--no-map", action="store_true")
    ap.add_argument("--solver", action="store_true")
    ap.add_argument("--solver-depths", default="4,6")
    ap.add_argument("--solver-only", action="store_true")
    a = ap.parse_args()
    rounds = [int(x) for x in a.rounds.split(",")]
    rules = [{"basic": BASIC, "advanced": ADVANCED}[r] for r in a.rules.split(",")]
    stats = {}
    if a.solver_only:
        solver_section({int(d) for d in a.solver_depths.split(",")})
        return
    print(f"{'position':22} {'side':4} {'pot':>3} {'proven':>6} {'pot s':>7} {'bound':>5} "
          f"{'bound s':>7} {'quick':>5} {'quick ms':>8} {'map s':>7} {'solves':>6}")
    for rule in rules:
        rname = ("basic", "advanced")[rule]
        sets = [("example", example_positions(rule, rounds))]
        sets += [(f"greedy{s}", greedy_positions(rule, rounds, s)) for s in range(1, a.games + 1)]
        st = stats.setdefault(rname, {"pot": [], "map": [], "bound": [], "quick": [],
                                      "tight": 0, "n": 0})
        for gname, by_round in sets:
            for rnd in rounds:
                pos = by_round[rnd]
                for side in (0, 1):
                    res, tp = timed(P.potential, pos, side)
                    b, tb = timed(B.score_bound, pos, side)
                    q, tq = timed(B.quick_bound, pos, side)
                    st["pot"].append(tp)
                    st["bound"].append(tb)
                    st["quick"].append(tq)
                    st["n"] += 1
                    st["tight"] += q == b
                    map_cols = ""
                    if side == pos.side and not a.no_map:
                        mp, tm = timed(P.potential_map, pos, side)
                        st["map"].append(tm)
                        map_cols = f" {tm:7.2f} {mp.solves:>6}"
                    print(f"{rname[:3]}-{gname}-r{rnd:<8} {'RB'[side]:4} {res.potential:>3} "
                          f"{res.proven!s:>6} {tp:7.3f} {b:>5} {tb:7.3f} {q:>5} "
                          f"{tq * 1000:8.2f}{map_cols}", flush=True)
    print("\nSummary (seconds)")
    print(f"{'rule':9} {'potential median':>16} {'worst':>7} {'map median':>10} {'worst':>7} "
          f"{'bound median':>12} {'worst':>7} {'quick==bound':>12}")
    for rname, st in stats.items():
        mm = f"{statistics.median(st['map']):10.2f} {max(st['map']):7.2f}" if st["map"] else \
            f"{'-':>10} {'-':>7}"
        print(f"{rname:9} {statistics.median(st['pot']):16.3f} {max(st['pot']):7.3f} {mm} "
              f"{statistics.median(st['bound']):12.3f} {max(st['bound']):7.3f} "
              f"{st['tight']:>5}/{st['n']:<6}")
    if a.solver or a.solver_only:
        solver_section({int(d) for d in a.solver_depths.split(",")})


if __name__ == "__main__":
    main()
