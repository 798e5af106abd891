"""SVG pictures of Star positions in the project's palette: hex cells, border cells
shaded by the colour whose stars touch them, stars outlined.

The board is the dark blue of every szsolver picture with yellow cell edges; black
stones are near-black, white stones the palette's near-white. A border cell touched
by a black star is shaded dark, by a white star light, by both half and half; one no
star touches is grey. Each star is outlined (red for Black's, blue for White's, the
palette's two side colours), with its border cells and points as the outline's tooltip.

>>> from szsolver.star.position import Position
>>> import xml.etree.ElementTree as ET
>>> ET.fromstring(position_svg(Position())).tag
'{http://www.w3.org/2000/svg}svg'
"""
from __future__ import annotations

import math
from html import escape

from ..formats.palette import (BACKGROUND, BLOCKED, BLUE_STONE, GRID, NEUTRAL_STONE,
                               RED_STONE, text_colour)
from ..formats.svg import click_layer
from .position import COLOUR_NAMES, position_string
from .reference import reference_groups

__all__ = ["position_svg", "BLACK_STONE", "WHITE_STONE", "STAR_OUTLINE"]

BLACK_STONE = "#141414"
WHITE_STONE = NEUTRAL_STONE
#: the outline of each colour's stars: the palette's two side colours
STAR_OUTLINE = (RED_STONE, BLUE_STONE)
#: border cells touched by a black star / a white star
BORDER_SHADE = ("#3c3c3c", "#cfcfcf")

_ROOT3 = math.sqrt(3)
# corners of a pointy-top hex of circumradius 1, from 30 degrees counter-clockwise;
# edge k (corner k to k+1) faces the neighbour in _EDGE_STEP[k]
_CORNERS = [(math.cos(math.radians(30 + 60 * k)), math.sin(math.radians(30 + 60 * k)))
            for k in range(6)]
_EDGE_STEP = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))


def _centre(q: int, r: int) -> tuple[float, float]:
    """Picture coordinates (y down) of cell (q, r)."""
    return _ROOT3 * (q + r / 2), -1.5 * r


def _f(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


def _hex(x: float, y: float, scale: float = 1.0, corners=range(6)) -> str:
    return " ".join(f"{_f(x + scale * cx)},{_f(y - scale * cy)}"
                    for cx, cy in (_CORNERS[k % 6] for k in corners))


def position_svg(pos, *, last_turn: int | None = None, caption=True, names: bool = True,
                 size: int | None = None, targets: bool = False) -> str:
    """The position as an SVG document (a string).

    - ``last_turn``: a cell whose stone gets a mark (the last turn's).
    - ``caption``: True writes side to move (or the result) and the scores under the
      board; a string writes that; False none.
    - ``names``: write each empty cell's name in it.
    - ``size``: width in pixels (default about 28 per cell width).
    - ``targets``: the web board's layers on top (:func:`szsolver.formats.svg.click_layer`:
      a circle over every cell, named as a move names it, to click).
    """
    b = pos.board
    centres = [_centre(q, r) for q, r in b.cells]
    rim = [_centre(q, r) for q, r in b.border]
    xs = [x for x, _ in centres + rim]
    ys = [y for _, y in centres + rim]
    pad = 1.2
    if caption is True:
        s = pos.scores()
        head = (f"Game over: black {s[0]}, white {s[1]}" if pos.is_over() else
                f"{COLOUR_NAMES[pos.side].capitalize()} to move; black {s[0]}, white {s[1]}")
        lines = [head + f" ({b.name} board)"]
    elif caption:
        lines = str(caption).split("\n")
    else:
        lines = []
    line_h = 0.9
    left, top = min(xs) - pad, min(ys) - pad
    right, bottom = max(xs) + pad, max(ys) + pad + line_h * len(lines)
    width_u, height_u = right - left, bottom - top
    size = size or max(480, round(16 * width_u))
    height = round(size * height_u / width_u)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
           f'viewBox="{_f(left)} {_f(top)} {_f(width_u)} {_f(height_u)}">',
           f"<title>{escape(position_string(pos))}</title>",
           f'<rect x="{_f(left)}" y="{_f(top)}" width="{_f(width_u)}" '
           f'height="{_f(height_u)}" fill="{BACKGROUND}"/>']

    # which colours' stars touch each border cell
    stars = []
    owners: dict[int, set] = {}
    for colour, mask in ((0, pos.black), (1, pos.white)):
        cells = [c for c in range(b.size) if mask >> c & 1]
        for group, k in reference_groups(b, cells):
            if k >= 3:
                stars.append((colour, group, k))
                for c in group:
                    for t in b.border_of[c]:
                        owners.setdefault(t, set()).add(colour)

    out.append(f'<g class="border" stroke="{BACKGROUND}" stroke-width="0.08">')
    for t, (x, y) in enumerate(rim):
        own = owners.get(t, set())
        fill = BORDER_SHADE[min(own)] if len(own) == 1 else BORDER_SHADE[0] if own else BLOCKED
        opacity = "" if own else ' opacity="0.45"'
        out.append(f'<polygon points="{_hex(x, y, 0.96)}" fill="{fill}"{opacity}/>')
        if len(own) == 2:      # both colours: the right half (bottom corner to top) light
            out.append(f'<polygon points="{_hex(x, y, 0.96, range(-2, 2))}" '
                       f'fill="{BORDER_SHADE[1]}" stroke="none"/>')
    out.append("</g>")

    out.append(f'<g class="cells" fill="none" stroke="{GRID}" stroke-width="0.06">')
    for x, y in centres:
        out.append(f'<polygon points="{_hex(x, y)}"/>')
    out.append("</g>")

    out.append('<g class="stones">')
    for c, (x, y) in enumerate(centres):
        if (pos.black | pos.white) >> c & 1:
            fill = BLACK_STONE if pos.black >> c & 1 else WHITE_STONE
            out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="0.72" fill="{fill}" '
                       f'stroke="{GRID}" stroke-width="0.04"/>')
    out.append("</g>")
    if last_turn is not None and 0 <= last_turn < b.size:
        x, y = centres[last_turn]
        mark = text_colour(BLACK_STONE if pos.black >> last_turn & 1 else WHITE_STONE)
        out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="0.2" fill="{mark}">'
                   "<title>last move</title></circle>")

    # star outlines: every edge of a star's cell that does not face the same star
    for colour, group, k in stars:
        members = {b.cells[c] for c in group}
        segs = []
        for q, r in members:
            x, y = _centre(q, r)
            for e, (dq, dr) in enumerate(_EDGE_STEP):
                if (q + dq, r + dr) not in members:
                    (x1, y1), (x2, y2) = _CORNERS[e], _CORNERS[(e + 1) % 6]
                    segs.append(f"M{_f(x + x1)},{_f(y - y1)}L{_f(x + x2)},{_f(y - y2)}")
        out.append(f'<path class="star" d="{"".join(segs)}" fill="none" '
                   f'stroke="{STAR_OUTLINE[colour]}" stroke-width="0.2" stroke-linecap="round">'
                   f"<title>{COLOUR_NAMES[colour]} star: {k} border cells, "
                   f"{k - 2} point{'s' if k != 3 else ''}</title></path>")

    if names:
        out.append(f'<g class="names" font-family="sans-serif" font-size="0.55" fill="{GRID}" '
                   'text-anchor="middle" dominant-baseline="central" opacity="0.8">')
        for c, (x, y) in enumerate(centres):
            if not (pos.black | pos.white) >> c & 1:
                out.append(f'<text x="{_f(x)}" y="{_f(y)}" data-name="{b.name_of(c)}">'
                           f'{b.name_of(c)}</text>')
        out.append("</g>")
    if lines:
        mid = (left + right) / 2
        y0 = max(ys) + pad
        out.append(f'<g class="caption" font-family="sans-serif" font-size="0.6" '
                   f'fill="{GRID}" text-anchor="middle" dominant-baseline="central">')
        for k, text in enumerate(lines):
            out.append(f'<text x="{_f(mid)}" y="{_f(y0 + line_h * (k + 0.5))}">'
                       f"{escape(text)}</text>")
        out.append("</g>")
    if targets:
        out.append(click_layer([(round(x, 3), round(y, 3), 0.9, b.name_of(c))
                                for c, (x, y) in enumerate(centres)]).rstrip())
    out.append("</svg>")
    return "\n".join(out) + "\n"
