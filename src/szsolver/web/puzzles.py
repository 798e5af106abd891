"""What a puzzle page shows, built from the puzzle tools' own pieces.

- :func:`puzzle_json`: the JSON of ``szsolver puzzle show ID --json`` (and, with a
  date, of ``szsolver puzzle daily --json``), with the same options.
- :func:`logic_steps`: the logic solver's steps (:func:`szsolver.starmaps.logic.solve_logic`)
  with the point each one decides and how, for hints: a person's board "shows" a
  step once it holds that star (or marks that point empty).
- :func:`board_svg`: the CLI's picture (:func:`szsolver.starmaps.io.puzzle_svg`) plus
  an empty layer the page draws on and a layer of transparent circles, one per
  point, carrying ``data-point`` (its name) and ``data-index``, to click on.
- :func:`board_data`: the board for the page's script: points (name, row, column),
  the directions (as steps in rows and columns, for the script to walk the rays, and
  as unit vectors in the picture), blocked points, givens, rule, the palette's
  colours. The points' places on the picture come from the SVG's clickable layer.
- :func:`daily_html`: one self-contained page that plays a puzzle with no server.
"""
from __future__ import annotations

import json
import re

from ..formats.palette import BACKGROUND, BLOCKED, GIVEN_STAR, GRID, PLACED_STAR
from ..formats.patterns import pattern_name
from ..rules.base import RULE_NAMES
from .analysis import geometry_data

# The logic solver writes every step as "<point>: <reason> => <outcome>".
_STEP_RE = re.compile(r"^(?P<point>[^:\s]+): .* => (?P<outcome>empty|a star|star (?P<pattern>\S+))$")


def puzzle_json(gen, *, with_solution: bool = False, steps=None, date: str | None = None) -> dict:
    """``gen`` (a :class:`szsolver.starmaps.generate.Generated`) as the CLI prints it with
    ``--json``: without the solution unless ``with_solution``; ``steps`` (from
    :func:`logic_steps`, or None) adds the ``--explain`` steps; ``date`` the daily's date."""
    data = gen.to_json()
    if not with_solution:
        data.pop("solution", None)
    if steps is not None:
        data["steps"] = [{"technique": s["technique"], "level": s["level"], "text": s["text"]}
                         for s in steps]
    if date is not None:
        data["date"] = date
    return data


def logic_steps(puzzle) -> tuple[list[dict], bool]:
    """(steps, solved): the logic solver's explained steps, each a dict with
    ``technique``, ``level``, ``text`` and what it decides: ``point`` (name), ``index``,
    ``outcome`` ("star" or "empty") and ``pattern`` (the star's pattern when the step
    fixes it, else None); ``solved`` is False when the techniques stall (the steps
    then stop short of the solution). AssertionError if a step's text does not
    name its point and outcome (the hints depend on it)."""
    from ..starmaps.logic import solve_logic
    g = puzzle.geometry
    names = {pattern_name(k, g, blank="blank"): k for k in range(g.n_patterns)}
    r = solve_logic(puzzle, explain=True)
    out = []
    for s in r.steps:
        m = _STEP_RE.match(s.text)
        if m is None:
            raise AssertionError(f"logic step without a point and outcome: {s.text!r}")
        p = g.parse_point(m.group("point"))
        pat = m.group("pattern")
        out.append({"technique": s.technique, "level": s.level, "text": s.text,
                    "point": g.coord_text(p), "index": p,
                    "outcome": "empty" if m.group("outcome") == "empty" else "star",
                    "pattern": None if pat is None else names[pat]})
    return out, r.solved


def _xy(puzzle):
    """Each point's centre in the picture's units and the unit vector of each
    direction: the layout :func:`szsolver.starmaps.io.puzzle_svg` draws with."""
    from ..starmaps.io import svg_points
    g = puzzle.geometry
    step = 40.0 if g.cell != "hex" else 22.0
    xy, dirs = svg_points(g, step)
    return step, xy, dirs


def board_svg(puzzle) -> str:
    """The puzzle's SVG (as ``szsolver puzzle show --svg``) with a drawing layer
    (``<g class="sz-live">``) and a layer of clickable points (``<g class="sz-points">``)."""
    from ..starmaps.io import puzzle_svg
    step, xy, _dirs = _xy(puzzle)
    g = puzzle.geometry
    r = step * (0.48 if g.cell != "hex" else 0.5)
    hits = [f'<circle class="sz-point" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" '
            f'data-index="{p}" data-point="{g.coord_text(p)}"/>' for p, (x, y) in enumerate(xy)]
    layers = ('<g class="sz-live"></g>\n<g class="sz-points" fill="transparent">'
              + "".join(hits) + "</g>\n</svg>")
    svg = puzzle_svg(puzzle).rstrip()
    if not svg.endswith("</svg>"):
        raise AssertionError("puzzle_svg did not end with </svg>")
    return svg[:-len("</svg>")] + layers + "\n"


def board_data(puzzle) -> dict:
    """The board for the page's script (see the module doc). ``steps`` are the
    directions as (row, column) steps: the script walks a point's rays as
    :attr:`szsolver.rules.geometry.Geometry.rays` does (sending the rays made a hex
    page 220 KB larger); blocked points are on them (the script applies the rule:
    under Advanced they cut the beam)."""
    g = puzzle.geometry
    step, _xy_points, dirs = _xy(puzzle)
    return {
        **geometry_data(g, blank="blank"), "rule": RULE_NAMES[puzzle.rule], "step": step,
        "dirs": [[round(ux, 4), round(uy, 4)] for ux, uy in dirs],
        "blocked": [p for p in range(g.size) if puzzle.blocked >> p & 1],
        "givens": [[p, pat] for p, pat in puzzle.givens],
        "colours": {"background": BACKGROUND, "grid": GRID, "given": GIVEN_STAR,
                    "placed": PLACED_STAR, "blocked": BLOCKED},
    }


def next_puzzle_id(pid: str, date: str | None = None) -> str | None:
    """The puzzle a solved page offers next: for a daily (``date`` set) the puzzle of
    the day before; for a published puzzle the next one in the collection (the last
    one wraps to the first); for a puzzle from another seed the first published one of
    its board and grade. None when there is none."""
    import datetime as dt
    from ..starmaps.generate import collection_index
    ids = list(collection_index())
    if date is not None:
        from ..starmaps.daily import daily_id
        from ..starmaps.ids import check_id
        try:
            prev = daily_id(dt.date.fromisoformat(date) - dt.timedelta(days=1))
            check_id(prev)
        except (ValueError, OverflowError):
            return None
        return prev
    if pid in ids:
        return ids[(ids.index(pid) + 1) % len(ids)]
    kind = pid.rsplit("-", 1)[0] + "-"
    return next((q for q in ids if q.startswith(kind)), None)


def page_data(gen, *, steps=None, solved=None, with_solution: bool = False,
              date: str | None = None, next_id: str | None = None) -> dict:
    """Everything a puzzle page starts from: the puzzle's JSON, the board, the puzzle
    to offer once it is solved (``next_id``, the server's page only: the static page
    links nowhere), and for the static page also the steps and the solution."""
    data = {"puzzle": puzzle_json(gen, with_solution=with_solution, date=date),
            "board": board_data(gen.puzzle), "next": next_id}
    if steps is not None:
        data["steps"] = steps
        data["logic_solved"] = solved
    return data


def script_json(data) -> str:
    """JSON safe inside an HTML ``<script>`` element."""
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/").replace("<!--", "<\\!--")


def daily_html(gen, date: str | None = None) -> str:
    """One self-contained HTML page that plays ``gen``'s puzzle with no server: the
    board, the page's script and style inline, the puzzle with its solution and the
    logic steps as data; the solution is checked in the page's script."""
    from . import assets
    steps, solved = logic_steps(gen.puzzle)
    data = page_data(gen, steps=steps, solved=solved, with_solution=True, date=date)
    title = (f"Puzzle of the day {date}" if date else f"Puzzle {gen.id}") + f" ({gen.grade})"
    return assets.render("puzzle.html", title=title, head=assets.inline_style(),
                         svg=board_svg(gen.puzzle), data=script_json(data), cell=gen.puzzle.geometry.cell,
                         mode="static", nav="", script=assets.inline_script("puzzle.js"))
