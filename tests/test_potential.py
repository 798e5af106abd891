"""CP-SAT potential and score bounds (szsolver.bounds) against brute force.

Brute force here uses only the reference rules (szsolver.rules.reference.Position:
legal_turns, make/unmake, score), never the CP-SAT model, so the two are
independent. Positions come from the rulebook example game and from random legal
play with neutral use (seeds from hashlib).
"""
import itertools
import json

import pytest

from szsolver.bounds import bounds as B, model as M, potential as P, render as R
from szsolver.rules.geometry import STARS_ZONE
from szsolver.formats.notation import parse_turn, position_string
from szsolver.rules.playout import random_play as play_randomly
from szsolver.rules.base import ADVANCED, BASIC, BLUE, RED
from szsolver.rules.reference import Position
from szsolver.rules.seeds import playout_rng_v1

EXAMPLE = ["44n66 64", "41 54", "14 28", "34n24 84", "96 95", "46n85 65", "74 76", "86 87",
           "72 82", "52 51", "36 62", "45n25 73n32", "58 42n75", "59 78n35", "38 48", "27 69"]


def example_after(turns: int, rule=BASIC, neutrals=5) -> Position:
    """The rulebook example game after ``turns`` turns (not rounds), any rule."""
    p = Position(red_neutrals=neutrals, blue_neutrals=neutrals, rule=rule)
    flat = [t for r in EXAMPLE for t in r.split()]
    for t in flat[:turns]:
        p.play(parse_turn(t))
    return p


_rng = playout_rng_v1


def random_play(p: Position, turns: int, seed, p_neutral=0.35) -> Position:
    """A copy of ``p`` after ``turns`` random legal turns (a neutral with probability p_neutral)."""
    p = p.copy()
    play_randomly(p, turns, _rng("random_play", seed), p_neutral)
    return p


def _score(p: Position, side, own, neutral) -> int:
    q = p.copy()
    if side == RED:
        q.red = own
    else:
        q.blue = own
    q.neutral = neutral
    return q.score(side)


def brute_potential(p: Position, side) -> int:
    """Max final score over the side's own placements (stones, and under the
    Advanced rule up to min(stones, neutrals left) of its neutrals), opponent idle."""
    own = p.stones(side)
    k = p.stones_per_side - own.bit_count()
    empties = [q for q in range(p.geometry.size) if p.empty >> q & 1]
    allow = min(k, p.neutrals_left(side)) if p.rule == ADVANCED else 0
    best = -1
    for xs in itertools.combinations(empties, k):
        o = own | sum(1 << q for q in xs)
        rest = [q for q in empties if q not in xs]
        for j in range(allow + 1):
            for ys in itertools.combinations(rest, j):
                best = max(best, _score(p, side, o, p.neutral | sum(1 << q for q in ys)))
    return best


def brute_max_final(p: Position, side, first_stone=None, pick=max) -> int:
    """Max (or ``pick=min``) over ALL continuations to the end of the game of the
    side's final score (real turns: legal_turns/make/unmake; memo on the full state)."""
    memo = {}
    scores = {}

    def rec(pos):
        if pos.is_over():
            key = (pos.stones(side), pos.neutral)
            if key not in scores:
                scores[key] = pos.score(side)
            return scores[key]
        key = (pos.red, pos.blue, pos.neutral, pos.red_neutrals, pos.blue_neutrals, pos.side)
        if key in memo:
            return memo[key]
        best = pick(rec_child(pos, t) for t in pos.legal_turns())
        memo[key] = best
        return best

    def rec_child(pos, t):
        pos.make(t)
        v = rec(pos)
        pos.unmake(t)
        return v

    q = p.copy()
    if first_stone is None:
        return rec(q)
    best = -1
    for t in q.legal_turns():
        if t & 63 == first_stone:
            q.make(t)
            best = max(best, rec(q))
            q.unmake(t)
    return best


def _room(p: Position) -> bool:
    """Enough empty points for every stone and neutral still to come (the
    condition under which score_bound is attained)."""
    ks = [p.stones_per_side - p.stones(s).bit_count() for s in (RED, BLUE)]
    cuts = sum(min(ks[s], p.neutrals_left(s)) for s in (RED, BLUE)) if p.rule == ADVANCED else 0
    return p.empty.bit_count() >= ks[0] + ks[1] + cuts


# --- potential vs brute force -----------------------------------------------------------

def potential_cases():
    cases = []
    for rule in (BASIC, ADVANCED):
        for turns in (27, 28, 29, 30, 31):
            cases.append((f"example-{turns}-{'ba'[rule]}", example_after(turns, rule)))
        for seed in range(4):
            start = example_after(20, rule)
            cases.append((f"rand{seed}-{'ba'[rule]}", random_play(start, 8 + seed % 3, seed)))
    return cases


@pytest.mark.parametrize("name,pos", potential_cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_potential_matches_brute_force(name, pos):
    for side in (RED, BLUE):
        k = pos.stones_per_side - pos.stones(side).bit_count()
        if pos.rule == ADVANCED and k > 2 or k > 3:
            continue
        r = P.potential(pos, side)
        assert r.proven
        assert r.potential == brute_potential(pos, side), (name, side)
        assert len(r.placement) == k
        # the placement really scores the potential
        own = pos.stones(side) | sum(1 << q for q in r.placement)
        neutral = pos.neutral | sum(1 << q for q in r.neutrals)
        assert _score(pos, side, own, neutral) == r.potential
        assert all(pos.empty >> q & 1 for q in r.placement + r.neutrals)
        assert len(r.neutrals) <= (min(k, pos.neutrals_left(side)) if pos.rule == ADVANCED else 0)


def test_potential_of_finished_game_is_its_score():
    for rule in (BASIC, ADVANCED):
        end = example_after(32, rule)
        for side in (RED, BLUE):
            r = P.potential(end, side)
            assert (r.potential, r.placement, r.proven) == (end.score(side), (), True)
            assert B.score_bound(end, side) == end.score(side)
    # rules.md: 16-14 under Basic, 11-11 under Advanced
    assert P.potential(example_after(32, BASIC), RED).potential == 16
    assert P.potential(example_after(32, ADVANCED), BLUE).potential == 11


def test_potential_midgame_sanity():
    """Mid-game: proven, placement consistent, bounds ordered."""
    for rule in (BASIC, ADVANCED):
        pos = example_after(18, rule, 5 if rule == BASIC else 4)
        for side in (RED, BLUE):
            r = P.potential(pos, side)
            assert r.proven and r.upper_bound == r.potential
            assert pos.score(side) <= 16 and r.potential <= 16
            q = B.quick_bound(pos, side)
            b = B.score_bound(pos, side)
            assert r.potential <= b <= q


def test_potential_with_core_backend():
    pytest.importorskip("szsolver.rules._core")
    from szsolver.rules import _core
    for rule in (BASIC, ADVANCED):
        ref = example_after(26, rule)
        core = _core.Position(STARS_ZONE, red=ref.red, blue=ref.blue, neutral=ref.neutral,
                              red_neutrals=ref.red_neutrals, blue_neutrals=ref.blue_neutrals,
                              side=ref.side, rule=rule)
        for side in (RED, BLUE):
            assert P.potential(core, side).potential == P.potential(ref, side).potential
            assert B.score_bound(core, side) == B.score_bound(ref, side)


def test_time_limit_reports_bounds():
    pos = example_after(12, ADVANCED, 4)
    r = P.potential(pos, BLUE, time_limit=0.001)
    assert r.potential <= r.upper_bound <= 16
    if r.proven:
        assert r.potential == r.upper_bound


def test_every_solver_is_deterministic_and_leaves_ctrl_c_to_python(monkeypatch):
    """Every CpSolver the bounds create runs one worker with the fixed seed, and never
    installs OR-Tools' SIGINT handler (it turned Ctrl-C into a quietly unproven result
    and was seen deadlocking)."""
    from szsolver import interrupt
    made = []

    class Recording(interrupt.CpSolver):
        def solve(self, *args, **kwargs):
            made.append(self.parameters)
            return super().solve(*args, **kwargs)

    monkeypatch.setattr(M.interrupt, "CpSolver", Recording)
    pos = example_after(27, ADVANCED)
    for side in (RED, BLUE):
        P.potential(pos, side)
        P.potential_map(pos, side)
        B.score_bound(pos, side)
        B.score_floor(pos, side)
    assert len(made) >= 8
    for prm in made:
        assert (prm.catch_sigint_signal, prm.num_workers, prm.random_seed) == \
            (False, 1, M.RANDOM_SEED)


def test_bad_input_raises_one_line_input_errors():
    """Bad input raises szsolver.errors classes (one line naming the problem), before
    any model is built."""
    from szsolver.errors import InvalidPositionError, ParseError, UnsupportedError
    pos = example_after(20, ADVANCED, 4)
    calls = [P.potential, P.potential_map, B.score_bound, B.score_floor, B.score_bound_map]
    for f in calls + [B.quick_bound]:
        with pytest.raises(ParseError, match="unknown side 'green'"):
            f(pos, "green")
    for bad in (0, -1.5, float("nan"), float("inf"), 1e10, "3", True):
        words = ("time_limit: NaN is not a number of seconds" if bad != bad
                 else "time_limit must be a positive number")
        for f in calls:
            with pytest.raises(UnsupportedError, match=words):
                f(pos, RED, bad)
    with pytest.raises(UnsupportedError, match="unknown map kind 'best'"):
        P.potential_map(pos, RED, kind="best")
    # side names in any case are fine
    assert P.potential(pos, "Blue", 60).potential == P.potential(pos, BLUE).potential
    full = pos.copy()
    full.neutral |= full.empty & (full.empty - 1)   # all but the lowest empty point
    for f in (P.potential, P.potential_map):
        with pytest.raises(InvalidPositionError, match="red has 6 stones to place but only 1 empty"):
            f(full, RED)
    for err in (ParseError, UnsupportedError, InvalidPositionError):
        assert issubclass(err, ValueError)


# --- the solver's bound vs exhaustive continuations -------------------------------------

def bound_cases():
    """(name, position): 1 to 4 turns left on the real board, both rules, with
    neutrals left (fewer at 3-4 turns left, to keep the exhaustive search small)."""
    cases = []
    for rule in (BASIC, ADVANCED):
        r = "ba"[rule]
        # 1 and 2 turns left with neutrals left (example game: red 1, blue 2 left)
        cases.append((f"ex31-{r}", example_after(31, rule)))
        cases.append((f"ex30-{r}", example_after(30, rule)))
        for seed in range(3):
            start = example_after(20, rule, 6)
            cases.append((f"rand31-{seed}-{r}", random_play(start, 11, ("b31", seed, rule), 0.5)))
        for seed in range(2):
            start = example_after(20, rule, 6)
            cases.append((f"rand30-{seed}-{r}", random_play(start, 10, ("b30", seed, rule), 0.5)))
        # 3 and 4 turns left, neutrals nearly used up
        cases.append((f"ex29-{r}", _drain(example_after(29, rule), keep=(1, 0))))
        cases.append((f"ex28-{r}", _drain(example_after(28, rule), keep=(0, 0))))
    return cases


def _drain(p: Position, keep) -> Position:
    """Same stones, fewer neutrals left (keeps the exhaustive search small)."""
    q = p.copy()
    q.red_neutrals = min(q.red_neutrals, keep[0])
    q.blue_neutrals = min(q.blue_neutrals, keep[1])
    return q


@pytest.mark.parametrize("name,pos", bound_cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_score_bound_vs_exhaustive(name, pos):
    for side in (RED, BLUE):
        truth = brute_max_final(pos, side)
        bound = B.score_bound(pos, side)
        assert bound >= truth, (name, side, position_string(pos))
        if _room(pos):
            assert bound == truth, (name, side)   # the bound is attained
        assert B.quick_bound(pos, side) >= bound
        floor = B.score_floor(pos, side)
        least = brute_max_final(pos, side, pick=min)
        assert floor <= least, (name, side)
        if _room(pos):
            assert floor == least, (name, side)   # the floor is attained
        if pos.rule == BASIC:  # Basic: the bound is the potential
            assert bound == P.potential(pos, side).potential


@pytest.mark.parametrize("name,pos", [c for c in bound_cases() if c[0].startswith(("ex31", "rand31"))],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_score_bound_map_vs_exhaustive(name, pos):
    side = pos.side
    bmap = B.score_bound_map(pos, side)
    assert set(bmap) == {q for q in range(pos.geometry.size) if pos.empty >> q & 1}
    for q, b in bmap.items():
        truth = brute_max_final(pos, side, first_stone=q)
        assert b >= truth, (name, q)
        if _room(pos):
            assert b == truth


# --- the map ----------------------------------------------------------------------------

@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
def test_potential_map_matches_forced_brute_force(rule):
    pos = example_after(29, rule)   # blue to move, 2 blue stones left
    mp = P.potential_map(pos, BLUE)
    assert mp.all_proven
    for q, v in mp.values.items():
        forced = pos.copy()
        forced.blue |= 1 << q
        # the side keeps its neutral allowance: min(2 stones, neutrals left)
        own = forced.blue
        empties = [e for e in range(55) if forced.empty >> e & 1]
        allow = min(2, pos.neutrals_left(BLUE)) if rule == ADVANCED else 0
        best = -1
        for x in empties:   # the second (last) stone
            rest = [e for e in empties if e != x]
            for j in range(allow + 1):
                for ys in itertools.combinations(rest, j):
                    best = max(best, _score(pos, BLUE, own | 1 << x,
                                            pos.neutral | sum(1 << y for y in ys)))
        assert v == best, q
    assert max(mp.values.values()) == mp.potential.potential


def test_a_map_tells_its_progress_and_is_the_same_map():
    """``potential --map`` is one CP-SAT solve per value it finds, each up to the time
    limit: its progress line hears each solve and how many points are settled."""
    pos = example_after(24, BASIC)
    told = []
    shown = P.potential_map(pos, RED, progress=lambda *a: told.append(a))
    plain = P.potential_map(pos, RED)
    assert (shown.values, shown.bounds, shown.proven) == (plain.values, plain.bounds,
                                                           plain.proven)
    assert told[0] == (0, None, 0)                       # before the first solve
    solves = [n for _s, _p, n in told]
    assert solves == list(range(len(told))) and len(told) == shown.solves
    settled = [s for s, _p, _n in told[1:]]
    assert settled == sorted(settled) and all(p == len(plain.values) for _s, p, _n in told[1:])


def test_map_text_and_svg():
    pos = example_after(24, BASIC)
    mp = P.potential_map(pos, RED)
    text = R.map_text(pos, mp)
    assert "16" in text or "15" in text
    assert len(text.splitlines()) >= 10


# --- CLI --------------------------------------------------------------------------------

def test_cli_json_and_errors(tmp_path):
    from click.testing import CliRunner

    from szsolver.cli import main
    runner = CliRunner()
    s = position_string(example_after(28, BASIC))
    res = runner.invoke(main, ["potential", s, "--json", "--map"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    for side in ("red", "blue"):
        assert isinstance(data[side]["potential"], int)
        assert isinstance(data[side]["proven"], bool)
        assert all(len(t) == 2 for t in data[side]["placement"])
        assert all(isinstance(v, int) for v in data[side]["map"].values())
    res = runner.invoke(main, ["potential", s, "--side", "blue"])
    assert res.exit_code == 0 and "blue" in res.output.lower()
    res = runner.invoke(main, ["potential", "not a position"])
    assert res.exit_code == 2
    assert res.output.startswith("Error:") and len(res.output.strip().splitlines()) == 1
    res = runner.invoke(main, ["potential", s, "--side", "green"])
    assert res.exit_code == 2
    out = tmp_path / "map.svg"
    res = runner.invoke(main, ["potential", s, "--side", "red", "--svg", str(out)])
    if res.exit_code == 0:
        assert out.read_text().lstrip().startswith("<")


def test_opponent_neutral_can_raise_the_bound():
    """Advanced: Blue's last neutral can cut a red beam and give Red a new pattern,
    so Red's bound (13) exceeds Red's potential with its own means (11); the
    exhaustive search agrees. Found by random play with neutral use."""
    from szsolver.formats.notation import parse_position
    pos = parse_position("RR/NN.NBB/R.RR.B./R.RR.RBR/BRNBN.N.N/..BBNNR./RBRBB../BNBNRB/BR "
                         "B 0 2 advanced", backend=Position)
    assert P.potential(pos, RED).potential == pos.score(RED) == 11
    assert B.score_bound(pos, RED) == brute_max_final(pos, RED) == 13


@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
def test_model_admits_every_placement_at_its_true_score(rule):
    """Soundness of the model's redundant counting constraints: with the stones and
    neutrals fixed to ANY placement (random ones here), the model still reaches the
    placement's true score (rules' walk), so no constraint cuts off a real placement."""
    for turns in (12, 18, 24):
        pos = example_after(turns, rule, 6 if rule == ADVANCED else 5)
        for side in (RED, BLUE):
            model = M.Model(pos.geometry, pos.stones(side), pos.neutral, pos.empty,
                             16 - pos.stones(side).bit_count(),
                             min(16 - pos.stones(side).bit_count(), 6), rule == ADVANCED)
            rng = _rng("soundness", rule, turns, side)
            cand = sorted(model.x)
            for _ in range(12):
                stones = rng.sample(cand, model.stones)
                rest = [q for q in sorted(model.nv) if q not in stones]
                neutrals = rng.sample(rest, min(len(rest), rng.randint(0, model.allowance)))
                own = pos.stones(side) | sum(1 << q for q in stones)
                if rule == ADVANCED:  # the model forbids neutrals that separate nothing
                    reduced = _drop_useless_neutrals(pos.geometry, own, pos.neutral, neutrals)
                    assert M.score_of(pos.geometry, own, pos.neutral | sum(1 << q for q in reduced),
                                      True) == \
                        M.score_of(pos.geometry, own, pos.neutral | sum(1 << q for q in neutrals),
                                   True)
                    neutrals = reduced
                lits = [v if q in stones else v.Not() for q, v in model.x.items()]
                lits += [v if q in neutrals else v.Not() for q, v in model.nv.items()]
                r = model.solve(assume=lits)
                truth = M.score_of(pos.geometry, pos.stones(side) | sum(1 << q for q in stones),
                                   pos.neutral | sum(1 << q for q in neutrals), rule == ADVANCED)
                assert r["proven"] and r["value"] == truth, (turns, side, stones, neutrals)


def _drop_useless_neutrals(g, own, fixed, neutrals):
    """Remove, until none is left, new neutrals with no own stone in sight on both
    sides along a row or a column (they change no beam)."""
    neutrals = list(neutrals)
    while True:
        blockers = fixed | sum(1 << q for q in neutrals)

        def sees(q, d):
            for r in g.rays[q][d]:
                if own >> r & 1:
                    return True
                if blockers >> r & 1:
                    return False
            return False
        useless = [q for q in neutrals
                   if not any(sees(q, d) and sees(q, e) for d, e in enumerate(g.opposite) if d < e)]
        if not useless:
            return neutrals
        neutrals.remove(useless[0])


def test_map_with_time_limit_keeps_its_promises():
    """A tiny time limit: every value is a real placement's score (<= the true map
    value) and every bound is >= the true value; proven points are exact."""
    pos = example_after(18, ADVANCED, 4)
    exact = P.potential_map(pos, RED)
    assert exact.all_proven
    quick = P.potential_map(pos, RED, time_limit=0.01)
    assert set(quick.values) == set(exact.values)
    for q, v in exact.values.items():
        assert quick.values[q] <= v <= max(quick.bounds.get(q, 16), quick.values[q])
        if q in quick.proven:
            assert quick.values[q] == v
