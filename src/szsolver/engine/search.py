"""The engine: a turn and an estimated value for any position, exact near the end.

Contracts
---------
* :meth:`Engine.analyse` returns an :class:`EngineResult`: a legal turn, the value
  (the rules' composite value ``100 * (red score - blue score) + (red neutrals
  left - blue neutrals left)``, Red's side), whether it is proved (``exact``), and
  ``lower <= true value <= upper``, bounds that are always proved (the exact
  solver's finished probes, the CP-SAT score bounds, or the trivial bounds).
* With few enough turns left (``solver_turns``) the exact endgame solver runs
  first under a node limit; when it finishes the answer is exact (``method``
  ``"solver"``, ``best`` every optimal turn). With one turn left (two under
  Basic) it always runs, without a limit: the tree search values those turns
  exactly in its playouts and opens none, so it has nothing to weigh there. Otherwise Monte Carlo tree search
  (``engine._mcts``) gives the turn and an estimate (``method`` ``"engine"``,
  never exact), clamped into the proved bounds.
* Deterministic by default: the search budget is a number of iterations (a time
  budget is converted by the fixed cost model :data:`ITERATION_COST`), the
  solver's budget a number of nodes, and the random seed comes from SHA-256 of the
  position string and the engine's seed. The same input gives the same output on
  every machine. ``wall_clock=True`` runs the search until the time is up instead
  (stronger on a fast machine, no longer reproducible).
* The turn: the most visited one, or with at most :data:`BACKED_TURNS` turns left
  the best minimax backup of the means (:func:`choose`); the value: that turn's
  mean (or backed) final value. Measurements behind these choices: docs/engine.md.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..errors import IllegalTurnError, InputError
from ..formats.notation import format_turn, position_string
from ..limits import check_count, check_seconds
from ..rules.base import ADVANCED, BASIC, RED
from ..rules.text import turn_table
from ..rules.seeds import playout_seed_v1

#: CPU seconds per iteration: a * (turns left)**2 + b, since a playout's cost grows
#: with the turns left times the points looked at per turn. Measured on the 2-core
#: development machine (CPU time; Basic 24,000 iterations/s from the start, 109,000/s
#: at 16 turns left, 409,000/s at 6; Advanced about 60 % of that). A fixed rate
#: keeps results reproducible; on a loaded machine a budget takes longer in wall time.
ITERATION_COST = {BASIC: (3.9e-8, 1.0e-6), ADVANCED: (6.8e-8, 1.1e-6)}
#: Children below this share of the most visited one's visits do not count in the
#: minimax backup of the means (their means rest on too few playouts).
BACKED_FRACTION = 0.1
#: The minimax backup chooses the turn with at most this many turns left (where the
#: last turns are valued exactly and the tree is deep); earlier the most visited turn
#: (measured: the backup everywhere lost 0-20 to it over whole games, from 10 turns
#: left 5-13; at 4-6 turns left it finds more optimal turns, docs/engine.md).
BACKED_TURNS = 6
MIN_ITERATIONS = 64
#: An estimate from fewer iterations (playouts) than this is a rough guess, and the
#: answer says so. Measured on the rulebook game at 30, 20 and 12 turns left, the
#: mean over 8 seeds against 16,000 iterations: 64 iterations were 130-180 off (more
#: than a point, and biased one way), 1,000 iterations 20-30 off (under
#: ``analysis.verdict.ESTIMATE_MARGIN``, half a point), 4,000 under 20.
ROUGH_ITERATIONS = 1_000
MAX_ITERATIONS = 1_000_000         # memory: ~120 bytes per iteration
#: iterations between looks at a deadline (about 10 ms at 8 turns left)
DEADLINE_CHUNK = 1024
#: Solver nodes per second of budget (the C search runs 1-3 M nodes/s).
SOLVER_NODES_PER_SECOND = 1_000_000
#: The exact solver is tried from this many turns left (docs/solver.md: 8 turns
#: take seconds, some Advanced 6-turn positions a minute).
SOLVER_TURNS = 8
DEFAULT_SECONDS = 1.0
#: The share of the budget the CP-SAT score bounds may take (``bounds=True``), and
#: the least time each of their four solves gets.
BOUNDS_SHARE = 0.2
MIN_BOUNDS_SECONDS = 0.005


@dataclass
class EngineResult:
    """The answer of :meth:`Engine.analyse`; see the module doc for the contracts."""
    position: str
    turn: int | None                  # None only when the game is over
    value: int                        # exact when ``exact``, an estimate otherwise
    exact: bool
    method: str                       # "solver", "engine" or "over"
    lower: int
    upper: int
    best: list[int] = field(default_factory=list)
    pv: list[int] = field(default_factory=list)
    score_bounds: dict | None = None  # {"red": [floor, bound], "blue": [...]} (CP-SAT)
    candidates: list[dict] = field(default_factory=list)
    iterations: int = 0
    nodes: int = 0
    seconds: float = 0.0
    stopped: str | None = None        # why the solver did not finish, if it was tried

    def with_turns(self, geometry) -> "EngineResult":
        """``turn``, ``best``, ``pv`` and each candidate's turn as Turns of ``geometry``
        (the search hands out plain int codes); returns self."""
        table = turn_table(geometry)
        if self.turn is not None:
            self.turn = table[self.turn]
        self.best = [table[t] for t in self.best]
        self.pv = [table[t] for t in self.pv]
        self.candidates = [{**c, "turn": table[c["turn"]]} for c in self.candidates]
        return self

    def to_json(self, geometry=None) -> dict:
        from ..rules.geometry import STARS_ZONE
        g = geometry or STARS_ZONE
        return {
            "position": self.position,
            "turn": None if self.turn is None else format_turn(self.turn, g),
            "value": self.value, "exact": self.exact, "method": self.method,
            "lower": self.lower, "upper": self.upper,
            "best": [format_turn(t, g) for t in self.best],
            "pv": [format_turn(t, g) for t in self.pv],
            "score_bounds": self.score_bounds,
            "candidates": [{**c, "turn": format_turn(c["turn"], g)} for c in self.candidates],
            "iterations": self.iterations, "nodes": self.nodes,
            "seconds": round(self.seconds, 3), "solver_stopped": self.stopped,
        }


def iterations_for(pos, seconds: float) -> int:
    """Iterations that take about ``seconds`` at ``pos`` on the development machine
    (see :data:`ITERATION_COST`); a pure function of the position and the budget."""
    a, b = ITERATION_COST[ADVANCED if pos.rule == ADVANCED else BASIC]
    cost = a * pos.turns_left ** 2 + b
    return int(min(MAX_ITERATIONS, max(MIN_ITERATIONS, seconds / cost)))


def choose(stats, side: int, how: str = "backed") -> tuple[int, float]:
    """The root turn to play and its value (Red's side) from ``Tree.backed_stats``:
    ``"visits"``: the most visited child and its mean value; ``"backed"``: among the
    children visited at least :data:`BACKED_FRACTION` as often as the most visited,
    the best minimax-backed value (then the most visits). (``Engine`` uses "backed"
    only with at most :data:`BACKED_TURNS` turns left: measured, docs/engine.md.)"""
    if how == "visits":
        t, _n, _r, mean, _b = stats[0]
        return t, mean
    top = stats[0][1]
    sign = 1 if side == RED else -1
    t, _n, _r, _m, b = max((s for s in stats if s[1] >= BACKED_FRACTION * top),
                           key=lambda s: (sign * s[4], s[1], -s[0]))
    return t, b


#: A 64-bit seed from SHA-256 of ``repr(parts)``: the playout recipe of rules.seeds.
seed_for = playout_seed_v1


def trivial_bounds(pos) -> tuple[int, int]:
    """Bounds on the value that need no search: scores 0..16 each, and each side
    spends at most one neutral per own turn left."""
    lo_t, hi_t = tie_break_range(pos)
    n = pos.geometry.n_patterns
    return -100 * n + lo_t, 100 * n + hi_t


def tie_break_range(pos) -> tuple[int, int]:
    """The least and greatest (red neutrals left - blue neutrals left) at the end."""
    per = pos.stones_per_side
    kr = per - bin(pos.red).count("1")
    kb = per - bin(pos.blue).count("1")
    rl, bl = pos.red_neutrals, pos.blue_neutrals
    return rl - min(kr, rl) - bl, rl - (bl - min(kb, bl))


def bounds_from_scores(pos, score_bounds: dict) -> tuple[int, int]:
    """Value bounds from each side's proved final-score range."""
    lo_t, hi_t = tie_break_range(pos)
    (rf, rb), (bf, bb) = score_bounds["red"], score_bounds["blue"]
    return 100 * (rf - bb) + lo_t, 100 * (rb - bf) + hi_t


def score_bounds(pos, time_limit: float | None = None, work_limit: float | None = None) -> dict:
    """Each side's proved final-score range ``{"red": [floor, bound], "blue": [...]}``
    against any play (CP-SAT, :mod:`szsolver.bounds.potential`). Each of the four
    CP-SAT solves gets ``time_limit`` (wall clock) and ``work_limit`` (CP-SAT's
    deterministic time: the same bounds on any machine and under any load)."""
    from ..bounds import score_bound, score_floor
    out = {}
    for side, name in ((0, "red"), (1, "blue")):
        out[name] = [score_floor(pos, side, time_limit, work_limit),
                     score_bound(pos, side, time_limit, work_limit)]
    return out


class Engine:
    """Chooses turns and estimates values (see the module doc).

    ``seconds``: the budget per analysis, converted to ``iterations`` (MCTS) and
    ``solver_nodes`` at fixed rates unless those are given. ``wall_clock``: spend
    real time instead (not reproducible). ``solver_turns``: try the exact solver
    with at most this many turns left (0: never). ``bounds``: also compute the
    CP-SAT score bounds (within :data:`BOUNDS_SHARE` of the budget; off for fast
    play). ``seed``: mixes into every search's seed. Other keywords go to the tree search (``_mcts.Tree``).
    """

    def __init__(self, seconds: float = DEFAULT_SECONDS, *, iterations: int | None = None,
                 solver_nodes: int | None = None, solver_turns: int = SOLVER_TURNS,
                 wall_clock: bool = False, bounds: bool = False, seed=0,
                 choice: str = "auto", **tree_options):
        check_seconds(seconds, "the engine's time budget", none_ok=False)
        check_count(iterations, "the engine's iteration budget")
        check_count(solver_nodes, "the engine's solver node budget")
        self.seconds = seconds
        self.fixed_iterations = iterations
        self.solver_nodes = solver_nodes if solver_nodes is not None else \
            max(100_000, int(seconds * SOLVER_NODES_PER_SECOND))
        self.solver_turns = solver_turns
        self.wall_clock = wall_clock
        self.bounds = bounds
        self.seed = seed
        if choice not in ("auto", "backed", "visits"):
            raise InputError(f"unknown choice {choice!r}: use auto, backed or visits")
        self.choice = choice
        self.tree_options = tree_options

    def analyse(self, pos, *, solver: bool = True) -> EngineResult:
        """The engine's turn and value at ``pos`` (either back end; not changed); its
        turns are Turns of the position's board, which print as turn text."""
        return self._analyse(pos, solver).with_turns(pos.geometry)

    def _analyse(self, pos, solver: bool) -> EngineResult:
        from ..endgame.solver import solve, to_core
        start = time.perf_counter()
        core = to_core(pos)
        pstr = position_string(core)
        if core.is_over():
            v = core.value()
            return EngineResult(pstr, None, v, True, "over", v, v,
                                seconds=time.perf_counter() - start)
        lo, hi = trivial_bounds(core)
        sb = None
        if self.bounds:
            # Four CP-SAT solves share BOUNDS_SHARE of the budget; stopped early they
            # still return proved (if looser) bounds. The budget is CP-SAT work, like
            # the tree's iterations (reproducible), unless the engine spends real time.
            from ..bounds.model import work_for
            per = max(self.seconds * BOUNDS_SHARE / 4, MIN_BOUNDS_SECONDS)
            sb = score_bounds(core, per) if self.wall_clock else \
                score_bounds(core, work_limit=work_for(per))
            blo, bhi = bounds_from_scores(core, sb)
            lo, hi = max(lo, blo), min(hi, bhi)
        stopped = None
        nodes = 0
        tail = self._tail(core)     # nothing for the tree to weigh: always solved, no limit
        if tail or (solver and self.solver_turns and core.turns_left <= self.solver_turns):
            left = self.seconds - (time.perf_counter() - start)
            res = solve(core, node_limit=None if self.wall_clock or tail else self.solver_nodes,
                        time_limit=max(left, 0.01) if self.wall_clock and not tail else None)
            nodes = res.nodes
            if res.exact and (res.pv or res.best):
                pick = _first_in_pv(res)
                return EngineResult(pstr, pick, res.value, True, "solver", res.value,
                                    res.value, best=list(res.best), pv=list(res.pv),
                                    score_bounds=sb, nodes=res.nodes,
                                    seconds=time.perf_counter() - start)
            # Not exact, or the value proved but the node limit struck before an optimal
            # turn was: the tree search picks the turn within the proved bounds.
            lo, hi = max(lo, res.lower), min(hi, res.upper)
            stopped = res.stopped
        tree = self._tree(core, pstr)
        if self.wall_clock and self.fixed_iterations is None:
            # until the time is up, at most MAX_ITERATIONS (the tree's memory)
            _run_until(tree.run, MAX_ITERATIONS, start + self.seconds)
        else:
            tree.run(self.iterations_for(core))
        stats = tree.backed_stats(BACKED_FRACTION)
        how = self._how(core)
        turn, value = choose(stats, core.side, how)
        value = min(max(int(round(value)), lo), hi)
        # "estimate": the measure the turn was chosen by (its mean, or its backed value)
        cands = [{"turn": t, "visits": n, "value": round(b, 1), "mean": round(v, 1),
                  "estimate": round(v if how == "visits" else b, 1),
                  "reward": round(r, 4)} for t, n, r, v, b in stats[:8]]
        return EngineResult(pstr, turn, value, False, "engine", lo, hi, best=[turn],
                            pv=tree.principal_line(8, turn),   # from the turn chosen
                            score_bounds=sb, candidates=cands,
                            iterations=tree.iterations, nodes=nodes,
                            seconds=time.perf_counter() - start, stopped=stopped)

    def iterations_for(self, pos, seconds: float | None = None) -> int:
        """The search's iterations at ``pos`` for a budget of ``seconds`` (default the
        engine's): fixed by the position and the budget alone (deterministic)."""
        if self.fixed_iterations is not None and seconds is None:
            return int(self.fixed_iterations)
        if seconds is not None:
            check_seconds(seconds, "the engine's time budget")
        return iterations_for(pos, self.seconds if seconds is None else seconds)

    def judge(self, pos, turn: int, seconds: float | None = None,
              deadline: float | None = None) -> dict:
        """Estimates for judging ``turn`` at ``pos`` (no solver): one search picks the
        engine's turn, then more iterations through ``turn`` until it has as many
        visits as the engine's turn (at most half the budget more), so both estimates
        rest on searches of the same size. Returns ``{"best": turn,
        "best_value": v, "played_value": v, "visits": {...}, "iterations": n}``,
        values Red's side (estimates, never proved); where the tree opens no turn
        (one turn left, two under Basic) every turn is solved instead and the
        answer has ``"exact": True``. ``"pv"``: the engine's expected line from its
        turn (then the most visited turns below it, up to 8 turns). ``deadline``
        (``time.perf_counter()``; None: none): a caller's time limit, a safety net under
        the fixed budget, which the cost model means to fit; the searches stop there (after at least
        :data:`DEADLINE_CHUNK` iterations each), and ``"stopped"`` says so (the answer
        then depends on the machine's speed)."""
        from ..endgame.solver import to_core
        core = to_core(pos)
        pstr = position_string(core)
        n = self.iterations_for(core, seconds)
        if self._tail(core):
            return _tail_judgement(core, turn)
        tree = self._tree(core, pstr)
        stopped = not _run_until(tree.run, n, deadline)
        first = tree.backed_stats(BACKED_FRACTION)
        how = self._how(core)
        best, _v = choose(first, core.side, how)          # before the focus below
        line = tree.principal_line(8, best)               # the focus below adds visits
        visits = {t: v for t, v, _r, _m, _b in first}
        want = max(16, min(visits[best], n // 2))
        if visits.get(turn, 0) < want:
            stopped = not _run_until(lambda k: tree.focus(turn, k),
                                     want - visits.get(turn, 0), deadline) or stopped
        stats = {t: (v, b if how == "backed" else m)
                 for t, v, _r, m, b in tree.backed_stats(BACKED_FRACTION)}
        return {"best": best, "best_value": int(round(stats[best][1])),
                "played_value": int(round(stats[turn][1])),
                "visits": {"best": stats[best][0], "played": stats[turn][0]},
                "pv": line,
                "iterations": tree.iterations, "stopped": stopped}

    def _tail(self, pos) -> bool:
        """The tree search values the last turns exactly in its playouts and opens
        no turn there (one turn left; two under the Basic rule): such a position
        has nothing for it to weigh."""
        if not self.tree_options.get("exact_tail", True) or pos.is_over():
            return False
        return pos.turns_left == 1 or (pos.turns_left == 2 and pos.rule == BASIC)

    def _how(self, pos) -> str:
        if self.choice != "auto":
            return self.choice
        return "backed" if pos.turns_left <= BACKED_TURNS else "visits"

    def _tree(self, core, pstr: str):
        from ._mcts import Tree
        return Tree(core, seed_for("mcts", self.seed, pstr), **self.tree_options)


def _run_until(run, iterations: int, deadline: float | None) -> bool:
    """``run(iterations)``; with a ``deadline`` (``time.perf_counter()``) in chunks of
    :data:`DEADLINE_CHUNK`, stopping after the first chunk that ends past it (a tree's
    iterations run one after another, so the chunks give the same tree as one run).
    True when every iteration ran."""
    if deadline is None:
        run(iterations)
        return True
    while iterations > 0:
        k = min(DEADLINE_CHUNK, iterations)
        run(k)
        iterations -= k
        if iterations > 0 and time.perf_counter() >= deadline:
            return False
    return True


def _tail_judgement(core, turn: int) -> dict:
    """:meth:`Engine.judge`'s answer where the tree opens no turn (see
    ``Engine._tail``): every turn valued by the exact solver (instant with one or
    two turns left), so both values are exact (``exact`` True)."""
    from ..endgame.solver import turn_values
    values = dict(turn_values(core))
    if turn not in values:
        raise IllegalTurnError(f"illegal turn {format_turn(turn, core.geometry)}")
    best = next(iter(values))                  # best first for the side to move
    return {"best": best, "best_value": values[best], "played_value": values[turn],
            "visits": {"best": 0, "played": 0}, "iterations": 0, "exact": True,
            "stopped": False}


def _first_in_pv(res) -> int:
    """The solver's pick: the PV's first turn (an optimal turn)."""
    return res.pv[0] if res.pv else res.best[0]

