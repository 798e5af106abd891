"""Puzzle generation commands on the ``szsolver puzzle`` group: ``generate``,
``daily`` and ``show ID`` (see :mod:`szsolver.starmaps.generate`, :mod:`szsolver.starmaps.daily`)."""
from __future__ import annotations

import json
import os
import sys

import click

from .common import (BadInput, Names, WholeRange, emit, end_progress, examples, input_files,
                     progress_printer, write_file)
from .pictures import out_path, write_all
from .puzzle import _CHECK_HELP, CHECK_WRONG, check_report


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
    write_file(path, puzzle_svg(gen.puzzle, gen.solution if with_solution else None,
                                pid=gen.id, grade=gen.grade))


def _check_options(check, with_solution, explain) -> None:
    if check is not None and (with_solution or explain):
        raise BadInput("--check prints the check only: leave out --solution and --explain")


def _emit_check(gen, check, as_json) -> None:
    """Print the check of the solution CHECK against ``gen`` and exit 1 when wrong."""
    data, text, correct = check_report(gen.puzzle, check, gen.id)
    emit(data, text, as_json)
    if not correct:
        sys.exit(CHECK_WRONG)


def _seeds(seed: str, count: int) -> list[str]:
    from ..inputs import is_digits, number
    if count == 1:
        return [seed]
    if is_digits(seed):
        first = number(seed, "--seed", error=BadInput)
        return [str(first + i) for i in range(count)]
    return [f"{seed}.{i}" for i in range(count)]


def _progress_cb(show, label: str):
    if show is None:
        return None
    def tick(msg: str):
        show(f"{label}: {msg}")
    return tick


@examples("szsolver puzzle generate --grade easy --seed 1",
          "szsolver puzzle generate --grade medium --count 2 --out puzzles")
@click.command("generate", epilog="Numbers as seeds are the published collection's "
               "(sz-hard-1 .. sz-hard-24, ...): a number past it is refused, so that every "
               "ID printed here names its puzzle. Exit codes: 0 done, 2 bad input, 130 Ctrl-C.")
@click.option("--board", default="stars-zone", show_default=True,
              help="stars-zone, square-N (8..12, or NxN) or hex.")
@click.option("--grade", default="medium", show_default=True,
              help="easy, medium, hard or fiendish.")
@click.option("--seed", default="1", show_default=True,
              help="Letters, digits and _.:- ; the same seed gives the same puzzle.")
@click.option("--count", default=1, show_default=True, type=WholeRange(1, 1000),
              help="How many puzzles (integer seeds count up, others get .0, .1, ...).")
@click.option("--rule", type=Names(["basic", "advanced"]), default="basic", show_default=True,
              help="advanced: blocked points also cut beams.")
@click.option("--solution", "with_solution", is_flag=True, help="Show the solution too.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--svg", "svg_file", default=None, metavar="FILE", help="Draw the puzzle to this SVG file "
              "(with --count, -SEED is added before .svg).")
@click.option("--out", "out_dir", default=None, metavar="DIR",
              help="Also write each puzzle as DIR/ID.json.")
def generate_cmd(board, grade, seed, count, rule, with_solution, as_json, svg_file, out_dir):
    """Generate puzzles of a grade, proved unique by CP-SAT."""
    from ..errors import UnknownPuzzleError
    from ..inputs import cut, is_digits, shown
    from ..rules.base import rule_code
    from ..starmaps.generate import generate, resolve_board
    from ..starmaps.ids import SEED_RE, check_id, make_id
    from ..starmaps.logic import GRADES, grade_level
    g = resolve_board(board)
    target = GRADES[grade_level(grade) - 1]
    out_path(svg_file)
    out_path(out_dir, "--out", "a directory name")
    seeds = []
    for s in _seeds(seed, count):  # every ID printed names its puzzle for show, solve and check
        if not SEED_RE.fullmatch(s):
            raise BadInput(f"bad seed {shown(s)}: use letters, digits and _.:-")
        try:
            seeds.append(check_id(make_id(g, target, s, rule_code(rule)))[2])   # d, not D
        except UnknownPuzzleError as e:
            raise BadInput(f"seed {cut(s)} gives no valid puzzle ID: {e}"
                           + (f" (use a seed with a letter, e.g. s{cut(s)})" if is_digits(s)
                              else "")) from None
    if svg_file and out_dir:         # checked before the work: a picture over a puzzle
        from ..formats.sources import same_file
        for s in seeds:
            planned = os.path.join(out_dir, make_id(g, target, s, rule_code(rule)) + ".json")
            if os.path.realpath(planned) == os.path.realpath(svg_file) or \
                    same_file(planned, svg_file):
                raise BadInput(f"--svg {svg_file} is the puzzle file --out writes: give "
                               "another name")
    from ..starmaps.io import puzzle_svg

    def files_of(results) -> list:
        files = []
        if out_dir:
            files += [(os.path.join(out_dir, gen.id + ".json"),
                       json.dumps(gen.to_json(), indent=1) + "\n") for gen in results]
        if svg_file:
            for s, gen in zip(seeds, results):
                path = svg_file
                if count > 1:
                    root, ext = os.path.splitext(svg_file)
                    path = f"{root}-{s}{ext or '.svg'}"
                files.append((path, puzzle_svg(gen.puzzle, gen.solution if with_solution
                                               else None, pid=gen.id, grade=gen.grade)))
        return files
    show = progress_printer()
    results = []
    try:
        for s in seeds:
            if show:
                show(f"generating {grade} puzzle, seed {s} ...")
            results.append(generate(g, grade, s, rule=rule,
                                    progress=_progress_cb(show, f"seed {s}")))
    except KeyboardInterrupt:
        end_progress(show)
        if results and (out_dir or svg_file):   # the puzzles proved so far are kept
            write_all(files_of(results), directory=out_dir or None)
            click.echo(f"Stopped after {len(results)} of {count} puzzles; their files are "
                       "written.", err=True)
        raise
    end_progress(show)
    # every file at the end, all or nothing
    write_all(files_of(results), directory=out_dir or None)
    described = [_describe(gen, with_solution, False) for gen in results]
    data = described[0][0] if count == 1 else [d for d, _ in described]
    emit(data, "\n\n".join(t for _, t in described), as_json)


_CHECK_OPTION = click.option(
    "--check", "check", default=None, metavar="SOLUTION",
    help="Check SOLUTION (a file or inline: the points of the stars you placed, like "
         "'44 52 ...'; the givens are implied) instead of showing the puzzle; exit 1 when wrong.")


@examples("szsolver puzzle daily  # today's (UTC)",
          "szsolver puzzle daily --date 2026-11-23 --html daily.html")
@click.command("daily", epilog=_CHECK_HELP.replace("Exit codes: 0 right", "Exit codes: 0 shown or right"))
@click.option("--date", "date", default=None, help="YYYY-MM-DD (default: today, UTC).")
@click.option("--solution", "with_solution", is_flag=True, help="Show the solution too.")
@click.option("--explain", is_flag=True, help="List the logic solver's steps.")
@_CHECK_OPTION
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--svg", "svg_file", default=None, metavar="FILE", help="Draw the puzzle to this SVG file.")
@click.option("--html", "html_file", default=None, metavar="FILE",
              help="Write a self-contained web page that plays the puzzle (no server needed).")
def daily_cmd(date, with_solution, explain, check, as_json, svg_file, html_file):
    """The puzzle of the day: the same for a date on every machine; easy on Monday
    and Tuesday, medium on Wednesday and Thursday, hard on Friday and Saturday,
    fiendish on Sunday. Its ID is sz-GRADE-dYYYYMMDD."""
    from ..starmaps.daily import daily, parse_date
    _check_options(check, with_solution, explain)
    out_path(svg_file, inputs=input_files(check))
    out_path(html_file, "--html", inputs=input_files(check), outputs=[("--svg", svg_file)])
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
    if check is not None:
        return _emit_check(gen, check, as_json)
    data, text = _describe(gen, with_solution, explain)
    data["date"] = d.isoformat()
    emit(data, f"puzzle of the day {d.isoformat()} ({d.strftime('%A')})\n" + text, as_json)


@examples("szsolver puzzle show sz-hard-7 --explain  # the deductions step by step")
@click.command("show", epilog=_CHECK_HELP.replace("Exit codes: 0 right", "Exit codes: 0 shown or right"))
@click.argument("puzzle_id", metavar="ID")
@click.option("--solution", "with_solution", is_flag=True, help="Show the solution too.")
@click.option("--explain", is_flag=True, help="List the logic solver's steps.")
@_CHECK_OPTION
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--svg", "svg_file", default=None, metavar="FILE", help="Draw the puzzle to this SVG file.")
def show_cmd(puzzle_id, with_solution, explain, check, as_json, svg_file):
    """Show the puzzle with ID (e.g. sz-hard-7, sza-hard-7 for the advanced rule, or a
    daily ID like sz-easy-d20261123): from the published collection, else rebuilt from
    its seed. A mistyped ID (a number past the collection, a date that does not exist,
    a grade that date does not have) is an error, never another puzzle."""
    from ..starmaps.generate import puzzle_from_id
    _check_options(check, with_solution, explain)
    out_path(svg_file, inputs=input_files(check))
    show = progress_printer()
    gen = puzzle_from_id(puzzle_id, progress=_progress_cb(show, puzzle_id))
    end_progress(show)
    if svg_file:
        _write_svg(svg_file, gen, with_solution)
    if check is not None:
        return _emit_check(gen, check, as_json)
    data, text = _describe(gen, with_solution, explain)
    emit(data, text, as_json)
