"""Where the exact solver can answer beyond its fixed horizon: the nodes it needs to
prove a position (value and principal variation, as the engine asks) by the turns left
and the neutrals the two sides can still spend (``rules.base.spendable_neutrals``).
The solver's table ``PROOF_NODES`` (``endgame.solver``) is the median column of this benchmark's output.

Run: python3 benchmarks/bench_horizon.py [--rules basic,advanced] [--turns 9,10,11,12]
         [--positions 10] [--node-limit 3000000] [--out rows.jsonl] [--report rows.jsonl]

Positions, per rule and turns left, ``--positions`` of each kind:

* ``uniform``: uniformly random legal play (each turn drawn from all legal turns: neutral
  turns far outnumber stone turns, so the supplies go early);
* ``random35``, ``random15``, ``random5``: a random stone, with a random neutral 35 %,
  15 % or 5 % of the time while the supply lasts (so some neutrals stay in hand);
* ``greedy``: two greedy players (every neutral kept: the hardest).

Each is solved once, one thread, the engine's table size for its node limit, with
``--node-limit`` nodes; the table gives per rule, turns left and spendable neutrals how
many were proved, the median and the largest node count (a position not proved counts
as above the limit: a median shown as ">" is not known). CPU seconds are this process's.
"""
from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import time

from szsolver import Position
from szsolver.endgame.solver import solve
from szsolver.engine.players import PLAYERS
from szsolver.rules.base import spendable_neutrals
from szsolver.rules.playout import random_turn, seeded_rng

RULES = {"basic": 0, "advanced": 1}
KINDS = {"uniform": None, "random35": 0.35, "random15": 0.15, "random5": 0.05, "greedy": None}


def sample(rule: int, turns_left: int, kind: str, k: int) -> Position:
    n = 5 if rule == 0 else 4
    pos = Position(rule=rule, red_neutrals=n, blue_neutrals=n)
    rng = seeded_rng("horizon", rule, turns_left, kind, k)
    if kind == "greedy":
        players = [PLAYERS["greedy"](seed=("horizon", rule, turns_left, k, s)) for s in (0, 1)]
        while pos.turns_left > turns_left:
            pos.play(players[pos.side].choose(pos.copy()))
        return pos
    while pos.turns_left > turns_left:
        if kind == "uniform":
            pos.play(rng.choice(list(pos.legal_turns())))
        else:
            pos.play(random_turn(pos, rng, KINDS[kind]))
    return pos


def rows(a):
    for rule_name in a.rules.split(","):
        rule = RULES[rule_name]
        for t in (int(x) for x in a.turns.split(",")):
            for kind in KINDS:
                for k in range(a.positions):
                    pos = sample(rule, t, kind, k)
                    c = time.process_time()
                    r = solve(pos, node_limit=a.node_limit, tt_size=1 << 20)
                    yield {"rule": rule_name, "turns_left": t, "kind": kind, "k": k,
                           "neutrals": spendable_neutrals(pos), "nodes": r.nodes,
                           "proved": bool(r.exact and r.pv),
                           "cpu": round(time.process_time() - c, 3)}


def table(rs, limit):
    cells = collections.defaultdict(list)
    for r in rs:
        cells[(r["rule"], r["turns_left"], r["neutrals"])].append(r)
    out = ["| rule | turns left | neutrals to spend | positions | proved | median nodes | "
           "most nodes (proved) |", "|---|---:|---:|---:|---:|---:|---:|"]
    for (rule, t, n), cs in sorted(cells.items(), key=lambda kv: (RULES[kv[0][0]], kv[0][1:])):
        proved = [c["nodes"] for c in cs if c["proved"]]
        counts = sorted(c["nodes"] if c["proved"] else float("inf") for c in cs)
        med = statistics.median_low(counts)
        out.append(f"| {rule} | {t} | {n} | {len(cs)} | {len(proved)} | "
                   f"{'>' + format(limit, ',') if med == float('inf') else format(med, ',')} | "
                   f"{format(max(proved), ',') if proved else '-'} |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="basic,advanced")
    ap.add_argument("--turns", default="9,10,11,12")
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--node-limit", type=int, default=3_000_000)
    ap.add_argument("--out", default=None)
    ap.add_argument("--report", default=None)
    a = ap.parse_args()
    if a.report:
        rs = [json.loads(line) for line in open(a.report)]
        print(table(rs, a.node_limit))
        return 0
    out = open(a.out, "a") if a.out else None
    rs = []
    for r in rows(a):
        rs.append(r)
        print(json.dumps(r), file=sys.stderr, flush=True)
        if out:
            out.write(json.dumps(r) + "\n")
            out.flush()
    print(table(rs, a.node_limit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
