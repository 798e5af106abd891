"""One deep solve split over Dask tasks: alpha-beta at the root over tasks.

The legal root turns (one per symmetry orbit, as the serial solver does) are proved
in tasks on the workers (MTD(f) null-window probes, the serial solver's C search): the
first turn by the static guess (the likeliest best) alone, then the others dealt
round-robin into a few chunks per worker thread, one task each, with one
transposition table per task. Tasks share what they proved through the client: it
keeps the best exact child value so far (``alpha`` when Red moves, ``beta`` when Blue
moves) and starts every later task with that window; inside a task the window
narrows further as its own turns are proved. A child that cannot beat the window is
refuted by one null-window probe (``cut``) instead of being solved.

Contracts:

* The value is the serial solver's: the root's value is the max (Red moves) or min
  (Blue moves) over its children; a child is either proved exactly or proved no better
  than an exact child's value, so the extremum is attained by an exact child.
* ``best`` lists every optimal turn, as the serial solver does: exact children equal
  to the value, and refuted children whose bound reaches the value get one more probe.
  ``pv`` starts with the first best turn and is proved step by step like the serial
  one (it may be another optimal line than the serial solver's; ``scores`` are the
  final scores of this line).
* ``node_limit`` and ``time_limit`` apply per task (a chunk of root turns). A stopped
  task keeps the bounds it proved (the static bounds for turns it did not reach); the
  answer is then the bounds over the children (``exact`` False).
* Which tasks are refuted depends on the order they finish in (the value never does).
"""
from __future__ import annotations

import time

from ..errors import UnsupportedError


#: tasks per worker thread after the first (more: narrower windows sooner, more tables
#: built and less sharing between siblings; measured in docs/batch.md)
CHUNKS_PER_THREAD = 2


def _root(position: str):
    from ..endgame.solver import to_core
    from ..formats.record import parse_source_text
    pos, _game = parse_source_text(position)
    return to_core(pos)


def _child_searcher(core, turn: int):
    from ..endgame.solver import _searcher, tt_entries_for
    s = _searcher(core, tt_entries_for(max(core.turns_left - 1, 0)), None, None)
    s.make(turn)
    return s


def child_task(position: str, turns: list[int], window: int | None,
               time_limit: float | None, node_limit: int | None) -> list[dict]:
    """Prove the values (Red's side) of ``position`` after each of ``turns``, in order,
    with one transposition table for them all (siblings share much of their trees).
    ``window``: the best exact value of a sibling so far (None: none yet); a child that
    cannot beat the window (nor the best exact child of this task before it) is only
    refuted (``cut``: proved no better for the mover) by one null-window probe. The limits
    apply to the whole task. A pure function of its arguments under a node limit (a
    time limit only stops it sooner)."""
    from ..endgame.solver import _guess, _mtdf, _searcher, tt_entries_for
    core = _root(position)
    red_moves = core.side == 0
    s = _searcher(core, tt_entries_for(max(core.turns_left - 1, 0)), None, None)
    s.set_limits(node_limit or 0, time_limit or 0.0)
    out = []
    stopped = False
    for turn in turns:
        t0 = time.perf_counter()
        n0 = s.stats()["nodes"]
        s.make(turn)
        lo, hi = s.bounds()
        cut, done = False, not stopped
        if window is not None and lo < hi and done:
            gamma = window + 1 if red_moves else window      # can the child beat it?
            if lo < gamma <= hi:
                r = s.red_probe(gamma)
                if r is None:
                    done = False
                else:
                    v, is_lower = r
                    if is_lower:
                        lo = max(lo, v)
                    else:
                        hi = min(hi, v)
        if window is not None:
            cut = (hi <= window) if red_moves else (lo >= window)
        if done and not cut and lo < hi:
            lo, hi, done = _mtdf(s, lo, hi, _guess(s))
        s.unmake(turn)
        stopped = stopped or not done
        exact = done and lo == hi and not cut
        if exact and (window is None or (lo > window if red_moves else lo < window)):
            window = lo
        out.append({"turn": turn, "lower": lo, "upper": hi, "exact": exact, "cut": cut,
                    "finished": done, "window": window if cut else None,
                    "nodes": s.stats()["nodes"] - n0, "seconds": time.perf_counter() - t0})
    return out


def optimal_task(position: str, turn: int, value: int) -> bool:
    """Does ``turn`` keep the root's proved ``value``? (one null-window probe)"""
    from ..endgame.solver import _is_optimal
    core = _root(position)
    s = _child_searcher(core, turn)
    return _is_optimal(s, value, core.side == 0)


def pv_task(position: str, turn: int, value: int) -> list[int]:
    """An optimal line after the optimal root ``turn``, proved step by step."""
    from ..endgame.solver import _walk_pv
    core = _root(position)
    s = _child_searcher(core, turn)
    s.red_probe(value)           # warms the table for the walk
    return [turn] + _walk_pv(s, value)


def _order(core, orbits) -> list[list[int]]:
    """Orbits best first for the mover by the static guess (the serial solver's first
    guess at each child), ties by turn: the eldest brother is the likeliest best."""
    from ..endgame.solver import _guess, _searcher
    s = _searcher(core, 2, None, None)
    keyed = []
    for orb in orbits:
        s.make(orb[0])
        g = _guess(s)
        s.unmake(orb[0])
        keyed.append(((-g if core.side == 0 else g), orb[0], orb))
    return [orb for _, _, orb in sorted(keyed)]


def deep_solve(client, position, *, time_limit: float | None = None,
               node_limit: int | None = None, progress=None, retries: int = 3) -> dict:
    """Solve ``position`` (a position object or string) with its root turns as tasks on
    ``client``. Returns ``solve --json``'s keys (``tt`` empty: the tables are per task)
    plus ``tasks`` (per root turn: bounds, whether refuted, nodes, seconds) and
    ``workers``. ``progress(done, total)`` after each task."""
    from distributed import as_completed
    from ..endgame.solver import (MAX_TURNS_WITHOUT_LIMIT, check_searchable, to_core,
                                  turn_orbits, winner_of)
    from ..formats.notation import format_turn, position_string
    t0 = time.perf_counter()
    if isinstance(position, str):
        from ..formats.record import parse_source_text
        position, _game = parse_source_text(position)
    g = position.geometry
    if g.size > 64:
        raise UnsupportedError(f"the {g.name} board has {g.size} points; the solver handles at most 64")
    core = to_core(position)
    check_searchable(core)
    if core.is_over():
        raise UnsupportedError("the game is over: nothing to split (use szsolver solve)")
    if core.turns_left - 1 > MAX_TURNS_WITHOUT_LIMIT and time_limit is None and node_limit is None:
        raise UnsupportedError(f"position has {core.turns_left} turns left: each task would "
                               f"solve {core.turns_left - 1}; give a time limit or a node limit")
    pstr = position_string(core)
    red = core.side == 0
    orbits = _order(core, turn_orbits(core))
    rep_orbit = {orb[0]: orb for orb in orbits}
    nthreads = max(1, sum(client.nthreads().values()))
    results: dict[int, dict] = {}
    best = None                       # best exact child value so far (Red's side)

    def submit(chunk):
        return client.submit(child_task, pstr, [orb[0] for orb in chunk], best, time_limit,
                             node_limit, pure=True, retries=retries)

    # the eldest alone, then the rest dealt round-robin into chunks (a few per worker
    # thread, so later chunks start with a narrower window), each chunk one task
    n_chunks = min(len(orbits) - 1, CHUNKS_PER_THREAD * nthreads)
    chunks = [orbits[1 + k::n_chunks] for k in range(n_chunks)] if n_chunks > 0 else []
    stream = as_completed([submit(orbits[:1])])
    started_rest = False
    for fut in stream:
        for r in fut.result():
            results[r["turn"]] = r
            if r["exact"] and (best is None or (r["lower"] > best if red else r["lower"] < best)):
                best = r["lower"]
        if progress:
            progress(len(results), len(orbits))
        want = nthreads if not started_rest else 1
        started_rest = True
        for _ in range(want):
            if chunks:
                stream.add(submit(chunks.pop(0)))
    rs = list(results.values())
    if red:
        lo, hi = max(r["lower"] for r in rs), max(r["upper"] for r in rs)
    else:
        lo, hi = min(r["lower"] for r in rs), min(r["upper"] for r in rs)
    exact = lo == hi            # both bounds proved by finished probes
    out = {"position": pstr, "value": lo if exact else None, "winner": winner_of(lo, hi),
           "exact": exact, "lower": lo, "upper": hi, "scores": None, "best": [], "pv": []}
    if exact:
        sure = [t for t, r in results.items() if r["exact"] and r["lower"] == lo]
        maybe = [t for t, r in results.items() if not r["exact"] and r["lower"] <= lo <= r["upper"]]
        checks = client.map(optimal_task, [pstr] * len(maybe), maybe, [lo] * len(maybe),
                            pure=True, retries=retries)
        sure += [t for t, ok in zip(maybe, client.gather(checks)) if ok]
        best_turns = sorted(t for rep in sure for t in rep_orbit[rep])
        pv = client.submit(pv_task, pstr, best_turns[0], lo, pure=True, retries=retries).result()
        end = core.copy()
        for t in pv:
            end.make(t)
        rs_, bs_ = end.scores()
        out.update(best=[format_turn(t, g) for t in best_turns],
                   pv=[format_turn(t, g) for t in pv], scores={"red": rs_, "blue": bs_})
    seconds = time.perf_counter() - t0
    nodes = sum(r["nodes"] for r in rs)
    stopped = None if exact else "a task's limit (per task)"
    out.update(nodes=nodes, seconds=round(seconds, 6),
               nodes_per_second=round(nodes / seconds) if seconds > 0 else 0, tt={},
               stopped=stopped, workers=nthreads, task_count=1 + max(n_chunks, 0),
               tasks=[{"turn": format_turn(r["turn"], g), "lower": r["lower"], "upper": r["upper"],
                       "exact": r["exact"], "cut": r["cut"], "window": r["window"],
                       "nodes": r["nodes"], "seconds": round(r["seconds"], 6)}
                      for r in (results[orb[0]] for orb in orbits)])
    return out
