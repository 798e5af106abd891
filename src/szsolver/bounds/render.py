"""Pictures of a potential map: :func:`map_text` (the board in its true shape, a
number on every empty point) and :func:`map_svg` (a heat map). They draw what a
:class:`~szsolver.bounds.potential.PotentialMap` holds and compute nothing."""
from __future__ import annotations

from ..formats.palette import HEAT
from ..rules.base import SIDE_NAMES
from .potential import PotentialMap


def map_text(position, pmap: PotentialMap) -> str:
    """The map on the board in its true shape: each empty point shows its value,
    stones show R / B / N; a header says whose map it is and how sure it is."""
    g = position.geometry
    side = SIDE_NAMES[pmap.side]
    best = pmap.potential
    head = (f"{side}: potential {best.potential}"
            + ("" if best.proven else f" (not proven; at most {best.upper_bound})")
            + f", {best.stones_left} stone{'' if best.stones_left == 1 else 's'} to place; "
              "each number: the potential if "
              f"{side}'s next stone goes there")
    if not pmap.all_proven:
        head += "\n  (time limit: values marked ~ are lower bounds)"
    rows = sorted({r for r, _ in g.coords})
    cols = sorted({c for _, c in g.coords})
    width = 3
    lines = [head, "    " + "".join(f"{c:>{width}}" for c in cols)]
    for r in rows:
        cells = []
        for c in cols:
            p = g.index.get((r, c))
            if p is None:
                cells.append(" " * width)
            elif position.red >> p & 1:
                cells.append(f"{'R':>{width}}")
            elif position.blue >> p & 1:
                cells.append(f"{'B':>{width}}")
            elif position.neutral >> p & 1:
                cells.append(f"{'N':>{width}}")
            elif p in pmap.values:
                mark = "" if p in pmap.proven else "~"
                cells.append(f"{mark + str(pmap.values[p]):>{width}}")
            else:
                cells.append(f"{'.':>{width}}")
        lines.append(f"{r:>3} " + "".join(cells).rstrip())
    place = " ".join(g.coord_text(p) for p in best.placement)
    lines.append(f"one best placement: {place or '(none)'}"
                 + (f"; neutrals {' '.join(g.coord_text(p) for p in best.neutrals)}"
                    if best.neutrals else ""))
    return "\n".join(lines)


def map_svg(position, pmap: PotentialMap, size: int | None = None) -> str:
    """An SVG heat map (svg.position_svg with per-point labels and fills): the fill
    of a point is ``HEAT[i]`` (formats.palette) for a value ``i`` below the potential,
    the last colour for 4 or more below. The numbers are drawn over the grid on a halo;
    a heading names the side, a legend under the board gives the colour scale, and
    the caption says what a number means, then side to move, scores and rule. A value
    that a time limit left unproven is marked ``~`` (a lower bound), as in
    :func:`map_text`."""
    from ..formats.svg import position_caption, position_svg
    side = SIDE_NAMES[pmap.side]
    top = pmap.potential.potential
    labels = {p: ("" if p in pmap.proven else "~") + str(v) for p, v in pmap.values.items()}
    fills = {p: HEAT[min(max(top - v, 0), len(HEAT) - 1)] for p, v in pmap.values.items()}
    legend = [(colour, str(top - i) if i < len(HEAT) - 1 else f"\u2264{top - i}")
              for i, colour in enumerate(HEAT)]
    heading = (f"{side.capitalize()}'s potential map: best {top}"
               + ("" if pmap.potential.proven else " (not proven)"))
    caption = [f"number: {side}'s potential if its next stone goes there"
               + ("" if pmap.all_proven else " (~ lower bound)")]
    caption += position_caption(position)
    return position_svg(position, labels=labels, fills=fills, size=size, heading=heading,
                        legend=legend, caption="\n".join(caption))
