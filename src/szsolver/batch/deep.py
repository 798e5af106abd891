"""One deep solve split over Dask tasks: alpha-beta at the root over tasks.

The legal root turns (one per symmetry orbit, as the serial solver has them) are
proved in tasks on the workers (MTD(f) null-window probes, the serial solver's C
search): the first turn by the static guess (the likeliest best) alone, then, as soon
as a bound on the root exists, the others dealt round-robin into a few chunks per
worker thread, one task each, with one transposition table per task.

Tasks share what they prove while they run: a :class:`Window` (a Dask ``Variable``
narrowed under a Dask ``Lock``) holds the best proved bound on the root (a lower bound
when Red moves, an upper bound when Blue moves) and the root turn that proved it.
Every bound a task proves that helps the mover is offered at once; every task reads
the window between slices of :data:`SLICE_NODES` nodes of search (a probe stopped at a
slice resumes from its table) and before each root turn. A child that cannot beat the
window is refuted by null-window probes (``cut``) instead of being solved; one that
may equal it gets one more probe, so ties are exact.

Contracts:

* The value is the serial solver's: the root's value is the max (Red moves) or min
  (Blue moves) over its children; every window is a proved bound, a child is either
  proved exactly or proved no better than the window, and the child that proved the
  window keeps a bound at least as good, so the bounds over the children meet at the
  value. A bound a child proved does not cut that child (a task retried after a lost
  worker proves it again).
* ``best`` lists every optimal turn, as the serial solver does: exact children equal
  to the value, and any refuted child whose bounds still reach the value gets one
  more probe. ``pv`` starts with an optimal turn and is proved step by step like the
  serial one (it may be another optimal line; ``scores`` are the final scores of
  this line).
* ``node_limit`` and ``time_limit`` apply per task (a chunk of root turns). A stopped
  task keeps the bounds it proved (the static bounds for turns it did not reach); the
  answer is then the bounds over the children (``exact`` False).
* Which turns are refuted, and the nodes searched, depend on the order the tasks run
  in (the value and the best turns never do).
"""
from __future__ import annotations

import time

from ..errors import UnsupportedError


#: tasks per worker thread after the first (more: narrower windows sooner, more tables
#: built and less sharing between siblings; measured in docs/batch.md)
CHUNKS_PER_THREAD = 2

#: nodes a task searches between two looks at the shared window (about a second of
#: search): a probe stopped there resumes from its table, so a look costs little
SLICE_NODES = 1 << 20

#: from this many turns left and worker threads, the eldest root turn is itself split
#: over its own turns (one root turn can be most of the work). Split, the eldest costs
#: 2.6-3.3x the CPU of one task's search at 9 turns (its turns in separate tables, a
#: weaker first window): a loss on 2 and 4 workers, measured in docs/batch.md.
SPLIT_ELDEST_TURNS = 8
SPLIT_ELDEST_THREADS = 8


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


#: seconds a task goes on with the window it read last before reading it again (a read
#: is a round trip to the scheduler; a root turn often takes milliseconds)
WINDOW_READ_EVERY = 0.2


class Window:
    """The best proved bound on the root's value (Red's side), shared by the tasks of one
    deep solve: a lower bound when Red moves (the root is the max of its children), an
    upper bound when Blue moves, with the root turn whose child proved it. ``name``
    None: a window of this task alone (no cluster). On a cluster it is a Dask
    ``Variable``, read at most every :data:`WINDOW_READ_EVERY` seconds (a stale copy is
    only a weaker bound, never a wrong one); offers go under a Dask ``Lock`` so it only
    ever narrows."""

    def __init__(self, name: str | None, red: bool, bound: int | None = None, turn: int = -1):
        self.name, self.red = name, red
        self._local = (bound, turn)
        self._var = self._lock = None
        self._read_at = -1e9
        if name is not None:
            from distributed import Lock, Variable
            self._var, self._lock = Variable(name), Lock(name + "-lock")

    def better(self, v: int, than: int | None) -> bool:
        return than is None or (v > than if self.red else v < than)

    def get(self, fresh: bool = False) -> tuple[int | None, int]:
        """(bound or None, the root turn that proved it or -1); ``fresh``: read the
        shared copy now."""
        now = time.perf_counter()
        if self._var is not None and (fresh or now - self._read_at >= WINDOW_READ_EVERY):
            got = self._var.get()
            self._read_at = now
            if got and self.better(got[0], self._local[0]):
                self._local = tuple(got)
        return self._local

    def offer(self, v: int, turn: int) -> None:
        """``v`` is proved for the child after ``turn`` (a lower bound when Red moves,
        an upper bound when Blue moves), hence for the root: keep it if it narrows."""
        if not self.better(v, self._local[0]):
            return                       # not better than a bound already shared
        self._local = (v, turn)
        if self._var is None:
            return
        with self._lock:
            cur = self._var.get()
            if not cur or self.better(v, cur[0]):
                self._var.set([v, turn])
            else:
                self._local = tuple(cur)
        self._read_at = time.perf_counter()


def _for_child(window: Window, turn: int, fresh: bool = False) -> int | None:
    """The window that the child after ``turn`` must beat. A bound this child proved
    itself (in an earlier run of a retried task, or earlier in this one) counts one
    weaker, so the child proves it again rather than being cut by its own bound."""
    w, src = window.get(fresh)
    if w is None or src != turn:
        return w
    return w - 1 if window.red else w + 1


def _keeps(s, value: int, red_moves: bool) -> bool:
    """At a child (on ``s``, no limits set): does it keep its parent's exact ``value``?
    (the serial solver's test: one null-window probe)"""
    r = s.red_probe(value if red_moves else value + 1)
    if r is None:
        raise RuntimeError("a probe without limits stopped")
    return r[1] if red_moves else not r[1]


def _line(s, value: int) -> list[int]:
    """An optimal line from ``s``'s current position to the end of the game, one proved
    turn at a time, the table's turn tried first (as the serial solver walks its PV)."""
    line = []
    pos = s.position()
    while not pos.is_over():
        red_moves = pos.side == 0
        cands = pos.legal_turns()
        first = s.tt_move()
        if first in cands:
            cands.remove(first)
            cands.insert(0, first)
        for t in cands:
            s.make(t)
            if _keeps(s, value, red_moves):
                line.append(t)
                break
            s.unmake(t)
        else:
            raise RuntimeError("no turn keeps the proved value")
        pos = s.position()
    for t in reversed(line):
        s.unmake(t)
    return line


def _node_abort() -> int:
    from ..endgame._search import ABORT_REASONS
    return next(k for k, v in ABORT_REASONS.items() if v == "node limit")


def _sliced_probe(s, gamma: int, window: Window, turn: int, stop_at: int,
                  deadline: float | None, want):
    """``s.red_probe(gamma)`` in slices of :data:`SLICE_NODES` nodes (a shared window
    only). Between slices the window is read again; when ``want(window)`` (the probe it
    asks for now) is no longer ``gamma``, returns ``("again", None)``. Else
    ``("done", (v, is_lower))``, or ``("stopped", None)`` when the task's own limit
    (``stop_at`` nodes, 0: none; ``deadline``, perf_counter time) stopped it."""
    nodes_abort = _node_abort()
    while True:
        n = s.stats()["nodes"]
        cap = n + SLICE_NODES if window.name is not None else 0
        if stop_at and (not cap or stop_at < cap):
            cap = stop_at
        seconds = 0.0
        if deadline is not None:
            seconds = deadline - time.perf_counter()
            if seconds <= 0:
                return "stopped", None
        s.set_limits(cap, seconds)
        r = s.red_probe(gamma)
        if r is not None:
            return "done", r
        if s.aborted != nodes_abort or (stop_at and s.stats()["nodes"] >= stop_at):
            return "stopped", None
        if want(_for_child(window, turn, fresh=True)) != gamma:
            return "again", None


def _prove_child(s, turn: int, window: Window, red: bool, stop_at: int,
                 deadline: float | None) -> dict:
    """Bounds (Red's side) on the child after ``turn`` (made on ``s``): proved exactly
    unless the shared window refutes it (``cut``: proved no better for the mover than
    the window) or the task's limit stops it (``finished`` False). Every bound that
    helps the mover is offered to the window as soon as it is proved."""
    from ..endgame.solver import _guess
    lo, hi = s.bounds()
    g = _guess(s)
    cut, finished = False, True

    def want(w):
        """The next null-window test: can the child beat the window? else MTD(f)."""
        if w is not None:
            if red and lo <= w:
                return w + 1
            if not red and hi >= w:
                return w
        gamma = g + 1 if g <= lo else g
        return min(max(gamma, lo + 1), hi)

    while lo < hi:
        w = _for_child(window, turn)
        if w is not None and (hi <= w if red else lo >= w):
            cut = True
            break
        gamma = want(w)
        how, r = _sliced_probe(s, gamma, window, turn, stop_at, deadline, want)
        if how == "stopped":
            finished = False
            break
        if how == "again":
            continue
        v, is_lower = r
        if is_lower:
            lo = max(lo, v)
        else:
            hi = min(hi, v)
        g = v
        if red and is_lower:
            window.offer(lo, turn)
        elif not red and not is_lower:
            window.offer(hi, turn)
    w = _for_child(window, turn)
    if cut and finished and (hi == w if red else lo == w):
        # refuted, but it may equal the window: settle the tie now, with this table
        # warm from the refutation (a best turn is one equal to the root's value)
        gamma = w if red else w + 1
        how, r = _sliced_probe(s, gamma, window, turn, stop_at, deadline, lambda _w: gamma)
        if how == "stopped":
            finished = False
        elif how == "done":
            v, is_lower = r
            if is_lower:
                lo = max(lo, v)
            else:
                hi = min(hi, v)
    if lo == hi:
        cut = False
        window.offer(lo, turn)
    else:
        w = _for_child(window, turn)             # a stopped child may still be refuted
        cut = cut or (w is not None and (hi <= w if red else lo >= w))
    return {"lower": lo, "upper": hi, "exact": lo == hi, "cut": cut, "finished": finished}


def child_task(position: str, turns: list[int], window: str | None,
               time_limit: float | None, node_limit: int | None,
               start: tuple[int | None, int] = (None, -1)) -> list[dict]:
    """Prove the values (Red's side) of ``position`` after each of ``turns``, in order,
    with one transposition table for them all (siblings share much of their trees).

    ``window``: the name of the deep solve's shared :class:`Window` (None: this task's
    own, starting at ``start``). A child that cannot beat the window is only refuted
    (``cut``), and one that may equal it gets one more probe (a tie is exact); the
    window is read again between slices of search, so a bound another task proves
    meanwhile narrows the probes running here. A child that set the window also gets
    its principal variation (``pv``: turns from the child on), walked with this task's
    warm table. The limits apply to the whole
    task. The bounds are proved whatever the window's history; which children are cut
    depends on it."""
    from ..endgame.solver import _searcher, tt_entries_for
    core = _root(position)
    red = core.side == 0
    win = Window(window, red, *start)
    s = _searcher(core, tt_entries_for(max(core.turns_left - 1, 0)), None, None)
    deadline = time.perf_counter() + time_limit if time_limit else None
    stop_at = node_limit or 0
    out = []
    stopped = False
    for turn in turns:
        t0, c0 = time.perf_counter(), time.process_time()
        n0 = s.stats()["nodes"]
        s.make(turn)
        if stopped:
            lo, hi = s.bounds()
            w = _for_child(win, turn)
            rec = {"lower": lo, "upper": hi, "exact": lo == hi, "finished": False,
                   "cut": lo < hi and w is not None and (hi <= w if red else lo >= w)}
        else:
            rec = _prove_child(s, turn, win, red, stop_at, deadline)
        stopped = stopped or not rec["finished"]
        rec["window"] = win.get()[0] if rec["cut"] else None
        rec["pv"] = None
        if rec["exact"] and rec["finished"] and win.get()[1] == turn:
            # this child set the window: walk its line now, with this table warm
            s.set_limits(0, 0.0)                  # as the serial solver's post-processing
            rec["pv"] = [turn] + _line(s, rec["lower"])
        s.unmake(turn)
        rec.update(turn=turn, nodes=s.stats()["nodes"] - n0, seconds=time.perf_counter() - t0,
                   cpu=time.process_time() - c0)
        out.append(rec)
    return out


def optimal_task(position: str, turns: list[int], value: int) -> list[bool]:
    """Which of ``turns`` keep the root's proved ``value``? (one null-window probe each,
    one table for them all)"""
    from ..endgame.solver import _searcher, tt_entries_for
    core = _root(position)
    s = _searcher(core, tt_entries_for(max(core.turns_left - 1, 0)), None, None)
    out = []
    for turn in turns:
        s.make(turn)
        out.append(_keeps(s, value, core.side == 0))
        s.unmake(turn)
    return out


def pv_task(position: str, turn: int, value: int) -> list[int]:
    """An optimal line after the optimal root ``turn``, proved step by step."""
    core = _root(position)
    s = _child_searcher(core, turn)
    s.red_probe(value)           # warms the table for the walk
    return [turn] + _line(s, value)


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


def _chunks(items: list, n: int) -> list[list]:
    """``items`` dealt round-robin into at most ``n`` non-empty chunks."""
    n = max(1, min(n, len(items)))
    return [items[k::n] for k in range(n)] if items else []


def deep_solve(client, position, *, time_limit: float | None = None,
               node_limit: int | None = None, progress=None, retries: int = 3,
               chunks_per_thread: int = CHUNKS_PER_THREAD,
               split_eldest: bool | None = None) -> dict:
    """Solve ``position`` (a position object or string) with its root turns as tasks on
    ``client``. Returns ``solve --json``'s keys (``tt`` empty: the tables are per task)
    plus ``tasks`` (per root turn: bounds, whether refuted, nodes, seconds, CPU seconds),
    ``task_count``, ``task_seconds`` and ``task_cpu`` (each task's wall and CPU time on
    its worker, in order of arrival, the eldest first) and ``workers``. ``progress(done, total)`` as root turns are done.

    The eldest root turn (the static guess's favourite) starts alone; the others start,
    dealt round-robin into ``chunks_per_thread`` tasks per worker thread, as soon as the
    shared window holds a bound (or the eldest is done). Every task reads the window
    between slices of search and offers the bounds it proves.

    ``split_eldest``: solve the eldest itself split over its own turns (the second ply)
    before the others start (default: with at least :data:`SPLIT_ELDEST_THREADS` worker
    threads and :data:`SPLIT_ELDEST_TURNS` turns left)."""
    out, _pv = _deep_solve(client, position, time_limit, node_limit, progress, retries,
                           chunks_per_thread, split_eldest, True)
    return out


def _split(client, core, turn: int, time_limit, node_limit, retries,
           chunks_per_thread) -> tuple[dict, list, list]:
    """The eldest root turn's record, its child solved by a deep solve of its own (its
    turns as tasks, no best turns), with that solve's task wall and CPU times."""
    from ..formats.notation import position_string
    child = core.copy()
    child.make(turn)
    t0 = time.perf_counter()
    sub, pv = _deep_solve(client, position_string(child), time_limit, node_limit, None,
                          retries, chunks_per_thread, False, False)
    rec = {"turn": turn, "lower": sub["lower"], "upper": sub["upper"], "exact": sub["exact"],
           "cut": False, "finished": sub["exact"], "window": None,
           "pv": [turn] + pv if sub["exact"] and pv else None, "nodes": sub["nodes"],
           "seconds": time.perf_counter() - t0, "cpu": sum(sub["task_cpu"])}
    return rec, sub["task_seconds"], sub["task_cpu"]


def _deep_solve(client, position, time_limit, node_limit, progress, retries,
                chunks_per_thread, split_eldest, best_turns) -> tuple[dict, list]:
    """:func:`deep_solve`, and its principal variation as turn numbers; without
    ``best_turns`` the best turns are not looked for (``best`` lists the turns proved
    optimal anyway) and the line is only the one a task walked (maybe none)."""
    import uuid

    from distributed import Variable, as_completed
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
    name = f"szsolver-deep-{uuid.uuid4().hex}"
    var = Variable(name, client=client)
    var.set(None)
    results: dict[int, dict] = {}
    task_seconds, task_cpu = [], []

    def submit(chunk):
        return client.submit(child_task, pstr, [orb[0] for orb in chunk], name, time_limit,
                             node_limit, pure=False, retries=retries)

    if split_eldest is None:
        split_eldest = (nthreads >= SPLIT_ELDEST_THREADS
                        and core.turns_left >= SPLIT_ELDEST_TURNS)
    split_eldest = split_eldest and core.turns_left >= 3 and len(orbits) > 1
    try:
        rest = _chunks(orbits[1:], chunks_per_thread * nthreads)
        if split_eldest:
            e = orbits[0][0]
            rec, secs, cpus = _split(client, core, e, time_limit, node_limit, retries,
                                     chunks_per_thread)
            results[e] = rec
            task_seconds += secs
            task_cpu += cpus
            var.set([rec["lower"] if red else rec["upper"], e])   # proved for that child
            if progress:
                progress(1, len(orbits))
            first = []
        else:
            eldest = submit(orbits[:1])
            while rest and not eldest.done() and not var.get():
                time.sleep(0.05)                 # young brothers wait for a bound
            first = [eldest]
        stream = as_completed(first + [submit(c) for c in rest])
        for fut in stream:
            rs = fut.result()
            fut.release()
            for r in rs:
                results[r["turn"]] = r
            task_seconds.append(sum(r["seconds"] for r in rs))
            task_cpu.append(sum(r["cpu"] for r in rs))
            if progress:
                progress(len(results), len(orbits))
    finally:
        var.delete()
    rs = list(results.values())
    if red:
        lo, hi = max(r["lower"] for r in rs), max(r["upper"] for r in rs)
    else:
        lo, hi = min(r["lower"] for r in rs), min(r["upper"] for r in rs)
    exact = lo == hi            # both bounds proved by finished probes
    out = {"position": pstr, "value": lo if exact else None, "winner": winner_of(lo, hi),
           "exact": exact, "lower": lo, "upper": hi, "scores": None, "best": [], "pv": []}
    pv = []
    if exact:
        sure = [t for t, r in results.items() if r["exact"] and r["lower"] == lo]
        maybe = [t for t, r in results.items() if not r["exact"] and r["lower"] <= lo <= r["upper"]]
        if not best_turns:
            maybe = []
        parts = _chunks(maybe, nthreads)
        checks = [client.submit(optimal_task, pstr, part, lo, pure=False, retries=retries)
                  for part in parts]
        for part, oks in zip(parts, client.gather(checks)):
            sure += [t for t, ok in zip(part, oks) if ok]
        best = sorted(t for rep in sure for t in rep_orbit[rep])
        walked = [results[t]["pv"] for t in sorted(sure) if results[t].get("pv")]
        if walked:
            pv = walked[0]
        elif best_turns:
            pv = client.submit(pv_task, pstr, sorted(sure)[0], lo, pure=False,
                               retries=retries).result()
        out.update(best=[format_turn(t, g) for t in best])
        if pv:
            end = core.copy()
            for t in pv:
                end.make(t)
            rs_, bs_ = end.scores()
            out.update(pv=[format_turn(t, g) for t in pv], scores={"red": rs_, "blue": bs_})
    seconds = time.perf_counter() - t0
    nodes = sum(r["nodes"] for r in rs)
    stopped = None if exact else "a task's limit (per task)"
    out.update(nodes=nodes, seconds=round(seconds, 6),
               nodes_per_second=round(nodes / seconds) if seconds > 0 else 0, tt={},
               stopped=stopped, workers=nthreads, task_count=len(task_cpu),
               task_seconds=[round(x, 6) for x in task_seconds],
               task_cpu=[round(x, 6) for x in task_cpu],
               tasks=[{"turn": format_turn(r["turn"], g), "lower": r["lower"], "upper": r["upper"],
                       "exact": r["exact"], "cut": r["cut"], "window": r["window"],
                       "nodes": r["nodes"], "seconds": round(r["seconds"], 6),
                       "cpu": round(r["cpu"], 6)}
                      for r in (results[orb[0]] for orb in orbits)])
    return out, pv
