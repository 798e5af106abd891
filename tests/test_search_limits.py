"""The endgame search's limits and checked inputs: a tiny transposition table,
external score caps, TT turns that belong to another position, boards and stone
counts beyond the Stars' Zone, and one-line errors for what the search refuses."""
import hashlib
import random
import subprocess
import sys

import pytest

from szsolver.errors import IllegalTurnError, InvalidPositionError, UnsupportedError
from szsolver.rules import _core, reference
from szsolver.rules import geometry as geo
from szsolver.rules.playout import random_play
from szsolver.rules.base import ADVANCED, BASIC, RED
from szsolver.endgame._search import DEBUG_CHECKS, Searcher, check_searchable
from szsolver.endgame.solver import solve
from szsolver.formats.notation import parse_position
from szsolver.rules.backends import to_core


def seeded(*parts) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "big"))


def game_at(seed, turns_left, rule, neutrals=(4, 4), p_neutral=0.2, geometry=geo.STARS_ZONE,
            stones_per_side=16):
    p = reference.Position(geometry, red_neutrals=neutrals[0], blue_neutrals=neutrals[1],
                           rule=rule, stones_per_side=stones_per_side)
    random_play(p, p.turns_left - turns_left, seeded("search-limits", seed, rule, geometry.name),
                p_neutral)
    return p


def minimax(p, cache=None):
    """Plain minimax over every legal turn on the reference back end; a side's
    score is cached by (side, its stones, the neutrals if they block)."""
    cache = {} if cache is None else cache
    if p.is_over():
        sc = []
        for side in (0, 1):
            key = (side, p.stones(side), p.neutral if p.rule == ADVANCED else 0)
            if key not in cache:
                cache[key] = p.score(side)
            sc.append(cache[key])
        return 100 * (sc[0] - sc[1]) + p.red_neutrals - p.blue_neutrals
    vals = []
    for t in p.legal_turns():
        p.make(t)
        vals.append(minimax(p, cache))
        p.unmake(t)
    return max(vals) if p.side == RED else min(vals)


def one_line(exc_info) -> str:
    msg = str(exc_info.value)
    assert msg and "\n" not in msg
    return msg


# --- a 16-entry transposition table ------------------------------------------------------------

# Plain alpha-beta on 4 turns left under the Advanced rule takes ~1 M nodes: 2-3 there.
TINY_TT_CASES = [(seed, tl, rule) for rule in (BASIC, ADVANCED) for seed in range(8)
                 for tl in ((2, 3, 4) if rule == BASIC else (2, 3))]


@pytest.mark.parametrize("seed,tl,rule", TINY_TT_CASES)
def test_tiny_tt_matches_plain_alpha_beta(seed, tl, rule):
    """16 entries: entries are overwritten all the time, so every replacement and
    merge path runs; values must equal plain alpha-beta without a table."""
    p = game_at(seed, tl, rule)
    plain = solve(p, options=[], pv=False)
    assert plain.exact
    tiny = solve(p, tt_size=16, pv=False)
    assert tiny.tt["tt_entries"] == 16
    assert tiny.value == plain.value
    assert solve(p, tt_size=16, options=["tt"], pv=False).value == plain.value
    assert solve(p, tt_size=16, driver="pvs", pv=False).value == plain.value
    full = solve(p, tt_size=16)          # best turns and PV proved through the tiny table
    assert full.value == plain.value and full.pv and full.pv[0] in full.best


# --- external score caps -------------------------------------------------------------------------

@pytest.mark.parametrize("seed,rule", [(0, BASIC), (1, BASIC), (2, ADVANCED), (3, ADVANCED)])
def test_valid_score_caps_never_change_the_value(seed, rule):
    from szsolver.bounds import score_bound
    p = game_at(100 + seed, 4, rule)
    caps = (score_bound(p, 0), score_bound(p, 1))
    ref = solve(p)
    capped = solve(p, score_caps=caps)
    assert capped.value == ref.value and capped.best == ref.best
    assert solve(p, score_caps=caps, options=["tt", "tables", "leaf"], pv=False).value == ref.value
    # looser caps are valid too
    assert solve(p, score_caps=(caps[0] + 3, caps[1] + 1), pv=False).value == ref.value
    # a cap at a side's final score in the PV is not a valid bound in general, but the
    # best final scores the caps allow can never exceed them
    assert capped.scores["red"] <= caps[0] and capped.scores["blue"] <= caps[1]


# --- TT turns from another position ------------------------------------------------------------

@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
def test_illegal_tt_turn_is_never_played(rule):
    """A TT entry whose turn is illegal here (what a key collision would hand over)
    must be ignored: the same value as a clean search, the bad turn counted."""
    p = to_core(game_at(7, 4, rule))
    s0 = Searcher(p, 1 << 12)
    clean = s0.probe(-30000, 30000)
    occupied = (p.red | p.blue).bit_length() - 1
    for bad in (occupied, 60 + 64 * (occupied + 1), 63):     # occupied, off-board, unused point
        s = Searcher(p, 1 << 12)
        s.plant_tt_entry(-30000, 30000, bad)
        assert s.tt_move() == -1
        assert s.probe(-30000, 30000) == clean
        assert s.tt_bad_turns >= 1
    # the same in a child, where the four-turn rule reads TT turns of refutations
    s = Searcher(p, 1 << 12)
    t = p.legal_turns()[0]
    s.make(t)
    s.plant_tt_entry(-30000, 30000, occupied)
    s.unmake(t)
    assert s.probe(-30000, 30000) == clean


@pytest.mark.skipif(not DEBUG_CHECKS, reason="only a debug build (SZSOLVER_DEBUG=1) checks")
def test_debug_build_checks_tt_merges():
    """Two intervals of one position that do not meet (impossible unless keys
    collide or the search is wrong) stop a debug build with a message."""
    script = ("from szsolver.rules import _core\n"
              "from szsolver.endgame._search import Searcher\n"
              "s = Searcher(_core.Position(), 1 << 10)\n"
              "s.plant_tt_entry(-30000, 0, -1)\n"
              "s.plant_tt_entry(5, 30000, -1)\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert r.returncode != 0 and "lo > hi" in r.stderr


# --- more than 16 stones a side, other boards ------------------------------------------------------

def hex61():
    """A hexagon of 61 points (radius 4): six directions, room for 24 stones a side."""
    coords = tuple((i, j) for i in range(1, 10) for j in range(max(6 - i, 1), min(14 - i, 9) + 1))
    return geo.Geometry("hex-61", coords, geo.HEX_DIRECTIONS, geo.HEX_DIRECTION_NAMES,
                        cell="hex", linear_candidates=geo.HEX_LINEAR)


BIG_BOARDS = {"square-8": (geo.square(8), 20), "hex-61": (hex61(), 24)}


@pytest.mark.parametrize("rule", [BASIC, ADVANCED])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("board", list(BIG_BOARDS))
def test_more_than_sixteen_stones_a_side(board, seed, rule):
    """20 stones a side on the 8x8 board (64 points: every bit used) and 24 on a
    61-point hex board (scores over 16: six directions give 64 patterns), against
    plain minimax: 3 turns left without neutrals, 2 with one neutral for Red."""
    g, per_side = BIG_BOARDS[board]
    p = game_at(seed, 3, rule, neutrals=(2, 2), p_neutral=1.0, geometry=g, stones_per_side=per_side)
    assert p.red_neutrals == p.blue_neutrals == 0
    assert solve(p).value == minimax(p.copy())
    q = game_at(seed + 10, 2, rule, neutrals=(1, 0), p_neutral=0.0, geometry=g,
                stones_per_side=per_side)
    assert q.side == RED and q.red_neutrals == 1
    assert solve(q).value == minimax(q.copy())


def test_score_tables_with_scores_over_sixteen():
    """Basic score tables at five turns left (they are used from 5 on) when the
    scores pass 16."""
    g, per_side = BIG_BOARDS["hex-61"]
    p = game_at(4, 5, BASIC, neutrals=(2, 2), p_neutral=1.0, geometry=g, stones_per_side=per_side)
    assert p.red_neutrals == p.blue_neutrals == 0 and max(p.scores()) > 16
    assert Searcher(to_core(p), 1 << 12).has_tables
    res = solve(p, pv=False)
    assert res.value == minimax(p.copy())
    assert solve(p, options=["tables"], pv=False).value == res.value


def test_board_tables_follow_the_whole_geometry():
    """Same name and points, other directions: separate C tables, and the solver
    answers for the directions it was given."""
    sq = geo.square(5)
    hexed = geo.Geometry("square-5", sq.coords, geo.HEX_DIRECTIONS, geo.HEX_DIRECTION_NAMES,
                         cell="hex", linear_candidates=geo.HEX_LINEAR)
    a, b = _core.Position(sq), _core.Position(hexed)
    assert a.tables is not b.tables
    for g in (sq, hexed):
        p = game_at(5, 2, ADVANCED, neutrals=(1, 1), geometry=g, stones_per_side=8)
        assert solve(p).value == minimax(p.copy())


# --- misuse: one-line errors ---------------------------------------------------------------------

def test_side_two_is_refused():
    for cls in (reference.Position, _core.Position):
        with pytest.raises(InvalidPositionError) as e:
            cls(side=2)
        assert "side" in one_line(e)


def test_seventeen_stones_are_refused():
    red = (1 << 17) - 1
    with pytest.raises(InvalidPositionError) as e:
        reference.Position(red=red)
    assert "17 red stones" in one_line(e)
    # 16 a side on 25 points: no room for the turns
    p = reference.Position(geo.square(5), stones_per_side=16)
    with pytest.raises(UnsupportedError) as e:
        solve(p)
    assert "may not hold" in one_line(e)


def test_board_over_64_points_is_refused():
    with pytest.raises(ValueError) as e:
        reference.Position(geo.square(9))
    assert "81 points" in one_line(e)

    class Stand_in:                      # anything that says it is on an 81-point board
        geometry = geo.square(9)
    with pytest.raises(UnsupportedError) as e:
        solve(Stand_in())
    assert "81 points" in one_line(e) and "64" in str(e.value)


def test_too_many_plies_without_a_limit():
    p = game_at(1, 20, BASIC)
    with pytest.raises(UnsupportedError) as e:
        solve(p)
    assert "too deep" in one_line(e)


def test_room_for_the_last_turn():
    """Blue's neutral on the game's last turn takes no point from a later stone: one
    empty point is enough for the last turn even with neutrals in the supply."""
    g = geo.square(3)
    p = reference.Position(g, red=0b000011011, blue=0b011100000, neutral=0b100000000,
                           red_neutrals=1, blue_neutrals=1, side=1, stones_per_side=4)
    assert p.turns_left == 1 and bin(p.empty).count("1") == 1
    assert solve(p).value == minimax(p.copy())
    check_searchable(to_core(p))


@pytest.mark.parametrize("kwargs,words", [
    (dict(options=["tt", "bogus"]), "unknown technique 'bogus'"),
    (dict(options="tt"), "unknown technique"),
    (dict(driver="alphabeta"), "unknown driver"),
    (dict(tt_size=1), "tt_size"),
    (dict(tt_size=10 ** 14), "does not fit"),
    (dict(node_limit=0), "node_limit"),
    (dict(time_limit=-1.0), "time_limit"),
    (dict(time_limit=float("nan")), "time_limit"),
    (dict(score_caps=(16,)), "score_caps"),
    (dict(score_caps=(-1, 5)), "score_caps"),
])
def test_bad_arguments(kwargs, words):
    p = game_at(2, 3, BASIC)
    with pytest.raises(UnsupportedError) as e:
        solve(p, **kwargs)
    assert words in one_line(e)


def test_searcher_checks_its_inputs():
    p = to_core(game_at(3, 3, BASIC))
    with pytest.raises(TypeError):
        Searcher(None)
    with pytest.raises(UnsupportedError) as e:
        Searcher(p, 1)
    assert "at least 2" in one_line(e)
    with pytest.raises(UnsupportedError) as e:
        Searcher(p, 1 << 12, 1 << 16)
    assert "options" in one_line(e)
    s = Searcher(p, 1 << 12)
    occupied = (p.red | p.blue).bit_length() - 1
    with pytest.raises(IllegalTurnError):
        s.make(occupied)
    with pytest.raises(IllegalTurnError):
        s.set_root_turns([occupied])
    with pytest.raises(UnsupportedError):
        s.set_root_turns([])
    with pytest.raises(UnsupportedError) as e:
        s.set_shift(occupied)          # a stone there, no neutral
    assert "no neutral" in one_line(e)
    with pytest.raises(UnsupportedError):
        s.set_shift(64)
    with pytest.raises(UnsupportedError) as e:
        s.set_shift(occupied, 2)       # no such side
    assert "owner" in one_line(e)
    t, u = p.legal_turns()[:2]
    s.make(t)
    with pytest.raises(IllegalTurnError):
        s.unmake(u)                     # not the last turn made
    s.unmake(t)
    with pytest.raises(UnsupportedError):
        s.probe(5, 5)
    with pytest.raises(UnsupportedError):
        s.set_limits(-1, 0.0)
    with pytest.raises(UnsupportedError):
        s.set_score_caps(-1, 3)
    assert s.position() == p            # nothing above changed the position


def test_a_short_limit_gets_a_table_it_can_fill():
    """A table holds twice the nodes a node limit allows, and what a time limit's search
    can store (2 M entries a second): a 256 MiB table cost 0.5 s of page faults before
    a 0.02 s search started, and up to 1.1 s of a 1.5 s solve. The answer under the
    limit stays proved."""
    from szsolver.endgame import solver as sv
    from szsolver.formats.record import example_game
    assert sv.tt_entries_for(8) == 1 << 23
    assert sv.tt_entries_for(8, time_limit=0.02) == 1 << 16          # 40,000 entries' room
    assert sv.tt_entries_for(8, node_limit=1000) == 1 << 14          # the least table
    assert sv.tt_entries_for(8, time_limit=1, node_limit=100_000) == 1 << 18
    assert sv.tt_entries_for(8, time_limit=1.5) == 1 << 22
    assert sv.tt_entries_for(8, time_limit=5) == 1 << 23             # the depth's size
    pos = example_game().positions[24]
    res = sv.solve(pos, node_limit=20_000)
    assert res.tt["tt_entries"] == 1 << 16 and res.tt["tt_stores"] <= res.tt["tt_entries"]
    assert res.lower <= sv.solve(pos).value <= res.upper


def test_a_long_deep_solve_gets_a_larger_table(monkeypatch):
    """Beyond 8 turns left a limit of a minute (or 200 M nodes) grows the default table to
    2**25 entries, never past an eighth of the machine's memory; short limits and
    shallow solves keep the depth's size, and the answer is the same as with it."""
    from szsolver.endgame import solver as sv
    monkeypatch.setattr(sv, "physical_memory", lambda: 64 << 30)
    assert sv.tt_entries_for(10, time_limit=180) == 1 << 25
    assert sv.tt_entries_for(9, node_limit=300_000_000) == 1 << 25
    assert sv.tt_entries_for(10, time_limit=5) == 1 << 23
    # a short time limit beside a large node limit is a short search: no 1 GiB table
    # (its page faults took 2.9 s of a 1 s limit)
    assert sv.tt_entries_for(12, time_limit=1, node_limit=10 ** 9) == 1 << 21
    assert sv.tt_entries_for(12, time_limit=180, node_limit=10 ** 9) == 1 << 25
    assert sv.tt_entries_for(8, time_limit=600) == 1 << 23
    assert sv.tt_entries_for(3, time_limit=600) == 1 << 14
    monkeypatch.setattr(sv, "physical_memory", lambda: 2 << 30)   # 256 MiB an eighth
    assert sv.tt_entries_for(10, time_limit=180) == 1 << 23
    monkeypatch.setattr(sv, "physical_memory", lambda: None)
    assert sv.tt_entries_for(10, time_limit=180) == 1 << 23
    monkeypatch.setattr(sv, "physical_memory", lambda: 64 << 30)
    pos = "NN/N.R.N./RBRBNB./.NBRBRR./....NRN../.R...BN./BR.BRBB/.R...B/.. R 0 0 advanced"
    big = solve(parse_position(pos), time_limit=600)
    small = solve(parse_position(pos), time_limit=600, tt_size=1 << 23)
    assert big.tt["tt_entries"] == 1 << 25 and small.tt["tt_entries"] == 1 << 23
    assert (big.value, big.best, big.exact) == (small.value, small.best, True)
