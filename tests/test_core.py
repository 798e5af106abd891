"""Rules tests on both back ends, and property tests that the Cython core and
the pure-Python reference agree on random legal positions under both rules."""
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from szsolver.rules import geometry as geo
from szsolver.rules import reference
from szsolver.formats.notation import format_turn, parse_position, parse_turn, position_string
from szsolver.rules.playout import random_turn
from szsolver.rules.base import ADVANCED, BASIC, BLUE, RED, encode_turn

from szsolver.errors import IllegalTurnError
from szsolver.rules.backends import position_class as backend_class
from szsolver.rules.text import START

EXAMPLE_TURNS = ("44n66 64 41 54 14 28 34n24 84 96 95 46n85 65 74 76 86 87 72 82 52 51 "
                 "36 62 45n25 73n32 58 42n75 59 78n35 38 48 27 69").split()


def replay(Position, turns=EXAMPLE_TURNS, rule=BASIC, neutrals=(5, 5)):
    p = Position(red_neutrals=neutrals[0], blue_neutrals=neutrals[1], rule=rule)
    for t in turns:
        p.play(parse_turn(t))
    return p


def test_example_game_basic(Position):
    p = replay(Position)
    assert p.is_over()
    assert p.scores() == (16, 14)
    assert (p.red_neutrals, p.blue_neutrals) == (1, 2)  # Red used 4, Blue 3
    assert p.winner() == "red"
    assert p.value() == 100 * 2 + (1 - 2)


def test_no_winner_before_the_end(Position):
    """winner() names the winner once the game is over, None before (the value says
    who leads); as `score --json` does."""
    p = Position(START)
    assert p.winner() is None
    p.play("44")
    assert not p.is_over() and p.value() != 0 and p.winner() is None
    assert replay(Position).winner() == "red"


def test_example_game_advanced(Position):
    p = replay(Position, rule=ADVANCED)
    assert p.scores() == (11, 11)
    assert p.winner() == "blue"  # equal scores, Blue has more neutrals left
    assert p.value() == -1


def test_pattern_by_hand(Position):
    # Red on (4,4) and (4,6), centre neutral between nothing; (4,4) sees right only.
    g = geo.STARS_ZONE
    red = (1 << g.index[(4, 4)]) | (1 << g.index[(4, 6)]) | (1 << g.index[(6, 4)])
    blue = (1 << g.index[(1, 4)]) | (1 << g.index[(9, 5)]) | (1 << g.index[(2, 8)])
    p = Position(red=red, blue=blue, side=RED)
    up, right, down, left = 1, 2, 4, 8
    assert p.pattern(g.index[(4, 4)]) == right | down
    assert p.pattern(g.index[(4, 6)]) == left
    assert p.pattern(g.index[(6, 4)]) == up
    assert p.pattern(g.index[(5, 5)]) == -1
    assert p.score(RED) == 3
    # Blue (1,4)... (9,5) sees up through the centre under basic only.
    assert p.pattern(g.index[(9, 5)]) == 0  # nothing of Blue's in column 5 or row 9
    red2 = red | (1 << g.index[(7, 2)]) | (1 << g.index[(8, 7)])
    p2 = Position(red=red2, blue=blue | (1 << g.index[(3, 5)]) | (1 << g.index[(1, 5)]),
                  side=RED, rule=ADVANCED)
    assert p2.pattern(g.index[(9, 5)]) == 0   # centre neutral blocks the way up
    assert p2.pattern(g.index[(3, 5)]) == up  # (1,5) above, nothing blocks
    p3 = p2.with_rule(BASIC)
    assert p3.pattern(g.index[(9, 5)]) == up


def test_start_turns(Position):
    p = Position()
    turns = p.legal_turns()
    assert len(turns) == 54 + 54 * 53
    assert len(set(turns)) == len(turns)
    q = Position(red_neutrals=0)
    assert len(q.legal_turns()) == 54


def test_illegal_turns(Position):
    p = Position(red_neutrals=0)
    g = p.geometry
    with pytest.raises(IllegalTurnError, match="occupied"):
        p.play(encode_turn(g.index[(5, 5)]))
    with pytest.raises(IllegalTurnError, match="no neutral stones left"):
        p.play(encode_turn(0, 1))
    with pytest.raises(IllegalTurnError, match="where the stone goes"):
        Position().play(encode_turn(3, 3))
    over = replay(Position)
    with pytest.raises(IllegalTurnError, match="game is over"):
        over.play(encode_turn(0))
    assert over.legal_turns() == []


def test_make_unmake_restores(Position):
    p = replay(Position, EXAMPLE_TURNS[:10])
    before = (p.red, p.blue, p.neutral, p.red_neutrals, p.blue_neutrals, p.side, p.key)
    for t in p.legal_turns():
        p.make(t)
        p.unmake(t)
    assert (p.red, p.blue, p.neutral, p.red_neutrals, p.blue_neutrals, p.side, p.key) == before


def test_incremental_key_matches_full(Position):
    p = replay(Position, EXAMPLE_TURNS[:20])
    fresh = Position(red=p.red, blue=p.blue, neutral=p.neutral, red_neutrals=p.red_neutrals,
                     blue_neutrals=p.blue_neutrals, side=p.side, rule=p.rule)
    assert p.key == fresh.key
    assert p.with_rule(ADVANCED).key != p.key


def test_symmetries_keep_scores(Position):
    p = replay(Position, EXAMPLE_TURNS[:24])
    for rule in (BASIC, ADVANCED):
        q = p.with_rule(rule)
        for i in range(len(q.geometry.symmetries)):
            t = q.transformed(i)
            assert t.scores() == q.scores()
            assert sorted(t.patterns(RED).values()) == sorted(
                q.geometry.symmetries[i].map_pattern(v) for v in q.patterns(RED).values())
        c, sym = q.canonical()
        assert c == q.transformed(sym)
        assert all((c.red, c.blue, c.neutral) <= (q.transformed(i).red, q.transformed(i).blue,
                                                  q.transformed(i).neutral)
                   for i in range(len(q.geometry.symmetries)))


def test_pickle_and_copy(Position):
    p = replay(Position, EXAMPLE_TURNS[:7])
    q = pickle.loads(pickle.dumps(p))
    assert q == p and q.key == p.key
    c = p.copy()
    c.play(c.legal_turns()[0])
    assert c != p


@pytest.mark.parametrize("text,problem", [
    ("../....../......./......../....R..../......../......./....../.. B 5 5 basic", "centre"),
    ("../....../......./......../......../......../......./....../.. R 5 5 basic", "row 5"),
    ("../....../......./......../......... ./......../......./....../.. R 5 5 basic", "5 fields"),
    ("R./....../......./......../....N..../......../......./....../.. R 5 5 basic", "red to move"),
    ("R./....../......./......../....N..../......../......./....../B. B 5 5 basic", "blue to move"),
    ("NN/....../......./......../....N..../......../......./....../.. R 5 5 basic", "neutral"),
    ("../....../......./......../....N..../......../......./....../.. R 8 5 basic", "at most 7"),
    ("../....../......./......../....N..../......../......./....../.. R -1 5 basic", "0..7"),
    ("X./....../......./......../....N..../......../......./....../.. R 5 5 basic", "unknown character"),
    ("../....../......./......../....N..../......../......./....../.. R 5 5 blitz", "unknown rule"),
])
def test_bad_positions(Position, text, problem):
    with pytest.raises(ValueError, match=problem):
        parse_position(text, backend=Position)


def test_too_many_stones(Position):
    g = geo.STARS_ZONE
    free = [p for p in range(g.size) if p != g.index[(5, 5)]]
    red = sum(1 << p for p in free[:17])
    blue = sum(1 << p for p in free[17:34])
    with pytest.raises(ValueError, match="17 red stones"):
        Position(red=red, blue=blue, side=RED)


# --- core == reference on random legal positions ------------------------------------------

# A turn as hypothesis draws it: (stone, neutral?, neutral), indexes into the empty
# points. Each part shrinks towards 0 (the lowest empty point, no neutral), so a failing
# game shrinks to few turns on early points.
TURN_PARTS = st.tuples(st.integers(0, 63), st.integers(0, 9), st.integers(0, 63))


def turn_from_parts(pos, parts):
    """The legal turn of ``pos`` that drawn ``parts`` name: the stone on the i-th empty
    point (cyclically), and while the side has neutrals, 3 times in 10 a neutral on the
    j-th other empty point."""
    i, k, j = parts
    empties = [p for p in range(pos.geometry.size) if pos.empty >> p & 1]
    stone = empties[i % len(empties)]
    if pos.neutrals_left(pos.side) and k >= 7:
        others = [p for p in empties if p != stone]
        return encode_turn(stone, others[j % len(others)])
    return encode_turn(stone)


@st.composite
def games(draw):
    """A random legal game played on both back ends in step: either rule, each side's
    neutral supply 0..7, 0..32 turns drawn by hypothesis (:func:`turn_from_parts`).
    Returns ``(reference position, core position, the turns as text)``."""
    rule = draw(st.sampled_from([BASIC, ADVANCED]))
    neutrals = (draw(st.integers(0, 7)), draw(st.integers(0, 7)))
    ref = reference.Position(red_neutrals=neutrals[0], blue_neutrals=neutrals[1], rule=rule)
    core = backend_class("core")(red_neutrals=neutrals[0], blue_neutrals=neutrals[1], rule=rule)
    played = []
    plies = draw(st.integers(0, 32))      # uniform game lengths, the end included
    for parts in draw(st.lists(TURN_PARTS, min_size=plies, max_size=plies)):
        t = turn_from_parts(ref, parts)
        ref.play(t)
        core.play(t)
        played.append(format_turn(t))
    return ref, core, played


def same(ref, core):
    assert (ref.red, ref.blue, ref.neutral, ref.red_neutrals, ref.blue_neutrals, ref.side,
            ref.rule) == (core.red, core.blue, core.neutral, core.red_neutrals,
                          core.blue_neutrals, core.side, core.rule)
    assert ref.key == core.key
    for side in (RED, BLUE):
        assert ref.patterns(side) == core.patterns(side)
        assert ref.pattern_set(side) == core.pattern_set(side)
        assert ref.score(side) == core.score(side)
    assert ref.value() == core.value()
    assert ref.is_over() == core.is_over()
    assert str(ref) == str(core) == position_string(ref)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games())
def test_core_agrees_with_reference(game):
    ref, core, _ = game
    same(ref, core)
    assert ref.legal_turns() == core.legal_turns()
    assert ref.canonical()[1] == core.canonical()[1]
    assert ref.canonical()[0].key == core.canonical()[0].key
    for p in range(-1, ref.geometry.size + 1):
        assert ref.pattern(p) == core.pattern(p)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), data=st.data())
def test_core_make_unmake_agree(game, data):
    # A line of up to 8 turns made one after another, then taken back in reverse order:
    # the back ends agree at every step and end where they started.
    ref, core, _ = game
    start = str(ref)
    line = []
    for _ in range(data.draw(st.integers(1, 8), label="depth")):
        if ref.is_over():
            break
        t = data.draw(st.sampled_from(ref.legal_turns()), label="turn")
        ref.make(t)
        core.make(t)
        line.append(t)
        same(ref, core)
    for t in reversed(line):
        ref.unmake(t)
        core.unmake(t)
        same(ref, core)
    assert str(ref) == str(core) == start


@pytest.mark.parametrize("board", ["square-8", "square-5"])
def test_core_on_square_boards(board):
    # The core is geometry-generic: same answers as the reference on other boards.
    g = geo.by_name(board)
    rng = random.Random(board)
    Core = backend_class("core")
    for _ in range(200):
        pts = rng.sample(range(g.size), min(g.size, 2 * rng.randint(0, min(16, g.size // 3))))
        half = len(pts) // 2
        red = sum(1 << p for p in pts[:half])
        blue = sum(1 << p for p in pts[half:2 * half])
        rest = [p for p in range(g.size) if not (red | blue) >> p & 1]
        neutral = sum(1 << p for p in rng.sample(rest, min(len(rest), rng.randint(0, 2))))
        nn = bin(neutral).count("1")
        kw = dict(red=red, blue=blue, neutral=neutral, red_neutrals=7 - (nn + 1) // 2,
                  blue_neutrals=7 - nn // 2, side=RED, rule=rng.choice([BASIC, ADVANCED]))
        if nn > 2 * half:
            continue
        same(reference.Position(g, **kw), Core(g, **kw))


def test_core_on_a_small_hex_board():
    # Six directions (three axes, one of them not a row or column): the core's
    # generic path must still agree with the reference, both rules.
    coords = tuple((i, j) for i in range(1, 8) for j in range(max(5 - i, 1), min(11 - i, 7) + 1))
    g = geo.Geometry("hex-37", coords, geo.HEX_DIRECTIONS, geo.HEX_DIRECTION_NAMES,
                     cell="hex", linear_candidates=geo.HEX_LINEAR)
    assert len(g) == 37 and len(g.symmetries) == 12
    Core = backend_class("core")
    rng = random.Random("hex-37")
    for _ in range(300):
        rule = rng.choice([BASIC, ADVANCED])
        kw = dict(red_neutrals=rng.randint(0, 7), blue_neutrals=rng.randint(0, 7), rule=rule)
        ref, core = reference.Position(g, **kw), Core(g, **kw)
        for _ in range(rng.randint(0, 20)):   # 20 stones + 14 neutrals fit in 37 points
            t = random_turn(ref, rng, p_neutral=0.3)
            ref.play(t)
            core.play(t)
        same(ref, core)
        assert ref.canonical()[0].key == core.canonical()[0].key


@pytest.mark.parametrize("bad", [2, -1, 7, "green", None, 1.5, True])
def test_a_bad_side_is_refused_not_read_out_of_bounds(Position, bad):
    from szsolver.errors import ParseError
    from szsolver.rules.text import START
    pos = Position(START)
    pos.play("44n66")
    for method in (pos.stones, pos.neutrals_left, pos.patterns, pos.pattern_set, pos.score):
        with pytest.raises(ParseError, match="unknown side"):
            method(bad)
    assert pos.score("red") == pos.score(0) and pos.stones("blue") == pos.stones(1) == 0


def test_take_back_checks_the_turn(Position):
    """take_back is make's checked inverse: text or a code, and a turn the position
    cannot have ended with is an IllegalTurnError naming why."""
    p = Position(START)
    p.play("44n66")
    p.play("64")
    after = position_string(p)
    for bad, words in (("44", "no blue stone on 44"), ("65", "no blue stone on 65"),
                       ("64n77", "no neutral of a turn on 77"),
                       ("64n55", "no neutral of a turn on 55")):     # the board's own
        with pytest.raises(IllegalTurnError, match=words):
            p.take_back(bad)
    assert position_string(p) == after                  # unchanged by the refusals
    p.take_back("64")
    p.take_back(parse_turn("44n66"))
    assert position_string(p) == START and p.neutrals_left(RED) == 5


@pytest.mark.parametrize("board", ["stars-zone", "square-5", "square-8", "hex-37"])
def test_incremental_scores_agree_with_pattern_sets(board):
    # The incremental scores (Gains: the tree search's playouts and candidates, the
    # endgame's last-turn tables) tell the score with one more stone, or one more
    # blocker, on every empty point from the lines through it; pattern_set_c scores the
    # whole board. Random stones and blockers of every density, every point outside
    # them: the same score.
    from szsolver.rules import _core
    if board == "hex-37":
        coords = tuple((i, j) for i in range(1, 8)
                       for j in range(max(5 - i, 1), min(11 - i, 7) + 1))
        g = geo.Geometry("hex-37", coords, geo.HEX_DIRECTIONS, geo.HEX_DIRECTION_NAMES,
                         cell="hex", linear_candidates=geo.HEX_LINEAR)
    else:
        g = geo.by_name(board)
    pos = _core.Position(geometry=g)
    rng = random.Random(board)
    checked = 0
    for _ in range(1500):
        pts = rng.sample(range(g.size), g.size)
        a = rng.randint(0, g.size)
        c = rng.randint(0, g.size - a) if rng.random() < 0.7 else 0
        own = sum(1 << p for p in pts[:a])
        blockers = sum(1 << p for p in pts[a:a + c])
        for x, with_stone, scored, with_blocker, scored_blocked in \
                _core.score_changes(pos, own, blockers):
            assert (with_stone, with_blocker) == (scored, scored_blocked), \
                (board, own, blockers, x)
            checked += 1
            if rng.random() < 0.2:
                # adding the stone to the set-up gives the set-up of the stones with it
                made, fresh = _core.gains_after_stone(pos, own, blockers, x)
                assert made == fresh, (board, own, blockers, x)
    assert checked > 10 * g.size
