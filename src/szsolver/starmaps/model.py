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

from dataclasses import dataclass, field

from ..errors import InvalidPuzzleError
from ..formats.patterns import format_pattern, pattern_name
from ..rules.beams import beam_target, patterns, rule_blockers
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
        problems.append(f"{n} star{'' if n == 1 else 's'}, a complete starmap needs {puzzle.n_stars}")
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


@dataclass
class SolutionCheck:
    """What :func:`check_solution` found. Points are named as on the board
    (``Geometry.coord_text``), patterns as numbers (:attr:`problems` also names them).

    ``stars``: every star counted (the givens and the placed stars on the board);
    ``placed``: the stars the player placed (the givens left out); ``off_board``:
    listed points that are not on the board; ``on_blocked``: stars on blocked points;
    ``givens_contradicted``: ``{"point", "shows", "needs"}`` for each given whose
    pattern the stars change; ``clashes``: ``{"pattern", "points"}`` for each pattern
    two or more stars show; ``missing_patterns``: the patterns no star shows;
    ``problems``: one sentence for people per problem (empty: a solution)."""
    stars: list[str]
    placed: list[str]
    needed: int
    off_board: list[str] = field(default_factory=list)
    on_blocked: list[str] = field(default_factory=list)
    givens_contradicted: list[dict] = field(default_factory=list)
    clashes: list[dict] = field(default_factory=list)
    missing_patterns: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def correct(self) -> bool:
        return not self.problems

    def to_json(self) -> dict:
        return {"correct": self.correct, "problems": list(self.problems),
                "stars": self.stars, "placed": self.placed, "needed": self.needed,
                "off_board": self.off_board, "on_blocked": self.on_blocked,
                "givens_contradicted": self.givens_contradicted, "clashes": self.clashes,
                "missing_patterns": self.missing_patterns}


def _comma_hint(g, names) -> str:
    """Advice where an off-board name is two board points joined by a comma (``44,52``
    is one point, row 44, column 52): points are separated by spaces."""
    for t in names:
        parts = t.split(",")
        if len(parts) == 2 and all(_on_board(g, x) for x in parts):
            return f" ({t} is one point, row {parts[0]}, column {parts[1]}; separate " \
                   f"points with spaces: {' '.join(parts)})"
    return ""


def _on_board(g, text: str) -> bool:
    try:
        g.parse_point(text)
    except ValueError:
        return False
    return True


def check_solution(puzzle: Puzzle, placed: int, off_board=()) -> SolutionCheck:
    """Check the stars a player placed (``placed``, a bitmask; the givens are implied,
    and listing them too is fine) and explain what is wrong, point by point.

    ``off_board``: names of listed points that are not on the board (they count as
    problems). Stars on blocked points are reported and left out of the patterns;
    the others are checked as :func:`solution_problems` does (the verdict agrees with
    it on ``placed | givens``), with the reasons named: a given whose pattern is not
    the printed one (which beam is extra or missing, and the star that makes it),
    patterns two stars show, patterns no star shows, and too few or too many stars."""
    g = puzzle.geometry
    if placed < 0 or placed >> g.size:
        raise InvalidPuzzleError("stars off the board")
    name = g.coord_text
    given = dict(puzzle.givens)
    stars = placed | puzzle.given_mask
    blocked = stars & puzzle.blocked
    valid = stars & ~puzzle.blocked
    check = SolutionCheck(stars=[name(p) for p in range(g.size) if stars >> p & 1],
                          placed=[name(p) for p in range(g.size) if valid >> p & 1 and p not in given],
                          needed=puzzle.n_stars, off_board=list(off_board),
                          on_blocked=[name(p) for p in range(g.size) if blocked >> p & 1])
    out = check.problems

    def pat(t: int) -> str:
        return f"{format_pattern(g, t)} ({pattern_name(t, g, blank='blank')})"

    def listing(points) -> str:
        return " ".join(points)

    if check.off_board:
        n = len(check.off_board)
        out.append(f"{'a star' if n == 1 else f'{n} stars'} off the {g.name} board: "
                   f"{listing(check.off_board)}" + _comma_hint(g, check.off_board))
    if check.on_blocked:
        n = len(check.on_blocked)
        out.append(f"{'a star' if n == 1 else f'{n} stars'} on blocked "
                   f"point{'s' if n > 1 else ''}: {listing(check.on_blocked)}")
    blockers = rule_blockers(puzzle.rule, puzzle.blocked)
    shown = patterns(g, valid, blockers)
    for p, want in puzzle.givens:
        got = shown[p]
        if got == want:
            continue
        check.givens_contradicted.append({"point": name(p), "shows": got, "needs": want})
        why = []
        for d, dname in enumerate(g.direction_names):
            bit = 1 << d
            if got & bit and not want & bit:
                q = beam_target(g.rays[p][d], valid, blockers)
                why.append(f"a beam {dname} to {name(q)} it must not have")
            elif want & bit and not got & bit:
                why.append(f"no beam {dname} (no star that way)")
        out.append(f"given {name(p)} shows {pat(got)}, not its {pat(want)}: " + "; ".join(why))
    by_pattern: dict[int, list[int]] = {}
    for p, t in shown.items():
        by_pattern.setdefault(t, []).append(p)
    for t, points in sorted(by_pattern.items()):
        if len(points) > 1:
            names = [name(p) for p in points]
            check.clashes.append({"pattern": t, "points": names})
            out.append(f"{len(points)} stars show {pat(t)}: {listing(names)} (each pattern once)")
    check.missing_patterns = [t for t in range(g.n_patterns) if t not in by_pattern]
    n = bin(valid).count("1")
    if n != puzzle.n_stars:
        placed_n = n - len(given)
        more = (f"place {puzzle.n_stars - n} more" if n < puzzle.n_stars
                else f"{n - puzzle.n_stars} too many")
        out.append(f"{n} stars ({len(given)} given + {placed_n} placed), a complete starmap "
                   f"has {puzzle.n_stars}: {more}")
    if check.missing_patterns:
        k = len(check.missing_patterns)
        out.append(f"{k} pattern{'s' if k > 1 else ''} no star shows: "
                   + ", ".join(pat(t) for t in check.missing_patterns))
    return check


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
