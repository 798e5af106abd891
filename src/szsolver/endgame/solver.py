"""Exhaustive endgame solver: exact game values, optimal turns, every turn's value.

The search itself is C (:mod:`szsolver.endgame._search`); this module drives it.

Contracts
---------
* Values are the rules' composite value ``100 * (red score - blue score) +
  (red neutrals left - blue neutrals left)`` under perfect play, from Red's
  side (Red maximises). Its sign is the winner.
* ``SolveResult.exact`` is True only when the value was proved: then
  ``value == lower == upper``, ``best`` holds every optimal turn and ``pv`` an
  optimal line to the end of the game whose final scores are ``scores``.
* The limits (``time_limit``, ``node_limit``) bound the whole answer: the value,
  every turn's value (``all_turns``), the optimal turns and the PV. ``complete``
  is True when everything asked for was proved.
* When a limit or Ctrl-C stops the search before the value is proved, ``exact``
  is False, ``value`` is None and ``lower <= true value <= upper`` is what was
  proved (each bound comes from a finished null-window probe or a static score
  bound). With ``all_turns`` the turns already proved keep their exact values,
  the others get bounds. ``stopped`` names the reason.
* When it stops after the value was proved, ``exact`` stays True but
  ``complete`` is False: ``pv`` is the proved start of an optimal line
  (``pv_complete`` False, ``scores`` None) and ``best`` the turns proved optimal
  so far (``best_complete`` False: others may be optimal too; it holds the PV's
  first turn whenever ``pv`` is not empty). ``stopped`` names the reason.
* Node limits are deterministic; the answer never depends on the clock unless
  a time limit is given.
* ``threads`` > 1 runs the root's null-window probes over threads, each with its own
  search, all on one transposition table (see :class:`_Team`). The value
  and the best turns are the serial ones; the PV is an optimal line (maybe another
  one); the node limit counts every thread's nodes but is no longer deterministic.

Technique (see docs/solver.md): MTD(f) null-window probes over a fail-soft
alpha-beta with a transposition table, exact last two turns, per-side score
tables (Basic rule), move ordering and root symmetry.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

try:
    from ..rules import _core
    from ._search import (ABORT_REASONS, ALL_OPTIONS, DRIVER_PVS, OPTIONS, Searcher,
                          check_searchable, tt_bytes)
except ImportError:  # the C extensions are not built
    from ..errors import UnsupportedError
    raise UnsupportedError("the endgame solver needs the compiled extension: pip install . "
                           "(needs a C compiler)") from None
from .. import interrupt
from ..errors import UnsupportedError
from ..limits import check_count, check_seconds
from ..formats.notation import format_turn, position_string
from ..rules.base import turn_neutral, turn_stone
from ..rules.backends import as_position
from ..rules.text import turn_table

DEFAULT_TT_SIZE = None             # None: by depth, see tt_entries_for
TT_ENTRY_BYTES = tt_bytes(2) // 2  # bytes of one transposition-table entry
DEFAULT_OPTIONS = [name for name, bit in OPTIONS.items() if ALL_OPTIONS & bit]
MAX_TURNS_WITHOUT_LIMIT = 8        # deeper positions need a time or node limit (9 turns: minutes to hours)
ORDER_MIN_TURNS = 2                # heuristic ordering at nodes with more turns left
TABLE_MIN_TURNS = 5                # score-table bounds at nodes with this many turns left


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
    """The answer of :func:`solve`. See the module docstring for the contracts."""
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
        return self

    def to_json(self, geometry=None) -> dict:
        from ..rules.geometry import STARS_ZONE
        g = geometry or STARS_ZONE
        out = {
            "position": self.position,
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


def winner_of(lower: int, upper: int) -> str | None:
    if lower > 0:
        return "red"
    if upper < 0:
        return "blue"
    if lower == upper == 0:
        return "draw"
    return None


class Progress(str):
    """A progress message of :func:`solve` (a ``str``: the words, as any progress
    callback takes them) that also carries what the search knows at that moment,
    for a display that shows more than the words. Every fact is one the search has
    proved or counted; the search is the same with or without a callback.

    ``bounds``: (lower, upper), the proved bounds of the value (Red's side). ``probes``:
    the null-window probes finished so far (0: the static bounds of the score
    tables). ``gamma``: the test value of the probe just finished, ``proved_at_least``
    whether the value reached it. ``best``: the root turn (a turn code) that proved
    the side to move's bound so far, or None. ``nodes``: the nodes searched so far.
    ``node_counter``: a function giving the nodes searched so far at any moment, safe
    to call from another thread while a probe runs (a display's clock calls it).
    (The names keep clear of ``str``'s methods.)"""

    bounds: tuple[int, int]
    probes: int
    gamma: int | None
    proved_at_least: bool | None
    best: int | None
    nodes: int
    node_counter: object

    def __new__(cls, text: str, *, bounds: tuple[int, int], probes: int, nodes: int,
                node_counter, gamma: int | None = None, proved_at_least: bool | None = None,
                best: int | None = None) -> "Progress":
        self = super().__new__(cls, text)
        self.bounds, self.probes, self.nodes = bounds, probes, nodes
        self.node_counter, self.gamma, self.proved_at_least, self.best = \
            node_counter, gamma, proved_at_least, best
        return self


def _bounds_text(lo: int, hi: int, nodes: int) -> str:
    return f"{lo:+d} <= value <= {hi:+d} ({nodes:,} nodes)"


def to_core(position) -> "_core.Position":
    """A core Position equal to ``position`` (either back end, or a position string;
    ParseError for anything else)."""
    position = as_position(position)
    if isinstance(position, _core.Position):
        return position.copy()
    return _core.Position(position.geometry, red=position.red, blue=position.blue,
                          neutral=position.neutral, red_neutrals=position.red_neutrals,
                          blue_neutrals=position.blue_neutrals, side=position.side,
                          rule=position.rule, stones_per_side=position.stones_per_side)


# --- symmetry ---------------------------------------------------------------------------------

def stabiliser(pos) -> list[int]:
    """Indices of the board symmetries that map the position onto itself (identity first)."""
    out = []
    for i, s in enumerate(pos.geometry.symmetries):
        if (s.map_mask(pos.red), s.map_mask(pos.blue), s.map_mask(pos.neutral)) == \
                (pos.red, pos.blue, pos.neutral):
            out.append(i)
    return out


def map_turn(sym, turn: int) -> int:
    s, n = turn_stone(turn), turn_neutral(turn)
    return sym.point_map[s] + 64 * ((sym.point_map[n] if n >= 0 else -1) + 1)


def turn_orbits(pos, turns=None) -> list[list[int]]:
    """The legal turns grouped into orbits of the position's stabiliser, each orbit
    sorted, orbits in order of their smallest turn."""
    syms = [pos.geometry.symmetries[i] for i in stabiliser(pos)]
    turns = pos.legal_turns() if turns is None else turns
    if len(syms) == 1:                      # the identity alone: every turn its own orbit
        return [[t] for t in dict.fromkeys(turns)]
    seen = {}
    orbits = []
    for t in turns:
        if t in seen:
            continue
        orb = sorted({map_turn(s, t) for s in syms})
        for u in orb:
            seen[u] = len(orbits)
        orbits.append(orb)
    return orbits


# --- MTD(f) -------------------------------------------------------------------------------------

def ordered_orbit_turns(s: Searcher, orbits) -> list[int]:
    """One turn per orbit (its smallest), in the search's order at the searcher's
    position (the table's turn, then the ordering heuristic): the root turns for
    :meth:`Searcher.set_root_turns`. In plain turn order a probe that must find a
    good turn refutes every stone alone before any neutral turn (measured on
    basic-random1-8: 21.7 M nodes against 15.0 M)."""
    rep = {t: o[0] for o in orbits for t in o}
    return list(dict.fromkeys(rep[t] for t in s.ordered_turns()))


def run_mtdf(searcher: Searcher, lo: int, hi: int, guess: int,
             progress=None) -> tuple[int, int, bool]:
    """Narrow [lo, hi] (Red's side) by null-window probes at the searcher's current
    position until lo == hi. Returns (lo, hi, finished)."""
    g = min(max(guess, lo), hi)
    red = searcher.position().side == 0 if progress is not None else True
    probes, best = 0, None
    while lo < hi:
        gamma = g + 1 if g <= lo else g       # test value >= gamma, lo < gamma <= hi
        gamma = min(max(gamma, lo + 1), hi)
        r = searcher.red_probe(gamma)
        if r is None:
            return lo, hi, False
        v, is_lower = r
        if is_lower:
            lo = max(lo, v)
        else:
            hi = min(hi, v)
        g = v
        if progress is not None:
            probes += 1
            if is_lower == red and searcher.last_refutation >= 0:
                best = searcher.last_refutation    # the turn that reached the mover's bound
            nodes = searcher.stats()["nodes"]
            progress(Progress(_bounds_text(lo, hi, nodes), bounds=(lo, hi),
                              probes=probes, nodes=nodes, node_counter=_counter(searcher),
                              gamma=gamma, proved_at_least=is_lower, best=best))
    return lo, hi, True


def _counter(searcher: Searcher):
    """The nodes ``searcher`` has searched, as a function to call at any moment."""
    return lambda: searcher.stats()["nodes"]


def _started(progress, lo: int, hi: int, count) -> None:
    """Tell ``progress`` the bounds the search starts from (Red's side), before any probe."""
    if progress is not None:
        progress(Progress(f"{_bounds_text(lo, hi, 0)} before the first probe",
                          bounds=(lo, hi), probes=0, nodes=0, node_counter=count))


def _pvs(searcher: Searcher, lo: int, hi: int) -> tuple[int, int, bool]:
    """One full-window principal-variation search inside the static bounds."""
    if lo == hi:
        return lo, hi, True
    red = searcher.position().side == 0
    a, b = (lo - 1, hi + 1) if red else (-hi - 1, -lo + 1)
    v = searcher.probe(a, b)
    if searcher.aborted:
        return lo, hi, False
    v = v if red else -v
    return v, v, True


def first_guess(searcher: Searcher) -> int:
    """MTD(f)'s first test value at the searcher's position: 100 x (Red's best
    reachable score - Blue's) plus the tie-break as it stands (a guess, not a bound)."""
    lr, ur, lb, ub = searcher.score_bounds()
    pos = searcher.position()
    return 100 * (ur - ub) + pos.red_neutrals - pos.blue_neutrals


def _static(searcher: Searcher) -> tuple[int, int]:
    return searcher.bounds()


class _Clock:
    def __init__(self, time_limit):
        self.start = time.perf_counter()
        self.limit = time_limit

    def left(self) -> float:
        if self.limit is None:
            return 0.0
        return max(self.limit - (time.perf_counter() - self.start), 1e-6)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def tt_entries_for(turns_left: int) -> int:
    """Default transposition-table size: 2**(7 + 2 * turns left) entries, between
    2**14 and 2**23 (32 bytes each: 256 MiB at most). A table far larger than the
    search only costs page faults; measured in docs/solver.md."""
    return 1 << max(14, min(23, 7 + 2 * turns_left))


def _check_depth(pos, time_limit, node_limit):
    if pos.is_over():
        return
    if pos.turns_left > MAX_TURNS_WITHOUT_LIMIT and time_limit is None and node_limit is None:
        raise UnsupportedError(f"position has {pos.turns_left} turns left: too deep to solve "
                               f"exhaustively (up to {MAX_TURNS_WITHOUT_LIMIT} without a limit); "
                               "give a time limit or a node limit")


def _check_arguments(time_limit, node_limit, tt_size, options, score_caps, driver,
                     threads=1):
    """Raise UnsupportedError (one line) for an argument :func:`solve` cannot use."""
    check_count(threads, "threads", none_ok=False)
    if threads > 1 and driver != "mtdf":
        raise UnsupportedError("the pvs driver runs on one thread: use threads=1")
    check_seconds(time_limit)
    check_count(node_limit, "node_limit")
    check_count(tt_size, "tt_size", minimum=2)
    if options is not None:
        unknown = [o for o in options if o not in OPTIONS]
        if unknown or isinstance(options, str):
            raise UnsupportedError(f"unknown technique {(unknown or [options])[0]!r}: "
                                   f"use a list of {', '.join(OPTIONS)}")
    if score_caps is not None and not (len(score_caps) == 2 and
                                       all(isinstance(c, int) and c >= 0 for c in score_caps)):
        raise UnsupportedError(f"score_caps must be two scores (red, blue), got {score_caps!r}")
    if driver not in ("mtdf", "pvs"):
        raise UnsupportedError(f"unknown driver {driver!r}: use mtdf or pvs")


def new_searcher(core, tt_size, options, score_caps, driver="mtdf"):
    """A :class:`Searcher` at ``core`` with the techniques ``options`` (None: the
    defaults), ``tt_size`` table entries and optional ``score_caps``. With
    :func:`run_mtdf`, :func:`first_guess`, :func:`walk_pv`, :func:`line_scores`,
    :func:`prove_best_turns` and :class:`Stopped` it is the driver's toolkit, shared
    with the other drivers (``check``'s one-searcher solve and the deep solve over
    Dask)."""
    opts = ALL_OPTIONS if options is None else sum(OPTIONS[o] for o in set(options))
    if driver == "pvs":
        opts |= DRIVER_PVS
    s = Searcher(core, int(tt_size), opts)
    s.set_table_min_turns(TABLE_MIN_TURNS)
    s.set_order_min_turns(ORDER_MIN_TURNS)
    if score_caps is not None:
        s.set_score_caps(int(score_caps[0]), int(score_caps[1]))
    return s


def solve(position, *, time_limit: float | None = None, node_limit: int | None = None,
          tt_size: int = DEFAULT_TT_SIZE, all_turns: bool = False, options=None,
          score_caps: tuple[int, int] | None = None, progress=None,
          pv: bool = True, driver: str = "mtdf", threads: int = 1) -> SolveResult:
    """Solve ``position`` (either back end) exactly, or as far as the limits allow.

    ``tt_size``: transposition-table entries (rounded to a power of two, 32 bytes
    each); default by depth (:func:`tt_entries_for`). ``all_turns``: also the exact value of every legal turn.
    ``options``: the techniques to use (names from ``_search.OPTIONS``; default
    ``DEFAULT_OPTIONS``, the search's default set: see docs/solver.md for what each
    one buys and why the others are off). ``score_caps``: external upper bounds on Red's and Blue's
    final scores (e.g. from :mod:`szsolver.bounds.potential`); they must be valid bounds.
    ``driver``: "mtdf" (default: MTD(f) null-window probes, every finished probe a
    proved bound) or "pvs" (one principal-variation search with the static bounds
    as window; a stopped PVS proves only the static bounds). Measured in docs/solver.md.
    ``progress``: optional callable(str) for progress lines. ``pv=False`` skips
    proving the optimal turns and the principal variation (value only; for benchmarks).
    ``threads``: split the root's turns over this many threads, which share one
    table of ``tt_size`` entries: same value and best turns, an optimal PV; see
    docs/solver.md for the design and the scaling.

    Raises :class:`~szsolver.errors.UnsupportedError` (one line) before searching
    for a position the search was not built for (a board over 64 points or 6
    directions, too few empty points for the turns left: see
    ``_search.check_searchable``), one too deep to solve without a limit, or an
    argument it cannot use; MemoryError when the tables cannot be allocated.
    A Ctrl-C pressed before the call raises :class:`~szsolver.interrupt.Interrupted`
    at once; one pressed during the search stops it with the bounds proved so far.
    """
    interrupt.check()
    _check_arguments(time_limit, node_limit, tt_size, options, score_caps, driver, threads)
    g = position.geometry
    if g.size > 64:          # before building a core position on it
        raise UnsupportedError(f"the {g.name} board has {g.size} points; the solver handles at most 64")
    core = to_core(position)
    check_searchable(core)
    _check_depth(core, time_limit, node_limit)
    clock = _Clock(time_limit)
    pstr = position_string(core)
    orbits = None if core.is_over() else turn_orbits(core)
    split = threads > 1 and orbits is not None and len(orbits) > 1
    if tt_size is None:
        tt_size = tt_entries_for(core.turns_left)
    s = new_searcher(core, tt_size, options, score_caps, driver)
    s.set_limits(node_limit or 0, clock.left() if time_limit is not None else 0.0)
    if core.is_over():
        v = core.value()
        r, b = core.scores()
        return SolveResult(pstr, v, True, v, v, winner_of(v, v), {"red": r, "blue": b},
                           nodes=0, seconds=clock.elapsed(), tt=s.stats(),
                           turns=[] if all_turns else None, best_complete=True,
                           pv_complete=True)
    if split:
        n = min(threads, len(orbits))
        searchers = [s] + [new_searcher(core, 2, options, score_caps) for _ in range(n - 1)]
        for x in searchers[1:]:
            x.share_table(s)
        for x in searchers:
            x.set_limits(node_limit or 0, clock.left() if time_limit is not None else 0.0)
        return _solve_threads(core, orbits, searchers, clock, node_limit, all_turns, pv,
                              pstr, progress).with_turns(core.geometry)
    red_moves = core.side == 0
    turns = None
    try:
        if all_turns:
            lo, hi, done, turns = _all_turns(s, core, orbits, progress)
        else:
            s.set_root_turns(ordered_orbit_turns(s, orbits) if s.opts & OPTIONS["root"]
                             else [o[0] for o in orbits])
            lo, hi = _static(s)
            _started(progress, lo, hi, _counter(s))
            if driver == "pvs":
                lo, hi, done = _pvs(s, lo, hi)
            else:
                lo, hi, done = run_mtdf(s, lo, hi, first_guess(s), progress)
            s.set_root_turns(None)
    except KeyboardInterrupt:          # between probes: same answer as a stop inside one
        lo, hi, done = (lo, hi, False) if "lo" in locals() else (*_static(s), False)
    stopped = None if done else ABORT_REASONS.get(s.aborted, "interrupted")
    result = SolveResult(pstr, lo if done else None, done, lo, hi, winner_of(lo, hi), None,
                         turns=turns, stopped=stopped)
    if done and pv:
        # The PV first (its first turn is an optimal one, usually proved from the
        # warm table at once), then the other optimal turns; both under the same
        # limits as the value.
        if turns is not None:
            result.best = sorted(t.turn for t in turns if t.value == lo)
            result.best_complete = True
        try:
            walk_pv(s, lo, result.pv)
            result.pv_complete = True
            result.scores = line_scores(core, result.pv)
            if turns is None:
                known = next((o for o in orbits if result.pv[0] in o), [])
                result.best = sorted(known)
                prove_best_turns(s, [o for o in orbits if o is not known], lo, red_moves,
                                 result.best, None if progress is None else
                                 (lambda msg: progress(f"best turns: {msg}")))
                result.best_complete = True
        except Stopped:
            pass
        except KeyboardInterrupt:          # Ctrl-C in Python code between probes
            pass
        if not (result.pv_complete and result.best_complete):
            if turns is None and not result.best and result.pv:
                result.best = sorted(next(o for o in orbits if result.pv[0] in o))
            reason = ABORT_REASONS.get(s.aborted, "interrupted")
            left = " and ".join(x for x, ok in (("best turns", result.best_complete),
                                              ("PV", result.pv_complete)) if not ok)
            result.stopped = f"{reason} after the value was proved ({left} incomplete)"
        s.reset()
    elif done:
        result.best_complete = result.pv_complete = True   # not asked for
    result.nodes = s.stats()["nodes"]
    result.seconds = clock.elapsed()
    result.tt = s.stats()
    return result.with_turns(core.geometry)


def _all_turns(s: Searcher, core, orbits, progress):
    """Exact value of one turn per orbit (MTD(f) on each child); returns the root's
    (lo, hi, finished, [TurnValue...]) with turns sorted best first for the mover."""
    red_moves = core.side == 0
    results = {}
    finished = True
    ordered = list(range(len(orbits)))
    for k, gi in enumerate(ordered):
        rep = orbits[gi][0]
        s.make(rep)
        clo, chi = _static(s)
        if finished:
            clo, chi, ok = run_mtdf(s, clo, chi, first_guess(s))
            if not ok:
                finished = False
        s.unmake(rep)
        results[gi] = (clo, chi)
        if progress is not None:
            progress(f"turn {k + 1}/{len(orbits)}")
    turns = []
    for gi, orb in enumerate(orbits):
        clo, chi = results[gi]
        for t in orb:
            turns.append(TurnValue(t, clo if clo == chi else None, clo, chi, clo == chi, gi))
    if red_moves:
        lo = max(t.lower for t in turns)
        hi = max(t.upper for t in turns)
        turns.sort(key=lambda t: (-(t.value if t.exact else t.upper), t.group, t.turn))
    else:
        lo = min(t.lower for t in turns)
        hi = min(t.upper for t in turns)
        turns.sort(key=lambda t: ((t.value if t.exact else t.lower), t.group, t.turn))
    done = finished and lo == hi
    return lo, hi, done, turns


class Stopped(Exception):
    """A limit or Ctrl-C stopped a probe of the best turns or the PV."""


def _is_optimal(s: Searcher, value: int, red_moves: bool) -> bool:
    """At a child position: does it keep the parent's exact value ``value``?
    Raises Stopped when a limit stops the probe."""
    if red_moves:          # child <= value always; optimal iff child >= value
        r = s.red_probe(value)
        if r is None:
            raise Stopped
        return r[1]
    r = s.red_probe(value + 1)   # optimal iff child <= value, i.e. not >= value + 1
    if r is None:
        raise Stopped
    return not r[1]


def prove_best_turns(s: Searcher, orbits, value: int, red_moves: bool, best: list,
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
    pos = s.position()
    delay = (s.opts & OPTIONS["delay"] and pos.neutrals_left(pos.side) == 1
             and (pos.turns_left + 1) // 2 >= 2)
    for k, orb in enumerate(orbits):
        if progress is not None and k:
            progress(f"{k}/{len(orbits)} turns, {len(best)} optimal "
                     f"({s.stats()['nodes']:,} nodes)")
        t = orb[0]
        x, q = turn_stone(t), turn_neutral(t)
        if q >= 0 and x in refuted and not refuted[x] >> q & 1:
            continue
        if q >= 0 and x in replies and q not in (turn_stone(replies[x]), turn_neutral(replies[x])):
            continue
        s.make(t)
        if q >= 0 and x in probed:
            s.set_shift(q)      # the position after x alone is in the table
        try:
            ok = _is_optimal(s, value, red_moves)
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

def walk_pv(s: Searcher, value: int, pv: list) -> None:
    """Append to ``pv`` an optimal line from the searcher's current position to the
    end of the game, one proved turn at a time (a stop leaves the proved start; the
    searcher then needs a reset)."""
    pos = s.position()
    while not pos.is_over():
        red_moves = pos.side == 0
        first = s.tt_move()
        cands = pos.legal_turns()
        if first >= 0 and first in cands:
            cands.remove(first)
            cands.insert(0, first)
        for t in cands:
            s.make(t)
            if _is_optimal(s, value, red_moves):
                pv.append(t)
                break
            s.unmake(t)
        else:  # pragma: no cover - would mean the value was wrong
            raise RuntimeError("no turn keeps the proved value")
        pos = s.position()
    for t in reversed(pv):
        s.unmake(t)


def line_scores(core, line) -> dict:
    """The final scores ``{"red", "blue"}`` after playing ``line`` (a whole line to
    the end of the game) from ``core``, which is not changed."""
    end = core.copy()
    for t in line:
        end.make(t)
    r, b = end.scores()
    return {"red": r, "blue": b}


# --- the root over threads ------------------------------------------------------------------------

#: seconds between the main thread's looks at Ctrl-C and the shared node limit while the
#: threads search (a node limit may be passed by what the threads search meanwhile)
POLL_SECONDS = 0.01


def _mover_probe(s: Searcher, gamma: int, red: bool):
    """Null-window test "the mover's value >= gamma" at the searcher's position (the
    side to move at its parent is the mover: ``red``). Returns (bound, is_lower) in the
    mover's view, or None when stopped."""
    r = s.red_probe(gamma if red else 1 - gamma)
    if r is None:
        return None
    v, is_lower = r
    return (v, is_lower) if red else (-v, not is_lower)


def root_orbits(s: Searcher, orbits: list[list[int]]) -> list[list[int]]:
    """The orbits in the serial root's order (:func:`ordered_orbit_turns` with the
    ``root`` technique, else by turn). ``s`` is at the root."""
    if not s.opts & OPTIONS["root"]:
        return orbits
    by_first = {o[0]: o for o in orbits}
    return [by_first[t] for t in ordered_orbit_turns(s, orbits)]


class _Team:
    """Searchers (one per thread, one shared table) at the root, the root's children
    (one per orbit, best first), the bounds proved on every child (mover's view) and
    the reason a stop struck (the first one). A thread that is free takes the next
    child: with one table a child's tree is every thread's, so no child is tied to a
    thread and the children run in the serial order."""

    def __init__(self, core, orbits, searchers, clock, node_limit):
        self.core = core
        self.red = core.side == 0
        self.orbits = orbits
        self.searchers = searchers
        self.clock = clock
        self.node_limit = node_limit
        self.lock = threading.Lock()
        self.reason = None
        self.cancel = threading.Event()     # this round's answer is known: stop it
        self.high_child = None              # the child that answered the last "high" round
        self.bounds = []
        self.on = {}                        # id(searcher) -> the child it probes, or None
        self.alone = set()                  # stones whose turn alone a thread has probed
        s = searchers[0]
        for orb in orbits:                  # static bounds, mover's view
            s.make(orb[0])
            lo, hi = s.bounds()
            s.unmake(orb[0])
            self.bounds.append((lo, hi) if self.red else (-hi, -lo))

    def nodes(self) -> int:
        return sum(s.stats()["nodes"] for s in self.searchers)

    def dealer(self, skip: int | None = None):
        """A function that hands out the children 0, 1, ... (but ``skip``) once each,
        then None (thread-safe)."""
        nxt = [0]

        def deal():
            with self.lock:
                k = nxt[0]
                if k == skip:
                    k += 1
                nxt[0] = k + 1
            return k if k < len(self.orbits) else None
        return deal

    def narrow(self, k: int, lo: int | None = None, hi: int | None = None) -> None:
        with self.lock:
            a, b = self.bounds[k]
            self.bounds[k] = (a if lo is None else max(a, lo), b if hi is None else min(b, hi))

    def stop(self, reason: str) -> None:
        """Stop every thread (thread-safe; the first reason is kept)."""
        with self.lock:
            if self.reason is None:
                self.reason = reason
        self.cancel.set()
        for s in self.searchers:
            s.stop()

    def halt_round(self) -> None:
        """The round's answer is known: the other threads drop their probes."""
        self.cancel.set()
        for s in self.searchers:
            s.stop()

    def _arm(self, s: Searcher) -> bool:
        """Before a probe: reset ``s``'s limits (its own deadline, the node budget);
        False when the round or the whole search is stopped (looked at after the reset,
        so a stop that the reset cleared is not lost)."""
        left = 0
        if self.node_limit:
            left = self.node_limit - self.nodes()
            if left <= 0:
                self.stop(ABORT_REASONS[1])
                return False
        s.set_limits(s.stats()["nodes"] + left if self.node_limit else 0,
                     self.clock.left() if self.clock.limit is not None else 0.0)
        return not self.cancel.is_set() and self.reason is None

    def decided(self, k: int, gamma: int):
        """Child k's answer to "mover's value >= gamma" from the bounds proved, or None."""
        a, b = self.bounds[k]
        return (a, True) if a >= gamma else (b, False) if b < gamma else None

    def probe(self, s: Searcher, k: int, gamma: int):
        """Child k: "mover's value >= gamma"? (bound, is_lower), its bounds narrowed; None
        when the round or the search was stopped (a limit of its own stops them all).
        A probe stopped because another thread answered it (:meth:`settled`) returns
        that answer."""
        if (d := self.decided(k, gamma)) is not None:
            return d
        with self.lock:
            self.on[id(s)] = k
        try:
            if not self._arm(s):
                return None
            if (d := self.decided(k, gamma)) is not None:     # answered while arming
                return d
            turn = self.orbits[k][0]
            x, q = turn_stone(turn), turn_neutral(turn)
            s.make(turn)
            if q >= 0 and x in self.alone:
                # the shifted probe, as the serial root gives it to a neutral turn
                # after its stone alone: that position is in the shared table
                s.set_shift(q)
            r = _mover_probe(s, gamma, self.red)
            s.unmake(turn)
            if q < 0:
                with self.lock:
                    self.alone.add(x)
        finally:
            with self.lock:
                self.on[id(s)] = None
        if r is None:
            if (d := self.decided(k, gamma)) is not None and self.reason is None:
                return d
            if not self.cancel.is_set():
                self.stop(ABORT_REASONS.get(s.aborted, "interrupted"))
            return None
        v, is_lower = r
        self.narrow(k, lo=v) if is_lower else self.narrow(k, hi=v)
        return r

    def settled(self, k: int) -> None:
        """Child k is answered: stop the threads still probing it (they go on)."""
        with self.lock:
            for s in self.searchers:
                if self.on.get(id(s)) == k:
                    s.stop()

    def run(self, work) -> None:
        """``work(i)`` for every searcher i, one thread each; the main thread watches
        Ctrl-C and the node limit. Every thread has returned when this returns. Waits
        use an Event, not Thread.join: a join interrupted by Ctrl-C can mark a thread
        finished while it still runs (CPython before 3.12)."""
        n = len(self.searchers)
        done = threading.Event()
        running = [n]

        def body(i):
            try:
                work(i)
            except BaseException:            # never leave the others running
                self.stop("interrupted")
                raise
            finally:
                with self.lock:
                    running[0] -= 1
                    if running[0] == 0:
                        done.set()

        if self.reason is None:              # a stopped team stays stopped
            self.cancel.clear()
        threads = [threading.Thread(target=body, args=(i,), name=f"szsolver-solve-{i}",
                                    daemon=True) for i in range(n)]
        try:
            for t in threads:
                t.start()
            while not done.wait(POLL_SECONDS):
                if interrupt.requested():
                    self.stop("interrupted")
                if self.node_limit and self.nodes() >= self.node_limit:
                    self.stop(ABORT_REASONS[1])
        except KeyboardInterrupt:
            self.stop("interrupted")
        finally:
            idle = [t for t in threads if t.ident is None]
            if idle:                         # Ctrl-C while starting them: never wait
                self.stop("interrupted")     # for threads that will not run
                with self.lock:
                    running[0] -= len(idle)
                    if running[0] == 0:
                        done.set()
            while True:                      # every thread stops within a few nodes
                try:
                    done.wait()
                    break
                except KeyboardInterrupt:
                    self.stop("interrupted")
        for t in threads:
            if t.ident is not None:
                t.join()

    def round(self, gamma: int):
        """One root probe "mover's value >= gamma" over the threads: ("high", v) when a
        child reaches gamma (the others are dropped), ("low", v) when every child fails
        (v the largest fail-soft bound), None when stopped.

        Every thread starts on the eldest child not yet answered, the helpers from the
        middle of its turns (``Searcher.set_helper``): with one table they split its
        proof, which is all a round needs when that child reaches gamma (a serial
        round stops there too). Once it is answered the rest are dealt one each."""
        high = []
        eldest = next((k for k in range(len(self.orbits)) if self.decided(k, gamma) is None), None)
        deal = self.dealer(skip=eldest)

        def work(i):
            s = self.searchers[i]
            k, helper = (eldest, i > 0) if eldest is not None else (deal(), False)
            while k is not None:
                if self.cancel.is_set():
                    return
                s.set_helper(helper)
                r = self.probe(s, k, gamma)
                s.set_helper(False)
                if r is not None and r[1]:
                    with self.lock:
                        high.append((r[0], k))
                    self.halt_round()
                    return
                if r is None:
                    return
                self.settled(k)
                k, helper = deal(), False

        self.run(work)
        if high:
            v, k = max(high)
            self.high_child = k
            return "high", v
        if self.reason is not None:
            return None
        return "low", max(b for _, b in self.bounds)

    def mtdf(self, lo: int, hi: int, guess: int, progress=None) -> tuple[int, int, bool]:
        """MTD(f) on the root (mover's view) by rounds: (lo, hi, finished)."""
        g = min(max(guess, lo), hi)
        probes, best = 0, None
        while lo < hi:
            gamma = g + 1 if g <= lo else g
            gamma = min(max(gamma, lo + 1), hi)
            r = self.round(gamma)
            if r is None:
                return lo, hi, False
            how, v = r
            if how == "high":
                lo = max(lo, v)
                best = self.orbits[self.high_child][0]
            else:
                hi = min(hi, v)
            g = v
            if progress is not None:
                probes += 1
                a, b = (lo, hi) if self.red else (-hi, -lo)
                nodes = self.nodes()
                progress(Progress(_bounds_text(a, b, nodes), bounds=(a, b), probes=probes,
                                  nodes=nodes, node_counter=self.nodes,
                                  gamma=gamma if self.red else 1 - gamma,
                                  proved_at_least=(how == "high") == self.red, best=best))
            if self.reason is not None:      # stopped as a child failed high
                return lo, hi, lo == hi
        return lo, hi, True

    def classify(self, value: int) -> None:
        """Every child proved >= ``value`` (optimal: the root's value is ``value``) or
        below it, over the threads; a stop leaves the rest open."""
        deal = self.dealer()

        def work(i):
            s = self.searchers[i]
            while (k := deal()) is not None:
                if self.reason is not None or self.probe(s, k, value) is None:
                    return

        self.run(work)

    def exact_children(self, progress=None) -> None:
        """Every child's exact value (MTD(f) each), children taken in turn by the
        threads; a stop leaves the rest with the bounds proved."""
        deal = self.dealer()

        def work(i):
            s = self.searchers[i]
            while self.reason is None and (k := deal()) is not None:
                s.make(self.orbits[k][0])
                g = first_guess(s)
                s.unmake(self.orbits[k][0])
                g = g if self.red else -g
                while self.bounds[k][0] < self.bounds[k][1]:
                    lo, hi = self.bounds[k]
                    gamma = min(max(g + 1 if g <= lo else g, lo + 1), hi)
                    r = self.probe(s, k, gamma)
                    if r is None:
                        return
                    g = r[0]
                if progress is not None:
                    progress(f"turn {k + 1}/{len(self.orbits)}")

        self.run(work)


def _solve_threads(core, orbits, searchers, clock, node_limit, all_turns, pv, pstr,
                   progress) -> SolveResult:
    """:func:`solve` with the root's children probed over threads (its contracts)."""
    red = core.side == 0
    if not all_turns:
        orbits = root_orbits(searchers[0], orbits)
    team = _Team(core, orbits, searchers, clock, node_limit)
    turns = None
    if all_turns:
        team.exact_children(progress)
        bounds = team.bounds
        lo, hi = max(b[0] for b in bounds), max(b[1] for b in bounds)
        done = lo == hi
    else:
        slo, shi = searchers[0].bounds()
        _started(progress, slo, shi, team.nodes)
        lo, hi = (slo, shi) if red else (-shi, -slo)
        g = first_guess(searchers[0])
        lo, hi, done = team.mtdf(lo, hi, g if red else -g, progress)
    value = lo if red else -lo                 # Red's view
    if all_turns:
        turns = []
        for k, orb in enumerate(orbits):
            a, b = team.bounds[k]
            clo, chi = (a, b) if red else (-b, -a)
            turns += [TurnValue(t, clo if clo == chi else None, clo, chi, clo == chi, k)
                      for t in orb]
        if red:
            turns.sort(key=lambda t: (-(t.value if t.exact else t.upper), t.group, t.turn))
        else:
            turns.sort(key=lambda t: ((t.value if t.exact else t.lower), t.group, t.turn))
    rlo, rhi = (lo, hi) if red else (-hi, -lo)
    stopped = None if done else (team.reason or "interrupted")
    result = SolveResult(pstr, value if done else None, done, rlo, rhi, winner_of(rlo, rhi),
                         None, turns=turns, stopped=stopped)
    if done and pv:
        # Every child is proved <= the value (the round that proved the root's upper
        # bound failed on each); the optimal ones are those proved >= it.
        if team.reason is None:
            team.classify(lo)
        opt = [k for k, (a, _) in enumerate(team.bounds) if a >= lo]
        result.best = sorted(t for k in opt for t in orbits[k])
        result.best_complete = all(a >= lo or b < lo for a, b in team.bounds)
        if opt:
            result.pv.append(orbits[opt[0]][0])
        s = searchers[0]                       # the table holds every thread's proofs
        if result.best_complete:
            try:
                if not team._arm(s):
                    raise Stopped
                s.make(result.pv[0])
                walk_pv(s, value, result.pv)
                result.pv_complete = True
                result.scores = line_scores(core, result.pv)
            except (Stopped, KeyboardInterrupt):
                pass
            s.reset()
        if not result.pv_complete:
            reason = team.reason or ABORT_REASONS.get(s.aborted, "interrupted")
            left = " and ".join(x for x, ok in (("best turns", result.best_complete),
                                              ("PV", result.pv_complete)) if not ok)
            result.stopped = f"{reason} after the value was proved ({left} incomplete)"
    elif done:
        result.best_complete = result.pv_complete = True   # not asked for
    stats = [s.stats() for s in searchers]
    result.nodes = sum(st["nodes"] for st in stats)
    result.seconds = clock.elapsed()
    tt = {key: sum(st[key] for st in stats)
          for key in ("nodes", "tt_probes", "tt_hits", "tt_stores", "tt_used",
                      "neutral_turns_pruned")}
    tt["tt_entries"] = stats[0]["tt_entries"]      # one table
    tt["tt_fill"] = tt["tt_used"] / tt["tt_entries"] if tt["tt_entries"] else 0.0
    tt["threads"] = len(searchers)
    result.tt = tt
    return result


def turn_values(position, **kwargs) -> list[tuple[int, int | None]]:
    """(turn, value) for every legal turn, Red's side, best first for the side to
    move; turns equal by a symmetry of the position come together. A value is
    None when a limit stopped the search before it was proved (see
    ``solve(..., all_turns=True).turns`` for the bounds)."""
    res = solve(position, all_turns=True, **kwargs)
    return [(t.turn, t.value) for t in res.turns]
