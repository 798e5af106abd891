"""The logic solver: sound deductions, grades, explanations."""
import random

import pytest

from szsolver.rules.geometry import STARS_ZONE, square
from szsolver.starmaps.logic import GRADES, TECHNIQUES, grade, grade_level, solve_logic
from szsolver.rules.base import ADVANCED, BASIC
from szsolver.starmaps.model import Puzzle, is_solution, star_patterns
from szsolver.starmaps.complete import complete_starmap
from szsolver.starmaps.sat import solve


def _random_puzzle(g, s, lo=5, hi=12, rule=BASIC):
    rnd = random.Random(s)
    if rule == ADVANCED:  # blocked points first: the starmap must be complete with them
        free = [p for p in range(g.size) if not g.fixed_neutral_mask >> p & 1]
        rnd.shuffle(free)
        blocked = g.fixed_neutral_mask | sum(1 << p for p in free[:rnd.randrange(1, 7)])
        stars = complete_starmap(g, seed=s, rule=ADVANCED, blocked=blocked)
    else:
        stars = complete_starmap(g, seed=s)
        empt = [p for p in range(g.size) if not (stars | g.fixed_neutral_mask) >> p & 1]
        rnd.shuffle(empt)
        blocked = g.fixed_neutral_mask | sum(1 << p for p in empt[:rnd.randrange(0, 10)])
    pats = star_patterns(g, stars, blocked, rule)
    items = sorted(pats.items())
    rnd.shuffle(items)
    return Puzzle(g, blocked, tuple(items[:rnd.randrange(lo, hi)]), rule), stars


@pytest.mark.parametrize("board,rule", [("sz", BASIC), ("sq8", BASIC), ("sz", ADVANCED)])
@pytest.mark.parametrize("s", range(10))
def test_no_technique_removes_a_solution(board, rule, s):
    """Soundness: on puzzles with few givens (often several solutions) every step of
    every technique, the contradiction step included, keeps the generating starmap."""
    g = STARS_ZONE if board == "sz" else square(8)
    pz, stars = _random_puzzle(g, 1000 + s, rule=rule)
    r = solve_logic(pz, 4, truth=stars)   # raises AssertionError naming an unsound step
    assert not r.contradiction
    if r.solved:
        assert r.stars == stars
        assert solve(pz).status == "unique"


@pytest.mark.parametrize("s", range(6))
def test_solved_means_unique_and_equal_to_cpsat(s):
    g = STARS_ZONE
    pz, stars = _random_puzzle(g, 2000 + s, 9, 13)
    r = solve_logic(pz, 4, truth=stars)
    sat = solve(pz)
    if r.solved:
        assert sat.status == "unique" and sat.solutions == [r.stars]
        assert is_solution(pz, r.stars)
    else:
        assert sat.status in ("unique", "multiple")


def test_grade_is_weakest_level_that_solves():
    from szsolver.starmaps.generate import generate
    for target in ("easy", "medium", "hard"):
        gen = generate("stars-zone", target, "t-logic")
        lvl = grade_level(gen.grade)
        assert solve_logic(gen.puzzle, lvl).solved
        if lvl > 1:
            assert not solve_logic(gen.puzzle, lvl - 1).solved


def test_contradictory_puzzle():
    g = STARS_ZONE
    stars = complete_starmap(g, seed=5)
    pats = star_patterns(g, stars, g.fixed_neutral_mask)
    (p, a), (q, b) = sorted(pats.items())[:2]
    bad = Puzzle(g, g.fixed_neutral_mask, ((p, b), (q, a)) if a != b else ((p, a),))
    if solve(bad).status == "none":
        r = solve_logic(bad)
        assert r.contradiction or not r.solved
    full = Puzzle(g, g.fixed_neutral_mask, tuple(pats.items()))
    assert grade(full) == "easy"


def test_grade_names():
    assert [grade_level(x) for x in GRADES] == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="unknown grade"):
        grade_level("impossible")


def test_explain_names_techniques():
    from szsolver.starmaps.generate import generate
    gen = generate("stars-zone", "medium", "t-explain")
    r = solve_logic(gen.puzzle, explain=True)
    names = {t[0] for t in TECHNIQUES} | {"contradiction"}
    assert r.steps and all(s.technique in names for s in r.steps)
    assert any("=> star" in s.text for s in r.steps)
