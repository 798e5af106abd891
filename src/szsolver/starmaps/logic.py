"""A human-style logic solver for starmap puzzles, with named techniques and grades.

The solver keeps, for every point, the set of things it can still hold: *empty*
or a star showing one of the 2^k patterns (a candidate set, like pencil marks in
Sudoku). Named deduction techniques remove candidates; they are applied weakest
first, and after every successful step the solver starts again from the
weakest. A puzzle's **grade** is the strongest technique level it needed:

========  =====  =============================================================
grade     level  techniques allowed (each level includes the ones before)
========  =====  =============================================================
easy      1      pattern already used, last place for a pattern, blank forbids
                 stars, seen star / empty line
medium    2      beam needs a star, star counting
hard      3      line counting (per axis), pattern subsets (naked and hidden
                 pairs and triples)
fiendish  4      trial and error: contradiction (assume one thing about one
                 point -- empty, a star, or one of at most three patterns --
                 and follow the techniques above to a contradiction); also
                 every puzzle those do not finish (deeper search needed)
========  =====  =============================================================

Every technique is *sound*: it only removes candidates no solution can use, so
the solution survives every step (the tests check that on many generated
puzzles). Techniques are monotone, so "the strongest level used when always
trying the weakest first" equals "the weakest technique set that solves it".
When the logic solver finishes a puzzle it has proved the solution unique; when
it stalls (still grade ``fiendish``) it proves nothing and uniqueness must come from
CP-SAT (:mod:`szsolver.starmaps.generate` does that).

See docs/puzzles.md for the techniques explained for people.

>>> grade_level("hard"), grade_level("Fiendish")
(3, 4)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from ..errors import InvalidPuzzleError, ParseError
from ..inputs import choice
from ..formats.patterns import pattern_name
from ..rules.base import ADVANCED
from ..rules.beams import sight_rays, sight_segments
from ..rules.bits import iter_bit_values, iter_bits, lowest_bit, mask_of, popcount
from .model import Puzzle, is_solution, star_patterns

GRADES = ("easy", "medium", "hard", "fiendish")
LEVELS = {name: i + 1 for i, name in enumerate(GRADES)}
EMPTY = 1  # candidate bit 0: the point stays empty; bit 1 + pattern: a star showing pattern


def grade_level(grade: str) -> int:
    """'easy' -> 1 ... 'fiendish' -> 4; ParseError (a ValueError) for anything else."""
    return LEVELS[choice(str(grade), GRADES, "grade")]


class Contradiction(Exception):
    """The candidates admit no solution."""


class _Board:
    """What the techniques need about a (geometry, blocked, rule): effective rays,
    line segments per axis, candidate masks per direction."""

    def __init__(self, puzzle: Puzzle):
        g = puzzle.geometry
        self.g = g
        self.n = g.size
        self.k = g.n_directions
        self.npat = g.n_patterns
        self.half = self.npat // 2
        blocked = puzzle.blocked
        self.blocked = blocked
        self.stars_bits = ((1 << self.npat) - 1) << 1
        self.all_bits = self.stars_bits | EMPTY
        self.beam = [sum(2 << p for p in range(self.npat) if p >> d & 1) for d in range(self.k)]
        self.blank = [self.stars_bits & ~b for b in self.beam]
        self.free = g.full_mask & ~blocked
        cut = puzzle.rule == ADVANCED
        self.rays = sight_rays(g, blocked, cut)
        # segments: maximal sets of free points that see each other along one axis
        self.axes = sight_segments(g, blocked, cut, rays=self.rays)


@dataclass
class Step:
    technique: str
    level: int
    text: str


@dataclass
class LogicResult:
    """``solved``: the logic finished (solution unique). ``grade``: the grade when
    solved, ``'fiendish'`` when it stalled, ``None`` when the puzzle is contradictory.
    ``stars``: the solution bitmask when solved. ``candidates``: the final pencil marks."""
    solved: bool
    grade: str | None
    level: int
    stars: int | None
    candidates: list[int]
    counts: dict[str, int] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    contradiction: bool = False


class _State:
    __slots__ = ("_masks", "b", "c")

    def __init__(self, b: _Board, c: list[int]):
        self.b = b
        self.c = c
        self._masks = None

    def copy(self) -> _State:
        return _State(self.b, list(self.c))

    def masks(self):
        """(known stars, possible stars) as point bitmasks (cached until a change)."""
        if self._masks is None:
            self._masks = self._compute_masks()
        return self._masks

    def _compute_masks(self):
        known = possible = 0
        sb = self.b.stars_bits
        for p, c in enumerate(self.c):
            if c & sb:
                possible |= 1 << p
                if not c & EMPTY:
                    known |= 1 << p
        return known, possible

    def solved(self) -> bool:
        return all(c & (c - 1) == 0 for c in self.c)


# --- techniques: each returns a list of (point, bits to remove, reason) -----------------------

def _t_pattern_used(st: _State, name):
    out = []
    sb = st.b.stars_bits
    used = 0
    where = {}
    for p, c in enumerate(st.c):
        if c & (c - 1) == 0 and c & sb:
            if used & c:
                raise Contradiction
            used |= c
            where[c] = p
    if not used:
        return out
    for q, cq in enumerate(st.c):
        hit = cq & used
        if hit and hit != cq:
            out.append((q, hit, lambda q=q, hit=hit: f"{name(q)}: " + ", ".join(
                f"pattern {_pat(st, c)} is already at {name(where[c])}" for c in iter_bit_values(hit))))
    return out


def _pat(st, bit):
    return pattern_name(bit.bit_length() - 2, st.b.g, blank="blank")


def _places(st: _State):
    """places[pattern bit index] = point mask where it is still possible."""
    places = [0] * (st.b.npat + 1)
    for p, c in enumerate(st.c):
        c &= ~EMPTY
        pb = 1 << p
        while c:
            low = c & -c
            places[low.bit_length() - 1] |= pb
            c ^= low
    return places


def _t_last_place(st: _State, name):
    out = []
    once = twice = 0
    for c in st.c:
        twice |= once & c
        once |= c
    sb = st.b.stars_bits
    if once & sb != sb:
        raise Contradiction
    single = once & ~twice & sb
    if single:
        for p, c in enumerate(st.c):
            hit = c & single
            if hit:
                if hit & (hit - 1):
                    raise Contradiction  # two patterns that must both go here
                if c != hit:
                    out.append((p, c & ~hit,
                                lambda p=p, bit=hit: f"{name(p)}: the only place left for pattern {_pat(st, bit)}"))
    return out


def _t_sight(st: _State, name):
    """seen star / empty line (about a point's own beams)."""
    out = []
    b = st.b
    known, possible = st.masks()
    rays, blank, beam, k = b.rays, b.blank, b.beam, b.k
    cands = st.c
    for p in iter_bits(possible):
        c = cands[p]
        rp = rays[p]
        for d in range(k):
            r = rp[d]
            if r & known:
                if c & blank[d]:
                    out.append((p, blank[d], _why_seen(st, name, p, d, r & known)))
            elif not r & possible and c & beam[d]:
                out.append((p, beam[d], _why_empty(st, name, p, d)))
    return out


def _why_seen(st, name, p, d, m):
    dn = st.b.g.direction_names
    return lambda: (f"{name(p)}: a star at {name(lowest_bit(m))} lies {dn[d]}, "
                    f"so a star here has a beam {dn[d]}")


def _why_empty(st, name, p, d):
    dn = st.b.g.direction_names
    return lambda: f"{name(p)}: nothing can stand {dn[d]} of it, so a star here is blank {dn[d]}"


def _t_blank_forbids(st: _State, name):
    out = []
    b = st.b
    known, possible = st.masks()
    dn = b.g.direction_names
    for p in iter_bits(known):
        c = st.c[p]
        for d in range(b.k):
            if not c & b.beam[d]:
                for q in iter_bits(b.rays[p][d] & possible):
                    out.append((q, b.stars_bits, lambda p=p, q=q, d=d:
                                f"{name(q)}: the star at {name(p)} is blank {dn[d]}, so no star here"))
    return out


def _t_beam_needs(st: _State, name):
    out = []
    b = st.b
    known, possible = st.masks()
    dn = b.g.direction_names
    for p in iter_bits(known):
        c = st.c[p]
        for d in range(b.k):
            if not c & b.blank[d]:
                r = b.rays[p][d] & possible
                if r == 0:
                    raise Contradiction
                if r & (r - 1) == 0 and not r & known:
                    q = r.bit_length() - 1
                    out.append((q, EMPTY, lambda p=p, q=q, d=d:
                                f"{name(q)}: the star at {name(p)} beams {dn[d]} and this is the only place for that star"))
    return out


def _t_line_count(st: _State, name):
    out = []
    b = st.b
    known, possible = st.masks()
    dn = b.g.direction_names
    for d, segs in b.axes:
        occ = [s for s in segs if s & known]
        pos = [s for s in segs if s & possible]
        if len(occ) > b.half or len(pos) < b.half:
            raise Contradiction
        if len(occ) == b.half:
            for s in segs:
                if not s & known:
                    for q in iter_bits(s & possible):
                        out.append((q, b.stars_bits, lambda q=q, d=d:
                                    f"{name(q)}: all {b.half} lines along {dn[d]} already hold a star"))
        if len(pos) == b.half:
            for s in pos:
                m = s & possible
                if m & (m - 1) == 0 and not m & known:
                    q = m.bit_length() - 1
                    out.append((q, EMPTY, lambda q=q, d=d:
                                f"{name(q)}: exactly {b.half} lines along {dn[d]} must hold a star "
                                f"and this is the only place left on its line"))
    return out


def _t_star_count(st: _State, name):
    out = []
    b = st.b
    known, possible = st.masks()
    nk, np_ = popcount(known), popcount(possible)
    if nk > b.npat or np_ < b.npat:
        raise Contradiction
    if nk == b.npat:
        for q in iter_bits(possible & ~known):
            out.append((q, b.stars_bits, lambda q=q: f"{name(q)}: all {b.npat} stars are placed"))
    elif np_ == b.npat:
        for q in iter_bits(possible & ~known):
            out.append((q, EMPTY, lambda q=q: f"{name(q)}: exactly {b.npat} points can hold a star"))
    return out


def _t_subsets(st: _State, name):
    """Naked and hidden pattern subsets of size 2 and 3 (2 only on boards with > 16 patterns)."""
    out = []
    b = st.b
    places = _places(st)
    open_pats = [i for i in range(1, b.npat + 1) if places[i] & (places[i] - 1)]
    sizes = (2, 3) if b.npat <= 16 else (2,)
    # hidden: t patterns confined to t points -> those points hold only those patterns
    for t in sizes:
        cand = [i for i in open_pats if popcount(places[i]) <= t]
        for combo in combinations(cand, t):
            m = 0
            for i in combo:
                m |= places[i]
            if popcount(m) < t:
                raise Contradiction
            if popcount(m) == t:
                keep = sum(1 << i for i in combo)
                for q in iter_bits(m):
                    if st.c[q] & ~keep:
                        out.append((q, st.c[q] & ~keep, lambda q=q, combo=combo, m=m:
                                    f"{name(q)}: patterns {', '.join(_pat(st, 1 << i) for i in combo)} "
                                    f"can only go on {', '.join(name(x) for x in iter_bits(m))}"))
        if out:
            return out
    # naked: t points that must be stars with only t patterns between them
    known, _ = st.masks()
    pts = [p for p in iter_bits(known) if st.c[p] & (st.c[p] - 1)]
    for t in sizes:
        cand = [p for p in pts if popcount(st.c[p]) <= t]
        for combo in combinations(cand, t):
            m = 0
            for p in combo:
                m |= st.c[p]
            if popcount(m) < t:
                raise Contradiction
            if popcount(m) == t:
                for q in iter_bits(_places_mask(places, m) & ~mask_of(combo)):
                    out.append((q, m, lambda q=q, combo=combo, m=m:
                                f"{name(q)}: the stars at {', '.join(name(p) for p in combo)} use up "
                                f"patterns {', '.join(_pat(st, 1 << i) for i in iter_bits(m))}"))
        if out:
            return out
    return out


def _places_mask(places, bits):
    m = 0
    for i in iter_bits(bits):
        m |= places[i]
    return m


# (name, level, function) in the order they are tried
TECHNIQUES = (
    ("pattern already used", 1, _t_pattern_used),
    ("last place for a pattern", 1, _t_last_place),
    ("blank forbids stars", 1, _t_blank_forbids),
    ("seen star / empty line", 1, _t_sight),
    ("beam needs a star", 2, _t_beam_needs),
    ("star counting", 2, _t_star_count),
    ("line counting", 3, _t_line_count),
    ("pattern subsets", 3, _t_subsets),
)
CONTRADICTION = ("contradiction", 4)
HYP_LEVEL = 3  # a hypothesis is followed with every technique of levels 1..3
MAX_LEVEL = 4


def _visible(b: _Board, old: int, new: int) -> bool:
    """Worth telling a person: the point became a star, empty, or its pattern is known."""
    if new == EMPTY or new & (new - 1) == 0:
        return True
    return bool(old & EMPTY) and not new & EMPTY


def _outcome(b: _Board, c: int) -> str:
    if c == EMPTY:
        return " => empty"
    if c & (c - 1) == 0 and c:
        return f" => star {pattern_name(c.bit_length() - 2, b.g, blank='blank')}"
    if not c & EMPTY:
        return " => a star"
    return ""


def _check(st: _State):
    for c in st.c:
        if c == 0:
            raise Contradiction


def _propagate(st: _State, max_level: int, counts=None, steps=None, name=None, truth=None) -> int:
    """Apply techniques up to ``max_level`` (weakest first) to a fixpoint.
    Returns the strongest level used. Raises Contradiction."""
    used = 0
    name = name or st.b.g.coord_text
    while True:
        _check(st)
        if st.solved():
            return used
        progress = False
        for tname, level, fn in TECHNIQUES:
            if level > max_level:
                break
            elims = fn(st, name)
            changed = False
            for p, rm, why in elims:
                c = st.c[p]
                if c & rm:
                    st.c[p] = new = c & ~rm
                    changed = True
                    if steps is not None and _visible(st.b, c, new):
                        steps.append(Step(tname, level, why() + _outcome(st.b, new)))
            if changed:
                st._masks = None
                if truth is not None:
                    _assert_truth(st, truth, tname)
                used = max(used, level)
                if counts is not None:
                    counts[tname] = counts.get(tname, 0) + 1
                progress = True
                break
        if progress:
            continue
        if max_level >= CONTRADICTION[1] and _contradiction_step(st, counts, steps, name, truth):
            used = max(used, CONTRADICTION[1])
            continue
        return used


def _hypotheses(st: _State):
    """(point, bits assumed) to try, in a fixed order: "a star here" and "empty here"
    for every undecided point, then "this pattern here" on points with at most
    three patterns left."""
    sb = st.b.stars_bits
    undecided = [p for p, c in enumerate(st.c) if c & (c - 1)]
    for p in undecided:
        c = st.c[p]
        if c & EMPTY and c & sb:
            yield p, c & sb
            yield p, EMPTY
    for p in undecided:
        c = st.c[p] & sb
        if c & (c - 1) and popcount(c) <= 3:
            for i in iter_bits(c):
                yield p, 1 << i


def _contradiction_step(st: _State, counts, steps, name, truth) -> bool:
    for p, assume in _hypotheses(st):
        trial = st.copy()
        trial.c[p] &= assume
        trial._masks = None
        try:
            _propagate(trial, HYP_LEVEL)
        except Contradiction:
            st.c[p] &= ~assume
            st._masks = None
            if truth is not None:
                _assert_truth(st, truth, CONTRADICTION[0])
            if counts is not None:
                counts[CONTRADICTION[0]] = counts.get(CONTRADICTION[0], 0) + 1
            if steps is not None:
                what = ("empty" if assume == EMPTY else
                        "a star" if assume & (assume - 1) else f"a star showing {_pat(st, assume)}")
                steps.append(Step(CONTRADICTION[0], CONTRADICTION[1],
                                  f"{name(p)}: if it were {what}, the easier techniques reach a "
                                  f"contradiction" + _outcome(st.b, st.c[p])))
            return True
    return False


def _assert_truth(st: _State, truth: list[int], tname: str):
    for p, (c, t) in enumerate(zip(st.c, truth)):
        if not c & t:
            raise AssertionError(f"unsound: {tname} removed the solution's value at {st.b.g.coord_text(p)}")


def _truth_bits(puzzle: Puzzle, stars: int) -> list[int]:
    pats = star_patterns(puzzle.geometry, stars, puzzle.blocked, puzzle.rule)
    return [2 << pats[p] if p in pats else EMPTY for p in range(puzzle.geometry.size)]


def _initial(b: _Board, puzzle: Puzzle) -> list[int]:
    c = [b.all_bits if b.free >> p & 1 else EMPTY for p in range(b.n)]
    for p, pattern in puzzle.givens:
        c[p] = 2 << pattern
    return c


def initial_candidates(puzzle: Puzzle) -> list[int]:
    """The pencil marks before any deduction: bit 0 empty, bit 1 + t pattern t."""
    return _initial(_Board(puzzle), puzzle)


def solve_logic(puzzle: Puzzle, max_level: int = MAX_LEVEL, explain: bool = False,
                truth: int | None = None) -> LogicResult:
    """Run the logic solver with techniques up to ``max_level`` (1 easy .. 4 fiendish).

    ``explain``: record every step (``steps``). ``truth``: a known solution (stars
    bitmask); every step is then checked not to remove it (AssertionError naming
    the technique otherwise) -- the soundness test hook.
    """
    b = _Board(puzzle)
    st = _State(b, _initial(b, puzzle))
    tb = _truth_bits(puzzle, truth) if truth is not None else None
    if tb is not None:
        _assert_truth(st, tb, "the givens")
    counts: dict[str, int] = {}
    steps: list[Step] | None = [] if explain else None
    try:
        level = _propagate(st, max_level, counts, steps, truth=tb)
    except Contradiction:
        return LogicResult(False, None, 0, None, st.c, counts, steps or [], contradiction=True)
    if st.solved():
        stars = mask_of(p for p, cp in enumerate(st.c) if cp != EMPTY)
        if not is_solution(puzzle, stars):  # cannot happen with sound, complete techniques
            raise AssertionError("logic solver finished with a non-solution")
        return LogicResult(True, GRADES[max(level, 1) - 1], max(level, 1), stars, st.c, counts, steps or [])
    return LogicResult(False, "fiendish" if max_level >= MAX_LEVEL else None, MAX_LEVEL + 1, None,
                       st.c, counts, steps or [])


def grade(puzzle: Puzzle) -> str:
    """The puzzle's grade: 'easy', 'medium', 'hard' (solved by the named techniques of
    that level), or 'fiendish' (they stall: search needed). Does not prove uniqueness
    for 'fiendish'; InvalidPuzzleError (a ValueError) for a contradictory puzzle."""
    r = solve_logic(puzzle, MAX_LEVEL)
    if r.contradiction:
        raise InvalidPuzzleError("the puzzle has no solution (the logic reaches a contradiction)")
    return r.grade
