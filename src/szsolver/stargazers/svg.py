"""SVG pictures of Stargazers positions, in the family's palette (:mod:`szsolver.formats.palette`).

Hex cells on the dark blue board with yellow outlines, stars as yellow five-pointed
stars, stones in the sides' colours. An inspired stone is a full disc; an uninspired
one a ring; a dead one (uninspired for the rest of the game, :mod:`.assured`) a ring
with a cross. Empty cells carry their index, so a picture doubles as the map of cell
numbers; the last turn's stones get a white mark.

>>> from szsolver.stargazers.fast import Position
>>> import xml.etree.ElementTree as ET
>>> ET.fromstring(position_svg(Position())).tag
'{http://www.w3.org/2000/svg}svg'
"""
from __future__ import annotations

import math
from html import escape

from ..formats.svg import click_layer
from ..formats.palette import BACKGROUND, GRID, NEUTRAL_STONE, STONE_COLOURS, text_colour
from .assured import status

__all__ = ["position_svg", "position_caption"]


def position_caption(pos) -> list[str]:
    """Caption lines: side to move (or the result, or the winner of a game already
    decided), then each side's score with its assured part and potential."""
    s = status(pos)
    r, b = pos.scores()
    if pos.is_over():
        first = f"Game over: {pos.result_text()}; protocol {pos.protocol}"
    else:
        first = (f"{pos.side_name.capitalize()} to place, {pos.placements_left} left in "
                 f"the turn; protocol {pos.protocol}")
        if s.decided is not None:
            first += f"; decided: {('red', 'blue')[s.decided]} wins"
    return [first, f"red: score {r}, assured {s.assured[0]}, potential {s.potential[0]}",
            f"blue: score {b}, assured {s.assured[1]}, potential {s.potential[1]}"]


def _star(cx: float, cy: float, r: float) -> str:
    pts = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        rr = r if k % 2 == 0 else r * 0.45
        pts.append(f"{cx + rr * math.cos(a):.1f},{cy + rr * math.sin(a):.1f}")
    return f'<polygon points="{" ".join(pts)}" fill="{GRID}"/>'


def position_svg(pos, *, last_turn=(), size: int | None = None, caption=True,
                 labels: dict | None = None, targets: bool = False) -> str:
    """The position as an SVG document, ``size`` pixels wide (default about 36 pixels a
    cell across). ``last_turn``: cells to mark; ``caption``: True for
    :func:`position_caption`, a string, or False; ``labels``: {cell: text} drawn on
    cells (e.g. move values); ``targets``: the web board's layers on top
    (:func:`szsolver.formats.svg.click_layer`: a circle over every cell, named by its
    index, to click)."""
    b = pos.board
    ins = pos.inspired()
    dead = status(pos).dead
    xs = [x for x, _ in b.xy]
    ys = [y for _, y in b.xy]
    # board coordinates have hexes of corner radius 1 (neighbours sqrt(3) apart)
    width_u = max(xs) - min(xs) + 2.4
    size = size or max(420, round(26 * width_u))
    unit = size / width_u / 1.75          # pixels for a stone's reach (0.57 of a hex)
    radius = size / width_u                # hex corner radius in pixels
    top = 12
    height_b = (max(ys) - min(ys)) * radius + 2 * radius
    if caption is True:
        caption = "\n".join(position_caption(pos))
    cap_lines = caption.splitlines() if caption else []
    height = top + height_b + 18 * len(cap_lines) + 10

    def at(c):
        x, y = b.xy[c]
        return (x - min(xs) + 1.2) * radius, top + radius + (max(ys) - y) * radius

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height:.0f}" '
           f'viewBox="0 0 {size} {height:.0f}">',
           f'<rect width="100%" height="100%" fill="{BACKGROUND}"/>']
    marked = set(last_turn or ())
    for c in range(b.size):
        cx, cy = at(c)
        corners = " ".join(f"{cx + radius * math.cos(math.pi / 6 + k * math.pi / 3):.1f},"
                           f"{cy + radius * math.sin(math.pi / 6 + k * math.pi / 3):.1f}"
                           for k in range(6))
        out.append(f'<polygon points="{corners}" fill="none" stroke="{GRID}" '
                   f'stroke-width="1.5"/>')
        bit = 1 << c
        stone = 0 if pos.red & bit else 1 if pos.blue & bit else None
        if b.stars & bit:
            out.append(_star(cx, cy, unit * 0.95))
        elif stone is not None:
            colour = STONE_COLOURS[stone]
            rr = unit * 0.85
            if ins[stone] & bit:
                out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{rr:.1f}" '
                           f'fill="{colour}"/>')
            else:
                out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{rr * 0.85:.1f}" '
                           f'fill="none" stroke="{colour}" stroke-width="{unit * 0.1:.1f}"/>')
                if dead[stone] & bit:
                    d = rr * 0.5
                    out.append(f'<path d="M{cx - d:.1f},{cy - d:.1f}L{cx + d:.1f},{cy + d:.1f}'
                               f'M{cx - d:.1f},{cy + d:.1f}L{cx + d:.1f},{cy - d:.1f}" '
                               f'stroke="{colour}" stroke-width="{unit * 0.08:.1f}"/>')
            if c in marked:
                out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{unit * 0.25:.1f}" '
                           f'fill="{NEUTRAL_STONE}"/>')
        label = labels.get(c) if labels else None
        if label is None and stone is None and not b.stars & bit:
            label, colour = str(c), GRID
        elif label is not None:
            colour = text_colour(STONE_COLOURS[stone]) if stone is not None else NEUTRAL_STONE
        if label is not None:
            # a cell number stays legible on the 27-star board's smaller cells
            out.append(f'<text x="{cx:.1f}" y="{cy + unit * 0.3:.1f}" font-family="sans-serif" '
                       f'font-size="{max(unit * 0.8, 10):.1f}" text-anchor="middle" '
                       f'fill="{colour}">{escape(str(label))}</text>')
    y = top + height_b + 14
    for line in cap_lines:
        out.append(f'<text x="8" y="{y:.0f}" font-family="sans-serif" font-size="13" '
                   f'fill="{NEUTRAL_STONE}">{escape(line)}</text>')
        y += 18
    if targets:
        out.append(click_layer([(round(x, 1), round(y, 1), round(radius * 0.8, 1), c)
                                for c, (x, y) in enumerate(map(at, range(b.size)))]).rstrip())
    out.append("</svg>")
    return "\n".join(out) + "\n"
