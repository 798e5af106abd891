"""Endgame puzzles: generation time per puzzle per rule and grade, and the time to
re-prove every published puzzle (including the slow Advanced hard ones the test suite
leaves out).

Generation (``--generate N``) times
``generate(rule, grade, seed)`` on numbers 1001..1000+N (not in the collection).
Without it, the generation times stored in the collection (measured when it was
built) are summarised. Re-proof: the position's value, its one optimal turn group and
every punishment's exact value, as in tests/test_endgame_puzzles.py.

    python3 benchmarks/bench_endgame_puzzles.py [--generate 5] [--rule basic] [--no-reprove]
"""
import argparse
import statistics
import time

from szsolver.endgame import puzzles as P
from szsolver.endgame.solver import solve
from szsolver.rules.text import checked_turn, turn_table


def reprove(p) -> float:
    """Seconds to re-prove ``p``; AssertionError if any stored fact is not proved."""
    t = time.perf_counter()
    pos = p.load_position()
    r = solve(pos)
    table = turn_table(pos.geometry)
    assert r.exact and r.value == p.value, p.id
    assert {str(table[x]) for x in r.best} == {p.solution, *p.also}, p.id
    for w in p.punishments:
        child = pos.copy()
        child.make(checked_turn(pos, w["turn"]))
        assert solve(child).value == w["value"], p.id
    return time.perf_counter() - t


def _row(label, xs):
    return (f"{label:<22} n={len(xs):<3} median {statistics.median(xs):7.2f} s  "
            f"mean {statistics.mean(xs):7.2f} s  max {max(xs):7.2f} s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--generate", type=int, default=0, metavar="N")
    ap.add_argument("--rule", choices=["basic", "advanced"], default=None)
    ap.add_argument("--no-reprove", action="store_true")
    a = ap.parse_args()
    rules = [a.rule] if a.rule else ["basic", "advanced"]
    coll = [p for p in P.load_collection() if p.rule in rules]
    print("generation time per puzzle (stored in the collection, at build time):")
    for rule in rules:
        for grade in P.GRADES:
            xs = [p.seconds for p in coll if p.rule == rule and p.grade == grade]
            games = [p.attempts for p in coll if p.rule == rule and p.grade == grade]
            if xs:
                print(f"  {_row(f'{rule} {grade}', xs)}  games/puzzle {statistics.mean(games):.1f}")
    if a.generate:
        print(f"generation time per puzzle (seeds 1001..{1000 + a.generate}, measured now):")
        for rule in rules:
            for grade in P.GRADES:
                xs = []
                for s in range(1001, 1001 + a.generate):
                    t = time.perf_counter()
                    P.generate(rule, grade, s)
                    xs.append(time.perf_counter() - t)
                print(f"  {_row(f'{rule} {grade}', xs)}")
    if not a.no_reprove:
        print("re-proof of every published puzzle:")
        for rule in rules:
            for grade in P.GRADES:
                xs = [reprove(p) for p in coll if p.rule == rule and p.grade == grade]
                if xs:
                    print(f"  {_row(f'{rule} {grade}', xs)}")


if __name__ == "__main__":
    main()
