"""``szsolver solve``: exact endgame values from the shell (see szsolver.endgame.solver)."""
from __future__ import annotations

import re
import sys
import time

import click

from .common import (EXAMPLE_TURNS_LEFT, SECONDS, Names, emit, end_progress, examples,
                     input_files, load_source_arg, progress_printer, whole_number, write_file)
from ..formats.notation import format_turn
from .batch import SOLVE_WORKERS_OPTIONS
from .common import BadInput
from .games import dispatch


def _fmt_value(v) -> str:
    return "?" if v is None else f"{v:+d}"


def _explain(v: int) -> str:
    d, t = divmod(abs(v), 100)
    if t > 50:             # 100*d + t with |t| <= 7: round to the score difference
        d, t = d + 1, t - 100
    d = d if v >= 0 else -d
    t = t if v >= 0 else -t
    if v == 0:
        return "draw"
    who = "Red" if v > 0 else "Blue"
    if d:
        return f"{who} wins by {abs(d)} point{'s' if abs(d) != 1 else ''}"
    return f"{who} wins on neutral stones left"


def _text(res, g, side: int, top: int | None = None) -> str:
    lines = [f"Position: {res.position}"]
    if res.exact:
        lines.append(f"Value: {res.value:+d} (Red's side, exact): {_explain(res.value)}")
    else:
        lines.append(f"Value: not proved ({res.stopped}); {res.lower:+d} <= value <= {res.upper:+d}")
    lines.append(f"Winner: {res.winner or 'not proved'}")
    if res.exact and res.stopped:
        lines.append(f"Stopped: {res.stopped}")
    if res.scores:
        lines.append(f"Final scores (end of PV): red {res.scores['red']}, blue {res.scores['blue']}")
    if res.exact and not res.best_complete:
        lines.append("Best turns (proved so far, others not checked): "
                     + (" ".join(format_turn(t, g) for t in res.best) or "none yet"))
    elif res.best:
        lines.append("Best turns: " + " ".join(format_turn(t, g) for t in res.best))
    if res.exact and not res.pv_complete:
        lines.append(f"Principal variation (the first {len(res.pv)} turns, proved; not to "
                     "the end): " + (" ".join(format_turn(t, g) for t in res.pv) or "none yet"))
    elif res.pv:
        lines.append("Principal variation: " + " ".join(format_turn(t, g) for t in res.pv))
    tt = res.tt
    lines.append(f"Nodes: {res.nodes:,} in {res.seconds:.3f} s ({res.nodes_per_second:,.0f}/s); "
                 f"TT {tt['tt_hits']:,}/{tt['tt_probes']:,} hits, {tt['tt_stores']:,} stores, "
                 f"fill {tt['tt_fill']:.1%}")
    if res.turns is not None:
        lines.append("")
        mover = "Red" if side == 0 else "Blue"
        lines.append(f"Turn values (Red's side, best first for {mover} to move; turns on one "
                     "line are equal by a symmetry):")
        groups = _groups(res.turns)
        for members in groups[:top]:
            t0 = members[0]
            if t0.exact:
                val = f"{t0.value:+6d}"
            else:
                val = f"[{t0.lower:+d}, {t0.upper:+d}]"
            lines.append(f"  {val}  " + " ".join(format_turn(m.turn, g) for m in members))
        if top is not None and len(groups) > top:
            rest = sum(len(m) for m in groups[top:])
            lines.append(f"  ... and {rest} more turn{'s' if rest != 1 else ''} "
                         f"(--top {top}: the {top} best lines only)")
    if not res.exact:
        lines.append("Not proved: `szsolver best POSITION` gives the engine's estimate of the "
                     "best turns, `szsolver check POSITION TURN` judges a turn.")
    return "\n".join(lines)


def _groups(turns) -> list[list]:
    """The turns by symmetry group, in the order the solver gives them (best first for
    the side to move)."""
    groups: dict[int, list] = {}
    for t in turns:
        groups.setdefault(t.group, []).append(t)
    return list(groups.values())


class _Feedback:
    """The solver's progress as ``solve`` shows it on stderr (``show``, a progress
    line of :func:`progress_printer`): the proved bounds as each probe narrows
    them, the probe that did it, the best turn so far (the root turn that proved
    the side to move's bound), the nodes searched and the nodes per second. Each
    probe is a milestone (a plain line off a terminal); between probes the line on
    a terminal counts the nodes as they are searched. It reports what the solver
    tells (:class:`~szsolver.endgame.solver.Progress`), nothing else."""

    def __init__(self, show, geometry):
        self.show = show
        self.geometry = geometry
        self.start = time.monotonic()
        self.last = None            # the last Progress
        self.doing = None           # what the solver does after the value (best turns...)

    def __call__(self, msg) -> None:
        from ..endgame.solver import Progress
        if isinstance(msg, Progress):
            if self.last is None:   # the search starts: its tables are ready
                self.start = time.monotonic()
            self.last, self.doing = msg, None
            self.show.note(self.live)
        else:                       # "best turns: 3/483 turns, ...": the nodes come live
            self.doing = re.sub(r" \([\d,]+ nodes\)$", "", str(msg))
            self.show(self.live)

    def live(self) -> str:
        """The line now, with the nodes searched so far."""
        p = self.last
        nodes = p.node_counter() if p is not None else 0
        parts = []
        if p is not None:
            lo, hi = p.bounds
            if lo == hi:
                parts.append(f"value {lo:+d} (proved)")
            elif p.probes == 0:
                parts.append(f"{lo:+d} <= value <= {hi:+d} (static bounds, before the "
                             "first probe)")
            else:
                test = ">=" if p.proved_at_least else "<"
                parts.append(f"{lo:+d} <= value <= {hi:+d} (probe {p.probes}: value "
                             f"{test} {p.gamma:+d})")
            if p.best is not None and lo != hi:
                parts.append(f"best so far {format_turn(p.best, self.geometry)}")
            if lo != hi and not self.doing and p.root_counter is not None:
                i, n, j, m = p.root_counter()     # how far the running probe is
                if n:
                    where = f"probe {p.probes + 1} at root turn {min(i, n)} of {n}"
                    parts.append(where + (f", reply {min(j, m)} of {m}" if m else ""))
        if self.doing:
            parts.append(self.doing)
        if nodes:
            seconds = time.monotonic() - self.start
            rate = nodes / seconds if seconds > 0 else 0.0
            parts.append(f"{nodes:,} nodes, {rate:,.0f} nodes/s")
        return "; ".join(parts) or "working"


# A table this full keeps replacing proved entries: a larger one would save work.
FULL_TABLE = 0.9


def _note_full_table(res) -> None:
    """Say so on stderr when the transposition table filled up, with the size to try."""
    tt = res.tt or {}
    entries = tt.get("tt_entries") or 0
    if entries and tt.get("tt_fill", 0.0) >= FULL_TABLE:
        from ..endgame.solver import TT_ENTRY_BYTES
        click.echo(f"Note: the transposition table filled up ({entries:,} entries, "
                   f"{entries * TT_ENTRY_BYTES / 2**20:.1f} MiB); a larger --tt-size (e.g. {4 * entries}) "
                   "may solve faster, memory permitting.", err=True)


@examples("szsolver solve --example  # value, best turns, a line of play",
          "szsolver solve --example --all-turns --top 5  # the 5 best turns")
@click.command("solve", epilog="Exit codes: 0 exact value, 3 not proved (a limit stopped "
               "the search: the answer gives proved bounds), 2 bad input, 130 stopped by Ctrl-C "
               "(what was proved so far is printed first). The limits bound the whole answer: "
               "the value, every turn's value, the best turns and the PV; a limit that strikes "
               "after the value was proved leaves the best turns or the PV incomplete, and the "
               "answer says so (exit code 0, JSON complete false).")
@click.argument("position", required=False)
@click.option("--example", is_flag=True,
              help=f"Solve the bundled rulebook game's position with {EXAMPLE_TURNS_LEFT} turns "
                   "left.")
@click.option("--all-turns", is_flag=True,
              help="Also the exact value of every legal turn, best first for the side to move.")
@click.option("--top", type=whole_number(1), default=None, metavar="N",
              help="With --all-turns: only the N best lines of turns (implies --all-turns).")
@click.option("--time-limit", type=SECONDS, default=None, metavar="S",
              help="Stop after S seconds, the whole answer included (what is not proved "
                   "by then is reported as such: bounds on the value, or the best turns "
                   "and PV proved so far).")
@click.option("--node-limit", type=whole_number(1), default=None, metavar="N",
              help="Stop after N nodes in all, the whole answer included (deterministic).")
@click.option("--tt-size", type=whole_number(2), default=None,
              help="Transposition-table entries (32 bytes each; default by depth, at most 2**23).")
@click.option("--rule", type=Names(["basic", "advanced"]), default=None,
              help="Override the rule (a game record is replayed under it).")
@click.option("--two-turn-bounds", is_flag=True, hidden=True,
              help="Kept for older scripts: the Advanced two-turn bounds are always on.")
@click.option("--threads", type=whole_number(1), default=1, metavar="N",
              help="Split the root's turns over N threads in this process, which share "
                   "one transposition table of --tt-size entries (same value and best "
                   "turns; the PV may be another optimal line; a node limit then counts "
                   "every thread's nodes, not deterministically).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--quiet", is_flag=True,
              help="No progress on stderr (by default each probe's proved bounds, the "
                   "best turn so far and the nodes per second; none with --json).")
@SOLVE_WORKERS_OPTIONS[0]
@SOLVE_WORKERS_OPTIONS[1]
@click.option("--svg", "svg_file", default=None, metavar="FILE",
              help="Also draw the position with the best turn (1) and the principal "
                   "variation (2, 3, ...) numbered on the board to this SVG file.")
def solve_cmd(position, example, all_turns, top, time_limit, node_limit, tt_size, rule,
              two_turn_bounds, threads, as_json, quiet, workers, scheduler, svg_file):
    """Solve POSITION exactly: value, winner, best turns, principal variation.

    POSITION is a position string, a position file or a game record (its last
    position), or - for standard input. Deep positions need --time-limit or
    --node-limit; a stopped search reports the bounds it proved. Ctrl-C stops
    cleanly with the same kind of answer.
    """
    from .pictures import out_path
    out_path(svg_file, inputs=input_files(position, example=example))
    if dispatch("solve", position, example=example, all_turns=all_turns, top=top,
                time_limit=time_limit, node_limit=node_limit, tt_size=tt_size, rule=rule,
                as_json=as_json, svg_file=svg_file, two_turn_bounds=two_turn_bounds,
                threads=None if threads == 1 else threads, workers=workers,
                scheduler=scheduler):
        return
    from ..endgame.solver import solve
    pos, game = load_source_arg(position, example, rule, turns_left=EXAMPLE_TURNS_LEFT)
    if workers is not None or scheduler is not None:      # the search split into Dask jobs
        if all_turns or top is not None or svg_file or tt_size is not None or threads != 1:
            raise BadInput("--workers/--scheduler give the value, best turns and line only "
                           "(not with --all-turns, --top, --svg, --tt-size or --threads)")
        from .batch import run_deep_solve
        return run_deep_solve(pos, workers, scheduler, time_limit, node_limit, as_json)
    if top is not None:
        all_turns = True
    show = progress_printer(not (as_json or quiet), lines=True)
    res = solve(pos, time_limit=time_limit, node_limit=node_limit, tt_size=tt_size,
                all_turns=all_turns, progress=show and _Feedback(show, pos.geometry),
                threads=threads)
    end_progress(show)
    interrupted = (res.stopped or "").startswith("interrupted")
    if svg_file and not interrupted:      # after Ctrl-C: the proved part printed, no picture
        from .pictures import line_picture
        write_file(svg_file, line_picture(pos, res))
    data = res.to_json(pos.geometry)
    if top is not None and res.turns is not None:
        shown = {t.group for members in _groups(res.turns)[:top] for t in members}
        data["turns"] = [t for t in data["turns"] if t["group"] in shown]
    emit(data, _text(res, pos.geometry, pos.side, top), as_json, game)
    if not interrupted:             # after Ctrl-C the one line on stderr says so
        _note_full_table(res)
    if not res.exact:  # scripts tell "not proved" from exact; Ctrl-C from a limit
        sys.exit(130 if interrupted else 3)
