"""Puzzle generation: complete starmap -> givens and blocked points -> proved unique -> graded.

Tatham style. From a seed (any text; turned into integers with ``hashlib`` only,
so the same seed gives the same puzzle on every machine):

1. a complete starmap on the board (:func:`_complete_starmap`);
2. a few blocked points among the empty points (drawn as neutral stones);
3. givens (stars of the solution with their patterns) are added in a seeded order
   until the logic solver at the target grade finishes, i.e. the solution is unique
   (for the top grade: until CP-SAT proves it unique);
4. then givens and blocked points are removed, one at a time in a seeded order,
   whenever the puzzle stays solvable at the target grade (top grade: stays
   unique by CP-SAT proof);
5. the result is graded; if the grade is not the target, the next attempt
   (``<seed>/1``, ``<seed>/2``...) starts over.

Every published puzzle is then proved unique by CP-SAT (:func:`prove_unique`) --
never by the logic solver alone -- and graded by :func:`szsolver.starmaps.logic.grade`.

IDs: ``<board>-<grade>-<seed>`` with board ``sz`` (Stars' Zone), ``sq8`` (8x8,
``sqN`` in general) or ``hex``, e.g. ``sz-hard-17``; :func:`puzzle_from_id`
rebuilds the puzzle from its ID.
"""
from __future__ import annotations

import json
import os
import pathlib
import re
from dataclasses import dataclass
from importlib.resources import files

from ..errors import InvalidPuzzleError, ParseError, UnsupportedError
from ..inputs import name_key, shown
from ..rules.base import ADVANCED, BASIC, rule_code
from ..rules.beams import sight_rays
from ..rules.bits import iter_bits, mask_of
from ..rules.geometry import Geometry, by_name
from ..rules.seeds import SplitMix64, puzzle_rng_v1, puzzle_seed_v1
from .ids import (BOARD_CODES, COLLECTION_PLAN, board_code, board_from_code, check_id,  # noqa: F401
                  make_id, parse_id, parse_id_rule)  # (parse_id*: also importable from here)
from .logic import GRADES, grade_level, solve_logic
from .model import Puzzle, is_solution, star_patterns

GENERATOR_VERSION = 2


# Generation's randomness (szsolver.rules.seeds): puzzle IDs are a pure function of
# these recipes, so they never change. The names here are the ones docs and tests use.
seed_int = puzzle_seed_v1   # a 64-bit integer from text parts, via sha256
Rng = SplitMix64            # splitmix64, independent of the random module
rng_for = puzzle_rng_v1     # Rng(seed_int(*parts))


# --- boards and IDs (their one home: szsolver.starmaps.ids) --------------------------------

def resolve_board(name) -> Geometry:
    """A board from a name (stars-zone, square-8, 8x8, hex) or an ID code (sz, sq8)."""
    if isinstance(name, Geometry):
        return name
    key = name_key(str(name))
    if key in BOARD_CODES or re.fullmatch(r"sq[0-9]+", key, re.ASCII):
        return board_from_code(key)
    try:
        g = by_name(key)
    except ValueError as e:
        raise ParseError(str(e)) from None
    if g.cell == "square" and g.name != "stars-zone":
        n = int(g.name.split("-")[1])
        if not 8 <= n <= 12:
            raise UnsupportedError(f"square board {n}x{n} is out of range 8..12 for puzzles")
    return g


# --- complete starmaps and CP-SAT (szsolver.starmaps.complete, szsolver.starmaps.sat) -----------

def _complete_starmap(g: Geometry, seed: int, blocked: int, rule: int) -> int:
    """A complete starmap (stars bitmask) avoiding ``blocked``, deterministic in ``seed``.

    Square-cell boards: own seeded hill climbing in pure Python (milliseconds), so a
    puzzle seed reproduces on any machine and does not change when the C search of
    :mod:`szsolver.starmaps.complete` is tuned. The hex board (64 stars) uses that C search
    (:func:`szsolver.starmaps.complete.complete_starmap`, also deterministic in its seed).
    """
    if g.n_patterns > 16:
        from .complete import complete_starmap
        return complete_starmap(g, seed=seed, rule=rule, blocked=blocked)
    rnd = SplitMix64(seed)
    free = [p for p in range(g.size) if not blocked >> p & 1]
    npat = g.n_patterns
    rays = sight_rays(g, blocked, rule == ADVANCED)
    for _restart in range(1000):
        stars = rnd.sample(free, npat)
        mask = mask_of(stars)
        cost = _dup_cost(g, rays, mask)
        it = 0
        while cost and it < 4000:
            it += 1
            i = rnd.below(npat)
            q = free[rnd.below(len(free))]
            if mask >> q & 1:
                continue
            new = mask ^ (1 << stars[i]) ^ (1 << q)
            c2 = _dup_cost(g, rays, new)
            if c2 <= cost or rnd.random() < 0.02:
                mask, cost = new, c2
                stars[i] = q
        if cost == 0:
            return mask
    raise RuntimeError(f"no complete starmap found on {g.name}")  # pragma: no cover


def _dup_cost(g, rays, mask) -> int:
    seen = set()
    for p in iter_bits(mask):
        pat = 0
        for d, r in enumerate(rays[p]):
            if r & mask:
                pat |= 1 << d
        seen.add(pat)
    return g.n_patterns - len(seen)


def prove_unique(puzzle: Puzzle, solution: int | None = None) -> int | None:
    """The unique solution (stars bitmask) proved by CP-SAT, or None (none or several).
    With ``solution`` known, one CP-SAT call proves no other exists."""
    from .sat import UNIQUE, is_unique, solve
    if solution is not None and is_solution(puzzle, solution):
        verdict = is_unique(puzzle, solution)
        if verdict is None:  # pragma: no cover - no time limit was given
            raise RuntimeError("CP-SAT stopped without a proof")
        return solution if verdict else None
    r = solve(puzzle, max_solutions=2)
    if r.status not in ("unique", "multiple", "none"):  # pragma: no cover
        raise RuntimeError("CP-SAT stopped without a proof")
    return r.solutions[0] if r.status == UNIQUE else None


# --- generation ---------------------------------------------------------------------------

@dataclass
class Generated:
    id: str
    puzzle: Puzzle
    solution: int
    grade: str
    seed: str
    attempts: int

    def to_json(self) -> dict:
        from .io import puzzle_to_json
        d = {"id": self.id, "grade": self.grade, "seed": self.seed,
             "generator": GENERATOR_VERSION}
        d.update(puzzle_to_json(self.puzzle, self.solution))
        return d


# blocked points first added (fraction of the empty points; more blocked points make
# the minimal puzzles that remain harder more often: measured on the Stars' Zone board)
_BLOCK_FRACTION = {"easy": 0.25, "medium": 0.25, "hard": 0.3, "fiendish": 0.4}


def _attempt(g: Geometry, target: str, seed: str, attempt: int, rule: int,
             progress=None) -> tuple[Puzzle, int, str] | None:
    rnd = puzzle_rng_v1("szsolver-puzzle", GENERATOR_VERSION, g.name, target, seed, attempt)
    level = grade_level(target)
    fixed = g.fixed_neutral_mask
    if rule == ADVANCED:
        # blocked points cut beams: choose them first, then a starmap complete with them
        # in place; they stay (removing one would change the patterns)
        free = [p for p in range(g.size) if not fixed >> p & 1]
        nblock = max(1, len(free) // 12)
        blocked = fixed | mask_of(rnd.sample(free, nblock))
        stars = _complete_starmap(g, rnd.next64(), blocked, rule)
        empties = []
        nblock = 0
    else:
        stars = _complete_starmap(g, rnd.next64(), fixed, rule)
        # blocked points: some empty points, removed again later if not needed
        empties = [p for p in range(g.size) if not (stars | fixed) >> p & 1]
        rnd.shuffle(empties)
        # (hex: few, each removal check costs a logic solve on 768 points)
        nblock = int(len(empties) * _BLOCK_FRACTION[target] * (0.1 if g.n_patterns > 16 else 1))
        blocked = fixed | mask_of(empties[:nblock])
    pats = star_patterns(g, stars, blocked, rule)
    order = sorted(pats)
    rnd.shuffle(order)
    def ok(pz: Puzzle) -> bool:
        """Still acceptable: solvable at the target level (top grade: the logic or,
        when it stalls, CP-SAT proves it unique)."""
        if level <= 2:
            return solve_logic(pz, level).solved
        if solve_logic(pz, 2).solved:
            return True
        if level == 3:
            return solve_logic(pz, 3).solved
        r = solve_logic(pz, 4)
        if r.solved:
            return True
        return not r.contradiction and prove_unique(pz, stars) is not None

    # 3. add givens until the medium logic finishes (so the solution is unique)
    add_level = min(level, 2)
    givens: list[tuple[int, int]] = []
    pz = Puzzle(g, blocked, (), rule)
    batch = 1 if g.n_patterns <= 16 else 4  # hex: check every 4 givens (removal trims)
    for i, p in enumerate(order):
        if i % batch == 0 and solve_logic(pz, add_level).solved:
            break
        givens.append((p, pats[p]))
        pz = Puzzle(g, blocked, tuple(givens), rule)
    # 4. remove redundant givens and blocked points while still acceptable
    removable = [("g", p) for p, _ in givens] + [("b", p) for p in empties[:nblock]]
    rnd.shuffle(removable)
    for k, (kind, p) in enumerate(removable):
        if kind == "g":
            trial = Puzzle(g, pz.blocked, tuple(gv for gv in pz.givens if gv[0] != p), rule)
        else:
            if rule != BASIC:
                continue
            trial = Puzzle(g, pz.blocked & ~(1 << p), pz.givens, rule)
        if ok(trial):
            pz = trial
        if progress:
            progress(f"attempt {attempt + 1}: {k + 1}/{len(removable)} clues tried for removal")
    got = solve_logic(pz, 4).grade
    return pz, stars, got


def check_offered(g, grade: str) -> None:
    """UnsupportedError for a grade the generator does not offer on board ``g`` (the
    large boards' hardest grades: too slow to generate), before any work."""
    target = GRADES[grade_level(grade) - 1]
    if g.n_patterns > 16 and grade_level(target) > 3:
        raise UnsupportedError(f"{target} puzzles on the {g.name} board are not offered "
                               "(too slow to generate): use easy, medium or hard")


def generate(board="stars-zone", grade: str = "medium", seed="0", rule=BASIC,
             max_attempts: int = 200, progress=None) -> Generated:
    """A puzzle of exactly ``grade`` on ``board``, deterministic in ``seed``, proved
    unique by CP-SAT. ``progress(msg)`` (optional) hears how far an attempt is.
    An InputError (a ValueError) for a bad board, grade or seed."""
    g = resolve_board(board)
    target = GRADES[grade_level(grade) - 1]
    seed = str(seed)
    if not re.fullmatch(r"[A-Za-z0-9_.:-]+", seed):
        raise ParseError(f"bad seed {shown(seed)}: use letters, digits and _.:-")
    rule_c = rule_code(rule)
    check_offered(g, target)
    for attempt in range(max_attempts):
        res = _attempt(g, target, seed, attempt, rule_c, progress)
        if res is None:
            continue
        pz, stars, got = res
        if got != target:
            continue
        sol = prove_unique(pz, stars)
        if sol is None:
            continue  # the logic solver is sound, so this means a bug; never publish
        if sol != stars or not is_solution(pz, sol):
            raise AssertionError("proved solution differs from the generating starmap")
        return Generated(make_id(g, target, seed, rule_c), pz, sol, target, seed, attempt + 1)
    raise RuntimeError(f"no {target} puzzle on {g.name} from seed {seed} in {max_attempts} attempts")


def puzzle_from_id(pid: str, progress=None) -> Generated:
    """The puzzle an ID names (``sz-hard-17``): from the published collection when it
    holds the ID, else generated afresh from the seed (same result). A mistyped ID
    (see :func:`szsolver.starmaps.ids.check_id`: a number past the collection, a date
    that does not exist, a grade that date does not have...) raises UnknownPuzzleError
    and never yields a different puzzle."""
    g, grade, seed, rule = check_id(pid)
    stored = collection_index().get(make_id(g, grade, seed, rule))
    if stored is not None:
        return stored
    return generate(g, grade, seed, rule=rule, progress=progress)


# --- the published collection (szsolver/puzzles/) ---------------------------------------------

def _collection_dir() -> str:
    # Package data of the puzzle room (szsolver.puzzles: its JSON files).
    return str(files("szsolver.puzzles"))


COLLECTION_DIR = _collection_dir()
COLLECTION_FORMAT = "szsolver-puzzle-collection"


def generated_from_json(d: dict) -> Generated:
    from .io import puzzle_and_solution_from_json
    pz, sol = puzzle_and_solution_from_json(d)
    return Generated(d["id"], pz, sol, d["grade"], str(d["seed"]), int(d.get("attempts", 0)))


def collection_files(directory: str | None = None) -> list:
    """The collection's JSON files (path-like, with ``read_text``), sorted by name: in
    ``directory``, or by default the installed package data ``szsolver.puzzles``
    (through importlib.resources, so an installed package reads its own copy)."""
    root = files("szsolver.puzzles") if directory is None else pathlib.Path(directory)
    if not root.is_dir():
        return []
    # the room also holds the endgame puzzles (endgame-*.json), which are not starmaps
    return sorted((f for f in root.iterdir()
                   if f.name.endswith(".json") and not f.name.startswith("endgame-")),
                  key=lambda f: f.name)


def load_collection(directory: str | None = None) -> list[Generated]:
    """Every puzzle of the collection in ``directory`` (default: the installed one)."""
    out = []
    for path in collection_files(directory):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != COLLECTION_FORMAT:
            raise InvalidPuzzleError(f"{path}: not a puzzle collection")
        out.extend(generated_from_json(d) for d in data["puzzles"])
    return out


_INDEX: dict | None = None


def collection_index() -> dict:
    global _INDEX
    if _INDEX is None:
        _INDEX = {gen.id: gen for gen in load_collection()}
    return _INDEX


def build_collection(directory: str | None = None, plan=COLLECTION_PLAN, log=print) -> None:
    """Regenerate the published collection: one file per (board, grade), seeds 1..count."""
    import time
    directory = directory or COLLECTION_DIR
    os.makedirs(directory, exist_ok=True)
    for board, grade, count, rule in plan:
        g = resolve_board(board)
        items = []
        for s in range(1, count + 1):
            t = time.perf_counter()
            gen = generate(g, grade, str(s), rule=rule)
            d = gen.to_json()
            d["attempts"] = gen.attempts
            items.append(d)
            log(f"{gen.id}: {len(gen.puzzle.givens)} givens, {gen.attempts} attempt(s), "
                f"{time.perf_counter() - t:.1f} s")
        code = board_code(g) + ("a" if rule_code(rule) == ADVANCED else "")
        path = os.path.join(directory, f"{code}-{grade}.json")
        from ..formats.sources import write_text_file
        write_text_file(path, json.dumps({"format": COLLECTION_FORMAT, "board": g.name,
                                          "grade": grade, "rule": rule,
                                          "generator": GENERATOR_VERSION, "puzzles": items},
                                         indent=1) + "\n")


def main(argv=None) -> None:
    """python -m szsolver.starmaps.generate [--board NAME] [DIR]: regenerate the published
    collection (or only one board's part of it)."""
    import argparse
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("dir", nargs="?", default=None)
    ap.add_argument("--board", default=None)
    ap.add_argument("--rule", default=None)
    a = ap.parse_args(argv)
    plan = COLLECTION_PLAN
    if a.board:
        name = resolve_board(a.board).name
        plan = [x for x in plan if resolve_board(x[0]).name == name]
    if a.rule:
        plan = [x for x in plan if x[3] == a.rule]
    build_collection(a.dir, plan)


if __name__ == "__main__":  # pragma: no cover
    main()
