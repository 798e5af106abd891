"""Wall time of Star's and Stargazers' budgets as a user meets them: ``check
--time-limit S``, ``best --time S`` and ``annotate --time-per-turn S``, one ``szsolver``
process each (its start-up included), at the start, in the middle of a game and after
uniformly random legal play (a number of turns drawn uniformly over the game, each
turn drawn uniformly from the legal ones; the judged turn too).

    python benchmarks/bench_limits.py check star --seconds 3 --positions 8
    python benchmarks/bench_limits.py best stargazers --seconds 2 --positions 8
    python benchmarks/bench_limits.py annotate star --seconds 0.1 --positions 2
    python benchmarks/bench_limits.py check stargazers --seconds 1 --empty 13

Prints one row per run (the position's empty cells, the turns played, the wall and
CPU seconds and their ratios to the budget: for ``annotate`` the budget is the time per
turn times the game's turns) and the median and worst ratios, with the load average:
the machine is shared, and a budget answers for the project's 2-core machine at rest,
where the wall time is the CPU time (under load, read the CPU column).
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from szsolver.games import star as star_game, stargazers as sg_game


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _games(game: str, n: int, seed: int, board: str, whole: bool, empty=None):
    """(kind, record, turn to judge) by uniformly random legal play: the start (no
    turn), the middle, ``n`` random lengths (``whole``: every game played to the end;
    ``empty``: ``n`` games played to that many empty cells, the solver's reach)."""
    rng = random.Random(f"limits-{game}-{seed}")
    if game == "star":
        from szsolver.star.record import GameRecord
        rec = lambda: GameRecord({"Board": board} if board != "5x6" else {})   # noqa: E731
        turns = lambda g: g.final.legal_turns(passes=False)                   # noqa: E731
    else:
        from szsolver.stargazers.record import GameRecord
        rec = lambda: GameRecord({"Game": "stargazers", "Board": board})      # noqa: E731
        turns = lambda g: sg_game.legal_turns(g.final)                        # noqa: E731
    size = _empty(rec().start)
    lengths = [("start", 0), ("mid-game", size // 2)] if not (whole or empty) else []
    lengths += [("random", size if whole else size - empty if empty
                 else rng.randrange(size - 1)) for _ in range(n)]
    for kind, length in lengths:
        g = rec()
        while _empty(g.start) - _empty(g.final) < length and not g.final.is_over():
            g.play(rng.choice(turns(g)))
        if whole or not g.final.is_over():
            yield kind, g, None if whole else rng.choice(turns(g))


def _empty(pos) -> int:
    return pos.empty.bit_count()


def _run(argv) -> tuple[float, float]:
    """The command's wall and CPU seconds."""
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "szsolver", *argv], capture_output=True,
                       text=True)
    dt = time.perf_counter() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(argv)[:200]}: exit {r.returncode}: {r.stderr.strip()}")
    return dt, c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("check", "best", "annotate"))
    ap.add_argument("game", choices=("star", "stargazers"))
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--positions", type=int, default=8,
                    help="random positions (besides the start and the middle; annotate: games)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--board", default=None)
    ap.add_argument("--empty", type=int, default=None,
                    help="only positions with this many empty cells (the solver's reach)")
    args = ap.parse_args()
    board = args.board or ("5x6" if args.game == "star" else "12-star")
    fmt = star_game if args.game == "star" else sg_game
    s = f"{args.seconds:g}"
    print(f"{args.command} {args.game} ({board}), {s} s, load {_load()}")
    print(" kind      empty  turns  wall s  CPU s  wall / budget  CPU / budget")
    ratios, cpus = [], []
    for kind, g, turn in _games(args.game, args.positions, args.seed, board,
                                args.command == "annotate", args.empty):
        pos = g.final
        if args.command == "check":
            argv, budget = ["check", fmt.position_text(pos), fmt.format_turn(turn, pos),
                            "--time-limit", s], args.seconds
        elif args.command == "best":
            argv, budget = ["best", fmt.position_text(pos), "--time", s], args.seconds
        else:
            if args.game == "star":
                from szsolver.star.record import game_string
            else:
                from szsolver.stargazers.record import game_string
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
                f.write(game_string(g))
            argv, budget = ["annotate", f.name, "--time-per-turn", s], \
                args.seconds * len(g.turns)
        dt, cpu = _run(argv)
        ratios.append(dt / budget)
        cpus.append(cpu / budget)
        print(f" {kind:<8}  {_empty(pos):>5}  {len(g.turns):>5}  {dt:>6.2f}  {cpu:>5.2f}  "
              f"{dt / budget:>13.2f}  {cpu / budget:>12.2f}", flush=True)
    print(f"wall / budget: median {statistics.median(ratios):.2f}, worst {max(ratios):.2f}; "
          f"CPU / budget: median {statistics.median(cpus):.2f}, worst {max(cpus):.2f}; "
          f"over {len(ratios)} runs; load {_load()}")


if __name__ == "__main__":
    main()
