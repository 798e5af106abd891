"""CP-SAT model of a starmap puzzle: solve it and prove the solution unique.

Model (any :class:`~szsolver.rules.geometry.Geometry`, both beam rules):

- ``x[p]``: a star on point p (no variable on blocked points);
- ``b[p,d]``: p sees a star in direction d. Beams are chained along the ray:
  ``b[p,d] = x[q] or b[q,d]`` with q the next point; under ADVANCED a blocked q
  makes ``b[p,d] = 0`` (the beam is cut), under BASIC a blocked q is only empty;
- ``y[p,t]``: the star on p shows pattern t. ``sum_t y[p,t] = x[p]``,
  ``sum_p y[p,t] = 1`` for every pattern t, and the chosen pattern agrees with
  the beams: ``sum(y[p,t] : bit d of t) <= b[p,d]`` and
  ``sum(y[p,t] : not bit d of t) + b[p,d] <= 1`` (2k linear rows per point; this
  builds and solves faster on the hex board than one implication per y and d). Givens fix ``y[p,t] = 1``; a pattern that
  needs a beam where the ray is empty (or cut at once) is ruled out up front.

Uniqueness is proved by re-solving with a no-good (the found star set
forbidden) until the solver reports infeasibility: ``unique`` is only ever
reported after that proof. Which solution comes first depends on the solver's
search, not the verdict; with the default single worker and fixed seed it is
reproducible too.

>>> from szsolver.rules.geometry import square
>>> from szsolver.starmaps.model import Puzzle
>>> r = solve(Puzzle(square(7)))          # 7 x 7 is too small for a starmap
>>> r.status, r.solutions
('none', [])
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .. import cpsat, interrupt
from ..errors import InputError, InvalidPuzzleError
from ..limits import check_seconds
from ..rules.base import ADVANCED
from ..rules.beams import sight_lines
from ..rules.seeds import STARMAP_SAT_SEED

cp_model = cpsat.cp_model()
from .model import Puzzle, solution_problems

UNIQUE, MULTIPLE, NONE, UNKNOWN, FOUND = "unique", "multiple", "none", "unknown", "found"
DEFAULT_SEED = STARMAP_SAT_SEED  # CP-SAT random_seed: which solution comes first


@dataclass
class SolveResult:
    """What the solver established.

    ``status``: ``unique`` (one solution, and no other: proved), ``multiple`` (at
    least two; ``solutions`` lists them), ``none`` (proved: no solution),
    ``unknown`` (a limit stopped it before a proof; ``solutions`` holds what was
    found), ``found`` (``max_solutions=1``: a solution, uniqueness not asked).
    ``exhausted``: the search was completed, so ``len(solutions)`` is the exact
    number of solutions.
    """
    status: str
    solutions: list[int] = field(default_factory=list)
    exhausted: bool = False
    seconds: float = 0.0
    stats: dict = field(default_factory=dict)

    @property
    def proved(self) -> bool:
        return self.status in (UNIQUE, NONE) or (self.status == MULTIPLE and len(self.solutions) >= 2)

    @property
    def solution(self) -> int | None:
        return self.solutions[0] if self.solutions else None

    def describe(self) -> str:
        n = len(self.solutions)
        if self.status == UNIQUE:
            return "unique solution (proved: the search found no other)"
        if self.status == NONE:
            return "no solution (proved)"
        if self.status == MULTIPLE:
            extra = " (all of them)" if self.exhausted else ""
            return f"not unique: {n} solutions found{extra}"
        if self.status == FOUND:
            return "a solution found (uniqueness not checked)"
        if n:
            return "a solution found, but a limit stopped the search before uniqueness was proved"
        return "a limit stopped the search: nothing proved"


class StarmapModel:
    """The CP-SAT model of one puzzle; reusable for several solves (no-goods and
    extra constraints accumulate)."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        g = puzzle.geometry
        m = cp_model.CpModel()
        self.model = m
        blocked = puzzle.blocked
        free = [p for p in range(g.size) if not blocked >> p & 1]
        self.free = free
        self.x = {p: m.new_bool_var(f"x{p}") for p in free}
        k = g.n_directions
        nt = g.n_patterns
        advanced = puzzle.rule == ADVANCED
        # b[(p, d)]: the beam literal, or None where nothing can ever be seen
        b = {}
        for d in range(k):
            # build along each ray from the far end: process points so that the next
            # point q = rays[p][d][0] has its b[q,d] first (memoised recursion).
            def beam(p, d=d):
                key = (p, d)
                if key in b:
                    return b[key]
                ray = g.rays[p][d]
                if not ray:
                    b[key] = None
                    return None
                q = ray[0]
                if blocked >> q & 1:
                    if advanced:
                        b[key] = None
                        return None
                    b[key] = beam(q)  # a blocked point is transparent and empty
                    return b[key]
                rest = beam(q)
                if rest is None:
                    b[key] = self.x[q]
                    return b[key]
                v = m.new_bool_var(f"b{p}_{d}")
                m.add_bool_or([self.x[q], rest]).only_enforce_if(v)
                m.add_implication(self.x[q], v)
                m.add_implication(rest, v)
                b[key] = v
                return v
            for p in range(g.size):
                beam(p)
        self.b = b
        given = dict(puzzle.givens)
        given_pat = {t: p for p, t in puzzle.givens}
        self.y = {}
        by_pattern = {t: [] for t in range(nt)}
        S = cp_model.LinearExpr.sum
        for p in free:
            lits = []
            blind = sum(1 << d for d in range(k) if b[(p, d)] is None)
            for t in range(nt):
                if t in given_pat and given_pat[t] != p:
                    continue
                if p in given and given[p] != t:
                    continue
                if t & blind:  # a beam where nothing can ever be seen
                    continue
                v = m.new_bool_var(f"y{p}_{t}")
                self.y[(p, t)] = v
                lits.append((t, v))
                by_pattern[t].append(v)
            # the chosen pattern agrees with the beams: with at most one y[p,.] true,
            # sum of y with bit d <= b[p,d] and sum of y without bit d <= 1 - b[p,d]
            for d in range(k):
                bd = b[(p, d)]
                if bd is None:
                    continue
                on = [v for t, v in lits if t >> d & 1]
                off = [v for t, v in lits if not t >> d & 1]
                if on:
                    m.add(S(on) <= bd)
                if off:
                    m.add(S(off) + bd <= 1)
            lits = [v for _t, v in lits]
            if lits:
                m.add(S(lits) == self.x[p])
            else:
                m.add(self.x[p] == 0)
        self.impossible = False
        for t in range(nt):
            if not by_pattern[t]:
                self.impossible = True
            else:
                m.add_exactly_one(by_pattern[t])
        for p in given:
            m.add(self.x[p] == 1)
        m.add(cp_model.LinearExpr.sum(list(self.x.values())) == nt)  # redundant, helps propagation
        # Redundant counting: along each direction d, the stars without a beam in d
        # are exactly the last stars of the occupied lines (segments under ADVANCED),
        # one per occupied line; half of all patterns lack bit d.
        self.lines = lines = sight_lines(g, blocked, advanced)
        for d in range(k):
            occ = []
            for line in lines[d]:
                o = m.new_bool_var("")
                for p in line:
                    m.add_implication(self.x[p], o)
                m.add_bool_or([self.x[p] for p in line]).only_enforce_if(o)
                last = [self.y[(p, t)] for p in line for t in range(nt)
                        if not t >> d & 1 and (p, t) in self.y]
                m.add(cp_model.LinearExpr.sum(last) == o)
                occ.append(o)
            m.add(cp_model.LinearExpr.sum(occ) == nt // 2)
        self.n_solves = 0

    def forbid(self, stars: int) -> None:
        """Add a no-good: this star set is not allowed."""
        pts = [p for p in self.free if stars >> p & 1]
        self.model.add_bool_or([self.x[p].Not() for p in pts])

    def solve_once(self, time_limit: float | None = None, workers: int = 1,
                   seed: int = DEFAULT_SEED, hint: int | None = None):
        """(cp status, stars or None, solver); InputError for a bad limit (see
        :func:`check_limits`)."""
        check_limits(time_limit, workers)
        if self.impossible:
            return cp_model.INFEASIBLE, None, None
        # Ctrl-C stops the solve within a moment and raises KeyboardInterrupt; OR-Tools'
        # own SIGINT handler (never installed) would turn it into an "unknown" verdict
        # that looks like a time limit
        s = interrupt.CpSolver()
        s.parameters.num_workers = workers
        s.parameters.random_seed = int(seed)
        s.parameters.catch_sigint_signal = False
        if time_limit is not None:
            s.parameters.max_time_in_seconds = max(0.001, float(time_limit))
        if hint is not None:
            self.model.clear_hints()
            for p, v in self.x.items():
                self.model.add_hint(v, bool(hint >> p & 1))
        self.n_solves += 1
        st = s.solve(self.model)
        stars = None
        if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            stars = 0
            for p, v in self.x.items():
                if s.boolean_value(v):
                    stars |= 1 << p
        return st, stars, s


#: the most CP-SAT workers a solve takes (more only costs memory)
MAX_WORKERS = 64


def check_limits(time_limit=None, workers: int = 1, max_solutions: int = 1) -> None:
    """InputError (one line) unless ``time_limit`` is None or a finite number of seconds
    above 0, ``workers`` a whole number from 1 to :data:`MAX_WORKERS` and
    ``max_solutions`` a whole number from 1: a NaN, infinite, zero or negative limit
    would run without one."""
    check_seconds(time_limit)
    if isinstance(workers, bool) or not isinstance(workers, int) \
            or not 1 <= workers <= MAX_WORKERS:
        raise InputError(f"workers must be a whole number from 1 to {MAX_WORKERS}, "
                         f"got {workers!r}")
    if isinstance(max_solutions, bool) or not isinstance(max_solutions, int) \
            or max_solutions < 1:
        raise InputError(f"max_solutions must be a whole number from 1, got {max_solutions!r}")


def solve(puzzle: Puzzle, max_solutions: int = 2, time_limit: float | None = None,
          workers: int = 1, seed: int = DEFAULT_SEED, progress=None) -> SolveResult:
    """Solve ``puzzle``: find up to ``max_solutions`` solutions and, when fewer
    exist, prove there are no more. ``time_limit`` (seconds, whole call) makes the
    result ``unknown`` if it runs out before a proof; InputError for a NaN, infinite,
    zero or negative limit and bad ``workers``/``max_solutions`` (:func:`check_limits`). ``progress(msg)`` is called
    with short progress messages. Every solution is checked by the independent
    pure-Python checker before it is returned."""
    check_limits(time_limit, workers, max_solutions)
    t0 = time.perf_counter()
    model = StarmapModel(puzzle)
    stats = {"variables": len(model.model.proto.variables),
             "constraints": len(model.model.proto.constraints),
             "solves": 0, "branches": 0, "conflicts": 0}
    sols: list[int] = []
    status = UNKNOWN
    exhausted = False
    while True:
        left = None
        if time_limit is not None:
            left = time_limit - (time.perf_counter() - t0)
            if left <= 0:
                break
        st, stars, s = model.solve_once(left, workers, seed)
        stats["solves"] += 1
        if s is not None:
            stats["branches"] += s.num_branches
            stats["conflicts"] += s.num_conflicts
        if st == cp_model.INFEASIBLE:
            exhausted = True
            status = NONE if not sols else (UNIQUE if len(sols) == 1 else MULTIPLE)
            break
        if stars is None:  # UNKNOWN (limit) or MODEL_INVALID
            if st == cp_model.MODEL_INVALID:  # pragma: no cover - a bug in the model
                raise RuntimeError("CP-SAT model invalid")
            status = UNKNOWN if len(sols) < 2 else MULTIPLE
            break
        problems = solution_problems(puzzle, stars)
        if problems:  # pragma: no cover - would be a modelling bug
            raise RuntimeError(f"CP-SAT solution fails the checker: {problems[0]}")
        sols.append(stars)
        if progress:
            progress(f"solution {len(sols)} found after {time.perf_counter() - t0:.1f} s")
        if len(sols) >= max_solutions:
            status = MULTIPLE if len(sols) >= 2 else FOUND
            break
        model.forbid(stars)
    stats["seconds"] = round(time.perf_counter() - t0, 4)
    return SolveResult(status, sols, exhausted, time.perf_counter() - t0, stats)


def other_solution(puzzle: Puzzle, solution: int, time_limit: float | None = None,
                   workers: int = 1, seed: int = DEFAULT_SEED) -> tuple[bool | None, int | None]:
    """Is ``solution`` the only solution? One solve with the solution forbidden.
    Returns ``(True, None)`` when uniqueness is proved, ``(False, other)`` with a
    second solution, ``(None, None)`` when the time limit stopped it."""
    check_limits(time_limit, workers)
    problems = solution_problems(puzzle, solution)
    if problems:
        raise InvalidPuzzleError(f"not a solution: {problems[0]}")
    model = StarmapModel(puzzle)
    model.forbid(solution)
    st, stars, _ = model.solve_once(time_limit, workers, seed)
    if st == cp_model.INFEASIBLE:
        return True, None
    if stars is not None:
        return False, stars
    return None, None


def is_unique(puzzle: Puzzle, solution: int, time_limit: float | None = None, **kw) -> bool | None:
    """True (proved unique), False (another solution exists), None (limit reached)."""
    return other_solution(puzzle, solution, time_limit, **kw)[0]
