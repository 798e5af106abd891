"""Star: the board from its construction, scoring (reference, union-find, grid flood
fill), the score invariant, hand-checked cases and the play rules."""
import random

import pytest

from szsolver.errors import IllegalTurnError, InvalidPositionError, ParseError
from szsolver.star.board import STANDARD, board, by_name
from szsolver.star.groups import BLACK, WHITE, Groups, full_board_scores, grid_mask, grid_score
from szsolver.star.position import (PASS, SWAP, Position, diagram, format_move, parse_move,
                                    parse_position)
from szsolver.star.reference import reference_groups, reference_score, reference_scores

# The standard board's test vectors (axial q, r; names; border cells touched;
# neighbours; border cells with the board cells next to them), copied from the
# board data the rules come with: the construction must reproduce them exactly.
CELLS = (
    (0, 0, 0, 'A10', (0, 1, 7), (1, 6, 7)), (1, 1, 0, 'B10', (1, 2), (0, 2, 7, 8)),
    (2, 2, 0, 'C10', (2, 3), (1, 3, 8, 9)), (3, 3, 0, 'D10', (3, 4), (2, 4, 9, 10)),
    (4, 4, 0, 'E10', (4, 5), (3, 5, 10, 11)), (5, 5, 0, 'F10', (5, 6, 8), (4, 11, 12)),
    (6, -1, 1, 'A9', (7, 9), (0, 7, 13, 14)), (7, 0, 1, 'B9', (), (0, 1, 6, 8, 14, 15)),
    (8, 1, 1, 'C9', (), (1, 2, 7, 9, 15, 16)), (9, 2, 1, 'D9', (), (2, 3, 8, 10, 16, 17)),
    (10, 3, 1, 'E9', (), (3, 4, 9, 11, 17, 18)), (11, 4, 1, 'F9', (), (4, 5, 10, 12, 18, 19)),
    (12, 5, 1, 'G9', (8, 10), (5, 11, 19, 20)), (13, -2, 2, 'A8', (9, 11), (6, 14, 21, 22)),
    (14, -1, 2, 'B8', (), (6, 7, 13, 15, 22, 23)),
    (15, 0, 2, 'C8', (), (7, 8, 14, 16, 23, 24)), (16, 1, 2, 'D8', (), (8, 9, 15, 17, 24, 25)),
    (17, 2, 2, 'E8', (), (9, 10, 16, 18, 25, 26)),
    (18, 3, 2, 'F8', (), (10, 11, 17, 19, 26, 27)),
    (19, 4, 2, 'G8', (), (11, 12, 18, 20, 27, 28)),
    (20, 5, 2, 'H8', (10, 12), (12, 19, 28, 29)),
    (21, -3, 3, 'A7', (11, 13), (13, 22, 30, 31)),
    (22, -2, 3, 'B7', (), (13, 14, 21, 23, 31, 32)),
    (23, -1, 3, 'C7', (), (14, 15, 22, 24, 32, 33)),
    (24, 0, 3, 'D7', (), (15, 16, 23, 25, 33, 34)),
    (25, 1, 3, 'E7', (), (16, 17, 24, 26, 34, 35)),
    (26, 2, 3, 'F7', (), (17, 18, 25, 27, 35, 36)),
    (27, 3, 3, 'G7', (), (18, 19, 26, 28, 36, 37)),
    (28, 4, 3, 'H7', (), (19, 20, 27, 29, 37, 38)),
    (29, 5, 3, 'I7', (12, 14), (20, 28, 38, 39)),
    (30, -4, 4, 'A6', (13, 15, 17), (21, 31, 40)),
    (31, -3, 4, 'B6', (), (21, 22, 30, 32, 40, 41)),
    (32, -2, 4, 'C6', (), (22, 23, 31, 33, 41, 42)),
    (33, -1, 4, 'D6', (), (23, 24, 32, 34, 42, 43)),
    (34, 0, 4, 'E6', (), (24, 25, 33, 35, 43, 44)),
    (35, 1, 4, 'F6', (), (25, 26, 34, 36, 44, 45)),
    (36, 2, 4, 'G6', (), (26, 27, 35, 37, 45, 46)),
    (37, 3, 4, 'H6', (), (27, 28, 36, 38, 46, 47)),
    (38, 4, 4, 'I6', (), (28, 29, 37, 39, 47, 48)),
    (39, 5, 4, 'J6', (14, 16, 18), (29, 38, 48)),
    (40, -4, 5, 'B5', (17, 19), (30, 31, 41, 49)),
    (41, -3, 5, 'C5', (), (31, 32, 40, 42, 49, 50)),
    (42, -2, 5, 'D5', (), (32, 33, 41, 43, 50, 51)),
    (43, -1, 5, 'E5', (), (33, 34, 42, 44, 51, 52)),
    (44, 0, 5, 'F5', (), (34, 35, 43, 45, 52, 53)),
    (45, 1, 5, 'G5', (), (35, 36, 44, 46, 53, 54)),
    (46, 2, 5, 'H5', (), (36, 37, 45, 47, 54, 55)),
    (47, 3, 5, 'I5', (), (37, 38, 46, 48, 55, 56)),
    (48, 4, 5, 'J5', (18, 20), (38, 39, 47, 56)),
    (49, -4, 6, 'C4', (19, 21), (40, 41, 50, 57)),
    (50, -3, 6, 'D4', (), (41, 42, 49, 51, 57, 58)),
    (51, -2, 6, 'E4', (), (42, 43, 50, 52, 58, 59)),
    (52, -1, 6, 'F4', (), (43, 44, 51, 53, 59, 60)),
    (53, 0, 6, 'G4', (), (44, 45, 52, 54, 60, 61)),
    (54, 1, 6, 'H4', (), (45, 46, 53, 55, 61, 62)),
    (55, 2, 6, 'I4', (), (46, 47, 54, 56, 62, 63)),
    (56, 3, 6, 'J4', (20, 22), (47, 48, 55, 63)),
    (57, -4, 7, 'D3', (21, 23), (49, 50, 58, 64)),
    (58, -3, 7, 'E3', (), (50, 51, 57, 59, 64, 65)),
    (59, -2, 7, 'F3', (), (51, 52, 58, 60, 65, 66)),
    (60, -1, 7, 'G3', (), (52, 53, 59, 61, 66, 67)),
    (61, 0, 7, 'H3', (), (53, 54, 60, 62, 67, 68)),
    (62, 1, 7, 'I3', (), (54, 55, 61, 63, 68, 69)),
    (63, 2, 7, 'J3', (22, 24), (55, 56, 62, 69)),
    (64, -4, 8, 'E2', (23, 25), (57, 58, 65, 70)),
    (65, -3, 8, 'F2', (), (58, 59, 64, 66, 70, 71)),
    (66, -2, 8, 'G2', (), (59, 60, 65, 67, 71, 72)),
    (67, -1, 8, 'H2', (), (60, 61, 66, 68, 72, 73)),
    (68, 0, 8, 'I2', (), (61, 62, 67, 69, 73, 74)),
    (69, 1, 8, 'J2', (24, 26), (62, 63, 68, 74)),
    (70, -4, 9, 'F1', (25, 27, 28), (64, 65, 71)),
    (71, -3, 9, 'G1', (28, 29), (65, 66, 70, 72)),
    (72, -2, 9, 'H1', (29, 30), (66, 67, 71, 73)),
    (73, -1, 9, 'I1', (30, 31), (67, 68, 72, 74)),
    (74, 0, 9, 'J1', (26, 31, 32), (68, 69, 73)),
)
BORDER = (
    (0, 0, -1, (0,)), (1, 1, -1, (0, 1)), (2, 2, -1, (1, 2)), (3, 3, -1, (2, 3)),
    (4, 4, -1, (3, 4)), (5, 5, -1, (4, 5)), (6, 6, -1, (5,)), (7, -1, 0, (0, 6)),
    (8, 6, 0, (5, 12)), (9, -2, 1, (6, 13)), (10, 6, 1, (12, 20)), (11, -3, 2, (13, 21)),
    (12, 6, 2, (20, 29)), (13, -4, 3, (21, 30)), (14, 6, 3, (29, 39)), (15, -5, 4, (30,)),
    (16, 6, 4, (39,)), (17, -5, 5, (30, 40)), (18, 5, 5, (39, 48)), (19, -5, 6, (40, 49)),
    (20, 4, 6, (48, 56)), (21, -5, 7, (49, 57)), (22, 3, 7, (56, 63)), (23, -5, 8, (57, 64)),
    (24, 2, 8, (63, 69)), (25, -5, 9, (64, 70)), (26, 1, 9, (69, 74)), (27, -5, 10, (70,)),
    (28, -4, 10, (70, 71)), (29, -3, 10, (71, 72)), (30, -2, 10, (72, 73)),
    (31, -1, 10, (73, 74)), (32, 0, 10, (74,)),
)
CORNER_CELLS = (0, 5, 30, 39, 70, 74)
CORNER_PARTIALS = (0, 6, 15, 16, 27, 32)
BOARDS = ("5x6", "5x6-corners", "4x5", "4x5-corners", "6x7")


def test_the_standard_board_matches_the_vectors():
    b = STANDARD
    assert b.size == 75 and len(b.border) == 33 and b.total == 31
    assert [len(r) for r in b.rows_bottom_up] == [6, 7, 8, 9, 10, 9, 8, 7, 6, 5]
    for i, q, r, name, touches, nbrs in CELLS:
        assert b.cells[i] == (q, r)
        assert b.name_of(i) == name and b.cell_of(name.lower()) == i
        assert b.border_of[i] == touches
        assert tuple(sorted(b.neighbours[i])) == nbrs
    for i, q, r, adjacent in BORDER:
        assert b.border[i] == (q, r)
        assert tuple(sorted(c for c in range(b.size) if i in b.border_of[c])) == adjacent
    assert b.corner_cells == CORNER_CELLS and b.corner_partials == CORNER_PARTIALS
    perimeter = [c for c in range(b.size) if b.border_of[c]]
    assert len(perimeter) == 27
    assert sorted(len(b.border_of[c]) for c in perimeter) == [2] * 21 + [3] * 6


def test_the_corner_variant_and_other_sizes_come_from_the_same_construction():
    c = by_name("5x6-corners")
    assert c.size == 75 and len(c.border) == 27 and c.total == 25 and c.corner_partials == ()
    assert all(len(c.border_of[k]) == 2 for k in CORNER_CELLS)
    for name, (a, bb) in (("4x5", (4, 5)), ("6x7", (6, 7))):
        g = by_name(name)
        rows = [len(r) for r in g.rows_bottom_up]
        # sides b, a, b, a, b, a: rows grow from b to a+b-1, then shrink to a
        assert rows == list(range(bb, a + bb)) + list(range(a + bb - 2, a - 1, -1))
        assert len(g.border) == 3 * (a + bb) and len(g.corner_partials) == 6
        assert g.name_of(0) == f"A{a + bb - 1}"
    assert by_name("6x7").size == 108 and by_name("4x5").size == 48
    assert board(5, 6) is STANDARD
    for bad in ("5x", "x6", "5x6-edges", "1x6", "5x60", ""):
        with pytest.raises(ParseError):
            by_name(bad)


def _random_colouring(b, rng, fill=1.0):
    black = white = 0
    for c in range(b.size):
        x = rng.random()
        if x < fill / 2:
            black |= 1 << c
        elif x < fill:
            white |= 1 << c
    return black, white


def _cells(mask):
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


@pytest.mark.parametrize("name", BOARDS)
def test_fast_scorers_agree_with_the_reference_on_random_boards(name):
    b = by_name(name)
    rng = random.Random(f"star-scorers-{name}")
    for trial in range(150):
        black, white = _random_colouring(b, rng, fill=rng.choice((0.3, 0.6, 0.9, 1.0)))
        want = reference_scores(b, _cells(black), _cells(white))
        # the union-find, stones added in a random order, then taken back one by one
        g = Groups(b)
        order = _cells(black | white)
        rng.shuffle(order)
        seen = []
        for c in order:
            g.add(c, BLACK if black >> c & 1 else WHITE)
            seen.append(tuple(g.score))
        assert tuple(g.score) == want
        assert tuple(Groups(b, black, white).score) == want
        assert (grid_score(b, grid_mask(b, black)), grid_score(b, grid_mask(b, white))) == want
        for k in range(len(order) - 1, 0, -1):
            g.undo()
            assert tuple(g.score) == seen[k - 1]
        g.undo()
        assert g.score == [0, 0]


@pytest.mark.parametrize("name,total", [("5x6", 31), ("5x6-corners", 25), ("4x5", 25),
                                        ("4x5-corners", 19), ("6x7", 37)])
def test_the_scores_of_a_full_board_add_up_to_the_border_cells_less_two(name, total):
    b = by_name(name)
    rng = random.Random(f"star-invariant-{name}")
    for trial in range(300):
        black, white = _random_colouring(b, rng)
        bs, ws = reference_scores(b, _cells(black), _cells(white))
        assert bs + ws == total == len(b.border) - 2
        assert full_board_scores(b, black) == (bs, ws)
        assert tuple(Groups(b, black, white).score) == (bs, ws)


def _score_of(b, names):
    return reference_score(b, [b.cell_of(n) for n in names])


def test_hand_checked_corner_cells():
    std, cor = STANDARD, by_name("5x6-corners")
    # a lone stone on a corner touches three border cells (two along the sides and the
    # corner partial): a star worth 1; the corner variant has no corner partials, so
    # two, and no star alone
    for name in ("A10", "F10", "A6", "J6", "F1", "J1"):
        assert _score_of(std, [name]) == 1
        assert _score_of(cor, [name]) == 0
    # a lone stone on any other perimeter cell touches two: no star
    assert _score_of(std, ["B10"]) == 0 and _score_of(std, ["A9"]) == 0
    # the corner and its neighbour along the side: 4 border cells (3 in the variant)
    assert _score_of(std, ["A10", "B10"]) == 2 and _score_of(cor, ["A10", "B10"]) == 1
    # the bottom row A10-F10: the five border cells below it, the two corner
    # partials and one border cell up each slanted side: 9, so 7 points (5 without
    # the corner partials)
    bottom = ["A10", "B10", "C10", "D10", "E10", "F10"]
    assert _score_of(std, bottom) == 9 - 2 and _score_of(cor, bottom) == 7 - 2
    # all six corners at once: six separate stars
    assert _score_of(std, ["A10", "F10", "A6", "J6", "F1", "J1"]) == 6


def test_hand_checked_a_star_touching_a_border_cell_twice():
    b = STANDARD
    # B10 touches border cells below-left and below-right of it; C10 touches C10's
    # two: the one between B10 and C10 is touched by both stones and counts once:
    # 3 distinct border cells, a star worth 1 (not 4 - 2 = 2)
    assert reference_groups(b, [b.cell_of("B10"), b.cell_of("C10")]) == [([1, 2], 3)]
    assert _score_of(b, ["B10", "C10"]) == 1
    # along the bottom every adjacent pair shares one: B10..E10 touch 5 cells, not 8
    assert _score_of(b, ["B10", "C10", "D10", "E10"]) == 3
    g = Groups(b)
    g.add(b.cell_of("B10"), BLACK)
    g.add(b.cell_of("C10"), BLACK)
    assert g.score == [1, 0] and g.border_count(b.cell_of("C10")) == 3


def test_hand_checked_two_groups_sharing_a_border_cell():
    b = STANDARD
    black = [b.cell_of(n) for n in ("A10", "B10")]    # border cells: 3 around A10, 1 more
    white = [b.cell_of(n) for n in ("C10", "D10")]    # shares the one between B10 and C10
    shared = set(b.border_of[b.cell_of("B10")]) & set(b.border_of[b.cell_of("C10")])
    assert len(shared) == 1
    # the shared border cell counts for both: black 4 -> 2 points, white 3 -> 1 point
    assert reference_scores(b, black, white) == (2, 1)
    p = Position(b, sum(1 << c for c in black), sum(1 << c for c in white))
    assert p.scores() == (2, 1)


def test_play_black_first_swap_pass_and_the_end():
    p = Position()
    assert p.side == BLACK and not p.legal(SWAP)
    with pytest.raises(IllegalTurnError, match="swap"):
        p.play(SWAP)
    p.play(parse_move("D3"))
    assert p.side == WHITE and p.swap_open() and SWAP in p.legal_turns()
    q = p.after(SWAP)
    d3 = STANDARD.cell_of("D3")
    assert q.black == 0 and q.white == 1 << d3 and q.side == BLACK and not q.swap_open()
    p.play(parse_move("E5"))
    assert not p.swap_open()
    with pytest.raises(IllegalTurnError, match="not empty"):
        p.play(d3)
    p.play(PASS)
    assert p.passes == 1 and not p.is_over() and p.side == WHITE
    p.play(parse_move("A10"))            # a stone after a pass: the count starts again
    assert p.passes == 0
    p.play(PASS)
    p.play(PASS)
    assert p.is_over() and p.legal_turns() == []
    with pytest.raises(IllegalTurnError, match="over"):
        p.play(parse_move("B10"))
    # Black passing first: no first stone, so no swap for White afterwards
    r = Position().after(PASS).after(parse_move("C4"))
    assert not r.swap_open()


def test_a_full_board_is_over_and_scores_add_up():
    b = by_name("4x5")
    p = Position(b)
    rng = random.Random("star-fill")
    while not p.is_over():
        moves = p.legal_turns(passes=False)
        p.play(rng.choice(moves))
    assert p.empty == 0 and sum(p.scores()) == 25
    assert p.scores() == reference_scores(b, _cells(p.black), _cells(p.white))


def test_a_full_board_may_be_closed_by_the_two_passes_of_the_rules():
    """Two passes in a row end the game; a full board ends it too, but a record made
    by the rules as written closes it with the two passes: they read, and change
    nothing; a third is refused."""
    from szsolver.star.record import parse_game
    closed = parse_game('[Game "star"] [Board "2x2"] 1. A3 B3 2. A2 B2 3. C2 B1 4. C1 pass 5. pass')
    plain = parse_game('[Game "star"] [Board "2x2"] 1. A3 B3 2. A2 B2 3. C2 B1 4. C1')
    assert plain.final.is_over() and plain.final.empty == 0
    assert closed.final.is_over() and closed.final.passes == 2 and str(closed.final).endswith(":end")
    assert closed.final.scores() == plain.final.scores() == reference_scores(
        closed.board, _cells(closed.final.black), _cells(closed.final.white))
    assert closed.final.winner() == plain.final.winner() and closed.final.legal_turns() == []
    with pytest.raises(IllegalTurnError, match="over"):
        closed.final.play(PASS)
    with pytest.raises(IllegalTurnError, match="over"):
        plain.final.play(parse_move("A3", plain.board))


def test_position_strings_round_trip_and_bad_ones_are_parse_errors():
    rng = random.Random("star-strings")
    for name in BOARDS:
        b = by_name(name)
        for _ in range(20):
            black, white = _random_colouring(b, rng, fill=rng.random())
            p = Position(b, black, white, rng.randrange(2), rng.randrange(3))
            text = str(p)
            assert text.startswith(f"star:{b.name}:") and " " not in text
            assert parse_position(text) == p
    start = str(Position())
    for bad in ("", "5x6:..", start.replace("star", "stars"), start + ":pass:x",
                start.replace(":B", ":X"), start.replace("...../", "..../", 1),
                start.replace(".", "R", 1), start.replace("...../", "", 1), start + ":passed",
                start.replace("5x6", "5x7"), start + ":", start.replace(":", " ")):
        with pytest.raises(ParseError):
            parse_position(bad)
    with pytest.raises(InvalidPositionError):
        Position(STANDARD, 1, 1)
    with pytest.raises(ParseError):
        parse_move("K3")
    assert format_move(parse_move("j1")) == "J1" and format_move(PASS) == "pass"
    assert "F1-J1" in diagram(Position()) and "A10-F10" in diagram(Position())


def test_the_position_reads_like_the_other_games():
    """A Position from its string or a board name, moves as text, is_legal, winner
    (None until the end), a picture for notebooks; non-moves named."""
    p = Position()
    p.play("E5")
    assert Position(str(p)) == p and Position("6x7").board.name == "6x7"
    assert p.is_legal("D3") and not p.is_legal("E5") and not p.is_legal("zz")
    assert p.is_legal("swap") and p.winner() is None
    assert p._repr_svg_().startswith("<svg")
    with pytest.raises(IllegalTurnError, match="no move True"):
        p.play(True)
    with pytest.raises(ParseError, match="no cell"):
        p.play("Z99")
    with pytest.raises(IllegalTurnError, match="no move 1000000"):
        format_move(10 ** 6)
    q = Position("4x5")
    while not q.is_over():
        q.play(q.legal_turns(passes=False)[0])
    assert q.winner() == {1: "black", -1: "white", 0: "draw"}[(q.value() > 0) - (q.value() < 0)]
