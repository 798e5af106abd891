"""CP-SAT potential: the best score a side can still reach, per-point maps, and
upper bounds on a side's final score that the endgame solver can trust.

Definitions (the issue was silent on some details; these are the decisions)
-------------------------------------------------------------------------
Let the side have ``k = stones_per_side - (own stones placed)`` stones still to
place and ``E`` be the points empty now.

``potential(position, side)``
    The highest final score the side reaches when it places exactly its ``k``
    remaining stones on points of ``E`` and the opponent places nothing that
    matters. Under the Basic rule neutrals change nothing, so only the stones
    count. Under the Advanced rule the side may also place up to
    ``min(k, neutrals left)`` of its own neutrals on other points of ``E``
    (one neutral per turn, so never more than its turns). Its own neutrals may
    cut its own beams, which can help (a cut beam is a new pattern) or hurt; the
    optimiser chooses. The opponent's future stones never matter to the side's
    patterns (enemy stones never block), only the opponent's future *neutrals*
    do under the Advanced rule, and the potential assumes there are none. It is
    "the best the side can do if left alone", the exact version of the
    designer's helper's "maximum possible score". All ``k`` stones must be
    placed: an extra stone can turn beams on and destroy patterns, so "at most
    k" would be a different (wrong) question.

``potential_map(position, side)``
    For every point of ``E``: the potential when the side's next stone goes
    there (same definition, that point forced).

``score_bound(position, side)``  (the solver's trusted bound; see its docstring)
    An upper bound on the side's final score over ALL continuations of the game.

Bounds for the endgame solver (contracts)
-----------------------------------------
* ``score_bound(pos, side) -> int`` (CP-SAT, ~0.05-0.3 s mid/late game): for every
  legal continuation to the end of the game, side's final score <= it. It is the
  maximum over all continuations (attained on the Stars' Zone board), so it is
  also valid at every position below ``pos`` in a search tree (their
  continuations are a subset): compute it once at the root and pass
  ``score_caps=(score_bound(pos, RED), score_bound(pos, BLUE))`` to
  :func:`szsolver.endgame.solver.solve`.
* ``score_bound_map(pos, side) -> {point: int}``: the same bound restricted to
  continuations in which the side's NEXT stone goes on that point (any neutral
  with it); valid for the whole subtree below those turns.
* ``score_floor(pos, side) -> int`` (CP-SAT, ~0.01-0.1 s late game): for every
  legal continuation, side's final score >= it (the least reachable; attained).
  Valid at every node below ``pos``. Under the Advanced rule the solver has no
  other lower bound on a score, and a cap on one side only cuts together with a
  floor on the other (value <= 100 * (cap_red - floor_blue) + neutrals).
* ``quick_bound(pos, side) -> int`` (pure Python, ~1 ms, no CP-SAT): same
  contract as ``score_bound``, weaker (a pattern/stone matching relaxation;
  often 16 in the mid-game); simple enough to port to C for interior nodes.
* ``potential(pos, side).potential`` is NOT a bound against the opponent under
  the Advanced rule (the opponent's neutrals may raise the side's score, see
  tests/test_potential.py::test_opponent_neutral_can_raise_the_bound); under
  the Basic rule it equals ``score_bound``.

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

Every placement the solver returns is re-scored by the rules' walk
(:func:`score_of`); tests check the model against brute force and that it admits
every placement at its true score.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from ..rules.reference import ADVANCED, BLUE, RED, SIDE_NAMES, STONES_PER_SIDE

#: CP-SAT parameters fixed for reproducibility: one worker (a sequential, deterministic
#: search; also the fastest here, measured against 2 and 8 workers) and a fixed seed, so
#: without a time limit the same position gives the same value and placement every run.
#: A time limit makes what is found by then depend on the clock (``proven`` says so).
NUM_WORKERS = 1
RANDOM_SEED = 20231717
#: Extra CP-SAT parameters (name -> value), for experiments only.
EXTRA_PARAMETERS: dict = {}


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _popcount(x: int) -> int:
    return x.bit_count()


def pattern_set_of(geometry, own: int, neutral: int, advanced: bool) -> int:
    """Bitmask over patterns shown by the stones of ``own`` (rules' walk along each ray).

    Independent of the CP-SAT model; used to check every placement the solver returns.
    """
    out = 0
    rays = geometry.rays
    for p in _bits(own):
        pat = 0
        for d, ray in enumerate(rays[p]):
            for q in ray:
                if own >> q & 1:
                    pat |= 1 << d
                    break
                if advanced and neutral >> q & 1:
                    break
        out |= 1 << pat
    return out


def score_of(geometry, own: int, neutral: int, advanced: bool) -> int:
    """Number of distinct patterns among ``own`` (the rules' score)."""
    return _popcount(pattern_set_of(geometry, own, neutral, advanced))


# --- the model -----------------------------------------------------------------------------

class _Model:
    """Max distinct patterns over placements of ``stones`` own stones and
    at most ``allowance`` neutrals on the points of ``avail``.

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
        m = self.m = cp_model.CpModel()
        n_pts = g.size
        self.feasible = _popcount(avail) >= stones
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
            for r in g.rays[q][d]:
                if ownable >> r & 1:
                    return True
                if self.neutral >> r & 1:
                    return False
            return False
        return any(reach(d) and reach(e) for d, e in enumerate(g.opposite) if d < e)

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
        solver = cp_model.CpSolver()
        prm = solver.parameters
        prm.num_workers = NUM_WORKERS
        prm.random_seed = RANDOM_SEED
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
            value = score_of(self.geometry, self.own | stones, self.neutral | neutrals,
                             self.advanced)
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
        value = score_of(self.geometry, self.own | stones, self.neutral, self.advanced)
        # CP-SAT reports no usable objective bound without a solution (0.0): use the
        # trivial ones (at most one pattern per stone; at least nothing)
        if self.minimise:
            return dict(value=value, bound=0, stones=stones, neutrals=0,
                        proven=False, seconds=secs)
        bound = min(self.geometry.n_patterns, _popcount(self.own) + self.stones)
        return dict(value=value, bound=max(bound, value), stones=stones, neutrals=0,
                    proven=False, seconds=secs)


class _Collector(cp_model.CpSolverSolutionCallback):
    """Records every solution CP-SAT reports (lower bounds for the map)."""

    def __init__(self, model: _Model, out: list):
        super().__init__()
        self.model, self.out = model, out

    def on_solution_callback(self):
        stones = sum(1 << p for p, v in self.model.x.items() if self.boolean_value(v))
        neutrals = sum(1 << p for p, v in self.model.nv.items() if self.boolean_value(v))
        self.out.append((stones, neutrals))


# --- public API ----------------------------------------------------------------------------

@dataclass(frozen=True)
class PotentialResult:
    """The answer of :func:`potential`.

    ``potential``: the best final score found (the optimum when ``proven``).
    ``upper_bound``: proven upper bound (equals ``potential`` when ``proven``).
    ``placement``: points of the new own stones; ``neutrals``: points of the new
    neutrals (Advanced only, possibly empty). ``proven``: CP-SAT proved optimality;
    False only when ``time_limit`` stopped it (then ``potential`` is a lower bound).
    """
    side: int
    potential: int
    upper_bound: int
    placement: tuple[int, ...]
    neutrals: tuple[int, ...]
    proven: bool
    seconds: float
    stones_left: int
    neutral_allowance: int

    def to_json(self, geometry) -> dict:
        return {"potential": self.potential, "upper_bound": self.upper_bound,
                "placement": [geometry.coord_text(p) for p in self.placement],
                "neutrals": [geometry.coord_text(p) for p in self.neutrals],
                "proven": self.proven, "seconds": round(self.seconds, 4)}


def _side_code(side) -> int:
    if side in (RED, BLUE):
        return int(side)
    if isinstance(side, str) and side.strip().lower() in SIDE_NAMES:
        return SIDE_NAMES.index(side.strip().lower())
    raise ValueError(f"unknown side {side!r}: use red or blue")


def _facts(position, side):
    side = _side_code(side)
    g = position.geometry
    per = getattr(position, "stones_per_side", STONES_PER_SIDE)
    own = position.red if side == RED else position.blue
    opp = position.blue if side == RED else position.red
    empty = g.full_mask & ~(position.red | position.blue | position.neutral)
    left = position.red_neutrals if side == RED else position.blue_neutrals
    opp_left = position.blue_neutrals if side == RED else position.red_neutrals
    k = per - _popcount(own)
    k_opp = per - _popcount(opp)
    return side, g, own, empty, k, min(k, left), min(k_opp, opp_left)


def _model_for(position, side, allowance_kind: str):
    side, g, own, empty, k, own_allow, opp_allow = _facts(position, side)
    advanced = position.rule == ADVANCED
    allowance = own_allow if allowance_kind == "own" else own_allow + opp_allow
    return side, k, allowance, _Model(g, own, position.neutral, empty, k,
                                      allowance if advanced else 0, advanced)


def potential(position, side, time_limit=None) -> PotentialResult:
    """The best final score ``side`` can reach placing its remaining stones (and,
    under the Advanced rule, up to min(stones left, neutrals left) of its own
    neutrals) on the points empty now, the opponent placing nothing that matters.

    ``time_limit`` (seconds) stops CP-SAT early; then ``proven`` is False,
    ``potential`` is the best found (a lower bound) and ``upper_bound`` the proven
    upper bound. Without a limit the answer is always proven.
    """
    side, k, _allowance, model = _model_for(position, side, "own")
    r = model.solve(time_limit)
    if r["value"] is None:
        raise ValueError("no placement found within the time limit" if not r["proven"]
                         else "not enough empty points for the side's stones")
    return PotentialResult(side, r["value"], max(r["bound"], r["value"]),
                           tuple(_bits(r["stones"])), tuple(_bits(r["neutrals"])),
                           r["proven"], r["seconds"], k, model.allowance)


@dataclass(frozen=True)
class PotentialMap:
    """Per empty point: the potential when the side's next stone goes there.

    ``values[p]`` is exact when ``p`` is in ``proven`` (always, without a time
    limit); otherwise it is the best found and ``bounds[p]`` the proven upper bound.
    """
    side: int
    potential: PotentialResult
    values: dict[int, int]
    bounds: dict[int, int]
    proven: frozenset
    seconds: float
    solves: int = 0

    @property
    def all_proven(self) -> bool:
        return len(self.proven) == len(self.values)

    def to_json(self, geometry) -> dict:
        return {geometry.coord_text(p): v for p, v in sorted(self.values.items())}


def _swap_closure(model: _Model, lower: dict, cap: int, points: set) -> None:
    """Cheap lower bounds: from each placement known to reach a point's best value,
    move one stone onto each other point (a neutral there moves to the freed point)
    and score the result; repeat while it finds improvements. Exact scores only
    (recomputed by the rules' walk), so every bound found is a true lower bound."""
    g = model.geometry
    own, neutral, adv = model.own, model.neutral, model.advanced
    seen = set()
    frontier = {(v, st, nt) for v, st, nt in lower.values()}
    rounds = 0
    while frontier and rounds < 3:
        rounds += 1
        nxt = set()
        for v, st, nt in sorted(frontier, reverse=True):
            if (st, nt) in seen:
                continue
            seen.add((st, nt))
            stones = _bits(st)
            for p in points:
                if st >> p & 1:
                    continue
                have = lower.get(p, (-1,))[0]
                if have >= cap:
                    continue
                for s in stones:
                    st2 = st & ~(1 << s) | 1 << p
                    nt2 = nt
                    if nt >> p & 1:
                        nt2 = nt & ~(1 << p) | 1 << s
                    v2 = score_of(g, own | st2, neutral | nt2, adv)
                    if v2 > have:
                        have = v2
                        lower[p] = (v2, st2, nt2)
                        nxt.add((v2, st2, nt2))
                        if v2 >= cap:
                            break
        frontier = nxt


def _improve(model: _Model, st: int, nt: int, fixed: int, cap: int, passes: int = 4):
    """First-improvement hill climbing on a placement (stones ``st``, neutrals ``nt``)
    keeping a stone on ``fixed``: move one stone; add, drop or move one neutral
    (Advanced). Deterministic; exact scores. Returns (score, stones, neutrals)."""
    g, own, neutral, adv = model.geometry, model.own, model.neutral, model.advanced
    cand = sorted(model.x)
    ncand = sorted(model.nv)
    allow = model.allowance

    def sc(a, b):
        return score_of(g, own | a, neutral | b, adv)

    v = sc(st, nt)
    for _ in range(passes):
        if v >= cap:
            break
        improved = False
        for s in _bits(st & ~(1 << fixed)):
            for q in cand:
                if (st | nt) >> q & 1:
                    continue
                st2 = st & ~(1 << s) | 1 << q
                v2 = sc(st2, nt)
                if v2 > v:
                    st, v, improved = st2, v2, True
                    break
            if v >= cap:
                break
        if adv and ncand and v < cap:
            for q in ncand:
                if (st | nt) >> q & 1:
                    continue
                if _popcount(nt) < allow:
                    v2 = sc(st, nt | 1 << q)
                    if v2 > v:
                        nt, v, improved = nt | 1 << q, v2, True
                        continue
                for n in _bits(nt):
                    nt2 = nt & ~(1 << n) | 1 << q
                    v2 = sc(st, nt2)
                    if v2 > v:
                        nt, v, improved = nt2, v2, True
                        break
            for n in _bits(nt):
                v2 = sc(st, nt & ~(1 << n))
                if v2 > v:
                    nt, v, improved = nt & ~(1 << n), v2, True
        if not improved:
            break
    return v, st, nt


def potential_map(position, side, time_limit=None, *, kind: str = "potential") -> PotentialMap:
    """The potential for each empty point as the side's next stone.

    Exact, without one solve per point. Let v(p) be the map value of p and M the
    potential. Work down from level L = M with the set R of points not yet settled,
    knowing v(p) <= L on R:

    * lower bounds are exact scores of real placements: every placement CP-SAT
      reports, one-stone moves from them and a short hill climb per point; a point
      of R whose lower bound reaches L is settled at L;
    * one *group* solve, "maximise the score with at least one own stone in R and
      score <= L", returns max over R of v(p) =: L' (proven) together with a
      placement reaching it. If L' < L every point of R is now known to be <= L';
      otherwise the placement settles its points of R at L. Repeat.

    So the solves number about (distinct values) + (points found only by CP-SAT),
    not one per point. ``time_limit`` applies to each solve; a solve it stops leaves
    the remaining points with their best lower bound as value and the proven upper
    bound in ``bounds`` (and out of ``proven``).

    ``kind="bound"``: the same map for the solver's bound (see :func:`score_bound`,
    neutral allowance of both sides): ``bounds[p]`` is then an upper bound on the
    side's final score over every continuation in which the side's next stone goes
    on p (whatever neutral comes with it), hence for every node below those turns.
    """
    t0 = time.perf_counter()
    if kind not in ("potential", "bound"):
        raise ValueError(f"unknown map kind {kind!r}: use potential or bound")
    side, k, _allowance, model = _model_for(position, side,
                                            "own" if kind == "potential" else "both")
    g = model.geometry
    m = model.m
    values: dict[int, int] = {}
    bounds: dict[int, int] = {}
    proven = set()
    found: list = []
    r = model.solve(time_limit, collect=found)
    if r["value"] is None:
        raise ValueError("not enough empty points for the side's stones")
    best = PotentialResult(side, r["value"], max(r["bound"], r["value"]),
                           tuple(_bits(r["stones"])), tuple(_bits(r["neutrals"])),
                           r["proven"], r["seconds"], k, model.allowance)
    solves = 1
    if k == 0:
        return PotentialMap(side, best, values, bounds, frozenset(), time.perf_counter() - t0,
                            solves)
    lower: dict[int, tuple[int, int, int]] = {}   # point -> (score, stones, neutrals)
    scored: set = set()

    def absorb():
        for st, nt in found:
            if (st, nt) in scored:
                continue
            scored.add((st, nt))
            v = score_of(g, model.own | st, model.neutral | nt, model.advanced)
            for q in _bits(st):
                if q not in lower or lower[q][0] < v:
                    lower[q] = (v, st, nt)
        found.clear()

    found.append((r["stones"], r["neutrals"]))
    absorb()
    points = set(model.x)
    level = best.upper_bound          # every unsettled point has v(p) <= level
    exact = best.proven
    rest = set(points)
    _swap_closure(model, lower, level, rest)
    cap_lits: dict[int, object] = {}
    while rest:
        for p in sorted(rest):        # settle what the lower bounds already reach
            if lower.get(p, (-1,))[0] >= level:
                values[p], bounds[p] = lower[p][0], level
                if exact:
                    proven.add(p)
                rest.discard(p)
        if not rest:
            break
        # cheap search for a placement at this level through each unsettled point
        for p in sorted(rest):
            st0, nt0 = r["stones"], r["neutrals"] & ~(1 << p)
            starts = [lower[p][1:]] if p in lower else []
            starts.append(min(((st0 & ~(1 << s) | 1 << p, nt0) for s in _bits(st0)),
                              key=lambda sn: -score_of(g, model.own | sn[0],
                                                       model.neutral | sn[1], model.advanced)))
            for st, nt in starts:
                v, st, nt = _improve(model, st, nt, p, level)
                if v > lower.get(p, (-1,))[0]:
                    lower[p] = (v, st, nt)
                if v >= level:
                    break
        settled = [p for p in rest if lower.get(p, (-1,))[0] >= level]
        if settled:
            _swap_closure(model, lower, level, rest)
            continue
        # group solve: best score with at least one own stone in ``rest``, capped at level
        grp = m.new_bool_var("")
        m.add(sum(model.x[p] for p in rest) >= 1).only_enforce_if(grp)
        if level not in cap_lits:
            lit = m.new_bool_var("")
            m.add(model.objective <= level).only_enforce_if(lit)
            cap_lits[level] = lit
        hint_p = max(rest, key=lambda q: lower.get(q, (-1,))[0])
        hint = lower[hint_p][1:] if hint_p in lower else None
        rg = model.solve(time_limit, hint=hint, collect=found, assume=(grp, cap_lits[level]))
        solves += 1
        absorb()
        if rg["value"] is None or not rg["proven"]:
            # stopped by the time limit: what is proved is the bound
            ub = min(level, rg["bound"]) if rg["bound"] is not None else level
            for p in sorted(rest):
                values[p] = lower.get(p, (0,))[0]
                bounds[p] = max(ub, values[p])
            break
        level = min(level, rg["value"])
        _swap_closure(model, lower, level, rest)
    return PotentialMap(side, best, values, bounds, frozenset(proven),
                        time.perf_counter() - t0, solves)


# --- bounds for the endgame solver ---------------------------------------------------------

def score_bound(position, side, time_limit=None) -> int:
    """An upper bound on ``side``'s FINAL score over every continuation of the game
    (any play by the opponent and by the side itself). Exact (CP-SAT, proven).

    Contract: for every sequence of legal turns from ``position`` to the end of the
    game, the side's final score is <= ``score_bound(position, side)``. With a
    ``time_limit`` the result is CP-SAT's proven upper bound (still a valid bound,
    possibly looser). On the Stars' Zone board it is also *attained* by some
    continuation (both players cooperating), so no tighter bound that depends only
    on the position can exist.

    Argument. Let k be the side's stones still to place, E the points empty now.
    The side's final score is a function of its final stone set and (Advanced
    only) the final neutral set; enemy stones never block a beam, so the
    opponent's stones matter only by occupying points.

    * Basic rule: neutrals change nothing either, so the final score is
      score(own + X) for the set X of the side's k new stones, and X is some
      k-subset of E (every later stone, neutral or enemy stone only removes
      points from E). Hence final score <= max over k-subsets X of E of
      score(own + X) = the potential. Conversely the opponent may play elsewhere
      and any X is reachable, so the bound is attained.
    * Advanced rule: the final neutral set is the current one plus a set Y of new
      neutrals, disjoint from X, inside E, placed one per turn at most: the side
      places at most min(k, its neutrals left), the opponent at most
      min(k_opp, its neutrals left). So final score <= max over X, Y with
      |Y| <= min(k, left) + min(k_opp, opp_left) of score(own + X, neutral + Y),
      which is the same model as the potential with a larger neutral allowance.
      A cut can switch a beam off (a new pattern) or on for nobody (cuts never
      create beams), and the maximum ranges over every choice, so both effects
      are covered. Attained: split Y between the players within their
      allowances; the opponent's own stones need only k_opp more points, and the
      board (55 points; at most 1 + 32 + 14 are ever used) always has room.
    """
    side, g, own, empty, k, own_allow, opp_allow = _facts(position, side)
    advanced = position.rule == ADVANCED
    if k == 0 and (not advanced or opp_allow == 0):
        return score_of(g, own, position.neutral, advanced)
    model = _Model(g, own, position.neutral, empty, k,
                   own_allow + opp_allow if advanced else 0, advanced)
    r = model.solve(time_limit)
    if r["bound"] is None:  # infeasible: not enough room (never in a real game)
        return quick_bound(position, side)
    bound = r["value"] if r["proven"] else r["bound"]
    return min(bound, quick_bound(position, side))


def score_floor(position, side, time_limit=None) -> int:
    """A lower bound on ``side``'s FINAL score over every continuation of the game
    (the least score any play of both sides can leave it with). Exact (CP-SAT).

    Contract: for every legal continuation to the end, side's final score >=
    ``score_floor(position, side)``; with a ``time_limit`` CP-SAT's proven lower
    bound (still valid). Same argument as :func:`score_bound` with min for max:
    the final score depends only on the side's k new stones X (a k-subset of the
    points empty now) and, under the Advanced rule, the new neutrals Y (at most
    both sides' allowances), so it is >= the minimum over all such (X, Y), and
    that minimum is attained on this board. Valid at every node below ``pos``.
    Under the Advanced rule the solver has no other lower bound on a score; a
    floor for the opponent is what lets a cap on the mover's score cut
    (value <= 100 * (cap_me - floor_opp) + neutrals).
    """
    side, g, own, empty, k, own_allow, opp_allow = _facts(position, side)
    advanced = position.rule == ADVANCED
    if k == 0 and (not advanced or opp_allow == 0):
        return score_of(g, own, position.neutral, advanced)
    model = _Model(g, own, position.neutral, empty, k,
                   own_allow + opp_allow if advanced else 0, advanced, minimise=True)
    r = model.solve(time_limit)
    if r["value"] is None:
        return 0
    return r["value"] if r["proven"] else r["bound"]


def possible_patterns(geometry, own: int, neutral: int, empty: int, stones: int,
                      cuts: int, advanced: bool) -> dict[int, int]:
    """For each point that may end up holding an own stone (own now, or empty when
    ``stones`` > 0): bitmask over the patterns it can still show, when own stones
    may go on any empty point and (Advanced) up to ``cuts`` > 0 new neutrals on any
    empty point. Per direction independently, so a superset of what is reachable."""
    g = geometry
    ownable = own | (empty if stones > 0 else 0)
    out = {}
    for p in _bits(ownable):
        choices = [0]  # patterns possible so far
        for d, ray in enumerate(g.rays[p]):
            can1 = can0 = False
            if not advanced:
                can1 = any((ownable & ~(1 << p)) >> q & 1 for q in ray)
                can0 = not any(own >> q & 1 for q in ray)
            else:
                gap = False
                hit = None
                for q in ray:
                    if own >> q & 1:
                        hit = "own"
                        break
                    if neutral >> q & 1:
                        hit = "neutral"
                        break
                    if empty >> q & 1:
                        gap = True
                can1 = (hit == "own") or (gap and stones > 0)
                can0 = hit != "own" or (gap and cuts > 0)
            nxt = []
            for c in choices:
                if can0:
                    nxt.append(c)
                if can1:
                    nxt.append(c | 1 << d)
            choices = nxt
        m = 0
        for c in choices:
            m |= 1 << c
        out[p] = m
    return out


def quick_bound(position, side) -> int:
    """A cheap upper bound (pure Python, no CP-SAT, ~1 ms) with the same contract
    as :func:`score_bound`: the side's final score over every continuation is <= it.

    Argument: each stone's final pattern lies in its set of still-possible
    patterns (:func:`possible_patterns`, direction by direction: a bit can be 1
    only if an own stone may still stand further along before a neutral, 0 only if
    no own stone is sure to be seen first). The final score counts distinct
    patterns, each shown by some stone: choosing one stone per shown pattern gives
    a matching between patterns and stones, using existing stones and at most k
    new ones. So the score is at most the maximum such matching (a small max-flow).
    """
    side, g, own, empty, k, own_allow, opp_allow = _facts(position, side)
    advanced = position.rule == ADVANCED
    poss = possible_patterns(g, own, position.neutral, empty, k,
                             own_allow + opp_allow, advanced)
    return _budget_matching(poss, own, k, g.n_patterns)


def _budget_matching(poss: dict[int, int], own: int, k: int, n_pat: int) -> int:
    """Max number of patterns matched to distinct points, points of ``own`` freely, at
    most ``k`` other points: max flow source -> pattern -> point -> sink, the new
    points reaching the sink through one hub of capacity k (augmenting paths, BFS)."""
    SRC, SNK, HUB = "s", "k", "h"
    cap: dict = {}
    adj: dict = {}

    def edge(a, b, c):
        cap[a, b] = cap.get((a, b), 0) + c
        cap.setdefault((b, a), 0)
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)

    for p, m in poss.items():
        if own >> p & 1:
            edge(("p", p), SNK, 1)
        else:
            edge(("p", p), HUB, 1)
        for t in _bits(m):
            edge(("t", t), ("p", p), 1)
    for t in range(n_pat):
        if ("t", t) in adj:
            edge(SRC, ("t", t), 1)
    if HUB in adj:
        edge(HUB, SNK, k)
    flow = 0
    while True:
        parent = {SRC: None}
        queue = [SRC]
        head = 0
        while head < len(queue) and SNK not in parent:
            a = queue[head]
            head += 1
            for b in adj.get(a, ()):
                if b not in parent and cap[a, b] > 0:
                    parent[b] = a
                    queue.append(b)
        if SNK not in parent:
            return flow
        b = SNK
        while parent[b] is not None:
            a = parent[b]
            cap[a, b] -= 1
            cap[b, a] += 1
            b = a
        flow += 1


def score_bound_map(position, side, time_limit=None) -> dict[int, int]:
    """{point: bound}: for each empty point p, an upper bound on the side's final
    score over every continuation in which the side's NEXT stone goes on p (with
    or without a neutral). Contract as :func:`score_bound`, restricted to those
    continuations; valid for every position below those turns too (continuations
    of a descendant are continuations of the ancestor). Meant for the solver's
    root: one call bounds all children and their subtrees.
    """
    mp = potential_map(position, side, time_limit, kind="bound")
    return {p: (mp.values[p] if p in mp.proven else mp.bounds[p]) for p in mp.values}


# --- rendering -----------------------------------------------------------------------------

#: Heat-map fills by how far a point's value is below the potential (0, 1, 2, 3, 4+).
HEAT = ("#ffe34d", "#f39c2b", "#c8552a", "#8c2d55", "#4a2a6e")


def map_text(position, pmap: PotentialMap) -> str:
    """The map on the board in its true shape: each empty point shows its value,
    stones show R / B / N; a header says whose map it is and how sure it is."""
    g = position.geometry
    side = SIDE_NAMES[pmap.side]
    best = pmap.potential
    head = (f"{side}: potential {best.potential}"
            + ("" if best.proven else f" (not proven; at most {best.upper_bound})")
            + f", {best.stones_left} stone(s) to place; each number: the potential if "
              f"{side}'s next stone goes there")
    if not pmap.all_proven:
        head += "\n  (time limit: values marked ~ are lower bounds)"
    rows = sorted({r for r, _ in g.coords})
    cols = sorted({c for _, c in g.coords})
    width = 3
    lines = [head, "    " + "".join(f"{c:>{width}}" for c in cols)]
    for r in rows:
        cells = []
        for c in cols:
            p = g.index.get((r, c))
            if p is None:
                cells.append(" " * width)
            elif position.red >> p & 1:
                cells.append(f"{'R':>{width}}")
            elif position.blue >> p & 1:
                cells.append(f"{'B':>{width}}")
            elif position.neutral >> p & 1:
                cells.append(f"{'N':>{width}}")
            elif p in pmap.values:
                mark = "" if p in pmap.proven else "~"
                cells.append(f"{mark + str(pmap.values[p]):>{width}}")
            else:
                cells.append(f"{'.':>{width}}")
        lines.append(f"{r:>3} " + "".join(cells).rstrip())
    place = " ".join(g.coord_text(p) for p in best.placement)
    lines.append(f"one best placement: {place or '(none)'}"
                 + (f"; neutrals {' '.join(g.coord_text(p) for p in best.neutrals)}"
                    if best.neutrals else ""))
    return "\n".join(lines)


def map_svg(position, pmap: PotentialMap, size: int = 480) -> str:
    """An SVG heat map (svg.position_svg with per-point labels and fills)."""
    from ..formats.svg import position_svg
    top = pmap.potential.potential
    labels = {p: str(v) for p, v in pmap.values.items()}
    fills = {p: HEAT[min(max(top - v, 0), len(HEAT) - 1)] for p, v in pmap.values.items()}
    return position_svg(position, labels=labels, fills=fills, size=size)
