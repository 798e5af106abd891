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
folded, so stones already on the board cost nothing. ``z[p][t]`` is exactly "a
stone on p shows pattern t" (both directions; ``sum_t z[p][t] = own(p)``); ``y[t]``
implies some ``z[.][t]`` (also as the linear ``y[t] <= sum_p z[p][t]``, which the LP
relaxation sees); maximise ``sum y``.

What makes the proofs fast (without it some proofs took seconds or minutes):

* redundant counts: along a line beams run inside segments (between neutrals);
  each segment with own stones has exactly one stone without a beam each way,
  so per segment "stones without beam d" <= 1 + new neutrals inside it, and
  the patterns shown per class of (bit d, bit opposite d) are at most the stones
  in that class (lone, first, last, middle stones of their segments);
* balance: for the same reason, along every line the stones without beam d are
  exactly as many as those without the opposite beam, so over the board the
  *first* stones (beam d, not its opposite) are as many as the *last* ones. With
  the exact ``z`` this ties the pattern counts together: two stones that must
  both show (first, last), say, leave at most 14 patterns, and the LP relaxation
  proves it at once (the search needed up to minutes on such positions);
* dominance: a new neutral must separate two own stones along its row or its
  column (one that separates nothing changes no beam; dropping it keeps the
  score and the allowance), which removes useless neutral placements.

CP-SAT's presolve is off for this model: it rewrote the balance so that its LP
relaxation lost the bound (measured: proofs of 0.02 s took 2-3 s with it).

Before CP-SAT, :func:`local_search` (a greedy start and one-stone moves, scored by
:class:`FastScore`) looks for a good placement. When it shows every pattern there
is nothing to prove; otherwise it is CP-SAT's *complete* hint (every variable
set, :meth:`Model._full_hint`), a solution CP-SAT takes at once, so the solve only
has to improve on it or prove it (:func:`maximise`).
"""
from __future__ import annotations

import functools
import math
import time

from .. import interrupt
from ..errors import InvalidPositionError, ParseError
from ..limits import check_seconds
from ..rules.backends import as_position
from ..rules.base import ADVANCED, BLUE, RED, SIDE_NAMES, STONES_PER_SIDE
from ..rules.beams import beam_target, pattern_set
from ..rules.bits import bit_list, popcount
from ..rules.seeds import playout_rng_v1


#: CP-SAT parameters fixed for reproducibility: one worker (a sequential, deterministic
#: search; also the fastest here, measured against 2 and 8 workers) and a fixed seed, so
#: without a time limit the same position gives the same value and placement every run.
#: A time limit makes what is found by then depend on the clock (``proven`` says so).
NUM_WORKERS = 1
RANDOM_SEED = 20231717
#: CP-SAT's deterministic time ("work") per second of budget, for callers whose budget
#: is a cost and not a wall-clock limit (the engine, ``annotate``): a solve stopped by
#: work stops at the same point on every machine and under any load, so the same input
#: gives the same bounds. Measured on the development machine: a stopped score floor
#: does 1.4-2.6 units a second (median 2.0, 60 floors over 150 random positions), a
#: stopped score bound about 0.8 (seldom stopped), so a budget of one second takes
#: 0.4-2.5 seconds of wall time there.
WORK_PER_SECOND = 2.0
#: Extra CP-SAT parameters (name -> value), for experiments only.
EXTRA_PARAMETERS: dict = {}
#: The model's optional parts (name -> on), the defaults of :class:`Model`'s keyword
#: arguments of the same names; benchmarks switch them to compare. ``balance``: exact
#: pattern indicators tied by the first/last balance of every line; ``presolve``:
#: CP-SAT's presolve (off: it weakened the balance's linear relaxation); ``search``: a
#: local search before CP-SAT, whose placement is CP-SAT's hint.
OPTIONS: dict = {"balance": True, "presolve": False, "search": True}


def _cp_model():
    """OR-Tools' ``cp_model``, imported on first use: a potential that the local search
    settles (every pattern shown) never loads OR-Tools, most of a command's start-up."""
    from ..cpsat import cp_model
    return cp_model()


def score_of(geometry, own: int, neutral: int, advanced: bool) -> int:
    """The rules' score of the stones ``own``: how many distinct patterns they show,
    with the neutrals ``neutral`` cutting beams when ``advanced``. Walks each beam
    (:mod:`szsolver.rules.beams`), independently of the CP-SAT model."""
    return popcount(pattern_set(geometry, own, neutral if advanced else 0))


@functools.lru_cache(maxsize=8)
def _ray_masks(geometry) -> list[list[tuple[int, bool]]]:
    """Per point, per direction: the ray's points as a bit mask, and whether it runs
    up the point numbering (built once per board: a large board has thousands)."""
    out = []
    for per_dir in geometry.rays:
        per = []
        for ray in per_dir:
            if any(a >= b for a, b in zip(ray, ray[1:])) and \
                    any(a <= b for a, b in zip(ray, ray[1:])):
                raise ValueError("rays must run monotonically through the point numbers")
            per.append((sum(1 << q for q in ray), len(ray) < 2 or ray[0] < ray[1]))
        out.append(per)
    return out


class FastScore:
    """The rules' score by bit masks, for the local search: about ten times faster than
    the walk of :func:`score_of` and equal to it (tested). A beam from p in direction d
    reaches an own stone when the nearest occupied point (own stone or, Advanced,
    neutral) along the ray is an own stone; rays run monotonically through the point
    numbering, so the nearest point is the ray's lowest or highest set bit.

    ``FastScore(geometry, own, neutral, advanced)(stones, neutrals)`` scores the own
    stones ``own | stones`` with the neutrals ``neutral | neutrals`` (neutrals count
    only when ``advanced``)."""

    def __init__(self, geometry, own: int, neutral: int, advanced: bool):
        self.own, self.advanced = own, advanced
        self.neutral = neutral if advanced else 0
        self.rays = _ray_masks(geometry)

    def __call__(self, stones: int, neutrals: int = 0) -> int:
        own = self.own | stones
        occupied = own | self.neutral | (neutrals if self.advanced else 0)
        rays = self.rays
        shown = 0
        rest = own
        while rest:
            low = rest & -rest
            rest ^= low
            pat = 0
            bit = 1
            for mask, ascending in rays[low.bit_length() - 1]:
                seen = mask & occupied
                if seen:
                    near = seen & -seen if ascending else 1 << (seen.bit_length() - 1)
                    if near & own:
                        pat |= bit
                bit <<= 1
            shown |= 1 << pat
        return shown.bit_count()


def may_cut(geometry, own: int, neutral: int, avail: int, stones: int, q: int) -> bool:
    """Can a new neutral on q ever separate two own stones (along a row or a column),
    own stones being ``own`` and possibly any point of ``avail`` when ``stones`` > 0?"""
    ownable = own | (avail if stones > 0 else 0)

    def reach(d):
        return beam_target(geometry.rays[q][d], ownable, neutral) >= 0
    return any(reach(d) and reach(e) for d, e in enumerate(geometry.opposite) if d < e)


def useful_neutrals(geometry, own: int, neutral: int, new: int) -> int:
    """``new`` without the new neutrals that separate no two own stones along a row or a
    column (removed one at a time until none is left). Each removed neutral changed no
    beam, so the score is the same; the model requires every new neutral to be useful."""
    while True:
        blockers = neutral | new
        for q in bit_list(new):
            if not any(beam_target(geometry.rays[q][d], own, blockers) >= 0 and
                       beam_target(geometry.rays[q][e], own, blockers) >= 0
                       for d, e in enumerate(geometry.opposite) if d < e):
                new &= ~(1 << q)
                break
        else:
            return new


#: Work of :func:`local_search`, in passes: one pass scores as many placements as there
#: are (stone, point) pairs, about 10 microseconds each.
SEARCH_PASSES = 4


def local_search(geometry, own: int, neutral: int, avail: int, stones: int, allowance: int,
                 advanced: bool, target: int, evaluations: int | None = None,
                 collect: list | None = None):
    """A good placement, fast: ``(score, new stones, new neutrals)`` with exactly
    ``stones`` new own stones and at most ``allowance`` new neutrals (Advanced only,
    each separating two own stones) on distinct points of ``avail``; ``score`` is the
    rules' score of it. Greedy start (each stone where it scores most), then
    first-improvement moves of one stone or one neutral in a seeded random order,
    with a random move when stuck; stops at ``target`` or after ``evaluations``
    placements scored (default: :data:`SEARCH_PASSES` passes over every move of a
    stone, greedy start included). Deterministic: the same input gives the same
    placement. ``collect``: a list that receives (stones, neutrals) of every placement
    better than all before it (lower bounds for a map)."""
    score = FastScore(geometry, own, neutral, advanced)
    cand = bit_list(avail)
    if stones > len(cand):
        raise InvalidPositionError(f"{stones} stones to place but only {len(cand)} empty points")
    cuts = [q for q in cand if may_cut(geometry, own, neutral, avail, stones, q)] \
        if advanced and allowance > 0 else []
    if evaluations is None:
        evaluations = SEARCH_PASSES * stones * len(cand)
    rng = playout_rng_v1("bounds local search", own, neutral, avail, stones, allowance,
                         advanced)
    st = nt = 0
    for _ in range(stones):
        best = max((q for q in cand if not st >> q & 1), key=lambda q: score(st | 1 << q))
        st |= 1 << best
    spent = stones * len(cand)
    v = score(st)
    best = (v, st, nt)
    if collect is not None:
        collect.append((st, 0))
    while v < target and spent < evaluations:
        moves = []
        free = [q for q in cand if not (st | nt) >> q & 1]
        for s in bit_list(st):
            moves += [(st & ~(1 << s) | 1 << q, nt) for q in free]
        if cuts:
            free_cuts = [q for q in cuts if not (st | nt) >> q & 1]
            if nt.bit_count() < allowance:
                moves += [(st, nt | 1 << q) for q in free_cuts]
            for n in bit_list(nt):
                moves.append((st, nt & ~(1 << n)))
                moves += [(st, nt & ~(1 << n) | 1 << q) for q in free_cuts]
        rng.shuffle(moves)
        for st2, nt2 in moves:
            spent += 1
            v2 = score(st2, nt2)
            if v2 > v:
                st, nt, v = st2, nt2, v2
                break
            if spent >= evaluations:
                break
        else:
            # a local maximum: move one stone at random and go on from there
            if not free or not st:
                break
            s = rng.choice(bit_list(st))
            q = rng.choice(free)
            st = st & ~(1 << s) | 1 << q
            v = score(st, nt)
            spent += 1
        if v > best[0]:
            best = (v, st, nt)
            if collect is not None:
                collect.append((st, useful_neutrals(geometry, own | st, neutral, nt)
                                if nt else 0))
    v, st, nt = best
    return v, st, useful_neutrals(geometry, own | st, neutral, nt) if nt else 0


# --- the model -----------------------------------------------------------------------------

class Model:
    """Max (``minimise``: min) distinct patterns over placements of ``stones`` own
    stones and at most ``allowance`` neutrals on the points of ``avail``.

    ``own`` are the side's stones already placed, ``neutral`` the neutrals already
    placed (cutting beams only when ``advanced``).
    """

    def __init__(self, geometry, own: int, neutral: int, avail: int, stones: int,
                 allowance: int, advanced: bool,
                 use_counts: bool = True, use_classes: bool = True, minimise: bool = False,
                 balance: bool | None = None, presolve: bool | None = None):
        self.minimise = minimise
        self.use_balance = OPTIONS["balance"] if balance is None else balance
        self.presolve = OPTIONS["presolve"] if presolve is None else presolve
        self.use_counts, self.use_classes = use_counts, use_classes
        self.geometry = g = geometry
        self.own, self.neutral, self.avail = own, neutral, avail
        self.stones, self.advanced = stones, advanced
        self.allowance = allowance if advanced else 0
        self._scores: dict[tuple[int, int], int] = {}
        self._fast = None
        # (variable, "and" | "or", literals) for every variable defined from others, in
        # the order made: a placement determines them all (:meth:`_full_hint`)
        self._defs: list = []
        cp_model = _cp_model()
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
            elif avail >> p & 1 and self.allowance > 0 and \
                    may_cut(g, own, neutral, avail, stones, p):
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
        W: list = []      # (point, pattern, exact indicator) with use_balance
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
                    W.append((p, t, True))
                    continue
                z = m.new_bool_var(f"z{p}_{t}")
                self._defs.append((z, "and", lits))
                m.add_bool_and(lits).only_enforce_if(z)
                if self.use_balance:
                    # exact: z[p][t] <=> (stone on p and its beams read t)
                    m.add_bool_or([l.Not() for l in lits] + [z])
                zs[t].append(z)
                per_point.append(z)
                W.append((p, t, z))
            if per_point:
                if self.use_balance:
                    m.add(sum(per_point) == (1 if S[p] is True else S[p]))
                elif S[p] is True:
                    m.add_at_most_one(per_point)
                else:
                    m.add(sum(per_point) <= S[p])
        if self.use_counts:
            self._add_segment_counts(zs)
        if self.use_balance:
            self._add_balance(W)
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
            self._defs.append((y, "or", zs[t]))
            m.add_bool_or(zs[t]).only_enforce_if(y)
            if self.use_balance:
                # the same as a linear inequality, so the LP relaxation sees it (CP-SAT
                # linearises plain clauses only at linearization_level 2)
                m.add(y <= sum(zs[t]))
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

    def _add_balance(self, W):
        """Along every line, each segment holding own stones has exactly one stone
        without beam d and exactly one without beam opposite d, so per line the two
        counts are equal; summed over the board, the stones with beam d but not its
        opposite (first stones) are as many as those with the opposite beam only (last
        stones). With exact pattern indicators this ties the pattern counts of the
        classes together (valid for every placement)."""
        g, m, E = self.geometry, self.m, self.E if self.use_counts else None
        nd = g.n_directions
        opp = g.opposite

        def lin(items):
            return sum(1 if l is True else l for l in items if l is not False)
        for d in range(nd):
            e = opp[d]
            if e < d:
                continue
            first = [z for p, t, z in W if t >> d & 1 and not t >> e & 1]
            last = [z for p, t, z in W if t >> e & 1 and not t >> d & 1]
            if first or last:
                m.add(lin(first) == lin(last))
            if E is None:
                continue
            for p in range(g.size):
                if g.rays[p][e]:
                    continue      # p starts a line in direction d
                line = (p,) + g.rays[p][d]
                a = [E[q, d] for q in line if (q, d) in E]
                b = [E[q, e] for q in line if (q, e) in E]
                if any(x is not False for x in a + b):
                    m.add(lin(a) == lin(b))

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

    def score(self, stones: int, neutrals: int = 0) -> int:
        """The true score with the new stones ``stones`` and new neutrals ``neutrals``
        on top of the model's stones and neutrals (:class:`FastScore`, equal to the
        rules' walk). Memoised: a map scores the same placements many times."""
        key = (stones, neutrals)
        v = self._scores.get(key)
        if v is None:
            if self._fast is None:
                self._fast = FastScore(self.geometry, self.own, self.neutral, self.advanced)
            v = self._scores[key] = self._fast(stones, neutrals)
        return v

    def walk_score(self, stones: int, neutrals: int = 0) -> int:
        """The same score by the rules' walk (:func:`score_of`), independent of
        :class:`FastScore`: what :meth:`solve` reports."""
        return score_of(self.geometry, self.own | stones, self.neutral | neutrals,
                        self.advanced)

    def _full_hint(self, stones: int, neutrals: int):
        """``[(variable, value)]`` for every variable of the placement (new stones
        ``stones``, new neutrals ``neutrals``): the choices and every variable defined
        from them. A complete hint of a feasible placement is a solution CP-SAT takes
        at once; a partial one it must complete by search first."""
        value: dict[int, bool] = {}
        out = []
        for p, v in self.x.items():
            value[v.index] = bool(stones >> p & 1)
        for p, v in self.nv.items():
            value[v.index] = bool(neutrals >> p & 1)

        def lit(a):
            if isinstance(a, bool):
                return a
            i = a.index
            return value[i] if i >= 0 else not value[-i - 1]
        for v, kind, lits in self._defs:
            value[v.index] = all(map(lit, lits)) if kind == "and" else any(map(lit, lits))
        for p, v in list(self.x.items()) + list(self.nv.items()):
            out.append((v, value[v.index]))
        out += [(v, value[v.index]) for v, _kind, _lits in self._defs]
        return out

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
        self._defs.append((v, "or", [a, b]))
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
        self._defs.append((v, "and", [a, b]))
        self.m.add_bool_and([a, b]).only_enforce_if(v)
        self.m.add_bool_or([a.Not(), b.Not(), v])
        return v

    # solving ---------------------------------------------------------------------------
    def solve(self, time_limit=None, force: int | None = None, hint=None, collect=None,
              assume=(), work_limit=None):
        """Solve; ``time_limit``: wall-clock seconds; ``work_limit``: CP-SAT's
        deterministic time (reproducible, see :data:`WORK_PER_SECOND`); either or
        both stop the solve. ``force``: a point where an own stone must go; ``hint``:
        (stones, neutrals) of a legal placement, CP-SAT's complete hint; ``collect``: a list
        that receives (stones, neutrals) of every improving solution found. Returns a
        dict: value (true score of the placement found, None if none), bound (proven
        bound), stones / neutrals (bitmasks), proven, seconds. When a time limit
        strikes before CP-SAT has any solution, the placement is the hint (else any
        legal one; neither need meet ``force`` or ``assume``) at its true score, with
        the trivial bound."""
        t0 = time.perf_counter()
        m = self.m
        m.clear_assumptions()
        m.clear_hints()
        if force is not None:
            m.add_assumptions([self.x[force]])
        if assume:
            m.add_assumptions(list(assume))
        if hint is not None:
            for v, value in self._full_hint(*hint):
                m.add_hint(v, value)
        # Ctrl-C stops the solve within a moment and raises KeyboardInterrupt (never an
        # unproven result that looks like a time limit); OR-Tools' own SIGINT handler is
        # never installed (it was seen deadlocking).
        solver = interrupt.CpSolver()
        prm = solver.parameters
        prm.num_workers = NUM_WORKERS
        prm.random_seed = RANDOM_SEED
        prm.catch_sigint_signal = False
        if not self.presolve:
            prm.cp_model_presolve = False
        for key, val in EXTRA_PARAMETERS.items():
            setattr(prm, key, val)
        if time_limit is not None:
            prm.max_time_in_seconds = float(time_limit)
        if work_limit is not None:
            prm.max_deterministic_time = float(work_limit)
        collector = None
        if collect is not None:
            collector = _collector(self, collect)
        status = solver.solve(m, collector)
        cp_model = _cp_model()
        secs = time.perf_counter() - t0
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            stones = sum(1 << p for p, v in self.x.items() if solver.boolean_value(v))
            neutrals = sum(1 << p for p, v in self.nv.items() if solver.boolean_value(v))
            value = self.walk_score(stones, neutrals)
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
        # no solution within the limit (the limit struck before CP-SAT took the hint):
        # the hint, a legal placement, else any legal placement, is a lower bound
        if hint is not None:
            stones, neutrals = hint
        else:
            stones, neutrals = sum(1 << p for p in sorted(self.x)[:self.stones]), 0
        value = self.walk_score(stones, neutrals)
        # CP-SAT reports no usable objective bound without a solution (0.0): use the
        # trivial ones (at most one pattern per stone; at least nothing)
        if self.minimise:
            return dict(value=value, bound=0, stones=stones, neutrals=neutrals,
                        proven=False, seconds=secs)
        bound = min(self.geometry.n_patterns, popcount(self.own) + self.stones)
        return dict(value=value, bound=max(bound, value), stones=stones, neutrals=neutrals,
                    proven=False, seconds=secs)


_COLLECTOR: list = []


def _collector(model: Model, out: list):
    """A solution callback that records every solution CP-SAT reports in ``out`` as
    (stones, neutrals) (lower bounds for the map). The class is made on first use, with
    OR-Tools."""
    if not _COLLECTOR:
        class Collector(_cp_model().CpSolverSolutionCallback):
            def __init__(self, model: Model, out: list):
                super().__init__()
                self.model, self.out = model, out

            def on_solution_callback(self):
                m = self.model
                stones = sum(1 << p for p, v in m.x.items() if self.boolean_value(v))
                neutrals = sum(1 << p for p, v in m.nv.items() if self.boolean_value(v))
                self.out.append((stones, neutrals))
        _COLLECTOR.append(Collector)
    return _COLLECTOR[0](model, out)


def _side_code(side) -> int:
    """0 / 1 or 'red' / 'blue' (any case) to the side's code."""
    if side in (RED, BLUE):
        return int(side)
    if isinstance(side, str) and side.strip().lower() in SIDE_NAMES:
        return SIDE_NAMES.index(side.strip().lower())
    raise ParseError(f"unknown side {side!r}: use red or blue")


def check_time_limit(time_limit, work_limit=None) -> None:
    """Raise UnsupportedError unless ``time_limit`` (seconds) and ``work_limit``
    (CP-SAT work) are each None (no limit) or a finite number > 0 (see
    :mod:`szsolver.limits`)."""
    check_seconds(time_limit)
    check_seconds(work_limit, "the work limit")


def work_for(seconds: float) -> float:
    """The CP-SAT work limit of a budget of ``seconds`` (:data:`WORK_PER_SECOND`)."""
    return seconds * WORK_PER_SECOND


def position_facts(position, side):
    """What a bound needs from a Position (its callers read position strings with
    :func:`~szsolver.rules.backends.as_position`), for ``side`` (a code or 'red'/'blue'):
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
    side, k, allowance, args = model_args(position, side, allowance_kind)
    return side, k, allowance, Model(*args)


def maximise(args, time_limit=None, collect=None, need_model: bool = False,
             search: bool | None = None, work_limit=None):
    """The best placement over ``Model(*args)``'s placements: ``(result, model)`` with
    ``result`` as :meth:`Model.solve` returns it. A quick :func:`local_search` first:
    when its placement shows every pattern no bound is left to prove and CP-SAT does
    not run (``model`` is then None unless ``need_model``); otherwise its placement is
    CP-SAT's complete hint, a solution CP-SAT starts from. ``collect`` as in
    :meth:`Model.solve`; it receives the search's improving placements too.
    ``search``: run the local search (default ``OPTIONS["search"]``). ``work_limit``:
    CP-SAT's deterministic time (the local search is deterministic and not counted)."""
    t0 = time.perf_counter()
    hint = None
    if OPTIONS["search"] if search is None else search:
        n_pat = args[0].n_patterns
        v, st, nt = local_search(*args, target=n_pat, collect=collect)
        hint = (st, nt)
        if v == n_pat:
            r = dict(value=v, bound=v, stones=st, neutrals=nt, proven=True,
                     seconds=time.perf_counter() - t0, dtime=0.0)
            return r, (Model(*args) if need_model else None)
    model = Model(*args)
    if time_limit is not None:
        # the limit covers the whole answer: CP-SAT gets what the search and the model
        # left of it (a sliver at least: with the hint it returns the search's placement)
        time_limit = max(time_limit - (time.perf_counter() - t0), 1e-3)
    r = model.solve(time_limit, hint=hint, collect=collect, work_limit=work_limit)
    r["seconds"] = time.perf_counter() - t0
    return r, model


def model_args(position, side, allowance_kind: str):
    """``(side code, k, allowance, args)`` where ``Model(*args)`` is the model of
    :func:`model_for` and ``local_search(*args, target)`` searches the same placements.
    InvalidPositionError when the side has fewer empty points than stones to place."""
    position = as_position(position)
    side, g, own, empty, k, own_allow, opp_allow = position_facts(position, side)
    if popcount(empty) < k:
        raise InvalidPositionError(f"{SIDE_NAMES[side]} has {k} stones to place but only "
                                   f"{popcount(empty)} empty points")
    advanced = position.rule == ADVANCED
    allowance = own_allow if allowance_kind == "own" else own_allow + opp_allow
    return side, k, allowance, (g, own, position.neutral, empty, k,
                                allowance if advanced else 0, advanced)

