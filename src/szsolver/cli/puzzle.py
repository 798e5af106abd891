"""Starmap commands: ``szsolver puzzle solve|check`` and ``szsolver starmap``.

The ``puzzle`` group is shared: puzzle generation, the daily puzzle and ``show``
live in :mod:`szsolver.cli.puzzle_gen`; :mod:`szsolver.cli.app` registers them here.
"""
from __future__ import annotations

import json
import sys

import click

from .common import emit, end_progress, progress_printer, write_file


def read_solution(puzzle, source: str) -> int:
    """A star set from SOURCE: a file or inline text. JSON (a list of points, or an
    object with 'solution'), or point names separated by spaces, ';' or '.'."""
    from ..formats.sources import read_source
    from ..starmaps.io import stars_from_points
    g = puzzle.geometry
    text = read_source(source)
    s = text.strip()
    if not s:
        raise ValueError("empty solution")
    if s[0] in "[{":
        try:
            data = json.loads(s)
        except json.JSONDecodeError as e:
            raise ValueError(f"malformed JSON solution: {e.msg} at line {e.lineno}") from None
        if isinstance(data, dict):
            if "solution" not in data:
                raise ValueError("the JSON has no 'solution'")
            data = data["solution"]
        return stars_from_points(g, data)
    return stars_from_points(g, s.replace("\n", " "))


@click.group()
def puzzle():
    """Starmap puzzles: solve, check (and generate, daily, show)."""


@puzzle.command("solve")
@click.argument("file")
@click.option("--max-solutions", default=2, show_default=True, type=click.IntRange(1, 10000),
              help="Stop after this many solutions (2 proves uniqueness).")
@click.option("--time-limit", type=click.FloatRange(0, None), default=None,
              help="Seconds; when it runs out the answer says what is not proved.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="CP-SAT threads (1 = reproducible).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also draw the puzzle with the (first) solution to this SVG file.")
def solve_cmd(file, max_solutions, time_limit, workers, as_json, svg_file):
    """Solve the puzzle in FILE (JSON, puzzle string or text form) with CP-SAT and
    prove whether its solution is unique."""
    from ..starmaps.io import (
        load_puzzle,
        puzzle_string,
        puzzle_svg,
        puzzle_text,
        stars_to_points,
    )
    from ..starmaps.sat import solve
    p, _recorded = load_puzzle(file)
    show = progress_printer()
    if show:
        show("solving ...")
    r = solve(p, max_solutions=max_solutions, time_limit=time_limit, workers=workers,
              progress=show)
    end_progress(show)
    g = p.geometry
    if svg_file and r.solutions:
        write_file(svg_file, puzzle_svg(p, r.solutions[0]))
    data = {"puzzle": puzzle_string(p), "status": r.status, "proved": r.proved,
            "exhausted": r.exhausted, "summary": r.describe(),
            "solutions": [stars_to_points(g, s) for s in r.solutions],
            "seconds": round(r.seconds, 3), "stats": r.stats}
    lines = [f"{r.status}: {r.describe()}"]
    for k, s in enumerate(r.solutions[:2]):
        lines.append("")
        lines.append(f"solution {k + 1}: " + " ".join(stars_to_points(g, s)))
        lines.append(puzzle_text(p, s).rstrip())
    if len(r.solutions) > 2:
        lines.append(f"... and {len(r.solutions) - 2} more (use --json to list them)")
    lines.append(f"({r.seconds:.2f} s, {r.stats['solves']} CP-SAT solve(s))")
    emit(data, "\n".join(lines), as_json)


@puzzle.command("check")
@click.argument("file")
@click.argument("solution")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def check_cmd(file, solution, as_json):
    """Check SOLUTION (a file or inline: point names like '44 52 ...', or JSON)
    against the puzzle in FILE with the independent pure-Python checker.
    Exit code 0 when it is a solution, 1 when it is not."""
    from ..starmaps.io import load_puzzle
    from ..starmaps.model import solution_problems
    p, _recorded = load_puzzle(file)
    stars = read_solution(p, solution)
    problems = solution_problems(p, stars)
    data = {"correct": not problems, "problems": problems}
    text = "correct: every pattern appears exactly once and every given shows its pattern" \
        if not problems else "not a solution:\n" + "\n".join("  - " + x for x in problems)
    emit(data, text, as_json)
    if problems:
        sys.exit(1)


@click.command("starmap")
@click.option("--board", default="stars-zone", show_default=True,
              help="stars-zone, square-N (N x N) or hex.")
@click.option("--seed", default="0", show_default=True, help="Any text; the same seed gives the same starmap.")
@click.option("--good-form", is_flag=True, help="No two stars adjacent; the all-blank star inside.")
@click.option("--rule", type=click.Choice(["basic", "advanced"]), default="basic", show_default=True,
              help="advanced: blocked points (the Stars' Zone centre) cut beams.")
@click.option("--time-limit", type=click.FloatRange(0, None), default=None, help="Seconds.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Draw the starmap to this SVG file.")
def starmap_cmd(board, seed, good_form, rule, time_limit, as_json, svg_file):
    """A complete starmap (every pattern exactly once) on a board, verified by the
    independent checker before it is shown."""
    from ..rules.geometry import by_name
    from ..formats.patterns import legend
    from ..starmaps.io import (
        puzzle_svg,
        puzzle_text,
        puzzle_to_json,
        stars_to_points,
    )
    from ..starmaps.model import Puzzle, star_patterns
    from ..starmaps.complete import complete_starmap
    g = by_name(board)
    show = progress_printer()
    if show:
        show(f"searching for a starmap on {g.name} ...")
    stats: dict = {}
    try:
        stars = complete_starmap(g, seed, good_form=good_form, rule=rule, time_limit=time_limit,
                                 stats=stats, progress=show)
    except TimeoutError:
        end_progress(show)
        raise click.ClickException(f"no starmap found within {time_limit} s "
                                   "(nothing proved: the search was cut short)")
    end_progress(show)
    p = Puzzle(g, blocked=g.fixed_neutral_mask, rule=rule)
    pats = star_patterns(g, stars, p.blocked, p.rule)
    shown = Puzzle(g, blocked=p.blocked, givens=tuple(pats.items()), rule=rule)
    if svg_file:
        write_file(svg_file, puzzle_svg(shown))
    data = puzzle_to_json(p, stars)
    data.update(good_form=good_form, seed=seed, method=stats.get("method"),
                seconds=round(stats.get("seconds", 0.0), 3),
                patterns={g.coord_text(q): t for q, t in sorted(pats.items())})
    head = (f"complete starmap on {g.name} ({rule} rule{', good form' if good_form else ''}, "
            f"seed {seed}): {len(pats)} stars, every pattern once; verified")
    text = head + "\n" + "stars: " + " ".join(stars_to_points(g, stars)) + "\n" \
        + "each star shows its pattern: " + legend(g).split("(", 1)[1].split(")")[0] + "\n\n" \
        + puzzle_text(shown).split("\n\n", 1)[1].rstrip()
    emit(data, text, as_json)
