"""Write benchmarks/solver_positions.txt: fixed endgame positions for bench_solver.py.

Run: python3 benchmarks/make_solver_positions.py [--sets main,random,selfplay]
     (deterministic; rewrites the files)

Sources, for each rule (Basic with 5+5 neutrals, Advanced with 4+4):
* the rulebook example game (rules.md) at 2, 4, 6 and 8 turns left. Under the
  Advanced rule the same turns are replayed with 4+4 neutrals: the game uses only
  4 (Red) and 3 (Blue) neutrals, so nothing has to be dropped (a neutral a side
  could no longer afford would be dropped; none is);
* four games played by the greedy policy below (seeds 1-4), cut at the same points;
* the example game and the greedy games also at 9 and 10 turns left (the horizon
  the solver is pushed towards; these need a limit).

A second file, benchmarks/solver_positions_random.txt, holds random-play positions:
per rule, ``RANDOM_GAMES`` games whose stones go on uniformly random empty points
(seeded per rule and game through rules.seeds), with no neutral spent, so both
sides still hold their whole supply (Basic 5+5, Advanced 4+4) at the cut: the
position a new user who pastes a random game meets. Each game is cut at 6 and at 8
turns left (and at 4, 5 and 7, where the Advanced levers and the horizon show).

A third file, benchmarks/solver_positions_selfplay.txt, holds engine self-play
positions: per rule, ``SELFPLAY_GAMES`` games of the engine against itself
(``Engine(SELFPLAY_SECONDS)``, a fixed budget of iterations and solver nodes, so the
games are the same on every machine; each side's seed from the rule, the game and the
side), cut at 6, 7, 8, 9 and 10 turns left. The engine spends its neutrals sparingly
early on, so these positions hold most of both supplies, like random play, but their
stones stand where a player would put them. Writing them takes a few minutes
(``--sets selfplay`` writes this file alone).

Greedy policy (deliberately simple, deterministic per seed): for each empty point
p, gain(p) = 2 * (own score with a stone on p - own score now)
           + (opponent's score with a stone on p - opponent's score now),
the second term standing for "taking p denies it to the opponent". The stone goes
on the best gain, ties broken by a seeded random draw. Then, with neutrals left,
a neutral goes on the opponent's most valuable other point q (largest opponent
gain from a stone on q) when that gain is at least 1 point and a seeded coin
(probability 0.4) says so; never in the first two rounds. This uses about 3-5
neutrals per side, like the rulebook game.
"""
import argparse
import os

from szsolver.rules import _core
from szsolver.formats.notation import parse_turn, position_string
from szsolver.rules.base import ADVANCED, BASIC, encode_turn
from szsolver.rules.reference import Position as Ref
from szsolver.rules.seeds import playout_rng_v1

EXAMPLE_TURNS = ("44n66 64 41 54 14 28 34n24 84 96 95 46n85 65 74 76 86 87 72 82 52 51 "
                 "36 62 45n25 73n32 58 42n75 59 78n35 38 48 27 69").split()
DEPTHS = (2, 4, 6, 8, 9, 10)
RANDOM_DEPTHS = (4, 5, 6, 7, 8)
RANDOM_GAMES = 10
SELFPLAY_DEPTHS = (6, 7, 8, 9, 10)
SELFPLAY_GAMES = 10
SELFPLAY_SECONDS = 0.25
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "solver_positions.txt")
OUT_RANDOM = os.path.join(HERE, "solver_positions_random.txt")
OUT_SELFPLAY = os.path.join(HERE, "solver_positions_selfplay.txt")


rng_for = playout_rng_v1  # the values written to solver_positions.txt depend on this recipe


def example_game(rule, neutrals):
    p = _core.Position(red_neutrals=neutrals, blue_neutrals=neutrals, rule=rule)
    out = [p.copy()]
    for t in EXAMPLE_TURNS:
        turn = parse_turn(t)
        if turn >> 6 and p.neutrals_left(p.side) == 0:
            turn &= 63
        p.play(turn)
        out.append(p.copy())
    return out


def greedy_game(rule, neutrals, seed):
    rng = rng_for("greedy", rule, neutrals, seed)
    p = _core.Position(red_neutrals=neutrals, blue_neutrals=neutrals, rule=rule)
    out = [p.copy()]
    while not p.is_over():
        me, op = p.side, p.side ^ 1
        empties = [q for q in range(p.geometry.size) if p.empty >> q & 1]
        base_me, base_op = p.score(me), p.score(op)
        opgain = {}
        best, best_key = None, None
        for q in empties:
            a = score_with(p, me, q) - base_me
            b = score_with(p, op, q) - base_op
            opgain[q] = b
            key = (2 * a + b, rng.random())
            if best_key is None or key > best_key:
                best, best_key = q, key
        neutral = -1
        if p.neutrals_left(me) and p.ply >= 4:
            cands = sorted((q for q in empties if q != best), key=lambda q: (-opgain[q], q))
            if cands and opgain[cands[0]] >= 1 and rng.random() < 0.4:
                neutral = cands[0]
        p.play(encode_turn(best, neutral))
        out.append(p.copy())
    return out


def random_game(rule, neutrals, index):
    """Stones on uniformly random empty points, no neutral spent (both supplies stay in hand)."""
    rng = rng_for("solver_positions_random", rule, neutrals, index)
    p = _core.Position(red_neutrals=neutrals, blue_neutrals=neutrals, rule=rule)
    out = [p.copy()]
    while not p.is_over():
        empties = [q for q in range(p.geometry.size) if p.empty >> q & 1]
        p.play(encode_turn(rng.choice(empties), -1))
        out.append(p.copy())
    return out


def selfplay_game(rule, neutrals, index):
    """The engine against itself (the players of ``szsolver selfplay``): every position."""
    from szsolver.engine.players import EnginePlayer, play_game
    from szsolver.engine.search import Engine
    red, blue = (EnginePlayer(Engine(SELFPLAY_SECONDS, seed=(
        "solver_positions_selfplay", rule, neutrals, index, side))) for side in (0, 1))
    start = _core.Position(red_neutrals=neutrals, blue_neutrals=neutrals, rule=rule)
    game = play_game(red, blue, start)
    return [game.position_before(i) for i in range(len(game.turns))] + [game.final]


def score_with(p, side, q):
    """The side's score with one more own stone on q (everything else unchanged)."""
    r = Ref.__new__(Ref)                 # unchecked: stone counts need not fit
    r.__dict__.update(geometry=p.geometry, red=p.red, blue=p.blue, neutral=p.neutral,
                      red_neutrals=p.red_neutrals, blue_neutrals=p.blue_neutrals,
                      side=p.side, rule=p.rule, stones_per_side=p.stones_per_side)
    if side == 0:
        r.red |= 1 << q
    else:
        r.blue |= 1 << q
    return r.score(side)


def write_main():
    lines = ["# Fixed endgame positions for benchmarks/bench_solver.py (written by",
             "# make_solver_positions.py; see its docstring for sources and the greedy policy).",
             "# name | turns left | position string"]
    for rule, neutrals in ((BASIC, 5), (ADVANCED, 4)):
        rname = ("basic", "advanced")[rule]
        games = [("example", example_game(rule, neutrals))]
        games += [(f"greedy{s}", greedy_game(rule, neutrals, s)) for s in (1, 2, 3, 4)]
        for name, states in games:
            final = states[-1]
            used = (neutrals - final.red_neutrals, neutrals - final.blue_neutrals)
            lines.append(f"# {rname} {name}: final {final.scores()}, neutrals used {used}")
            for d in DEPTHS:
                lines.append(f"{rname}-{name}-{d} | {d} | {position_string(states[32 - d])}")
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {OUT}")


def write_random():
    lines = ["# Random-play endgame positions for benchmarks/bench_solver.py --set random",
             "# (written by make_solver_positions.py: stones on uniformly random empty points,",
             "# no neutral spent, so both sides hold their whole supply at the cut).",
             "# name | turns left | position string"]
    for rule, neutrals in ((BASIC, 5), (ADVANCED, 4)):
        rname = ("basic", "advanced")[rule]
        for i in range(RANDOM_GAMES):
            states = random_game(rule, neutrals, i)
            for d in RANDOM_DEPTHS:
                lines.append(f"{rname}-random{i}-{d} | {d} | {position_string(states[32 - d])}")
    with open(OUT_RANDOM, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {OUT_RANDOM}")


def write_selfplay():
    lines = ["# Engine self-play endgame positions for benchmarks/bench_solver.py --set selfplay",
             f"# (written by make_solver_positions.py: Engine({SELFPLAY_SECONDS}) against itself,",
             "# seeded per rule, game and side; neutrals left are in each position string).",
             "# name | turns left | position string"]
    for rule, neutrals in ((BASIC, 5), (ADVANCED, 4)):
        rname = ("basic", "advanced")[rule]
        for i in range(SELFPLAY_GAMES):
            states = selfplay_game(rule, neutrals, i)
            for d in SELFPLAY_DEPTHS:
                lines.append(f"{rname}-selfplay{i}-{d} | {d} | {position_string(states[32 - d])}")
            print(rname, i, position_string(states[32 - min(SELFPLAY_DEPTHS)]), flush=True)
    with open(OUT_SELFPLAY, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {OUT_SELFPLAY}")


WRITERS = {"main": write_main, "random": write_random, "selfplay": write_selfplay}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=",".join(WRITERS),
                    help="comma-separated files to write: " + ",".join(WRITERS))
    for name in ap.parse_args().sets.split(","):
        if name not in WRITERS:
            ap.error(f"unknown set {name!r}: use " + ", ".join(WRITERS))
        WRITERS[name]()


if __name__ == "__main__":
    main()
