"""A self-play match between two engines, each in its own interpreter, so that two
versions of the package can play each other (the engine now against the engine as it
was at some commit). Prints markdown tables in the form of docs/engine.md's "Validation".

Run: python3 benchmarks/match.py [--a PYTHON] [--b PYTHON] [--time 1] [--b-time S]
         [--games 20] [--first-pair 0] [--rules basic,advanced] [--opening-turns 2]
         [--jobs 1] [--json FILE] [--report FILE [FILE ...]] [--self-check]
         [--resume EARLIER.json --resume-at K] [--a-exact K]

* Engines: ``--a`` and ``--b`` are interpreters whose ``import szsolver`` gives each
  version (default: this one), e.g. the ``.venv/bin/python`` of a worktree checked out
  at the older commit and installed there. Each runs as a small JSON-lines server
  (:data:`SERVER`: it reads ``{"position": TEXT, "seconds": S}`` and answers
  ``{"turn": TEXT, "cpu": S}``, the CPU seconds of the analysis); it needs only
  ``Engine(seconds).analyse(pos).turn`` and the notation module, which every version
  has. Every turn an engine returns is checked against the legal turns here: an
  illegal or unreadable turn, or an engine that fails, stops the match (exit 1).
* Budgets: ``--time`` seconds a turn for both (the engines' default is 1), which each
  version turns into fixed work by its own conversion; ``--b-time`` a different budget
  for engine B, for a match at equal CPU per turn (the tables report both engines' CPU
  seconds a turn, measured in their processes). Fixed work per turn: the same
  arguments give the same games on any machine, whatever the load.
* Games: per rule (``--rules``), ``--games`` games in pairs: each opening is played
  twice, engine A Red in the first game and Blue in the second; ``--first-pair K``
  starts at opening K, so a second run extends a match with new openings instead of
  playing its games again (the games are the same on every run). Opening 0 is the start
  position (the rules' neutrals: 5 each under Basic, 4 under Advanced); opening j > 0
  the start after ``--opening-turns`` uniformly random legal turns (every legal turn
  equally likely, a neutral with it or not; seeded by SHA-256 of the rule, the number of
  turns and j, ``rules.seeds.playout_rng_v1``). Pairs of the two rules alternate, so a
  run cut short (Ctrl-C or SIGTERM: the finished pairs are reported) stays balanced.
* Results by the rules' value at the end (``Position.value()``: scores, then neutrals
  left), from A's side: a win, a draw or a loss for A. Tables: per rule and for both,
  A as Red, as Blue and both: W-D-L, the win rate with its 95 % Wilson interval, the
  score rate (a draw counts half), CPU seconds a game (both engines) and a turn (each);
  the decisive games won; by pairs (A's two values added: ahead, level or behind, and the
  mean with its standard error); then every pair.
* ``--json FILE``: the arguments, the engines (their package paths and commits), the
  load, every game (opening, turns, values, CPU seconds a turn); written again after
  every game, so a run cut short keeps what it played. ``--report FILE ...`` prints the
  tables of such files, their games together (one match extended by ``--first-pair``;
  files of other engines, budgets or openings are refused). ``--jobs N``: N games at a time, each with its own two servers.
  ``--self-check``: the doctests of the pure functions here.
* ``--resume FILE --resume-at K``: the games of an earlier match (its ``--json``, the
  same engine B, budgets and openings) replayed as they went up to K turns left, then
  played on by the engines. Both engines are deterministic, so where engine A differs
  from the earlier match's only at K turns left or fewer, its games are the same turn
  for turn up to there, and the games are compared one by one (results better, worse
  and the same) at a fraction of the cost (eight turns a game instead of thirty). As a
  guard, A is asked for its last turn before K turns left: a game where it answers
  otherwise than the earlier game is counted and said (the change acts earlier: resume
  earlier). ``--rules`` selects the rules; ``--games`` and ``--first-pair`` are not used.
* ``--a-exact K``: engine A's turns with K turns left or fewer come from the exact
  solver, unlimited (an optimal turn): what a perfect player from K turns left would
  make of A's games (with ``--resume ... --resume-at K``, of the same games). Minutes a
  game where the supplies are in hand (Basic at 8 turns left: 5-20 s a turn; Advanced
  at 7: minutes, at 6: seconds).

Cost: at ``--time 1`` a game of this engine against the one of 029ff7b took about 28
CPU s (both engines, 30 turns) and 35-40 s of wall time on the project's 2-core machine
at load 3. Figures: docs/engine.md, "Self-play against the engine before the
calibration work".
"""
import argparse
import doctest
import json
import math
import os
import queue
import signal
import statistics
import subprocess
import sys
import threading
import time

from szsolver import Position
from szsolver.errors import ParseError
from szsolver.formats.notation import format_turn, parse_turn, position_string
from szsolver.rules.seeds import playout_rng_v1
from stats import wilson

RULES = {"basic": 0, "advanced": 1}
START_NEUTRALS = {"basic": 5, "advanced": 4}

#: The engine server, run with ``PYTHON -c``: one JSON request a line on stdin, one
#: answer a line on stdout; first a line saying which package it loaded.
SERVER = r"""
import json, sys, time, traceback
import szsolver
from szsolver.engine.search import Engine
from szsolver.formats.notation import format_turn, parse_position
print(json.dumps({"ready": szsolver.__file__, "python": sys.version.split()[0]}), flush=True)
for line in sys.stdin:
    try:
        req = json.loads(line)
        pos = parse_position(req["position"])
        t = time.process_time()
        if req.get("exact"):
            from szsolver.endgame.solver import solve
            turn = solve(pos).best[0]
        else:
            turn = Engine(req["seconds"]).analyse(pos).turn
        cpu = time.process_time() - t
        out = {"turn": format_turn(int(turn), pos.geometry), "cpu": cpu}
    except Exception as e:
        out = {"error": f"{type(e).__name__}: {e}",
               "trace": traceback.format_exc()}
    print(json.dumps(out), flush=True)
"""


class MatchError(Exception):
    """An engine failed or answered an illegal turn: the match stops."""


class EngineServer:
    """One engine process (:data:`SERVER`) under ``python``."""

    def __init__(self, name: str, python: str):
        self.name = name
        self.proc = subprocess.Popen([python, "-c", SERVER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1,
                                     cwd="/", start_new_session=True)
        self.hello = self._read()

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise MatchError(f"engine {self.name} stopped (exit code {self.proc.poll()})")
        try:
            return json.loads(line)
        except ValueError:
            raise MatchError(f"engine {self.name} answered something not JSON: {line!r}")

    def turn(self, pos, seconds: float, exact: bool = False) -> tuple[int, float, str]:
        """The engine's turn at ``pos`` (checked legal), its CPU seconds and its text;
        ``exact``: an optimal turn from the exact solver instead."""
        pstr = position_string(pos)
        req = {"position": pstr, "seconds": seconds, **({"exact": True} if exact else {})}
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
        except OSError as e:
            raise MatchError(f"engine {self.name} stopped ({e})")
        ans = self._read()
        if "error" in ans:
            raise MatchError(f"engine {self.name} failed at {pstr}: {ans['error']}\n"
                             f"{ans.get('trace', '')}")
        text = ans.get("turn")
        try:
            turn = parse_turn(text, pos.geometry)
        except ParseError as e:
            raise MatchError(f"engine {self.name} answered an unreadable turn {text!r} at "
                             f"{pstr}: {e}")
        if int(turn) not in {int(t) for t in pos.legal_turns()}:
            raise MatchError(f"engine {self.name} answered an illegal turn {text} at {pstr}")
        return turn, float(ans["cpu"]), format_turn(turn, pos.geometry)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def start_position(rule: str):
    """The start of a game under ``rule``: the rules' neutrals in each side's hand."""
    n = START_NEUTRALS[rule]
    return Position(red_neutrals=n, blue_neutrals=n, rule=RULES[rule])


def opening(rule: str, turns: int, j: int):
    """Opening ``j``: the start (j = 0), else the start after ``turns`` uniformly random
    legal turns, seeded by (rule, turns, j).

    >>> position_string(opening("basic", 2, 1)) == position_string(opening("basic", 2, 1))
    True
    >>> opening("advanced", 2, 3).ply, opening("advanced", 2, 0).ply
    (2, 0)
    """
    pos = start_position(rule)
    if j == 0:
        return pos
    rng = playout_rng_v1("match opening", rule, turns, j)
    for _ in range(turns):
        legal = pos.legal_turns()
        if not legal:
            break
        pos.play(legal[rng.randrange(len(legal))])
    return pos


def tasks(rules, games: int, first: int = 0) -> list[tuple[str, int, bool]]:
    """The games in the order played: (rule, pair, A is Red), the two games of a pair
    together, the pairs of the rules alternating; pairs ``first`` on.

    >>> tasks(["basic", "advanced"], 4)  # doctest: +NORMALIZE_WHITESPACE
    [('basic', 0, True), ('basic', 0, False), ('advanced', 0, True),
     ('advanced', 0, False), ('basic', 1, True), ('basic', 1, False),
     ('advanced', 1, True), ('advanced', 1, False)]
    >>> tasks(["basic"], 2, first=5)
    [('basic', 5, True), ('basic', 5, False)]
    """
    return [(rule, j, a_red) for j in range(first, first + games // 2) for rule in rules
            for a_red in (True, False)]


def merge(runs: list[dict]) -> dict:
    """One match from the data of several runs (``--json``) of the same engines, budgets
    and openings, e.g. one extended with ``--first-pair``; a game played twice counts
    once. Raises ValueError for runs of another match.

    >>> a = {"args": {"a": "x", "b": "y", "time": 1, "b_time": None, "opening_turns": 2},
    ...      "engines": {"a": {"commit": "1"}, "b": {"commit": "2"}}, "complete": True,
    ...      "games": [{"rule": "basic", "pair": 0, "a_red": True}]}
    >>> b = {**a, "games": [{"rule": "basic", "pair": 1, "a_red": True}]}
    >>> [g["pair"] for g in merge([a, b])["games"]]
    [0, 1]
    >>> merge([a, {**b, "args": {**a["args"], "time": 2}}])
    Traceback (most recent call last):
    ValueError: the runs are not one match: their time differs
    """
    first = runs[0]
    for r in runs[1:]:
        for key in ("time", "b_time", "opening_turns", "a_exact"):
            if r["args"].get(key, 0) != first["args"].get(key, 0):
                raise ValueError(f"the runs are not one match: their {key} differs")
        for who in "ab":
            if r["engines"].get(who, {}).get("commit") != first["engines"].get(who, {}).get("commit"):
                raise ValueError(f"the runs are not one match: engine {who.upper()} differs")
    games = {}
    for r in runs:
        for g in r["games"]:
            games.setdefault((g["rule"], g["pair"], g["a_red"]), g)
    return {**first, "games": [games[k] for k in sorted(games, key=lambda k: (k[1], k[0], not k[2]))],
            "complete": all(r.get("complete") for r in runs)}


def play(servers, rule, j, a_red, turns, a_time, b_time, earlier=None, at=None,
         a_exact=0) -> dict:
    """One game: opening ``j`` of ``rule``, engine A Red when ``a_red``; with an
    ``earlier`` game of the same opening and colours, its turns replayed up to ``at``
    turns left (A asked for its last turn before, as a guard), then played on; A's
    turns with ``a_exact`` turns left or fewer from the exact solver."""
    a, b = servers
    start = opening(rule, turns, j)
    pos = start.copy()
    red, blue = ((a, a_time, "a"), (b, b_time, "b")) if a_red else \
        ((b, b_time, "b"), (a, a_time, "a"))
    played, cpu = [], {"a": [], "b": []}
    wall = time.time()
    resumed = {}
    if earlier is not None:
        if earlier["opening"] != position_string(start):
            raise MatchError(f"{rule} pair {j}: the earlier game's opening is another one")
        last_a = None
        for text in earlier["turns"]:
            if pos.turns_left <= at or pos.is_over():
                break
            if (red, blue)[pos.side][2] == "a":
                last_a = (pos.copy(), text)
            pos.play(parse_turn(text, pos.geometry))
            played.append(text)
        same = None
        if last_a is not None:
            same = a.turn(last_a[0], a_time)[2] == last_a[1]
        resumed = {"resumed_at": pos.turns_left, "turns_replayed": len(played),
                   "a_same_before": same, "earlier_a_value": earlier["a_value"]}
    while not pos.is_over():
        server, seconds, who = (red, blue)[pos.side]
        turn, c, text = server.turn(pos, seconds, who == "a" and pos.turns_left <= a_exact)
        pos.play(turn)
        played.append(text)
        cpu[who].append(round(c, 4))
    v = pos.value()
    return {"rule": rule, "pair": j, "a_red": a_red, "opening": position_string(start),
            "turns": played, "scores": list(pos.scores()), "value": v,
            "a_value": v if a_red else -v, "winner": pos.winner(),
            "cpu_a": cpu["a"], "cpu_b": cpu["b"], "wall": round(time.time() - wall, 1),
            **resumed}


# --- tallies -----------------------------------------------------------------------------

def wdl(values) -> tuple[int, int, int]:
    """Wins, draws and losses of a list of values (A's side).

    >>> wdl([300, -1, 0, 2])
    (2, 1, 1)
    """
    w = sum(1 for v in values if v > 0)
    d = sum(1 for v in values if v == 0)
    return w, d, len(values) - w - d


def complete_pairs(games) -> list[tuple[dict, dict]]:
    """The pairs with both games played: (A Red, A Blue), by rule and pair.

    >>> g = [{"rule": "basic", "pair": 0, "a_red": True}, {"rule": "basic", "pair": 1,
    ...      "a_red": True}, {"rule": "basic", "pair": 0, "a_red": False}]
    >>> [(p[0]["pair"], p[1]["a_red"]) for p in complete_pairs(g)]
    [(0, False)]
    """
    by = {}
    for g in games:
        by.setdefault((RULES[g["rule"]], g["pair"]), {})[g["a_red"]] = g
    return [(d[True], d[False]) for _, d in sorted(by.items()) if len(d) == 2]


def pair_summary(pairs) -> dict:
    """A's two values of each pair added: pairs ahead, level, behind; the mean and its
    standard error; pairs won both, split (or drawn), lost both.

    >>> s = pair_summary([({"a_value": 300}, {"a_value": -100}),
    ...                   ({"a_value": -2}, {"a_value": 2}), ({"a_value": -5}, {"a_value": -7})])
    >>> s["ahead"], s["level"], s["behind"], s["both_won"], s["both_lost"], round(s["mean"], 2)
    (1, 1, 1, 0, 1, 62.67)
    """
    sums = [r["a_value"] + b["a_value"] for r, b in pairs]
    n = len(sums)
    return {"pairs": n, "ahead": sum(s > 0 for s in sums), "level": sum(s == 0 for s in sums),
            "behind": sum(s < 0 for s in sums),
            "both_won": sum(r["a_value"] > 0 and b["a_value"] > 0 for r, b in pairs),
            "both_lost": sum(r["a_value"] < 0 and b["a_value"] < 0 for r, b in pairs),
            "mean": statistics.mean(sums) if n else 0.0,
            "se": statistics.stdev(sums) / math.sqrt(n) if n > 1 else float("nan")}


def _pct(k, n) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:.1%} ({lo:.1%}-{hi:.1%})" if n else "-"


def _mean(xs) -> float:
    return statistics.mean(xs) if xs else float("nan")


def _exact_note(k) -> str:
    return f" (A's turns with {k} turns left or fewer: the exact solver's)" if k else ""


def report(data) -> str:
    """The markdown tables of a match (the data of ``--json``): complete pairs only."""
    games = [g for p in complete_pairs(data["games"]) for g in p]
    a, b = data["args"]["time"], data["args"]["b_time"]
    lines = [f"Engine A: {data['engines']['a'].get('package')} "
             f"({data['engines']['a'].get('commit', '?')}), {a:g} s a turn; engine B: "
             f"{data['engines']['b'].get('package')} ({data['engines']['b'].get('commit', '?')}), "
             f"{b:g} s a turn"
             f"{_exact_note(data['args'].get('a_exact'))}. Openings: the start and "
             f"{data['args']['opening_turns']} "
             f"random turns. {len(games)} games in complete pairs"
             f"{' (run cut short)' if not data.get('complete') else ''}.", "",
             "| rule | match | A plays | games | W-D-L | win rate (95 % CI) | score rate | "
             "CPU s/game | A CPU s/turn (max) | B CPU s/turn (max) |",
             "|---|---|---|---:|---|---|---:|---:|---:|---:|"]
    label = "A vs B"
    rules = [r for r in RULES if any(g["rule"] == r for g in games)]
    groups = [(r, [g for g in games if g["rule"] == r]) for r in rules]
    if len(rules) > 1:
        groups.append(("both", games))
    for rule, gs in groups:
        for colour, sel in (("Red", [g for g in gs if g["a_red"]]),
                            ("Blue", [g for g in gs if not g["a_red"]]), ("both", gs)):
            n = len(sel)
            if not n:
                continue
            w, d, l = wdl([g["a_value"] for g in sel])
            ca = [c for g in sel for c in g["cpu_a"]]
            cb = [c for g in sel for c in g["cpu_b"]]
            bold = "**" if colour == "both" else ""
            lines.append(f"| {rule} | {label} | {colour} | {n} | {w}-{d}-{l} | "
                         f"{bold}{_pct(w, n)}{bold} | {(w + d / 2) / n:.1%} | "
                         f"{(sum(ca) + sum(cb)) / n:.1f} | {_mean(ca):.2f} ({max(ca):.2f}) | "
                         f"{_mean(cb):.2f} ({max(cb):.2f}) |")
    lines.append("")
    for rule, gs in groups:
        w, d, l = wdl([g["a_value"] for g in gs])
        pairs = complete_pairs(gs)
        s = pair_summary(pairs)
        lines.append(
            f"- {rule}: decisive games won by A {_pct(w, w + l)}; by pairs (A's two values "
            f"added) A ahead in {s['ahead']}, level in {s['level']}, behind in {s['behind']} "
            f"of {s['pairs']} (ahead in {_pct(s['ahead'], s['ahead'] + s['behind'])} of the "
            f"pairs not level); won both games {s['both_won']}, lost both {s['both_lost']}; "
            f"mean {s['mean']:+.1f} a pair (standard error {s['se']:.1f}); "
            f"{_mean([g['wall'] for g in gs]):.0f} s a game (wall), "
            f"{_mean([len(g['turns']) for g in gs]):.1f} turns.")
    resumed = [g for g in games if "earlier_a_value" in g]
    if resumed:
        sign = lambda v: (v > 0) - (v < 0)
        d = [sign(g["a_value"]) - sign(g["earlier_a_value"]) for g in resumed]
        off = sum(1 for g in resumed if g["a_same_before"] is False)
        lines += ["", f"Resumed at {data['args'].get('resume_at')} turns left from "
                  f"{data['args'].get('resume')}: against the earlier games, results better "
                  f"in {sum(x > 0 for x in d)}, worse in {sum(x < 0 for x in d)}, the same in "
                  f"{sum(x == 0 for x in d)} of {len(d)}; values changed in "
                  f"{sum(g['a_value'] != g['earlier_a_value'] for g in resumed)}. "
                  + (f"A's last turn before differed in {off} games: the change acts "
                     "earlier, resume earlier." if off else
                     "A's last turn before was the earlier game's in every game.")]
    lines += ["", "| rule | pair | opening | A Red: scores, value | A Blue: scores, value | "
              "A's sum |", "|---|---:|---|---|---|---:|"]
    for r, bl in complete_pairs(games):
        cells = [f"{g['scores'][0]}-{g['scores'][1]}, {g['a_value']:+d} "
                 f"{'WDL'[(g['a_value'] <= 0) + (g['a_value'] < 0)]}" for g in (r, bl)]
        op = "start" if r["pair"] == 0 else f"`{r['opening']}`"
        lines.append(f"| {r['rule']} | {r['pair']} | {op} | {cells[0]} | {cells[1]} | "
                     f"{r['a_value'] + bl['a_value']:+d} |")
    return "\n".join(lines)


# --- running -----------------------------------------------------------------------------

def _commit(package_file: str) -> str:
    """The git commit of a package's checkout (``+dirty`` with changes), or ``?``."""
    try:
        out = subprocess.run(["git", "-C", os.path.dirname(package_file), "describe",
                              "--always", "--dirty=+dirty", "--abbrev=7"],
                             capture_output=True, text=True, timeout=30)
        return out.stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def _write(path, data):
    if path:
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(data, f)
        os.replace(tmp, path)


def run(args) -> int:
    data = {"args": {"a": args.a, "b": args.b, "time": args.time, "b_time": args.b_time,
                     "games": args.games, "first_pair": args.first_pair, "rules": args.rules,
                     "opening_turns": args.opening_turns, "jobs": args.jobs,
                     "resume": args.resume, "resume_at": args.resume_at,
                     "a_exact": args.a_exact},
            "engines": {}, "games": [], "load_start": os.getloadavg(), "complete": False}
    earlier = {}
    if args.resume:
        earlier = {(g["rule"], g["pair"], g["a_red"]): g for g in args.earlier["games"]
                   if g["rule"] in args.rules}
        todo = sorted(earlier, key=lambda k: (k[1], list(RULES).index(k[0]), not k[2]))
    else:
        todo = tasks(args.rules, args.games, args.first_pair)
    work = queue.Queue()
    for i, t in enumerate(todo):
        work.put((i, t))
    results, lock, failure, servers = {}, threading.Lock(), [], []
    stop = threading.Event()

    def worker():
        try:
            pair = (EngineServer("A", args.a), EngineServer("B", args.b))
        except (MatchError, OSError) as e:
            failure.append(str(e))
            stop.set()
            return
        with lock:
            servers.extend(pair)
            for who, s in zip("ab", pair):
                data["engines"].setdefault(who, {"python": s.hello.get("python"),
                                                 "package": os.path.dirname(s.hello["ready"]),
                                                 "commit": _commit(s.hello["ready"])})
        while not stop.is_set():
            try:
                i, (rule, j, a_red) = work.get_nowait()
            except queue.Empty:
                return
            try:
                g = play(pair, rule, j, a_red, args.opening_turns, args.time, args.b_time,
                         earlier.get((rule, j, a_red)), args.resume_at, args.a_exact)
            except MatchError as e:
                if not stop.is_set():
                    failure.append(str(e))
                stop.set()
                return
            with lock:
                results[i] = g
                data["games"] = [results[k] for k in sorted(results)]
                _write(args.json, data)
                done = len(results)
            a_cpu, b_cpu = sum(g["cpu_a"]), sum(g["cpu_b"])
            print(f"[{done}/{len(todo)}] {rule} pair {j} A {'Red' if a_red else 'Blue'}: "
                  f"{g['scores'][0]}-{g['scores'][1]}, A {g['a_value']:+d}; CPU A {a_cpu:.1f} s "
                  f"B {b_cpu:.1f} s, {g['wall']:.0f} s", file=sys.stderr, flush=True)

    def on_term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(args.jobs)]
    interrupted = False
    try:
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(0.5)
    except KeyboardInterrupt:
        interrupted = True
        stop.set()
    finally:
        for s in list(servers):
            s.close()
    data["load_end"] = os.getloadavg()
    data["complete"] = not interrupted and not failure and len(results) == len(todo)
    data["games"] = [results[k] for k in sorted(results)]
    _write(args.json, data)
    if failure:
        print(f"Error: {failure[0]}", file=sys.stderr)
        return 1
    if data["games"]:
        print(report(data))
    print(f"load average {data['load_start'][0]:.1f} at the start, "
          f"{data['load_end'][0]:.1f} at the end", file=sys.stderr)
    return 130 if interrupted else 0


def _fail(msg: str) -> int:
    print(f"Error: {msg}", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default=sys.executable, help="interpreter of engine A")
    ap.add_argument("--b", default=sys.executable, help="interpreter of engine B")
    ap.add_argument("--time", type=float, default=1.0, help="seconds a turn (both)")
    ap.add_argument("--b-time", type=float, default=None, help="seconds a turn for B")
    ap.add_argument("--games", type=int, default=20, help="games per rule (even)")
    ap.add_argument("--first-pair", type=int, default=0,
                    help="the first opening (extends an earlier run with new openings)")
    ap.add_argument("--rules", default="basic,advanced")
    ap.add_argument("--opening-turns", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", default=None, help="write the games here")
    ap.add_argument("--report", nargs="+", default=None,
                    help="print the tables of --json files (the runs of one match)")
    ap.add_argument("--self-check", action="store_true", help="run the doctests")
    ap.add_argument("--resume", default=None, metavar="EARLIER.json",
                    help="replay an earlier match's games up to --resume-at turns left")
    ap.add_argument("--resume-at", type=int, default=None, metavar="K")
    ap.add_argument("--a-exact", type=int, default=0, metavar="K",
                    help="A's turns with K turns left or fewer from the exact solver")
    args = ap.parse_args(argv)
    if args.self_check:
        fails, n = doctest.testmod()
        print(f"{n - fails}/{n} doctests passed", file=sys.stderr)
        return 1 if fails else 0
    if args.report:
        runs = []
        for path in args.report:
            try:
                with open(path) as f:
                    runs.append(json.load(f))
            except (OSError, ValueError) as e:
                return _fail(f"cannot read {path}: {e}")
        try:
            data = merge(runs)
        except ValueError as e:
            return _fail(str(e))
        print(report(data))
        return 0
    args.rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    bad = [r for r in args.rules if r not in RULES]
    if bad or not args.rules:
        return _fail(f"unknown rule {bad[0] if bad else '(none)'!r}: use basic, advanced")
    if args.b_time is None:
        args.b_time = args.time
    for name, s in (("--time", args.time), ("--b-time", args.b_time)):
        if not (0 < s <= 3600):
            return _fail(f"{name} must be seconds in (0, 3600], got {s:g}")
    if args.games < 2 or args.games % 2:
        return _fail(f"--games must be even and at least 2 (pairs), got {args.games}")
    if args.opening_turns < 0 or args.opening_turns > 20:
        return _fail(f"--opening-turns must be 0..20, got {args.opening_turns}")
    if args.opening_turns == 0 and args.games > 2:
        return _fail("--opening-turns 0 gives one opening (the start): --games 2 at most")
    if args.jobs < 1:
        return _fail(f"--jobs must be at least 1, got {args.jobs}")
    if (args.resume is None) != (args.resume_at is None):
        return _fail("--resume and --resume-at go together")
    if not 0 <= args.a_exact <= 10:
        return _fail(f"--a-exact must be 0..10 turns left (the solver's reach), got {args.a_exact}")
    if args.resume:
        if args.json and os.path.abspath(args.json) == os.path.abspath(args.resume):
            return _fail("--json would write over the --resume file: give another path")
        if not 1 <= args.resume_at <= 30:
            return _fail(f"--resume-at must be 1..30 turns left, got {args.resume_at}")
        try:
            with open(args.resume) as f:
                args.earlier = json.load(f)
        except (OSError, ValueError) as e:
            return _fail(f"cannot read {args.resume}: {e}")
        prev = args.earlier.get("args", {})
        for key, mine in (("time", args.time), ("b_time", args.b_time),
                          ("opening_turns", args.opening_turns)):
            if prev.get(key) != mine:
                return _fail(f"{args.resume} is a match with another {key} "
                             f"({prev.get(key)} against {mine})")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
