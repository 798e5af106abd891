"""``szsolver potential``: the best score each side can still reach (CP-SAT), with
an optional per-point map as text, JSON or an SVG heat map (see szsolver.bounds)."""
from __future__ import annotations

import click

from .common import (EXAMPLE_TURNS_LEFT, SECONDS, BadInput, Names, emit, end_progress, examples,
                     input_files, load_source_arg, progress_printer, write_file)
from .games import stars_zone_only
from ..rules.base import SIDE_NAMES


@examples("szsolver potential --example  # both sides' best reachable score",
          "szsolver potential --example --side red --svg map.svg  # a heat map")
@click.command("potential")
@click.argument("position", required=False)
@click.option("--example", is_flag=True,
              help=f"Use the bundled rulebook game's position with {EXAMPLE_TURNS_LEFT} turns "
                   "left.")
@click.option("--side", type=Names(["red", "blue", "both"]), default="both",
              show_default=True, help="Whose potential.")
@click.option("--map", "with_map", is_flag=True,
              help="Also the potential for each empty point as the side's next stone.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True), default=None,
              metavar="FILE", help="Write the map as an SVG heat map (one side only; "
                                   "implies --map).")
@click.option("--rule", type=Names(["basic", "advanced"]), default=None,
              help="Override the rule (a game record is replayed under it).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="S",
              help="Stop each CP-SAT solve after S seconds (then 'proven' may be false "
                   "and the value is a lower bound; the upper bound is reported).")
def potential_cmd(position, example, side, with_map, svg_file, rule, as_json, time_limit):
    """The highest final score each side can reach by placing its remaining stones
    (and, under the Advanced rule, its neutrals) on the points empty now, the
    opponent placing nothing further; proven by CP-SAT.

    POSITION is a position string, a position file or a game record (its last
    position), or - for standard input.
    """
    source = stars_zone_only("potential", position, example, EXAMPLE_TURNS_LEFT)
    from ..bounds.render import map_svg, map_text
    from .pictures import out_path
    out_path(svg_file, inputs=input_files(position, example=example))
    sides = [0, 1] if side == "both" else [SIDE_NAMES.index(side)]
    if svg_file and len(sides) != 1:
        raise BadInput("--svg draws one side's map: add --side red or --side blue")
    pos, game = load_source_arg(source, rule)
    g = pos.geometry
    if svg_file:
        with_map = True
    data = {}
    texts = []
    # a map is one CP-SAT solve per value it finds, each up to --time-limit: say how far
    show = progress_printer(not as_json)
    try:
        found = {s: _side(pos, s, with_map, time_limit, show) for s in sides}
    finally:
        end_progress(show)
    for s in sides:
        name = SIDE_NAMES[s]
        pm, res = found[s]
        entry = res.to_json(g)
        if pm is not None:
            entry["map"] = pm.to_json(g)
            entry["map_proven"] = pm.all_proven
            if not pm.all_proven:
                entry["map_upper"] = {g.coord_text(p): b for p, b in sorted(pm.bounds.items())}
        data[name] = entry
        if pm is not None:
            texts.append(map_text(pos, pm))
        else:
            line = f"{name}: potential {res.potential}"
            line += " (proven)" if res.proven else f" (not proven; at most {res.upper_bound})"
            place = " ".join(g.coord_text(p) for p in res.placement)
            line += f"; placement {place or '(none)'}"
            if res.neutrals:
                line += "; neutrals " + " ".join(g.coord_text(p) for p in res.neutrals)
            texts.append(line)
        if svg_file:
            write_file(svg_file, map_svg(pos, pm))
    emit(data, "\n\n".join(texts) if with_map else "\n".join(texts), as_json, game)


def _side(pos, side, with_map, time_limit, show):
    """(the map or None, the potential) of ``side``, its work shown on ``show``."""
    from ..bounds.potential import potential, potential_map
    name = SIDE_NAMES[side]
    if not with_map:
        if show is not None:
            show(f"{name}'s potential: one CP-SAT solve")
        return None, potential(pos, side, time_limit)

    def told(settled, points, solves):
        if show is not None:
            show(f"{name}'s map: CP-SAT solve {solves + 1}" + (
                "" if points is None else f", {settled} of {points} points settled"))
    pm = potential_map(pos, side, time_limit, progress=told)
    return pm, pm.potential
