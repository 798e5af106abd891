"""``szsolver batch``: many units of work on a Dask cluster (see szsolver.batch and
docs/batch.md): daily puzzles, solves, annotated games, and one deep solve split over
its root turns. Local cluster by default (``--workers N``, default all cores), or a
running scheduler (``--scheduler tcp://HOST:PORT``)."""
from __future__ import annotations

import os
import sys
import time

import click

from .common import SECONDS, BadInput, emit, end_progress, progress_printer, whole_number

_WHERE = [
    click.option("--workers", type=whole_number(1), default=None, metavar="N",
                 help="Local worker processes (default: all cores)."),
    click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                 help="Run on this running Dask scheduler instead of a local cluster."),
]


def _where(f):
    for opt in reversed(_WHERE):
        f = opt(f)
    return f


def _bar(what: str):
    """A progress bar on stderr when it is a terminal: done/total, units/s, time left."""
    show = progress_printer()
    if show is None:
        return None, None
    start = time.perf_counter()
    first = {}

    def progress(done, total):
        first.setdefault("done", done)
        width = 30
        fill = int(width * done / max(total, 1))
        new = done - first["done"]
        dt = time.perf_counter() - start
        rate = new / dt if dt > 0 else 0.0
        eta = f", {(total - done) / rate:.0f} s left" if rate > 0 and done < total else ""
        show(f"[{'#' * fill}{'.' * (width - fill)}] {done}/{total} {what} ({rate:.2f}/s{eta})")
    return progress, show


def _run(units, out, workers, scheduler, what):
    from ..batch.cluster import open_client
    from ..batch.run import run_units
    progress, show = _bar(what)
    with open_client(workers, scheduler) as client:
        report = run_units(client, units, out, progress=progress)
    end_progress(show)
    return report


def _summary(report, path: str) -> str:
    return (f"{report.total} units: {len(report.computed)} computed, {report.skipped} done "
            f"before; {report.units_per_second:.2f} units/s; {path}")


def _output_file(path: str) -> None:
    if os.path.isdir(path):
        raise BadInput(f"{path} is a directory: give a file for the JSON lines")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise BadInput(f"cannot write {path}: no such directory {parent}")


def _output_dir(path: str) -> None:
    if os.path.exists(path) and not os.path.isdir(path):
        raise BadInput(f"{path} is a file, not a directory")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise BadInput(f"cannot make {path}: no such directory {parent}")


@click.group("batch")
def batch():
    """Many puzzles, solves or annotations at once on a Dask cluster (pip install
    'szsolver[batch]'). Results are written as they arrive; a re-run skips what is done."""


@batch.command("puzzles")
@click.option("--start", required=True, metavar="YYYY-MM-DD", help="The first date.")
@click.option("--days", type=whole_number(1), required=True, metavar="N", help="How many days.")
@click.argument("out_dir", metavar="OUT/")
@_where
def puzzles_cmd(start, days, out_dir, workers, scheduler):
    """The daily puzzles of N days from START, one file per puzzle in OUT/ (ID.json, as
    'puzzle daily --solution --json' prints it)."""
    from ..batch.run import Directory, Unit
    from ..batch.units import puzzle_dates, puzzle_unit
    from ..starmaps.daily import daily_id
    _output_dir(out_dir)
    units = [Unit(daily_id(d), puzzle_unit, (d,)) for d in puzzle_dates(start, days)]
    report = _run(units, Directory(out_dir), workers, scheduler, "puzzles")
    click.echo(_summary(report, out_dir))


@batch.command("solve")
@click.argument("positions_file", metavar="POSITIONS_FILE")
@click.argument("out_file", metavar="OUT.jsonl")
@click.option("--time-limit", type=SECONDS, default=None, metavar="S",
              help="Stop each solve after S seconds (its record then gives proved bounds).")
@click.option("--node-limit", type=whole_number(1), default=None, metavar="N",
              help="Stop each solve after N nodes (deterministic).")
@_where
def solve_cmd(positions_file, out_file, time_limit, node_limit, workers, scheduler):
    """Solve every position of POSITIONS_FILE (one position string a line; blank lines
    and lines starting with # are skipped). OUT.jsonl gets one JSON object a line: the
    keys of 'solve --json' plus line (1-based) and input; a line that is not a solvable
    position gets line, input and error. The finished file is in input order."""
    from ..batch.run import JsonLines, Unit
    from ..batch.units import solve_unit
    from ..formats.sources import read_text_file
    _output_file(out_file)
    text = read_text_file(positions_file)
    units = [Unit(i + 1, solve_unit, (i, ln.strip(), time_limit, node_limit))
             for i, ln in enumerate(text.splitlines())
             if ln.strip() and not ln.lstrip().startswith("#")]
    report = _run(units, JsonLines(out_file, "line"), workers, scheduler, "positions")
    click.echo(_summary(report, out_file))


@batch.command("annotate")
@click.argument("games", nargs=-1, required=True, metavar="GAMES...")
@click.argument("out_dir", metavar="OUT/")
@click.option("--time-per-turn", type=SECONDS, default=None, metavar="S",
              help="Engine budget per estimated turn (default 2; fixed iterations).")
@click.option("--exact-turns", type=click.IntRange(0, 8), default=8, show_default=True,
              help="Prove the turns with at most this many turns left.")
@click.option("--solver-time", type=SECONDS, default=None, metavar="S",
              help="Limit per exact solve (default 60); a solve that stops is estimated.")
@_where
def annotate_cmd(games, out_dir, time_per_turn, exact_turns, solver_time, workers, scheduler):
    """Annotate every game record in GAMES: OUT/NAME.json per game (NAME: the file name
    without its extension) holding 'annotate --json' plus source."""
    from ..analysis.annotate import SOLVER_TIME, TIME_PER_TURN
    from ..batch.run import Directory, Unit
    from ..batch.units import annotate_unit
    from ..formats.sources import read_text_file
    _output_dir(out_dir)
    names = {}
    for path in games:
        name = os.path.splitext(os.path.basename(path))[0]
        if name in names:
            raise BadInput(f"{path} and {names[name]} would both be {name}.json: rename one")
        names[name] = path
    units = [Unit(name, annotate_unit, (path, read_text_file(path), time_per_turn or TIME_PER_TURN,
                                        exact_turns, solver_time or SOLVER_TIME))
             for name, path in names.items()]
    report = _run(units, Directory(out_dir), workers, scheduler, "games")
    click.echo(_summary(report, out_dir))


@batch.command("deep-solve", epilog="Exit codes: 0 exact value, 3 not proved (a task's limit "
               "stopped it: the answer gives proved bounds), 2 bad input, 130 Ctrl-C.")
@click.argument("position")
@click.option("--time-limit", type=SECONDS, default=None, metavar="S",
              help="Stop each task (a chunk of root turns) after S seconds.")
@click.option("--node-limit", type=whole_number(1), default=None, metavar="N",
              help="Stop each task (a chunk of root turns) after N nodes.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@_where
def deep_solve_cmd(position, time_limit, node_limit, as_json, workers, scheduler):
    """Solve POSITION (a position string or file) with its root turns as tasks on the
    cluster, sharing proved bounds as tasks finish: the serial solver's value, best
    turns and a proved principal variation, plus each task's cost."""
    from ..batch.cluster import open_client
    from ..batch.deep import deep_solve
    from .common import load_position
    pos, _game = load_position(position)
    progress, show = _bar("root turns")
    with open_client(workers, scheduler) as client:
        res = deep_solve(client, pos, time_limit=time_limit, node_limit=node_limit,
                         progress=progress)
    end_progress(show)
    cut = sum(t["cut"] for t in res["tasks"])
    if res["exact"]:
        lines = [f"Position: {res['position']}", f"Value: {res['value']:+d} (Red's side, exact)"]
    else:
        lines = [f"Position: {res['position']}",
                 f"Value: not proved ({res['stopped']}); {res['lower']:+d} <= value <= {res['upper']:+d}"]
    lines.append(f"Winner: {res['winner'] or 'not proved'}")
    if res["scores"]:
        lines.append(f"Final scores (end of PV): red {res['scores']['red']}, "
                     f"blue {res['scores']['blue']}")
    if res["best"]:
        lines.append("Best turns: " + " ".join(res["best"]))
        lines.append("Principal variation: " + " ".join(res["pv"]))
    lines.append(f"Root turns: {len(res['tasks'])} ({cut} refuted by the window) in "
                 f"{res['task_count']} tasks on {res['workers']} workers; {res['nodes']:,} nodes "
                 f"in {res['seconds']:.3f} s")
    emit(res, "\n".join(lines), as_json)
    if not res["exact"]:
        sys.exit(3)
