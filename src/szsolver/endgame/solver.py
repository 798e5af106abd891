"""Exhaustive endgame solver: exact game values, optimal turns, every turn's value.

The search itself is C (:mod:`szsolver.endgame._search`); the proof steps on it
(probes, MTD(f), the best turns, the PV, the answer) are
:mod:`szsolver.endgame.prover`'s; this module schedules them, on one searcher or on
threads.

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
  the others get bounds. ``stopped`` names the reason. ``reached``, where a probe
  proved the mover's bound by a turn: ``(turn, bound)``, the turn proved to reach at
  least ``bound`` for the mover (Red's view; within ``lower..upper``); else None.
* When it stops after the value was proved, ``exact`` stays True but
  ``complete`` is False: ``pv`` is the proved start of an optimal line
  (``pv_complete`` False, ``scores`` None) and ``best`` the turns proved optimal
  so far (``best_complete`` False: others may be optimal too; it holds the PV's
  first turn whenever ``pv`` is not empty). ``stopped`` names the reason.
* Node limits are deterministic; the answer never depends on the clock unless
  a time limit is given.
* ``threads`` > 1 runs the root's null-window probes over threads, each with its own
  search, all on one transposition table (see :class:`_Team`: the root's children
  dealt in rounds, or with ``SHARED_TREE`` every thread on the same probe, splitting
  inside the tree). The value and the best turns are the serial ones; the PV is an
  optimal line (maybe another one); the node limit counts every thread's nodes but is
  no longer deterministic.

Technique (see docs/solver.md): MTD(f) null-window probes over a fail-soft
alpha-beta with a transposition table, exact last two turns, per-side score
tables (Basic rule), move ordering and root symmetry.
"""
from __future__ import annotations

import os
import threading
import time

try:
    from ._search import (ALL_OPTIONS, DRIVER_PVS, OPTIONS, Searcher,
                          check_searchable, tt_bytes)
except ImportError:  # the C extensions are not built
    from ..errors import UnsupportedError
    raise UnsupportedError("the endgame solver needs the compiled extension: pip install . "
                           "(needs a C compiler)") from None
from .. import interrupt
from ..errors import UnsupportedError
from ..limits import check_count, check_seconds
from ..formats.notation import position_string
from ..rules.base import ADVANCED, BASIC, spendable_neutrals, turn_neutral, turn_stone
from ..rules.backends import to_core
# The proof steps and the answer live in the prover; the names stay importable here.
from .prover import (Bound, Budget, Progress, SolveResult, Stopped, TurnValue,  # noqa: F401
                     best_turns, bounds_text, first_guess, line_scores, mtdf, narrow,
                     node_counter, probe, pvs, solve_result, started, static_bound,
                     stop_reason, winner_of)
from .prover import pv as walk_pv

DEFAULT_TT_SIZE = None             # None: by depth, see tt_entries_for
TT_ENTRY_BYTES = tt_bytes(2) // 2  # bytes of one transposition-table entry
DEFAULT_OPTIONS = [name for name, bit in OPTIONS.items() if ALL_OPTIONS & bit]
MAX_TURNS_WITHOUT_LIMIT = 8        # deeper positions need a time or node limit (9 turns: minutes to
                                   # hours), unless the supplies are spent (PROOF_NODES)
#: Beyond :data:`MAX_TURNS_WITHOUT_LIMIT`: the median nodes the solver needed to prove a
#: position (its value and principal variation), by the turns left and the neutrals the
#: two sides can still spend (``rules.base.spendable_neutrals``), per rule; most
#: positions of the cells left out were not proved in 3 M nodes. Measured with
#: benchmarks/bench_horizon.py (docs/engine.md, "The solver's horizon"): the neutrals in
#: hand decide it, not the turns alone. The engine and ``check`` try the solver there
#: when their node limit is at least the median (:func:`usually_proved`), and
#: :func:`solve` needs no limit there.
PROOF_NODES = {
    BASIC: {(9, 0): 115_000, (9, 1): 560_000, (9, 2): 1_070_000,
            (10, 0): 330_000, (10, 1): 1_990_000, (11, 0): 1_490_000},
    ADVANCED: {(9, 0): 232_000, (9, 1): 2_400_000, (9, 2): 2_430_000,
               (10, 0): 715_000, (11, 0): 2_300_000},
}
ORDER_MIN_TURNS = 2                # heuristic ordering at nodes with more turns left
TABLE_MIN_TURNS = 5                # score-table bounds at nodes with this many turns left


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


LONG_TT_ENTRIES = 1 << 25          # a long deep solve's table: 1 GiB (docs/solver.md, "Table size")
LONG_SEARCH_SECONDS = 60           # a limit from which a solve beyond the default depth is long
LONG_SEARCH_NODES = 200_000_000
#: A short time limit's table holds this many entries a second of the limit: what the
#: search can store in it. At its fastest (4.5 M nodes a CPU second) it stores an entry
#: at 0.1-0.4 of its nodes, and a table of half its stores costs it 1-5 % more nodes
#: (8 turns left: 2**20 entries against 2**23 for proofs of 1.1-7 M nodes), where the
#: page faults of a table far larger cost up to the whole limit: with 2**23 entries
#: (256 MiB in huge pages, which the kernel may stop to make room for) a fresh
#: process's solve under 1.5 s spent 0.13-1.1 s in them and once searched 0.4 M nodes
#: where 2**22 took 0.02 s and searched 2.8-3.7 M (docs/solver.md, technique 2).
SHORT_SEARCH_ENTRIES_PER_SECOND = 2_000_000


def physical_memory() -> int | None:
    """This machine's memory in bytes, or None when the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def tt_entries_for(turns_left: int, time_limit: float | None = None,
                   node_limit: int | None = None) -> int:
    """Default transposition-table size: 2**(7 + 2 * turns left) entries, between
    2**14 and 2**23 (32 bytes each: 256 MiB at most). A table far larger than the
    search only costs page faults; measured in docs/solver.md. A long solve beyond
    the default depth (more than 8 turns left, a time limit of a minute or more or a
    node limit of 200 M or more, and no shorter limit beside it) fills that table many
    times over, and gets up to
    :data:`LONG_TT_ENTRIES` (1 GiB), at most an eighth of the machine's memory: at 10
    turns left it searched 1.55 G nodes in 471 CPU s with 2**23 entries, 0.95 G in 301
    s with 2**25. A short limit gets a smaller table, at least 2**14: twice the nodes a
    node limit allows, :data:`SHORT_SEARCH_ENTRIES_PER_SECOND` for each second of a time
    limit."""
    entries = 1 << max(14, min(23, 7 + 2 * turns_left))
    room = [n for n in (node_limit and 2 * node_limit,
                        time_limit and time_limit * SHORT_SEARCH_ENTRIES_PER_SECOND) if n]
    if room:
        entries = min(entries, 1 << max(14, (int(min(room)) - 1).bit_length()))
    # long only where every limit given is: a short time limit beside a large node
    # limit is a short search (1 GiB of page faults took 2.9 s of a 1 s limit)
    given = [x >= least for x, least in ((time_limit, LONG_SEARCH_SECONDS),
                                         (node_limit, LONG_SEARCH_NODES)) if x]
    long = turns_left > MAX_TURNS_WITHOUT_LIMIT and bool(given) and all(given)
    memory = physical_memory() if long else None
    while memory and entries < LONG_TT_ENTRIES and 2 * entries * TT_ENTRY_BYTES <= memory // 8:
        entries *= 2
    return entries


def tt_entries_filled(turns_left: int, nodes: int) -> int:
    """The table of a short search under a node limit: no larger than its ``nodes`` can
    fill (the least power of two at least ``nodes``, at least 2**14), and no larger than
    the default for its depth. A fresh table's page faults are work a budget of nodes
    does not count: at 8 turns left 256 MiB cost 0.5 s for a search of 0.3 s, and at 11
    a table of twice 1.8 M nodes 0.35 s (docs/engine.md)."""
    return min(tt_entries_for(turns_left), 1 << max(14, (max(nodes, 1) - 1).bit_length()))


def usually_proved(pos, nodes: int | None) -> bool:
    """Whether the solver usually proves ``pos``, beyond :data:`MAX_TURNS_WITHOUT_LIMIT`
    turns left, in ``nodes`` (None: no limit): :data:`PROOF_NODES` has its turns left
    and neutrals to spend, at no more than ``nodes``."""
    rule = ADVANCED if pos.rule == ADVANCED else BASIC
    need = PROOF_NODES[rule].get((pos.turns_left, spendable_neutrals(pos)))
    return need is not None and (nodes is None or nodes >= need)


def _check_depth(pos, time_limit, node_limit):
    if pos.is_over():
        return
    if pos.turns_left > MAX_TURNS_WITHOUT_LIMIT and time_limit is None and node_limit is None \
            and not usually_proved(pos, None):
        raise UnsupportedError(f"position has {pos.turns_left} turns left: too deep to solve "
                               f"exhaustively (up to {MAX_TURNS_WITHOUT_LIMIT} without a limit, "
                               "up to 11 with the neutrals spent); give a time limit or a node "
                               "limit")


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
    defaults), ``tt_size`` table entries and optional ``score_caps``: the searcher
    every driver hands to the proof steps of :mod:`szsolver.endgame.prover` (this
    module's solve and threads, ``check``'s one-searcher solve, the deep solve over
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


#: ``solve`` tells its ``progress`` that it sets up a table at least this large first
TOLD_TABLE_BYTES = 2 ** 28


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
    interrupt.raise_if_interrupted()
    _check_arguments(time_limit, node_limit, tt_size, options, score_caps, driver, threads)
    g = position.geometry
    if g.size > 64:          # before building a core position on it
        raise UnsupportedError(f"the {g.name} board has {g.size} points; the solver handles at most 64")
    core = to_core(position)
    check_searchable(core)
    _check_depth(core, time_limit, node_limit)
    budget = Budget(node_limit, time_limit)
    pstr = position_string(core)
    orbits = None if core.is_over() else turn_orbits(core)
    split = threads > 1 and orbits is not None and len(orbits) > 1
    if tt_size is None:
        tt_size = tt_entries_for(core.turns_left, time_limit, node_limit)
    if progress is not None and tt_bytes(tt_size) >= TOLD_TABLE_BYTES:
        # a large table is faulted in whole before the search (seconds for a GiB)
        size = tt_bytes(tt_size)
        size = f"{size / 2 ** 30:.3g} GiB" if size >= 2 ** 30 else f"{size / 2 ** 20:.0f} MiB"
        progress(f"setting up the transposition table ({size})")
    s = budget.join(new_searcher(core, tt_size, options, score_caps, driver))
    budget.arm(s)
    if core.is_over():
        v = core.value()
        r, b = core.scores()
        return solve_result(pstr, Bound(v, v), True, scores={"red": r, "blue": b},
                            best_complete=True, pv_complete=True, seconds=budget.elapsed(),
                            tt=s.stats(), turns=[] if all_turns else None)
    if split:
        n = min(threads, len(orbits))
        searchers = [s] + [budget.join(new_searcher(core, 2, options, score_caps))
                           for _ in range(n - 1)]
        for x in searchers[1:]:
            x.share_table(s)
        for x in searchers:
            x.set_limits(node_limit or 0, budget.seconds_left())
        return _solve_threads(core, orbits, searchers, budget, all_turns, pv,
                              pstr, progress).with_turns(core.geometry)
    red_moves = core.side == 0
    turns = None
    every = True                       # every turn's value proved (with all_turns)
    bound = static_bound(s)
    reached = []                       # a turn that reaches the mover's proved bound
    try:
        if all_turns:
            bound, done, turns, every = _all_turns(s, core, orbits, progress)
        else:
            s.set_root_turns(ordered_orbit_turns(s, orbits) if s.opts & OPTIONS["root"]
                             else [o[0] for o in orbits])
            started(progress, bound, node_counter(s), s.root_progress)
            if driver == "pvs":
                bound, done = pvs(s, bound)
            else:
                bound, done = mtdf(s, bound, first_guess(s), progress, reached)
            s.set_root_turns(None)
    except KeyboardInterrupt:          # between probes: same answer as a stop inside one
        done = False
    best, line = [], []
    best_complete = pv_complete = not pv   # True when not asked for
    scores = None
    if done and pv:
        # The PV first (its first turn is an optimal one, usually proved from the
        # warm table at once), then the other optimal turns; both under the same
        # limits as the value.
        value = bound.lo
        if turns is not None:
            # the turns proved optimal; every one of them when every turn is proved
            best = sorted(t.turn for t in turns if t.value == value)
            best_complete = every
        try:
            walk_pv(s, value, line)
            pv_complete = True
            scores = line_scores(core, line)
            if turns is None:
                known = next((o for o in orbits if line[0] in o), [])
                best = sorted(known)
                best_turns(s, [o for o in orbits if o is not known], value, red_moves,
                           best, None if progress is None else
                           (lambda msg: progress(f"best turns: {msg}")))
                best_complete = True
        except Stopped:
            pass
        except KeyboardInterrupt:          # Ctrl-C in Python code between probes
            pass
        if line and line[0] not in best:
            best = sorted(set(best) | set(next(o for o in orbits if line[0] in o)))
        s.reset()
    if not every:                          # a turn's value not proved: nor all optimal turns
        best_complete = False
    return solve_result(pstr, bound, done, budget.why(s), best=best,
                        best_complete=best_complete, pv=line, pv_complete=pv_complete,
                        scores=scores, turns=turns, nodes=s.stats()["nodes"],
                        seconds=budget.elapsed(), tt=s.stats(),
                        reached=reached).with_turns(core.geometry)


def _all_turns(s: Searcher, core, orbits, progress):
    """Exact value of one turn per orbit; returns the root's Bound, whether it is
    proved, the [TurnValue...] sorted best first for the mover, and whether every turn's
    value is proved. The root's value comes first, by MTD(f) as a plain solve proves
    it (under a limit, the answer most wanted), then each orbit's child by MTD(f) from
    that value on the warm table, in the root's order (its best turns first); no child
    is better for the mover than the root. Measured on 10 positions at 7-8 turns left:
    the same nodes in all as children first (581 M), and under a 0.5 s limit the value
    proved at 6 of them instead of 2."""
    red_moves = core.side == 0
    s.set_root_turns([o[0] for o in root_orbits(s, orbits)])
    try:
        if progress is not None:
            progress("the value first")
        root, finished = mtdf(s, static_bound(s), first_guess(s))
    finally:
        s.set_root_turns(None)
    results = {}
    group = {o[0]: gi for gi, o in enumerate(orbits)}
    for k, orbit in enumerate(root_orbits(s, orbits)):     # the warm table's order now
        rep = orbit[0]
        gi = group[rep]
        s.make(rep)
        child = static_bound(s)
        # the mover does no better with one turn than at the root
        child = Bound(child.lo, min(child.hi, root.hi)) if red_moves else \
            Bound(max(child.lo, root.lo), child.hi)
        if finished and not child.exact:
            child, ok = mtdf(s, child, root.lo if red_moves else root.hi)
            if not ok:
                finished = False
        s.unmake(rep)
        results[gi] = child
        if progress is not None:
            progress(f"turn {k + 1}/{len(orbits)}")
    turns = []
    for gi, orb in enumerate(orbits):
        c = results[gi]
        for t in orb:
            turns.append(TurnValue(t, c.value, c.lo, c.hi, c.exact, gi))
    if red_moves:
        bound = Bound(max(t.lower for t in turns), max(t.upper for t in turns))
    else:
        bound = Bound(min(t.lower for t in turns), min(t.upper for t in turns))
    bound = Bound(max(bound.lo, root.lo), min(bound.hi, root.hi))
    _best_first(turns, core.side)
    return bound, bound.exact, turns, finished and all(t.exact for t in turns)


def _best_first(turns, side: int) -> None:
    """Sort ``turns`` best first for ``side`` by what is proved of them: the value
    each is proved to reach at least (exact ones first among equals), then the best it
    may still reach. A turn a limit left unknown (its bounds the trivial ones) comes
    last, not first on its optimistic bound."""
    sign = 1 if side == 0 else -1
    turns.sort(key=lambda t: (-sign * (t.lower if sign > 0 else t.upper), not t.exact,
                              -sign * (t.upper if sign > 0 else t.lower), t.group, t.turn))


# --- the root over threads ------------------------------------------------------------------------

#: seconds between the main thread's looks at Ctrl-C and the shared node limit while the
#: threads search (a node limit may be passed by what the threads search meanwhile)
POLL_SECONDS = 0.01

#: the value's probes over threads: False, the root's children dealt in rounds; True, the
#: shared tree: every thread runs the same probe on the shared table (ABDADA,
#: docs/solver.md, "Threads": measured, the rounds are the better on two threads)
SHARED_TREE = False
#: the shared tree: at nodes with at least this many turns left a child that another
#: thread searches waits for the node's second pass
SHARED_TREE_MIN_TURNS = 4
#: counters of the shared-tree search's busy table (a hash of each position searched)
BUSY_ENTRIES = 1 << 16
#: the shared tree's threads but the first start the root's turns from the middle
SHARED_TREE_HELPERS = False
#: the rounds: young brothers wait (docs/solver.md): a free thread helps a child once its
#: thread has seen this many of the child's replies refuted, before it takes a new child;
#: at once the child that reached the last fail-high round's test and, with one
#: thread, the round's eldest child
JOIN_AFTER = 16
#: False: the plain rounds (every thread on the eldest child, then one child each)
ROUNDS_YBW = True
#: ... from this many threads on (two threads: the plain rounds, measured a little better)
YBW_MIN_THREADS = 3
#: seconds between the looks for a child to help of a thread with none left to take
JOIN_POLL_SECONDS = 0.0005

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
    child, or helps one worth it (:meth:`joinable`): with one table a child's tree is
    every thread's, so no child is tied to a thread and the children run in the serial
    order."""

    def __init__(self, core, orbits, searchers, budget: Budget):
        self.core = core
        self.red = core.side == 0
        self.side = core.side               # the mover: the children's bounds are in its view
        self.orbits = orbits
        self.searchers = searchers
        self.budget = budget                # its pool holds every searcher
        self.lock = threading.Lock()
        self.cancel = threading.Event()     # this round's answer is known: stop it
        self.high_child = None              # the child that answered the last "high" round
        self.bounds = []
        self.on = {}                        # id(searcher) -> the child it probes, or None
        self.helping = {}                   # id(searcher) -> True while it helps its child
        self.ybw = ROUNDS_YBW and len(searchers) >= YBW_MIN_THREADS   # rounds: young brothers wait
        self.alone = set()                  # stones whose turn alone a thread has probed
        s = searchers[0]
        for orb in orbits:                  # static bounds, mover's view
            s.make(orb[0])
            self.bounds.append(static_bound(s).for_side(self.side))
            s.unmake(orb[0])

    @property
    def reason(self) -> str | None:
        """Why the team stopped (the first reason), None while it runs."""
        return self.budget.reason

    def nodes(self) -> int:
        return self.budget.spent()

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

    def narrow(self, k: int, v: int, is_lower: bool) -> None:
        """Child k's bound narrowed by a probe's answer (mover's view)."""
        with self.lock:
            self.bounds[k] = self.bounds[k].after(v, is_lower)

    def stop(self, reason: str) -> None:
        """Stop every thread (thread-safe; the first reason is kept)."""
        self.budget.stop(reason)
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
        if not self.budget.arm(s):
            self.stop(self.budget.reason)
            return False
        return not self.cancel.is_set() and self.reason is None

    def decided(self, k: int, gamma: int):
        """Child k's answer to "mover's value >= gamma" from the bounds proved, or None."""
        return self.bounds[k].decides(gamma)

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
            r = probe(s, gamma, self.side)
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
                self.stop(stop_reason(s))
            return None
        self.narrow(k, *r)
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
                if (why := self.budget.poll()) is not None:
                    self.stop(why)
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

        Young brothers wait (:meth:`_round_ybw`) from ``YBW_MIN_THREADS`` threads on;
        else every thread starts on the eldest child not yet answered, the helpers from
        the middle of its turns (``Searcher.set_helper``), and once it is answered the
        rest are dealt one each."""
        if self.ybw:
            return self._round_ybw(gamma)
        high = []
        eldest = next((k for k in range(len(self.orbits)) if self.decided(k, gamma) is None), None)
        deal = self.dealer(skip=eldest)

        def work(i):
            s = self.searchers[i]
            k, helper = (eldest, i > 0) if eldest is not None else (deal(), False)
            while k is not None:
                if self.cancel.is_set() or not self._take(s, k, gamma, helper, high):
                    return
                k, helper = deal(), False

        self.run(work)
        return self._answer(high)

    def _take(self, s, k: int, gamma: int, helper: bool, high: list) -> bool:
        """Thread ``s`` probes child k in a round (``helper``: as a helper of the thread
        on it). False when the round is over for ``s``: the child reached gamma
        (recorded in ``high``, the round halted) or the probe was stopped."""
        with self.lock:
            self.helping[id(s)] = helper
        s.set_helper(helper)
        r = self.probe(s, k, gamma)
        s.set_helper(False)
        with self.lock:
            self.helping[id(s)] = False
        if r is not None and r[1]:
            with self.lock:
                high.append((r[0], k))
            self.halt_round()
            return False
        if r is None:
            return False
        self.settled(k)
        return True

    def _answer(self, high: list):
        """A round's answer from the children that reached gamma (``high``), see
        :meth:`round`."""
        if high:
            v, k = max(high)
            self.high_child = k
            return "high", v
        if self.reason is not None:
            return None
        return "low", max(b.hi for b in self.bounds)

    def joinable(self, s, gamma: int):
        """The eldest child that another thread probes (not as a helper) and that is
        worth helping (young brothers wait): its thread has seen its first
        ``JOIN_AFTER`` replies refuted (a child that fails is nearly always refuted by
        its first reply; one that reaches gamma needs every reply refuted), or it is the
        child that reached the last fail-high round's test. None when there is none."""
        best = None
        with self.lock:
            for x in self.searchers:
                k = self.on.get(id(x))
                if (x is s or k is None or self.helping.get(id(x))
                        or (best is not None and k >= best)):
                    continue
                wait = 0 if k == self.high_child else JOIN_AFTER
                if x.root_progress()[0] > wait and self.decided(k, gamma) is None:
                    best = k
        return best

    def _round_ybw(self, gamma: int):
        """:meth:`round`, young brothers wait: the children dealt in order, one thread
        helping the eldest from the start (from the middle of its replies), and a free
        thread helping a child worth it (:meth:`joinable`) before it takes a new one; a
        thread with nothing left to take waits for such a child until the round ends.
        The helpers of a child split its replies through the busy table (set up by
        :func:`_solve_threads`)."""
        high = []
        deal = self.dealer()
        dealt_all = [False]
        eldest = next((k for k in range(len(self.orbits)) if self.decided(k, gamma) is None), None)

        def work(i):
            s = self.searchers[i]
            first = i == 1 and eldest is not None
            while not self.cancel.is_set():
                k = eldest if first else self.joinable(s, gamma)
                first = False
                helper = k is not None
                if k is None and not dealt_all[0]:
                    k = deal()
                    if k is None:
                        dealt_all[0] = True
                if k is None:
                    with self.lock:
                        busy = any(v is not None for v in self.on.values())
                    if not busy:
                        return
                    time.sleep(JOIN_POLL_SECONDS)
                    continue
                if not self._take(s, k, gamma, helper, high):
                    return

        self.run(work)
        return self._answer(high)

    def shared_probe(self, gamma: int):
        """One root probe "mover's value >= gamma" run by every thread at once on the
        shared table (the searchers at the root, set up by :meth:`share_tree`): ("high",
        v) or ("low", v) from the first thread to finish, whose search is complete and
        so proves its bound (the table holds only proved bounds, whoever stored them);
        the others are stopped and their partial searches count for nothing. None when
        stopped."""
        answer = []

        def work(i):
            s = self.searchers[i]
            if not self._arm(s):
                return
            r = probe(s, gamma, self.side)
            if r is None:
                if not self.cancel.is_set():        # a limit of its own: stop them all
                    self.stop(stop_reason(s))
                return
            with self.lock:
                if not answer:
                    answer.append((r, s.last_refutation))
            self.halt_round()

        self.run(work)
        if not answer:
            return None
        (v, high), turn = answer[0]
        if high:
            self.high_turn = turn if turn >= 0 else None
        return ("high" if high else "low"), v

    def share_tree(self, min_turns: int, busy_entries: int) -> None:
        """Set every searcher (at the root) up for :meth:`shared_probe`: one busy
        table, children deferred at nodes with at least ``min_turns`` turns left, the
        root's turns in the serial order."""
        turns = [o[0] for o in self.orbits]
        for i, s in enumerate(self.searchers):
            s.set_shared_tree(min_turns, busy_entries)
            s.set_root_turns(turns)
            s.set_helper(SHARED_TREE_HELPERS and i > 0)

    def mtdf(self, bound: Bound, guess: int, progress=None,
             shared: bool = False) -> tuple[Bound, bool]:
        """MTD(f) on the root (``bound`` and ``guess`` in the mover's view), each test a
        :meth:`round` (``shared``: a :meth:`shared_probe`): (the bound, finished)."""
        probes, best = 0, None
        self.high_turn = None

        def test(gamma):
            r = self.shared_probe(gamma) if shared else self.round(gamma)
            return None if r is None else (r[1], r[0] == "high")

        def told(bound, gamma, v, high):
            nonlocal probes, best
            if high:
                best = self.high_turn if shared else self.orbits[self.high_child][0]
            if progress is not None:
                probes += 1
                red = bound.for_side(self.side)
                nodes = self.nodes()
                progress(Progress(bounds_text(red, nodes), bounds=(red.lo, red.hi),
                                  probes=probes, nodes=nodes, node_counter=self.nodes,
                                  gamma=gamma if self.red else 1 - gamma,
                                  proved_at_least=high == self.red, best=best))
            return self.reason is not None   # stopped as a child failed high

        return narrow(bound, guess, test, told)

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
                _, done = narrow(self.bounds[k], g if self.red else -g,
                                 lambda gamma: self.probe(s, k, gamma))
                if not done:
                    return
                if progress is not None:
                    progress(f"turn {k + 1}/{len(self.orbits)}")

        self.run(work)


def _solve_threads(core, orbits, searchers, budget, all_turns, pv, pstr,
                   progress) -> SolveResult:
    """:func:`solve` with the root's children probed over threads (its contracts)."""
    side = core.side
    group = {o[0]: k for k, o in enumerate(orbits)}     # a turn's group: as the serial solve's
    orbits = root_orbits(searchers[0], orbits)
    team = _Team(core, orbits, searchers, budget)
    turns = None
    # the value first, with all_turns too (as the serial solve; its progress then the
    # turns' count alone)
    told = progress
    if all_turns and progress is not None:
        progress("the value first")
        told = None
    static = static_bound(searchers[0])
    started(told, static, team.nodes)
    g = first_guess(searchers[0])
    shared = SHARED_TREE and SHARED_TREE_MIN_TURNS > 0
    if shared:
        team.share_tree(SHARED_TREE_MIN_TURNS, BUSY_ENTRIES)
    elif team.ybw:
        # the helpers of a child split its replies: a reply another thread searches
        # waits for the child's second pass (the busy table at the children alone)
        for x in searchers:
            x.set_shared_tree(core.turns_left - 1, BUSY_ENTRIES)
    bound, done = team.mtdf(static.for_side(side), g if side == 0 else -g, told, shared)
    for s in searchers:
        s.set_shared_tree(0)
        s.set_root_turns(None)
        s.set_helper(False)
    if all_turns and team.reason is None:
        # the value first (as the serial solve): then every child's, from the bounds
        # the value's rounds proved
        team.exact_children(progress)
        bounds = team.bounds
        bound = Bound(max(bound.lo, max(b.lo for b in bounds)),
                      min(bound.hi, max(b.hi for b in bounds)))
        done = bound.exact
    value = bound.for_side(side).lo if done else None   # Red's view
    if all_turns:
        turns = []
        for k, orb in enumerate(orbits):
            c = team.bounds[k].for_side(side)
            turns += [TurnValue(t, c.value, c.lo, c.hi, c.exact, group[orb[0]]) for t in orb]
        _best_first(turns, side)
    best, line, scores = [], [], None
    best_complete = pv_complete = not pv   # True when not asked for
    s = searchers[0]                       # the table holds every thread's proofs
    if done and pv:
        # Every child is proved <= the value (the round that proved the root's upper
        # bound failed on each); the optimal ones are those proved >= it.
        lo = bound.lo                      # the mover's view
        if team.reason is None:
            team.classify(lo)
        opt = [k for k, b in enumerate(team.bounds) if b.lo >= lo]
        best = sorted(t for k in opt for t in orbits[k])
        best_complete = all(b.decides(lo) is not None for b in team.bounds)
        if opt:
            line.append(orbits[opt[0]][0])
        if best_complete:
            try:
                if not team._arm(s):
                    raise Stopped
                s.make(line[0])
                walk_pv(s, value, line)
                pv_complete = True
                scores = line_scores(core, line)
            except (Stopped, KeyboardInterrupt):
                pass
            s.reset()
    stats = [x.stats() for x in searchers]
    tt = {key: sum(st[key] for st in stats)
          for key in ("nodes", "tt_probes", "tt_hits", "tt_stores", "tt_used",
                      "neutral_turns_pruned")}
    tt["tt_entries"] = stats[0]["tt_entries"]      # one table
    tt["tt_fill"] = tt["tt_used"] / tt["tt_entries"] if tt["tt_entries"] else 0.0
    tt["threads"] = len(searchers)
    tt["deferred"] = sum(x.deferrals for x in searchers)     # shared tree: children deferred
    reason = team.reason or (stop_reason(s) if done else "interrupted")
    return solve_result(pstr, bound.for_side(side), done, reason, best=best,
                        best_complete=best_complete, pv=line, pv_complete=pv_complete,
                        scores=scores, turns=turns, nodes=sum(st["nodes"] for st in stats),
                        seconds=budget.elapsed(), tt=tt)


class ValueTests:
    """Null-window tests "is the value at least ``gamma``?" at a few positions with the
    same turns left (``turns_left``), on one transposition table and one pool of
    ``node_limit`` nodes. A test that fails is cheap beside a value: under Basic at 7
    turns left with the supplies in hand one took 50-300 k nodes, one that passes
    0.8-1.7 M, about a value's proof (docs/engine.md, "The solver's audit of the
    tree's neutral")."""

    def __init__(self, node_limit: int, turns_left: int):
        check_count(node_limit, "the node limit", none_ok=False)
        self.budget = Budget(node_limit)
        self.entries = tt_entries_for(turns_left, None, node_limit)
        self.searchers = {}

    @property
    def nodes(self) -> int:
        """The nodes the tests have searched so far."""
        return self.budget.spent()

    def at_least(self, position, gamma: int, side: int = 0) -> bool | None:
        """Whether the value at ``position`` is at least ``gamma`` in ``side``'s view
        (0 Red, 1 Blue): True or False, proved, or None when the pool ran out first.
        Ctrl-C raises :class:`~szsolver.interrupt.Interrupted`."""
        interrupt.raise_if_interrupted()
        core = to_core(position)
        if core.is_over():
            v = core.value() if side == 0 else -core.value()
            return v >= gamma
        key = position_string(core)
        s = self.searchers.get(key)
        if s is None:
            check_searchable(core)
            first = next(iter(self.searchers.values()), None)
            s = new_searcher(core, 2 if first else self.entries, None, None)
            if first is not None:
                s.share_table(first)
            self.searchers[key] = self.budget.join(s)
        if not self.budget.arm(s):
            return None
        r = probe(s, gamma, side)
        if r is None:
            if stop_reason(s) == "interrupted":
                raise interrupt.Interrupted()
            return None
        return r[1]


def turn_values(position, **kwargs) -> list[tuple[int, int | None]]:
    """(turn, value) for every legal turn, Red's side, best first for the side to
    move; turns equal by a symmetry of the position come together. A value is
    None when a limit stopped the search before it was proved (see
    ``solve(..., all_turns=True).turns`` for the bounds)."""
    res = solve(position, all_turns=True, **kwargs)
    return [(t.turn, t.value) for t in res.turns]
