"""The CP-SAT model behind every bound: the most (or fewest) distinct patterns a
side can show, over placements of its remaining stones and (Advanced) new neutrals.

Contract. ``Model(geometry, own, neutral, avail, stones, allowance, advanced)``
ranges over every placement of exactly ``stones`` new own stones and at most
``allowance`` new neutrals (Advanced only) on distinct points of ``avail``, on top
of the stones ``own`` and neutrals ``neutral`` already placed. :meth:`Model.solve`
maximises the score (``minimise=True``: minimises it) and returns the placement it
found re-scored by the rules' walk (:func:`score_of`), with CP-SAT's proven bound.
:func:`model_for` builds the model a position asks for. The model is independent of
the rules' walk; tests check it against brute force and that it admits every
placement at its true score.

Model (one CP-SAT model per question; built in a few milliseconds)
------------------------------------------------------------------
Booleans ``x[p]`` (own stone on empty p), ``n[p]`` (new neutral on p, Advanced
only), ``x[p] + n[p] <= 1``, ``sum x = k``, ``sum n <= allowance``. A beam
literal ``b[p][d]`` for every point and direction is defined by the recursion
along the ray (``q`` = next point from ``p`` in direction ``d``)::

    b[p][d] = own(q) or (not neutral(q) and b[q][d])      (Basic: neutral(q) = False)

which is exactly the rules' walk (enemy stones are transparent). Constants are
folded, so stones already on the board cost nothing. ``z[p][t]`` implies "a
stone on p shows pattern t"; ``y[t]`` implies some ``z[.][t]``; maximise
``sum y``. ``sum_t z[p][t] <= own(p)`` tightens the LP relaxation.

Two additions make the proofs fast (without them some Advanced proofs took
tens of seconds):

* redundant counts: along a line beams run inside segments (between neutrals);
  each segment with own stones has exactly one stone without a beam each way,
  so per segment "stones without beam d" <= 1 + new neutrals inside it, and
  the patterns shown per class of (bit d, bit opposite d) are at most the stones
  in that class (lone, first, last, middle stones of their segments);
* dominance: a new neutral must separate two own stones along its row or its
  column (one that separates nothing changes no beam; dropping it keeps the
  score and the allowance), which removes useless neutral placements.
"""
from __future__ import annotations

import math
import time

from ortools.sat.python import cp_model

from .. import interrupt
from ..errors import InvalidPositionError, ParseError, UnsupportedError
from ..rules.base import ADVANCED, BLUE, RED, SIDE_NAMES, STONES_PER_SIDE
from ..rules.beams import beam_target, pattern_set
from ..rules.bits import popcount


#: CP-SAT parameters fixed for reproducibility: one worker (a sequential, deterministic
#: search; also the fastest here, measured against 2 and 8 workers) and a fixed seed, so
#: without a time limit the same position gives the same value and placement every run.
#: A time limit makes what is found by then depend on the clock (``proven`` says so).
NUM_WORKERS = 1
RANDOM_SEED = 20231717
#: Extra CP-SAT parameters (name -> value), for experiments only.
EXTRA_PARAMETERS: dict = {}


def score_of(geometry, own: int, neutral: int, advanced: bool) -> int:
    """The rules' score of the stones ``own``: how many distinct patterns they show,
    with the neutrals ``neutral`` cutting beams when ``advanced``. Walks each beam
    (:mod:`szsolver.rules.beams`), independently of the CP-SAT model."""
    return popcount(pattern_set(geometry, own, neutral if advanced else 0))


# --- the model -----------------------------------------------------------------------------

class Model:
    """Max (``minimise``: min) distinct patterns over placements of ``stones`` own
    stones and at most ``allowance`` neutrals on the points of ``avail``.

    ``own`` are the side's stones already placed, ``neutral`` the neutrals already
    placed (cutting beams only when ``advanced``).
    """

    def __init__(self, geometry, own: int, neutral: int, avail: int, stones: int,
                 allowance: int, advanced: bool,
                 use_counts: bool = True, use_classes: bool = True, minimise: bool = False):
        self.minimise = minimise
        self.use_counts, self.use_classes = use_counts, use_classes
        self.geometry = g = geometry
        self.own, self.neutral, self.avail = own, neutral, avail
        self.stones, self.advanced = stones, advanced
        self.allowance = allowance if advanced else 0
        self._scores: dict[tuple[int, int], int] = {}
        m = self.m = cp_model.CpModel()
        n_pts = g.size
        self.feasible = popcount(avail) >= stones
        # own(p) and neutral(p) literals: True / False / BoolVar
        self.x: dict[int, cp_model.IntVar] = {}
        self.nv: dict[int, cp_model.IntVar] = {}
        S: list = []
        N: list = []
        for p in range(n_pts):
            if own >> p & 1:
                S.append(True)
            elif avail >> p & 1 and stones > 0:
                v = m.new_bool_var(f"x{p}")
                self.x[p] = v
                S.append(v)
            else:
                S.append(False)
            if not advanced:
                N.append(False)
            elif neutral >> p & 1:
                N.append(True)
            elif avail >> p & 1 and self.allowance > 0 and self._may_cut(p):
                v = m.new_bool_var(f"n{p}")
                self.nv[p] = v
                N.append(v)
            else:
                N.append(False)
        for p, v in self.nv.items():
            if p in self.x:
                m.add_bool_or([self.x[p].Not(), v.Not()])
        m.add(sum(self.x.values()) == stones)
        if self.nv:
            m.add(sum(self.nv.values()) <= self.allowance)
        self.S, self.N = S, N

        # beam literals, by the recursion along each ray (far end first)
        nd = g.n_directions
        B = [[None] * nd for _ in range(n_pts)]
        for d in range(nd):
            order = sorted(range(n_pts), key=lambda p: len(g.rays[p][d]))
            for p in order:
                ray = g.rays[p][d]
                if not ray:
                    B[p][d] = False
                    continue
                q = ray[0]
                B[p][d] = self._or(S[q], self._and(self._not(N[q]), B[q][d]))
        self.B = B
        # A new neutral that separates no two own stones changes nothing: removing it
        # keeps the score and the allowance (<=). So only neutrals with own stones on
        # both sides along a row or a column are allowed (breaks useless symmetry).
        opp = g.opposite
        for q, v in self.nv.items():
            ors = []
            for d in range(nd):
                e = opp[d]
                if e < d:
                    continue
                ors.append(self._and(B[q][d], B[q][e]))
            if any(o is True for o in ors):
                continue
            m.add_bool_or([o for o in ors if o is not False] + [v.Not()])

        # pattern literals
        n_pat = g.n_patterns
        if minimise:
            self._minimise_patterns(n_pat)
            return
        zs: list[list] = [[] for _ in range(n_pat)]
        for p in range(n_pts):
            if S[p] is False:
                continue
            per_point = []
            for t in range(n_pat):
                lits = self._pattern_literals(p, t)
                if lits is None:
                    continue
                if not lits:
                    zs[t].append(True)
                    continue
                z = m.new_bool_var(f"z{p}_{t}")
                m.add_bool_and(lits).only_enforce_if(z)
                zs[t].append(z)
                per_point.append(z)
            if per_point:
                if S[p] is True:
                    m.add_at_most_one(per_point)
                else:
                    m.add(sum(per_point) <= S[p])
        if self.use_counts:
            self._add_segment_counts(zs)
        const = 0
        ys = []
        Y: dict = {}
        for t in range(n_pat):
            if any(z is True for z in zs[t]):
                const += 1
                continue
            if not zs[t]:
                continue
            y = m.new_bool_var(f"y{t}")
            m.add_bool_or(zs[t]).only_enforce_if(y)
            ys.append(y)
            Y[t] = y
        for t in range(n_pat):
            if any(z is True for z in zs[t]):
                Y[t] = 1
        if self.use_counts:
            self._add_class_counts(Y)
        self.const = const
        self.ys = ys
        self.objective = sum(ys) + const
        m.maximize(self.objective)

    def _pattern_literals(self, p, t):
        """Literals that together mean "a stone on p shows pattern t": None when
        that cannot happen, [] when it is already certain."""
        S, B = self.S, self.B
        lits = [] if S[p] is True else [S[p]]
        for d in range(self.geometry.n_directions):
            want = bool(t >> d & 1)
            b = B[p][d]
            if isinstance(b, bool):
                if b != want:
                    return None
            else:
                lits.append(b if want else b.Not())
        return lits

    def _minimise_patterns(self, n_pat):
        """Objective for the floor: y[t] >= "some stone shows pattern t" (clauses
        (stone on p and p's beams read t) => y[t]), minimise sum y. At an optimum each
        y[t] is exactly the indicator, so the optimum is the least reachable score."""
        g, m, S = self.geometry, self.m, self.S
        Y: dict = {}
        forced = set()
        clauses = []
        for p in range(g.size):
            if S[p] is False:
                continue
            for t in range(n_pat):
                lits = self._pattern_literals(p, t)
                if lits is None:
                    continue
                if not lits:
                    forced.add(t)
                else:
                    clauses.append((t, lits))
        for t, lits in clauses:
            if t in forced:
                continue
            if t not in Y:
                Y[t] = m.new_bool_var(f"y{t}")
            m.add_bool_or([lit.Not() for lit in lits] + [Y[t]])
        self.const = len(forced)
        self.ys = list(Y.values())
        self.objective = sum(self.ys) + self.const
        m.minimize(self.objective)

    def _add_segment_counts(self, zs):
        """Redundant counting constraints (valid for every placement; they only help
        the LP relaxation and the proof of optimality).

        Along a line, beams run inside *segments* (Basic: the whole line;
        Advanced: between neutrals). In each segment exactly one own stone lacks a
        beam in direction d (the last one that way) when the segment holds any own
        stone. So with ``e[p][d]`` = "own stone on p without beam d":
        ``sum e[.][d] over a segment <= 1 + new neutrals placed in it``, and the
        patterns without bit d that show are at most ``sum_p e[p][d]``. For the
        opposite pair (d, d') the same holds for the classes of the two bits
        (singletons, first/last stones of a segment, middle stones).
        """
        g, m, S, N, B = self.geometry, self.m, self.S, self.N, self.B
        nd = g.n_directions
        opp = g.opposite
        self.ys_by_pattern = None
        E = {}
        for p in range(g.size):
            if S[p] is False:
                continue
            for d in range(nd):
                E[p, d] = self._and(S[p], self._not(B[p][d]))
        self.E = E
        # per-segment at-most constraints
        for d in range(nd):
            if opp[d] < d:
                continue  # one of each opposite pair walks the lines; do both ends there
            for p in range(g.size):
                ray_back = g.rays[p][opp[d]]
                if ray_back:
                    continue  # p must start a line (nothing behind it in direction opp[d])
                line = (p,) + g.rays[p][d]
                seg: list[int] = []
                for q in line + (None,):
                    if q is None or N[q] is True:
                        if seg:
                            cuts = [N[r] for r in seg if not isinstance(N[r], bool)]
                            for dd in (d, opp[d]):
                                lits = [E[r, dd] for r in seg if (r, dd) in E
                                        and E[r, dd] is not False]
                                if len(lits) > 1 or any(l is True for l in lits):
                                    consts = sum(1 for l in lits if l is True)
                                    vs = [l for l in lits if l is not True]
                                    if vs:
                                        m.add(sum(vs) + consts <= 1 + sum(cuts))
                        seg = []
                    else:
                        seg.append(q)

    def _add_class_counts(self, Y):
        """Patterns without bit d that show <= own stones without beam d; and for an
        opposite pair the four classes of (bit d, bit d') likewise."""
        g, m, S, B, E = self.geometry, self.m, self.S, self.B, self.E
        nd = g.n_directions
        opp = g.opposite
        n_pat = g.n_patterns

        def ysum(pred):
            return sum(Y[t] for t in range(n_pat) if t in Y and pred(t))

        def lin(lits):
            return sum(1 if l is True else l for l in lits if l is not False)

        for d in range(nd):
            lits = [E[p, d] for p in range(g.size) if (p, d) in E]
            m.add(ysum(lambda t, d=d: not t >> d & 1) <= lin(lits))
            m.add(ysum(lambda t, d=d: t >> d & 1) <= lin([S[p] for p in range(g.size)])
                  - lin(lits))
        if not self.use_classes:
            return
        for d in range(nd):
            e = opp[d]
            if e < d:
                continue
            F = []
            for p in range(g.size):
                if S[p] is False:
                    continue
                F.append(self._and(E[p, d], self._not(B[p][e])))
            fs = lin(F)
            ed = lin([E[p, d] for p in range(g.size) if (p, d) in E])
            ee = lin([E[p, e] for p in range(g.size) if (p, e) in E])
            st = lin([S[p] for p in range(g.size)])
            bd, be = 1 << d, 1 << e
            for want_d in (0, 1):
                for want_e in (0, 1):
                    # classes (bit d, bit e) = (0,0) lone stone of its segment, (0,1) first
                    # stone that way, (1,0) last, (1,1) middle: counts fs, ed-fs, ee-fs, rest
                    count = [fs, ed - fs, ee - fs, st - ed - ee + fs][2 * want_d + want_e]
                    m.add(ysum(lambda t, a=want_d, b=want_e, bd=bd, be=be:
                               bool(t & bd) == a and bool(t & be) == b) <= count)

    def _may_cut(self, q: int) -> bool:
        """Can a neutral on q ever separate two own stones (on a row or column)?"""
        g = self.geometry
        ownable = self.own | (self.avail if self.stones > 0 else 0)

        def reach(d):
            return beam_target(g.rays[q][d], ownable, self.neutral) >= 0
        return any(reach(d) and reach(e) for d, e in enumerate(g.opposite) if d < e)

    def score(self, stones: int, neutrals: int = 0) -> int:
        """The true score (rules' walk, :func:`score_of`) with the new stones ``stones``
        and new neutrals ``neutrals`` on top of the model's stones and neutrals.
        Memoised: a map scores the same placements many times."""
        key = (stones, neutrals)
        v = self._scores.get(key)
        if v is None:
            v = self._scores[key] = score_of(self.geometry, self.own | stones,
                                             self.neutral | neutrals, self.advanced)
        return v

    # literal helpers with constant folding --------------------------------------------
    @staticmethod
    def _not(a):
        return (not a) if isinstance(a, bool) else a.Not()

    def _or(self, a, b):
        if a is True or b is True:
            return True
        if a is False:
            return b
        if b is False:
            return a
        v = self.m.new_bool_var("")
        self.m.add_bool_or([a, b]).only_enforce_if(v)
        self.m.add_implication(a, v)
        self.m.add_implication(b, v)
        return v

    def _and(self, a, b):
        if a is False or b is False:
            return False
        if a is True:
            return b
        if b is True:
            return a
        v = self.m.new_bool_var("")
        self.m.add_bool_and([a, b]).only_enforce_if(v)
        self.m.add_bool_or([a.Not(), b.Not(), v])
        return v

    # solving ---------------------------------------------------------------------------
    def solve(self, time_limit=None, force: int | None = None, hint=None, collect=None,
              assume=()):
        """Solve; ``force``: a point where an own stone must go; ``collect``: a list
        that receives (stones, neutrals) of every improving solution found. Returns a
        dict: value (true score of the placement found, None if none), bound (proven
        bound), stones / neutrals (bitmasks), proven, seconds."""
        t0 = time.perf_counter()
        m = self.m
        m.clear_assumptions()
        m.clear_hints()
        if force is not None:
            m.add_assumptions([self.x[force]])
        if assume:
            m.add_assumptions(list(assume))
        if hint is not None:
            stones, neutrals = hint
            for p, v in self.x.items():
                m.add_hint(v, bool(stones >> p & 1))
            for p, v in self.nv.items():
                m.add_hint(v, bool(neutrals >> p & 1))
        # Ctrl-C stops the solve within a moment and raises KeyboardInterrupt (never an
        # unproven result that looks like a time limit); OR-Tools' own SIGINT handler is
        # never installed (it was seen deadlocking).
        solver = interrupt.CpSolver()
        prm = solver.parameters
        prm.num_workers = NUM_WORKERS
        prm.random_seed = RANDOM_SEED
        prm.catch_sigint_signal = False
        for key, val in EXTRA_PARAMETERS.items():
            setattr(prm, key, val)
        if time_limit is not None:
            prm.max_time_in_seconds = float(time_limit)
        collector = None
        if collect is not None:
            collector = _Collector(self, collect)
        status = solver.solve(m, collector)
        secs = time.perf_counter() - t0
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            stones = sum(1 << p for p, v in self.x.items() if solver.boolean_value(v))
            neutrals = sum(1 << p for p, v in self.nv.items() if solver.boolean_value(v))
            value = self.score(stones, neutrals)
            obj = int(round(solver.objective_value))
            proven = status == cp_model.OPTIMAL
            raw = solver.best_objective_bound
            if self.minimise:
                # y only bounds the indicators from above: objective >= true score
                assert value <= obj, (value, obj)
                bound = value if proven else max(0, math.ceil(raw - 1e-6))
            else:
                # z/y only *imply* patterns, so the objective never exceeds the true score
                assert value >= obj, (value, obj)
                bound = value if proven else min(self.geometry.n_patterns,
                                                 math.floor(raw + 1e-6))
            return dict(value=value, bound=bound, stones=stones, neutrals=neutrals,
                        proven=proven, seconds=secs, dtime=solver.deterministic_time)
        if status == cp_model.INFEASIBLE:
            return dict(value=None, bound=None, stones=0, neutrals=0, proven=True,
                        seconds=secs)
        # no solution within the limit: any legal placement is a lower bound
        stones = sum(1 << p for p in sorted(self.x)[:self.stones])
        value = self.score(stones)
        # CP-SAT reports no usable objective bound without a solution (0.0): use the
        # trivial ones (at most one pattern per stone; at least nothing)
        if self.minimise:
            return dict(value=value, bound=0, stones=stones, neutrals=0,
                        proven=False, seconds=secs)
        bound = min(self.geometry.n_patterns, popcount(self.own) + self.stones)
        return dict(value=value, bound=max(bound, value), stones=stones, neutrals=0,
                    proven=False, seconds=secs)


class _Collector(cp_model.CpSolverSolutionCallback):
    """Records every solution CP-SAT reports (lower bounds for the map)."""

    def __init__(self, model: Model, out: list):
        super().__init__()
        self.model, self.out = model, out

    def on_solution_callback(self):
        stones = sum(1 << p for p, v in self.model.x.items() if self.boolean_value(v))
        neutrals = sum(1 << p for p, v in self.model.nv.items() if self.boolean_value(v))
        self.out.append((stones, neutrals))


def _side_code(side) -> int:
    """0 / 1 or 'red' / 'blue' (any case) to the side's code."""
    if side in (RED, BLUE):
        return int(side)
    if isinstance(side, str) and side.strip().lower() in SIDE_NAMES:
        return SIDE_NAMES.index(side.strip().lower())
    raise ParseError(f"unknown side {side!r}: use red or blue")


def check_time_limit(time_limit) -> None:
    """Raise UnsupportedError unless ``time_limit`` is None (no limit) or a number of
    seconds > 0 (``inf`` also means no limit)."""
    if time_limit is None:
        return
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) \
            or not time_limit > 0:
        raise UnsupportedError(f"time_limit must be a positive number of seconds, "
                               f"got {time_limit!r}")


def position_facts(position, side):
    """What a bound needs from a position, for ``side`` (a code or 'red'/'blue'):
    ``(side code, geometry, own stones, empty points, k = own stones still to place,
    own neutral allowance min(k, neutrals left), the opponent's likewise)``."""
    side = _side_code(side)
    g = position.geometry
    per = getattr(position, "stones_per_side", STONES_PER_SIDE)
    own = position.red if side == RED else position.blue
    opp = position.blue if side == RED else position.red
    empty = g.full_mask & ~(position.red | position.blue | position.neutral)
    left = position.red_neutrals if side == RED else position.blue_neutrals
    opp_left = position.blue_neutrals if side == RED else position.red_neutrals
    k = per - popcount(own)
    k_opp = per - popcount(opp)
    return side, g, own, empty, k, min(k, left), min(k_opp, opp_left)


def model_for(position, side, allowance_kind: str):
    """``(side code, k, allowance, Model)`` for ``side`` in ``position``: its k stones
    on the empty points, with the neutral allowance of the side alone
    (``allowance_kind="own"``, the potential) or of both sides (``"both"``, bounds
    against any play); the allowance counts only under the Advanced rule.
    InvalidPositionError when the side has fewer empty points than stones to place."""
    side, g, own, empty, k, own_allow, opp_allow = position_facts(position, side)
    if popcount(empty) < k:
        raise InvalidPositionError(f"{SIDE_NAMES[side]} has {k} stones to place but only "
                                   f"{popcount(empty)} empty points")
    advanced = position.rule == ADVANCED
    allowance = own_allow if allowance_kind == "own" else own_allow + opp_allow
    return side, k, allowance, Model(g, own, position.neutral, empty, k,
                                     allowance if advanced else 0, advanced)

