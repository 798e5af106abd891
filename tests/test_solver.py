"""Endgame solver tests: against an independent pure-Python brute-force minimax on
1-2 turns left, self-consistency on 3-6 turns left, limits and the CLI."""
import json
import random

import pytest
from click.testing import CliRunner

from szsolver.rules import reference
from szsolver.cli import main
from szsolver.formats.notation import parse_position, parse_turn, position_string
from szsolver.rules.playout import random_play
from szsolver.rules.base import ADVANCED, BASIC, RED
from szsolver.rules.seeds import playout_seed_v1
from szsolver.endgame.solver import (ALL_OPTIONS, DEFAULT_OPTIONS, OPTIONS, Searcher, ordered_orbit_turns,
                                     solve, turn_orbits, turn_values)
from szsolver.rules.backends import to_core

EXAMPLE_TURNS = ("44n66 64 41 54 14 28 34n24 84 96 95 46n85 65 74 76 86 87 72 82 52 51 "
                 "36 62 45n25 73n32 58 42n75 59 78n35 38 48 27 69").split()


# --- positions ----------------------------------------------------------------------------

def example_at(turns_left, rule=BASIC, neutrals=None):
    """The rulebook example game with ``turns_left`` turns still to play. Under the
    Advanced rule 4+4 neutrals (the game uses only 4 and 3: the same turns fit)."""
    if neutrals is None:
        neutrals = (5, 5) if rule == BASIC else (4, 4)
    p = reference.Position(red_neutrals=neutrals[0], blue_neutrals=neutrals[1], rule=rule)
    for t in EXAMPLE_TURNS[:32 - turns_left]:
        turn = parse_turn(t)
        if turn >> 6 and p.neutrals_left(p.side) == 0:
            turn &= 63
        p.play(turn)
    return p


seed_of = playout_seed_v1


def random_game_at(seed, turns_left, rule, neutrals=(5, 5), p_neutral=0.35):
    """Seeded random legal play (with neutral use) until ``turns_left`` remain."""
    rng = random.Random(seed_of("solver-test", seed, rule, neutrals))
    p = reference.Position(red_neutrals=neutrals[0], blue_neutrals=neutrals[1], rule=rule)
    random_play(p, p.turns_left - turns_left, rng, p_neutral)
    return p


# --- independent brute force ----------------------------------------------------------------

class Brute:
    """Plain minimax over every legal turn, on the reference back end. Leaf values
    come from the rules text; a side's score is cached by (own stones, neutrals)."""

    def __init__(self):
        self.cache = {}

    def score(self, p, side):
        own = p.stones(side)
        key = (side, own, p.neutral if p.rule == ADVANCED else 0, p.rule)
        if key not in self.cache:
            self.cache[key] = p.score(side)
        return self.cache[key]

    def value(self, p):
        if p.is_over():
            return 100 * (self.score(p, 0) - self.score(p, 1)) + p.red_neutrals - p.blue_neutrals
        vals = []
        for t in p.legal_turns():
            p.make(t)
            vals.append(self.value(p))
            p.unmake(t)
        return max(vals) if p.side == RED else min(vals)

    def turn_values(self, p):
        out = {}
        for t in p.legal_turns():
            p.make(t)
            out[t] = self.value(p)
            p.unmake(t)
        return out


SHALLOW = [("example", 1, BASIC), ("example", 2, BASIC), ("example", 1, ADVANCED),
           ("example", 2, ADVANCED)]
SHALLOW += [(seed, tl, rule) for seed in range(3) for tl in (1, 2) for rule in (BASIC, ADVANCED)]


def shallow_position(which, tl, rule, neutrals):
    if which == "example":
        return example_at(tl, rule, neutrals)
    return random_game_at(which, tl, rule, neutrals)


@pytest.mark.parametrize("which,tl,rule", SHALLOW)
@pytest.mark.parametrize("neutrals", [(5, 5), (1, 1), (0, 0)], ids=["many", "few", "none"])
def test_brute_force_shallow(which, tl, rule, neutrals):
    if which == "example" and neutrals == (1, 1):
        neutrals = (4, 4)
    p = shallow_position(which, tl, rule, neutrals)
    brute = Brute()
    bv = brute.turn_values(p.copy())
    best_val = max(bv.values()) if p.side == RED else min(bv.values())
    res = solve(p, all_turns=True)
    assert res.exact and res.value == best_val
    assert {t: v for t, v in turn_values(p)} == bv
    assert sorted(res.best) == sorted(t for t, v in bv.items() if v == best_val)
    plain = solve(p)
    assert plain.exact and plain.value == best_val
    assert solve(p, options=[]).value == best_val
    assert sorted(plain.best) == sorted(res.best)
    _check_pv(p, plain)


# --- self-consistency on deeper positions -------------------------------------------------------

def _check_pv(p, res):
    """The PV is legal, reaches the end, and its final position has the claimed
    scores and value (replayed on the reference back end)."""
    q = reference.Position(red=p.red, blue=p.blue, neutral=p.neutral,
                           red_neutrals=p.red_neutrals, blue_neutrals=p.blue_neutrals,
                           side=p.side, rule=p.rule)
    for t in res.pv:
        q.play(t)
    assert q.is_over()
    assert q.value() == res.value
    assert {"red": q.score(0), "blue": q.score(1)} == res.scores
    assert res.pv[0] in res.best
    assert res.winner == q.winner()


DEEP = [("example", 3, BASIC), ("example", 4, BASIC), ("example", 3, ADVANCED),
        ("example", 4, ADVANCED), (7, 3, BASIC), (8, 4, BASIC), (9, 3, ADVANCED),
        (10, 4, ADVANCED)]


@pytest.mark.parametrize("which,tl,rule", DEEP)
def test_value_is_best_turn_value(which, tl, rule):
    p = shallow_position(which, tl, rule, (5, 5) if rule == BASIC else (4, 4))
    res = solve(p, all_turns=True)
    assert res.exact
    vals = [t.value for t in res.turns]
    assert res.value == (max(vals) if p.side == RED else min(vals))
    assert sorted(res.best) == sorted(t.turn for t in res.turns if t.value == res.value)
    _check_pv(p, res)
    # each group holds turns equal by a symmetry: same value
    groups = {}
    for t in res.turns:
        groups.setdefault(t.group, set()).add(t.value)
    assert all(len(v) == 1 for v in groups.values())
    # all_turns values agree with solving the children one by one (a sample)
    rng = random.Random(seed_of("children", which, tl, rule))
    for t in rng.sample(res.turns, 6) + [res.turns[0], res.turns[-1]]:
        child = p.copy()
        child.play(t.turn)
        assert solve(child).value == t.value


@pytest.mark.parametrize("which,tl,rule", [("example", 5, BASIC), ("example", 6, BASIC),
                                            ("example", 5, ADVANCED), (11, 6, BASIC),
                                            (12, 5, ADVANCED)])
def test_deep_pv_and_best(which, tl, rule):
    p = shallow_position(which, tl, rule, (5, 5) if rule == BASIC else (4, 4))
    res = solve(p)
    assert res.exact
    _check_pv(p, res)
    # the value is the best over the turns: the best turn keeps it, no turn beats it
    child = p.copy()
    child.play(res.best[0])
    assert solve(child).value == res.value
    if len(res.best) < len(p.legal_turns()):
        other = next(t for t in p.legal_turns() if t not in res.best)
        child = p.copy()
        child.play(other)
        cv = solve(child).value
        assert (cv < res.value) if p.side == RED else (cv > res.value)


LEVER_CASES = [("example", 4, BASIC), ("example", 5, BASIC), ("example", 4, ADVANCED)]
LEVER_CASES += [(seed, tl, rule) for seed in range(20, 28) for tl in (3, 4)
                for rule in (BASIC, ADVANCED)]


@pytest.mark.parametrize("which,tl,rule", LEVER_CASES)
def test_levers_match_plain_search(which, tl, rule):
    """The pruning rules (exact leaves, dominance, tables, monotonicity) against a
    plain alpha-beta with TT and ordering only (itself checked against the brute
    force above), on positions where both sides still have neutrals."""
    if which == "example":
        p = example_at(tl, rule)
    else:
        p = random_game_at(which, tl, rule, (5, 5) if rule == BASIC else (4, 4), p_neutral=0.12)
    assert solve(p, options=["tt", "order"], pv=False).value == solve(p, pv=False).value


@pytest.mark.parametrize("seed", range(28, 34))
def test_neutral_rules_match_at_five_turns(seed):
    """Three- and four-turn neutral pruning inside deeper trees (Basic), against the
    same search without them (exact leaves kept: they are checked above)."""
    p = random_game_at(seed, 5, BASIC, (5, 5), p_neutral=0.1)
    ref = solve(p, options=["tt", "order", "leaf"], pv=False)
    assert solve(p, pv=False).value == ref.value


WITHOUT_FOOT = [o for o in OPTIONS if o not in ("foot", "killer")]


# Two 6-turn seeds (each takes 8-14 s; the suite keeps to about 10 minutes).
@pytest.mark.parametrize("seed,tl", [(s, 5) for s in range(90, 96)] + [(s, 6) for s in range(96, 98)])
def test_footprint_rule_matches(seed, tl):
    """Basic, both supplies in hand (where the footprint rule prunes most), five and
    six turns left: the default search against the same search without the rule
    and against tt/order/leaf alone (no neutral rule at all), and with the rule on
    top of each neutral rule alone (footprints of the three-turn leaf, the four-turn
    rule's skips, the score tables and the TT each feed it)."""
    p = random_game_at(seed, tl, BASIC, (5, 5), p_neutral=0.0)
    ref = solve(p, options=["tt", "order", "leaf"], pv=False).value
    assert solve(p, options=WITHOUT_FOOT, pv=False).value == ref
    assert solve(p, pv=False).value == ref
    for options in (["tt", "leaf", "foot"], ["tt", "leaf", "dom", "foot"],
                    ["tt", "order", "leaf", "tables", "foot"], ["tt", "order", "leaf", "mono", "tables", "foot"]):
        assert solve(p, options=options, pv=False).value == ref, options


@pytest.mark.parametrize("seed", range(100, 103))
def test_footprint_rule_every_turn(seed):
    """Every turn's value at five turns left (Basic, both supplies in hand), and the
    optimal turns (also as the plain solve proves them, skipping the neutral turns
    whose stone alone was refuted off their point), with the footprint rule against
    the search without it."""
    p = random_game_at(seed, 5, BASIC, (5, 5), p_neutral=0.0)
    ref = {t.turn: t.value for t in solve(p, options=WITHOUT_FOOT, all_turns=True).turns}
    res = solve(p, all_turns=True)
    assert {t.turn: t.value for t in res.turns} == ref
    assert sorted(res.best) == sorted(t for t, v in ref.items() if v == res.value)
    # the best turns of a plain solve: each proved by a probe, or skipped by the rule
    assert sorted(solve(p).best) == sorted(res.best)


WITHOUT_SHIFT = [o for o in OPTIONS if o not in ("shift", "killer")]


def test_default_options():
    """The default set is every technique (docs/solver.md)."""
    assert sorted(DEFAULT_OPTIONS) == sorted(OPTIONS)


@pytest.mark.parametrize("seed,tl", [(110, 5), (112, 5), (113, 5), (120, 5), (114, 6), (115, 6)])
def test_shifted_probe_matches(seed, tl):
    """The shifted probe (Basic, both supplies in hand) inside five- and six-turn
    searches: the default search against the search without it and against
    tt/order/leaf alone, every turn's value and the optimal turns (the best-turn
    proofs use it at the root too); and it does decide nodes here."""
    p = random_game_at(seed, tl, BASIC, (5, 5), p_neutral=0.0)
    ref = solve(p, options=["tt", "order", "leaf"], pv=False).value
    assert solve(p, options=WITHOUT_SHIFT, pv=False).value == ref
    res = solve(p)
    assert res.value == ref
    assert res.tt["shifted_probe_cuts"] > 0
    for options in (["tt", "leaf", "foot", "shift"], ["tt", "order", "leaf", "foot", "shift"],
                    ["tt", "order", "leaf", "dom", "foot", "shift"]):
        assert solve(p, options=options, pv=False).value == ref, options
    if tl == 5:
        every = {t.turn: t.value for t in solve(p, options=WITHOUT_SHIFT, all_turns=True).turns}
        assert sorted(res.best) == sorted(t for t, v in every.items() if v == ref)


def _mover_value(position):
    """Exact value of ``position`` from its mover's side (a fresh search)."""
    v = solve(position, options=["tt", "order", "leaf"], pv=False).value
    return v if position.side == RED else -v


@pytest.mark.parametrize("seed,tl", [(140, 4), (141, 4), (142, 4), (143, 5)])
def test_shifted_probe_bounds_hold(seed, tl):
    """The shifted probe's own bound, checked against exact values (Basic, both
    supplies in hand): for each stone x, the child (x, -) is probed at its exact
    value w so that the table holds "w" as a lower bound for the mover there, with
    its footprint; then each (x, q) is probed just above w with the shift set, so
    that the probe's first node may answer from that entry (w + 1: one tie-break
    point better for the mover, our neutral spent). Every probe's fail-soft result
    must bound the exact value of (x, q) on the side it claims: a shift by more
    than one tie-break point claims a lower bound above the value wherever the
    neutral changes no score."""
    p = random_game_at(seed, tl, BASIC, (5, 5), p_neutral=0.0)
    core = to_core(p)
    s = Searcher(core, 1 << 16)
    cuts = 0
    for x in sorted({t & 63 for t in p.legal_turns()}):
        s.make(x)
        child = p.copy()
        child.play(x)
        w = _mover_value(child)
        assert s.probe(w - 1, w) == w          # fail-soft: >= w, and no more than the value
        s.unmake(x)
        for t in p.legal_turns():
            if t & 63 != x or t < 64:
                continue
            s.make(t)
            s.set_shift((t >> 6) - 1)
            before = s.stats()["shifted_probe_cuts"]
            v = s.probe(w, w + 1)
            cuts += s.stats()["shifted_probe_cuts"] - before
            s.unmake(t)
            child = p.copy()
            child.play(t)
            exact = _mover_value(child)
            if v >= w + 1:
                assert exact >= v, (x, t, w, v, exact)
            else:
                assert exact <= v, (x, t, w, v, exact)
    assert cuts > 0


@pytest.mark.parametrize("seed", [150, 151, 152])
def test_shifted_probe_bounds_hold_for_its_owner(seed):
    """The same check where the neutral's owner is the mover (the shifted probe's
    upper bounds): five turns left (Basic, both supplies in hand), after our stone
    x and a reply r the position is probed at its exact value w for us, so that the
    table holds "w" as our upper bound there; then after (x, q) and r, with the
    shift set to our neutral on q, a probe just below w may answer w - 1 from it."""
    p = random_game_at(seed, 5, BASIC, (5, 5), p_neutral=0.0)
    us = p.side
    s = Searcher(to_core(p), 1 << 16)
    cuts = 0
    stones = sorted({t & 63 for t in p.legal_turns()})[:6]
    for x in stones:
        after_x = p.copy()
        after_x.play(x)
        for r in [t for t in after_x.legal_turns() if t < 64][:3]:
            s.make(x)
            s.make(r)
            node = after_x.copy()
            node.play(r)
            w = _mover_value(node)
            assert s.probe(w, w + 1) == w      # fail-soft: <= w, and no less than the value
            s.unmake(r)
            s.unmake(x)
            for t in p.legal_turns():
                if t & 63 != x or t < 64 or (t >> 6) - 1 == r:
                    continue
                s.make(t)
                s.make(r)
                s.set_shift((t >> 6) - 1, us)
                before = s.stats()["shifted_probe_cuts"]
                v = s.probe(w - 1, w)
                cuts += s.stats()["shifted_probe_cuts"] - before
                s.unmake(r)
                s.unmake(t)
                node = p.copy()
                node.play(t)
                node.play(r)
                exact = _mover_value(node)
                if v <= w - 1:
                    assert exact <= v, (x, r, t, w, v, exact)
                else:
                    assert exact >= v, (x, r, t, w, v, exact)
    assert cuts > 0


WITHOUT_DELAY = [o for o in OPTIONS if o != "delay"]
DELAY_CASES = [(BASIC, 130, 5, (1, 1)), (BASIC, 130, 5, (2, 1)), (BASIC, 130, 6, (1, 1)),
               (ADVANCED, 133, 5, (1, 1)), (ADVANCED, 130, 4, (1, 2)), (ADVANCED, 130, 5, (2, 1)),
               (ADVANCED, 130, 6, (1, 1))]


@pytest.mark.parametrize("rule,seed,tl,supplies", DELAY_CASES)
def test_last_neutral_rule_matches(rule, seed, tl, supplies):
    """The last-neutral rule (a side holding one neutral, with two stones or more
    still to place), both rules, five and six turns left: the default search
    against the search without it and against tt/order/leaf alone; the rule with
    only the table and the exact leaves; every turn's value and the optimal turns;
    and it does skip turns here."""
    p = random_game_at(seed, tl, rule, supplies, p_neutral=0.0)
    ref = solve(p, options=["tt", "order", "leaf"], pv=False).value
    assert solve(p, options=WITHOUT_DELAY, pv=False).value == ref
    res = solve(p, pv=False)
    assert res.value == ref
    assert res.tt["neutral_turns_pruned_by_last_neutral"] > 0
    for options in (["tt", "leaf", "delay"], ["tt", "order", "leaf", "delay"]):
        assert solve(p, options=options, pv=False).value == ref, options
    if tl == 4:     # without the exact leaves the rule meets every depth
        assert solve(p, options=["tt", "order", "delay"], pv=False).value == ref
    if tl == 5:
        every = {t.turn: t.value for t in solve(p, options=WITHOUT_DELAY, all_turns=True).turns}
        assert {t.turn: t.value for t in solve(p, all_turns=True).turns} == every
        assert sorted(solve(p).best) == sorted(t for t, v in every.items() if v == ref)


@pytest.mark.parametrize("rule,tl,supplies,seed,options", [
    (ADVANCED, 2, (1, 1), 200, ["tt", "order", "delay"]), (ADVANCED, 3, (1, 1), 231, None),
    (ADVANCED, 4, (1, 1), 205, None), (ADVANCED, 4, (1, 2), 203, None),
    (BASIC, 5, (1, 1), 211, None), (BASIC, 6, (1, 1), 201, None)])
def test_last_neutral_rule_best_turns(rule, tl, supplies, seed, options):
    """The optimal turns as the solve proves them, skipping a neutral turn when its
    stone alone was refuted by a reply off its point (the mover holding one
    neutral), against every turn's value; positions where an optimal neutral turn
    sits on the reply's point, and one without the exact leaves, where the rule
    would otherwise meet the mover's last stone."""
    p = random_game_at(seed, tl, rule, supplies, p_neutral=0.0)
    every = solve(p, options=WITHOUT_DELAY, all_turns=True)
    res = solve(p, options=options)
    assert res.value == every.value
    assert sorted(res.best) == sorted(t.turn for t in every.turns if t.value == every.value)


@pytest.mark.parametrize("chunk", range(3))
def test_footprint_rule_many_positions(chunk):
    """150 positions at four turns left (Basic, both supplies in hand; a wrong
    footprint shows only where a neutral on the refutation's points would pay):
    the rule on its own and with the exact leaves, the table, ordering and the
    neutral dominance rules, against tt/leaf alone."""
    for seed in range(50 * chunk, 50 * chunk + 50):
        rng = random.Random(seed_of("foot-many", seed))
        p = reference.Position(red_neutrals=5, blue_neutrals=5, rule=BASIC)
        random_play(p, p.turns_left - 4, rng, 0.0)
        ref = solve(p, options=["tt", "leaf"], pv=False).value
        for options in (["leaf", "foot"], ["tt", "leaf", "foot"], ["tt", "leaf", "order", "foot"],
                        ["tt", "leaf", "dom", "foot"], ["tt", "leaf", "foot", "shift"], list(OPTIONS)):
            assert solve(p, options=options, pv=False).value == ref, (seed, options)


class MemoBrute(Brute):
    """The brute force above with a table of positions already valued: plain minimax
    over every legal turn, affordable six turns deep on a 4x4 board."""

    def value(self, p):
        key = (p.stones(0), p.stones(1), p.neutral, p.red_neutrals, p.blue_neutrals, p.side)
        if key not in self.cache:
            self.cache[key] = super().value(p)
        return self.cache[key]


@pytest.mark.parametrize("seed,tl", [(s, 5) for s in range(4)] + [(4, 6)])
def test_footprint_rule_small_board(seed, tl):
    """Five and six turns left on a 4x4 square board (Basic, 2+2 neutrals in hand):
    the rule alone and with the other techniques against the brute force."""
    from szsolver.rules import geometry as geo
    rng = random.Random(seed_of("foot-board", seed, tl))
    p = reference.Position(geo.square(4), red_neutrals=2, blue_neutrals=2, rule=BASIC,
                           stones_per_side=6)
    random_play(p, p.turns_left - tl, rng, 0.0)
    bv = MemoBrute().value(p.copy())
    for options in (["foot"], ["leaf", "foot"], ["tt", "foot"], ["tt", "leaf", "dom", "foot"],
                    ["tt", "order", "leaf", "tables", "foot"], list(OPTIONS)):
        assert solve(p, options=options, pv=False).value == bv, options


@pytest.mark.parametrize("seed", range(40, 46))
def test_advanced_two_turn_bounds_match(seed):
    """Advanced, both supplies in hand (where the two-turn bounds prune most): the
    full search against the same search without them, and every turn's value at
    three turns left against plain alpha-beta with TT and ordering."""
    p = random_game_at(seed, 4, ADVANCED, (4, 4), p_neutral=0.0)
    without = [o for o in OPTIONS if o not in ("adv2", "killer")]
    assert solve(p, options=without + ["adv2"], pv=False).value == \
        solve(p, options=without, pv=False).value
    q = random_game_at(seed, 3, ADVANCED, (2, 3), p_neutral=0.0)
    ref = {t.turn: t.value for t in solve(q, options=["tt", "order"], all_turns=True).turns}
    res = solve(q, all_turns=True, options=without + ["adv2"])
    assert {t.turn: t.value for t in res.turns} == ref
    assert sorted(res.best) == sorted(t for t, v in ref.items() if v == res.value)


def supplies_in_hand_at(seed, turns_left):
    """Advanced, uniformly random stones and no neutral spent: both sides hold 4."""
    return random_game_at(seed, turns_left, ADVANCED, (4, 4), p_neutral=0.0)


@pytest.mark.parametrize("seed", range(60, 66))
def test_advanced_last_turn_with_supplies_in_hand(seed):
    """The exact last turn only tries neutrals that change a score (``cut_points``):
    every turn's value at two turns left against the independent brute force."""
    p = supplies_in_hand_at(seed, 2)
    p.play(p.legal_turns()[seed % 7])           # one turn left, both supplies in hand
    bv = Brute().turn_values(p.copy())
    best_val = max(bv.values()) if p.side == RED else min(bv.values())
    assert solve(p, options=["leaf"], pv=False).value == best_val
    assert solve(p, pv=False).value == best_val


def assert_probes_fail_soft(p, true, seed):
    """Probes of ``p`` (value ``true``, its mover's view) for windows on every side of
    the value, wide and null, on fresh tables and on one kept across them: v <= alpha
    bounds the value from above, v >= beta from below, anything between is exact."""
    kept = Searcher(to_core(p), 1 << 12, ALL_OPTIONS)
    for alpha in (true - 201, true - 100, true - 2, true - 1, true, true + 1, true + 99):
        for beta in (alpha + 1, alpha + 2, alpha + 150, 30000):
            for s in (Searcher(to_core(p), 1 << 12, ALL_OPTIONS), kept):
                v = s.probe(alpha, beta)
                if v <= alpha:
                    assert true <= v, (seed, alpha, beta, v, true)
                elif v >= beta:
                    assert true >= v, (seed, alpha, beta, v, true)
                else:
                    assert v == true, (seed, alpha, beta, v, true)


@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
@pytest.mark.parametrize("tl", [1, 2, 3])
def test_probes_are_fail_soft(rule, tl):
    """The fail-soft contract of a probe, against the brute force, for windows on
    every side of the value, wide and null: the exact last turn skips neutral turns
    whose bound cannot beat alpha, so a value at or below alpha is an upper bound
    (not always the exact value), one at or above beta a lower bound, and one in
    between exact. Positions with supplies in hand, on a fresh table and on one kept
    across the probes; the value from the brute force (one turn left) or plain
    alpha-beta with TT and ordering (itself checked against the brute force above)."""
    for seed in range(3):
        p = random_game_at(300 + seed, tl, rule, (4, 4) if tl < 3 else (2, 2), p_neutral=0.0)
        if tl == 1:
            true = Brute().value(p.copy())
        else:
            true = solve(p, options=["tt", "order"], pv=False).value
        assert_probes_fail_soft(p, true if p.side == RED else -true, seed)


@pytest.mark.parametrize("tl", [2, 3, 4])
@pytest.mark.parametrize("seed", range(8))
def test_advanced_probes_are_fail_soft_with_supplies_in_hand(seed, tl):
    """The fail-soft contract of a probe (as above) under the Advanced rule with both
    supplies of 4 in hand, where the two-turn nodes bound most turns by a line of
    the other side's alone: the last sibling's refutation and the recent ones kept
    per ply (``replies``), on a fresh table and on one kept across the probes. A
    line's bound one point too low fails here."""
    p = random_game_at(900 + seed, tl, ADVANCED, (4, 4), p_neutral=0.0)
    true = solve(p, options=["tt", "order", "leaf"], pv=False).value
    assert_probes_fail_soft(p, true if p.side == RED else -true, seed)


@pytest.mark.parametrize("seed", range(66, 72))
def test_advanced_two_turns_with_supplies_in_hand(seed):
    """Two and three turns left, both supplies in hand: the default techniques (the
    two-turn bounds with their killer turn, the three-turn rule, the exact last
    turn) against plain alpha-beta, every turn's value, and subsets of
    leaf/adv2/adv3/order/tt."""
    for tl in (2, 3):
        p = supplies_in_hand_at(seed, tl)
        ref = {t.turn: t.value for t in solve(p, options=[], all_turns=True).turns}
        res = solve(p, all_turns=True)
        assert {t.turn: t.value for t in res.turns} == ref
        for options in (["leaf"], ["leaf", "adv2"], ["leaf", "adv2", "order"],
                        ["leaf", "adv2", "tt"], ["leaf", "adv2", "tt", "order"],
                        ["leaf", "adv2", "adv3"], ["leaf", "adv2", "adv3", "order"],
                        ["leaf", "adv2", "adv3", "tt", "order"], ["leaf", "adv3"],
                        ["leaf", "adv2", "replies"], ["leaf", "adv2", "replies", "tt", "order"],
                        ["leaf", "replies"]):
            assert solve(p, options=options, pv=False).value == res.value, options


@pytest.mark.parametrize("seed", range(72, 75))
def test_advanced_four_turns_with_supplies_in_hand(seed):
    """Four turns left, both supplies in hand (the three-turn rule inside a deeper
    tree): every turn's value with the default techniques against the search with
    the exact last turn only (itself checked against brute force above)."""
    p = supplies_in_hand_at(seed, 4)
    ref = solve(p, options=["tt", "order", "leaf"], pv=False).value
    assert solve(p, pv=False).value == ref
    assert solve(p, options=[o for o in OPTIONS if o != "adv3"], pv=False).value == ref
    assert solve(p, options=[o for o in OPTIONS if o != "replies"], pv=False).value == ref
    assert solve(p, options=["tt", "order", "leaf", "adv2", "replies"], pv=False).value == ref


@pytest.mark.parametrize("board,seed", [("square-5", 1675), ("square-4", 2817)])
def test_three_turn_rule_counts_our_last_stone(board, seed):
    """Seeded positions (3+3 neutrals in hand, three turns left) where a neutral
    next to a point our last stone may take is worth playing: the three-turn rule
    must count those points as relevant (a rule that looked only at the stones on
    the board gave 0 and -1 here). Against the brute force."""
    from szsolver.rules import geometry as geo
    g = geo.square(5) if board == "square-5" else geo.square(4)
    rng = random.Random(seed_of("adv3-mut", board, seed))
    p = reference.Position(g, red_neutrals=3, blue_neutrals=3, rule=ADVANCED,
                           stones_per_side=8 if board == "square-5" else 6)
    random_play(p, p.turns_left - 3, rng, 0.0)
    bv = Brute().value(p.copy())
    assert solve(p, pv=False).value == bv
    assert solve(p, options=["leaf", "adv2", "adv3"], pv=False).value == bv


@pytest.mark.parametrize("rule,supplies,tl,seed", [
    (ADVANCED, (4, 4), 4, 400), (ADVANCED, (1, 1), 5, 401), (ADVANCED, (2, 2), 5, 402),
    (BASIC, (1, 1), 5, 400), (BASIC, (2, 1), 6, 404)])
def test_rules_take_a_checked_reply_from_the_table(rule, supplies, tl, seed):
    """The three-turn and last-neutral rules need the reply m that refuted a stone
    alone (x, -). When (x, -) is refuted from the table, the table's turn there is
    taken only after our value after it is shown to be at most alpha (our last turn
    scanned, or the stored bound), and the node's fail-soft bound covers it. It
    happens here, and every turn's value, the optimal turns and the value over two
    threads on one shared tree equal the search without the two rules and plain
    alpha-beta with the exact leaves."""
    from szsolver.endgame import solver as solver_module
    p = random_game_at(seed, tl, rule, supplies, p_neutral=0.0)
    without = [o for o in OPTIONS if o not in ("adv3", "delay")]
    every = solve(p, options=without, all_turns=True)
    assert solve(p, options=["tt", "order", "leaf"], pv=False).value == every.value
    res = solve(p)
    assert res.tt["table_refutations"] > 0
    assert res.value == every.value
    assert sorted(res.best) == sorted(t.turn for t in every.turns if t.value == every.value)
    assert ({t.turn: t.value for t in solve(p, all_turns=True).turns}
            == {t.turn: t.value for t in every.turns})
    shared = solver_module.SHARED_TREE, solver_module.SHARED_TREE_MIN_TURNS
    try:
        solver_module.SHARED_TREE, solver_module.SHARED_TREE_MIN_TURNS = True, 2
        assert solve(p, threads=2, pv=False).value == every.value
    finally:
        solver_module.SHARED_TREE, solver_module.SHARED_TREE_MIN_TURNS = shared


@pytest.mark.parametrize("rule,tl,seed", [(ADVANCED, 3, 724), (ADVANCED, 4, 714),
                                          (BASIC, 4, 703), (BASIC, 4, 729)])
def test_a_bad_reply_in_the_table_refutes_nothing(rule, tl, seed):
    """Every stone alone's child holds its exact value in the table and, as its turn,
    the reply best for us (the table's turn is a hint, not a proof). A probe at the
    value must still reach it: taken unchecked, that reply skips neutral turns the
    value needs (these positions gave 199, 200, -100 and 99 for 200, 299, -1, 100)."""
    inf = 30000
    p = random_game_at(seed, tl, rule, (1, 1), p_neutral=0.0)
    core = to_core(p)
    s, o = Searcher(core, 1 << 12), Searcher(core, 1 << 14)     # o: values, own table
    value = o.probe(-inf, inf)
    assert value == (solve(p, options=["tt", "order"], pv=False).value
                     * (1 if p.side == RED else -1))
    for x in [t for t in s.legal_turns() if t < 64]:
        s.make(x)
        o.make(x)
        replies = []
        for m in o.legal_turns():
            o.make(m)
            replies.append((o.probe(-inf, inf), m))
            o.unmake(m)
        v = o.probe(-inf, inf)
        s.plant_tt_entry(v, v, max(replies)[1])
        s.unmake(x)
        o.unmake(x)
    assert s.probe(value - 1, value) >= value


@pytest.mark.parametrize("options", [[], ["tt"], ["leaf"], ["tables"], ["order"],
                                     ["tt", "order"], list(OPTIONS)])
@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
def test_techniques_do_not_change_values(options, rule):
    p = example_at(3, rule)
    q = random_game_at(5, 3, rule)
    for pos in (p, q):
        assert solve(pos, options=options).value == solve(pos).value
        assert solve(pos, options=options, driver="pvs").value == solve(pos).value


def symmetric_position():
    """A transpose-symmetric position, Red to move, 4 turns left."""
    g = reference.Position().geometry
    sym = g.symmetries[[s.name for s in g.symmetries].index("transpose")]
    rng = random.Random(seed_of("symmetric"))
    p = reference.Position(red_neutrals=2, blue_neutrals=2)
    pts = [q for q in range(g.size) if sym.point_map[q] != q and q != g.index[(5, 5)]]
    # fill both sides symmetric pairs: red at q, red at image; blue similar
    used = set()
    red = blue = 0
    want = 13
    for side in (0, 1):
        n = 0
        while n < want:
            q = rng.choice(pts)
            if q in used:
                continue
            used |= {q, sym.point_map[q]}
            if side == 0:
                red |= 1 << q | 1 << sym.point_map[q]
            else:
                blue |= 1 << q | 1 << sym.point_map[q]
            n += 2
    # 14 stones each, red to move: 4 turns left
    return reference.Position(red=red, blue=blue, red_neutrals=1, blue_neutrals=1)


def test_symmetric_position_groups_turns():
    # Transpose-symmetric position: mirror images of each other's turns group together.
    p = symmetric_position()
    res = solve(p, all_turns=True)
    groups = {}
    for t in res.turns:
        groups.setdefault(t.group, []).append(t)
    assert any(len(v) == 2 for v in groups.values())
    for members in groups.values():
        assert len({m.value for m in members}) == 1
    brute_children = {}
    for t in res.turns[:3]:
        c = p.copy()
        c.play(t.turn)
        brute_children[t.turn] = solve(c, options=["tt"]).value
        assert brute_children[t.turn] == t.value


@pytest.mark.parametrize("case", ["symmetric", "basic-5", "advanced-4", "basic-6"])
def test_root_order_keeps_values(case):
    """The root's turns in the search's order (option ``root``): one turn per orbit,
    each once, and the same value and optimal turns as in plain turn order."""
    if case == "symmetric":
        p = symmetric_position()
    else:
        rule, tl = case.split("-")
        p = random_game_at(7, int(tl), BASIC if rule == "basic" else ADVANCED, (4, 4), p_neutral=0.0)
    core = to_core(p)
    orbits = turn_orbits(core)
    s = Searcher(core, 1 << 16, ALL_OPTIONS)
    order = ordered_orbit_turns(s, orbits)
    assert sorted(order) == sorted(o[0] for o in orbits)
    plain = solve(p, options=[o for o in DEFAULT_OPTIONS if o != "root"])
    ordered = solve(p)
    assert (ordered.value, ordered.best) == (plain.value, plain.best)
    if case == "symmetric":
        assert len(order) < len(core.legal_turns())


# --- limits --------------------------------------------------------------------------------------

@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
@pytest.mark.parametrize("limit", [1, 50, 2000])
def test_node_limit_gives_valid_bounds(rule, limit):
    p = example_at(5, rule)
    true = solve(p).value
    res = solve(p, node_limit=limit)
    if res.exact:
        assert res.value == true
    else:
        assert res.value is None and res.stopped == "node limit"
        assert res.lower <= true <= res.upper
        assert res.winner in (None, "red" if true > 0 else "blue" if true < 0 else "draw")


def test_node_limit_all_turns_partial():
    """A node limit that stops the turns' values: the root's value, searched first, is
    proved (a plain solve proves it in fewer nodes), the turns proved so far are right
    and the others bounded, and the answer is not complete."""
    p = example_at(4, BASIC)
    full = {t: v for t, v in turn_values(p)}
    plain = solve(p)
    assert solve(p, all_turns=True).nodes > 300       # the limit cuts the turns short
    res = solve(p, all_turns=True, node_limit=300)
    assert res.exact and res.value == plain.value == max(full.values())
    assert not res.complete and not res.best_complete and res.stopped
    assert set(res.best) <= {t for t, v in full.items() if v == plain.value}
    assert not all(t.exact for t in res.turns)
    for t in res.turns:
        assert t.lower <= full[t.turn] <= t.upper
        if t.exact:
            assert t.value == full[t.turn]


def test_finished_game():
    p = example_at(0)
    res = solve(p)
    assert res.exact and res.value == 199 and res.pv == [] and res.scores == {"red": 16, "blue": 14}


def test_too_deep_needs_a_limit():
    p = example_at(20)
    with pytest.raises(ValueError, match="too deep"):
        solve(p)
    res = solve(p, node_limit=2000)
    assert not res.exact and res.lower <= res.upper


@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
def test_beyond_eight_turns_with_the_neutrals_spent_no_limit_is_needed(rule):
    """With the supplies spent, 9 turns left usually take a fraction of a second
    (PROOF_NODES): solved without a limit, and the value is the best of its turns'
    values, each position after a turn solved on its own (8 turns left)."""
    from szsolver import Position
    from szsolver.endgame.solver import usually_proved
    from szsolver.rules.playout import seeded_rng
    p = Position(rule=rule, red_neutrals=5 - rule, blue_neutrals=5 - rule)
    rng = seeded_rng("no limit", rule)
    while p.turns_left > 9:
        p.play(rng.choice(list(p.legal_turns())))
    assert usually_proved(p, None)
    res = solve(p, pv=False)
    assert res.exact
    values = []
    for t in p.legal_turns():
        p.make(t)
        values.append(solve(p, pv=False).value)
        p.unmake(t)
    assert res.value == (max(values) if p.side == 0 else min(values))


def test_core_and_reference_positions_agree():
    from szsolver.rules import _core
    p = example_at(3, ADVANCED)
    c = parse_position(position_string(p), backend=_core.Position)
    assert solve(c).value == solve(p).value


# --- CLI -------------------------------------------------------------------------------------------

def test_cli_json():
    p = example_at(3, BASIC)
    r = CliRunner().invoke(main, ["solve", position_string(p), "--json", "--all-turns"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    res = solve(p, all_turns=True)
    assert d["value"] == res.value and d["exact"] is True
    assert d["winner"] == res.winner and d["scores"] == res.scores
    assert len(d["turns"]) == len(p.legal_turns())
    assert all(isinstance(t["turn"], str) and isinstance(t["value"], int) for t in d["turns"])
    assert d["best"] and all(isinstance(t, str) for t in d["best"])
    assert len(d["pv"]) == 3


def test_cli_text_and_errors():
    p = example_at(2, ADVANCED)
    r = CliRunner().invoke(main, ["solve", position_string(p)])
    assert r.exit_code == 0 and "value" in r.output.lower()
    r = CliRunner().invoke(main, ["solve", "not/a/position R 5 5 basic"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and r.output.startswith("Error:")
    r = CliRunner().invoke(main, ["solve", position_string(example_at(20))])
    assert r.exit_code == 2 and "too deep" in r.output
    r = CliRunner().invoke(main, ["solve", position_string(p), "--tt-size", str(10 ** 14)])
    assert r.exit_code == 2 and "does not fit" in r.output
    r = CliRunner().invoke(main, ["solve", position_string(p), "--node-limit", "0"])
    assert r.exit_code == 2 and r.output.startswith("Error:")
    r = CliRunner().invoke(main, ["solve", position_string(example_at(20)), "--node-limit", "500",
                                  "--json"])
    assert r.exit_code == 3             # answered, but the value is not proved
    d = json.loads(r.output)
    assert d["exact"] is False and d["value"] is None and d["lower"] <= d["upper"]


# --- other boards: a 5x5 square board and a 37-point hex board ------------------------------

def hex37():
    """The 37-point hex board of tests/test_core.py: six directions, three axes."""
    from szsolver.rules import geometry as geo
    coords = tuple((i, j) for i in range(1, 8) for j in range(max(5 - i, 1), min(11 - i, 7) + 1))
    return geo.Geometry("hex-37", coords, geo.HEX_DIRECTIONS, geo.HEX_DIRECTION_NAMES,
                        cell="hex", linear_candidates=geo.HEX_LINEAR)


def board_position(board, seed, tl, rule):
    """Seeded random play on ``board`` ("square-5": 8 stones a side; "hex-37": 14)
    until ``tl`` turns remain, 2+2 neutrals at the start."""
    from szsolver.rules import geometry as geo
    g = geo.square(5) if board == "square-5" else hex37()
    per_side = 8 if board == "square-5" else 14
    rng = random.Random(seed_of("solver-boards", board, seed, tl, rule))
    p = reference.Position(g, red_neutrals=2, blue_neutrals=2, rule=rule, stones_per_side=per_side)
    random_play(p, p.turns_left - tl, rng, 0.3)
    return p


BOARD_CASES = [(board, seed, tl, rule) for board in ("square-5", "hex-37")
               for rule in (BASIC, ADVANCED) for tl, seed in ((1, 0), (1, 1), (2, 2), (2, 3), (3, 4), (3, 5), (4, 6))]
# ("root" orders the driver's root turns: tested on its own below)
SEARCH_OPTIONS = [o for o in OPTIONS if o != "root"]


def covering_subsets(names, strength=3):
    """Subsets of ``names`` in which every choice of on and off for any ``strength`` of
    them occurs (a covering array): none, all, each alone, each left out, then
    subsets drawn from a hashlib seed until the last combination is covered. A bug
    that shows only when some techniques are on and others off needs such a
    combination of a few of them; every one of the 2**14 subsets (16,384 solves a
    position) cost the suite a minute for little more."""
    import hashlib
    import itertools
    n = len(names)
    rows = [0, (1 << n) - 1] + [1 << i for i in range(n)] + [((1 << n) - 1) ^ (1 << i)
                                                             for i in range(n)]
    need = {(c, v) for c in itertools.combinations(range(n), strength)
            for v in range(1 << strength)}

    def covered(row):
        return {(c, sum((row >> i & 1) << j for j, i in enumerate(c)))
                for c in itertools.combinations(range(n), strength)}
    for row in rows:
        need -= covered(row)
    k = 0
    while need:
        row = int.from_bytes(hashlib.sha256(f"solver-subsets:{k}".encode()).digest()[:4], "big")
        row &= (1 << n) - 1
        k += 1
        if covered(row) & need:
            rows.append(row)
            need -= covered(row)
    return [[o for i, o in enumerate(names) if row >> i & 1] for row in rows]


SUBSETS = covering_subsets(SEARCH_OPTIONS, 4)


def test_the_subsets_cover_every_four_techniques():
    """Every on/off choice of every four techniques, checked here by enumeration."""
    import itertools
    sets = [set(s) for s in SUBSETS]
    for four in itertools.combinations(SEARCH_OPTIONS, 4):
        seen = {tuple(o in s for o in four) for s in sets}
        assert len(seen) == 16, four
    assert len(SUBSETS) < 200


@pytest.mark.parametrize("board,seed,tl,rule", BOARD_CASES)
def test_other_boards_match_brute_force(board, seed, tl, rule):
    """The search on boards other than the Stars' Zone (other sizes, six directions)
    against the independent brute force, with the techniques on and off in every
    combination of any four of them (:func:`covering_subsets`) and both drivers; and
    every turn's value."""
    p = board_position(board, seed, tl, rule)
    bv = Brute().turn_values(p.copy())
    best_val = max(bv.values()) if p.side == RED else min(bv.values())
    for options in SUBSETS:
        assert solve(p, options=options, pv=False).value == best_val, options
    assert solve(p, options=list(OPTIONS), driver="pvs", pv=False).value == best_val
    assert solve(p, options=[], driver="pvs", pv=False).value == best_val
    res = solve(p, all_turns=True)
    assert {t.turn: t.value for t in res.turns} == bv
    assert sorted(res.best) == sorted(t for t, v in bv.items() if v == best_val)
    plain = solve(p)
    q = p.copy()
    for t in plain.pv:
        q.play(t)
    assert q.is_over() and q.value() == best_val


@pytest.mark.parametrize("threads", [1, 2])
def test_turns_a_limit_left_unknown_come_after_the_proved_ones(threads):
    """Under a limit, every turn's values are listed best first by what is proved: the
    value each turn is proved to reach at least (the mover's side), the exact ones first
    among equals; a turn the limit left unknown no longer heads the list on its trivial
    optimistic bound (before: [-1600, +1604] first, above turns proved at -98)."""
    from szsolver.formats.notation import parse_position
    red = parse_position("../.BRBB./.B..N.R/BRR....R/...BNRB../BB.R.BRN/R..R..R/.RBBBR/.. "
                         "R 4 2 advanced")
    blue = red.copy()
    blue.play("14")
    for pos in (red, blue):
        # the value is proved first: this limit leaves some turns proved, not all
        r = solve(pos, all_turns=True, node_limit=2_000_000, threads=threads)
        sign = 1 if pos.side == 0 else -1
        sure = [sign * (t.lower if sign > 0 else t.upper) for t in r.turns]
        assert sure == sorted(sure, reverse=True)
        assert any(t.exact for t in r.turns) and not all(t.exact for t in r.turns)
        for a, b in zip(r.turns, r.turns[1:]):
            if sign * (a.lower if sign > 0 else a.upper) == sign * (b.lower if sign > 0 else b.upper):
                assert a.exact or not b.exact
        assert r.turns[0].exact
