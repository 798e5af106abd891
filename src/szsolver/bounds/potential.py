"""The potential: the highest final score a side can still reach if left alone,
overall (:func:`potential`) and per point for its next stone (:func:`potential_map`).

Definitions
-----------
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

Under the Basic rule the potential is also a bound against any play (it equals
:func:`szsolver.bounds.bounds.score_bound`); under the Advanced rule it is not,
because the opponent's neutrals may raise the side's score.

Every value returned is the score of a real placement, recomputed by the rules'
walk; without a time limit it is proven optimal.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..rules.bits import bit_list, popcount
from ..errors import UnsupportedError
from .model import Model, check_time_limit, maximise, model_args


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


def potential(position, side, time_limit=None) -> PotentialResult:
    """The best final score ``side`` can reach placing its remaining stones (and,
    under the Advanced rule, up to min(stones left, neutrals left) of its own
    neutrals) on the points empty now, the opponent placing nothing that matters.

    ``time_limit`` (seconds) stops CP-SAT early; then ``proven`` is False,
    ``potential`` is the best found (a lower bound) and ``upper_bound`` the proven
    upper bound. Without a limit the answer is always proven.
    """
    check_time_limit(time_limit)
    side, k, _allowance, args = model_args(position, side, "own")
    r, _model = maximise(args, time_limit)   # feasible (room checked): a value
    return PotentialResult(side, r["value"], max(r["bound"], r["value"]),
                           tuple(bit_list(r["stones"])), tuple(bit_list(r["neutrals"])),
                           r["proven"], r["seconds"], k, args[5])


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


def _swap_closure(model: Model, lower: dict, cap: int, points: set) -> None:
    """Cheap lower bounds: from each placement known to reach a point's best value,
    move one stone onto each other point (a neutral there moves to the freed point)
    and score the result; repeat while it finds improvements. Exact scores only
    (recomputed by the rules' walk), so every bound found is a true lower bound."""
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
            stones = bit_list(st)
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
                    v2 = model.score(st2, nt2)
                    if v2 > have:
                        have = v2
                        lower[p] = (v2, st2, nt2)
                        nxt.add((v2, st2, nt2))
                        if v2 >= cap:
                            break
        frontier = nxt


def _improve(model: Model, st: int, nt: int, fixed: int, cap: int, passes: int = 4):
    """First-improvement hill climbing on a placement (stones ``st``, neutrals ``nt``)
    keeping a stone on ``fixed``: move one stone; add, drop or move one neutral
    (Advanced). Deterministic; exact scores. Returns (score, stones, neutrals)."""
    adv = model.advanced
    cand = sorted(model.x)
    ncand = sorted(model.nv)
    allow = model.allowance
    sc = model.score
    v = sc(st, nt)
    for _ in range(passes):
        if v >= cap:
            break
        improved = False
        for s in bit_list(st & ~(1 << fixed)):
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
                if popcount(nt) < allow:
                    v2 = sc(st, nt | 1 << q)
                    if v2 > v:
                        nt, v, improved = nt | 1 << q, v2, True
                        continue
                for n in bit_list(nt):
                    nt2 = nt & ~(1 << n) | 1 << q
                    v2 = sc(st, nt2)
                    if v2 > v:
                        nt, v, improved = nt2, v2, True
                        break
            for n in bit_list(nt):
                v2 = sc(st, nt & ~(1 << n))
                if v2 > v:
                    nt, v, improved = nt & ~(1 << n), v2, True
        if not improved:
            break
    return v, st, nt


def potential_map(position, side, time_limit=None, *, kind: str = "potential",
                  progress=None) -> PotentialMap:
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

    ``progress``: optional callable(settled, points, solves), told before each CP-SAT
    solve: the points whose value is settled so far, of the points, and the solves
    so far (the map is the same without it).
    """
    t0 = time.perf_counter()
    if kind not in ("potential", "bound"):
        raise UnsupportedError(f"unknown map kind {kind!r}: use potential or bound")
    check_time_limit(time_limit)
    side, k, _allowance, args = model_args(position, side,
                                           "own" if kind == "potential" else "both")
    values: dict[int, int] = {}
    bounds: dict[int, int] = {}
    proven = set()
    found: list = []
    if progress is not None:
        progress(0, None, 0)
    r, model = maximise(args, time_limit, collect=found, need_model=True)
    m = model.m
    best = PotentialResult(side, r["value"], max(r["bound"], r["value"]),
                           tuple(bit_list(r["stones"])), tuple(bit_list(r["neutrals"])),
                           r["proven"], r["seconds"], k, args[5])
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
            v = model.score(st, nt)
            for q in bit_list(st):
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
            starts.append(min(((st0 & ~(1 << s) | 1 << p, nt0) for s in bit_list(st0)),
                              key=lambda sn: -model.score(*sn)))
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
        if progress is not None:
            progress(len(points) - len(rest), len(points), solves)
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

