"""Seconds per graded puzzle on the Stars' Zone board (target: median < 5 s).

For each grade, generate N puzzles (seeds bench-1..bench-N): complete starmap, givens
and blocked points, CP-SAT uniqueness proof, grading. Prints median and worst per
grade and overall, plus the cost of grading alone (logic solver) and of the CP-SAT
uniqueness proof alone on the same puzzles.

    python3 benchmarks/bench_puzzles.py [--n 10] [--board stars-zone]
"""
import argparse
import statistics
import time

from szsolver.starmaps.generate import generate, prove_unique
from szsolver.starmaps.logic import GRADES, grade


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--board", default="stars-zone")
    a = ap.parse_args()
    rows = []
    allt = []
    for gr in GRADES:
        gen_t, grade_t, proof_t, attempts = [], [], [], []
        for i in range(1, a.n + 1):
            t = time.perf_counter()
            gen = generate(a.board, gr, f"bench-{i}")
            gen_t.append(time.perf_counter() - t)
            attempts.append(gen.attempts)
            t = time.perf_counter()
            assert grade(gen.puzzle) == gr
            grade_t.append(time.perf_counter() - t)
            t = time.perf_counter()
            assert prove_unique(gen.puzzle) == gen.solution
            proof_t.append(time.perf_counter() - t)
        allt += gen_t
        rows.append((gr, statistics.median(gen_t), max(gen_t), statistics.mean(attempts),
                     statistics.median(grade_t), max(grade_t), statistics.median(proof_t), max(proof_t)))
    print(f"board {a.board}, {a.n} puzzles per grade (seconds; generate = starmap + givens + "
          "CP-SAT proof + grading)")
    print(f"{'grade':9} {'gen median':>10} {'gen worst':>9} {'attempts':>8} {'grade med':>9} "
          f"{'grade max':>9} {'proof med':>9} {'proof max':>9}")
    for gr, m, w, at, gm, gw, pm, pw in rows:
        print(f"{gr:9} {m:10.2f} {w:9.2f} {at:8.1f} {gm:9.3f} {gw:9.3f} {pm:9.3f} {pw:9.3f}")
    print(f"{'all':9} {statistics.median(allt):10.2f} {max(allt):9.2f}")


if __name__ == "__main__":
    main()
