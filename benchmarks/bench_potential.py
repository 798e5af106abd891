"""CP-SAT potential benchmark: seconds per potential and per full map, mid and late game.

Run: python3 benchmarks/bench_potential.py [--rounds 6,9,12,14] [--rules basic,advanced]
         [--games 3] [--no-map] [--solver]

Positions, per rule (Basic with 5+5 neutrals, Advanced with 4+4): the rulebook
example game (rules.md) replayed under that rule, and ``--games`` games played by
the greedy policy below, each cut after rounds 6, 9, 12 and 14.

Greedy policy (simple, deterministic per seed): for each empty point p,
gain(p) = 2 * (own score with a stone on p - own score now)
        + (opponent's score with a stone on p - opponent's score now);
the stone goes on the best gain, ties broken by a seeded random draw (hashlib).
Then, with neutrals left and from round 3 on, with probability 0.4 (seeded) a
neutral goes on the empty point where an opponent stone would gain most.

Prints one row per (position, side): potential, seconds, proven, score_bound and
quick_bound with their seconds; then per position the full map (side to move):
seconds and CP-SAT solves; then medians and worst per rule. ``--solver`` also
measures the endgame solver's nodes with and without ``score_caps`` from
:func:`szsolver.bounds.bounds.score_bound` on benchmarks/solver_positions.txt.
CP-SAT runs with fixed parameters (szsolver.bounds.model.NUM_WORKERS, RANDOM_SEED).

Random positions (``--random``): benchmarks/potential_positions_random.txt, made by
``--make-random`` (``--check-random`` regenerates it and compares): per rule and per
round 2..16, ``RANDOM_PER_CELL`` games of uniformly random legal play (every legal
turn of ``Position.legal_turns()`` equally likely, neutral turns included; neutral
supplies 0..7 per side drawn at the start; seeds from rules/seeds), stopped after
that round. Measured as ``szsolver potential --side both`` does it: both sides'
potentials per position, CPU seconds (process time: every CP-SAT thread of this
process) and wall seconds; a cap ``--cap`` of CPU seconds per position (default 300 s:
Red's solve may use it all, Blue's the rest) marks the positions it stops. ``--random --set greedy`` measures the
greedy-game positions above the same way. ``--variants old,new`` runs several model variants (see
``VARIANTS``) on each position, alternating their order, and checks that they agree
on every proven value. Subsets: ``--subset b-r02,a-r1`` (name substrings),
``--every K``, ``--limit N``; ``--games-range 10:40`` measures more games of the
same recipe than the file holds (generated, not read).
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from szsolver.bounds import bounds as B, potential as P
from szsolver.formats.notation import parse_turn
from szsolver.rules.base import ADVANCED, BASIC, encode_turn
from szsolver.rules.reference import Position
from szsolver.rules.seeds import playout_rng_v1

EXAMPLE = ["44n66", "64", "41", "54", "14", "28", "34n24", "84", "96", "95", "46n85", "65", "74", "76", "86", "87", "72", "82", "52", "51", "36", "62", "45n25", "73n32", "58", "42n75", "59", "78n35", "38", "48", "27", "69"]


rng_for = playout_rng_v1


def example_positions(rule, rounds):
    p = Position(red_neutrals=5 if rule == BASIC else 4, blue_neutrals=5 if rule == BASIC else 4,
                 rule=rule)
    out = {}
    for i, t in enumerate(EXAMPLE):
        p.play(parse_turn(t))
        if (i + 1) % 2 == 0 and (i + 1) // 2 in rounds:
            out[(i + 1) // 2] = p.copy()
    return out


def _score_with(p, side, point):
    q = p.copy()
    if side == 0:
        q.red |= 1 << point
    else:
        q.blue |= 1 << point
    return q.score(side)


def greedy_positions(rule, rounds, seed):
    rng = rng_for("bench_potential", rule, seed)
    n = 5 if rule == BASIC else 4
    p = Position(red_neutrals=n, blue_neutrals=n, rule=rule)
    out = {}
    for turn in range(2 * max(rounds)):
        me, op = p.side, 1 - p.side
        empties = [q for q in range(p.geometry.size) if p.empty >> q & 1]
        mine, theirs = p.score(me), p.score(op)
        gains = {q: 2 * (_score_with(p, me, q) - mine) + (_score_with(p, op, q) - theirs)
                 for q in empties}
        best = max(gains.values())
        stone = rng.choice([q for q in empties if gains[q] == best])
        neutral = -1
        if p.neutrals_left(me) and turn >= 4 and rng.random() < 0.4:
            opp_gain = {q: _score_with(p, op, q) - theirs for q in empties if q != stone}
            top = max(opp_gain.values())
            neutral = min(q for q in opp_gain if opp_gain[q] == top)
        p.play(encode_turn(stone, neutral))
        if (turn + 1) % 2 == 0 and (turn + 1) // 2 in rounds:
            out[(turn + 1) // 2] = p.copy()
    return out


RANDOM_FILE = os.path.join(HERE, "potential_positions_random.txt")
RANDOM_PER_CELL = 10
RANDOM_ROUNDS = range(2, 17)

#: Model variants for ``--variants``: options of szsolver.bounds.model.OPTIONS.
#: ``old`` is the model as it was before the balance constraints (presolve on).
VARIANTS = {
    "old": {"balance": False, "presolve": True, "search": False},
    "new": {},
    # single levers, for experiments
    "no-search": {"search": False},
    "no-balance": {"balance": False},
    "presolve": {"presolve": True},
}


def random_position(rule, rnd, index):
    """Uniformly random legal play: neutral supplies 0..7 per side, then ``rnd`` rounds
    of turns drawn uniformly from all legal turns (stone alone or with a neutral)."""
    rng = rng_for("potential_positions_random", rule, rnd, index)
    p = Position(red_neutrals=rng.randint(0, 7), blue_neutrals=rng.randint(0, 7), rule=rule)
    for _ in range(2 * rnd):
        p.play(rng.choice(sorted(p.legal_turns())))
    return p


def random_set_lines():
    from szsolver.formats.notation import position_string
    lines = ["# Positions for benchmarks/bench_potential.py --random (written by its",
             "# --make-random): uniformly random legal play, every legal turn equally likely,",
             "# neutral supplies 0..7 per side, stopped after rounds 2..16, both rules.",
             "# name (rule initial - round - game) | position string"]
    for rule in (BASIC, ADVANCED):
        for rnd in RANDOM_ROUNDS:
            for i in range(RANDOM_PER_CELL):
                pos = random_position(rule, rnd, i)
                lines.append(f"{'ba'[rule]}-r{rnd:02d}-{i:02d} | {position_string(pos)}")
    return lines


def read_random_set(path=RANDOM_FILE):
    from szsolver.formats.notation import parse_position
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, text = (x.strip() for x in line.split("|"))
                out.append((name, parse_position(text, backend=Position)))
    return out


def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _set_options(options):
    """Apply model options (a VARIANTS entry); returns the saved ones. Models from
    before ``OPTIONS`` existed run only the empty variant."""
    from szsolver.bounds import model as M
    current = getattr(M, "OPTIONS", None)
    if current is None:
        if options:
            sys.exit("this model has no OPTIONS: only the variant 'new' ({}) runs")
        return None
    saved = dict(current)
    current.update(options)
    return saved


def _restore_options(saved):
    from szsolver.bounds import model as M
    if saved is not None:
        M.OPTIONS.clear()
        M.OPTIONS.update(saved)


_CPU_DEADLINE = [None]   # process-time deadline of the solve running now (both_sides)


def _cpu_capped_solver():
    """Make every CP-SAT solve stop (as a time limit does) once this process's CPU time
    passes ``_CPU_DEADLINE``: on a shared machine a wall-clock cap would stop
    positions by the load, not by their work."""
    import threading
    from szsolver import interrupt
    base = interrupt.CpSolver
    if getattr(base, "cpu_capped", False):
        return

    class CpuCapped(base):
        cpu_capped = True

        def solve(self, model, solution_callback=None):
            done = threading.Event()

            def watch():
                while not done.wait(0.02):
                    if _CPU_DEADLINE[0] is not None and time.process_time() > _CPU_DEADLINE[0]:
                        self.stop_search()
                        return
            w = threading.Thread(target=watch, daemon=True)
            w.start()
            try:
                return super().solve(model, solution_callback)
            finally:
                done.set()
                w.join()
        Solve = solve
    interrupt.CpSolver = CpuCapped


def both_sides(pos, cap, options):
    """Both sides' potentials under the model options ``options``, as
    ``potential --side both`` computes them, within ``cap`` CPU seconds for the
    position (Red's solve may use them all, Blue's what is left; a wall-clock limit of
    20 times that guards against a stalled machine). Returns (results, CPU s, wall s)."""
    _cpu_capped_solver()
    saved = _set_options(options)
    try:
        c, w = time.process_time(), time.perf_counter()
        _CPU_DEADLINE[0] = c + cap
        res = [P.potential(pos, side, time_limit=20 * cap) for side in (0, 1)]
        return res, time.process_time() - c, time.perf_counter() - w
    finally:
        _CPU_DEADLINE[0] = None
        _restore_options(saved)


def greedy_set(rounds=(6, 9, 12, 14), games=3):
    """The positions of the greedy-game section, named like the random set:
    ``b-example-r06``, ``a-greedy2-r14``, ..."""
    out = []
    for rule in (BASIC, ADVANCED):
        sets = [("example", example_positions(rule, rounds))]
        sets += [(f"greedy{s}", greedy_positions(rule, rounds, s)) for s in range(1, games + 1)]
        for gname, by_round in sets:
            out += [(f"{'ba'[rule]}-{gname}-r{rnd:02d}", by_round[rnd]) for rnd in rounds]
    return out


def random_section(a):
    if a.set == "greedy":
        todo = greedy_set(games=a.games)
    elif a.games_range:
        # more games of the same recipe than the file holds (a search for outliers)
        lo, hi = (int(x) for x in a.games_range.split(":"))
        todo = [(f"{'ba'[rule]}-r{rnd:02d}-{i:02d}", random_position(rule, rnd, i))
                for rule in (BASIC, ADVANCED) for rnd in RANDOM_ROUNDS for i in range(lo, hi)]
    elif not os.path.exists(RANDOM_FILE):
        sys.exit(f"{RANDOM_FILE} is missing: run with --make-random")
    else:
        todo = read_random_set()
    if a.subset:
        keys = a.subset.split(",")
        todo = [(n, p) for n, p in todo if any(k in n for k in keys)]
    todo = todo[::a.every][:a.limit]
    names = a.variants.split(",")
    print(f"{len(todo)} positions, cap {a.cap} s per position, variants {names}; "
          f"per variant: value red/blue ('!' not proven), CPU s, wall s")
    rec = {v: [] for v in names}   # (name, cpu, wall, capped)
    for i, (name, pos) in enumerate(todo):
        order = names if i % 2 == 0 else names[::-1]
        got = {}
        for v in order:
            res, cpu, wall = both_sides(pos, a.cap, VARIANTS[v])
            got[v] = res
            rec[v].append((name, cpu, wall, not all(r.proven for r in res)))
        cols = []
        for v in names:
            _, cpu, wall, capped = rec[v][-1]
            vals = "/".join(f"{r.potential}{'' if r.proven else '!'}" for r in got[v])
            cols.append(f"{v} {vals:>7} {cpu:7.3f} {wall:7.3f}")
        print(f"{name:10} " + "   ".join(cols), flush=True)
        for side in (0, 1):
            proven = [got[v][side].potential for v in names if got[v][side].proven]
            assert len(set(proven)) <= 1, (name, side, proven)
    for v in names:
        print(f"\nVariant {v}: seconds per position (both sides), CPU / wall")
        print(f"{'rule':9} {'n':>4} {'median':>15} {'p90':>15} {'worst':>15} {'>1 s':>5} "
              f"{'>5 s':>5} {'capped':>6}")
        for rule in "ba":
            rows = [r for r in rec[v] if r[0].startswith(rule)]
            if not rows:
                continue
            cpu = [r[1] for r in rows]
            wall = [r[2] for r in rows]
            worst = max(rows, key=lambda r: r[1])
            print(f"{('basic', 'advanced')['ba'.index(rule)]:9} {len(rows):>4} "
                  f"{statistics.median(cpu):7.3f}/{statistics.median(wall):7.3f} "
                  f"{_pct(cpu, 0.9):7.3f}/{_pct(wall, 0.9):7.3f} "
                  f"{max(cpu):7.3f}/{max(wall):7.3f} {sum(c > 1 for c in cpu):>5} "
                  f"{sum(c > 5 for c in cpu):>5} {sum(r[3] for r in rows):>6}"
                  f"  worst {worst[0]}")
        if a.set != "random":
            continue
        print("per round: median / worst CPU s (basic | advanced)")
        for rnd in RANDOM_ROUNDS:
            cells = []
            for rule in "ba":
                cpu = [r[1] for r in rec[v] if r[0].startswith(f"{rule}-r{rnd:02d}")]
                cells.append(f"{statistics.median(cpu):6.3f} / {max(cpu):6.3f}" if cpu
                             else f"{'-':>15}")
            print(f"  r{rnd:02d}  " + "  |  ".join(cells))


CLOCK = [time.perf_counter]   # --cpu: time.process_time


def timed(f, *a, **k):
    clock = CLOCK[0]
    t = clock()
    r = f(*a, **k)
    return r, clock() - t


def solver_section(depths):
    from szsolver.rules import _core
    from szsolver.formats.notation import parse_position
    from szsolver.endgame.solver import solve
    path = os.path.join(HERE, "solver_positions.txt")
    print("\nEndgame solver with and without score_caps = (score_bound(red), score_bound(blue))")
    print("floors = (score_floor(red), score_floor(blue)); the last column is the value")
    print("interval those four numbers prove at the root (solve() takes caps only)")
    print(f"{'position':24} {'caps':>8} {'floors':>8} {'nodes':>11} {'nodes+caps':>11} {'s':>7} "
          f"{'s+caps':>7} {'bound s':>7} {'value':>6} interval")
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, depth, text = (x.strip() for x in line.split("|"))
            if int(depth) not in depths:
                continue
            pos = parse_position(text, backend=_core.Position)
            (caps, tb) = timed(lambda p=pos: (B.score_bound(p, 0), B.score_bound(p, 1)))
            floors = (B.score_floor(pos, 0), B.score_floor(pos, 1))
            r0, t0 = timed(solve, pos, pv=False)
            r1, t1 = timed(solve, pos, pv=False, score_caps=caps)
            assert r0.value == r1.value, (name, r0.value, r1.value)
            lo = 100 * (floors[0] - caps[1]) - 7
            hi = 100 * (caps[0] - floors[1]) + 7
            print(f"{name:24} {caps!s:>8} {floors!s:>8} {r0.nodes:>11,} {r1.nodes:>11,} "
                  f"{t0:7.2f} {t1:7.2f} {tb:7.2f} {r0.value:>6} [{lo:+d}, {hi:+d}]", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", default="6,9,12,14")
    ap.add_argument("--rules", default="basic,advanced")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--no-map", action="store_true")
    ap.add_argument("--solver", action="store_true")
    ap.add_argument("--solver-depths", default="4,6")
    ap.add_argument("--solver-only", action="store_true")
    ap.add_argument("--random", action="store_true",
                    help="measure potential_positions_random.txt (both sides per position)")
    ap.add_argument("--make-random", action="store_true", help="(re)write that file")
    ap.add_argument("--check-random", action="store_true",
                    help="regenerate the file in memory and compare")
    ap.add_argument("--cap", type=float, default=300.0,
                    help="CPU seconds per position, both sides")
    ap.add_argument("--games-range", default="",
                    help="--random on games LO:HI of the recipe instead of the file's 0:10")
    ap.add_argument("--set", choices=("random", "greedy"), default="random",
                    help="--random on the random set or the greedy-game positions")
    ap.add_argument("--variants", default="new", help=f"of {', '.join(VARIANTS)}")
    ap.add_argument("--subset", default="", help="name substrings, comma-separated")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--variant", default="new",
                    help="model variant for the greedy-game section (see VARIANTS)")
    ap.add_argument("--cpu", action="store_true",
                    help="greedy-game section: CPU seconds instead of wall seconds")
    ap.add_argument("--limit", type=int, default=None)
    a = ap.parse_args()
    if a.make_random or a.check_random:
        lines = random_set_lines()
        if a.make_random:
            with open(RANDOM_FILE, "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
            print(f"wrote {len(lines) - 4} positions to {RANDOM_FILE}")
        else:
            with open(RANDOM_FILE, encoding="utf-8") as f:
                same = f.read() == "\n".join(lines) + "\n"
            print("identical" if same else "DIFFERENT")
            sys.exit(0 if same else 1)
        return
    if a.random:
        random_section(a)
        return
    _set_options(VARIANTS[a.variant])
    if a.cpu:
        CLOCK[0] = time.process_time
    rounds = [int(x) for x in a.rounds.split(",")]
    rules = [{"basic": BASIC, "advanced": ADVANCED}[r] for r in a.rules.split(",")]
    stats = {}
    if a.solver_only:
        solver_section({int(d) for d in a.solver_depths.split(",")})
        return
    print(f"{'position':22} {'side':4} {'pot':>3} {'proven':>6} {'pot s':>7} {'bound':>5} "
          f"{'bound s':>7} {'quick':>5} {'quick ms':>8} {'map s':>7} {'solves':>6}")
    for rule in rules:
        rname = ("basic", "advanced")[rule]
        sets = [("example", example_positions(rule, rounds))]
        sets += [(f"greedy{s}", greedy_positions(rule, rounds, s)) for s in range(1, a.games + 1)]
        st = stats.setdefault(rname, {"pot": [], "map": [], "bound": [], "quick": [],
                                      "tight": 0, "n": 0})
        for gname, by_round in sets:
            for rnd in rounds:
                pos = by_round[rnd]
                for side in (0, 1):
                    res, tp = timed(P.potential, pos, side)
                    b, tb = timed(B.score_bound, pos, side)
                    q, tq = timed(B.quick_bound, pos, side)
                    st["pot"].append(tp)
                    st["bound"].append(tb)
                    st["quick"].append(tq)
                    st["n"] += 1
                    st["tight"] += q == b
                    map_cols = ""
                    if side == pos.side and not a.no_map:
                        mp, tm = timed(P.potential_map, pos, side)
                        st["map"].append(tm)
                        map_cols = f" {tm:7.2f} {mp.solves:>6}"
                    print(f"{rname[:3]}-{gname}-r{rnd:<8} {'RB'[side]:4} {res.potential:>3} "
                          f"{res.proven!s:>6} {tp:7.3f} {b:>5} {tb:7.3f} {q:>5} "
                          f"{tq * 1000:8.2f}{map_cols}", flush=True)
    print("\nSummary (seconds)")
    print(f"{'rule':9} {'potential median':>16} {'worst':>7} {'map median':>10} {'worst':>7} "
          f"{'bound median':>12} {'worst':>7} {'quick==bound':>12}")
    for rname, st in stats.items():
        mm = f"{statistics.median(st['map']):10.2f} {max(st['map']):7.2f}" if st["map"] else \
            f"{'-':>10} {'-':>7}"
        print(f"{rname:9} {statistics.median(st['pot']):16.3f} {max(st['pot']):7.3f} {mm} "
              f"{statistics.median(st['bound']):12.3f} {max(st['bound']):7.3f} "
              f"{st['tight']:>5}/{st['n']:<6}")
    if a.solver or a.solver_only:
        solver_section({int(d) for d in a.solver_depths.split(",")})


if __name__ == "__main__":
    main()
