"""Starmap commands: ``szsolver puzzle solve|check`` and ``szsolver starmap``.

The ``puzzle`` group is shared: puzzle generation, the daily puzzle and ``show``
live in :mod:`szsolver.cli.puzzle_gen`; :mod:`szsolver.cli.app` registers them here.

Exit codes scripts can rely on (also in each command's ``--help``):
``puzzle solve`` 0 unique (or, with ``--max-solutions 1``, a solution found),
10 several solutions, 11 no solution, 12 unknown (a time limit stopped it);
``puzzle check`` (and ``--check`` of ``show`` and ``daily``) 0 right, 1 wrong;
``starmap`` 0 found, 12 unknown (its time limit ran out);
every puzzle command 2 for bad input and 130 when stopped with Ctrl-C.
"""
from __future__ import annotations

import os
import re
import sys

import click

from .common import (SECONDS, SEED, Names, WholeRange, emit, end_progress, examples, input_files,
                     progress_printer, write_file)
from .pictures import out_path as svg_path

# puzzle solve: one exit code per verdict
SOLVE_EXIT = {"unique": 0, "found": 0, "multiple": 10, "none": 11, "unknown": 12}
CHECK_WRONG = 1
# Ctrl-C (exit code 130, one line) is the command line's, the same for every command:
# see szsolver.cli.app

_EXIT_HELP = ("Exit codes: 0 unique (or, with --max-solutions 1, a solution found), "
              "10 several solutions, 11 no solution, 12 unknown (the time limit ran out "
              "first), 2 bad input, 130 stopped by Ctrl-C.")
_CHECK_HELP = "Exit codes: 0 right, 1 wrong, 2 bad input, 130 stopped by Ctrl-C."


def _id_like(source: str) -> bool:
    """Is SOURCE (naming no file) meant as a puzzle ID rather than a file name? It has a
    '-', no '/', no file extension and is not a puzzle written inline."""
    from ..starmaps.io import is_inline_puzzle
    s = source.strip()
    return ("-" in s and "/" not in s and not is_inline_puzzle(s)
            and not re.search(r"\.(json|txt|pz|szp|szg)$", s, re.IGNORECASE))


def _valid_id(source: str) -> bool:
    """Does SOURCE name a puzzle by its ID (``sz-hard-7``; see
    :func:`szsolver.starmaps.ids.check_id`)? A path with a '/' never does."""
    from ..errors import UnknownPuzzleError
    from ..starmaps.ids import check_id
    if "/" in source:
        return False
    try:
        check_id(source)
    except UnknownPuzzleError:
        return False
    return True


def load_puzzle_source(source: str, show=None):
    """(puzzle, recorded solution or None, Generated or None) from SOURCE: a puzzle
    file, a puzzle written inline (JSON, puzzle string, text form) or a puzzle ID
    (``sz-hard-7``, ``sz-easy-d20261123``). A valid ID wins over a file of the same
    name in the working directory, which is ignored with a note on stderr saying how to
    read it (``./sz-hard-7``); a path with a '/' and a name that is no valid ID are read
    as files. A mistyped ID is an UnknownPuzzleError (exit 2), never another puzzle."""
    from ..errors import UnknownPuzzleError
    from ..starmaps.io import load_puzzle
    valid = _valid_id(source)
    if valid and os.path.lexists(source):
        click.echo(f"Note: {source.strip()} is read as a puzzle ID; the file {source} is "
                   f"ignored (give ./{source} to read the file)", err=True)
    if source != "-" and (valid or (not os.path.exists(source) and _id_like(source))):
        from ..starmaps.generate import puzzle_from_id
        if show:
            show(f"loading {source.strip()} ...")
        try:
            gen = puzzle_from_id(source, progress=show)
        except UnknownPuzzleError as e:
            if str(e).startswith("bad puzzle ID"):  # perhaps a file name, mistyped
                raise UnknownPuzzleError(f"{e} (and no puzzle file of that name)") from None
            raise
        finally:
            end_progress(show)
        return gen.puzzle, gen.solution, gen
    p, recorded = load_puzzle(source)
    return p, recorded, None


def check_report(p, solution_source: str, pid: str | None = None) -> tuple[dict, str, bool]:
    """(JSON data, text, correct) of checking SOLUTION_SOURCE against puzzle ``p`` with
    the independent checker (:func:`szsolver.starmaps.model.check_solution`)."""
    from ..starmaps.io import check_to_json, read_solution
    from ..starmaps.model import check_solution
    placed, off_board = read_solution(p.geometry, solution_source)
    res = check_solution(p, placed, off_board)
    data = check_to_json(p, res, pid)
    if res.correct:
        text = "correct: every pattern appears exactly once and every given shows its pattern"
    else:
        text = "not a solution:\n" + "\n".join("  - " + x for x in res.problems)
    if pid:
        text = f"{pid}: {text}"
    return data, text, res.correct


@examples("szsolver puzzle daily  # the puzzle of the day",
          "szsolver puzzle show sz-hard-7 --solution")
@click.group()
def puzzle():
    """Starmap puzzles (solve, check, generate, daily, show) and endgame puzzles.

    A puzzle is named by a file, by the puzzle written inline or by its ID
    (sz-hard-7; sza-hard-1 for the advanced rule; sz-easy-d20261123 for a daily)."""


@examples("szsolver puzzle solve sz-hard-7  # solved, and proved unique",
          "szsolver puzzle solve sz-easy-1 --json")
@puzzle.command("solve", epilog=_EXIT_HELP)
@click.argument("source", metavar="PUZZLE")
@click.option("--max-solutions", default=2, show_default=True, type=WholeRange(1, 10000),
              help="Stop after this many solutions (2 proves uniqueness).")
@click.option("--time-limit", type=SECONDS, default=None, metavar="S",
              help="Seconds; when it runs out the answer says what is not proved.")
@click.option("--workers", default=1, show_default=True, type=WholeRange(1, 64),
              help="CP-SAT threads (1 = reproducible).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--svg", "svg_file", default=None, metavar="FILE",
              help="Also draw the puzzle with the (first) solution to this SVG file.")
def solve_cmd(source, max_solutions, time_limit, workers, as_json, svg_file):
    """Solve PUZZLE (a file, the puzzle inline - JSON, puzzle string or text form - or
    a puzzle ID like sz-hard-7) with CP-SAT and prove whether its solution is unique."""
    from ..starmaps.io import puzzle_string, puzzle_svg, puzzle_text, stars_to_points
    from ..starmaps.sat import solve
    svg_path(svg_file, inputs=input_files(source))
    show = progress_printer()
    p, _recorded, gen = load_puzzle_source(source, show)
    if show:
        show("solving ...")
    r = solve(p, max_solutions=max_solutions, time_limit=time_limit, workers=workers,
              progress=show)
    end_progress(show)
    g = p.geometry
    if svg_file and r.solutions:
        write_file(svg_file, puzzle_svg(p, r.solutions[0], pid=gen and gen.id,
                                        grade=gen and gen.grade))
    data = {"puzzle": puzzle_string(p), "status": r.status, "proved": r.proved,
            "exhausted": r.exhausted, "summary": r.describe(),
            "solutions": [stars_to_points(g, s) for s in r.solutions],
            "seconds": round(r.seconds, 3), "stats": r.stats}
    if gen is not None:
        data = {"id": gen.id, **data}
    lines = [f"{r.status}: {r.describe()}"]
    for k, s in enumerate(r.solutions[:2]):
        lines.append("")
        lines.append(f"solution {k + 1}: " + " ".join(stars_to_points(g, s)))
        lines.append(puzzle_text(p, s).rstrip())
    if len(r.solutions) > 2:
        lines.append(f"... and {len(r.solutions) - 2} more (use --json to list them)")
    from ..games.views import counted
    lines.append(f"({r.seconds:.2f} s, {counted(r.stats['solves'], 'CP-SAT solve')})")
    emit(data, "\n".join(lines), as_json)
    sys.exit(SOLVE_EXIT[r.status])


@examples("szsolver puzzle check sz-easy-1 '32 38 51 52 63 78'  # the stars placed")
@puzzle.command("check", epilog=_CHECK_HELP)
@click.argument("source", metavar="PUZZLE")
@click.argument("solution")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def check_cmd(source, solution, as_json):
    """Check SOLUTION against PUZZLE (a file, the puzzle inline or a puzzle ID like
    sz-hard-7) with the independent pure-Python checker.

    SOLUTION is a file or inline: the points of the stars you placed, like
    '44 52 ...' (the givens are implied; listing them too is fine), JSON (a list
    of points, or an object with 'solution'), or what puzzle show --solution and
    puzzle solve print, saved. A wrong solution is explained: givens
    whose pattern it changes, patterns two stars show, patterns no star shows, stars
    on blocked points or off the board, too few or too many stars."""
    show = progress_printer()
    p, _recorded, gen = load_puzzle_source(source, show)
    data, text, correct = check_report(p, solution, gen.id if gen is not None else None)
    emit(data, text, as_json)
    if not correct:
        sys.exit(CHECK_WRONG)


@examples("szsolver starmap --seed 1",
          "szsolver starmap --board square-8 --svg starmap.svg")
@click.command("starmap", epilog="Exit codes: 0 found, 12 unknown (the time limit ran out "
               "first: nothing proved), 2 bad input, 130 stopped by Ctrl-C.")
@click.option("--board", default="stars-zone", show_default=True,
              help="stars-zone, square-N (N x N) or hex.")
@click.option("--seed", type=SEED, default="0", show_default=True,
              help="Any text; the same seed gives the same starmap.")
@click.option("--good-form", is_flag=True, help="No two stars adjacent; the all-blank star inside.")
@click.option("--rule", type=Names(["basic", "advanced"]), default="basic", show_default=True,
              help="advanced: blocked points (the Stars' Zone centre) cut beams.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="S", help="Seconds.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--svg", "svg_file", default=None, metavar="FILE",
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
    svg_path(svg_file)
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
        # as puzzle solve's unknown: not an error, an answer a limit cut short
        said = (f"No starmap found within {time_limit:g} s (nothing proved: the search was "
                "cut short).")
        emit({"status": "unknown", "board": g.name, "seed": seed, "time_limit": time_limit},
             said, as_json)
        sys.exit(SOLVE_EXIT["unknown"])
    end_progress(show)
    p = Puzzle(g, blocked=g.fixed_neutral_mask, rule=rule)
    pats = star_patterns(g, stars, p.blocked, p.rule)
    shown = Puzzle(g, blocked=p.blocked, givens=tuple(pats.items()), rule=rule)
    if svg_file:
        write_file(svg_file, puzzle_svg(
            shown, caption=f"complete starmap on {g.name}, seed {seed}\n{rule} rule; "
                           f"{len(pats)} stars, every pattern once"))
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
