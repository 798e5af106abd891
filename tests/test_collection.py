"""The published collection (puzzles/): every puzzle proved unique by CP-SAT, its stored
solution accepted by the independent checker, its stored grade equal to a fresh grading."""
import collections

import pytest

from szsolver.errors import UnknownPuzzleError
from szsolver.starmaps.generate import generate, load_collection, parse_id_rule
from szsolver.starmaps.logic import GRADES, grade, solve_logic
from szsolver.starmaps.io import puzzle_string
from szsolver.starmaps.model import is_solution, solution_problems
from szsolver.starmaps.sat import solve

COLLECTION = load_collection()
IDS = [gen.id for gen in COLLECTION]


def test_collection_size():
    per = collections.Counter((gen.puzzle.geometry.name, gen.grade) for gen in COLLECTION)
    for gr in GRADES:
        assert per["stars-zone", gr] >= 20
    assert sum(v for (b, _), v in per.items() if b == "square-8") >= 5
    assert sum(v for (b, _), v in per.items() if b == "hex-768") >= 1
    assert len(set(IDS)) == len(IDS)


@pytest.mark.parametrize("gen", COLLECTION, ids=IDS)
def test_published_puzzle(gen):
    g, gr, seed, rule = parse_id_rule(gen.id)
    assert (g.name, gr, seed, rule) == (gen.puzzle.geometry.name, gen.grade, gen.seed, gen.puzzle.rule)
    assert not solution_problems(gen.puzzle, gen.solution)
    r = solve(gen.puzzle)
    assert r.status == "unique" and r.solutions == [gen.solution]
    logic = solve_logic(gen.puzzle, truth=gen.solution)  # every step keeps the solution
    assert logic.grade == gen.grade == grade(gen.puzzle)
    assert logic.solved == (gen.grade != "fiendish") or logic.stars == gen.solution


@pytest.mark.parametrize("pid", ["sz-easy-1", "sz-medium-2", "sz-hard-3", "sz-fiendish-1", "sq8-hard-1",
                                 "sza-hard-1"])
def test_collection_regenerates_from_seed(pid):
    stored = next(gen for gen in COLLECTION if gen.id == pid)
    fresh = generate(stored.puzzle.geometry, stored.grade, stored.seed, rule=stored.puzzle.rule)
    assert puzzle_string(fresh.puzzle) == puzzle_string(stored.puzzle)
    assert fresh.solution == stored.solution and is_solution(fresh.puzzle, fresh.solution)


def test_ids_are_served_from_the_installed_collection(monkeypatch):
    """The collection ships as package data (szsolver.puzzles): an ID it holds loads from
    the file, never by regenerating (the generator is made to fail here)."""
    from importlib.resources import files

    from szsolver.starmaps import generate as generate_module
    names = sorted(f.name for f in files("szsolver.puzzles").iterdir() if f.name.endswith(".json"))
    assert "hex-easy.json" in names and "sz-fiendish.json" in names
    index = generate_module.collection_index()
    assert len(index) == len(COLLECTION) > 100

    def no_generation(*args, **kwargs):
        raise AssertionError("a collection ID was regenerated")

    monkeypatch.setattr(generate_module, "generate", no_generation)
    for pid in ("hex-easy-1", "sz-fiendish-24", "sza-medium-3", "sq8-hard-1"):
        gen = generate_module.puzzle_from_id(pid)
        assert gen is index[pid] and gen.id == pid and is_solution(gen.puzzle, gen.solution)
    with pytest.raises(AssertionError, match="regenerated"):
        generate_module.puzzle_from_id("sz-easy-x999")  # a generator seed: not in the collection
    with pytest.raises(UnknownPuzzleError, match="the published collection has sz-easy-1 .. sz-easy-24"):
        generate_module.puzzle_from_id("sz-easy-999")  # a number past the collection: no puzzle


def test_plan_matches_the_collection():
    """The numbers check_id accepts are exactly the collection's IDs (per board, rule and
    grade, seeds 1..count), so a number it lets through is always served from the files."""
    from szsolver.starmaps.ids import COLLECTION_PLAN, check_id, collection_count
    from szsolver.starmaps.generate import resolve_board
    planned = set()
    for board, grade, count, rule in COLLECTION_PLAN:
        g = resolve_board(board)
        assert collection_count(g, grade, rule) == count
        code = {"stars-zone": "sz", "square-8": "sq8", "hex-768": "hex"}[g.name]
        code += "a" if rule == "advanced" else ""
        planned |= {f"{code}-{grade}-{k}" for k in range(1, count + 1)}
        for bad in (0, count + 1):
            with pytest.raises(UnknownPuzzleError):
                check_id(f"{code}-{grade}-{bad}")
    assert planned == set(IDS)
    for pid in IDS:
        assert check_id(pid)[2] == pid.rsplit("-", 1)[1]
