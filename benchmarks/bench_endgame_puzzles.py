"""Endgame puzzles: generation time per puzzle per rule and grade, where it goes, and
the time to re-prove every published puzzle (as tests/test_endgame_puzzles.py does).

``--regenerate``: every published puzzle is generated again from its ID (checked equal
to the stored one but for ``seconds``), wall and CPU seconds per puzzle, and the CPU
split between the screening solves that found the puzzle, those of rejected candidates
(the node limit hit, or proved but not a puzzle: several optimal groups, greedy) and
the punishments' proofs and lines. ``--generate N`` times new numbers
1001..1000+N (not in the collection). Without either, the generation times stored in
the collection (wall, measured when it was built) are summarised.

    python3 benchmarks/bench_endgame_puzzles.py [--regenerate] [--generate 5] [--rule basic] [--no-reprove]
"""
import argparse
import statistics
import time

from szsolver.puzzles import endgame as P
from szsolver.endgame.solver import solve
from szsolver.rules.text import checked_turn, turn_table

PHASES = ("found", "rejected: node limit", "rejected: proved", "punishments")


class _Profile:
    """CPU seconds of the solver calls made by the generator, by phase: a call with a
    node limit is a candidate's screening proof (the last one of a generate() call
    found the puzzle), one without is a punishment's proof or a line."""

    def __init__(self):
        self.calls = []
        self.real = P.solve
        P.solve = self

    def __call__(self, pos, **kw):
        t = time.process_time()
        r = self.real(pos, **kw)
        kind = ("screen" if r.exact else "rejected: node limit") if "node_limit" in kw \
            else "punishments"
        self.calls.append([kind, time.process_time() - t])
        return r

    def take(self) -> dict:
        """The phases of the calls since the last take (one generate() call)."""
        screens = [c for c in self.calls if c[0] == "screen"]
        if screens:
            screens[-1][0] = "found"
            for c in screens[:-1]:
                c[0] = "rejected: proved"
        out = {k: sum(c[1] for c in self.calls if c[0] == k) for k in PHASES}
        self.calls = []
        return out


def regenerate(coll, log=print):
    """Each puzzle of ``coll`` generated again: {(rule, grade): [(wall, cpu, phases)]}."""
    prof = _Profile()
    out = {}
    for p in coll:
        kind, rule, *rest = P.parse_id(p.id)
        w, c = time.perf_counter(), time.process_time()
        fresh = (P.example_puzzle(rule, rest[0]) if kind == "example"
                 else P.generate(rule, rest[0], rest[1]))
        w, c = time.perf_counter() - w, time.process_time() - c
        a, b = fresh.to_json(), p.to_json()
        a.pop("seconds"), b.pop("seconds")
        assert a == b, f"{p.id} no longer reproduces"
        phases = prof.take()
        out.setdefault((p.rule, p.grade), []).append((w, c, phases))
        log(f"    {p.id}: wall {w:.2f} s, CPU {c:.2f} s, "
            + ", ".join(f"{k} {v:.2f}" for k, v in phases.items()))
    P.solve = prof.real
    return out


def reprove(p) -> float:
    """CPU seconds to re-prove ``p``; AssertionError if any stored fact is not proved."""
    t = time.process_time()
    pos = p.load_position()
    r = solve(pos)
    table = turn_table(pos.geometry)
    assert r.exact and r.value == p.value, p.id
    assert {str(table[x]) for x in r.best} == {p.solution, *p.also}, p.id
    for w in p.punishments:
        child = pos.copy()
        child.make(checked_turn(pos, w["turn"]))
        assert solve(child, pv=False).value == w["value"], p.id
    return time.process_time() - t


def _row(label, xs):
    return (f"{label:<22} n={len(xs):<3} median {statistics.median(xs):7.2f} s  "
            f"mean {statistics.mean(xs):7.2f} s  max {max(xs):7.2f} s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--generate", type=int, default=0, metavar="N")
    ap.add_argument("--rule", choices=["basic", "advanced"], default=None)
    ap.add_argument("--regenerate", action="store_true")
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
    if a.regenerate:
        print("every published puzzle generated again from its ID (CPU = process time):")
        rows = regenerate(coll)
        print("| rule, grade | puzzles | wall median / max | CPU median / mean / max | "
              + " | ".join(f"CPU share {k}" for k in PHASES) + " | other (games, gains, symmetries) |")
        for (rule, grade), xs in rows.items():
            walls, cpus = [x[0] for x in xs], [x[1] for x in xs]
            tot = sum(cpus) or 1.0
            shares = [sum(x[2][k] for x in xs) / tot for k in PHASES]
            print(f"| {rule} {grade} | {len(xs)} | {statistics.median(walls):.2f} / "
                  f"{max(walls):.2f} s | {statistics.median(cpus):.2f} / "
                  f"{statistics.mean(cpus):.2f} / {max(cpus):.2f} s | "
                  + " | ".join(f"{v:.0%}" for v in [*shares, 1 - sum(shares)]) + " |")
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
        print("re-proof of every published puzzle (CPU seconds):")
        for rule in rules:
            for grade in P.GRADES:
                xs = [reprove(p) for p in coll if p.rule == rule and p.grade == grade]
                if xs:
                    print(f"  {_row(f'{rule} {grade}', xs)}")


if __name__ == "__main__":
    main()
