"""Stargazers rules: the board data's test vectors, hand-checked positions for every
rule, and the fast back end against the pure-Python reference on random games."""
import random

import pytest

from szsolver.errors import IllegalTurnError, InvalidPositionError, ParseError
from szsolver.rules.bits import bit_list, mask_of
from szsolver.stargazers import fast, reference
from szsolver.stargazers.base import BLUE, RED, side_of_placement
from szsolver.stargazers.geometry import BOARDS, DIRECTIONS, board

BACKENDS = [fast.Position, reference.Position]
NAMES = sorted(BOARDS)


def pos(cls, red=(), blue=(), protocol="1-2", name="12-star"):
    return cls(board=name, red=mask_of(red), blue=mask_of(blue), protocol=protocol)


# --- boards -------------------------------------------------------------------------------

@pytest.mark.parametrize("name,cells,stars,playable",
                         [("12-star", 51, 12, 39), ("18-star", 84, 18, 66),
                          ("27-star", 138, 27, 111)])
def test_board_sizes(name, cells, stars, playable):
    b = board(name)
    assert (b.size, len(b.star_cells), b.playable.bit_count()) == (cells, stars, playable)


@pytest.mark.parametrize("name", NAMES)
def test_lines_follow_the_axial_directions(name):
    # each line steps by its direction vector from the cell, and cell numbers rise
    # along E NE NW and fall along W SW SE (what the fast back end's bit tricks rely on)
    b = board(name)
    where = {qr: i for i, qr in enumerate(b.coords)}
    vec = b.data["direction_vectors"]
    for i, (q, r) in enumerate(b.coords):
        for d, line in zip(DIRECTIONS, b.lines[i]):
            dq, dr = vec[d]
            k, walk = 1, []
            while (q + k * dq, r + k * dr) in where:
                walk.append(where[(q + k * dq, r + k * dr)])
                k += 1
            assert list(line) == walk
            assert all((c > i) == (d in ("E", "NE", "NW")) for c in line)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("cls", BACKENDS)
def test_vector_empty_board_legal_first_placements(name, cls):
    p = cls(board=name)
    assert p.legal_placements() == sorted(board(name).data["empty_board_legal_first_placements"])


@pytest.mark.parametrize("name", NAMES)
def test_vector_empty_board_visible_stars(name):
    b = board(name)
    stars = set(b.star_cells)
    for cell, want in b.data["empty_board_visible_stars"].items():
        c = int(cell)
        assert sorted(reference.sees_stars(b, c, stars)) == sorted(want)
        seen = [f for f in fast.first_pieces(b, c, b.stars)
                if f >= 0 and not b.neighbours[c] >> f & 1]
        assert sorted(seen) == sorted(want)


@pytest.mark.parametrize("name", NAMES)
def test_vector_rotation_maps_the_board_onto_itself(name):
    b = board(name)
    rot = b.rot120
    assert sorted(rot) == list(range(b.size))
    assert mask_of(rot[s] for s in b.star_cells) == b.stars
    # neighbours go to neighbours, and three turns are the identity
    for i in range(b.size):
        assert mask_of(rot[n] for n in bit_list(b.neighbours[i])) == b.neighbours[rot[i]]
        assert rot[rot[rot[i]]] == i


@pytest.mark.parametrize("name", NAMES)
def test_rotated_positions_have_rotated_inspiration_and_placements(name):
    b = board(name)
    rng = random.Random(f"rot-{name}")
    p = fast.Position(board=name)
    for _ in range(b.size // 3):
        p.play(rng.choice(p.legal_placements()))
    rot = b.rot120
    turn = lambda m: mask_of(rot[c] for c in bit_list(m))  # noqa: E731
    q = fast.Position(board=name, red=turn(p.red), blue=turn(p.blue))
    assert q.inspired() == tuple(turn(m) for m in p.inspired())
    assert q.legal_mask() == turn(p.legal_mask())


# --- hand-checked rules -------------------------------------------------------------------
# The 12-star board, bottom row first:
#                  50*
#                46  47  48  49*
#          41* 42  43  44  45
#        35  36  37  38* 39  40
#  27* 28  29  30  31  32  33  34*
#    20  21  22* 23  24  25  26
#      13  14  15  16  17* 18  19
#     5*  6   7   8   9  10  11  12*
#               1*  2   3   4
#                         0*

@pytest.mark.parametrize("cls", BACKENDS)
def test_an_adjacent_star_does_not_inspire(cls):
    # red 2: E runs 3, 4 to the edge; NE and NW meet blue 9 and 8; W meets star 1,
    # adjacent: no view across an empty cell, so red 2 is uninspired
    p = pos(cls, red=[2], blue=[9, 8])
    assert p.inspired()[RED] == 0
    assert p.scores() == (0, 1)
    # while on the empty board cell 2 sees stars 17 and 22 (not 1)
    assert sorted(reference.sees_stars(p.board, 2, set(p.board.star_cells))) == [17, 22]


@pytest.mark.parametrize("cls", BACKENDS)
def test_enemy_stones_block_sight(cls):
    # one stone a turn: red 3 sees star 1 across the empty cell 2 (NE and NW are blocked
    # by blue 10 and 9, SE is the adjacent star 0)
    p = pos(cls, red=[3, 46], blue=[9, 10], protocol="1")
    assert p.inspired()[RED] >> 3 & 1
    p.play(47)
    p.play(2)          # blue fills cell 2: red 3 now sees blue on W and nothing else
    assert not p.inspired()[RED] >> 3 & 1
    assert p.uninspired()[RED] >> 3 & 1


@pytest.mark.parametrize("cls", BACKENDS)
def test_inspiration_is_recursive(cls):
    # red 9 sees star 41 (NW, across 16 23 30 36); red 3 sees only red 9; red 4 sees
    # only red 3 (NE runs off the board, NW is blue 10, SW the adjacent star 0)
    p = pos(cls, red=[3, 4, 9], blue=[2, 8, 10])
    assert p.inspired()[RED] == mask_of([3, 4, 9])
    assert (p.side, p.placements_left) == (BLUE, 1)
    p.play(16)         # blue cuts 9 from star 41: the whole chain goes dark
    assert p.inspired()[RED] == 0
    assert p.scores() == (0, 3)


@pytest.mark.parametrize("cls", BACKENDS)
def test_a_suicide_placement_is_refused(cls):
    # red on 18 would see: E 19 then the edge, NE blue 26, NW blue 25, W the adjacent
    # star 17, SW 10 3 then the edge, SE 11 then the edge: nothing that inspires
    p = pos(cls, red=[21], blue=[25, 26])
    assert p.side == RED
    assert not p.is_legal(18)
    with pytest.raises(IllegalTurnError, match="would not be inspired"):
        p.play(18)
    assert p.is_legal(19)   # 19 sees star 0 across 11 and 4 (SW)


# Found by random play and checked cell by cell on the reference: red to move, no
# legal placement, scores level.
TIE = ("stargazers:12-star:1-2:r=2,3,4,6,8,9,10,13,14,16,20,21,24,29,32,35,42:"
       "b=7,15,18,19,23,25,26,30,31,33,36,37,39,43,44,45,47,48")
TIE_SECOND = ("stargazers:12-star:1-2:r=2,3,4,7,8,9,15,16,18,19,28,29,35,36,37,42,47,48:"
              "b=6,11,13,14,20,21,23,24,25,26,30,32,33,39,40,43,45,46")


@pytest.mark.parametrize("cls", BACKENDS)
@pytest.mark.parametrize("text,placements_left", [(TIE, 2), (TIE_SECOND, 1)])
def test_on_a_tie_the_stuck_mover_loses(cls, text, placements_left):
    p = cls(text)
    assert p.placements_left == placements_left      # stuck at the first / second placement
    assert p.side == RED and p.is_over()
    for c in bit_list(p.empty):
        q = reference.Position(text)
        q.red |= 1 << c
        assert not q.inspired()[RED] >> c & 1         # each empty cell: a dead red stone
    r, b = p.scores()
    assert r == b
    assert p.winner() == BLUE
    assert "red cannot place" in p.result_text()


# --- turns and positions ------------------------------------------------------------------

def test_turn_protocols():
    p = fast.Position()
    sides = []
    for _ in range(7):
        sides.append(p.side)
        p.play(p.legal_placements()[0])
    assert sides == [RED, BLUE, BLUE, RED, RED, BLUE, BLUE]
    q = fast.Position(protocol="1")
    sides = []
    for _ in range(4):
        sides.append(q.side)
        q.play(q.legal_placements()[0])
    assert sides == [RED, BLUE, RED, BLUE]
    assert [side_of_placement(j, "1-2")[1] for j in range(5)] == [1, 2, 1, 2, 1]


@pytest.mark.parametrize("text,error", [
    ("stargazers:12-star:1-2:r=0:b=", InvalidPositionError),          # a star
    ("stargazers:12-star:1-2:r=2,3:b=", InvalidPositionError),        # counts
    ("stargazers:12-star:1-2:r=2:b=2,3", InvalidPositionError),       # both sides
    ("stargazers:12-star:1-2:r=99:b=", InvalidPositionError),         # off the board
    ("stargazers:9-star:1-2:r=:b=", ParseError),
    ("stargazers:12-star:3:r=:b=", ParseError),
    ("stargazers:12-star:1-2:r=x:b=", ParseError),
    ("stargazers:12-star:1-2:b=:r=", ParseError),
    ("stars-zone;basic", ParseError),
])
def test_bad_positions(text, error):
    with pytest.raises(error):
        fast.Position(text)


def test_position_strings_round_trip():
    p = fast.Position(board="18-star", protocol="1")
    rng = random.Random("strings")
    for _ in range(9):
        p.play(rng.choice(p.legal_placements()))
        assert fast.Position(str(p)) == p == reference.Position(str(p))


# --- the two back ends agree --------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("protocol", ["1-2", "1"])
def test_fast_and_reference_agree_on_random_games(name, protocol):
    # the reference tries every empty cell on a copy: on the larger boards its legal
    # placements are compared every few placements (inspiration at every one)
    rng = random.Random(f"parity-{name}-{protocol}")
    games, every = {"12-star": (6, 1), "18-star": (2, 3), "27-star": (1, 6)}[name]
    for _ in range(games):
        p = fast.Position(board=name, protocol=protocol)
        q = reference.Position(board=name, protocol=protocol)
        while True:
            if p.ply % every == 0 or p.legal_mask() == 0:
                assert p.legal_mask() == q.legal_mask()
            if p.ply % (2 * every) == 0:
                assert p.legal_mask(1 - p.side) == q.legal_mask(1 - q.side)
            assert p.inspired() == q.inspired()
            assert p.scores() == q.scores()
            if p.is_over():
                break
            c = rng.choice(p.legal_placements())
            p.play(c)
            q.play(c)
        assert p.winner() == q.winner() is not None
