"""The exact solver's proof steps, one home for each: every driver schedules these.

The serial solve (:func:`szsolver.endgame.solver.solve`), its threads, ``check``'s
one-searcher solve (:mod:`szsolver.analysis.check`) and the deep solve over Dask
(:mod:`szsolver.batch.deep`) differ only in how they schedule the steps here on their
searchers (:class:`~szsolver.endgame._search.Searcher`); the steps are the same probes
in the same order, so a step moved here searches the nodes it searched before.

Contracts
---------
* A :class:`Bound` is ``lo <= value <= hi`` in Red's view (the rules' composite value,
  Red maximises). :meth:`Bound.for_side` gives it in a side's view (Blue's: negated and
  swapped) and back; :meth:`Bound.after` narrows it by a null-window probe's answer
  (a fail-high bound is a lower bound, a fail-low one an upper bound);
  :meth:`Bound.test_value` is MTD(f)'s next test value. No caller flips signs by hand.
* :func:`probe` is one null-window probe "value >= gamma" at the searcher's position,
  in the view of the side given: ``(bound, is_lower)``, or None when a limit stopped it
  (:func:`stop_reason` says which). Every bound a finished probe returns is proved.
* :func:`narrow` (MTD(f)'s loop, over any null-window test: one searcher's probe in
  :func:`mtdf`, a round over threads) narrows a Bound until it is exact or a test is
  stopped: every bound on the way is proved, so a stopped run still returns proved
  bounds.
* :func:`keeps` asks whether a child keeps its parent's exact value (one probe);
  :func:`best_turns` adds every root orbit that does (skipping the neutral turns that
  :func:`refuted_alike` settles by their stone alone's proof), :func:`pv` walks an optimal line
  one proved turn at a time. A stop raises :class:`Stopped` in the last two and leaves
  what was proved before it.
* :class:`Budget` is one solve's limits: a node limit over a pool of searchers, a
  deadline, Ctrl-C; :meth:`Budget.why` is the one place that names why a search stopped.
* :func:`solve_result` is the one builder of a :class:`SolveResult` and
  :func:`stopped_text` of its ``stopped`` words ("... after the value was proved
  (best turns and PV incomplete)").
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

try:
    from ._search import ABORT_REASONS, OPTIONS
except ImportError:  # the C extensions are not built
    from ..errors import UnsupportedError
    raise UnsupportedError("the endgame solver needs the compiled extension: pip install . "
                           "(needs a C compiler)") from None
from .. import interrupt
from ..bounds.value import value_guess
from ..formats.notation import board_json, format_turn
from ..rules.base import turn_neutral, turn_stone
from ..rules.text import turn_table

RED = 0

#: the reason a node limit gives (:func:`stop_reason`)
NODE_LIMIT = "node limit"


# --- bounds -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Bound:
    """``lo <= value <= hi``, the value in Red's view (or in the view of the side a
    caller says: :meth:`for_side` turns one into the other)."""
    lo: int
    hi: int

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    @property
    def value(self) -> int | None:
        """The value when exact, else None."""
        return self.lo if self.lo == self.hi else None

    def for_side(self, side: int) -> "Bound":
        """This bound seen by ``side`` (0 Red: itself; 1 Blue: ``-hi <= value <= -lo``).
        Its own inverse: a bound in a side's view comes back to Red's the same way."""
        return self if side == RED else Bound(-self.hi, -self.lo)

    def after(self, v: int, is_lower: bool) -> "Bound":
        """Narrowed by a null-window probe's answer ``(v, is_lower)`` in the same view:
        a fail high (``is_lower``) proves ``value >= v``, a fail low ``value <= v``."""
        return Bound(max(self.lo, v), self.hi) if is_lower else Bound(self.lo, min(self.hi, v))

    def decides(self, gamma: int):
        """The answer to "value >= gamma" that this bound already proves, as a probe
        would give it (``(lo, True)`` or ``(hi, False)``), or None."""
        if self.lo >= gamma:
            return self.lo, True
        if self.hi < gamma:
            return self.hi, False
        return None

    def test_value(self, guess: int) -> int:
        """MTD(f)'s test value after ``guess`` (the last probe's answer, or the first
        guess): ``lo < gamma <= hi`` (needs ``lo < hi``)."""
        g = min(max(guess, self.lo), self.hi)
        gamma = g + 1 if g <= self.lo else g
        return min(max(gamma, self.lo + 1), self.hi)

    def reaches(self, side: int, child: "Bound") -> "Bound":
        """This bound on a position where ``side`` moves, narrowed by ``child``, a bound
        on the position after one of its turns (both in Red's view): the mover does at
        least as well as that turn."""
        mover = self.for_side(side)
        return mover.after(child.for_side(side).lo, True).for_side(side)

    def winner(self) -> str | None:
        return winner_of(self.lo, self.hi)


def winner_of(lower: int, upper: int) -> str | None:
    """red | blue | draw when ``lower <= value <= upper`` (Red's view) decides it."""
    if lower > 0:
        return "red"
    if upper < 0:
        return "blue"
    if lower == upper == 0:
        return "draw"
    return None


def static_bound(s) -> Bound:
    """The score tables' bound on the value at the searcher's position (Red's view):
    :func:`~szsolver.bounds.value.bounds_from_scores` of their score ranges, computed in
    C (``Searcher.bounds``; exact at the end of the game)."""
    return Bound(*s.bounds())


def first_guess(s) -> int:
    """MTD(f)'s first test value at the searcher's position: the value guessed from the
    score tables' ranges (:func:`~szsolver.bounds.value.value_guess`; not a bound)."""
    lr, ur, lb, ub = s.score_bounds()
    return value_guess(s.position(), {"red": [lr, ur], "blue": [lb, ub]})


# --- limits -------------------------------------------------------------------------------------

def stop_reason(s) -> str:
    """Why the searcher's last probe stopped: node limit, time limit or interrupted."""
    return ABORT_REASONS.get(s.aborted, "interrupted")


class Budget:
    """One solve's limits: ``node_limit`` nodes (None: none) over every searcher that
    :meth:`joins <join>` it (one pool, counted thread-safely from each searcher's own
    count), ``time_limit`` seconds from now (None: none) and Ctrl-C. ``reason`` is the
    first reason a scheduler stopped the solve for (None while it runs)."""

    def __init__(self, node_limit: int | None = None, time_limit: float | None = None):
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.start = time.perf_counter()
        self.searchers = []
        self.reason = None
        self._lock = threading.Lock()

    def join(self, s):
        """``s`` draws on this budget's node pool from now on; returns ``s``."""
        self.searchers.append(s)
        return s

    def spent(self) -> int:
        """Nodes searched so far by every searcher of the pool (safe from any thread)."""
        return sum(s.stats()["nodes"] for s in self.searchers)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def seconds_left(self) -> float:
        """Seconds to the deadline (at least a microsecond); 0.0 without a time limit
        (the searcher's "none")."""
        if self.time_limit is None:
            return 0.0
        return max(self.time_limit - self.elapsed(), 1e-6)

    def arm(self, s) -> bool:
        """Give ``s`` what is left: the nodes the pool has not spent, the time to the
        deadline. False (and ``reason`` the node limit) when the pool is spent."""
        left = 0
        if self.node_limit:
            left = self.node_limit - self.spent()
            if left <= 0:
                self.stop(NODE_LIMIT)
                return False
        s.set_limits(s.stats()["nodes"] + left if self.node_limit else 0, self.seconds_left())
        return True

    def stop(self, reason: str) -> None:
        """Record why the solve stops (thread-safe; the first reason is kept)."""
        with self._lock:
            if self.reason is None:
                self.reason = reason

    def poll(self) -> str | None:
        """For a scheduler watching its searchers: Ctrl-C pressed or the pool spent
        (the reason), else None."""
        if interrupt.requested():
            return "interrupted"
        if self.node_limit and self.spent() >= self.node_limit:
            return NODE_LIMIT
        return None

    def why(self, s=None) -> str:
        """Why the solve stopped: the reason a scheduler recorded, else why ``s``'s last
        probe stopped."""
        if self.reason is not None:
            return self.reason
        return stop_reason(s) if s is not None else "interrupted"


class Stopped(Exception):
    """A limit or Ctrl-C stopped a probe of the best turns or the PV."""


# --- probes -------------------------------------------------------------------------------------

def probe(s, gamma: int, side: int = RED):
    """Null-window test "value >= gamma" at the searcher's position, value and
    ``gamma`` in ``side``'s view: ``(bound, is_lower)`` in that view (``value >=
    bound`` if ``is_lower`` else ``value <= bound``), or None when stopped."""
    if side == RED:
        return s.red_probe(gamma)
    r = s.red_probe(1 - gamma)          # Blue's value >= gamma <=> Red's <= -gamma
    if r is None:
        return None
    v, is_lower = r
    return -v, not is_lower


def _red_probe(s, gamma: int):
    return s.red_probe(gamma)


class Progress(str):
    """A progress message of :func:`~szsolver.endgame.solver.solve` (a ``str``: the
    words, as any progress callback takes them) that also carries what the search knows
    at that moment, for a display that shows more than the words. Every fact is one the
    search has proved or counted; the search is the same with or without a callback.

    ``bounds``: (lower, upper), the proved bounds of the value (Red's side). ``probes``:
    the null-window probes finished so far (0: the static bounds of the score
    tables). ``gamma``: the test value of the probe just finished, ``proved_at_least``
    whether the value reached it. ``best``: the root turn (a turn code) that proved
    the side to move's bound so far, or None. ``nodes``: the nodes searched so far.
    ``node_counter``: a function giving the nodes searched so far at any moment, safe
    to call from another thread while a probe runs (a display's clock calls it).
    ``root_counter``: likewise (i, n, j, m), the root turn the running probe searches
    of how many listed, and the reply to it of how many (None where several searchers
    share a probe).
    (The names keep clear of ``str``'s methods.)"""

    bounds: tuple[int, int]
    probes: int
    gamma: int | None
    proved_at_least: bool | None
    best: int | None
    nodes: int
    node_counter: object
    root_counter: object

    def __new__(cls, text: str, *, bounds: tuple[int, int], probes: int, nodes: int,
                node_counter, gamma: int | None = None, proved_at_least: bool | None = None,
                best: int | None = None, root_counter=None) -> "Progress":
        self = super().__new__(cls, text)
        self.bounds, self.probes, self.nodes = bounds, probes, nodes
        self.node_counter, self.gamma, self.proved_at_least, self.best = \
            node_counter, gamma, proved_at_least, best
        self.root_counter = root_counter
        return self


def bounds_text(bound: Bound, nodes: int) -> str:
    return f"{bound.lo:+d} <= value <= {bound.hi:+d} ({nodes:,} node{'' if nodes == 1 else 's'})"


def node_counter(s):
    """The nodes ``s`` has searched, as a function to call at any moment."""
    return lambda: s.stats()["nodes"]


def started(progress, bound: Bound, count, roots=None) -> None:
    """Tell ``progress`` the bounds a search starts from (Red's side), before any probe
    (``count``, ``roots``: the live counters of :class:`Progress`)."""
    if progress is not None:
        progress(Progress(f"{bounds_text(bound, 0)} before the first probe",
                          bounds=(bound.lo, bound.hi), probes=0, nodes=0, node_counter=count,
                          root_counter=roots))


def narrow(bound: Bound, guess: int, test, told=None) -> tuple[Bound, bool]:
    """MTD(f)'s loop: narrow ``bound`` by null-window tests "value >= gamma" from the
    test value ``guess`` until it is exact. ``test(gamma)``: a probe's answer ``(v,
    is_lower)`` in the bound's view, or None when stopped (one searcher's probe, or a
    round over threads). ``told(bound, gamma, v, is_lower)``, optional, after each
    answer; when it returns True the loop ends there (its scheduler stopped).
    Returns (the bound, finished): every bound on the way is proved."""
    g = min(max(guess, bound.lo), bound.hi)
    while not bound.exact:
        gamma = bound.test_value(g)
        r = test(gamma)
        if r is None:
            return bound, False
        v, is_lower = r
        bound = bound.after(v, is_lower)
        g = v
        if told is not None and told(bound, gamma, v, is_lower):
            return bound, bound.exact
    return bound, True


def mtdf(s, bound: Bound, guess: int, progress=None, reached=None) -> tuple[Bound, bool]:
    """MTD(f) (:func:`narrow`) on one searcher: narrow ``bound`` (Red's side) by
    null-window probes at the searcher's position, from the test value ``guess``
    (:func:`first_guess` in the serial solve). Returns (the bound, finished): a stopped
    probe leaves the bounds the finished ones proved. ``progress``: optional callable,
    told a :class:`Progress` after each probe. ``reached``: optional list, set to
    ``[turn, bound]`` each time a probe proves the mover's bound by a turn (``bound`` in
    Red's view: a lower bound when Red moves, an upper one when Blue does; each one
    the mover's best so far), so that a stopped search still names a turn that
    reaches what it proved."""
    if progress is None and reached is None:
        return narrow(bound, guess, s.red_probe)
    red = s.position().side == 0
    probes, best = 0, None

    def told(bound, gamma, v, is_lower):
        nonlocal probes, best
        probes += 1
        if is_lower == red and s.last_refutation >= 0:
            best = s.last_refutation        # the turn that reached the mover's bound
            if reached is not None:
                reached[:] = [best, v]
        if progress is None:
            return False
        nodes = s.stats()["nodes"]
        progress(Progress(bounds_text(bound, nodes), bounds=(bound.lo, bound.hi),
                          probes=probes, nodes=nodes, node_counter=node_counter(s),
                          gamma=gamma, proved_at_least=is_lower, best=best,
                          root_counter=s.root_progress))

    return narrow(bound, guess, s.red_probe, told)


def pvs(s, bound: Bound) -> tuple[Bound, bool]:
    """One full-window principal-variation search inside ``bound`` (the static one)."""
    if bound.exact:
        return bound, True
    red = s.position().side == 0
    a, b = (bound.lo - 1, bound.hi + 1) if red else (-bound.hi - 1, -bound.lo + 1)
    v = s.probe(a, b)
    if s.aborted:
        return bound, False
    v = v if red else -v
    return Bound(v, v), True


# --- the best turns and the line -----------------------------------------------------------------

def keeps(s, value: int, red_moves: bool, run=None) -> bool | None:
    """At a child position (the turn made on ``s``): does it keep its parent's exact
    ``value`` (Red's view)? ``red_moves``: Red made the turn. One null-window probe,
    ``run(s, gamma)`` (default :meth:`Searcher.red_probe`; a scheduler's own, e.g.
    sliced within a shared budget); None when it was stopped."""
    run = run or _red_probe
    if red_moves:          # child <= value always; optimal iff child >= value
        r = run(s, value)
        return None if r is None else r[1]
    r = run(s, value + 1)  # optimal iff child <= value, i.e. not >= value + 1
    return None if r is None else not r[1]


def _keeps(s, value: int, red_moves: bool, run=None) -> bool:
    ok = keeps(s, value, red_moves, run)
    if ok is None:
        raise Stopped
    return ok


def last_neutral_rule(s) -> bool:
    """Does the last-neutral rule hold at the searcher's position: the mover holds one
    neutral and places two stones or more (and the search uses the rule)?"""
    pos = s.position()
    return bool(s.opts & OPTIONS["delay"]) and pos.neutrals_left(pos.side) == 1 \
        and (pos.turns_left + 1) // 2 >= 2


def refuted_alike(turn: int, prints: int, reply: int, last_neutral: bool) -> bool:
    """The neutral turn ``turn`` = (x, q), once the stone alone x was proved no better
    for its mover than a bound (a probe's answer against the mover, with the footprint
    ``prints`` of its proof and ``reply``, the turn that refuted it, or -1): is (x, q)
    proved no better than that bound too, unsearched? By the footprint rule (Basic:
    the proof never plays on q) or, when ``last_neutral`` (:func:`last_neutral_rule`
    at the parent), by the last-neutral rule (the reply does not play on q)."""
    q = turn_neutral(turn)
    if not prints >> q & 1:
        return True
    return last_neutral and reply >= 0 and q not in (turn_stone(reply), turn_neutral(reply))


def best_turns(s, orbits, value: int, red_moves: bool, best: list,
               progress=None) -> None:
    """Add to ``best`` (kept sorted) every turn of the orbits that keeps ``value``, one
    orbit at a time, so that a stop leaves the orbits proved so far. The searcher
    is back at its position afterwards, or after a stop once reset.

    Footprint rule (Basic, docs/solver.md): once the stone alone x is proved below
    ``value``, an orbit (x, q) with q off the footprint of that proof is below it
    too (the same refutation, one neutral poorer) and is skipped unsearched; the
    orbits come in order of their smallest turn, so every stone alone first.

    Last-neutral rule (both rules): when the mover holds one neutral and places two
    stones or more, an orbit (x, q) is below ``value`` too once x alone was refuted
    by a reply that does not play on q (the reply refutes (x, q) as well).

    ``progress``: optional callable(str), told after each orbit."""
    refuted = {}            # stone -> footprint of the proof that x alone is not optimal
    replies = {}            # stone -> the reply that refuted x alone
    probed = set()          # stones alone probed here
    delay = last_neutral_rule(s)
    for k, orb in enumerate(orbits):
        if progress is not None and k:
            progress(f"{k}/{len(orbits)} turns, {len(best)} optimal "
                     f"({s.stats()['nodes']:,} nodes)")
        t = orb[0]
        x, q = turn_stone(t), turn_neutral(t)
        if q >= 0 and x in refuted and refuted_alike(t, refuted[x], replies.get(x, -1), delay):
            continue
        s.make(t)
        if q >= 0 and x in probed:
            s.set_shift(q)      # the position after x alone is in the table
        try:
            ok = _keeps(s, value, red_moves)
            prints = s.last_footprint
            reply = s.last_refutation
        finally:
            s.unmake(t)
        if ok:
            best.extend(orb)
            best.sort()
        elif q < 0:
            refuted[x] = prints
            if delay and reply >= 0:
                replies[x] = reply
        if q < 0:
            probed.add(x)


def pv(s, value: int, line: list, run=None) -> None:
    """Append to ``line`` an optimal line from the searcher's current position to the
    end of the game, one proved turn at a time, the table's turn tried first (each
    step :func:`keeps`, with ``run`` as the probe). The searcher is back at its
    position afterwards; a stop raises :class:`Stopped` with ``line`` the proved start
    (the searcher back at its position too, its limits spent)."""
    pos = s.position()
    try:
        while not pos.is_over():
            red_moves = pos.side == 0
            first = s.tt_move()
            cands = pos.legal_turns()
            if first >= 0 and first in cands:
                cands.remove(first)
                cands.insert(0, first)
            for t in cands:
                s.make(t)
                try:
                    ok = _keeps(s, value, red_moves, run)
                except Stopped:
                    s.unmake(t)
                    raise
                if ok:
                    line.append(t)
                    break
                s.unmake(t)
            else:  # pragma: no cover - would mean the value was wrong
                raise RuntimeError("no turn keeps the proved value")
            pos = s.position()
    except Stopped:
        for t in reversed(line):
            s.unmake(t)
        raise
    for t in reversed(line):
        s.unmake(t)


def line_scores(core, line) -> dict:
    """The final scores ``{"red", "blue"}`` after playing ``line`` (a whole line to
    the end of the game) from ``core``, which is not changed."""
    end = core.copy()
    for t in line:
        end.make(t)
    r, b = end.scores()
    return {"red": r, "blue": b}


# --- the answer ---------------------------------------------------------------------------------

@dataclass
class TurnValue:
    """One root turn's value (Red's side). ``exact`` False: only ``lower``/``upper`` hold."""
    turn: int
    value: int | None
    lower: int
    upper: int
    exact: bool
    group: int          # turns with the same group are images under a symmetry of the position


@dataclass
class SolveResult:
    """The answer of :func:`~szsolver.endgame.solver.solve`. See that module's
    docstring for the contracts; built by :func:`solve_result`."""
    position: str
    value: int | None
    exact: bool
    lower: int
    upper: int
    winner: str | None              # red | blue | draw; None when the bounds leave it open
    scores: dict | None             # {"red": n, "blue": n} at the end of the PV (exact only)
    best: list[int] = field(default_factory=list)
    pv: list[int] = field(default_factory=list)
    turns: list[TurnValue] | None = None
    nodes: int = 0
    seconds: float = 0.0
    stopped: str | None = None      # why the search stopped early, None if it finished
    tt: dict = field(default_factory=dict)
    best_complete: bool = False     # ``best`` holds every optimal turn
    pv_complete: bool = False       # ``pv`` reaches the end of the game
    # where the value is not proved: (turn, bound), a turn proved to reach the mover's
    # proved bound (Red's view: ``lower`` when Red moves, ``upper`` when Blue does), or
    # None (no probe proved one by a turn)
    reached: tuple[int, int] | None = None

    @property
    def complete(self) -> bool:
        """Everything asked for was proved: the value, and unless skipped the best
        turns and the PV (and with ``all_turns`` every turn's value)."""
        return self.exact and self.best_complete and self.pv_complete

    @property
    def nodes_per_second(self) -> float:
        """Nodes searched per second of the solve's wall time."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def bounds(self) -> tuple[int, int]:
        """(lower, upper): the proved bounds of the value (equal when exact)."""
        return self.lower, self.upper

    def with_turns(self, geometry) -> "SolveResult":
        """The turns (``best``, ``pv``, each ``turns[i].turn``) as Turns of ``geometry``,
        which print as turn text (the search hands out plain int codes); returns self."""
        table = turn_table(geometry)
        self.best = [table[t] for t in self.best]
        self.pv = [table[t] for t in self.pv]
        for tv in self.turns or ():
            tv.turn = table[tv.turn]
        if self.reached is not None:
            self.reached = (table[self.reached[0]], self.reached[1])
        return self

    def to_json(self, geometry=None) -> dict:
        from ..rules.geometry import STARS_ZONE
        g = geometry or STARS_ZONE
        out = {
            "position": self.position, **board_json(g),
            "value": self.value,
            "winner": self.winner,
            "exact": self.exact,
            "lower": self.lower,
            "upper": self.upper,
            "scores": self.scores,
            "best": [format_turn(t, g) for t in self.best],
            "pv": [format_turn(t, g) for t in self.pv],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "nodes_per_second": round(self.nodes_per_second),
            "tt": self.tt,
            "stopped": self.stopped,
            "complete": self.complete,
            "best_complete": self.best_complete,
            "pv_complete": self.pv_complete,
        }
        if self.turns is not None:
            out["turns"] = [{"turn": format_turn(t.turn, g), "value": t.value, "exact": t.exact,
                             "lower": t.lower, "upper": t.upper, "group": t.group}
                            for t in self.turns]
        return out


def stopped_text(reason: str | None, proved: bool, best_complete: bool = True,
                 pv_complete: bool = True) -> str | None:
    """The answer's ``stopped``: None when everything asked for was proved; ``reason``
    when the value was not; else e.g. "node limit after the value was proved (best
    turns and PV incomplete)"."""
    if not proved:
        return reason
    left = " and ".join(x for x, ok in (("best turns", best_complete),
                                      ("PV", pv_complete)) if not ok)
    return f"{reason} after the value was proved ({left} incomplete)" if left else None


def solve_result(position: str, bound: Bound, proved: bool, reason: str | None = None, *,
                 best=(), best_complete: bool = False, pv=(), pv_complete: bool = False,
                 scores: dict | None = None, turns=None, nodes: int = 0,
                 seconds: float = 0.0, tt: dict | None = None,
                 reached=None) -> SolveResult:
    """The answer: ``bound`` (Red's view) and whether the value was ``proved``; with it
    ``best`` (``best_complete``: every optimal turn), ``pv`` (``pv_complete``: to the end
    of the game, ``scores`` its final scores). Both flags True when they were not asked
    for. ``reason``: why the search stopped, when it did (:func:`stopped_text`)."""
    return SolveResult(position, bound.lo if proved else None, proved, bound.lo, bound.hi,
                       bound.winner(), scores, best=list(best), pv=list(pv), turns=turns,
                       nodes=nodes, seconds=seconds,
                       stopped=stopped_text(reason, proved, best_complete, pv_complete),
                       tt={} if tt is None else tt, best_complete=proved and best_complete,
                       pv_complete=proved and pv_complete,
                       reached=None if proved or not reached else tuple(reached))
