"""Judge every turn of a game: :func:`annotate`.

Contracts
---------
* Turn ``k`` (1-based over the whole game: round r is Red's turn 2r-1 and Blue's
  2r, also in a game set up from a position) gets a :class:`CheckResult` with the
  same contracts as :func:`szsolver.analysis.check.check`.
* Each position of the game is valued once and shared: the value after turn k is
  the value before turn k+1. Positions with at most ``exact_turns`` turns left are
  solved exactly, and beyond where the solver usually finishes in ``solver_time``
  (the supplies spent: ``check.within_reach``) (never fewer than the last
  ``MIN_EXACT_TURNS``, which take a moment;
  each under ``solver_time`` seconds; a solve that does not finish
  leaves its turn to the engine), the others are judged as ``check`` judges a turn:
  the engine's estimate and CP-SAT bounds (each position once: proved, looser when
  stopped), and one or two turns beyond ``exact_turns`` the exact solver's probes of
  the positions after the turn and after the engine's turns (kept to that turn's
  judgement), and at the first of them "is any turn better?". All of it is fixed
  work (iterations, CP-SAT's deterministic work, nodes: the same on any machine):
  without ``time_per_turn`` as ``check`` has it without a limit, with it as
  :func:`check.plan` plans ``check --time-limit``, so that a turn takes about that
  long. The proved part of the game (``proved_from`` on) is kept apart from the
  estimated part in every output.
* Accuracy per player: the share of optimal turns among the player's turns judged
  exactly (None when none was); and over every turn with a verdict, the verdicts
  proved (by the solver or by proved bounds) apart from those only estimated.
* ``seconds`` is the whole run's wall time and ``cpu_seconds`` its CPU time (this
  process). Each turn's ``CheckResult.seconds`` is the time spent on it (the
  solve of the position before it, its bounds and estimates), so the turns add
  up to about the whole; the JSON leaves the turns' times out, so that apart from
  the run's times the same game gives the same JSON.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .. import interrupt
from ..bounds.model import work_for
from ..errors import InputError
from ..formats.notation import board_json, position_string
from ..limits import check_count, check_seconds
from ..rules.base import SIDE_NAMES
from ..verdict import VERDICT_COUNTS
from .check import (CPSAT_TIME, ENGINE_SECONDS, EXACT_TURNS, MIN_EXACT_TURNS, PROBE_SHARE,
                    REFINE_SHARE, Facts, beyond_horizon, better_than_played, bound_facts,
                    judge, over_facts, plan, probe, probe_nodes, probe_played, refine,
                    solver_facts, within_reach)

SOLVER_TIME = 60.0           # default limit per exact solve (seconds)


@dataclass
class Annotation:
    """The judgement of a whole game (see the module doc)."""
    game: object
    turns: list                      # CheckResult per turn, in order
    numbers: list[int]               # the turns' numbers over the whole game (1-based)
    values: list[dict]               # per position (start, after each turn): value facts
    proved_from: int | None          # the first turn number judged exactly from there on
    settings: dict
    seconds: float = 0.0             # the whole run, wall clock
    cpu_seconds: float = 0.0         # the whole run, CPU time of this process
    summary: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        from ..formats.record import game_json
        g = self.game
        turns = []
        for k, (num, r) in enumerate(zip(self.numbers, self.turns)):
            d = r.to_json()
            del d["seconds"]          # the run's time is the whole's (below), not per turn
            d = {"number": num, "round": g.round_of(k), "side": SIDE_NAMES[g.side_of(k)], **d}
            turns.append(d)
        return {"type": "annotation", "game": game_json(g), "settings": self.settings,
                "proved_from": self.proved_from, "summary": self.summary,
                "values": self.values, "turns": turns, "seconds": round(self.seconds, 1),
                "cpu_seconds": round(self.cpu_seconds, 1)}


def turn_number(game, i: int) -> int:
    """The number of the game's i-th turn (0-based index) over the whole game."""
    return game.start.ply + i + 1


def annotate(game, *, time_per_turn: float | None = None, exact_turns: int = EXACT_TURNS,
             solver_time: float | None = SOLVER_TIME, cpsat: bool = True, engine=None,
             progress=None, threads: int = 1,
             engine_seconds: float = ENGINE_SECONDS) -> Annotation:
    """Judge every turn of ``game`` (a :class:`szsolver.formats.record.GameRecord`).

    ``time_per_turn``: each estimated turn's whole judgement (its bounds, probes and
    estimate) is the fixed work ``check``'s time limit plans (:func:`check.plan`), so
    that it takes about that many seconds and judges the turn as ``check --time-limit``
    does. None: as ``check`` without a limit (the engine ``engine_seconds``, each
    CP-SAT bound ``CPSAT_TIME`` of work, the probes ``PROBE_SHARE`` times the engine's).

    ``progress``: optional callable(done, total, text) before each step, ``done`` the
    turns judged so far (the last turns are proved first), ``total`` the game's turns,
    ``text`` what comes next. ``threads``:
    the exact solver's threads (the same values, verdicts and best turns; a final
    score shown may come from another optimal line). The probes beyond the horizon
    (as :func:`~szsolver.analysis.check.check`'s) run on one thread: their node pool
    is fixed work only there.
    """
    from ..rules.backends import to_core
    from ..engine.search import MIN_ITERATIONS, Engine, solver_nodes_for
    check_seconds(time_per_turn, "the time per turn")
    check_seconds(engine_seconds, "the engine's time", none_ok=False)
    check_seconds(solver_time, "the solver's time")
    check_count(threads, "the threads", minimum=1)
    if isinstance(exact_turns, bool) or not isinstance(exact_turns, int) or exact_turns < 0:
        raise InputError(f"the exact turns must be a whole number from 0, got {exact_turns!r}")
    exact_turns = max(exact_turns, MIN_EXACT_TURNS)
    if not game.turns:
        raise InputError("the game has no turns to judge")
    start, cpu_start = time.perf_counter(), time.process_time()
    eng = engine or Engine(engine_seconds)
    if engine is not None:
        engine_seconds = engine.seconds
    cores = [to_core(game.start)] + [to_core(p) for p in game.positions]
    n = len(game.turns)
    facts: list[Facts | None] = [None] * (n + 1)
    spent = [0.0] * n                   # seconds spent on each turn's judgement
    def reached(pos):           # the exact part: the horizon, and beyond where cheap
        return within_reach(pos, exact_turns,
                            None if solver_time is None else solver_nodes_for(pos, solver_time))
    if cores[n].is_over():
        facts[n] = over_facts(cores[n])
    elif reached(cores[n]):                          # an unfinished game
        facts[n] = solver_facts(cores[n], solver_time, threads=threads)
    # Exact part: from the end backwards, so a solve that fails stops the proved run.
    for i in range(n - 1, -1, -1):
        if not reached(cores[i]):
            break
        interrupt.raise_if_interrupted()
        if progress:
            progress(n - 1 - i, n, f"solving turn {turn_number(game, i)}")
        t = time.perf_counter()
        f = solver_facts(cores[i], solver_time, threads=threads)
        spent[i] += time.perf_counter() - t
        facts[i] = f
        if not f.exact:
            break
    results = []
    # the turns the exact part judged (a solve that stopped leaves its turn to estimate)
    done = sum(1 for i in range(n) if facts[i] is not None and facts[i].exact and (
        (facts[i + 1] is not None and facts[i + 1].exact) or game.turns[i] in facts[i].best))
    for i in range(n):
        interrupt.raise_if_interrupted()               # once per judged turn
        t = time.perf_counter()
        turn = game.turns[i]
        before = facts[i] or Facts()
        after = facts[i + 1] or Facts()
        need_estimate = not (before.exact and (after.exact or turn in before.best))
        estimate = None
        if need_estimate:
            if progress:
                progress(done, n, f"estimating turn {turn_number(game, i)}")
            probing = beyond_horizon(cores[i], exact_turns)
            # check's work, without a limit or planned from the time per turn (the
            # same for every turn: a position's bounds serve the turns on both sides).
            # Fixed work only, no deadline: a game gives one annotation (the web's
            # stream and its plain answer alike) on a machine of any speed.
            work = None if time_per_turn is None else plan(time_per_turn, cpsat, probing)
            bounds_work = work_for(CPSAT_TIME) if work is None else work.bounds_work
            with_cpsat = cpsat and bounds_work is not None
            before = bound_facts(cores[i], before, cpsat=with_cpsat, work_limit=bounds_work)
            after = bound_facts(cores[i + 1], after, cpsat=with_cpsat, work_limit=bounds_work)
            facts[i], facts[i + 1] = before, after
            nodes = probe_nodes(cores[i], engine_seconds * PROBE_SHARE if work is None
                                else work.solver_seconds) if probing else 0
            if probing and not after.exact and cores[i + 1].turns_left > exact_turns:
                # as check probes (the same pool): kept to this turn's judgement
                f, nodes = probe_played(cores[i + 1], nodes)
                after = f if f.exact else Facts(
                    max(after.lower, f.lower), min(after.upper, f.upper),
                    score_bounds=after.score_bounds, stopped=f.stopped)
            if probing and after.exact and cores[i].turns_left - 1 == exact_turns and nodes:
                # as check asks: is any turn better than the played one? (the pool first)
                r, used = better_than_played(cores[i], after, nodes)
                nodes = max(nodes - used, 0)
                before = Facts(max(before.lower, r.lower), min(before.upper, r.upper),
                               score_bounds=before.score_bounds)
                facts[i] = before
            seconds = engine_seconds if work is None else work.engine_seconds
            if cores[i].turns_left > MIN_EXACT_TURNS and (   # else bounds only, as check
                    work is None or eng.iterations_for(cores[i], seconds) > MIN_ITERATIONS):
                estimate = eng.judge(cores[i], turn, seconds)
                limit = solver_time if work is None else None
                refine_nodes = None if work is None else \
                    solver_nodes_for(cores[i], work.solver_seconds * REFINE_SHARE)
                if probing:
                    estimate = probe(cores[i], turn, estimate, nodes, exact_turns, limit,
                                     threads=threads, refine_nodes=refine_nodes)
                elif estimate["best"] != turn and not before.exact:
                    estimate = refine(cores[i], estimate, exact_turns, limit, refine_nodes,
                                      threads=threads)
            done += 1
        results.append(judge(cores[i], turn, before, after, estimate))
        results[-1].seconds = spent[i] + time.perf_counter() - t
    if progress:
        progress(n, n, "done")
    proved_from = None
    for i in range(n - 1, -1, -1):
        if not results[i].exact:
            break
        proved_from = turn_number(game, i)
    values = []
    for i, f in enumerate(facts):
        est = None
        if i < n and not results[i].exact and results[i].value_before is not None:
            est = results[i].value_before
        values.append({"ply": cores[i].ply, "exact": bool(f and f.exact),
                       "value": f.value if f and f.exact else est,
                       "lower": None if f is None else f.lower,
                       "upper": None if f is None else f.upper,
                       "position": position_string(cores[i]), **board_json(game.geometry)})
    ann = Annotation(game, results, [turn_number(game, i) for i in range(n)], values,
                     proved_from, {"time_per_turn": time_per_turn, "engine_seconds": engine_seconds,
                                   "exact_turns": exact_turns,
                                   "solver_time": solver_time, "cpsat": cpsat},
                     seconds=time.perf_counter() - start,
                     cpu_seconds=time.process_time() - cpu_start)
    ann.summary = summarise(game, results)
    return ann


def summarise(game, results) -> dict:
    """Per player: turns, turns judged exactly, optimal turns among them, accuracy,
    and the counts of each verdict (all turns, and those whose verdict is proved: by
    the exact solver, or by the proved bounds of an estimated turn). Over every
    judged turn (one with a verdict): ``judged`` and ``accuracy_judged`` (the share
    of optimal ones), apart for the verdicts proved (``judged_proved``, with
    ``optimal_proved`` optimal) and those only estimated (``judged_estimated``,
    ``optimal_estimated``), and ``accuracy_text``, the accuracy in words
    (:func:`accuracy_text`)."""
    out = {}
    for side, name in enumerate(SIDE_NAMES):
        mine = [r for k, r in enumerate(results) if game.side_of(k) == side]
        exact = [r for r in mine if r.exact]
        opt = sum(1 for r in exact if r.verdict == "optimal")
        d = {"turns": len(mine), "judged_exactly": len(exact), "optimal_exactly": opt,
             "accuracy": round(opt / len(exact), 4) if exact else None}
        for v, key in VERDICT_COUNTS.items():
            d[key] = sum(1 for r in mine if r.verdict == v)
            d[key + "_proved"] = sum(1 for r in mine if r.verdict == v and r.verdict_proved)
        judged = [r for r in mine if r.verdict is not None]
        d["judged"] = len(judged)
        d["judged_proved"] = sum(1 for r in judged if r.verdict_proved)
        d["judged_estimated"] = d["judged"] - d["judged_proved"]
        d["optimal_estimated"] = d["optimal"] - d["optimal_proved"]
        d["accuracy_judged"] = round(d["optimal"] / len(judged), 4) if judged else None
        d["accuracy_text"] = accuracy_text(d)
        out[name] = d
    return out


def accuracy_text(s: dict) -> str:
    """A player's accuracy over every judged turn, the proved verdicts apart from the
    estimated ones (``s``: the player's summary of an annotation)."""
    if not s["judged"]:
        return "no turn judged"
    parts = [f"{s[f'optimal_{k}']} of {s[f'judged_{k}']} {k}" for k in ("proved", "estimated")
             if s[f"judged_{k}"]]
    return (f"{s['optimal']} of {s['judged']} judged turns optimal "
            f"({s['accuracy_judged']:.0%}: {', '.join(parts)})")
