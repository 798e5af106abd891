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
never by the logic solver alone -- and graded by :func:`szsolver.logic.grade`.

IDs: ``<board>-<grade>-<seed>`` with board ``sz`` (Stars' Zone), ``sq8`` (8x8,
``sqN`` in general) or ``hex``, e.g. ``sz-hard-17``; :func:`puzzle_from_id`
rebuilds the puzzle from its ID.
"""
from __future__ import annotations

import hashlib
import random
import re
import sys
from dataclasses import dataclass

from .geometry import STARS_ZONE, Geometry, by_name, hex_starmap, square
from .logic import GRADES, grade_level, solve_logic
from .reference import BASIC, RULE_NAMES
from .starmap import Puzzle, is_solution, star_patterns

GENERATOR_VERSION = 1


def seed_int(*parts) -> int:
    """A 64-bit integer from text parts, via sha256 (stable across machines and runs)."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def rng_for(*parts) -> random.Random:
    """random.Random seeded with an integer from :func:`seed_int` (integer seeding and
    the methods used here -- random(), randrange(), shuffle() -- are stable)."""
    return random.Random(seed_int(*parts))


# --- boards and IDs -----------------------------------------------------------------------

BOARD_CODES = {"sz": "stars-zone", "hex": "hex-768"}


def board_code(g: Geometry) -> str:
    if g.name == "stars-zone":
        return "sz"
    if g.name == "hex-768":
        return "hex"
    m = re.fullmatch(r"square-(\d+)", g.name)
    if m:
        return f"sq{m.group(1)}"
    raise ValueError(f"no puzzle ID code for board {g.name}")


def board_from_code(code: str) -> Geometry:
    if code == "sz":
        return STARS_ZONE
    if code == "hex":
        return hex_starmap()
    m = re.fullmatch(r"sq(\d+)", code)
    if m and 8 <= int(m.group(1)) <= 12:
        return square(int(m.group(1)))
    raise ValueError(f"unknown board code {code!r} in puzzle ID: use sz, sq8..sq12 or hex")


def resolve_board(name) -> Geometry:
    """A board from a name (stars-zone, square-8, 8x8, hex) or an ID code (sz, sq8)."""
    if isinstance(name, Geometry):
        return name
    key = str(name).strip().lower()
    if key in BOARD_CODES or re.fullmatch(r"sq\d+", key):
        return board_from_code(key)
    g = by_name(key)
    if g.cell == "square" and g.name != "stars-zone":
        n = int(g.name.split("-")[1])
        if not 8 <= n <= 12:
            raise ValueError(f"square board {n}x{n} is out of range 8..12 for puzzles")
    return g


def make_id(g: Geometry, grade: str, seed: str) -> str:
    return f"{board_code(g)}-{grade}-{seed}"


_ID_RE = re.compile(r"(sz|sq\d+|hex)-(easy|medium|hard|fiendish)-([A-Za-z0-9_.:-]+)")


def parse_id(pid: str) -> tuple[Geometry, str, str]:
    """(board, grade, seed) from an ID like ``sz-hard-17``; ValueError if malformed."""
    m = _ID_RE.fullmatch(str(pid).strip())
    if not m:
        raise ValueError(f"bad puzzle ID {pid!r}: expected BOARD-GRADE-SEED like sz-easy-7")
    return board_from_code(m.group(1)), m.group(2), m.group(3)


# --- complete starmaps and CP-SAT (H2a's modules when present) ----------------------------

def _complete_starmap(g: Geometry, seed: int, blocked: int, rule: int) -> int:
    """A complete starmap (stars bitmask) avoiding ``blocked``, deterministic in ``seed``.

    Own seeded hill climbing (pure Python, every step from one random.Random(int)),
    so that a puzzle seed reproduces on any machine independent of solver threads.
    """
    rnd = random.Random(seed)
    free = [p for p in range(g.size) if not blocked >> p & 1]
    npat = g.n_patterns
    rays = _eff_rays(g, blocked, rule)
    restarts = 0
    while True:
        stars = rnd.sample(free, npat)
        mask = sum(1 << p for p in stars)
        cost = _dup_cost(g, rays, mask)
        it = 0
        limit = 4000 if npat <= 16 else 400000
        while cost and it < limit:
            it += 1
            i = rnd.randrange(npat)
            q = free[rnd.randrange(len(free))]
            if mask >> q & 1:
                continue
            new = mask ^ (1 << stars[i]) ^ (1 << q)
            c2 = _dup_cost(g, rays, new)
            if c2 <= cost or rnd.random() < 0.02:
                mask, cost = new, c2
                stars[i] = q
        if cost == 0:
            return mask
        restarts += 1


def _eff_rays(g: Geometry, blocked: int, rule: int):
    out = []
    for p in range(g.size):
        per = []
        for ray in g.rays[p]:
            m = 0
            for q in ray:
                if blocked >> q & 1:
                    if rule != BASIC:
                        break
                    continue
                m |= 1 << q
            per.append(m)
        out.append(per)
    return out


def _dup_cost(g, rays, mask) -> int:
    seen = set()
    m = mask
    while m:
        low = m & -m
        p = low.bit_length() - 1
        m ^= low
        pat = 0
        for d, r in enumerate(rays[p]):
            if r & mask:
                pat |= 1 << d
        seen.add(pat)
    return g.n_patterns - len(seen)


def _cpsat_solutions(puzzle: Puzzle, max_solutions: int = 2) -> list[int]:
    """Up to ``max_solutions`` solutions by CP-SAT (starmap_sat.solve when H2a's module
    is there, else a minimal private model). No time limit: the answer is a proof."""
    try:
        from .starmap_sat import solve as sat_solve
    except ImportError:
        sat_solve = None
    if sat_solve is not None:
        r = sat_solve(puzzle, max_solutions=max_solutions)
        if r.status == "unknown":
            raise RuntimeError("CP-SAT returned unknown without a time limit")
        return list(r.solutions)
    return _private_solutions(puzzle, max_solutions)


def _private_solutions(puzzle: Puzzle, max_solutions: int) -> list[int]:
    from ortools.sat.python import cp_model
    g = puzzle.geometry
    rays = _eff_rays(g, puzzle.blocked, puzzle.rule)
    npat = g.n_patterns
    m = cp_model.CpModel()
    free = [p for p in range(g.size) if not puzzle.blocked >> p & 1]
    x = {p: m.NewBoolVar(f"x{p}") for p in free}
    given = dict(puzzle.givens)
    beam = {}
    for p in free:
        for d in range(g.n_directions):
            b = m.NewBoolVar("")
            qs = [x[q] for q in range(g.size) if rays[p][d] >> q & 1]
            if qs:
                m.AddMaxEquality(b, qs)
            else:
                m.Add(b == 0)
            beam[p, d] = b
    y = {}
    for p in free:
        ys = []
        for k in range(npat):
            if p in given and given[p] != k:
                continue
            v = m.NewBoolVar("")
            y[p, k] = v
            ys.append(v)
            for d in range(g.n_directions):
                m.AddImplication(v, beam[p, d] if k >> d & 1 else beam[p, d].Not())
        m.Add(sum(ys) == x[p])
        if p in given:
            m.Add(x[p] == 1)
    for k in range(npat):
        m.AddExactlyOne([y[p, k] for p in free if (p, k) in y])
    out = []
    while len(out) < max_solutions:
        s = cp_model.CpSolver()
        s.parameters.num_workers = 2
        st = s.Solve(m)
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if st != cp_model.INFEASIBLE:
                raise RuntimeError("CP-SAT gave no answer")
            break
        sol = sum(1 << p for p in free if s.Value(x[p]))
        out.append(sol)
        m.AddBoolOr([x[p].Not() if sol >> p & 1 else x[p] for p in free])
    return out


def prove_unique(puzzle: Puzzle) -> int | None:
    """The unique solution (stars bitmask) proved by CP-SAT, or None (none or several)."""
    sols = _cpsat_solutions(puzzle, 2)
    return sols[0] if len(sols) == 1 else None


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
        from .puzzle_io import puzzle_to_json
        d = {"id": self.id, "grade": self.grade, "seed": self.seed,
             "generator": GENERATOR_VERSION}
        d.update(puzzle_to_json(self.puzzle, self.solution))
        return d


# blocked points first added (fraction of the empty points; more blocked points make
# the minimal puzzles that remain harder more often: measured on the Stars' Zone board)
_BLOCK_FRACTION = {"easy": 0.25, "medium": 0.25, "hard": 0.3, "fiendish": 0.4}


def _attempt(g: Geometry, target: str, seed: str, attempt: int, rule: int,
             progress=None) -> tuple[Puzzle, int, str] | None:
    rnd = rng_for("szsolver-puzzle", GENERATOR_VERSION, g.name, target, seed, attempt)
    level = grade_level(target)
    fixed = g.fixed_neutral_mask
    stars = _complete_starmap(g, rnd.randrange(1 << 62), fixed, rule)
    # blocked points: some empty points, removed again later if not needed
    empties = [p for p in range(g.size) if not (stars | fixed) >> p & 1]
    rnd.shuffle(empties)
    nblock = int(len(empties) * _BLOCK_FRACTION[target])
    blocked = fixed | sum(1 << p for p in empties[:nblock])
    if rule != BASIC:
        # blocked points cut beams: the starmap must be complete with them in place
        pats = star_patterns(g, stars, blocked, rule)
        if len(set(pats.values())) != g.n_patterns:
            return None
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
        return not r.contradiction and prove_unique(pz) is not None

    # 3. add givens until the medium logic finishes (so the solution is unique)
    add_level = min(level, 2)
    givens: list[tuple[int, int]] = []
    pz = Puzzle(g, blocked, (), rule)
    for p in order:
        if solve_logic(pz, add_level).solved:
            break
        givens.append((p, pats[p]))
        pz = Puzzle(g, blocked, tuple(givens), rule)
    # 4. remove redundant givens and blocked points while still acceptable
    removable = [("g", p) for p, _ in givens] + [("b", p) for p in empties[:nblock]]
    rnd.shuffle(removable)
    for kind, p in removable:
        if kind == "g":
            trial = Puzzle(g, pz.blocked, tuple(gv for gv in pz.givens if gv[0] != p), rule)
        else:
            if rule != BASIC:
                continue
            trial = Puzzle(g, pz.blocked & ~(1 << p), pz.givens, rule)
        if ok(trial):
            pz = trial
        if progress:
            progress()
    got = solve_logic(pz, 4).grade
    return pz, stars, got


def generate(board="stars-zone", grade: str = "medium", seed="0", rule=BASIC,
             max_attempts: int = 200, progress=None) -> Generated:
    """A puzzle of exactly ``grade`` on ``board``, deterministic in ``seed``, proved
    unique by CP-SAT. ValueError for a bad board or grade."""
    g = resolve_board(board)
    target = GRADES[grade_level(grade) - 1]
    seed = str(seed)
    if not re.fullmatch(r"[A-Za-z0-9_.:-]+", seed):
        raise ValueError(f"bad seed {seed!r}: use letters, digits and _.:-")
    rule_c = rule if isinstance(rule, int) else RULE_NAMES.index(str(rule).lower())
    for attempt in range(max_attempts):
        res = _attempt(g, target, seed, attempt, rule_c, progress)
        if res is None:
            continue
        pz, stars, got = res
        if got != target:
            continue
        sol = prove_unique(pz)
        if sol is None:
            continue  # the logic solver is sound, so this means a bug; never publish
        if sol != stars or not is_solution(pz, sol):
            raise AssertionError("proved solution differs from the generating starmap")
        return Generated(make_id(g, target, seed), pz, sol, target, seed, attempt + 1)
    raise RuntimeError(f"no {target} puzzle on {g.name} from seed {seed} in {max_attempts} attempts")


def puzzle_from_id(pid: str) -> Generated:
    """Rebuild a puzzle from its ID (``sz-hard-17``): the collection in puzzles/ first,
    else generated afresh from the seed."""
    g, grade, seed = parse_id(pid)
    return generate(g, grade, seed)


if __name__ == "__main__":  # pragma: no cover
    import time
    for gr in GRADES:
        t = time.time()
        gen = generate("stars-zone", gr, sys.argv[1] if len(sys.argv) > 1 else "1")
        print(gr, gen.id, gen.attempts, len(gen.puzzle.givens), f"{time.time() - t:.2f}s")
