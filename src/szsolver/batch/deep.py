"""One deep solve over Dask: a job-level null-window search over the one prover.

The client runs MTD(f) at the root (:func:`szsolver.endgame.prover.narrow` on a
:class:`~szsolver.endgame.prover.Bound`, Red's view). Each of its tests "value >=
gamma" is a null-window search the client runs itself over the top plies of the
tree: the root, and below it every node with more than :data:`FRONTIER_TURNS` turns
left. A node below the root with that many turns left or fewer is a *job*: a pure
function ``(solve id, root position, path of turns from the root, gamma) -> (bound,
is_lower, best turn, nodes)``, the prover's :func:`~szsolver.endgame.prover.probe` on
a worker.

* **Interior nodes, young brothers wait.** A node's children are its symmetry orbits
  in the serial solver's root order (:func:`~szsolver.endgame.solver.root_orbits`;
  below the root the turn that cut there in an earlier test first, as the search puts
  its table's turn first). A predicted cut node (the root; the children an all-node
  gives) starts its first child alone and waits; when that child does not cut, it
  becomes an all-node and starts every remaining child at once (a predicted all-node,
  the first child of a cut node, does so at once), and on a fail high it cancels the
  children still running. A neutral turn (x, q) whose stone alone x is running waits
  for it: x's answer may settle (x, q) unsearched by the footprint and last-neutral
  rules, as the serial search settles them (:func:`~szsolver.endgame.prover.best_turns`).
* **The client's cache.** Every bound a job or an interior node proves narrows that
  position's entry (a Bound and the turn that cut there): later tests (MTD(f)'s next,
  the best turns) take what it decides without a job.
* **Warm tables.** Each worker keeps, per solve, one searcher per thread at the
  solve's root, all on one transposition table (``share_table``); a job makes its
  path on one, probes, and takes the path back. A job prefers a worker
  (``workers=[address], allow_other_workers=True``): the one whose table proved its
  node last (an earlier MTD(f) test), else the one a hash of its parent's path picks,
  so that siblings share a table (Dask's work stealing moves jobs to an idle worker);
  the best turns and the line go where their root turns were proved. A neutral turn
  whose stone alone was probed there gets the shifted probe (``set_shift``), as in
  the serial root. The client deletes the solve's searchers on every worker at its end, also
  after an error or Ctrl-C (``client.run``); a job of a solve that ended returns at
  once.
* **One deadline, one node pool.** The client owns the node budget: it grants each
  job a share of what is left (:data:`GRANTS_PER_THREAD`), counts the nodes each job
  reports, and gives a job stopped by its grant a new grant while nodes are left (the
  warm table resumes it). Every job gets the absolute deadline (``time.time()`` on the
  worker's clock). A job probes in slices of :data:`SLICE_NODES` nodes and between
  slices looks at its parent's Dask ``Event``, which the client sets to cancel the
  node's running children (names unique to the solve; cleared, so deleted from the
  scheduler, at its end).
* **After the value, through the prover.** Every root orbit is classified by the
  prover's :func:`~szsolver.endgame.prover.keeps` at the proved value: from the cache
  when it decides, else in a job; the PV is :func:`~szsolver.endgame.prover.pv` in a
  job at an optimal root turn, on the warm table (continued in a new job if its grant
  ends). The answer is :func:`~szsolver.endgame.prover.solve_result`'s.

Contracts:

* The value and the best turns are the serial solver's: every bound in the cache and
  every answer a test gets is proved (a job is a pure function of its inputs: its
  table only speeds it up, so a job rerun after its worker died answers soundly), and
  MTD(f) narrows the root's Bound by proved answers only. The PV is an optimal line
  (maybe another one than the serial), its ``scores`` its end.
* ``time_limit``/``deadline`` and ``node_limit`` bound the whole solve (the value, the
  best turns and the PV): once spent, nothing more is submitted; a stopped answer is
  labelled as the serial solver labels it (``exact``, ``best_complete``,
  ``pv_complete``, ``stopped``). The nodes of all jobs stay within the budget but for
  the search's check interval (4096 nodes a job).
* Which jobs run, and the nodes they search, depend on the order results arrive in;
  the value and the best turns never do.
"""
from __future__ import annotations

import collections
import hashlib
import threading
import time

from .. import interrupt
from ..endgame import prover
from ..errors import UnsupportedError

#: a node below the root with at most this many turns left is searched in one job
#: (measured in docs/batch.md: a 9-turn job takes milliseconds to seconds; with 8 the
#: client's second ply on a 10-turn position searched 1.9x the serial nodes, with 9
#: 0.96x)
FRONTIER_TURNS = 9

#: nodes a job searches between two looks at its cancel event (about a second of
#: search). A probe stopped at a slice end resumes from the warm table; the slices
#: double every :data:`SLICE_DOUBLING` slices so that a probe always ends
SLICE_NODES = 1 << 20
SLICE_DOUBLING = 8

#: seconds between a job's looks at its cancel event (a look is a round trip)
POLL_SECONDS = 0.1

#: with a node limit, jobs in flight per worker thread share what is left: a job is
#: granted (nodes left) / (this x worker threads), at least :data:`NODE_GRAIN`
GRANTS_PER_THREAD = 2
NODE_GRAIN = 4096

#: jobs in flight per worker thread (running or queued on a worker); the client holds
#: the rest in order, so cancelling them costs nothing
IN_FLIGHT_PER_THREAD = 2
#: seconds between the client's looks at the cluster's workers while it waits for a job
#: (a worker lost: its jobs are sent again, :meth:`_Deep.watch`)
WATCH_SECONDS = 0.5
#: seconds past the deadline the client waits for its jobs to say they stopped (each
#: job has the deadline too) before it stops them itself: a job with no worker to run
#: it never says anything
DEADLINE_GRACE = 2.0
#: seconds with no worker alive before the solve gives up (a nanny restarts a killed
#: worker in a few seconds)
WORKERLESS_SECONDS = 60.0

#: solves a worker remembers as ended (a late job of one answers at once)
ENDED_KEPT = 256


# --- on the workers -------------------------------------------------------------------------------

class _Warm:
    """One solve's searchers on this worker: one per thread at the solve's root, all
    on the first one's table; ``alone``: (parent path, stone) whose stone-alone child a
    job probed here (its neutral turns get the shifted probe)."""

    def __init__(self, root: str, tt_size: int | None):
        from ..endgame.solver import new_searcher, tt_entries_for
        self.core = _root(root)
        size = tt_size or tt_entries_for(max(self.core.turns_left - 1, 0))
        self.owner = new_searcher(self.core, size, None, None)
        self.free = [self.owner]
        self.busy = set()
        self.alone = set()
        self.ended = False

    def take(self):
        from ..endgame.solver import new_searcher
        with _LOCK:
            s = self.free.pop() if self.free else None
        if s is None:
            s = new_searcher(self.core, 2, None, None)
            s.share_table(self.owner)
        with _LOCK:
            self.busy.add(s)
        return s

    def give(self, s) -> None:
        s.reset()
        with _LOCK:
            self.busy.discard(s)
            self.free.append(s)


_WARM: dict[str, _Warm] = {}
_ENDED: collections.OrderedDict = collections.OrderedDict()
_LOCK = threading.Lock()


def _root(position: str):
    from ..rules.backends import to_core
    from ..formats.record import parse_source_text
    pos, _game = parse_source_text(position)
    return to_core(pos)


def _warm(solve: str, root: str, tt_size: int | None) -> _Warm | None:
    """This worker's searchers of ``solve`` (made on its first job), None once it ended."""
    with _LOCK:
        if solve in _ENDED:
            return None
        w = _WARM.get(solve)
    if w is None:
        w = _Warm(root, tt_size)
        with _LOCK:
            if solve in _ENDED:
                return None
            w = _WARM.setdefault(solve, w)
    return w


def end_solve(solve: str) -> None:
    """On a worker (``client.run``): ``solve`` is over: delete its searchers, stop the
    ones a job still uses (it then answers at once), remember it ended."""
    with _LOCK:
        _ENDED[solve] = True
        while len(_ENDED) > ENDED_KEPT:
            _ENDED.popitem(last=False)
        w = _WARM.pop(solve, None)
        busy = list(w.busy) if w is not None else []
        if w is not None:
            w.ended = True
    for s in busy:
        s.stop()


def warm_solves() -> list[str]:
    """On a worker: the solves it holds searchers for (tests)."""
    with _LOCK:
        return sorted(_WARM)


class _Sliced:
    """A job's probes within its grant (``grant`` nodes, 0: none) and the deadline, in
    slices with a look at the cancel event between them: :meth:`run` is the ``run`` of
    the prover's steps. ``reason`` says why a probe stopped."""

    def __init__(self, warm: _Warm, grant: int, deadline: float | None, cancel: str | None):
        self.warm, self.grant, self.deadline, self.cancel = warm, grant, deadline, cancel
        self.used = 0
        self.reason = None
        self._looked = -1e9            # the first look is at once

    def cancelled(self) -> bool:
        if self.warm.ended:
            return True
        if self.cancel is None or time.perf_counter() - self._looked < POLL_SECONDS:
            return False
        self._looked = time.perf_counter()
        from distributed import Event
        try:
            return Event(self.cancel).is_set()
        except Exception:             # no scheduler to ask (the solve is gone with it)
            return False

    def run(self, s, gamma: int):
        k = 0
        if self.cancelled():            # (the first look: before the job's first probe)
            self.reason = "cancelled"
            return None
        while True:
            left = None if self.deadline is None else self.deadline - time.time()
            if left is not None and left <= 0:
                self.reason = "time limit"
                return None
            size = SLICE_NODES << (k // SLICE_DOUBLING)
            if self.grant:
                size = min(size, self.grant - self.used)
                if size <= 0:
                    self.reason = prover.NODE_LIMIT
                    return None
            n0 = s.stats()["nodes"]
            s.set_limits(n0 + size, left or 0.0)
            r = prover.probe(s, gamma)
            self.used += s.stats()["nodes"] - n0
            if r is not None:
                return r
            why = prover.stop_reason(s)
            if why != prover.NODE_LIMIT or self.warm.ended:
                self.reason = "ended" if self.warm.ended else why
                return None
            if self.cancelled():
                self.reason = "cancelled"
                return None
            k += 1


def job(solve: str, root: str, path: list[int], gamma: int, kind: str = "probe",
        value: int | None = None, *, grant: int = 0, deadline: float | None = None,
        cancel: str | None = None, tt_size: int | None = None) -> dict | None:
    """One job of the deep solve ``solve`` at ``root`` (a position string) after the
    turns ``path``, on this worker's warm searchers. ``kind``:

    * ``probe``: "value >= gamma" (Red's view): ``bound``, ``is_lower``, ``turn`` (the
      turn that reached the probe's beta there, or -1), ``footprint``;
    * ``best``: at the root, which of the root orbits ``gamma`` (a list of orbits)
      keep its ``value`` (the prover's best turns: ``best``, the optimal turns,
      ``complete``);
    * ``pv``: an optimal line from there (the value being ``value``): ``line``,
      ``complete``.

    Always ``nodes``, ``seconds``, ``cpu`` and ``stopped`` (None, or why: node limit
    (the ``grant`` spent), time limit (``deadline``, ``time.time()``), cancelled (the
    Dask Event ``cancel`` set), ended (the solve is over)). None when the solve is
    over before it starts. ``tt_size``: the warm table's entries (default by depth)."""
    t0, c0 = time.perf_counter(), time.thread_time()
    warm = _warm(solve, root, tt_size)
    if warm is None:
        return None
    s = warm.take()
    sliced = _Sliced(warm, grant, deadline, cancel)
    out = {"stopped": None}
    n0 = s.stats()["nodes"]
    try:
        for t in path:
            s.make(t)
        if kind == "probe":
            last = path[-1] if path else -1
            x, q = last & 63, (last >> 6) - 1
            if q >= 0 and (tuple(path[:-1]), x) in warm.alone:
                s.set_shift(q)          # the position after x alone is in this table
            r = sliced.run(s, gamma)
            if q < 0 and path:
                warm.alone.add((tuple(path[:-1]), x))
            if r is not None:
                out.update(bound=r[0], is_lower=r[1], turn=s.last_refutation,
                           footprint=s.last_footprint)
        elif kind == "best":
            # the prover's best turns over these root orbits, within the grant and
            # the deadline (one limit for the step: no slices, no cancel)
            best, left = [], None if deadline is None else deadline - time.time()
            if left is None or left > 0:
                s.set_limits(n0 + grant if grant else 0, left or 0.0)
                try:
                    prover.best_turns(s, gamma, value, warm.core.side == 0, best)
                    out["complete"] = True
                except prover.Stopped:
                    s.reset()
                    sliced.reason = prover.stop_reason(s)
            if "complete" not in out:
                out["complete"] = False
                sliced.reason = sliced.reason or "time limit"
            out["best"] = best
        else:
            line = []
            try:
                prover.pv(s, value, line, sliced.run)
                out["complete"] = True
            except prover.Stopped:
                out["complete"] = False
            out["line"] = line
    finally:
        out["nodes"] = s.stats()["nodes"] - n0
        warm.give(s)
    stopped = "bound" not in out if kind == "probe" else not out["complete"]
    out["stopped"] = sliced.reason if stopped else None
    out["seconds"] = time.perf_counter() - t0
    out["cpu"] = time.thread_time() - c0
    out["worker"] = _address()
    return out


def _address() -> str | None:
    """This worker's address (None outside a Dask worker)."""
    try:
        from distributed import get_worker
        return get_worker().address
    except (ImportError, ValueError):
        return None


# --- on the client --------------------------------------------------------------------------------

class _Pool(prover.Budget):
    """The whole command's node budget and deadline, kept by the client: the prover's
    Budget (its ``reason``, ``why``, ``stop``) whose pool is the nodes the jobs report."""

    def __init__(self, node_limit: int | None, deadline: float | None):
        super().__init__(node_limit, None)
        self.deadline = deadline
        self.counted = 0          # nodes the jobs reported
        self.granted = 0          # nodes granted to the jobs in flight

    def spent(self) -> int:
        return self.counted

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.time() >= self.deadline

    def grant(self, threads: int) -> int | None:
        """Nodes for a job to start now (0: no node limit), or None: none now (the
        deadline passed, or the pool is spent or granted to jobs in flight; ``reason``
        set when nothing will come back)."""
        if self.out_of_time():
            self.stop("time limit")
            return None
        if not self.node_limit:
            return 0
        left = self.node_limit - self.counted - self.granted
        if left <= 0:
            if self.granted == 0:
                self.stop(prover.NODE_LIMIT)
            return None
        g = min(left, max(NODE_GRAIN, left // (GRANTS_PER_THREAD * threads)))
        self.granted += g
        return g

    def back(self, granted: int, used: int) -> None:
        self.granted -= granted
        self.counted += used


class _Job:
    """One job the client runs (or will run when a grant and a slot are free):
    ``done(answer)`` gets the job's result dict, or None when it was stopped."""

    def __init__(self, d: "_Deep", path: tuple, gamma: int, kind: str, value, cancel, done,
                 prefer):
        self.d, self.path, self.gamma, self.kind, self.value = d, path, gamma, kind, value
        self.cancel_event, self.done, self.prefer = cancel, done, prefer
        self.future = None
        self.addr = None                 # the worker it was sent to (None: any)
        self.grant = 0
        self.over = False

    def cancel(self) -> None:
        """Not wanted any more: dropped if it waits here; if it was submitted, its
        parent's event stops it (its nodes are still counted when it answers)."""
        self.over = True
        if self.future is None and self in self.d.waiting:
            self.d.waiting.remove(self)


class _Interior:
    """A node the client searches itself in the test "value >= gamma" (Red's view):
    young brothers wait, children as jobs or interior nodes. ``done((v, is_lower, turn,
    footprint))`` once answered (``turn``: the child that cut, or -1), None when a
    limit stopped it. ``cut_node``: predicted to cut (its first child goes alone)."""

    def __init__(self, d: "_Deep", path: tuple, core, gamma: int, cut_node: bool, done):
        self.d, self.path, self.core, self.gamma, self.done = d, path, core, gamma, done
        self.red = core.side == 0
        self.turns = d.children(path, core)
        n = len(self.turns)
        self.answers = [None] * n        # (v, is_lower, refutation, footprint)
        self.handles = {}                # child index -> running job or interior node
        self.held = collections.defaultdict(list)   # stone's index -> neutral turns waiting
        self.next = 0
        self.alone = cut_node            # young brothers wait for the first one searched
        self.over = False
        self.event = f"{d.solve}-{d.new_id()}"
        self._busy = self._again = False
        self.stone = {t: i for i, t in enumerate(self.turns) if t < 64}
        self.last_neutral = prover.last_neutral_rule(d.at(path))
        d.s.reset()

    # the node's children answer -----------------------------------------------------------------
    def against(self, is_lower: bool) -> bool:
        """Is a child's answer against the mover here (no cut)?"""
        return is_lower != self.red

    def child_done(self, i: int, ans) -> None:
        self.handles.pop(i, None)
        if self.over:
            return
        if ans is None:
            self.finish(None)
            return
        self.answers[i] = ans
        if not self.against(ans[1]):
            self.finish((ans[0], ans[1], self.turns[i], ALL_POINTS))
            return
        self.alone = False
        for k in self.held.pop(i, []):
            self.settle_neutral(k)
        self.advance()

    def settle_neutral(self, k: int) -> None:
        """The neutral turn k = (x, q), its stone alone answered against the mover: the
        same refutation settles it unsearched, else it is searched."""
        t = self.turns[k]
        v, is_lower, reply, prints = self.answers[self.stone[t & 63]]
        if prover.refuted_alike(t, prints, reply, self.last_neutral):
            # value(x, q) is no better for the mover than what x alone returned
            self.d.learn(self.path + (t,), v, is_lower, -1)
            self.answers[k] = (v, is_lower, -1, prints)
        else:
            self.launch(k)

    def launch(self, k: int) -> None:
        t = self.turns[k]
        h = self.d.visit(self.path + (t,), self.gamma, not self.alone,
                         lambda ans, k=k: self.child_done(k, ans), cancel=self.event)
        if h is not None and not self.over and self.answers[k] is None:
            self.handles[k] = h

    def advance(self) -> None:
        if self._busy:
            self._again = True
            return
        self._busy = True
        try:
            while not self.over:
                self._again = False
                n = len(self.turns)
                while (self.next < n and not self.over
                       and (not self.alone or not self.handles)):
                    k = self.next
                    self.next += 1
                    t = self.turns[k]
                    x, q = t & 63, (t >> 6) - 1
                    j = self.stone.get(x) if q >= 0 else None
                    if j is not None and self.answers[j] is not None and j != k:
                        self.settle_neutral(k)
                        continue
                    if j is not None and j in self.handles:
                        self.held[j].append(k)      # waits for its stone alone
                        continue
                    self.launch(k)
                if self.over:
                    return
                if self.next >= n and not self.handles and not self.held and \
                        all(a is not None for a in self.answers):
                    fold = max if self.red else min     # every child against the mover
                    a = fold(self.answers, key=lambda a: a[0])
                    self.finish((a[0], a[1], -1, ALL_POINTS))
                    return
                if not self._again:
                    return
        finally:
            self._busy = False

    def finish(self, ans) -> None:
        if self.over:
            return
        self.over = True
        self.cancel_children()
        if ans is not None:
            self.d.learn(self.path, ans[0], ans[1], ans[2])
        self.done(ans)

    def cancel_children(self) -> None:
        running = list(self.handles.values())
        self.handles.clear()
        self.held.clear()
        if any(isinstance(h, _Job) and h.future is not None for h in running):
            self.d.set_event(self.event)     # its jobs submitted stop at their next look
        for h in running:
            h.cancel()

    def cancel(self) -> None:
        self.over = True
        self.cancel_children()


class _Deep:
    """One deep solve on the client: the root, the cache of proved bounds, the jobs in
    flight, the node pool."""

    def __init__(self, client, core, pstr: str, pool: _Pool, frontier: int, tt_size,
                 retries: int, progress, trace=None):
        import uuid

        from distributed import as_completed
        from ..endgame.solver import new_searcher
        self.client, self.core, self.pstr, self.pool = client, core, pstr, pool
        self.frontier, self.tt_size, self.retries, self.progress = \
            frontier, tt_size, retries, progress
        self.solve = f"szsolver-deep-{uuid.uuid4().hex}"
        self.s = new_searcher(core, 2, None, None)      # the client's: orders, static bounds
        self.cache: dict = {}            # position key -> [Bound, turn that cut there]
        # results fetched as they end, on this client's loop (not the default client's)
        self.ac = as_completed([], loop=client.loop, with_results=True)
        self.in_flight: dict = {}        # future key -> _Job
        self.waiting: list = []          # jobs waiting for a slot or a grant, in order
        self.events: set = set()         # the events set (cleared at the end)
        self.ids = 0
        self.jobs_done = self.jobs_started = 0
        self.task_seconds, self.task_cpu = [], []
        self.by_kind = collections.Counter()     # nodes by the kind of job
        self.trace, self.tests = trace, 0
        self.proved_on = {}              # path -> the worker whose table proved it last
        self.by_root = collections.defaultdict(lambda: {"nodes": 0, "seconds": 0.0,
                                                        "cpu": 0.0, "jobs": 0})
        self.threads_seen = sum(client.nthreads().values())    # as the solve starts
        self.threads = max(1, self.threads_seen)
        self.workers = sorted(client.nthreads())
        self.workerless = None           # since when no worker was alive (monotonic)
        self._orders: dict = {}

    def new_id(self) -> int:
        self.ids += 1
        return self.ids

    # positions, the cache --------------------------------------------------------------------------
    def at(self, path):
        """The client's searcher made along ``path`` (take it back with ``s.reset()``)."""
        for t in path:
            self.s.make(t)
        return self.s

    def key_after(self, path) -> tuple:
        s = self.at(path)
        p = s.position()
        s.reset()
        return (p.red, p.blue, p.neutral, p.red_neutrals, p.blue_neutrals, p.side)

    def entry(self, path) -> list:
        key = self.key_after(path)
        e = self.cache.get(key)
        if e is None:
            s = self.at(path)
            e = self.cache[key] = [prover.static_bound(s), -1]
            s.reset()
        return e

    def learn(self, path, v: int, is_lower: bool, turn: int) -> None:
        """A proved answer at the node after ``path`` narrows its entry."""
        e = self.entry(path)
        e[0] = e[0].after(v, is_lower)
        if turn >= 0:
            e[1] = turn

    def children(self, path, core) -> list[int]:
        """One turn per orbit at the node after ``path``, in the serial root's order;
        below the root the turn that cut there before first."""
        from ..endgame.solver import root_orbits, turn_orbits
        got = self._orders.get(path)
        if got is None:
            s = self.at(path)
            got = [o[0] for o in root_orbits(s, turn_orbits(core))]
            s.reset()
            self._orders[path] = got
        if path:
            first = self.entry(path)[1]
            if first in got and got[0] != first:
                got = [first] + [t for t in got if t != first]
        return got

    # the search -------------------------------------------------------------------------------------
    def visit(self, path: tuple, gamma: int, cut_node: bool, done, cancel=None):
        """Start the test "value >= gamma" at the node after ``path``: answered at once
        from the cache (``done`` called, None returned), else a job or an interior node
        (returned, ``done`` called later)."""
        e = self.entry(path)
        if (d := e[0].decides(gamma)) is not None:
            done((d[0], d[1], -1, ALL_POINTS))    # (no refutation, footprint of its own)
            return None
        s = self.at(path)
        core = s.position()
        s.reset()
        if path and core.turns_left <= self.frontier:
            def answered(r):
                done(None if r is None else
                     (r["bound"], r["is_lower"], r["turn"], r["footprint"]))
            # where its last proof is in the table, else with its brothers
            return self.submit(path, gamma, "probe", None, cancel, answered,
                               self.proved_on.get(path, path[:-1]))
        node = _Interior(self, path, core, gamma, cut_node, done)
        node.advance()
        return None if node.over else node

    def submit(self, path, gamma, kind, value, cancel, done, prefer) -> _Job:
        """Run a job (when a slot and a grant are free); ``prefer``: a worker address,
        or a path whose hash picks the worker."""
        j = _Job(self, tuple(path), gamma, kind, value, cancel, done, prefer)
        self.waiting.append(j)
        self.flush()
        return j

    def flush(self) -> None:
        """Submit the waiting jobs while slots and grants are free; a job that can get
        no grant while nothing is in flight is stopped (``done(None)``)."""
        while self.waiting and len(self.in_flight) < IN_FLIGHT_PER_THREAD * self.threads:
            j = self.waiting[0]
            g = self.pool.grant(self.threads)
            if g is None:
                if self.in_flight and self.pool.reason is None:
                    return                      # a grant comes back with a job
                self.waiting.pop(0)
                j.done(None)
                continue
            self.waiting.pop(0)
            j.grant = g
            self.send(j)
            self.jobs_started += 1

    def send(self, j: _Job) -> None:
        """Submit job ``j`` (its grant given) to its worker: the one it prefers while
        that one is alive, else the one its path's hash picks."""
        addr = j.prefer if isinstance(j.prefer, str) and j.prefer in self.workers else \
            self.workers[_spread(j.prefer, len(self.workers))] \
            if self.workers and not isinstance(j.prefer, str) else None
        j.addr = addr
        j.future = self.client.submit(
            job, self.solve, self.pstr, list(j.path), j.gamma, j.kind, j.value, grant=j.grant,
            deadline=self.pool.deadline, cancel=j.cancel_event, tt_size=self.tt_size,
            workers=[addr] if addr else None, allow_other_workers=bool(addr), pure=False,
            retries=self.retries)
        self.in_flight[j.future.key] = j
        self.ac.add(j.future)

    def watch(self) -> None:
        """A worker lost (killed: its nanny starts another, at a new address) leaves the
        jobs sent to it waiting in the scheduler for that address for ever, though
        they may run elsewhere, and the client with them: they are sent again, to the
        workers alive (a job's answer is a proved fact, so one run twice is harmless;
        its first run, if it ever ends, is ignored)."""
        alive = sorted(self.client.nthreads())
        self.workers = alive
        if not alive:                    # none yet (a nanny starts one): the next look
            if self.workerless is None:
                self.workerless = time.monotonic()
            elif time.monotonic() - self.workerless >= WORKERLESS_SECONDS:
                raise OSError(f"no Dask worker was alive for {WORKERLESS_SECONDS:g} s: "
                              "nothing runs the solve's jobs")
            return
        self.workerless = None
        for key, j in list(self.in_flight.items()):
            if j.addr is not None and j.addr not in alive and not j.future.done():
                del self.in_flight[key]
                self.client.cancel(j.future)
                self.send(j)

    def stop_all(self) -> None:
        """The deadline passed and the jobs in flight have not said so (no worker runs
        them): each is stopped here, its grant back unspent (what it searched, if it
        ever runs, is not counted), and the solve ends as its limit says."""
        self.pool.stop("time limit")
        jobs = list(self.in_flight.values())
        self.in_flight.clear()
        for j in jobs:
            j.future.cancel()
            self.pool.back(j.grant, 0)
            if not j.over:
                j.done(None)
        self.flush()

    def set_event(self, name: str) -> None:
        from distributed import Event
        Event(name, client=self.client).set()
        self.events.add(name)

    def pump(self) -> None:
        """Wait for the next job to end and hand its answer on."""
        if not self.in_flight:
            raise RuntimeError("the deep solve waits for no job")   # pragma: no cover
        # as_completed's own wait (its condition is notified as a job is queued), with a
        # look at the workers every WATCH_SECONDS; not distributed.wait, which runs on
        # the default client (with --scheduler, another client's loop: it spun for ever)
        ready = getattr(self.ac, "thread_condition", None)
        look = time.monotonic() + WATCH_SECONDS
        while not self.ac.has_ready():
            if ready is None:
                time.sleep(0.002)
            else:
                with ready:
                    if not self.ac.has_ready():
                        ready.wait(timeout=0.1)
            if time.monotonic() >= look:
                self.watch()
                look = time.monotonic() + WATCH_SECONDS
                if self.pool.deadline is not None and \
                        time.time() >= self.pool.deadline + DEADLINE_GRACE:
                    self.stop_all()
                    return
        fut, r = next(self.ac)
        j = self.in_flight.pop(fut.key, None)
        fut.release()
        if j is None or j.future is not fut:     # sent again since (watch): ignored
            return
        self.jobs_done += 1
        if r is None:                                # the solve ended (cannot be: we run)
            self.pool.back(j.grant, 0)
            j.done(None)
            return
        self.pool.back(j.grant, r["nodes"])
        self.by_kind[j.kind] += r["nodes"]
        if self.trace is not None:
            self.trace.append({"kind": j.kind, "depth": len(j.path), "test": self.tests,
                               "nodes": r["nodes"], "seconds": r["seconds"], "cpu": r["cpu"],
                               "stopped": r["stopped"], "cancelled": j.over})
        self.task_seconds.append(r["seconds"])
        self.task_cpu.append(r["cpu"])
        if j.path:
            rec = self.by_root[j.path[0]]
            rec["nodes"] += r["nodes"]
            rec["seconds"] += r["seconds"]
            rec["cpu"] += r["cpu"]
            rec["jobs"] += 1
        if j.kind == "probe" and r["stopped"] is None:
            self.learn(j.path, r["bound"], r["is_lower"], r["turn"])
            if r["worker"] is not None:
                self.proved_on[j.path] = r["worker"]
        if self.progress is not None:
            self.progress(self.jobs_done, self.jobs_started + len(self.waiting))
        if j.over:
            self.flush()
            return
        if r["stopped"] == prover.NODE_LIMIT and self.pool.reason is None:
            j.future = None                          # its grant ended: a new one, warm
            self.waiting.insert(0, j)
        elif r["stopped"] is not None:
            if r["stopped"] == "time limit":
                self.pool.stop("time limit")
            elif r["stopped"] != "cancelled":
                self.pool.stop(r["stopped"])
            j.done(None)
        else:
            j.done(r)
        self.flush()

    def run(self, answered) -> None:
        """Pump until ``answered()``."""
        while not answered():
            if self.pool.reason is not None and not self.in_flight:
                return
            self.pump()

    def test(self, gamma: int):
        """MTD(f)'s test "value >= gamma" at the root: (v, is_lower), or None when stopped."""
        got = []
        self.tests += 1
        node = self.visit((), gamma, True, got.append)
        self.run(lambda: bool(got))
        if not got:
            if node is not None:
                node.cancel()
            return None
        return got[0] if got[0] is None else got[0][:2]

    # after the value -------------------------------------------------------------------------------
    def classify(self, orbits, value: int):
        """Which root orbits keep ``value``: ``{rep: True/False/None}`` (the prover's
        keeps, from the cache when it decides, else in a job; None: stopped)."""
        red = self.core.side == 0
        out = {}
        for orb in orbits:
            e = self.entry((orb[0],))
            ok = prover.keeps(None, value, red, lambda _s, gamma, b=e[0]: b.decides(gamma))
            if ok is not None:
                out[orb[0]] = ok
        return out

    def best_jobs(self, orbits, value: int, known: dict) -> None:
        """Classify the root orbits ``known`` leaves open: the prover's best turns in
        jobs, each over whole families (a stone alone with its neutral turns, so its
        rules skip what they may), into ``known``."""
        by_rep = {o[0]: o for o in orbits}
        families = collections.defaultdict(list)
        for o in orbits:
            if o[0] not in known:
                families[o[0] & 63].append(o)
        for x, fam in families.items():
            if x in by_rep and by_rep[x] not in fam and any(o[0] >= 64 for o in fam):
                fam.insert(0, by_rep[x])        # its stone alone, for the rules
        fams = sorted(families.values(), key=len, reverse=True)
        n = max(1, min(len(fams), GRANTS_PER_THREAD * self.threads))
        chunks = [[] for _ in range(n)]
        for f in fams:
            min(chunks, key=len).extend(f)
        for chunk in chunks:
            if not chunk:
                continue
            chunk.sort(key=lambda o: o[0])
            where = collections.Counter(self.proved_on[(o[0],)] for o in chunk
                                        if (o[0],) in self.proved_on).most_common(1)

            def done(r, chunk=chunk):
                for o in chunk:
                    if r is not None and (o[0] in r["best"] or r["complete"]):
                        known[o[0]] = o[0] in r["best"]
                    else:
                        known.setdefault(o[0], None)
            self.submit((), chunk, "best", value, None, done, where[0][0] if where else ())

    def line(self, rep: int, value: int) -> tuple[list[int], bool]:
        """An optimal line starting with the optimal root turn ``rep`` (the prover's pv
        in jobs, each going on from where the last one's grant ended), on the worker
        whose table proved ``rep``'s bound last."""
        line = [rep]
        while True:
            got = []
            where = self.proved_on.get((rep,), ())    # its proofs are in that table
            self.submit(tuple(line), 0, "pv", value, None, got.append, where)
            self.run(lambda: bool(got))
            r = got[0] if got else None
            if r is None:
                return line, False
            line += r["line"]
            if r["complete"]:
                return line, True

    def end(self, drain: bool = True) -> None:
        """The solve is over: delete its searchers on every worker (a job still running
        stops at once), and its events on the scheduler. ``drain``: first wait for the
        jobs in flight (cancelled ones: they stop within a slice) so that their nodes
        are counted; else (an error) drop them."""
        self.waiting.clear()
        for j in self.in_flight.values():
            j.over = True
        try:
            self.client.run(end_solve, self.solve, on_error="ignore")
        except Exception:               # pragma: no cover - the cluster is going away
            pass
        if drain:
            while self.in_flight:
                self.pump()
        else:
            for j in self.in_flight.values():
                j.future.cancel()
            self.in_flight.clear()
        from distributed import Event
        for name in self.events:
            try:
                Event(name, client=self.client).clear()
            except Exception:           # pragma: no cover
                pass
        self.events.clear()


ALL_POINTS = (1 << 64) - 1


class SolveInterrupted(interrupt.Interrupted):
    """Ctrl-C stopped a deep solve: ``answer`` holds what it had proved by then, as
    ``solve --json`` says it (``stopped`` "interrupted"), for the command to print
    before it ends as interrupted, as the serial solve does."""

    def __init__(self, answer: dict):
        super().__init__()
        self.answer = answer


def _spread(path: tuple, n: int) -> int:
    """A worker index for the children of the node after ``path`` (a stable hash)."""
    h = hashlib.blake2b(repr(tuple(path)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") % n


def deep_solve(client, position, *, time_limit: float | None = None,
               node_limit: int | None = None, progress=None, retries: int = 3,
               deadline: float | None = None, frontier_turns: int | None = None,
               tt_size: int | None = None, trace: list | None = None) -> dict:
    """Solve ``position`` (a position object or string) over ``client``'s workers.
    Returns ``solve --json``'s keys (``tt`` empty: the tables are the workers') plus
    ``tasks`` (per root turn: its proved bounds, whether it was refuted (proved no
    better than the value, not exactly), and the nodes, wall and CPU seconds and jobs
    of the jobs below it), ``task_count``, ``task_seconds`` and ``task_cpu`` (every
    job, in order of arrival) and ``workers`` (worker threads). ``progress(done,
    total)`` as jobs end.

    ``time_limit`` and ``node_limit`` bound the whole solve (the value, the best turns
    and the line) as the serial solver's do. ``deadline`` (``time.time()``), when
    given, replaces ``time_limit``: the command line starts its clock before the
    cluster. ``frontier_turns`` (default :data:`FRONTIER_TURNS`): nodes below the root
    with at most this many turns left are jobs. ``tt_size``: entries of each worker's
    table for this solve (default by depth). ``trace``: a list that gets a record of
    every job as it ends (kind, depth, the MTD(f) test it served, nodes, wall and CPU
    seconds: for the benchmark)."""
    from ..endgame.solver import MAX_TURNS_WITHOUT_LIMIT, check_searchable, turn_orbits
    from ..rules.backends import to_core
    from ..endgame.solver import root_orbits
    from ..formats.notation import format_turn, position_string
    t0 = time.perf_counter()
    if deadline is None and time_limit:
        deadline = time.time() + time_limit
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
    if core.turns_left - 1 > MAX_TURNS_WITHOUT_LIMIT and deadline is None and node_limit is None:
        raise UnsupportedError(f"position has {core.turns_left} turns left: too deep to solve "
                               f"on a cluster without a limit (up to {MAX_TURNS_WITHOUT_LIMIT + 1} "
                               "turns left without one); give a time limit or a node limit")
    pstr = position_string(core)
    pool = _Pool(node_limit, deadline)
    d = _Deep(client, core, pstr, pool, FRONTIER_TURNS if frontier_turns is None
              else frontier_turns, tt_size, retries, progress, trace)
    red = core.side == 0
    proved = [prover.static_bound(d.s), False]      # the bound so far, and is it the value

    def told(bound, gamma, v, is_lower):
        proved[0] = bound
        return False
    try:
        bound, done = prover.narrow(proved[0], prover.first_guess(d.s), d.test, told)
        proved[:] = [bound, done]
        orbits = root_orbits(d.s, turn_orbits(core))
        best, line, best_complete, pv_complete, scores = [], [], False, False, None
        if done:
            value = bound.lo
            known = d.classify(orbits, value)
            first = next((o[0] for o in orbits if known.get(o[0])), None)
            d.best_jobs(orbits, value, known)
            if first is None:               # no orbit proved optimal yet: the checks first
                d.run(lambda: all(o[0] in known for o in orbits))
                first = next((o[0] for o in orbits if known.get(o[0])), None)
            if first is not None:
                line, pv_complete = d.line(first, value)
            d.run(lambda: all(o[0] in known for o in orbits))
            best = sorted(t for o in orbits if known.get(o[0]) for t in o)
            best_complete = all(known.get(o[0]) is not None for o in orbits)
            if pv_complete:
                scores = prover.line_scores(core, line)
    except KeyboardInterrupt:
        if not _in_process(client):
            d.end(drain=False)
        bound, done = proved
        raise SolveInterrupted(prover.solve_result(
            pstr, bound, done, interrupt.STOPPED, nodes=pool.counted,
            seconds=time.perf_counter() - t0).to_json(g)) from None
    except BaseException:
        d.end(drain=False)
        raise
    d.end()
    reason = pool.why()
    out = prover.solve_result(pstr, bound, done, reason, best=best,
                              best_complete=best_complete, pv=line, pv_complete=pv_complete,
                              scores=scores, nodes=pool.counted,
                              seconds=time.perf_counter() - t0).to_json(g)
    tasks = []
    for o in orbits:
        b = d.entry((o[0],))[0]
        if done:
            cut = not b.exact and (b.hi < bound.lo if red else b.lo > bound.lo)
        else:
            cut = not b.exact and (b.hi <= bound.lo if red else b.lo >= bound.hi)
        rec = d.by_root[o[0]]
        tasks.append({"turn": format_turn(o[0], g), "lower": b.lo, "upper": b.hi,
                      "exact": b.exact, "cut": cut,
                      "window": (bound.lo if red else bound.hi) if cut else None,
                      "nodes": rec["nodes"], "seconds": round(rec["seconds"], 6),
                      "cpu": round(rec["cpu"], 6), "jobs": rec["jobs"]})
    out.update(job_nodes=dict(d.by_kind), workers=d.threads_seen, task_count=len(d.task_cpu),
               task_seconds=[round(x, 6) for x in d.task_seconds],
               task_cpu=[round(x, 6) for x in d.task_cpu], tasks=tasks)
    return out


def _in_process(client) -> bool:
    """Does the scheduler live in this process (a local cluster)? Then after Ctrl-C its
    state goes with the process, and nothing waits for it."""
    return getattr(client, "cluster", None) is not None
