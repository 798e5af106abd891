"""Starmaps: the puzzle model and an independent pure-Python checker.

A *starmap* places stars on a board so that every star shows a different
pattern of distant neighbours (bit d set: some other star lies further along
direction d). A complete starmap uses all 2^k patterns once (k directions).

A :class:`Puzzle` is a board, blocked points (drawn as neutral stones), the beam
rule (``BASIC``: blocked points only occupy; ``ADVANCED``: they also cut beams)
and givens (stars already placed, each showing its pattern). Its solution is a
set of stars, as a bitmask over the geometry's points, that contains the givens,
avoids blocked points, shows every pattern exactly once, and in which each given
shows the pattern printed on it.

This module is the checker every solver and generator is tested against: it
walks beams point by point (:mod:`szsolver.rules.beams`) and shares no code with
the CP-SAT model or the C search.

>>> from szsolver.rules.geometry import square
>>> g = square(2)
>>> stars = sum(1 << g.index[c] for c in [(1, 1), (1, 2)])
>>> sorted(star_patterns(g, stars).items())   # (1,1) sees right, (1,2) sees left
[(0, 2), (1, 8)]
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import InvalidPuzzleError
from ..rules.beams import patterns, rule_blockers
from ..rules.bits import popcount
from ..rules.geometry import Geometry
from ..rules.base import BASIC, rule_code


def star_patterns(geometry: Geometry, stars: int, blocked: int = 0, rule=BASIC) -> dict[int, int]:
    """{point: pattern} for every star in ``stars`` (bitmask), ascending. Under ADVANCED
    (a code or the name), a blocked point on the line cuts the beam; under BASIC it
    does not. Star bits beyond the board are ignored."""
    return patterns(geometry, stars, rule_blockers(rule, blocked))


@dataclass(frozen=True)
class Puzzle:
    """A starmap puzzle. ``blocked`` is a bitmask; ``givens`` a sorted tuple of
    (point, pattern) pairs. InvalidPuzzleError (a ValueError) names what is wrong
    with an inconsistent one."""
    geometry: Geometry
    blocked: int = 0
    givens: tuple[tuple[int, int], ...] = ()
    rule: int = BASIC

    def __post_init__(self):
        object.__setattr__(self, "rule", rule_code(self.rule))
        object.__setattr__(self, "givens", tuple(sorted(self.givens)))
        g = self.geometry
        if self.blocked < 0 or self.blocked >> g.size:
            raise InvalidPuzzleError("blocked points off the board")
        if self.blocked & g.fixed_neutral_mask != g.fixed_neutral_mask:
            raise InvalidPuzzleError("the board's fixed neutral points must be blocked")
        seen = set()
        for p, pat in self.givens:
            if not 0 <= p < g.size:
                raise InvalidPuzzleError(f"given on point {p}, off the board")
            if p in seen:
                raise InvalidPuzzleError(f"two givens on {g.coord_text(p)}")
            seen.add(p)
            if self.blocked >> p & 1:
                raise InvalidPuzzleError(f"given on blocked point {g.coord_text(p)}")
            if not 0 <= pat < g.n_patterns:
                raise InvalidPuzzleError(f"given pattern {pat} out of range 0..{g.n_patterns - 1}")
        pats = [pat for _, pat in self.givens]
        if len(set(pats)) != len(pats):
            raise InvalidPuzzleError("two givens show the same pattern")

    @property
    def n_stars(self) -> int:
        return self.geometry.n_patterns

    @property
    def given_mask(self) -> int:
        m = 0
        for p, _ in self.givens:
            m |= 1 << p
        return m


def solution_problems(puzzle: Puzzle, stars: int) -> list[str]:
    """Why ``stars`` is not a solution of ``puzzle`` (empty list: it is one)."""
    g = puzzle.geometry
    problems = []
    if stars < 0 or stars >> g.size:
        return ["stars off the board"]
    n = popcount(stars)
    if n != puzzle.n_stars:
        problems.append(f"{n} stars, a complete starmap needs {puzzle.n_stars}")
    if stars & puzzle.blocked:
        problems.append("a star on a blocked point")
    pats = star_patterns(g, stars, puzzle.blocked, puzzle.rule)
    for p, want in puzzle.givens:
        if p not in pats:
            problems.append(f"given {g.coord_text(p)} has no star")
        elif pats[p] != want:
            problems.append(f"given {g.coord_text(p)} shows pattern {pats[p]}, not {want}")
    counts: dict[int, int] = {}
    for pat in pats.values():
        counts[pat] = counts.get(pat, 0) + 1
    dup = sorted(pat for pat, c in counts.items() if c > 1)
    if dup:
        problems.append(f"patterns shown more than once: {dup}")
    return problems


def is_solution(puzzle: Puzzle, stars: int) -> bool:
    return not solution_problems(puzzle, stars)


def is_good_form(geometry: Geometry, stars: int, blocked: int = 0, rule=BASIC) -> bool:
    """Freeling's good form: no two stars adjacent, and the all-blank star lies
    inside the constellation: strictly between the other stars along every axis of
    the board (on a square grid: strictly inside the bounding box of the others,
    rows and columns; on the hex board also across the third axis, i.e. inside
    their bounding hexagon)."""
    for p in range(geometry.size):
        if stars >> p & 1 and any(stars >> q & 1 for q in geometry.neighbours[p]):
            return False
    pats = star_patterns(geometry, stars, blocked, rule)
    blank = [p for p, pat in pats.items() if pat == 0]
    if len(blank) != 1:
        return False
    others = [geometry.coords[p] for p in pats if p != blank[0]]
    if not others:
        return False
    r0, c0 = geometry.coords[blank[0]]
    for d, (dr, dc) in enumerate(geometry.directions):
        if d > geometry.opposite[d]:
            continue
        # the coordinate across this axis: constant along its lines
        across = [r * dc - c * dr for r, c in others]
        if not min(across) < r0 * dc - c0 * dr < max(across):
            return False
    return True
