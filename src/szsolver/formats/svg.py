"""SVG pictures of positions in the designer's palette, true to the board's shape.

Only the board's own points and the grid lines between neighbouring points are
drawn, so the 55-point board looks like the rulebook's and any other
:class:`~szsolver.rules.geometry.Geometry` (``square(8)``, the hex board) draws too.

>>> from szsolver.rules.reference import Position
>>> import xml.etree.ElementTree as ET
>>> ET.fromstring(position_svg(Position())).tag
'{http://www.w3.org/2000/svg}svg'
"""
from __future__ import annotations

import math
from html import escape

from ..errors import InputError
from ..rules import beams
from ..rules.base import BLUE, RED, RULE_NAMES, SIDE_NAMES, turn_neutral, turn_stone
from .palette import (BACKGROUND, BLUE_STONE, GRID, NEUTRAL_STONE, RED_STONE, STONE_COLOURS,
                      text_colour)


def point_xy(geometry) -> list[tuple[float, float]]:
    """Each point's centre in the pictures, by point index: (x, y) in grid units (one
    unit between neighbours), x the point's column and y its row (``geometry.coords``),
    hex boards sheared so that the six directions are 60 degrees apart. The pictures of
    this family's boards are drawn on these centres, scaled: a position's here, a
    starmap puzzle's and the web pages' clickable points over them.

    >>> from szsolver.rules.geometry import square
    >>> point_xy(square(2))
    [(1.0, 1.0), (2.0, 1.0), (1.0, 2.0), (2.0, 2.0)]
    """
    if geometry.cell == "hex":
        h = math.sqrt(3) / 2
        return [(c + r / 2, r * h) for r, c in geometry.coords]
    return [(float(c), float(r)) for r, c in geometry.coords]


def click_layer(points) -> str:
    """The layers the web pages add to a game's picture to play on it: an empty layer
    (``<g class="sz-live">``) to draw on, then a transparent circle over every point
    (``class="sz-point"``, ``data-index`` its index, ``data-point`` its name) to click.
    ``points``: (x, y, radius, name) of each point in index order, in the picture's
    units. One home for the markup of the three games' boards."""
    hits = "".join(f'<circle class="sz-point" cx="{x:g}" cy="{y:g}" r="{r:g}" data-index="{i}" '
                   f'data-point="{escape(str(name))}"/>' for i, (x, y, r, name) in enumerate(points))
    return '<g class="sz-live"></g>\n<g class="sz-points" fill="transparent">' + hits + "</g>\n"


def beam_pairs(pos) -> list[tuple[int, int, int]]:
    """(side, p, q) for each pair of same-side stones that see each other: q is the
    first own stone along a beam from p, with nothing blocking under the rule
    (under Advanced a neutral blocks; enemy stones never do). Each pair once, p < q.
    """
    g = pos.geometry
    blockers = beams.rule_blockers(pos.rule, pos.neutral)
    return [(side, p, q) for side, own in ((RED, pos.red), (BLUE, pos.blue))
            for p, q in beams.beam_pairs(g, own, blockers)]


def position_caption(pos) -> list[str]:
    """The caption lines of a position's picture: side to move (or game over) and the
    rule, then the scores and the neutral stones left.

    >>> from szsolver.rules.reference import Position
    >>> position_caption(Position())
    ['Red to move, turn 1 of 32; basic rule', 'score red 0, blue 0; neutrals left red 5, blue 5']
    """
    from .notation import result_text
    r, b = pos.scores()
    if pos.is_over():
        first = f"Game over: {result_text(pos)}; {RULE_NAMES[pos.rule]} rule"
    else:
        first = (f"{SIDE_NAMES[pos.side].capitalize()} to move, turn {pos.ply + 1} of "
                 f"{2 * pos.stones_per_side}; {RULE_NAMES[pos.rule]} rule")
    return [first, f"score red {r}, blue {b}; neutrals left red {pos.red_neutrals}, "
                   f"blue {pos.blue_neutrals}"]


def _default_size(geometry, width_u: float) -> int:
    """480 pixels for boards up to the Stars' Zone's width, more for wider ones so that
    labels stay legible (about 28 pixels per grid unit)."""
    return max(480, round(28 * width_u))


def _check_picture_args(g, size, labels, fills, numbered) -> None:
    """InputError naming a bad picture argument: a size that is not a whole number of
    pixels from 16 to 100000, or a point key that is no point index of the board."""
    if size is not None and (isinstance(size, bool) or not isinstance(size, int)
                             or not 16 <= size <= 100000):
        raise InputError(f"size must be a whole number of pixels from 16 to 100000, "
                         f"got {size!r}")
    for what, d in (("labels", labels), ("fills", fills), ("numbered", numbered)):
        for p in d or ():
            if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < g.size:
                raise InputError(f"{what}: {p!r} is not a point index of the {g.name} "
                                 f"board (0 to {g.size - 1})")


def position_svg(pos, *, beams: bool = False, last_turn=None, coordinates: bool = True,
                 labels: dict | None = None, fills: dict | None = None,
                 size: int | None = None, caption=True, heading: str | None = None,
                 legend: list | None = None, numbered: dict | None = None) -> str:
    """The position as an SVG document (a string), ``size`` pixels wide (default 480,
    wider for boards wider than the Stars' Zone board).

    - ``beams``: draw a line between each pair of same-side stones that see each
      other (respecting the rule: under Advanced neutrals block).
    - ``last_turn``: a turn code (or text like ``"44n66"``) whose stone and neutral
      get a mark.
    - ``coordinates``: row numbers on the left, column numbers on top.
    - ``labels``: {point index: text} drawn on the points (e.g. heat-map values), over
      the grid lines, each on a halo of the colour under it so it reads.
    - ``fills``: {point index: CSS colour} painted as the point's cell, under the grid.
    - ``caption``: True (default) writes side to move, scores and rule under the board
      (:func:`position_caption`); a string (lines split at newlines) writes that;
      False or None writes none.
    - ``heading``: a title line above the board.
    - ``legend``: [(CSS colour, text), ...] swatches in a row under the board.
    - ``numbered``: {point index: (CSS colour, text)} stones not on the board yet (a
      line of play), drawn with a dashed rim and their number.
    """
    g = pos.geometry
    _check_picture_args(g, size, labels, fills, numbered)
    xy = point_xy(g)
    unit = 1.0
    stone_r = 0.4 * unit
    xs = [x for x, _ in xy]
    ys = [y for _, y in xy]
    pad = 0.7
    if caption is True:
        caption_lines = position_caption(pos)
    elif caption:
        caption_lines = str(caption).split("\n")
    else:
        caption_lines = []
    line_h = 0.55
    left, top = min(xs) - pad - (0.8 if coordinates else 0), min(ys) - pad - (0.8 if coordinates else 0)
    board_bottom = max(ys) + pad
    if heading:
        top -= line_h + 0.2
    right = max(xs) + pad
    bottom = board_bottom + (0.75 if legend else 0) + line_h * len(caption_lines) + (0.15 if caption_lines else 0)
    width_u, height_u = right - left, bottom - top
    if size is None:
        size = _default_size(g, width_u)
    height = round(size * height_u / width_u)

    def f(v):  # short numbers keep the SVG small
        return f"{v:.3f}".rstrip("0").rstrip(".")

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
           f'viewBox="{f(left)} {f(top)} {f(width_u)} {f(height_u)}">']
    from .notation import position_string
    out.append(f"<title>{escape(position_string(pos))}</title>")
    out.append(f'<rect x="{f(left)}" y="{f(top)}" width="{f(width_u)}" height="{f(height_u)}" '
               f'fill="{BACKGROUND}"/>')

    # Cells painted first, so grid and stones stay visible on a heat map.
    for p, colour in sorted((fills or {}).items()):
        x, y = xy[p]
        if g.cell == "hex":
            out.append(f'<circle cx="{f(x)}" cy="{f(y)}" r="0.55" fill="{escape(colour)}"/>')
        else:
            out.append(f'<rect x="{f(x - 0.5)}" y="{f(y - 0.5)}" width="1" height="1" '
                       f'fill="{escape(colour)}"/>')

    # Grid: a line from each point to its one-step neighbour in each direction.
    lines = []
    for p, (r, c) in enumerate(g.coords):
        for dr, dc in g.directions:
            q = g.index.get((r + dr, c + dc))
            if q is not None and p < q:
                (x1, y1), (x2, y2) = xy[p], xy[q]
                lines.append(f'<line x1="{f(x1)}" y1="{f(y1)}" x2="{f(x2)}" y2="{f(y2)}"/>')
    out.append(f'<g stroke="{GRID}" stroke-width="0.05" stroke-linecap="round">')
    out.extend(lines)
    out.append("</g>")
    # Empty points as small dots, so a lone point (a row of one) still shows; a point
    # with a label or a numbered stone shows that instead.
    covered = set(labels or ()) | set(numbered or ())
    out.append(f'<g fill="{GRID}">')
    for p in range(g.size):
        if pos.empty >> p & 1 and p not in covered:
            x, y = xy[p]
            out.append(f'<circle cx="{f(x)}" cy="{f(y)}" r="0.08"/>')
    out.append("</g>")

    if beams:
        out.append('<g stroke-width="0.14" stroke-linecap="round" opacity="0.85">')
        for side, p, q in beam_pairs(pos):
            (x1, y1), (x2, y2) = xy[p], xy[q]
            out.append(f'<line x1="{f(x1)}" y1="{f(y1)}" x2="{f(x2)}" y2="{f(y2)}" '
                       f'stroke="{STONE_COLOURS[side]}"/>')
        out.append("</g>")

    occupant = {}
    out.append(f'<g stroke="{BACKGROUND}" stroke-width="0.04">')
    for p in range(g.size):
        bit = 1 << p
        colour = (RED_STONE if pos.red & bit else BLUE_STONE if pos.blue & bit
                  else NEUTRAL_STONE if pos.neutral & bit else None)
        if colour:
            occupant[p] = colour
            x, y = xy[p]
            out.append(f'<circle cx="{f(x)}" cy="{f(y)}" r="{f(stone_r)}" fill="{colour}"/>')
    out.append("</g>")

    if last_turn is not None:
        if isinstance(last_turn, str):
            from .notation import parse_turn
            last_turn = parse_turn(last_turn, g)
        else:
            from ..rules.text import format_turn
            format_turn(last_turn, g)            # IllegalTurnError for a code naming no turn
        marked = [turn_stone(last_turn)]
        if turn_neutral(last_turn) >= 0:
            marked.append(turn_neutral(last_turn))
        for p in marked:
            if 0 <= p < g.size:
                x, y = xy[p]
                out.append(f'<circle cx="{f(x)}" cy="{f(y)}" r="0.13" fill="{BACKGROUND}">'
                           f'<title>last turn</title></circle>')

    if numbered:
        out.append('<g font-family="sans-serif" font-size="0.42" font-weight="bold" '
                   'text-anchor="middle" dominant-baseline="central">')
        for p, (colour, text) in sorted(numbered.items()):
            x, y = xy[p]
            out.append(f'<circle class="numbered" cx="{f(x)}" cy="{f(y)}" r="{f(stone_r)}" '
                       f'fill="{escape(colour)}" stroke="{GRID}" stroke-width="0.06" '
                       f'stroke-dasharray="0.12 0.08"/>')
            out.append(f'<text class="numbered" x="{f(x)}" y="{f(y)}" '
                       f'fill="{text_colour(colour)}">{escape(str(text))}</text>')
        out.append("</g>")

    if labels:
        # Over everything else, on a halo of the colour beneath: grid lines and dots
        # never cross a number.
        out.append('<g font-family="sans-serif" font-size="0.4" font-weight="bold" '
                   'text-anchor="middle" dominant-baseline="central" '
                   'stroke-width="0.12" stroke-linejoin="round" paint-order="stroke">')
        for p, text in sorted(labels.items()):
            x, y = xy[p]
            under = occupant.get(p) or (fills or {}).get(p) or BACKGROUND
            out.append(f'<text class="label" x="{f(x)}" y="{f(y)}" fill="{text_colour(under)}" '
                       f'stroke="{escape(under)}">{escape(str(text))}</text>')
        out.append("</g>")

    if coordinates:
        out.append(f'<g font-family="sans-serif" font-size="0.4" fill="{GRID}" '
                   'text-anchor="middle" dominant-baseline="central">')
        rows = sorted({r for r, _ in g.coords})
        cols = sorted({c for _, c in g.coords})
        if g.cell == "hex":
            for r in rows:  # left of each row's first point
                p = min(q for q in range(g.size) if g.coords[q][0] == r)
                out.append(f'<text x="{f(xy[p][0] - 0.9)}" y="{f(xy[p][1])}">{r}</text>')
        else:
            for r in rows:
                out.append(f'<text x="{f(min(xs) - 0.9)}" y="{f(float(r))}">{r}</text>')
            for c in cols:
                out.append(f'<text x="{f(float(c))}" y="{f(min(ys) - 0.9)}">{c}</text>')
        out.append("</g>")

    mid = (left + right) / 2
    if heading:
        out.append(f'<text class="heading" x="{f(mid)}" y="{f(top + 0.45)}" font-family="sans-serif" '
                   f'font-size="0.42" font-weight="bold" fill="{GRID}" text-anchor="middle" '
                   f'dominant-baseline="central">{escape(heading)}</text>')
    y = board_bottom
    if legend:
        box, gap = 0.42, 0.12
        widths = [box + gap + 0.22 * len(str(text)) + 0.3 for _c, text in legend]
        x = mid - sum(widths) / 2
        out.append('<g class="legend" font-family="sans-serif" font-size="0.36" '
                   f'dominant-baseline="central" fill="{GRID}">')
        for (colour, text), w in zip(legend, widths):
            out.append(f'<rect x="{f(x)}" y="{f(y + 0.1)}" width="{f(box)}" height="{f(box)}" '
                       f'fill="{escape(colour)}" stroke="{GRID}" stroke-width="0.03"/>')
            out.append(f'<text x="{f(x + box + gap)}" y="{f(y + 0.1 + box / 2)}">{escape(str(text))}</text>')
            x += w
        out.append("</g>")
        y += 0.75
    if caption_lines:
        # a long line gets a smaller font rather than running off the picture
        # (about 0.55 em per character in a sans-serif font)
        fs = min(0.36, 0.95 * width_u / (0.55 * max(len(t) for t in caption_lines)))
        out.append(f'<g class="caption" font-family="sans-serif" font-size="{f(fs)}" fill="{GRID}" '
                   'text-anchor="middle" dominant-baseline="central">')
        for k, line in enumerate(caption_lines):
            out.append(f'<text x="{f(mid)}" y="{f(y + line_h * (k + 0.5))}">{escape(line)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
