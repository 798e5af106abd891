"""Bounds on a side's FINAL score that hold against any play of both sides, for the
endgame solver.

Contracts
---------
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
* The potential (:mod:`szsolver.bounds.potential`) is NOT a bound against the
  opponent under the Advanced rule (the opponent's neutrals may raise the side's
  score, see tests/test_potential.py::test_opponent_neutral_can_raise_the_bound);
  under the Basic rule it equals ``score_bound``.
"""
from __future__ import annotations

from ..rules.backends import as_position
from ..rules.base import ADVANCED
from ..rules.bits import bit_list, popcount
from .model import Model, check_time_limit, maximise, position_facts, score_of
from .potential import potential_map


def score_bound(position, side, time_limit=None, work_limit=None) -> int:
    """An upper bound on ``side``'s FINAL score over every continuation of the game
    (any play by the opponent and by the side itself). Exact (CP-SAT, proven).

    Contract: for every sequence of legal turns from ``position`` to the end of the
    game, the side's final score is <= ``score_bound(position, side)``. With a
    ``time_limit`` (wall-clock seconds) or ``work_limit`` (CP-SAT's deterministic
    time: the same result on any machine) the result is CP-SAT's proven upper bound
    (still a valid bound, possibly looser). On the Stars' Zone board it is also
    *attained* by some continuation (both players cooperating), so no tighter bound
    that depends only on the position can exist.

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
    check_time_limit(time_limit, work_limit)
    position = as_position(position)
    side, g, own, empty, k, own_allow, opp_allow = position_facts(position, side)
    advanced = position.rule == ADVANCED
    if k == 0 and (not advanced or opp_allow == 0):
        return score_of(g, own, position.neutral, advanced)
    if popcount(empty) < k:  # infeasible: not enough room (never in a real game)
        return quick_bound(position, side)
    r, _model = maximise((g, own, position.neutral, empty, k,
                          own_allow + opp_allow if advanced else 0, advanced), time_limit,
                         work_limit=work_limit)
    bound = r["value"] if r["proven"] else r["bound"]
    return min(bound, quick_bound(position, side))


def score_floor(position, side, time_limit=None, work_limit=None) -> int:
    """A lower bound on ``side``'s FINAL score over every continuation of the game
    (the least score any play of both sides can leave it with). Exact (CP-SAT).

    Contract: for every legal continuation to the end, side's final score >=
    ``score_floor(position, side)``; with a ``time_limit`` or ``work_limit`` (as
    in :func:`score_bound`) CP-SAT's proven lower bound (still valid). Same
    argument as :func:`score_bound` with min for max: the final score depends only
    on the side's k new stones X (a k-subset of the
    points empty now) and, under the Advanced rule, the new neutrals Y (at most
    both sides' allowances), so it is >= the minimum over all such (X, Y), and
    that minimum is attained on this board. Valid at every node below ``pos``.
    Under the Advanced rule the solver has no other lower bound on a score; a
    floor for the opponent is what lets a cap on the mover's score cut
    (value <= 100 * (cap_me - floor_opp) + neutrals).
    """
    check_time_limit(time_limit, work_limit)
    position = as_position(position)
    side, g, own, empty, k, own_allow, opp_allow = position_facts(position, side)
    advanced = position.rule == ADVANCED
    if k == 0 and (not advanced or opp_allow == 0):
        return score_of(g, own, position.neutral, advanced)
    model = Model(g, own, position.neutral, empty, k,
                   own_allow + opp_allow if advanced else 0, advanced, minimise=True)
    r = model.solve(time_limit, work_limit=work_limit)
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
    for p in bit_list(ownable):
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
    position = as_position(position)
    side, g, own, empty, k, own_allow, opp_allow = position_facts(position, side)
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
        for t in bit_list(m):
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

