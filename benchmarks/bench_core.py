"""Core speed at C level, single thread: full scorings/s and make+unmake turns/s.

Run: python3 benchmarks/bench_core.py [--seconds S]
A "full scoring" is one position's value: both sides' pattern sets and scores
plus the neutral tie-break, exactly what the solver evaluates at a leaf.
Positions come from random legal play with neutral use (seeded), both rules.
"""
import argparse
import random
import time

from szsolver.rules import _core
from szsolver.rules.playout import random_play
from szsolver.rules.base import ADVANCED, BASIC


def positions(n, rule, plies, seed=1):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        p = _core.Position(red_neutrals=5, blue_neutrals=5, rule=rule)
        random_play(p, plies, rng, p_neutral=0.3)
        out.append(p)
    return out


def rate(fn, *args, seconds):
    n = 1 << 16
    while True:
        t = time.perf_counter()
        fn(*args, n)
        dt = time.perf_counter() - t
        if dt > seconds:
            return n / dt
        n *= 2


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    a = ap.parse_args()
    print(f"{'rule':9} {'plies':>5} {'scorings/s':>14} {'make+unmake/s':>15} {'turn gens/s':>13}")
    for rule in (BASIC, ADVANCED):
        for plies in (16, 32):
            ps = positions(256, rule, plies)
            sc = rate(_core.bench_scoring, ps, seconds=a.seconds)
            mid = positions(1, rule, plies - 6)[0]
            mu = rate(_core.bench_make_unmake, mid, seconds=a.seconds)
            gt = rate(_core.bench_gen_turns, mid, seconds=a.seconds)
            print(f"{('basic', 'advanced')[rule]:9} {plies:5d} {sc:14,.0f} {mu:15,.0f} {gt:13,.0f}")


if __name__ == "__main__":
    main()
