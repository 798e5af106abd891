"""Complete starmaps (every pattern once, no givens) on any board.

:func:`complete_starmap` runs the C-level local search of :mod:`szsolver.starmaps._complete`
(min-conflicts with a tabu list; see there), seeded deterministically from
``hashlib`` so the same arguments always give the same starmap; each attempt has
a step budget, and further attempts use seeds derived from the first. Every
starmap is verified by :func:`szsolver.starmaps.model.solution_problems` (and
:func:`~szsolver.starmaps.model.is_good_form` when asked) before it is returned. When
the local search cannot find one (a board too small, too many blocked points),
CP-SAT decides: it either finds one or proves there is none.

>>> from szsolver.rules.geometry import square
>>> from szsolver.starmaps.model import Puzzle, is_solution
>>> g = square(8)
>>> stars = complete_starmap(g, seed=1)
>>> is_solution(Puzzle(g), stars), stars == complete_starmap(g, seed=1)
(True, True)
"""
from __future__ import annotations

import time
from functools import lru_cache

from ..errors import InvalidPuzzleError, UnsupportedError
from ..limits import check_seconds
from ..rules.base import ADVANCED, BASIC, RULE_NAMES, rule_code
from ..rules.beams import sight_lines
from ..rules.bits import mask_of
from ..rules.geometry import Geometry
from ..rules.seeds import starmap_seed_v1
from .model import Puzzle, is_good_form, solution_problems


class NoStarmap(InvalidPuzzleError):
    """Proved: no complete starmap exists under these conditions (a ValueError)."""


# A non-zero 64-bit seed from any printable parts (hashlib, never hash()); hex
# puzzle IDs depend on it, see szsolver.rules.seeds.starmap_seed_v1.
derive_seed = starmap_seed_v1


def axes(g: Geometry) -> list[tuple[int, int]]:
    """(forward, backward) direction pairs, forward the lower pattern bit."""
    return [(d, g.opposite[d]) for d in range(g.n_directions) if d < g.opposite[d]]


@lru_cache(maxsize=64)
def _tables(g: Geometry, rule: int, blocked: int):
    """Flat tables for the C search: segments (lines of sight) per axis, positions,
    candidate points, adjacency and line coordinates."""
    blocked |= g.fixed_neutral_mask
    lines = sight_lines(g, blocked, rule == ADVANCED)
    n = g.size
    ax = axes(g)
    seg = [-1] * (len(ax) * n)
    pos = [0] * (len(ax) * n)
    lc = [0] * (len(ax) * n)
    segcells = []
    for a, (f, _b) in enumerate(ax):
        dr, dc = g.directions[f]
        for p, (r, c) in enumerate(g.coords):
            lc[a * n + p] = r * dc - c * dr
        for line in lines[f]:
            if len(line) > 63:
                raise UnsupportedError(f"a line of {len(line)} points is too long for the local search")
            for k, p in enumerate(line):
                seg[a * n + p] = len(segcells)
                pos[a * n + p] = k
            segcells.append(list(line))
    cand = [p for p in range(n) if not blocked >> p & 1]
    nbr_start = [0]
    nbr = []
    for p in range(n):
        nbr.extend(g.neighbours[p])
        nbr_start.append(len(nbr))
    return n, len(ax), seg, pos, segcells, [f for f, _ in ax], [b for _, b in ax], cand, \
        nbr_start, nbr, lc


def _steps_budget(g: Geometry) -> tuple[int, int]:
    """(steps per attempt, stall length before a restart)."""
    if g.n_patterns > 16:
        return 50_000, 5_000
    return 20_000, 2_000


def complete_starmap(geometry: Geometry, seed=0, good_form: bool = False, rule=BASIC,
                     blocked: int = 0, time_limit: float | None = None,
                     max_attempts: int = 40, stats: dict | None = None, progress=None) -> int:
    """A complete starmap (star bitmask) on ``geometry``: every pattern once,
    stars off ``blocked`` (and off the board's fixed neutral points), beams cut by
    blocked points under ``rule=ADVANCED``. ``good_form``: no two stars adjacent and
    the all-blank star inside the constellation (see
    :func:`~szsolver.starmaps.model.is_good_form`). Deterministic in its arguments.

    Raises :class:`NoStarmap` (a ValueError) when CP-SAT proves none exists and
    ``TimeoutError`` when ``time_limit`` runs out first (checked between attempts
    of the local search, each a few seconds at most); a limit that is not a positive
    finite number is UnsupportedError. ``progress(msg)`` hears about each failed
    attempt."""
    check_seconds(time_limit)
    try:
        from . import _complete as _starmap
    except ImportError:  # the C extension is not built
        raise UnsupportedError("the complete starmap search needs the compiled extension: "
                               "pip install . (needs a C compiler)") from None
    rule = rule_code(rule)
    g = geometry
    given = blocked & ~g.fixed_neutral_mask      # the caller's own blocked points
    blocked = blocked | g.fixed_neutral_mask
    t0 = time.perf_counter()
    puzzle = Puzzle(g, blocked=blocked, rule=rule)  # checks the blocked points first
    tables = _tables(g, rule, blocked)
    steps, stall = _steps_budget(g)
    st = stats if stats is not None else {}
    st.update(attempts=0, steps=0, restarts=0, method="local")
    for attempt in range(max_attempts):
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            raise TimeoutError(f"no starmap within {time_limit} s")
        s64 = starmap_seed_v1("starmap", g.name, RULE_NAMES[rule], blocked, int(good_form), seed, attempt)
        stars, n_steps, restarts = _starmap.search(*tables, int(good_form), s64, steps, stall)
        st["attempts"] += 1
        st["steps"] += n_steps
        st["restarts"] += restarts
        if stars is None:
            if len(tables[7]) < g.n_patterns:
                break
            if progress:
                progress(f"{g.name}: attempt {attempt + 1} found nothing in {n_steps} steps,"
                         f" {time.perf_counter() - t0:.1f} s so far")
            continue
        mask = mask_of(stars)
        problems = solution_problems(puzzle, mask)
        if problems:  # pragma: no cover - would be a bug in the C search
            raise RuntimeError(f"local search produced a wrong starmap: {problems[0]}")
        if good_form and not is_good_form(g, mask, blocked, rule):  # pragma: no cover
            raise RuntimeError("local search produced a starmap not in good form")
        st["seconds"] = time.perf_counter() - t0
        return mask
    # the local search gave up: let CP-SAT decide
    st["method"] = "cp-sat"
    from .sat import StarmapModel
    left = None if time_limit is None else max(0.01, time_limit - (time.perf_counter() - t0))
    model = StarmapModel(puzzle)
    if good_form:
        _add_good_form(model)
    from ..cpsat import cp_model
    status, mask, _s = model.solve_once(left, workers=1, seed=starmap_seed_v1("sat", seed) % (2 ** 31))
    if status == cp_model().INFEASIBLE:
        raise NoStarmap(f"no complete starmap on {g.name}"
                        + (" with these blocked points" if given else "")
                        + f" ({RULE_NAMES[rule]} rule{', good form' if good_form else ''}): "
                          "proved")
    if mask is None:
        raise TimeoutError(f"no starmap within {time_limit} s")
    assert not solution_problems(puzzle, mask)
    if good_form:
        assert is_good_form(g, mask, blocked, rule)
    st["seconds"] = time.perf_counter() - t0
    return mask


def _add_good_form(model) -> None:
    """Good form as CP-SAT constraints: no adjacent stars; the all-blank star strictly
    inside the others along every axis."""
    g = model.puzzle.geometry
    m = model.model
    x = model.x
    for p in x:
        for q in g.neighbours[p]:
            if q > p and q in x:
                m.add_bool_or([x[p].Not(), x[q].Not()])
    for a, (f, _b) in enumerate(axes(g)):
        dr, dc = g.directions[f]
        coord = {p: r * dc - c * dr for p, (r, c) in enumerate(g.coords)}
        for p in x:
            y = model.y.get((p, 0))
            if y is None:
                continue
            below = [x[q] for q in x if coord[q] < coord[p]]
            above = [x[q] for q in x if coord[q] > coord[p]]
            m.add_bool_or(below or [y.Not()]).only_enforce_if(y)
            m.add_bool_or(above or [y.Not()]).only_enforce_if(y)
