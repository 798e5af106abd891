"""One deep solve split over Dask tasks: alpha-beta at the root over tasks.

The legal root turns (one per symmetry orbit, as the serial solver has them) are
proved in tasks on the workers (MTD(f) null-window probes, the serial solver's C
search): the first turn by the static guess (the likeliest best; ties in the serial
root's order) alone, then, as soon as a bound on the root exists, the others dealt
round-robin into a few chunks per worker thread, one task each, with one
transposition table per task.

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
* ``time_limit`` and ``node_limit`` bound the whole solve, as the serial solver's do:
  one deadline (wall-clock time, read on each worker) and one node budget (a shared
  pool that tasks draw slices from) cover the root turns, the best-turn checks and the
  line. A stopped task keeps the bounds it proved (the static bounds for turns it did
  not reach); the answer is then the bounds over the children (``exact`` False), or,
  when the value was proved before the limit struck, the best turns and the line
  proved so far (``best_complete``/``pv_complete`` False, ``stopped`` says so).
* The shared state (the window, the node pool, their Dask ``Lock``) has names unique
  to one solve and is deleted at its end, also after an error or Ctrl-C; a task still
  running then finds it gone and ends (a long-running scheduler keeps nothing).
* Which turns are refuted, and the nodes searched, depend on the order the tasks run
  in (the value and the best turns never do).
"""
from __future__ import annotations

import contextlib
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


def _child_searcher(core, turn: int, size: int | None = None):
    from ..endgame.solver import new_searcher, tt_entries_for
    s = new_searcher(core, size or tt_entries_for(max(core.turns_left - 1, 0)), None, None)
    s.make(turn)
    return s


def _table_size(core, budget) -> int:
    """Transposition-table entries for a task at ``core``'s children: by depth, or a
    token table when the budget is already spent (a task that starts after the
    deadline answers at once, without allocating up to 256 MiB first)."""
    from ..endgame.solver import tt_entries_for
    if budget.out_of_time() or budget.grant() <= 0:
        return 2
    return tt_entries_for(max(core.turns_left - 1, 0))


#: seconds a task waits for a piece of shared state that is missing: it was deleted, so
#: the deep solve that started the task is over (it was set before any task started)
GONE_AFTER = 5.0

#: the smallest slice of the node budget a task draws at once (the search looks at its
#: node limit every 4096 nodes anyway)
NODE_GRAIN = 4096


class _Ended(Exception):
    """The deep solve that started this task is over (its shared state was deleted)."""


#: what a shared variable holds once its solve is over (set under its lock, so no task
#: is between reading it and writing it then; deleted right after)
ENDED = "ended"


def _read(var):
    """``var.get()``; :class:`_Ended` when the solve is over (the variable says so or is
    gone)."""
    try:
        got = var.get(timeout=GONE_AFTER)
    except TimeoutError:
        raise _Ended from None
    if got == ENDED:
        raise _Ended
    return got


def _lock(name: str):
    """The Dask ``Lock`` of that name, bound to this worker's or client's scheduler."""
    from distributed import Lock
    return Lock(name)


@contextlib.contextmanager
def _holding(lock):
    """``with lock:``, but :class:`_Ended` when the lock is gone: the solve that made it
    is over and closed it (Dask then refuses the acquire with a RuntimeError)."""
    try:
        lock.acquire()
    except RuntimeError:
        raise _Ended from None
    try:
        yield
    finally:
        lock.release()


def _close_lock(name: str) -> None:
    """Delete the lock of the shared variable ``name`` on the scheduler (a lock lives
    there until closed) if this task made it again after its solve deleted both: only
    once the variable is gone. While it is there, even ENDED, the solve deletes the
    lock itself once nobody holds it (:func:`_forget`), and other tasks may take it
    meanwhile (closed while held, the scheduler warns)."""
    from distributed import Variable
    with contextlib.suppress(Exception):
        try:
            Variable(name).get(timeout=0.1)
            return
        except TimeoutError:
            pass
        lock = _lock(name + "-lock")
        if not lock.locked():
            lock.close()


#: seconds a task goes on with the window it read last before reading it again (a read
#: is a round trip to the scheduler; a root turn often takes milliseconds)
WINDOW_READ_EVERY = 0.2


class Window:
    """The best proved bound on the root's value (Red's side), shared by the tasks of one
    deep solve: a lower bound when Red moves (the root is the max of its children), an
    upper bound when Blue moves, with the root turn whose child proved it. ``name``
    None: a window of this task alone (no cluster). On a cluster it is a Dask
    ``Variable``, read at most every :data:`WINDOW_READ_EVERY` seconds (a stale copy is
    only a weaker bound, never a wrong one); offers go under a Dask ``Lock`` (``name``
    + ``-lock``) so it only ever narrows. Raises :class:`_Ended` once the solve deleted
    the variable."""

    def __init__(self, name: str | None, red: bool, bound: int | None = None, turn: int = -1):
        self.name, self.red = name, red
        self._local = (bound, turn)
        self._var = self._lock = None
        self._read_at = -1e9
        if name is not None:
            from distributed import Variable
            self._var, self._lock = Variable(name), _lock(name + "-lock")

    def better(self, v: int, than: int | None) -> bool:
        return than is None or (v > than if self.red else v < than)

    def get(self, fresh: bool = False) -> tuple[int | None, int]:
        """(bound or None, the root turn that proved it or -1); ``fresh``: read the
        shared copy now."""
        now = time.perf_counter()
        if self._var is not None and (fresh or now - self._read_at >= WINDOW_READ_EVERY):
            got = _read(self._var)
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
        _read(self._var)                 # still there? (else the lock is not made again)
        with _holding(self._lock):
            cur = _read(self._var)
            if not cur or self.better(v, cur[0]):
                self._var.set([v, turn])
            else:
                self._local = tuple(cur)
        self._read_at = time.perf_counter()


class Budget:
    """The deep solve's one deadline and one node budget, as one task sees them.

    ``deadline``: ``time.time()`` at which everything stops (None: no time limit).
    ``nodes``: the node budget (None: none). With ``pool`` (a Dask ``Variable`` name;
    its lock is ``pool`` + ``-lock``) the budget is shared: the task draws slices of
    it (at most :data:`SLICE_NODES`, a quarter of what is left, at least
    :data:`NODE_GRAIN`) and gives back what it did not use when it ends; else
    ``nodes`` is this task's alone. The search may pass a slice by up to 4096 nodes
    (it looks at its limit that often); that is charged to the next slice."""

    def __init__(self, deadline: float | None = None, nodes: int | None = None,
                 pool: str | None = None):
        self.deadline = deadline
        self.limited = nodes is not None or pool is not None
        self.pool = pool
        self._held = 0 if pool is not None else (nodes or 0)
        self._var = self._lock = None
        if pool is not None:
            from distributed import Variable
            self._var, self._lock = Variable(pool), _lock(pool + "-lock")

    def seconds_left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.time()

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.time() >= self.deadline

    def grant(self) -> int:
        """Nodes the task may search next (0: the budget is spent); without a node
        budget :data:`SLICE_NODES`."""
        if not self.limited:
            return SLICE_NODES
        if self._held <= 0 and self._var is not None:
            _read(self._var)
            with _holding(self._lock):
                left = _read(self._var)
                take = min(left, max(NODE_GRAIN, min(SLICE_NODES, left // 4)))
                self._var.set(left - take)
            self._held += take
        return max(0, min(self._held, SLICE_NODES))

    def spend(self, used: int) -> None:
        if self.limited:
            self._held -= used

    def release(self) -> None:
        """Give back what this task drew and did not use."""
        if self._var is not None and self._held > 0:
            held, self._held = self._held, 0
            _read(self._var)
            with _holding(self._lock):
                self._var.set(_read(self._var) + held)


def _for_child(window: Window, turn: int, fresh: bool = False) -> int | None:
    """The window that the child after ``turn`` must beat. A bound this child proved
    itself (in an earlier run of a retried task, or earlier in this one) counts one
    weaker, so the child proves it again rather than being cut by its own bound."""
    w, src = window.get(fresh)
    if w is None or src != turn:
        return w
    return w - 1 if window.red else w + 1


def _sliced_probe(s, gamma: int, window: Window | None, turn: int, budget: Budget, want):
    """``s.red_probe(gamma)`` within ``budget``, in slices of at most :data:`SLICE_NODES`
    nodes when there is a shared window or a node budget. Between slices the window is
    read again; when ``want(window)`` (the probe it asks for now) is no longer
    ``gamma``, returns ``("again", None)``. Else ``("done", (v, is_lower))``, or
    ``("stopped", None)`` when the deadline or the node budget stopped it."""
    from ..endgame.prover import NODE_LIMIT, stop_reason
    sliced = budget.limited or (window is not None and window.name is not None)
    while True:
        grant = budget.grant()
        if grant <= 0 or budget.out_of_time():
            return "stopped", None
        n = s.stats()["nodes"]
        left = budget.seconds_left()
        s.set_limits(n + grant if sliced else 0, left if left is not None else 0.0)
        r = s.red_probe(gamma)
        budget.spend(s.stats()["nodes"] - n)
        if r is not None:
            return "done", r
        if stop_reason(s) != NODE_LIMIT:
            return "stopped", None       # the deadline (or Ctrl-C in the client's process)
        if window is not None and want(_for_child(window, turn, fresh=True)) != gamma:
            return "again", None


def _probe(s, gamma: int, budget: Budget):
    """``s.red_probe(gamma)`` to its end within ``budget``: (v, is_lower), or None when
    the budget stopped it."""
    how, r = _sliced_probe(s, gamma, None, -1, budget, lambda _w: gamma)
    return r if how == "done" else None


def _keeps(s, value: int, red_moves: bool, budget: Budget) -> bool | None:
    """At a child (on ``s``): does it keep its parent's exact ``value``? (the prover's
    :func:`~szsolver.endgame.prover.keeps`, its probe run within ``budget``); None when
    the budget stopped the probe."""
    from ..endgame import prover
    return prover.keeps(s, value, red_moves, lambda s, gamma: _probe(s, gamma, budget))


def _line(s, value: int, budget: Budget) -> tuple[list[int], bool]:
    """An optimal line from ``s``'s current position to the end of the game (the
    prover's :func:`~szsolver.endgame.prover.pv`, each probe run within ``budget``),
    and whether it reaches the end (False: the budget stopped it; the line is the
    proved start)."""
    from ..endgame import prover
    line = []
    try:
        prover.pv(s, value, line, lambda s, gamma: _probe(s, gamma, budget))
    except prover.Stopped:
        return line, False
    return line, True


def _prove_child(s, turn: int, window: Window, red: bool, budget: Budget) -> dict:
    """Bounds (Red's side) on the child after ``turn`` (made on ``s``): proved exactly
    unless the shared window refutes it (``cut``: proved no better for the mover than
    the window) or the budget stops it (``finished`` False). Every bound that
    helps the mover is offered to the window as soon as it is proved."""
    from ..endgame.prover import first_guess, static_bound
    bound = static_bound(s)
    g = first_guess(s)
    cut, finished = False, True

    def want(w):
        """The next null-window test: can the child beat the window? else MTD(f)."""
        if w is not None:
            if red and bound.lo <= w:
                return w + 1
            if not red and bound.hi >= w:
                return w
        return bound.test_value(g)

    while not bound.exact:
        w = _for_child(window, turn)
        if w is not None and (bound.hi <= w if red else bound.lo >= w):
            cut = True
            break
        gamma = want(w)
        how, r = _sliced_probe(s, gamma, window, turn, budget, want)
        if how == "stopped":
            finished = False
            break
        if how == "again":
            continue
        v, is_lower = r
        bound = bound.after(v, is_lower)
        g = v
        if red and is_lower:
            window.offer(bound.lo, turn)
        elif not red and not is_lower:
            window.offer(bound.hi, turn)
    w = _for_child(window, turn)
    if cut and finished and (bound.hi == w if red else bound.lo == w):
        # refuted, but it may equal the window: settle the tie now, with this table
        # warm from the refutation (a best turn is one equal to the root's value)
        gamma = w if red else w + 1
        how, r = _sliced_probe(s, gamma, window, turn, budget, lambda _w: gamma)
        if how == "stopped":
            finished = False
        elif how == "done":
            bound = bound.after(*r)
    if bound.exact:
        cut = False
        window.offer(bound.lo, turn)
    else:
        w = _for_child(window, turn)             # a stopped child may still be refuted
        cut = cut or (w is not None and (bound.hi <= w if red else bound.lo >= w))
    return {"lower": bound.lo, "upper": bound.hi, "exact": bound.exact, "cut": cut,
            "finished": finished}


def _budget(time_limit, node_limit, deadline, pool) -> Budget:
    """A task's budget: the solve's ``deadline`` and shared ``pool`` when given, else
    its own ``time_limit`` and ``node_limit``."""
    if deadline is None and time_limit:
        deadline = time.time() + time_limit
    return Budget(deadline, None if pool is not None else node_limit, pool)


def _ending(names: list[str | None]) -> None:
    """A task found its solve over: delete the locks it may have made again."""
    for name in names:
        if name is not None:
            _close_lock(name)


def child_task(position: str, turns: list[int], window: str | None,
               time_limit: float | None, node_limit: int | None,
               start: tuple[int | None, int] = (None, -1), *, deadline: float | None = None,
               pool: str | None = None) -> list[dict] | None:
    """Prove the values (Red's side) of ``position`` after each of ``turns``, in order,
    with one transposition table for them all (siblings share much of their trees).

    ``window``: the name of the deep solve's shared :class:`Window` (None: this task's
    own, starting at ``start``). A child that cannot beat the window is only refuted
    (``cut``), and one that may equal it gets one more probe (a tie is exact); the
    window is read again between slices of search, so a bound another task proves
    meanwhile narrows the probes running here. A child that set the window also gets
    its principal variation (``pv``: turns from the child on, ``pv_complete`` False
    when the budget stopped it), walked with this task's warm table.

    The limits: ``deadline`` (``time.time()``) and ``pool`` (the shared node budget,
    see :class:`Budget`) when given, else ``time_limit`` and ``node_limit`` for this
    task alone. The bounds are proved whatever the window's history; which children are
    cut depends on it. Returns None when the solve that started it is over (its shared
    state deleted: nobody waits for the answer)."""
    from ..endgame.solver import new_searcher
    try:
        core = _root(position)
        red = core.side == 0
        win = Window(window, red, *start)
        budget = _budget(time_limit, node_limit, deadline, pool)
        s = new_searcher(core, _table_size(core, budget), None, None)
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
                rec = _prove_child(s, turn, win, red, budget)
            stopped = stopped or not rec["finished"]
            rec["window"] = win.get()[0] if rec["cut"] else None
            rec["pv"], rec["pv_complete"] = None, False
            if rec["exact"] and rec["finished"] and win.get()[1] == turn:
                # this child set the window: walk its line now, with this table warm
                line, done = _line(s, rec["lower"], budget)
                rec["pv"], rec["pv_complete"] = [turn] + line, done
            s.unmake(turn)
            rec.update(turn=turn, nodes=s.stats()["nodes"] - n0,
                       seconds=time.perf_counter() - t0, cpu=time.process_time() - c0)
            out.append(rec)
        budget.release()
        return out
    except _Ended:
        _ending([window, pool])
        return None


def optimal_task(position: str, turns: list[int], value: int, *,
                 deadline: float | None = None, pool: str | None = None) -> dict | None:
    """Which of ``turns`` keep the root's proved ``value``? (one null-window probe each,
    one table for them all, within the solve's budget). Returns ``{"optimal": [True,
    False or None (not checked: the budget ran out) per turn], "nodes": n}``; None when
    the solve is over."""
    from ..endgame.solver import new_searcher
    try:
        core = _root(position)
        budget = Budget(deadline, None, pool)
        s = new_searcher(core, _table_size(core, budget), None, None)
        out = []
        for turn in turns:
            if out and out[-1] is None:
                out.append(None)
                continue
            s.make(turn)
            out.append(_keeps(s, value, core.side == 0, budget))
            s.unmake(turn)
        budget.release()
        return {"optimal": out, "nodes": s.stats()["nodes"]}
    except _Ended:
        _ending([pool])
        return None


def pv_task(position: str, turn: int, value: int, *, deadline: float | None = None,
            pool: str | None = None) -> dict | None:
    """An optimal line after the optimal root ``turn``, proved step by step within the
    solve's budget: ``{"pv": [turn, ...], "complete": reaches the end, "nodes": n}``;
    None when the solve is over."""
    try:
        core = _root(position)
        budget = Budget(deadline, None, pool)
        s = _child_searcher(core, turn, _table_size(core, budget))
        line, done = [], False
        if _probe(s, value, budget) is not None:     # warms the table for the walk
            line, done = _line(s, value, budget)
        budget.release()
        return {"pv": [turn] + line, "complete": done, "nodes": s.stats()["nodes"]}
    except _Ended:
        _ending([pool])
        return None


def _order(core, orbits) -> list[list[int]]:
    """Orbits best first for the mover by the static guess (the serial solver's first
    guess at each child), ties in the serial root's order (the search's ordering of
    the root's turns): the eldest brother is the likeliest best. Under the Advanced
    rule the static guesses differ only by the neutrals spent, so the search's order
    picks the eldest (measured in docs/batch.md)."""
    from ..endgame.prover import first_guess
    from ..endgame.solver import new_searcher, root_orbits
    s = new_searcher(core, 2, None, None)
    rank = {orb[0]: i for i, orb in enumerate(root_orbits(s, orbits))}
    keyed = []
    for orb in orbits:
        s.make(orb[0])
        g = first_guess(s)
        s.unmake(orb[0])
        keyed.append(((-g if core.side == 0 else g), rank[orb[0]], orb))
    return [orb for _, _, orb in sorted(keyed)]


def _chunks(items: list, n: int) -> list[list]:
    """``items`` dealt round-robin into at most ``n`` non-empty chunks."""
    n = max(1, min(n, len(items)))
    return [items[k::n] for k in range(n)] if items else []


def deep_solve(client, position, *, time_limit: float | None = None,
               node_limit: int | None = None, progress=None, retries: int = 3,
               chunks_per_thread: int = CHUNKS_PER_THREAD,
               split_eldest: bool | None = None, deadline: float | None = None) -> dict:
    """Solve ``position`` (a position object or string) with its root turns as tasks on
    ``client``. Returns ``solve --json``'s keys (``tt`` empty: the tables are per task)
    plus ``tasks`` (per root turn: bounds, whether refuted, nodes, seconds, CPU seconds),
    ``task_count``, ``task_seconds`` and ``task_cpu`` (each task's wall and CPU time on
    its worker, in order of arrival, the eldest first) and ``workers``. ``progress(done, total)`` as root turns are done.

    ``time_limit`` and ``node_limit`` bound the whole solve (the root turns, the best
    turns and the line), as the serial solver's do; what they leave unproved is
    reported as the serial solver reports it (``exact``, ``best_complete``,
    ``pv_complete``, ``complete``, ``stopped``). ``deadline`` (``time.time()``), when
    given, replaces ``time_limit``: the command line starts its clock before the
    cluster (the whole command is bounded).

    The eldest root turn (the static guess's favourite) starts alone; the others start,
    dealt round-robin into ``chunks_per_thread`` tasks per worker thread, as soon as the
    shared window holds a bound (or the eldest is done). Every task reads the window
    between slices of search and offers the bounds it proves.

    ``split_eldest``: solve the eldest itself split over its own turns (the second ply)
    before the others start (default: with at least :data:`SPLIT_ELDEST_THREADS` worker
    threads and :data:`SPLIT_ELDEST_TURNS` turns left)."""
    import uuid

    from distributed import Variable
    if deadline is None and time_limit:
        deadline = time.time() + time_limit
    pool = None
    if node_limit is not None:
        pool = f"szsolver-deep-nodes-{uuid.uuid4().hex}"
        Variable(pool, client=client).set(node_limit)
    try:
        out, _pv = _deep_solve(client, position, deadline, pool, node_limit, progress,
                               retries, chunks_per_thread, split_eldest, True)
    except KeyboardInterrupt:
        if pool is not None and not _in_process(client):
            _forget(client, pool)
        raise
    except BaseException:
        if pool is not None:
            _forget(client, pool)
        raise
    if pool is not None:
        _forget(client, pool)
    return out


def _in_process(client) -> bool:
    """Does the scheduler live in this process (a local cluster)? Then after Ctrl-C its
    state goes with the process, and nothing waits for it (a lock closed while a task
    holds it would also make the scheduler warn on this process's standard error)."""
    return getattr(client, "cluster", None) is not None


def _wait_free(lock, seconds: float) -> bool:
    """Wait until nobody holds ``lock``, at most ``seconds``: is it free?"""
    end = time.time() + seconds
    with contextlib.suppress(Exception):
        while lock.locked():
            if time.time() >= end:
                return False
            time.sleep(0.02)
    return True


def _forget(client, name: str, running=()) -> None:
    """Delete the shared variable ``name`` and its lock from the scheduler (tasks still
    running find them gone and end; see :class:`_Ended`). ``running``: futures of tasks
    that may still use them (a solve that failed): they are told the solve ended and
    given up to :data:`GONE_AFTER` seconds to stop first, so that none takes the lock
    again after it is deleted (it would stay on the scheduler while it waits for the
    variable)."""
    from distributed import Lock, Variable, wait
    var = Variable(name, client=client)
    lock = Lock(name + "-lock", scheduler_rpc=client.scheduler, loop=client.loop)
    held = False
    with contextlib.suppress(Exception):     # a lease of a lost worker expires in 30 s
        held = lock.acquire(timeout=2)
    try:
        with contextlib.suppress(Exception):
            var.set(ENDED)         # a task writes only what it read under the lock
    finally:
        if held:
            with contextlib.suppress(Exception):
                lock.release()
    if running:
        with contextlib.suppress(Exception):
            wait([f for f in running if not f.done()], timeout=GONE_AFTER)
    # A task may hold the lock now: one that waited for it while we held it, or one
    # still running after the wait. Under it, it reads ENDED and lets go at once, so
    # the variable goes only after that (gone, it would make the task wait for it);
    # a lock closed while held makes the scheduler warn. A lease of a lost worker
    # (it expires in 30 s) is waited for GONE_AFTER seconds at most.
    free = _wait_free(lock, GONE_AFTER)
    with contextlib.suppress(Exception):
        var.delete()
    if free:                # one that read the variable just before ENDED
        _wait_free(lock, GONE_AFTER + 1)
    with contextlib.suppress(Exception):
        lock.close()


def _split(client, core, turn: int, deadline, pool, node_limit, retries,
           chunks_per_thread) -> tuple[dict, list, list]:
    """The eldest root turn's record, its child solved by a deep solve of its own (its
    turns as tasks, no best turns, the same budget), with that solve's task wall and
    CPU times."""
    from ..formats.notation import position_string
    child = core.copy()
    child.make(turn)
    t0 = time.perf_counter()
    sub, pv = _deep_solve(client, position_string(child), deadline, pool, node_limit, None,
                          retries, chunks_per_thread, False, False)
    rec = {"turn": turn, "lower": sub["lower"], "upper": sub["upper"], "exact": sub["exact"],
           "cut": False, "finished": sub["exact"], "window": None,
           "pv": [turn] + pv if sub["exact"] and pv else None,
           "pv_complete": sub["pv_complete"], "nodes": sub["nodes"],
           "seconds": time.perf_counter() - t0, "cpu": sum(sub["task_cpu"])}
    return rec, sub["task_seconds"], sub["task_cpu"]


def _deep_solve(client, position, deadline, pool, node_limit, progress, retries,
                chunks_per_thread, split_eldest, best_turns) -> tuple[dict, list]:
    """:func:`deep_solve` within ``deadline`` (``time.time()``) and the node budget in
    ``pool`` (a Variable name; ``node_limit`` is its size, for the depth check), and
    its principal variation as turn numbers; without ``best_turns`` the best turns are
    not looked for (``best`` lists the turns proved optimal anyway) and the line is
    only the one a task walked (maybe none)."""
    import uuid

    from distributed import Variable, as_completed
    from ..endgame.prover import Bound, line_scores, solve_result
    from ..endgame.solver import MAX_TURNS_WITHOUT_LIMIT, check_searchable, to_core, turn_orbits
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
    if core.turns_left - 1 > MAX_TURNS_WITHOUT_LIMIT and deadline is None and pool is None:
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
    extra_nodes = 0
    limits = dict(deadline=deadline, pool=pool)

    def spent() -> bool:
        """The deadline passed or the node budget is gone: no task would search."""
        return ((deadline is not None and time.time() >= deadline)
                or (pool is not None and Variable(pool, client=client).get() <= 0))

    live = []       # the child tasks submitted: a failed solve waits for them to end

    def submit(chunk):
        fut = client.submit(child_task, pstr, [orb[0] for orb in chunk], name, None, None,
                            pure=False, retries=retries, **limits)
        live.append(fut)
        return fut

    def unsearched(chunk) -> list[dict]:
        """The records of ``chunk`` once the budget is spent: static bounds, made here
        (no task round trip), refuted if the window already does it."""
        from ..endgame.solver import new_searcher
        w = (var.get() or [None])[0]
        s = new_searcher(core, 2, None, None)
        recs = []
        for orb in chunk:
            s.make(orb[0])
            lo, hi = s.bounds()
            s.unmake(orb[0])
            cut = lo < hi and w is not None and (hi <= w if red else lo >= w)
            recs.append({"turn": orb[0], "lower": lo, "upper": hi, "exact": lo == hi,
                         "cut": cut, "finished": False, "window": w if cut else None,
                         "pv": None, "pv_complete": False, "nodes": 0, "seconds": 0.0,
                         "cpu": 0.0})
        return recs

    if split_eldest is None:
        split_eldest = (nthreads >= SPLIT_ELDEST_THREADS
                        and core.turns_left >= SPLIT_ELDEST_TURNS)
    split_eldest = split_eldest and core.turns_left >= 3 and len(orbits) > 1
    try:
        rest = _chunks(orbits[1:], chunks_per_thread * nthreads)
        if split_eldest:
            e = orbits[0][0]
            rec, secs, cpus = _split(client, core, e, deadline, pool, node_limit, retries,
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
        if spent():
            for c in rest:
                for r in unsearched(c):
                    results[r["turn"]] = r
            rest = []
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
        rs = list(results.values())
        if red:
            lo, hi = max(r["lower"] for r in rs), max(r["upper"] for r in rs)
        else:
            lo, hi = min(r["lower"] for r in rs), min(r["upper"] for r in rs)
        exact = lo == hi            # both bounds proved by finished probes
        pv, pv_complete, best_complete, best, scores = [], False, False, [], None
        if exact:
            sure = [t for t, r in results.items() if r["exact"] and r["lower"] == lo]
            maybe = [t for t, r in results.items()
                     if not r["exact"] and r["lower"] <= lo <= r["upper"]]
            if not best_turns:
                maybe = []
            parts = _chunks(maybe, nthreads) if not (maybe and spent()) else [maybe]
            checks = [client.submit(optimal_task, pstr, part, lo, pure=False, retries=retries,
                                    **limits) if not spent() else
                      {"optimal": [None] * len(part), "nodes": 0} for part in parts]
            best_complete = True
            for part, got in zip(parts, [c if isinstance(c, dict) else c.result()
                                         for c in checks]):
                sure += [t for t, ok in zip(part, got["optimal"]) if ok]
                best_complete = best_complete and None not in got["optimal"]
                extra_nodes += got["nodes"]
            best = sorted(t for rep in sure for t in rep_orbit[rep])
            walked = [results[t] for t in sorted(sure) if results[t].get("pv")]
            walked.sort(key=lambda r: not r["pv_complete"])    # a whole line first
            if walked:
                pv, pv_complete = walked[0]["pv"], walked[0]["pv_complete"]
            if best_turns and not pv_complete and sure and not spent():
                got = client.submit(pv_task, pstr, sorted(sure)[0], lo, pure=False,
                                    retries=retries, **limits).result()
                extra_nodes += got["nodes"]
                if got["complete"] or len(got["pv"]) > len(pv):
                    pv, pv_complete = got["pv"], got["complete"]
            if pv and pv_complete:
                scores = line_scores(core, pv)
    except KeyboardInterrupt:
        if not _in_process(client):
            _forget(client, name)
        raise
    except BaseException:
        _forget(client, name, live)
        raise
    _forget(client, name)
    if not best_turns:
        best_complete = True          # not asked for
    seconds = time.perf_counter() - t0
    nodes = sum(r["nodes"] for r in rs) + extra_nodes
    reason = "time limit" if deadline is not None and time.time() >= deadline else "node limit"
    out = solve_result(pstr, Bound(lo, hi), exact, reason, best=best,
                       best_complete=best_complete, pv=pv, pv_complete=pv_complete,
                       scores=scores, nodes=nodes, seconds=seconds).to_json(g)
    out.update(workers=nthreads, task_count=len(task_cpu),
               task_seconds=[round(x, 6) for x in task_seconds],
               task_cpu=[round(x, 6) for x in task_cpu],
               tasks=[{"turn": format_turn(r["turn"], g), "lower": r["lower"], "upper": r["upper"],
                       "exact": r["exact"], "cut": r["cut"], "window": r["window"],
                       "nodes": r["nodes"], "seconds": round(r["seconds"], 6),
                       "cpu": round(r["cpu"], 6)}
                      for r in (results[orb[0]] for orb in orbits)])
    return out, pv
