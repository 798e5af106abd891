"""Beams, walked point by point: the one Python home of the beam rule.

A stone (or a star) has a *beam* in direction ``d`` when the first point along its
ray ``geometry.rays[p][d]`` that holds an own stone comes before any *blocker*.
Enemy stones never block. Which points block depends on the rule, and is decided in
one place, :func:`rule_blockers`: under Advanced the neutral (blocked) points cut
beams, under Basic nothing does. Every other function here takes ``blockers``
already resolved, as a point mask.

The *sight lines* of a starmap (:func:`sight_rays`, :func:`sight_lines`,
:func:`sight_segments`) are the same rule seen from the free points: along a ray a
blocked point is skipped (it is only occupied) when ``cut`` is false and ends the
ray when ``cut`` is true (Advanced).

The Cython core, the C searches and the CP-SAT models encode the same rule
independently (bitboards, clauses); the tests check them against this module.

>>> from szsolver.rules.geometry import square
>>> g = square(3)
>>> own = 1 << g.index[(1, 1)] | 1 << g.index[(1, 3)] | 1 << g.index[(3, 1)]
>>> patterns(g, own)            # (1,1) sees right and down; the others see it back
{0: 6, 2: 8, 6: 1}
>>> patterns(g, own, blockers=1 << g.index[(1, 2)])   # a blocker between (1,1) and (1,3)
{0: 4, 2: 0, 6: 1}
>>> beam_pairs(g, own)
[(0, 2), (0, 6)]
"""
from __future__ import annotations

from collections.abc import Sequence

from .base import ADVANCED, rule_code

__all__ = ["rule_blockers", "beam_target", "pattern_at", "patterns", "pattern_set",
           "beam_pairs", "sight_rays", "sight_lines", "sight_segments"]


def rule_blockers(rule, neutral: int) -> int:
    """The points that cut beams under ``rule``: ``neutral`` under Advanced, none under
    Basic. ``rule`` is a code (0/1) or a name ('basic'/'advanced'); anything else
    raises ValueError.

    >>> rule_blockers("advanced", 0b100), rule_blockers("basic", 0b100), rule_blockers(1, 6)
    (4, 0, 6)
    """
    return neutral if rule_code(rule) == ADVANCED else 0


def beam_target(ray: Sequence[int], own: int, blockers: int = 0) -> int:
    """The first point of ``ray`` in ``own``, or -1 when a point of ``blockers`` or the
    end of the ray comes first. A point in both sets counts as own.

    >>> beam_target((3, 4, 5), own=0b100000), beam_target((3, 4, 5), 0b100000, blockers=0b10000)
    (5, -1)
    """
    for q in ray:
        if own >> q & 1:
            return q
        if blockers >> q & 1:
            return -1
    return -1


def pattern_at(geometry, p: int, own: int, blockers: int = 0) -> int:
    """The pattern of a stone on point ``p`` with own stones ``own``: bit ``d`` set
    when its beam in direction ``d`` reaches an own stone (see :func:`beam_target`).
    ``p`` itself need not be in ``own``; it must be a point of the board.

    >>> from szsolver.rules.geometry import square
    >>> pattern_at(square(2), 0, own=0b1010)   # (1,1) sees (1,2) to its right; (2,2) is diagonal
    2
    """
    pat = 0
    for d, ray in enumerate(geometry.rays[p]):
        for q in ray:
            if own >> q & 1:
                pat |= 1 << d
                break
            if blockers >> q & 1:
                break
    return pat


def patterns(geometry, own: int, blockers: int = 0) -> dict[int, int]:
    """``{p: pattern}`` for every point ``p`` of ``own``, ascending. Bits of ``own``
    beyond the board are ignored (they are neither stones nor seen).

    >>> from szsolver.rules.geometry import square
    >>> patterns(square(2), 0b0011)
    {0: 2, 1: 8}
    """
    own_on = own & geometry.full_mask
    return {p: pattern_at(geometry, p, own_on, blockers)
            for p in range(geometry.size) if own_on >> p & 1}


def pattern_set(geometry, own: int, blockers: int = 0) -> int:
    """The set of patterns the stones of ``own`` show, as a mask over patterns (bit
    ``k`` set when some stone shows pattern ``k``); its popcount is the score.

    >>> from szsolver.rules.geometry import square
    >>> bin(pattern_set(square(2), 0b0011))    # patterns 2 and 8
    '0b100000100'
    """
    m = 0
    for pat in patterns(geometry, own, blockers).values():
        m |= 1 << pat
    return m


def beam_pairs(geometry, own: int, blockers: int = 0) -> list[tuple[int, int]]:
    """``(p, q)`` with ``p < q`` for every pair of stones of ``own`` joined by a beam
    (q is the first own stone along some ray of p, or p of q), each pair once, sorted.

    >>> from szsolver.rules.geometry import square
    >>> beam_pairs(square(3), 0b000000111)   # the top row: neighbours see each other
    [(0, 1), (1, 2)]
    """
    own_on = own & geometry.full_mask
    out = set()
    for p in range(geometry.size):
        if not own_on >> p & 1:
            continue
        for ray in geometry.rays[p]:
            q = beam_target(ray, own_on, blockers)
            if q >= 0:
                out.add((min(p, q), max(p, q)))
    return sorted(out)


def sight_rays(geometry, blocked: int, cut: bool) -> list[list[int]]:
    """``rays[p][d]``: the free points a star on ``p`` looks at in direction ``d``, as a
    mask, for every point ``p`` (blocked ones too). A blocked point is left out and,
    when ``cut`` (Advanced), also ends the ray.

    >>> from szsolver.rules.geometry import square
    >>> g = square(3)
    >>> sight_rays(g, 0b010, cut=False)[0][1], sight_rays(g, 0b010, cut=True)[0][1]   # right of (1,1)
    (4, 0)
    """
    out = []
    for per_dir in geometry.rays:
        per = []
        for ray in per_dir:
            m = 0
            for q in ray:
                if blocked >> q & 1:
                    if cut:
                        break
                    continue
                m |= 1 << q
            per.append(m)
        out.append(per)
    return out


def sight_lines(geometry, blocked: int, cut: bool) -> list[list[tuple[int, ...]]]:
    """``lines[d]``: the free points grouped into lines of sight along direction
    ``d``'s axis, each line a tuple in order along ``d``; lines are listed by their
    lowest free point. Every line appears once per direction of its axis (reversed
    for the opposite direction). A blocked point is skipped, or ends the line when
    ``cut``.

    The order is part of the contract: the C search behind hex puzzle IDs numbers its
    segments from it.

    >>> from szsolver.rules.geometry import square
    >>> g = square(3)
    >>> sight_lines(g, 0b000010000, cut=True)[1]    # rightwards, the centre blocked
    [(0, 1, 2), (3,), (5,), (6, 7, 8)]
    """
    out = []
    for d in range(geometry.n_directions):
        e = geometry.opposite[d]
        seen = set()
        lines = []
        for p in range(geometry.size):
            if blocked >> p & 1 or p in seen:
                continue
            line = (tuple(reversed(_visible(geometry.rays[p][e], blocked, cut))) + (p,)
                    + tuple(_visible(geometry.rays[p][d], blocked, cut)))
            seen.update(line)
            lines.append(line)
        out.append(lines)
    return out


def _visible(ray, blocked: int, cut: bool) -> list[int]:
    pts = []
    for q in ray:
        if blocked >> q & 1:
            if cut:
                break
            continue
        pts.append(q)
    return pts


def sight_segments(geometry, blocked: int, cut: bool,
                   rays: list[list[int]] | None = None) -> list[tuple[int, list[int]]]:
    """Per axis, ``(d, segments)``: ``d`` the axis's lower direction, ``segments`` the
    lines of :func:`sight_lines` along it as masks, listed by their lowest point.
    ``rays`` may pass :func:`sight_rays` of the same arguments, to save computing it.

    >>> from szsolver.rules.geometry import square
    >>> sight_segments(square(2), 0, cut=False)
    [(0, [5, 10]), (1, [3, 12])]
    """
    if rays is None:
        rays = sight_rays(geometry, blocked, cut)
    free = geometry.full_mask & ~blocked
    out = []
    for d in range(geometry.n_directions):
        e = geometry.opposite[d]
        if e < d:
            continue
        segs = []
        done = 0
        for p in range(geometry.size):
            if not free >> p & 1 or done >> p & 1:
                continue
            m = (1 << p) | rays[p][d] | rays[p][e]
            done |= m
            segs.append(m)
        out.append((d, segs))
    return out
