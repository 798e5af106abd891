"""The engine's calibration set: positions beyond the exact solver's default horizon
(9 and 10 turns left) with their values proved once, and the engine measured on them.

Run: python3 benchmarks/calibration.py prove [--time-limit S] [--names SUB] [--sources A,B]
     python3 benchmarks/calibration.py measure [--factor F] [--prove-limit S] [--names SUB]
         [--parts best,check,engine] [--json FILE]
     python3 benchmarks/calibration.py seeds [--seeds 0,1,2,3] [--factor 1]
         [--option NAME=VALUE] [--constant NAME=VALUE]

Positions, both rules, each at 9 and 10 turns left (``uniform`` also at 11 and 12), with
the turn its game played next:
* ``example``: the rulebook example game; ``greedy1``-``greedy4``: the greedy games of
  make_solver_positions.py (neutrals kept, close scores);
* ``selfplay0``-``selfplay2``: its engine self-play games (most of both supplies in hand);
* ``opening0``-``opening2``: random openings followed by good play: 12 uniformly random
  legal turns (every legal turn equally likely, so neutrals go early), then the engine
  against itself at ``Engine(0.25)``, seeded through rules.seeds;
* ``uniform0``-``uniform2``: uniformly random legal play from the first turn to the
  last (the supplies spent early, the scores often close), seeded the same way: the
  inputs least like the engine's own games.

``prove`` proves, per position, with one transposition table
(``analysis.check.turn_facts``): the value after the played turn, the value, and
every optimal turn; it stores them in calibration_positions.json, written after each
position, so an interrupted run resumes where it stopped. A position not proved within
``--time-limit`` keeps its proved bounds and stays out of the measure (a later run with
a longer limit tries it again).

``measure`` runs, on every proved position, at the commands' default budgets and at
``--factor`` times them:
* ``best`` (``Engine(S, bounds=True)``, S = 1 s): is its turn optimal (in the proved
  set), its loss (the value after its turn is proved once, then stored beside the
  position), and the error of its value estimate against the proved value;
* ``check`` on the played turn as a user runs it (its engine at S = 2 s; at 9 turns
  left it also proves the value after the played turn, 8 turns left, with the solver)
  and, at the default budget, with the solver off (the engine's verdict alone, beside
  the CP-SAT bounds): the verdicts against the proved ones (the confusion matrix), and
  how often a proved optimal turn is called a mistake or a blunder.
``seeds`` runs ``best`` alone on the positions with every optimal turn proved, for
several engine seeds, with a tree option or an ``engine.search`` constant changed if
asked: a lever read past one seed's luck (no proving).
``--parts`` measures only some of the three (``best``, ``check``, ``engine``: check
with the solver off); a change to ``check`` alone needs no new ``best`` figures.
Everything the engine does is fixed work, so the measure gives the same figures on
every run and machine; only its seconds vary.
"""
import argparse
import json
import os
import statistics
import sys
import time

from szsolver.analysis.check import MIN_EXACT_TURNS, check, solver_facts, turn_facts
from szsolver.engine.search import COMMAND_START, DEFAULT_SECONDS, Engine
from szsolver.formats.notation import format_turn, parse_position, parse_turn, position_string
from szsolver.rules import _core
from szsolver.rules.base import ADVANCED, BASIC, RED
from szsolver.rules.seeds import playout_rng_v1
from szsolver.verdict import VERDICTS, classify

import make_solver_positions as mk
from stats import rate

HERE = os.path.dirname(os.path.abspath(__file__))
STORE = os.path.join(HERE, "calibration_positions.json")
DEPTHS = (10, 9)
UNIFORM_DEPTHS = (12, 11, 10, 9)
UNIFORM_GAMES = 3
OPENING_TURNS = 12
OPENING_GAMES = 3
OPENING_SECONDS = 0.25
SELFPLAY_GAMES = 3
GREEDY_SEEDS = (1, 2, 3, 4)
CHECK_SECONDS = 2.0          # check's engine budget by default (analysis.check.ENGINE_SECONDS)
RULES = ((BASIC, 5, "basic"), (ADVANCED, 4, "advanced"))
PARTS = ("best", "check", "engine")


def opening_game(rule, neutrals, index):
    """A random opening, then the engine against itself: every position of the game."""
    from szsolver.engine.players import EnginePlayer, play_game
    rng = playout_rng_v1("calibration opening", rule, neutrals, index)
    p = _core.Position(red_neutrals=neutrals, blue_neutrals=neutrals, rule=rule)
    states = [p.copy()]
    for _ in range(OPENING_TURNS):
        p.play(rng.choice(sorted(p.legal_turns())))
        states.append(p.copy())
    red, blue = (EnginePlayer(Engine(OPENING_SECONDS, seed=(
        "calibration opening", rule, neutrals, index, side))) for side in (0, 1))
    game = play_game(red, blue, p.copy())
    states += [game.position_before(i) for i in range(1, len(game.turns))] + [game.final]
    return states


def uniform_game(rule, neutrals, index):
    """Uniformly random legal play (every legal turn equally likely) to the end: every
    position of the game."""
    rng = playout_rng_v1("calibration uniform", rule, neutrals, index)
    p = _core.Position(red_neutrals=neutrals, blue_neutrals=neutrals, rule=rule)
    states = [p.copy()]
    while not p.is_over():
        p.play(rng.choice(sorted(p.legal_turns())))
        states.append(p.copy())
    return states


def games():
    """(name, rule name, states) for every source game, in the set's order."""
    for rule, neutrals, rname in RULES:
        yield "example", rname, mk.example_game(rule, neutrals)
        for s in GREEDY_SEEDS:
            yield f"greedy{s}", rname, mk.greedy_game(rule, neutrals, s)
        for i in range(SELFPLAY_GAMES):
            yield f"selfplay{i}", rname, mk.selfplay_game(rule, neutrals, i)
        for i in range(OPENING_GAMES):
            yield f"opening{i}", rname, opening_game(rule, neutrals, i)
        for i in range(UNIFORM_GAMES):
            yield f"uniform{i}", rname, uniform_game(rule, neutrals, i)


def turn_between(a, b):
    """The turn that takes position ``a`` to ``b``."""
    want = position_string(b)
    for t in a.legal_turns():
        c = a.copy()
        c.make(t)
        if position_string(c) == want:
            return t
    raise ValueError(f"no turn leads from {position_string(a)} to {want}")


def positions():
    """The set: dicts with name, source, rule, turns_left, position, played."""
    out = []
    for game, rname, states in games():
        assert len(states) == 33, (game, rname, len(states))
        for d in (UNIFORM_DEPTHS if game.startswith("uniform") else DEPTHS):
            a, b = states[32 - d], states[33 - d]
            out.append({"name": f"{rname}-{game}-{d}", "source": game.rstrip("0123456789"),
                        "rule": rname, "turns_left": d, "position": position_string(a),
                        "played": format_turn(turn_between(a, b))})
    return out


def load_store():
    if not os.path.exists(STORE):
        return {}
    with open(STORE, encoding="utf-8") as f:
        return {e["name"]: e for e in json.load(f)["positions"]}


def save_store(entries):
    data = {"about": "Proved values for benchmarks/calibration.py (its docstring says how "
                     "they were made). value: the exact value (Red's side, composite); best: "
                     "every optimal turn; turns: the proved value after each turn listed.",
            "positions": list(entries.values())}
    tmp = STORE + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, STORE)


def core_of(entry):
    return parse_position(entry["position"], backend=_core.Position)


def prove(a):
    store = load_store()
    todo = [e for e in positions() if (not a.names or a.names in e["name"])
            and (not a.sources or e["source"] in a.sources.split(","))]
    for e in todo:
        old = store.get(e["name"])
        if old and (old.get("best") is not None or old.get("limit", 0) >= a.time_limit):
            continue
        pos = core_of(e)
        played = parse_turn(e["played"])
        t, c = time.perf_counter(), time.process_time()
        before, after = turn_facts(pos, played, time_limit=a.time_limit)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        entry = dict(e, turns={}, limit=a.time_limit, wall_s=round(wall, 1), cpu_s=round(cpu, 1))
        if after.lower == after.upper:
            entry["turns"][e["played"]] = after.lower
        if before.lower == before.upper:
            # best: every optimal turn, or None where the limit struck before they were all proved
            best = [format_turn(x) for x in before.best] if before.exact else None
            entry.update(value=before.lower, best=best)
            what = f"value {before.lower:+d}, " + (
                f"{len(best)} optimal turns" if best else "optimal turns not all proved")
        else:
            entry.update(value=None, lower=before.lower, upper=before.upper,
                         stopped=before.stopped)
            what = f"not proved: {before.lower:+d}..{before.upper:+d} ({before.stopped})"
        store[e["name"]] = entry
        save_store(store)
        print(f"{e['name']:<24} {what}  {wall:.1f} s ({cpu:.1f} CPU s)", flush=True)


def value_after(entry, turn, limit, store):
    """The proved value after ``turn`` (text) at the entry's position, proving and storing
    it when missing; None when not proved within ``limit``."""
    if turn in entry["turns"]:
        return entry["turns"][turn]
    if turn in (entry["best"] or ()):
        return entry["value"]
    child = core_of(entry)
    child.make(parse_turn(turn))
    f = solver_facts(child, time_limit=limit)
    if not f.exact and f.lower != f.upper:
        return None
    entry["turns"][turn] = f.lower
    save_store(store)
    return f.lower


def measure_one(entry, factor, limit, store, parts=PARTS):
    pos = core_of(entry)
    mover, value = pos.side, entry["value"]
    played = parse_turn(entry["played"])
    out = {"name": entry["name"], "source": entry["source"]}
    for tag, k in (("1x", 1.0), (f"{factor:g}x", factor)):
        out[tag] = {}
        if "best" in parts:
            t = time.perf_counter()
            res = Engine(DEFAULT_SECONDS * k, bounds=True, spent=COMMAND_START).analyse(pos)
            secs = time.perf_counter() - t
            turn = format_turn(res.turn)
            after = value_after(entry, turn, limit, store)
            loss = None if after is None else classify(value, after, mover)[0]
            out[tag].update({
                "turn": turn, "loss": loss,
                "optimal": loss == 0 if entry["best"] is None else turn in entry["best"],
                "estimate": res.value, "error": abs(res.value - value),
                "best_seconds": round(secs, 2)})
        if "check" in parts:
            t = time.perf_counter()
            ch = check(pos, played, engine_seconds=CHECK_SECONDS * k)
            out[tag].update({"check_verdict": ch.verdict, "check_method": ch.method,
                             "check_proved": ch.verdict_proved,
                             "check_seconds": round(time.perf_counter() - t, 2)})
        if k == 1.0 and "engine" in parts:   # the engine's own verdict: the solver off, the CP-SAT bounds on
            out["engine_verdict"] = check(pos, played, engine_seconds=CHECK_SECONDS,
                                          exact_turns=MIN_EXACT_TURNS).verdict
    played_value = entry["turns"][entry["played"]]
    out["proved_verdict"] = classify(value, played_value, mover)[1]
    return out


def report(rows, factor, parts=PARTS):
    n = len(rows)
    for tag in ("1x", f"{factor:g}x"):
        r = [x[tag] for x in rows]
        print(f"\nbudget {tag}: best --time {DEFAULT_SECONDS * (1 if tag == '1x' else factor):g}, "
              f"check's engine {CHECK_SECONDS * (1 if tag == '1x' else factor):g} s")
        if "check" in parts:
            confusion(rows, lambda x: x[tag]["check_verdict"], "check")
            print(f"  check seconds (wall): median "
                  f"{statistics.median(x['check_seconds'] for x in r):.2f}, "
                  f"max {max(x['check_seconds'] for x in r):.2f}")
        if tag == "1x" and "engine" in parts:
            confusion(rows, lambda x: x["engine_verdict"], "check, solver off")
        if "best" not in parts:
            continue
        opt = sum(x["optimal"] for x in r)
        losses = [x["loss"] for x in r if x["loss"] is not None]
        errors = [x["error"] for x in r]
        print(f"  engine's turn optimal: {rate(opt, n)}")
        if losses:
            print(f"  loss of its turn: mean {statistics.mean(losses):.1f}, worst {max(losses)}"
                  f" ({n - len(losses)} not proved)")
        print(f"  value estimate: mean absolute error {statistics.mean(errors):.1f}, "
              f"worst {max(errors)}")
        print(f"  best seconds (wall): median {statistics.median(x['best_seconds'] for x in r):.2f},"
              f" max {max(x['best_seconds'] for x in r):.2f}")
    by_source(rows, factor, parts)


def by_source(rows, factor, parts):
    """Per source, at both budgets: the check's verdicts right and the engine's turn
    optimal (the sources differ in kind: uniform play is far easier to judge)."""
    sources = list(dict.fromkeys(x["source"] for x in rows))
    if len(sources) < 2:
        return
    print("\nby source")
    for src in sources:
        r = [x for x in rows if x["source"] == src]
        said = []
        for tag in ("1x", f"{factor:g}x"):
            what = []
            if "check" in parts:
                what.append(f"check right {sum(x[tag]['check_verdict'] == x['proved_verdict'] for x in r)}")
            if "best" in parts:
                worst = max((x[tag]["loss"] or 0) for x in r)
                what.append(f"turn optimal {sum(x[tag]['optimal'] for x in r)} (worst loss {worst})")
            said.append(f"{tag} " + ", ".join(what))
        print(f"  {src:<9} {len(r):>3} positions: " + "; ".join(said))


def confusion(rows, verdict, label):
    """The verdicts against the proved ones: agreement and the confusion matrix."""
    n = len(rows)
    agree = sum(verdict(x) == x["proved_verdict"] for x in rows)
    bad = sum(x["proved_verdict"] == "optimal" and verdict(x) in ("mistake", "blunder")
              for x in rows)
    print(f"  {label}: verdict = proved verdict {rate(agree, n)}; proved optimal called "
          f"a mistake or blunder: {bad}")
    print("    proved \\ said " + " ".join(f"{v:>10}" for v in VERDICTS))
    for pv in VERDICTS:
        cells = [sum(x["proved_verdict"] == pv and verdict(x) == cv for x in rows)
                 for cv in VERDICTS]
        print(f"    {pv:<13} " + " ".join(f"{c:>10}" for c in cells))


def measure(a):
    store = load_store()
    entries = [e for e in store.values() if e.get("value") is not None
               and (not a.names or a.names in e["name"])
               and (not a.sources or e["source"] in a.sources.split(","))]
    print(f"{len(entries)} proved positions of {len(store)} in the store")
    if not entries:
        sys.exit("Error: no proved position matches --names and --sources"
                 if a.names or a.sources else
                 "Error: no proved position in the store: run prove first")
    parts = a.parts.split(",")
    unknown = set(parts) - set(PARTS)
    if unknown:
        sys.exit(f"Error: unknown parts {', '.join(sorted(unknown))}: use {', '.join(PARTS)}")
    rows = []
    for e in entries:
        row = measure_one(e, a.factor, a.prove_limit, store, parts)
        rows.append(row)
        x = row["1x"]
        said = [f"{x['turn']:>6} {'optimal' if x['optimal'] else 'loss ' + str(x['loss']):<10}"
                f" est {x['estimate']:+5d} vs {e['value']:+5d}"] if "best" in parts else []
        if "check" in parts:
            more = row[f"{a.factor:g}x"]["check_verdict"]
            said.append(f"check {x['check_verdict']} ({more} at {a.factor:g}x)")
        print(f"{e['name']:<24} " + "  ".join(said) + f"  proved {row['proved_verdict']}",
              flush=True)
    report(rows, a.factor, parts)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)


def _number(text):
    return float(text) if any(c in text for c in ".e") else int(text)


def seeds(a):
    """The engine's turn at ``best``'s budget on every position whose optimal turns are
    all proved, for several engine seeds: optimal per seed and in all (a lever's
    effect on the choice, read past one seed's luck). ``--option NAME=VALUE``: a tree
    option (``Engine(**options)``); ``--constant NAME=VALUE``: an ``engine.search``
    constant set for the run (e.g. ``SAVE_NEUTRALS=0``)."""
    from szsolver.engine import search
    options = dict((k, _number(v)) for k, v in (o.split("=", 1) for o in a.option))
    for c in a.constant:
        name, value = c.split("=", 1)
        if not hasattr(search, name):
            sys.exit(f"Error: engine.search has no {name}")
        setattr(search, name, _number(value))
    entries = [e for e in load_store().values() if e.get("best")
               and (not a.names or a.names in e["name"])]
    total = 0
    for seed in [int(x) for x in a.seeds.split(",")]:
        misses = []
        for e in entries:
            res = Engine(DEFAULT_SECONDS * a.factor, bounds=True, spent=COMMAND_START,
                         seed=seed, **options).analyse(core_of(e))
            if format_turn(res.turn) not in e["best"]:
                misses.append(f"{e['name']} {format_turn(res.turn)}")
        ok = len(entries) - len(misses)
        total += ok
        print(f"seed {seed}: optimal {ok} of {len(entries)}; missed: {', '.join(misses)}",
              flush=True)
    n = len(entries) * len(a.seeds.split(","))
    print(f"all seeds: {rate(total, n)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prove")
    p.add_argument("--time-limit", type=float, default=600.0)
    p.add_argument("--names", default=None)
    p.add_argument("--sources", default=None,
                   help="comma-separated: example, greedy, selfplay, opening, uniform "
                        "(default all)")
    p.add_argument("--list", action="store_true", help="print the set and exit")
    m = sub.add_parser("measure")
    m.add_argument("--factor", type=float, default=4.0)
    m.add_argument("--prove-limit", type=float, default=600.0)
    m.add_argument("--names", default=None)
    m.add_argument("--sources", default=None,
                   help="comma-separated: example, greedy, selfplay, opening, uniform")
    m.add_argument("--json", default=None)
    m.add_argument("--parts", default=",".join(PARTS),
                   help="comma-separated: best, check, engine (default all)")
    s = sub.add_parser("seeds")
    s.add_argument("--seeds", default="0,1,2,3")
    s.add_argument("--factor", type=float, default=1.0)
    s.add_argument("--names", default=None)
    s.add_argument("--option", action="append", default=[], help="a tree option NAME=VALUE")
    s.add_argument("--constant", action="append", default=[],
                   help="an engine.search constant NAME=VALUE for the run")
    a = ap.parse_args()
    if a.cmd == "seeds":
        return seeds(a)
    if a.cmd == "prove" and a.list:
        for e in positions():
            print(e["name"], e["played"], e["position"])
        return
    (prove if a.cmd == "prove" else measure)(a)


if __name__ == "__main__":
    sys.exit(main())
