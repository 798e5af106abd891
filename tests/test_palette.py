"""The designer's palette: the rulebook's colours, used by every picture."""

from szsolver.formats.palette import (BACKGROUND, BLOCKED, BLUE_STONE, GIVEN_STAR, GRID, HEAT,
                                      NEUTRAL_STONE, PLACED_STAR, RED_STONE, STONE_COLOURS,
                                      text_colour)
from szsolver.rules.base import BLUE, RED


def test_rulebook_colours():
    # rules.md: background #00007f, grid #ffff00, red #ff3838, blue #00bfff, neutral #f2f2f2
    assert (BACKGROUND, GRID, RED_STONE, BLUE_STONE, NEUTRAL_STONE) == \
        ("#00007f", "#ffff00", "#ff3838", "#00bfff", "#f2f2f2")
    assert STONE_COLOURS == {RED: RED_STONE, BLUE: BLUE_STONE}
    assert (GIVEN_STAR, PLACED_STAR) == (RED_STONE, BLUE_STONE)
    assert BLOCKED not in (NEUTRAL_STONE, BACKGROUND, GRID, RED_STONE, BLUE_STONE)  # never a stone
    assert HEAT == ("#ffe34d", "#f39c2b", "#c8552a", "#8c2d55", "#4a2a6e")


def luminance(colour):
    c = colour.lstrip("#")
    r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    return 0.299 * r + 0.587 * g + 0.114 * b


def test_text_colour_contrasts():
    for fill in (BACKGROUND, GRID, RED_STONE, BLUE_STONE, NEUTRAL_STONE, *HEAT):
        want = "#000000" if luminance(fill) > 140 else "#ffffff"
        assert text_colour(fill) == want
        assert text_colour(fill.upper()) == want
    assert text_colour("#fff") == "#000000" and text_colour("#000") == "#ffffff"
    assert text_colour("not a colour") == "#ffffff"
