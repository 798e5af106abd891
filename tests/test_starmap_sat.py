"""The CP-SAT starmap solver against brute-force enumeration of star sets.

Every case counts the solutions exactly by trying every way to complete the
givens (checked by the independent pure-Python checker) and compares the count
with the solver's verdict (unique / multiple / none) and with its exhaustive
enumeration.
"""
import itertools

import pytest

from szsolver.rules.geometry import STARS_ZONE, Geometry, square
from szsolver.rules.base import ADVANCED, BASIC
from szsolver.starmaps.model import Puzzle, is_solution, solution_problems, star_patterns
from szsolver.starmaps.complete import complete_starmap
from szsolver.starmaps.sat import MULTIPLE, NONE, UNIQUE, other_solution, solve
from szsolver.rules.seeds import playout_rng_v1


rng = playout_rng_v1


def brute_force(puzzle):
    """All solutions, by trying every completion of the givens."""
    g = puzzle.geometry
    base = puzzle.given_mask
    free = [p for p in range(g.size) if not (puzzle.blocked | base) >> p & 1]
    need = puzzle.n_stars - len(puzzle.givens)
    out = []
    for extra in itertools.combinations(free, need):
        stars = base
        for p in extra:
            stars |= 1 << p
        if is_solution(puzzle, stars):
            out.append(stars)
    return out


def verdict(n):
    return NONE if n == 0 else UNIQUE if n == 1 else MULTIPLE


def check_against_brute_force(puzzle):
    sols = brute_force(puzzle)
    r = solve(puzzle)
    assert r.status == verdict(len(sols)), (puzzle, len(sols))
    assert r.proved
    for s in r.solutions:
        assert s in sols
    full = solve(puzzle, max_solutions=10_000)
    assert full.exhausted
    assert sorted(full.solutions) == sorted(sols)
    return len(sols)


def one_axis_board(rows, cols):
    """A rows x cols board with only left/right beams: 4 patterns, 4 stars."""
    coords = tuple((r, c) for r in range(1, rows + 1) for c in range(1, cols + 1))
    return Geometry(f"lr-{rows}x{cols}", coords, ((0, -1), (0, 1)), ("left", "right"))


@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
@pytest.mark.parametrize("shape", [(1, 4), (2, 3), (3, 3), (2, 5)])
def test_one_axis_boards_all_blocked_patterns(shape, rule):
    g = one_axis_board(*shape)
    r = rng("one-axis", shape, rule)
    counts = set()
    for _ in range(6):
        blocked = sum(1 << p for p in range(g.size) if r.random() < 0.25)
        counts.add(check_against_brute_force(Puzzle(g, blocked=blocked, rule=rule)))
    assert counts  # the enumeration ran


def test_one_axis_counts_by_hand():
    # 1 x 4 row: the four stars fill it, but then two are "middle": no starmap.
    assert solve(Puzzle(one_axis_board(1, 4))).status == NONE
    # 2 x 3: one full row (first, middle, last) + one lone star on the other row: 3 ways.
    full = solve(Puzzle(one_axis_board(2, 3)), max_solutions=100)
    assert full.exhausted and len(full.solutions) == 2 * 3


def perturbed_puzzles(g, seed, rule, n_unknown, n_cases):
    """Puzzles made from complete starmaps that avoid some random blocked points:
    a few stars left unknown, now and then a given's pattern altered."""
    r = rng("perturbed", g.name, seed, rule)
    out = []
    for case in range(n_cases):
        blocked = g.fixed_neutral_mask
        for p in range(g.size):
            if r.random() < 0.12:
                blocked |= 1 << p
        stars = complete_starmap(g, (seed, case), rule=rule, blocked=blocked)
        known = sorted(star_patterns(g, stars, blocked, rule).items())
        r.shuffle(known)
        givens = known[n_unknown:]
        if r.random() < 0.3:  # alter one given's pattern to an unused one
            used = {t for _, t in givens}
            free_pats = [t for t in range(g.n_patterns) if t not in used]
            q, _t = givens[0]
            givens[0] = (q, r.choice(free_pats))
        out.append(Puzzle(g, blocked=blocked, givens=tuple(givens), rule=rule))
    return out


@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
@pytest.mark.parametrize("board", ["square-8", "stars-zone"])
def test_square_boards_against_brute_force(board, rule):
    from szsolver.rules.geometry import by_name
    g = by_name(board)
    seen = set()
    for seed in range(3):
        for p in perturbed_puzzles(g, seed, rule, n_unknown=2, n_cases=3):
            seen.add(verdict(check_against_brute_force(p)))
    assert seen  # at least one verdict compared


def test_verdicts_cover_all_three():
    """Across the brute-force cases all three verdicts occur (the comparison is not vacuous)."""
    g = STARS_ZONE
    seen = set()
    for rule in (BASIC, ADVANCED):
        for seed in range(4):
            for p in perturbed_puzzles(g, seed, rule, n_unknown=3, n_cases=2):
                seen.add(verdict(check_against_brute_force(p)))
    assert seen == {UNIQUE, MULTIPLE, NONE}


def test_hex_one_unknown_star():
    from szsolver.rules.geometry import hex_starmap
    g = hex_starmap()
    stars = complete_starmap(g, 3)
    pats = sorted(star_patterns(g, stars).items())
    p = Puzzle(g, givens=tuple(pats[1:]))
    check_against_brute_force(p)


def test_full_givens_are_unique_and_other_solution():
    g = square(8)
    stars = complete_starmap(g, 11)
    p = Puzzle(g, givens=tuple(star_patterns(g, stars).items()))
    r = solve(p)
    assert r.status == UNIQUE and r.solutions == [stars]
    assert other_solution(p, stars) == (True, None)
    empty = Puzzle(g)
    ok, other = other_solution(empty, stars)
    assert ok is False and other != stars and not solution_problems(empty, other)


def test_too_small_board_has_no_starmap():
    for n in (5, 6, 7):
        assert solve(Puzzle(square(n))).status == NONE


def test_solutions_reproducible():
    p = Puzzle(STARS_ZONE, blocked=STARS_ZONE.fixed_neutral_mask)
    a = solve(p, max_solutions=1)
    b = solve(p, max_solutions=1)
    assert a.solutions == b.solutions and a.status == "found"
