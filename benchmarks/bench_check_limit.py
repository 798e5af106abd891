"""``check --time-limit S`` as the command and as the web answer it: the same answer?

Run: python3 benchmarks/bench_check_limit.py [--time-limit 1] [--games 2]
         [--stages 30,24,18,14,12,11,10,9,8,7]

Positions: uniformly random legal play (every legal turn equally likely), ``--games``
games a rule (both rules, seeded through rules.seeds), each cut at every stage (turns
left) with the turn its game played next. Each is checked twice with the same limit:
as the command, ``szsolver check POS TURN --time-limit S --json`` in a new process
(OR-Tools still to import), and by ``analysis.check.check`` in this process, which has
OR-Tools loaded as the web's job processes have. Prints per position whether the two
answers agree (verdict, best turns, the two values), whether the engine was stopped by
the limit (the answer's ``engine_stopped``) and the wall seconds, then the totals.
A check is fixed work planned from the limit (``analysis.check.plan``): on a machine
at rest the two agree; where the limit's deadline stops the engine, they may not.
"""
import argparse
import json
import os
import subprocess
import sys
import time

from ortools.sat.python import cp_model  # noqa: F401  (loaded, as in the web's jobs)

from szsolver.analysis.check import check
from szsolver.formats.notation import format_turn, position_string
from szsolver.rules import _core
from szsolver.rules.base import ADVANCED, BASIC
from szsolver.rules.seeds import playout_rng_v1

RULES = ((BASIC, 5, "basic"), (ADVANCED, 4, "advanced"))


def uniform_game(rule, neutrals, index):
    """The positions and turns of one uniformly random legal game."""
    rng = playout_rng_v1("check time limit", rule, neutrals, index)
    p = _core.Position(red_neutrals=neutrals, blue_neutrals=neutrals, rule=rule)
    states, turns = [p.copy()], []
    while not p.is_over():
        t = rng.choice(sorted(p.legal_turns()))
        turns.append(t)
        p.play(t)
        states.append(p.copy())
    return states, turns


def answer(d):
    return d["verdict"], d["best"][:3], d["value_before"], d["played_value"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--time-limit", type=float, default=1.0)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--stages", default="30,24,18,14,12,11,10,9,8,7")
    a = ap.parse_args()
    stages = [int(x) for x in a.stages.split(",")]
    rows = []
    print(f"load average {os.getloadavg()[0]:.2f}")
    for rule, neutrals, rname in RULES:
        for gi in range(a.games):
            states, turns = uniform_game(rule, neutrals, gi)
            for left in stages:
                pos, turn = states[32 - left], turns[32 - left]
                t0 = time.perf_counter()
                out = subprocess.run([sys.executable, "-m", "szsolver", "check", position_string(pos),
                                      format_turn(turn), "--time-limit", str(a.time_limit), "--json"],
                                     capture_output=True, text=True, check=True)
                cold_wall = time.perf_counter() - t0
                cold = json.loads(out.stdout)
                t0 = time.perf_counter()
                warm = check(pos, turn, time_limit=a.time_limit)
                warm_wall = time.perf_counter() - t0
                same = answer(cold) == (warm.verdict, [format_turn(t) for t in warm.best][:3],
                                        warm.value_before, warm.played_value)
                rows.append((same, cold_wall, warm_wall, bool(cold["engine_stopped"]),
                             warm.engine_stopped))
                print(f"{rname} game {gi} {left:2d} left: {'same' if same else 'DIFFERENT'} "
                      f"{cold['verdict']}; the command {cold_wall:.2f} s"
                      f"{' (stopped)' if cold['engine_stopped'] else ''}, warm {warm_wall:.2f} s"
                      f"{' (stopped)' if warm.engine_stopped else ''}", flush=True)
    n = len(rows)
    print(f"--time-limit {a.time_limit:g}: the same answer {sum(r[0] for r in rows)} of {n}; "
          f"the engine stopped: the command {sum(r[3] for r in rows)}, warm "
          f"{sum(r[4] for r in rows)}; wall s, most: the command {max(r[1] for r in rows):.2f}, "
          f"warm {max(r[2] for r in rows):.2f}; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
