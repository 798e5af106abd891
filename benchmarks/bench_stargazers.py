"""Stargazers figures: the rules back ends, the exact solver's horizon, and the engine
against a random and a greedy player.

    python benchmarks/bench_stargazers.py rules     # placements/legal masks per second
    python benchmarks/bench_stargazers.py width     # int operations on 51..138-bit masks
    python benchmarks/bench_stargazers.py solver    # solve time and nodes by empty cells
    python benchmarks/bench_stargazers.py engine [GAMES SECONDS BOARD FIRST]  # vs random, greedy
    python benchmarks/bench_stargazers.py early [GAMES SECONDS BOARD]   # early end
    python benchmarks/bench_stargazers.py bounds    # true score range vs the proofs

Times are CPU seconds (time.process_time); run it on a quiet machine or say the load.
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import time

from szsolver.stargazers import fast, reference
from szsolver.stargazers.engine import engine_player, greedy_player, play_game, random_player
from szsolver.stargazers.solver import solve
from stats import rate


def _midgame(cls, name, frac, seed):
    rng = random.Random(seed)
    p = cls(board=name)
    target = int(p.board.playable.bit_count() * frac)
    while p.ply < target and not p.is_over():
        p.play(rng.choice(p.legal_placements()))
    return p


def rules():
    """Legal-placement masks and inspiration per CPU second, both back ends."""
    for name in ("12-star", "18-star", "27-star"):
        for cls in (fast.Position, reference.Position):
            ps = [_midgame(cls, name, 0.4, f"rules-{name}-{k}") for k in range(5)]
            t = time.process_time()
            n = 0
            while time.process_time() - t < 2:
                for p in ps:
                    p._legal = None
                    p.legal_mask()
                    p.inspired()
                    n += 1
            rate = n / (time.process_time() - t)
            print(f"{name:8} {cls.backend:9} legal mask + inspiration: {rate:9.0f} /s",
                  flush=True)


def width():
    """The cost of wider ints: the first-piece step of sight on 51-, 64- and 138-bit masks."""
    import timeit
    for bits in (51, 64, 138):
        rng = random.Random(bits)
        masks = [rng.getrandbits(bits) | 1 << (bits - 1) for _ in range(1000)]
        line = (1 << bits) - 1
        t = min(timeit.repeat(lambda: [((m & line) & -(m & line)).bit_length()
                                       for m in masks], number=200, repeat=5))
        print(f"{bits:4}-bit masks: {t / 200 / 1000 * 1e9:6.1f} ns per first-piece step",
              flush=True)


def random_endgame(rng, empty: int):
    """A 12-star position reached by uniformly random placements, with ``empty``
    empty playable cells and the game not over (games that end sooner are redrawn)."""
    while True:
        p = fast.Position()
        while not p.is_over() and p.empty.bit_count() > empty:
            p.play(rng.choice(p.legal_placements()))
        if not p.is_over():
            return p


def solver(max_empties=14, per=5):
    """Exact solves of random 12-star endgames by the number of empty playable cells."""
    max_empties, per = int(max_empties), int(per)
    rng = random.Random("bench-solver")
    for k in range(8, max_empties + 1):
        times, nodes = [], []
        for _ in range(per):
            p = random_endgame(rng, k)
            s = solve(p, all_turns=False)
            times.append(s.seconds)
            nodes.append(s.nodes)
        print(f"{k:3} empty cells: median {statistics.median(times):7.2f} s, max "
              f"{max(times):7.2f} s CPU; nodes median {statistics.median(nodes):>9,.0f}, max "
              f"{max(nodes):>9,}", flush=True)


def engine(games=20, seconds=0.3, board="12-star", first=0):
    """The engine against a random and a greedy player, colours alternating (the
    engine Red in the even games); ``first``: the number of the first game (its seeds),
    so a later run can add new games to an earlier one."""
    games, seconds, first = int(games), float(seconds), int(first)
    start = fast.Position(board=board)
    for name, make in (("random", random_player), ("greedy", greedy_player)):
        wins = {0: [0, 0], 1: [0, 0]}
        margins = []
        t = time.process_time()
        for g in range(first, first + games):
            eng = engine_player(seconds, seed=f"bench-{g}")
            other = make(seed=f"bench-{g}")
            red, blue = (eng, other) if g % 2 == 0 else (other, eng)
            end = play_game(start, red, blue)
            me = 0 if g % 2 == 0 else 1
            wins[me][0] += end.winner() == me
            wins[me][1] += 1
            r, b = end.scores()
            margins.append((r - b) if me == 0 else (b - r))
        won = wins[0][0] + wins[1][0]
        print(f"engine ({seconds} s) vs {name} on {board}: won {rate(won, games)} in all, "
              f"{rate(*wins[0])} as Red, {rate(*wins[1])} as Blue (Wilson 95 %); mean "
              f"margin {statistics.mean(margins):+.1f}; {time.process_time() - t:.0f} CPU s; "
              f"load {os.getloadavg()[0]:.1f}", flush=True)


def early(games=40, seconds=0.1, board="12-star"):
    """How often and how soon a game can be declared over early: random games and
    engine-against-engine games, with the proofs alone (node limit 0) and with the
    look at every continuation late in the game."""
    from szsolver.stargazers.assured import status
    games, seconds = int(games), float(seconds)
    for kind in ("random", "engine"):
        plays = []
        for g in range(games):
            if kind == "random":
                red = random_player(seed=f"early-r-{g}")
                blue = random_player(seed=f"early-b-{g}")
            else:
                red = engine_player(seconds, seed=f"early-r-{g}")
                blue = engine_player(seconds, seed=f"early-b-{g}")
            p = fast.Position(board=board)
            trail = []
            while not p.is_over():
                trail.append(p.copy())
                p.play((red if p.side == 0 else blue)(p))
            plays.append((trail, p.ply))
        for label, limit in (("proofs only", 0), ("with every continuation", None)):
            t = time.process_time()
            early_by, calls = [], 0
            for trail, length in plays:
                for q in trail:
                    calls += 1
                    st = status(q, node_limit=limit) if limit is not None else status(q)
                    if st.decided is not None:
                        early_by.append((length - q.ply, q.ply))
                        break
            cpu = time.process_time() - t
            n = len(early_by)
            gaps = [e for e, _ in early_by]
            text = (f"{n}/{games} decided early, placements left then: median "
                    f"{statistics.median(gaps)}, mean {statistics.mean(gaps):.1f}, max "
                    f"{max(gaps)}, at placement {statistics.mean(x for _, x in early_by):.1f} on "
                    f"average" if n else f"0/{games} decided early")
            print(f"{kind} games on {board} ({label}): {text}; mean game length "
                  f"{statistics.mean(x for _, x in plays):.1f} placements; "
                  f"{cpu / max(1, calls) * 1000:.1f} ms CPU a status; load "
                  f"{os.getloadavg()[0]:.1f}", flush=True)


def bounds(per=12):
    """How wide the true range of final scores is late in random 12-star games (every
    line of play enumerated) beside the proved bounds, and how many stones the proofs
    find safe in random games."""
    from szsolver.stargazers.assured import continuations, reach, safe_stones, status
    per = int(per)
    rng = random.Random("gap2")
    print("empty | highest final | opponent stones | proved potential | lowest final | "
          "proved assured | one winner in every line")
    for k in (10, 8, 6, 4):
        rows, single = [], 0
        for _ in range(per):
            p = random_endgame(rng, k)
            lo, hi, winners = continuations(p, 10 ** 6)
            s = status(p, node_limit=0)
            for side in (0, 1):
                rows.append((hi[side], (p.blue, p.red)[side].bit_count(), s.potential[side],
                             lo[side], s.assured[side]))
            single += len(winners) == 1
        means = [statistics.mean(r[j] for r in rows) for j in range(5)]
        print(f"{k:5} | " + " | ".join(f"{m:.1f}" for m in means) + f" | {single}/{per}",
              flush=True)
    rng = random.Random("sc")
    safe = positions = 0
    for _ in range(30):
        p = fast.Position(board=rng.choice(["12-star", "18-star"]))
        while not p.is_over():
            b = p.board
            for own, enemy in ((p.red, p.blue), (p.blue, p.red)):
                safe += safe_stones(b, own, enemy, reach(b, own, enemy),
                                    reach(b, enemy, own)).bit_count()
            positions += 1
            p.play(rng.choice(p.legal_placements()))
    print(f"safe stones found by the proofs in {positions} positions of 30 random games: "
          f"{safe}", flush=True)


if __name__ == "__main__":
    # bench_stargazers.py WHAT [ARGS...]: one part with its arguments (engine GAMES
    # SECONDS BOARD), or no arguments for every part with its defaults
    parts = {"rules": rules, "width": width, "solver": solver, "engine": engine,
             "early": early, "bounds": bounds}
    if len(sys.argv) > 1 and sys.argv[1] not in parts:
        print(__doc__)
        sys.exit(0 if sys.argv[1] in ("-h", "--help") else 2)
    print(f"load average {os.getloadavg()[0]:.1f}")
    if len(sys.argv) > 1:
        parts[sys.argv[1]](*sys.argv[2:])
    else:
        for w in parts.values():
            w()
