"""Puzzle generation commands on the ``szsolver puzzle`` group: ``generate``,
``daily`` and ``show ID`` (see :mod:`szsolver.starmaps.generate`, :mod:`szsolver.starmaps.daily`)."""
from __future__ import annotations

import json
import os

import click

from .common import BadInput, emit, end_progress, progress_printer, write_file


def _describe(gen, with_solution: bool, explain: bool) -> tuple[dict, str]:
    from ..starmaps.logic import solve_logic
    from ..starmaps.io import puzzle_text, stars_to_points
    g = gen.puzzle.geometry
    data = gen.to_json()
    if not with_solution:
        data.pop("solution", None)
    lines = [(f"{gen.id}: {gen.grade} starmap puzzle on {g.name}, {len(gen.puzzle.givens)} givens"
              " (unique solution, proved by CP-SAT)")]
    lines.append(puzzle_text(gen.puzzle, gen.solution if with_solution else None).rstrip())
    if with_solution:
        lines.append("solution: " + " ".join(stars_to_points(g, gen.solution)))
    if explain:
        r = solve_logic(gen.puzzle, explain=True)
        data["steps"] = [{"technique": s.technique, "level": s.level, "text": s.text} for s in r.steps]
        lines.append("")
        lines.append(f"logic ({r.grade}):")
        lines.extend(f"  [{s.technique}] {s.text}" for s in r.steps)
        if not r.solved:
            lines.append("  ... the named techniques stop here: search (trial and error) needed")
    return data, "\n".join(lines)


def _write_svg(path: str, gen, with_solution: bool) -> None:
    from ..starmaps.io import puzzle_svg
    write_file(path, puzzle_svg(gen.puzzle, gen.solution if with_solution else None))


def _seeds(seed: str, count: int) -> list[str]:
    if count == 1:
        return [seed]
    if seed.isdigit():
        return [str(int(seed) + i) for i in range(count)]
    return [f"{seed}.{i}" for i in range(count)]


def _progress_cb(show, label: str):
    if show is None:
        return None
    def tick(msg: str):
        show(f"{label}: {msg}")
    return tick


@click.command("generate")
@click.option("--board", default="stars-zone", show_default=True,
              help="stars-zone, square-N (8..12, or NxN) or hex.")
@click.option("--grade", default="medium", show_default=True,
              help="easy, medium, hard or fiendish.")
@click.option("--seed", default="1", show_default=True,
              help="Letters, digits and _.:- ; the same seed gives the same puzzle.")
@click.option("--count", default=1, show_default=True, type=click.IntRange(1, 1000),
              help="How many puzzles (integer seeds count up, others get .0, .1, ...).")
@click.option("--rule", type=click.Choice(["basic", "advanced"]), default="basic", show_default=True,
              help="advanced: blocked points also cut beams.")
@click.option("--solution", "with_solution", is_flag=True, help="Show the solution too.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--svg", "svg_file", default=None, help="Draw the puzzle to this SVG file "
              "(with --count, -SEED is added before .svg).")
@click.option("--out", "out_dir", default=None, help="Also write each puzzle as DIR/ID.json.")
def generate_cmd(board, grade, seed, count, rule, with_solution, as_json, svg_file, out_dir):
    """Generate puzzles of a grade, proved unique by CP-SAT."""
    from ..starmaps.generate import generate, resolve_board
    from ..starmaps.logic import grade_level
    g = resolve_board(board)
    grade_level(grade)
    show = progress_printer()
    results = []
    for s in _seeds(seed, count):
        if show:
            show(f"generating {grade} puzzle, seed {s} ...")
        gen = generate(g, grade, s, rule=rule, progress=_progress_cb(show, f"seed {s}"))
        results.append(gen)
        if out_dir:
            try:
                os.makedirs(out_dir, exist_ok=True)
            except OSError as e:
                raise BadInput(f"cannot make directory {out_dir}: {e.strerror}") from None
            write_file(os.path.join(out_dir, gen.id + ".json"),
                       json.dumps(gen.to_json(), indent=1) + "\n")
        if svg_file:
            path = svg_file
            if count > 1:
                root, ext = os.path.splitext(svg_file)
                path = f"{root}-{s}{ext or '.svg'}"
            _write_svg(path, gen, with_solution)
    end_progress(show)
    described = [_describe(gen, with_solution, False) for gen in results]
    data = described[0][0] if count == 1 else [d for d, _ in described]
    emit(data, "\n\n".join(t for _, t in described), as_json)


@click.command("daily")
@click.option("--date", "date", default=None, help="YYYY-MM-DD (default: today, UTC).")
@click.option("--solution", "with_solution", is_flag=True, help="Show the solution too.")
@click.option("--explain", is_flag=True, help="List the logic solver's steps.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--svg", "svg_file", default=None, help="Draw the puzzle to this SVG file.")
@click.option("--html", "html_file", default=None, metavar="FILE",
              help="Write a self-contained web page that plays the puzzle (no server needed).")
def daily_cmd(date, with_solution, explain, as_json, svg_file, html_file):
    """The puzzle of the day: the same for a date on every machine; easy on Monday,
    harder towards the weekend."""
    from ..starmaps.daily import daily, parse_date
    d = parse_date(date)
    show = progress_printer()
    if show:
        show(f"generating the puzzle of {d.isoformat()} ...")
    gen = daily(d, progress=_progress_cb(show, d.isoformat()))
    end_progress(show)
    if svg_file:
        _write_svg(svg_file, gen, with_solution)
    if html_file:
        from .web import write_daily_html
        write_daily_html(html_file, gen, d.isoformat())
    data, text = _describe(gen, with_solution, explain)
    data["date"] = d.isoformat()
    emit(data, f"puzzle of the day {d.isoformat()} ({d.strftime('%A')})\n" + text, as_json)


@click.command("show")
@click.argument("puzzle_id")
@click.option("--solution", "with_solution", is_flag=True, help="Show the solution too.")
@click.option("--explain", is_flag=True, help="List the logic solver's steps.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--svg", "svg_file", default=None, help="Draw the puzzle to this SVG file.")
def show_cmd(puzzle_id, with_solution, explain, as_json, svg_file):
    """Show the puzzle with ID (e.g. sz-hard-7, sza-hard-7 for the advanced rule, or a
    daily ID like sz-easy-d20261123):
    from the published collection, else rebuilt from its seed."""
    from ..starmaps.generate import puzzle_from_id
    show = progress_printer()
    gen = puzzle_from_id(puzzle_id, progress=_progress_cb(show, puzzle_id))
    end_progress(show)
    if svg_file:
        _write_svg(svg_file, gen, with_solution)
    data, text = _describe(gen, with_solution, explain)
    emit(data, text, as_json)
