"""``szsolver batch``: many units of work on a Dask cluster (see szsolver.batch and
docs/batch.md): daily puzzles, solves, annotated games, and one deep solve split into
jobs. Local cluster by default (``--workers N``, default all cores), or a
running scheduler (``--scheduler tcp://HOST:PORT``)."""
from __future__ import annotations

import os
import re
import sys
import time

import click

from ..inputs import SHOWN_PATH, cut, shown
from .common import (EXAMPLE_TURNS_LEFT, SECONDS, BadInput, WholeRange, emit, end_progress,
                     examples, input_files, not_an_input, output_error, progress_printer,
                     whole_number)
from .analysis import EXACT_TURNS_HELP
from .pictures import out_path


def max_local_workers() -> int:
    """The most local worker processes a command starts: 4 per core, at least 8 (more
    only queue for the same cores; a larger cluster is a running scheduler's)."""
    return max(8, 4 * (os.cpu_count() or 1))


def _check_workers(ctx, param, value):
    if value is not None and value > max_local_workers():
        raise click.BadParameter(f"{value} is more than {max_local_workers()} local worker "
                                 "processes (4 per core); for a larger cluster start one and "
                                 "give --scheduler", ctx=ctx, param=param)
    return value


_SCHEME = re.compile(r"^(tcp|tls|ws|wss|inproc|ucx)://[^\s/]+:[0-9]{1,5}/?$", re.ASCII)


def _check_scheduler(ctx, param, value):
    if value is not None and not _SCHEME.match(value.strip()):
        raise click.BadParameter(f"{shown(value, SHOWN_PATH)} is not a scheduler address like "
                                 "tcp://HOST:PORT", ctx=ctx, param=param)
    return value.strip() if value is not None else None


WORKERS_OPTIONS = [
    click.option("--workers", type=whole_number(1, beyond=True), default=None, metavar="N",
                 callback=_check_workers,
                 help="Local worker processes (default: all cores)."),
    click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                 callback=_check_scheduler,
                 help="Run on this running Dask scheduler instead of a local cluster."),
]
_WHERE = WORKERS_OPTIONS

#: ``solve``'s options for a deep solve split over a cluster (serial without them)
SOLVE_WORKERS_OPTIONS = [
    click.option("--workers", type=whole_number(1, beyond=True), default=None, metavar="N",
                 callback=_check_workers,
                 help="Split the search into jobs on N threads of a local Dask worker "
                      "(pip install 'szsolver[batch]'; same value as the serial solve)."),
    click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                 callback=_check_scheduler,
                 help="Split the search into jobs on the workers of this running Dask "
                      "scheduler."),
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
    bad = len(report.errors)
    errors = (f", {bad} of them {'an error' if bad == 1 else 'errors'} (the record says why)"
              if bad else "")
    n, kept = len(report.again), len(report.kept)
    again = (f", {n} of them again (done before under other options"
             + (f"; {kept} kept the earlier record, which proved more" if kept else "")
             + ")" if n else "")
    line = (f"{report.total} unit{'' if report.total == 1 else 's'}: {len(report.computed)} "
            f"computed{errors}{again}, {report.skipped} done before; "
            f"{report.units_per_second:.2f} units/s; {path}")
    k = len(report.unsettled)
    if k:
        line += (f"\n{k} stopped by a limit (not proved whole): a run with a larger limit "
                 f"solves {'it' if k == 1 else 'them'} again")
    return line


def _output_file(path: str, inputs=()) -> None:
    """OUT.jsonl can be appended to and is none of the ``inputs`` (checked before any
    work starts: one line, exit 2)."""
    if not path.strip() or path == "-":
        raise BadInput(f"give a file name for the JSON lines, got {path!r}")
    import stat
    not_an_input(path, "OUT.jsonl", inputs)
    if os.path.isdir(path):
        raise BadInput(f"{cut(path, SHOWN_PATH)} is a directory: give a file for the JSON lines")
    if os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode):
        raise BadInput(f"{cut(path, SHOWN_PATH)} is not a regular file: give a file for the "
                       "JSON lines")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise BadInput(f"cannot write {cut(path, SHOWN_PATH)}: "
                       f"no such directory {cut(parent, SHOWN_PATH)}")
    out_path(path, "OUT")          # tried for writing (permissions, /proc, a read-only disk)
    _earlier_results(path)


def _earlier_results(path: str) -> None:
    """An existing OUT.jsonl (a regular file: a device or a pipe is refused before, as
    it would be read without end) is resumed only when it holds an earlier run's
    records (a JSON object with ``line`` on every line, the last one perhaps torn): any
    other file would be replaced by the results, so it is refused (one line, exit 2)."""
    import json
    if not os.path.exists(path):
        return                      # written from scratch
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    for k, ln in enumerate(lines[:-1], 1):       # the text after the last newline may be torn
        if not ln.strip():
            continue
        try:
            rec = json.loads(ln)
        except ValueError:
            rec = None
        if not isinstance(rec, dict) or "line" not in rec:
            raise BadInput(f"{path} exists and is not the results of a batch solve (line "
                           f"{k} is no such record): give another file name, or remove it")


def _output_dir(path: str) -> None:
    """OUT/ exists or can be made, and files can be written in it. A directory made for
    the test is taken away again: the run makes it when its work starts, so input
    refused before then (a scheduler that does not answer) leaves nothing behind."""
    if not path.strip():
        raise BadInput("give a directory name for the output, got ''")
    if os.path.exists(path) and not os.path.isdir(path):
        raise BadInput(f"{cut(path, SHOWN_PATH)} is a file, not a directory")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise BadInput(f"cannot make {cut(path, SHOWN_PATH)}: "
                       f"no such directory {cut(parent, SHOWN_PATH)}")
    made = not os.path.exists(path)
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, f".szsolver-write-test{os.getpid()}")
        with open(probe, "w", encoding="utf-8"):
            pass
        os.remove(probe)
        if made:
            os.rmdir(path)
    except OSError as e:
        raise output_error(path, e, action="write in") from None


def _lines_of(source: str) -> str:
    """The text of a positions file, or of standard input for ``-``."""
    from ..formats.sources import read_stdin, read_text_file
    return read_stdin() if source == "-" else read_text_file(source)


@examples("szsolver batch puzzles --start 2026-11-23 --days 7 daily",
          "szsolver batch solve --example solved.jsonl --workers 2")
@click.group("batch")
def batch():
    """Many puzzles, solves or annotations at once on a Dask cluster (pip install
    'szsolver[batch]'). Results are written as they arrive; a re-run skips what is done
    from the same input under the same options (a solve proved exact and complete under
    any)."""


def _example_positions() -> str:
    """The rulebook game's positions with 1 to EXAMPLE_TURNS_LEFT turns left, one a line."""
    from ..rules.backends import to_core
    from ..formats.notation import position_string
    from .common import example_position
    return "".join(position_string(to_core(example_position(k))) + "\n"
                   for k in range(EXAMPLE_TURNS_LEFT, 0, -1))


@examples("szsolver batch puzzles --start 2026-11-23 --days 7 daily  # daily/ID.json")
@batch.command("puzzles")
@click.option("--start", required=True, metavar="YYYY-MM-DD", help="The first date.")
@click.option("--days", type=whole_number(1, beyond=True), required=True, metavar="N",
              help="How many days.")
@click.argument("out_dir", metavar="OUT/")
@_where
def puzzles_cmd(start, days, out_dir, workers, scheduler):
    """The daily puzzles of N days from START, one file per puzzle in OUT/ (ID.json, as
    'puzzle daily --solution --json' prints it)."""
    from ..batch.run import Directory, Unit
    from ..batch.units import puzzle_dates, puzzle_unit
    from ..starmaps.daily import daily_id
    dates = puzzle_dates(start, days)      # bad dates before OUT/ is made
    _output_dir(out_dir)
    units = [Unit(daily_id(d), puzzle_unit, (d,)) for d in dates]
    report = _run(units, Directory(out_dir), workers, scheduler, "puzzles")
    click.echo(_summary(report, out_dir))


@examples("szsolver batch solve --example solved.jsonl --workers 2")
@batch.command("solve")
@click.argument("positions_file", metavar="POSITIONS_FILE")
@click.argument("out_file", metavar="OUT.jsonl", required=False)
@click.option("--example", is_flag=True,
              help=f"Solve the bundled rulebook game's positions with 1 to {EXAMPLE_TURNS_LEFT} "
                   "turns left instead of a file (give only OUT.jsonl).")
@click.option("--time-limit", type=SECONDS, default=None, metavar="S",
              help="Stop each solve after S seconds (its record then gives proved bounds).")
@click.option("--node-limit", type=whole_number(1), default=None, metavar="N",
              help="Stop each solve after N nodes (deterministic).")
@click.option("--tt-size", type=whole_number(2), default=None, metavar="N",
              help="Each solve's transposition-table entries (32 bytes each; default by "
                   "depth, up to 1 GiB a solve for long ones beyond 8 turns left, memory "
                   "permitting; Stars' Zone only).")
@_where
def solve_cmd(positions_file, out_file, example, time_limit, node_limit, tt_size, workers,
              scheduler):
    """Solve every position of POSITIONS_FILE (one position string a line, of Stars'
    Zone, Star or Stargazers; blank lines and lines starting with # are skipped; - reads
    standard input). OUT.jsonl gets one
    JSON object a line: the keys of 'solve --json' plus line (1-based), input and options
    (the limits); a line that is not a solvable position gets line, input and error. The
    finished file is in input order. A re-run with other limits solves again the lines a
    limit stopped."""
    from ..batch.run import JsonLines, Unit
    from ..batch.units import solve_kept, solve_settled, solve_unit
    if example:
        if out_file is not None:
            raise BadInput("with --example give only OUT.jsonl, not POSITIONS_FILE too")
        out_file, text = positions_file, _example_positions()
    elif out_file is None:
        raise BadInput("missing OUT.jsonl: give POSITIONS_FILE OUT.jsonl (or --example OUT.jsonl)")
    else:
        text = None
    _output_file(out_file, input_files(None if example else positions_file))
    if text is None:
        text = _lines_of(positions_file)
    # a line an earlier run solved under other limits is solved again under these,
    # unless it was proved exact and complete there (no limit changes that record)
    limits = {"time_limit": time_limit, "node_limit": node_limit,
              **({} if tt_size is None else {"tt_size": tt_size})}
    units = [Unit(i + 1, solve_unit, (i, ln.strip(), time_limit, node_limit, tt_size),
                  ln.strip(), limits, solve_settled, solve_kept)
             for i, ln in enumerate(text.splitlines())
             if ln.strip() and not ln.lstrip().startswith("#")]
    report = _run(units, JsonLines(out_file, "line"), workers, scheduler, "positions")
    click.echo(_summary(report, out_file))


@examples("szsolver batch annotate --example annotated --workers 2")
@batch.command("annotate")
@click.argument("paths", nargs=-1, required=True, metavar="GAMES... OUT/")
@click.option("--example", is_flag=True,
              help="Also annotate the bundled rulebook example game (as example.json).")
@click.option("--time-per-turn", type=SECONDS, default=None, metavar="S",
              help="Engine budget per estimated turn (default 2; fixed iterations).")
@click.option("--exact-turns", type=WholeRange(0, beyond=True), default=None, metavar="N",
              help=EXACT_TURNS_HELP)
@click.option("--solver-time", type=SECONDS, default=None, metavar="S",
              help="Limit per exact solve (default 60; not for Star games); a solve that "
                   "stops is estimated.")
@_where
def annotate_cmd(paths, example, time_per_turn, exact_turns, solver_time, workers, scheduler):
    """Annotate every game record in GAMES, Stars' Zone, Star or Stargazers (- reads
    one from standard input, as stdin.json): OUT/NAME.json per game (NAME: the file
    name without its extension) holding 'annotate --json' plus source."""
    from ..batch.run import Directory, Unit
    from ..batch.units import annotate_unit
    *games, out_dir = paths
    if not games and not example:
        raise BadInput("missing GAMES: give GAMES... OUT/ (or --example OUT/)")
    names, labels = {}, {"-": "standard input"}
    if example:
        from ..formats.record import example_path
        names["example"] = example_path()
        labels[names["example"]] = "rulebook example game"
    for path in games:
        name = "stdin" if path == "-" else os.path.splitext(os.path.basename(path))[0]
        if name in names:
            raise BadInput(f"{path} and {names[name]} would both be {name}.json: rename one")
        names[name] = path
    texts = {name: _lines_of(path) for name, path in names.items()}
    if exact_turns is not None:           # each game's range, before any work
        from ..errors import InputError
        from ..games import of_text
        for name, path in names.items():
            try:
                of_text(texts[name]).check_exact_turns(exact_turns)
            except InputError as e:
                raise BadInput(f"{labels.get(path, path)}: {e}") from None
    for name, path in names.items():      # a game record named OUT/NAME.json
        not_an_input(os.path.join(out_dir, f"{name}.json"), "the annotation",
                     input_files(path), instead="give another OUT/ folder")
    _output_dir(out_dir)
    # a game an earlier run annotated under other options is annotated again
    options = {"time_per_turn": time_per_turn, "exact_turns": exact_turns,
               "solver_time": solver_time}
    units = [Unit(name, annotate_unit, (labels.get(path, path), texts[name], time_per_turn,
                                        exact_turns, solver_time), texts[name], options)
             for name, path in names.items()]
    report = _run(units, Directory(out_dir), workers, scheduler, "games")
    click.echo(_summary(report, out_dir))


DEEP_EPILOG = ("Exit codes: 0 exact value, 3 not proved (a limit stopped it: the answer "
               "gives proved bounds), 2 bad input, 130 Ctrl-C. The limits bound the whole "
               "answer, as for the serial solve: a limit that strikes after the value was "
               "proved leaves the best turns or the PV incomplete, and the answer says so "
               "(exit code 0, JSON complete false).")


def run_deep_solve(pos, workers, scheduler, time_limit, node_limit, as_json,
                   tt_size=None) -> None:
    """Solve ``pos`` with jobs on the cluster (a null-window search over the top plies,
    the nodes below as jobs) and print the answer
    (text or JSON), labelled as the serial solve labels it; exit 3 when a limit left
    the value unproved. ``tt_size``: each worker's table (None: by depth)."""
    from ..batch.cluster import open_client
    from ..batch.deep import SolveInterrupted, deep_solve
    # imported before the solve: after Ctrl-C every import raises
    from ..games.views import counted, solve_lines
    started = time.time()
    deadline = started + time_limit if time_limit else None   # the cluster's start counts
    progress, show = _bar("jobs")
    with open_client(workers, scheduler, threads=True) as client:   # one table for all
        ready = time.time() - started
        try:
            res = deep_solve(client, pos, node_limit=node_limit, progress=progress,
                             deadline=deadline, tt_size=tt_size)
        except SolveInterrupted as e:
            # what was proved, labelled interrupted, before the cluster goes (which may
            # leave the process at once)
            end_progress(show)
            emit(e.answer, "\n".join(solve_lines(e.answer)), as_json)
            sys.stdout.flush()
            raise
    end_progress(show)
    cut = sum(t["cut"] for t in res["tasks"])
    lines = solve_lines(res)         # labelled as the serial solve labels its answer
    lines.append(f"Root turns: {len(res['tasks'])} ({cut} refuted); "
                 f"{counted(res['task_count'], 'job')} on {counted(res['workers'], 'worker')}; "
                 f"{counted(res['nodes'], 'node')} in {res['seconds']:.3f} s"
                 + (f" (the cluster took {ready:.1f} s to start, within the time limit)"
                    if time_limit else ""))
    if time_limit and res["stopped"] == "time limit" and not res["task_count"]:
        lines.append(f"The time limit ran out as the cluster started ({ready:.1f} s of "
                     f"{time_limit:g} s): nothing was searched." if ready >= time_limit else
                     "No job ended within the time limit: nothing was searched"
                     + (" (the scheduler had no worker)." if not res["workers"] else "."))
    emit(res, "\n".join(lines), as_json)
    if not res["exact"]:
        sys.exit(3)


@examples("szsolver batch deep-solve --example --workers 2")
@batch.command("deep-solve", epilog=DEEP_EPILOG)
@click.argument("position", required=False)
@click.option("--example", is_flag=True,
              help=f"Solve the bundled rulebook game's position with {EXAMPLE_TURNS_LEFT} turns "
                   "left.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="S",
              help="Stop after S seconds, the whole answer included (the value, the "
                   "best turns and the PV).")
@click.option("--node-limit", type=whole_number(1), default=None, metavar="N",
              help="Stop after N nodes in all jobs together, the whole answer included.")
@click.option("--tt-size", type=whole_number(2), default=None, metavar="N",
              help="Each worker's transposition-table entries (32 bytes each; default by "
                   "depth).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@SOLVE_WORKERS_OPTIONS[0]
@SOLVE_WORKERS_OPTIONS[1]
def deep_solve_cmd(position, example, time_limit, node_limit, tt_size, as_json, workers,
                   scheduler):
    """Solve POSITION (a position string or file, a game record, or - for standard
    input) over the cluster: MTD(f) at the root, each test a null-window search whose
    top plies the client runs and whose nodes below are jobs on the workers' warm
    tables. The serial solver's value, best turns and a proved principal variation,
    plus each job's cost."""
    from .common import load_source_arg
    from .games import stars_zone_only
    source = stars_zone_only("batch deep-solve", position, example, EXAMPLE_TURNS_LEFT)
    pos, _game = load_source_arg(source, None)
    run_deep_solve(pos, workers, scheduler, time_limit, node_limit, as_json, tt_size)
