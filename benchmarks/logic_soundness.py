"""A larger soundness sweep for the logic solver than the test suite runs.

Random puzzles (a complete starmap, some blocked points, a random subset of its stars
as givens: usually several solutions) on several boards and both beam rules; the logic
solver runs with every technique, the contradiction step included, and checks after
each step that the generating starmap is still possible. Any unsound step raises
AssertionError naming the technique. Prints how the runs ended.

    python3 benchmarks/logic_soundness.py [--n 100]
"""
import argparse
import collections
import random
import time

from szsolver.rules.geometry import STARS_ZONE, square
from szsolver.starmaps.logic import solve_logic
from szsolver.rules.base import ADVANCED, BASIC
from szsolver.starmaps.model import Puzzle, star_patterns
from szsolver.starmaps.complete import complete_starmap


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100)
    a = ap.parse_args()
    t0 = time.perf_counter()
    ends = collections.Counter()
    for g in (STARS_ZONE, square(8), square(10)):
        for rule in (BASIC, ADVANCED):
            for s in range(a.n):
                rnd = random.Random(s)
                free = [p for p in range(g.size) if not g.fixed_neutral_mask >> p & 1]
                rnd.shuffle(free)
                blocked = g.fixed_neutral_mask
                if rule == ADVANCED:
                    blocked |= sum(1 << p for p in free[:rnd.randrange(1, 7)])
                stars = complete_starmap(g, seed=s, rule=rule, blocked=blocked)
                if rule == BASIC:
                    empt = [p for p in free if not stars >> p & 1]
                    blocked |= sum(1 << p for p in empt[:rnd.randrange(0, 10)])
                pats = sorted(star_patterns(g, stars, blocked, rule).items())
                rnd.shuffle(pats)
                pz = Puzzle(g, blocked, tuple(pats[:rnd.randrange(3, 14)]), rule)
                r = solve_logic(pz, truth=stars)
                ends[g.name, "advanced" if rule else "basic",
                     r.grade if r.solved else "stalled"] += 1
    for k, v in sorted(ends.items()):
        print(*k, v)
    print(f"{sum(ends.values())} puzzles, no unsound step, {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
