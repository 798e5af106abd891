"""The designer's palette (rules.md), one set of named colours for every picture.

Stars' Zone draws on a dark blue board with a yellow grid; red and blue stones are
the two sides' colours and the neutral stone is near-white. Starmaps pictures use
the same colours in puzzle roles: a given star is drawn as a red stone, a star the
solver places as a blue one. A blocked point is a grey crossed-out square, so that it
is never taken for a neutral stone (or a star). ``HEAT`` holds the fills of the
potential heat map, hottest first.

This module imports nothing, so any picture code can use it.

>>> BACKGROUND, GRID, STONE_COLOURS[0], PLACED_STAR == BLUE_STONE
('#00007f', '#ffff00', '#ff3838', True)
>>> text_colour(GRID), text_colour(BACKGROUND)
('#000000', '#ffffff')
"""
from __future__ import annotations

__all__ = ["BACKGROUND", "GRID", "RED_STONE", "BLUE_STONE", "NEUTRAL_STONE", "STONE_COLOURS",
           "GIVEN_STAR", "PLACED_STAR", "BLOCKED", "HEAT", "text_colour"]

BACKGROUND = "#00007f"
GRID = "#ffff00"
RED_STONE = "#ff3838"
BLUE_STONE = "#00bfff"
NEUTRAL_STONE = "#f2f2f2"
# Keyed by side: 0 red, 1 blue (the codes RED and BLUE of the rules).
STONE_COLOURS = {0: RED_STONE, 1: BLUE_STONE}

# Starmaps roles.
GIVEN_STAR = RED_STONE
PLACED_STAR = BLUE_STONE
BLOCKED = "#8a8aa3"  # slate grey: unlike any stone, and readable on the background

# Heat-map fills, from the hottest (highest) value down.
HEAT = ("#ffe34d", "#f39c2b", "#c8552a", "#8c2d55", "#4a2a6e")


def text_colour(background: str) -> str:
    """Black or white, whichever reads better on a ``#rgb`` / ``#rrggbb`` colour
    (white when the colour cannot be read).

    >>> text_colour("#fff"), text_colour("#4a2a6e"), text_colour("red")
    ('#000000', '#ffffff', '#ffffff')
    """
    c = background.strip().lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    try:
        r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return "#ffffff"
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"
