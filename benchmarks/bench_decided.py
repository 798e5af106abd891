"""Where self-play games are decided: a match's games with their values proved at a few
stages, and this build's engine on the positions of those games at those stages.

Run: python3 benchmarks/bench_decided.py GAMES.json [--rules basic] [--turns 8,6]
         [--engine 8,7] [--time 1] [--time-limit 120] [--jobs 2] [--out ROWS.jsonl]
     python3 benchmarks/bench_decided.py --report ROWS.jsonl

``GAMES.json``: a match's games (``benchmarks/match.py --json``; a match is the same
on every run, so its games are too).

* Stages (``--turns``): each game's position at those turns left, its value proved
  (one solve, value only, at most ``--time-limit`` seconds; a value not proved in it
  counts as unknown). Table: engine A's wins, draws and losses at each stage and at
  the end, and in how many games the value at the last stage is the final value.
* The engine's turn (``--engine``): at each game's position at those turns left,
  this build's ``Engine(--time).analyse`` as the match asks for it, and the value
  after its turn proved. Table per turns left: the positions, the neutrals the two
  sides can spend (least, median, most), how often the solver's root proof finished
  within the engine's budget, the turn optimal, the result changed (a blunder), a
  point or more lost (a loss of 96 or more: a point given away, a neutral or a few
  won back).

``--out`` writes one JSON line per solve as it finishes; ``--report`` prints the tables
of such a file. Cost: under Basic a value at 8 turns left with the supplies in hand
takes 5-13 s, at 6 turns left under a second; the 40 Basic games of a 80-game match,
``--turns 8,6 --engine 8,7``, took 7 minutes with ``--jobs 2``, its 40 Advanced games
``--turns 6 --engine 7,6`` 6 minutes. Figures:
docs/engine.md, "Where the games are decided".
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from multiprocessing import Pool

from szsolver.endgame.solver import solve
from szsolver.engine.search import Engine
from szsolver.formats.notation import format_turn, parse_position, position_string
from szsolver.rules.base import spendable_neutrals
from szsolver.verdict import classify

POINT_LOST = 96


def at(game: dict, turns_left: int):
    """The game's position at ``turns_left`` turns left (None if it never got there)."""
    pos = parse_position(game["opening"])
    for t in game["turns"]:
        if pos.turns_left == turns_left:
            return pos
        pos.play(t)
    return pos if pos.turns_left == turns_left else None


def value(pos, limit: float) -> int | None:
    r = solve(pos, time_limit=limit, pv=False)
    return r.value if r.exact else None


def stage_job(args):
    k, turns_left, text, limit = args
    return {"kind": "stage", "game": k, "turns_left": turns_left,
            "value": value(parse_position(text), limit)}


def engine_job(args):
    k, turns_left, text, limit, seconds = args
    pos = parse_position(text)
    res = Engine(seconds).analyse(pos)
    after = pos.copy()
    after.play(format_turn(res.turn))
    return {"kind": "engine", "game": k, "turns_left": turns_left, "position": text,
            "side": pos.side, "neutrals": spendable_neutrals(pos), "turn": format_turn(res.turn),
            "method": res.method, "value": value(pos, limit), "after": value(after, limit)}


def jobs(games, a):
    out = []
    for k, g in enumerate(games):
        if g["rule"] not in a.rules.split(","):
            continue
        judged = stages(a.engine)
        for t in stages(a.turns):
            pos = at(g, t)
            if pos is not None and t not in judged:   # the engine's row proves that value
                out.append((stage_job, (k, t, position_string(pos), a.time_limit)))
        for t in sorted(judged, reverse=True):
            pos = at(g, t)
            if pos is not None:
                out.append((engine_job, (k, t, position_string(pos), a.time_limit, a.time)))
    return out


def _run(item):
    fn, args = item
    return fn(args)


def stage_table(rows, games, turns) -> str:
    """``turns``: the stages asked for (their values in stage rows, or in the engine's
    rows where its turn was judged at the same stage)."""
    stages = sorted({r["turns_left"] for r in rows if r["turns_left"] in turns}, reverse=True)
    if not stages:
        return ""
    value = {(r["game"], r["turns_left"]): r["value"] for r in rows if r["turns_left"] in turns}
    ks = sorted({r["game"] for r in rows if r["turns_left"] in turns})

    def a_side(k, v):
        return v if games[k]["a_red"] else -v
    out = ["| stage | games | A's W-D-L | unknown |", "|---|---:|---|---:|"]
    for t in stages:
        vs = [value.get((k, t)) for k in ks]
        known = [a_side(k, v) for k, v in zip(ks, vs) if v is not None]
        w, d = sum(v > 0 for v in known), sum(v == 0 for v in known)
        out.append(f"| {t} turns left | {len(ks)} | {w}-{d}-{len(known) - w - d} | "
                   f"{len(vs) - len(known)} |")
    final = [games[k]["a_value"] for k in ks]
    w, d = sum(v > 0 for v in final), sum(v == 0 for v in final)
    out.append(f"| the end | {len(ks)} | {w}-{d}-{len(final) - w - d} | 0 |")
    last = stages[-1]
    same = sum(value.get((k, last)) is not None and a_side(k, value[(k, last)]) == games[k]["a_value"]
               for k in ks)
    out.append(f"\nThe value at {last} turns left is the final value in {same} of {len(ks)} games.")
    return "\n".join(out)


def engine_table(rows) -> str:
    es = [r for r in rows if r["kind"] == "engine"]
    if not es:
        return ""
    out = ["| turns left | positions | neutrals to spend (least, median, most) | root proof "
           "finished | values proved | turn optimal | result changed | a point or more lost |",
           "|---:|---:|---|---:|---:|---:|---:|---:|"]
    for t in sorted({r["turns_left"] for r in es}, reverse=True):
        rs = [r for r in es if r["turns_left"] == t]
        ns = sorted(r["neutrals"] for r in rs)
        known = [r for r in rs if r["value"] is not None and r["after"] is not None]
        judged = [classify(r["value"], r["after"], r["side"]) for r in known]
        out.append(f"| {t} | {len(rs)} | {ns[0]}, {statistics.median_low(ns)}, {ns[-1]} | "
                   f"{sum(r['method'] == 'solver' for r in rs)} | {len(known)} | "
                   f"{sum(loss == 0 for loss, _ in judged)} | "
                   f"{sum(v == 'blunder' for _, v in judged)} | "
                   f"{sum(loss >= POINT_LOST for loss, _ in judged)} |")
    return "\n".join(out)


def report(rows, games, turns) -> str:
    return "\n\n".join(t for t in (stage_table(rows, games, turns), engine_table(rows)) if t)


def stages(text: str) -> set[int]:
    return {int(x) for x in text.split(",") if x}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="?", help="a match's games: benchmarks/match.py --json FILE")
    ap.add_argument("--rules", default="basic")
    ap.add_argument("--turns", default="8,6", help="stages whose values are proved")
    ap.add_argument("--engine", default="8,7", help="turns left where the engine's turn is judged")
    ap.add_argument("--time", type=float, default=1.0, help="the engine's budget a turn")
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds for each proof")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=None)
    ap.add_argument("--report", default=None, help="print the tables of an --out file")
    a = ap.parse_args()
    if a.report:
        head, *rows = [json.loads(line) for line in open(a.report)]
        print(report(rows, head["games"], stages(head["args"]["turns"])))
        return 0
    if not a.games:
        ap.error("give a match's games (benchmarks/match.py --json FILE) or --report")
    games = json.load(open(a.games))["games"]
    out = open(a.out, "w") if a.out else None
    if out:
        out.write(json.dumps({"games": games, "args": vars(a)}) + "\n")
    rows = []
    with Pool(a.jobs) as pool:
        for r in pool.imap_unordered(_run, jobs(games, a)):
            rows.append(r)
            print(json.dumps({k: v for k, v in r.items() if k != "position"}),
                  file=sys.stderr, flush=True)
            if out:
                out.write(json.dumps(r) + "\n")
                out.flush()
    print(report(rows, games, stages(a.turns)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
