"""The CP-SAT model's parts that make the potential fast (szsolver.bounds.model): the
bit-mask scorer, the local search, the complete hint and the balance constraints.

Truth comes from the rules' beam walk (score_of, rules/beams.py) and from the model
as it was before these parts (``balance=False, presolve=True``, no search), itself
checked against brute force in tests/test_potential.py.
"""
import pytest

from szsolver.bounds import bounds as B, model as M, potential as P
from szsolver.rules.base import ADVANCED, BASIC, RED, BLUE
from szsolver.rules.bits import bit_list
from szsolver.rules.geometry import STARS_ZONE, hex_starmap, square
from szsolver.rules.reference import Position
from szsolver.rules.seeds import playout_rng_v1


def uniform_play(rule, rounds, seed) -> Position:
    """Uniformly random legal play (every legal turn equally likely), neutral supplies
    0..7 per side, stopped after ``rounds`` rounds: the benchmark's recipe."""
    rng = playout_rng_v1("test_bounds_model", rule, rounds, seed)
    p = Position(red_neutrals=rng.randint(0, 7), blue_neutrals=rng.randint(0, 7), rule=rule)
    for _ in range(2 * rounds):
        p.play(rng.choice(sorted(p.legal_turns())))
    return p


def old_potential(pos, side) -> int:
    """The potential by the model as it was before the balance constraints and the
    local search (presolve on, no hint)."""
    _side, _k, _allowance, args = M.model_args(pos, side, "own")
    r = M.Model(*args, balance=False, presolve=True).solve()
    assert r["proven"]
    return r["value"]


@pytest.mark.parametrize("geometry", [STARS_ZONE, square(5), hex_starmap()],
                         ids=["stars-zone", "square5", "hex"])
def test_fast_score_equals_the_rules_walk(geometry):
    rng = playout_rng_v1("fast score", geometry.name)
    points = list(range(geometry.size))
    for advanced in (False, True):
        for _ in range(400):
            rng.shuffle(points)
            n = rng.randint(0, min(12, geometry.size // 3))
            own, neutral, stones, neutrals = (sum(1 << q for q in points[a:b]) for a, b in
                                              ((0, n), (n, n + 3), (n + 3, 2 * n + 3),
                                               (2 * n + 3, 2 * n + 5)))
            fast = M.FastScore(geometry, own, neutral, advanced)
            assert fast(stones, neutrals) == M.score_of(geometry, own | stones,
                                                        neutral | neutrals, advanced)


@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
def test_local_search_gives_a_legal_placement_at_its_true_score(rule):
    for rounds in (2, 5, 9, 13):
        pos = uniform_play(rule, rounds, 1)
        for side in (RED, BLUE):
            _side, k, _allowance, args = M.model_args(pos, side, "own")
            g, own, neutral, avail, stones, allowance, advanced = args
            v, st, nt = M.local_search(*args, target=16)
            assert (v, st, nt) == M.local_search(*args, target=16)     # deterministic
            assert len(bit_list(st)) == k and st & ~avail == 0
            assert nt & ~avail == 0 and nt & st == 0
            assert len(bit_list(nt)) <= allowance and (advanced or nt == 0)
            assert v == M.score_of(g, own | st, neutral | nt, advanced)
            # every new neutral separates two own stones (the model requires it)
            assert M.useful_neutrals(g, own | st, neutral, nt) == nt


@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
def test_complete_hint_is_a_solution_at_the_true_score(rule, monkeypatch):
    """With every variable fixed to the complete hint, CP-SAT still finds a solution and
    its objective is the placement's true score: the hint is feasible and exact."""
    monkeypatch.setitem(M.EXTRA_PARAMETERS, "fix_variables_to_their_hinted_value", True)
    for rounds in (3, 8, 12):
        pos = uniform_play(rule, rounds, 2)
        for side in (RED, BLUE):
            _side, k, _allowance, args = M.model_args(pos, side, "both")
            g, own, neutral, avail, stones, allowance, advanced = args
            rng = playout_rng_v1("hint", rule, rounds, side)
            model = M.Model(*args)
            for _ in range(5):
                st = sum(1 << q for q in rng.sample(bit_list(avail), k))
                cuts = [q for q in sorted(model.nv) if not st >> q & 1]
                nt = sum(1 << q for q in rng.sample(cuts, min(len(cuts), allowance)))
                nt = M.useful_neutrals(g, own | st, neutral, nt)
                r = model.solve(hint=(st, nt))
                assert r["proven"] and (r["stones"], r["neutrals"]) == (st, nt)
                assert r["value"] == r["bound"] == M.score_of(g, own | st, neutral | nt,
                                                              advanced)


@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
def test_new_model_agrees_with_the_old_one_on_random_play(rule):
    """The balance constraints, presolve off and the search never change a value: a
    sample of uniformly random positions, every stage of the game (the benchmark
    compares all its positions the same way)."""
    for rounds in range(4, 16, 2):
        pos = uniform_play(rule, rounds, 3)
        for side in (RED, BLUE):
            r = P.potential(pos, side)
            assert r.proven
            assert r.potential == old_potential(pos, side), (rounds, side)
            own = pos.stones(side) | sum(1 << q for q in r.placement)
            assert r.potential == M.score_of(pos.geometry, own,
                                             pos.neutral | sum(1 << q for q in r.neutrals),
                                             rule == ADVANCED)


def test_balance_alone_keeps_every_value():
    """Each new part on its own (the balance with presolve on, presolve off without the
    balance) gives the old model's value."""
    for rule in (BASIC, ADVANCED):
        for rounds in (6, 10):
            pos = uniform_play(rule, rounds, 4)
            for side in (RED, BLUE):
                _side, _k, _allowance, args = M.model_args(pos, side, "own")
                want = old_potential(pos, side)
                for balance, presolve in ((True, True), (False, False), (True, False)):
                    r = M.Model(*args, balance=balance, presolve=presolve).solve()
                    assert r["proven"] and r["value"] == want, (rule, rounds, side)


def test_a_hard_position_of_random_play():
    """Basic, 10 stones to place, potential 14: the balance of first and last stones
    proves it at once (the old model needed seconds of search). Blue's (7,2) and (8,3)
    both show (first along its row, last along its column) whatever comes."""
    from szsolver.formats.notation import parse_position
    pos = parse_position("N./....../....RN./..N...../..N.N...R/B..R.NR./BB....B/RB...B/RR "
                         "B 6 1 basic", backend=Position)
    r = P.potential(pos, BLUE)
    assert (r.potential, r.proven, r.stones_left) == (14, True, 10)
    assert B.score_bound(pos, BLUE) == 14
    assert M.score_of(pos.geometry, pos.blue | sum(1 << q for q in r.placement), 0,
                      False) == 14


def test_every_pattern_found_by_the_search_needs_no_solve(monkeypatch):
    """Early in a game the search usually shows all 16 patterns: then no CP-SAT solve
    runs and the answer is proven (16 is the most there is)."""
    solves = []
    real = M.Model.solve

    def counting(self, *a, **k):
        solves.append(1)
        return real(self, *a, **k)
    monkeypatch.setattr(M.Model, "solve", counting)
    shortcuts = 0
    for seed in range(6):
        pos = uniform_play(BASIC, 2, seed)
        _side, _k, _allowance, args = M.model_args(pos, RED, "own")
        found = M.local_search(*args, target=16)[0] == 16
        solves.clear()
        r = P.potential(pos, RED)
        assert (r.potential, r.upper_bound, r.proven) == (16, 16, True)
        assert bool(solves) != found
        shortcuts += found
        own = pos.red | sum(1 << q for q in r.placement)
        assert M.score_of(pos.geometry, own, pos.neutral, False) == 16
    assert shortcuts >= 3


def test_a_time_limit_keeps_the_best_placement_found():
    """A limit that strikes before CP-SAT has a solution of its own still answers with
    the local search's placement (at its true score, never a worse arbitrary one) and a
    proved bound: found <= the exact value (no limit) <= bound."""
    from szsolver.formats.notation import parse_position
    hard = parse_position("N./....../....RN./..N...../..N.N...R/B..R.NR./BB....B/RB...B/RR "
                          "B 6 1 basic", backend=Position)
    cases = [(hard, BLUE)] + [(uniform_play(rule, rounds, 5), side)
                              for rule in (BASIC, ADVANCED) for rounds in (5, 9)
                              for side in (RED, BLUE)]
    for pos, side in cases:
        _side, k, _allowance, args = M.model_args(pos, side, "own")
        g, own, neutral, avail, stones, allowance, advanced = args
        searched = M.local_search(*args, target=16)
        exact = P.potential(pos, side).potential
        for limit in (1e-9, 1e-3):
            r = P.potential(pos, side, time_limit=limit)
            assert len(r.placement) == k and len(r.neutrals) <= allowance
            assert r.potential == M.score_of(g, own | sum(1 << q for q in r.placement),
                                             neutral | sum(1 << q for q in r.neutrals),
                                             advanced)
            assert searched[0] <= r.potential <= exact <= r.upper_bound
        # the model alone, its limit striking at once: the hint comes back
        st, nt = searched[1:]
        r = M.Model(*args).solve(time_limit=1e-9, hint=(st, nt))
        assert r["value"] >= searched[0] and r["bound"] >= exact
        assert r["value"] == M.score_of(g, own | r["stones"], neutral | r["neutrals"],
                                        advanced)


def _brute_potential(pos, side) -> int:
    """Max of the reference rules' score over every placement of the side's remaining
    stones (and, Advanced, up to min(stones, neutrals left) of its neutrals)."""
    import itertools
    own = pos.stones(side)
    k = pos.stones_per_side - own.bit_count()
    empties = bit_list(pos.empty)
    allow = min(k, pos.neutrals_left(side)) if pos.rule == ADVANCED else 0
    best = -1
    q = pos.copy()
    for xs in itertools.combinations(empties, k):
        stones = own | sum(1 << p for p in xs)
        rest = [p for p in empties if p not in xs]
        for j in range(allow + 1):
            for ys in itertools.combinations(rest, j):
                if side == RED:
                    q.red = stones
                else:
                    q.blue = stones
                q.neutral = pos.neutral | sum(1 << p for p in ys)
                best = max(best, q.score(side))
    return best


@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
def test_potential_matches_brute_force_on_uniform_play(rule):
    """The benchmark's recipe near the end (random neutral supplies, neutrals placed at
    random): the potential equals the exhaustive maximum by the reference rules."""
    checked = 0
    for rounds in ((13, 14, 15) if rule == BASIC else (14, 15)):
        for seed in range(3):
            pos = uniform_play(rule, rounds, 10 + seed)
            for side in (RED, BLUE):
                r = P.potential(pos, side)
                assert r.proven and r.potential == _brute_potential(pos, side), \
                    (rounds, seed, side)
                checked += 1
    assert checked >= 12


def test_a_potential_the_search_settles_never_loads_or_tools():
    """Both sides show all 16 patterns by the local search: the answer needs no CP-SAT,
    and OR-Tools (most of the command's start-up) is not even imported."""
    import subprocess
    import sys
    text = "../....../R.NB.../......NB/....NN.../......../......./N...R./.. R 4 3 basic"
    from szsolver.formats.notation import parse_position
    pos = parse_position(text, backend=Position)
    for side in (RED, BLUE):
        assert M.local_search(*M.model_args(pos, side, "own")[3], target=16)[0] == 16
    code = ("import sys\n"
            "from szsolver.formats.notation import parse_position\n"
            "from szsolver.bounds.potential import potential\n"
            f"pos = parse_position({text!r})\n"
            "r = [potential(pos, s) for s in (0, 1)]\n"
            "print([(x.potential, x.proven) for x in r], 'ortools' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["[(16,", "True),", "(16,", "True)]", "False"]


def test_a_work_limit_gives_the_same_bounds_under_any_load(monkeypatch):
    """CP-SAT stopped by work (its deterministic time), as the engine and ``annotate``
    stop it, gives the same bounds on an idle machine and with both cores busy (a
    wall-clock limit gave looser floors under load). Some solves are stopped, and the
    bounds hold: inside the unlimited ones."""
    import subprocess
    import sys
    from szsolver.bounds.value import score_bounds
    from szsolver.formats.notation import parse_position
    pos = parse_position(".R/...R../.....R./....N.../R...N..../B.B.B.../.R....B/..R..B/.. "
                         "B 0 4 advanced")
    proven = []
    real = M.Model.solve

    def spy(self, *args, **kw):
        r = real(self, *args, **kw)
        proven.append(r["proven"])
        return r
    monkeypatch.setattr(M.Model, "solve", spy)
    quiet = score_bounds(pos, work_limit=0.1)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)]
    try:
        loaded = score_bounds(pos, work_limit=0.1)
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    assert loaded == quiet
    assert proven.count(False) >= 2
    exact = score_bounds(pos)
    for side in ("red", "blue"):
        assert quiet[side][0] <= exact[side][0] <= exact[side][1] <= quiet[side][1]
