"""Throughput of the batch commands on a local Dask cluster (docs/batch.md).

    python3 benchmarks/bench_batch.py --kind solve --workers 1,2
    python3 benchmarks/bench_batch.py --kind puzzles --workers 1,2 --days 6
    python3 benchmarks/bench_batch.py --kind annotate --workers 1,2
    python3 benchmarks/bench_batch.py --kind deep --workers 1,2,4 --position NAME

solve: the fixed positions of solver_positions.txt with at most --max-turns turns left;
puzzles: --days daily puzzles from 2026-11-23 (a Monday); annotate: the rulebook game
cut at each of its positions with 6 turns left or fewer (exact part only, so
deterministic and CP-SAT free); deep: positions of solver_positions.txt (or cut at
another depth from the same games) solved over the workers' jobs, against the serial
solver, alternately. The cluster's start-up is not timed (it is
paid once per command). Prints units per second per worker count (with the workers' CPU
seconds and the load average: wall times on a shared machine say little), and for deep the
nodes (by kind of job) against the serial solver's, the jobs' CPU costs (median, max, sum),
the wall and CPU time; ``--tasks-out`` appends every job's record (JSON lines) for the
scaling estimate.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _positions(max_turns: int) -> list[tuple[str, int, str]]:
    out = []
    with open(os.path.join(HERE, "solver_positions.txt"), encoding="utf-8") as f:
        for ln in f:
            if ln.startswith("#") or "|" not in ln:
                continue
            name, turns, pos = (x.strip() for x in ln.split("|"))
            out.append((name, int(turns), pos))
    return [p for p in out if p[1] <= max_turns] if max_turns else out


def _units(kind: str, args):
    from szsolver.batch.run import Unit
    from szsolver.batch import units as u
    if kind == "solve":
        return [Unit(i + 1, u.solve_unit, (i, p)) for i, (_, _, p) in
                enumerate(_positions(args.max_turns))]
    if kind == "puzzles":
        from szsolver.starmaps.daily import daily_id
        return [Unit(daily_id(d), u.puzzle_unit, (d,)) for d in u.puzzle_dates("2026-11-23", args.days)]
    from szsolver.rules.backends import to_core
    from szsolver.formats.notation import position_string
    from szsolver.formats.record import GameRecord, example_game, game_string
    game = example_game()
    units = []
    for k, p in enumerate(game.positions):
        if 1 <= to_core(p).turns_left <= 6:
            g = GameRecord({"Position": position_string(to_core(p))}, game.turns[k + 1:])
            units.append(Unit(f"cut{k}", u.annotate_unit, (f"cut{k}", game_string(g), 0.5, 8, 60.0)))
    return units


def bench_units(kind: str, workers: list[int], args) -> None:
    from szsolver.batch.cluster import open_client
    from szsolver.batch.run import Directory, JsonLines, run_units
    units = _units(kind, args)
    for n in workers:
        with tempfile.TemporaryDirectory() as tmp, open_client(n) as client:
            client.run(lambda: __import__("szsolver.batch.units"))   # warm imports
            out = JsonLines(os.path.join(tmp, "o.jsonl"), "line") if kind == "solve" \
                else Directory(os.path.join(tmp, "out"))
            cpu0, load0 = _cpu(client), os.getloadavg()[0]
            rep = run_units(client, units, out)
            cpu = _cpu(client) - cpu0
        print(f"{kind}: {len(units)} units, {n} worker(s): {rep.seconds:.1f} s, "
              f"{rep.units_per_second:.2f} units/s; workers' CPU {cpu:.1f} s "
              f"({len(units) / cpu if cpu > 0 else 0:.2f} units per CPU s); load average "
              f"{load0:.1f}-{os.getloadavg()[0]:.1f}", flush=True)


def _named_position(name: str) -> tuple[str, int, str]:
    """A position of solver_positions.txt, or one cut from the same games at another
    depth (e.g. basic-greedy1-9: greedy game 1 under the Basic rule with 9 turns left),
    made by make_solver_positions.py's deterministic games."""
    for p in _positions(0):
        if p[0] == name:
            return p
    sys.path.insert(0, HERE)
    import make_solver_positions as m
    from szsolver.formats.notation import position_string
    from szsolver.rules.base import ADVANCED, BASIC
    rname, game, depth = name.split("-")
    rule, neutrals = (BASIC, 5) if rname == "basic" else (ADVANCED, 4)
    states = (m.example_game(rule, neutrals) if game == "example"
              else m.greedy_game(rule, neutrals, int(game[len("greedy"):])))
    return name, int(depth), position_string(states[32 - int(depth)])


def _cpu(client) -> float:
    """CPU seconds used so far by the client's workers (user + system)."""
    return sum(client.run(time.process_time).values())


def bench_deep(workers: list[int], args) -> None:
    from szsolver.batch.cluster import open_client
    from szsolver.batch.deep import deep_solve
    from szsolver.endgame.solver import solve
    from szsolver.formats.record import parse_source_text
    for name in args.position.split(","):
        name, turns, text = _named_position(name)
        pos, _ = parse_source_text(text)
        limit = dict(node_limit=args.node_limit) if args.node_limit else {}
        for rep in range(args.repeat):
            if not args.no_serial:
                t, c = time.perf_counter(), time.process_time()
                s = solve(pos, **(limit or {"node_limit": 10**15}))   # 9 turns need a limit
                print(f"serial {name} ({turns} turns): value {s.value} [{s.lower}, {s.upper}], "
                      f"{s.nodes:,} nodes, {time.perf_counter() - t:.1f} s wall, "
                      f"{time.process_time() - c:.1f} s CPU, load {os.getloadavg()[0]:.1f}",
                      flush=True)
            for n in workers:
                with open_client(n) as client:
                    client.run(lambda: __import__("szsolver.batch.deep"))   # warm imports
                    c0, cc = _cpu(client), time.process_time()
                    t = time.perf_counter()
                    trace = []
                    r = deep_solve(client, pos, frontier_turns=args.frontier, trace=trace,
                                   **limit)
                    wall = time.perf_counter() - t
                    cpu = _cpu(client) - c0 + time.process_time() - cc
                ts = r["task_cpu"] or [0.0]
                cut = sum(x["cut"] for x in r["tasks"])
                kinds = ", ".join(f"{k} {v:,}" for k, v in r["job_nodes"].items())
                print(f"deep {name}, {n} worker(s): value {r['value']} [{r['lower']}, {r['upper']}], "
                      f"{wall:.1f} s wall, {cpu:.1f} s CPU, load {os.getloadavg()[0]:.1f}; "
                      f"{len(r['tasks'])} root orbits ({cut} refuted), {r['task_count']} jobs; "
                      f"job CPU s: median {statistics.median(ts):.3f}, max {max(ts):.2f}, "
                      f"sum {sum(ts):.1f}; {r['nodes']:,} nodes ({kinds})", flush=True)
                if args.tasks_out:
                    import json
                    with open(args.tasks_out, "a", encoding="utf-8") as f:
                        f.write(json.dumps({"position": name, "workers": n, "wall": wall,
                                            "cpu": cpu, "nodes": r["nodes"], "jobs": trace,
                                            "tasks": r["tasks"]}) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", choices=["solve", "puzzles", "annotate", "deep"], default="solve")
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    ap.add_argument("--max-turns", type=int, default=6, help="solve: positions up to this depth")
    ap.add_argument("--days", type=int, default=6, help="puzzles: how many days")
    ap.add_argument("--position", default="basic-greedy1-9,basic-greedy3-9",
                    help="deep: names in solver_positions.txt or RULE-GAME-TURNS cut from "
                         "make_solver_positions.py's games (comma-separated)")
    ap.add_argument("--repeat", type=int, default=1, help="deep: runs of each (alternating)")
    ap.add_argument("--tasks-out", default=None, help="deep: append per-task costs (JSON lines)")
    ap.add_argument("--node-limit", type=int, default=None,
                    help="deep: for the whole split solve and for the serial one")
    ap.add_argument("--no-serial", action="store_true", help="deep: skip the serial solve")
    ap.add_argument("--frontier", type=int, default=None,
                    help="deep: jobs at nodes with at most this many turns left (default: "
                         "the module's FRONTIER_TURNS)")
    args = ap.parse_args(argv)
    workers = [int(w) for w in args.workers.split(",")]
    if args.kind == "deep":
        bench_deep(workers, args)
    else:
        bench_units(args.kind, workers, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
