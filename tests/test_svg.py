"""SVG pictures: well-formed, true to the board's shape, beams by the rules."""
import xml.etree.ElementTree as ET

import pytest


from szsolver.rules import reference
from szsolver.rules.geometry import STARS_ZONE, square
from szsolver.formats.notation import START, parse_position, parse_turn
from szsolver.formats.record import example_game
from szsolver.formats.palette import BACKGROUND, BLUE_STONE, GRID, NEUTRAL_STONE, RED_STONE
from szsolver.formats.svg import beam_pairs, position_svg

NS = "{http://www.w3.org/2000/svg}"


def parse(svg):
    root = ET.fromstring(svg)  # raises on malformed XML
    assert root.tag == NS + "svg"
    return root


def circles(root, fill):
    return [e for e in root.iter(NS + "circle") if e.get("fill") == fill]


def grid_lines(root):
    group = next(g for g in root.iter(NS + "g") if g.get("stroke") == GRID)
    return [(float(e.get("x1")), float(e.get("y1")), float(e.get("x2")), float(e.get("y2")))
            for e in group.iter(NS + "line")]


def test_palette_and_stones(Position):
    g = example_game(Position)
    root = parse(position_svg(g.final, last_turn=g.turns[-1]))
    assert root.find(NS + "rect").get("fill") == BACKGROUND
    assert len(circles(root, RED_STONE)) == 16 and len(circles(root, BLUE_STONE)) == 16
    assert len(circles(root, NEUTRAL_STONE)) == 1 + 4 + 3  # the centre + red's 4 + blue's 3
    assert len([e for e in root.iter(NS + "title") if e.text == "last turn"]) == 1


def test_grid_joins_exactly_the_neighbouring_points_of_the_rulebook_board():
    columns = {1: (4, 5), 2: (3, 8), 3: (2, 8), 4: (1, 8), 5: (1, 9), 6: (2, 9), 7: (2, 8),
               8: (2, 7), 9: (5, 6)}
    on = {(r, c) for r, (a, b) in columns.items() for c in range(a, b + 1)}
    want = {((c, r), (c + dc, r + dr)) for r, c in on for dr, dc in ((0, 1), (1, 0))
            if (r + dr, c + dc) in on}
    root = parse(position_svg(parse_position(START, backend=reference.Position)))
    got = {((x1, y1), (x2, y2)) for x1, y1, x2, y2 in grid_lines(root)}
    assert got == {(tuple(map(float, a)), tuple(map(float, b))) for a, b in want}
    assert len(circles(root, NEUTRAL_STONE)) == 1  # only the centre
    # every empty point gets a dot: 54 playable points
    assert len([e for e in root.iter(NS + "circle") if e.get("r") == "0.08"]) == 54


def test_other_boards_draw_too():
    pos = reference.Position(square(8), neutral=0)
    pos.play(parse_turn("11n88", pos.geometry))
    root = parse(position_svg(pos, beams=True, last_turn="11n88"))
    assert len(grid_lines(root)) == 2 * 8 * 7
    assert len(circles(root, RED_STONE)) == 1 and len(circles(root, NEUTRAL_STONE)) == 1


def test_beams_respect_the_rule(Position):
    # red 41 and 45 on row 4 with a neutral on 43 between them: Basic sees through it,
    # Advanced does not; blue 64 and 54 see each other either way.
    text = "../....../......./R.N.R.../...BN..../..B...../......./....../.. R 4 5 basic"
    basic = parse_position(text, backend=Position)
    advanced = basic.with_rule("advanced")
    g = STARS_ZONE
    pair = (0, min(g.index[(4, 1)], g.index[(4, 5)]), max(g.index[(4, 1)], g.index[(4, 5)]))
    blue = (1, g.index[(5, 4)], g.index[(6, 4)])
    assert beam_pairs(basic) == sorted([pair, blue])
    assert beam_pairs(advanced) == [blue]
    for pos, n in ((basic, 2), (advanced, 1)):
        root = parse(position_svg(pos, beams=True))
        drawn = [e for e in root.iter(NS + "line") if e.get("stroke") in (RED_STONE, BLUE_STONE)]
        assert len(drawn) == n


def test_beam_pairs_agree_with_patterns(Position):
    """A stone has a beam in a direction exactly when a drawn beam leaves it that way."""
    for rule in ("basic", "advanced"):
        pos = example_game(Position).with_rule(rule).final
        g = pos.geometry
        seen = {}
        for _side, p, q in beam_pairs(pos):
            for a, b in ((p, q), (q, p)):
                (r1, c1), (r2, c2) = g.coords[a], g.coords[b]
                d = g.directions.index(((r2 > r1) - (r2 < r1), (c2 > c1) - (c2 < c1)))
                seen[a] = seen.get(a, 0) | 1 << d
        for side in (0, 1):
            for p, pat in pos.patterns(side).items():
                assert seen.get(p, 0) == pat


def test_labels_fills_and_no_coordinates():
    pos = parse_position(START, backend=reference.Position)
    labels = {0: "12", 27: "<&>"}
    fills = {0: "#ff0000", 1: "#ffffff"}
    root = parse(position_svg(pos, labels=labels, fills=fills, coordinates=False, size=300,
                              caption=False))
    assert root.get("width") == "300"
    texts = {e.text for e in root.iter(NS + "text")}
    assert texts == {"12", "<&>"}  # escaped in the XML, no coordinate labels
    assert {e.get("fill") for e in root.iter(NS + "rect")} >= {"#ff0000", "#ffffff"}
    with_coords = parse(position_svg(pos, caption=False))
    assert {e.text for e in with_coords.iter(NS + "text")} == {str(i) for i in range(1, 10)}


def test_repr_svg(Position):
    pos = parse_position(START, backend=Position)
    assert pos._repr_svg_() == position_svg(pos)
    parse(pos._repr_svg_())


def test_bad_picture_arguments_are_named():
    from szsolver.errors import IllegalTurnError, InputError
    final = example_game().final
    for kw, words in (({"size": -5}, "size must be"), ({"size": float("nan")}, "size must be"),
                      ({"labels": {999: "x"}}, "labels: 999 is not a point"),
                      ({"fills": {"44": "#fff"}}, "fills: '44' is not a point")):
        with pytest.raises(InputError, match=words):
            position_svg(final, **kw)
    with pytest.raises(IllegalTurnError, match="not a turn code"):
        position_svg(final, last_turn=10 ** 6)
