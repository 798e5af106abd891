"""``szsolver solve``: exact endgame values from the shell (see szsolver.endgame.solver
for Stars' Zone's, szsolver.star.solver and szsolver.stargazers.solver for the other
games'), for every game of the family through one code path
(:func:`szsolver.cli.games.run`); ``--workers``/``--scheduler`` split a Stars' Zone
solve into Dask jobs (:mod:`szsolver.cli.batch`)."""
from __future__ import annotations

import click

from .batch import SOLVE_WORKERS_OPTIONS
from .common import (EXAMPLE_TURNS_LEFT, SECONDS, BadInput, Names, examples, input_files,
                     show_warnings, whole_number)
from .games import deliver, game_answer, prepare


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
              help="Transposition-table entries (32 bytes each; default by depth, at most 2**23, "
                   "or 2**25 for a solve beyond 8 turns left with a limit of a minute or 200 M "
                   "nodes or more, memory permitting).")
@click.option("--rule", type=Names(["basic", "advanced"]), default=None,
              help="Override the rule (a game record is replayed under it).")
@click.option("--two-turn-bounds", is_flag=True, hidden=True,
              help="Kept for older scripts: the Advanced two-turn bounds are always on.")
@click.option("--threads", type=whole_number(1), default=1, metavar="N",
              help="Search with N threads in this process (they split the root's turns, "
                   "and a free thread helps split a turn's replies), which share "
                   "one transposition table of --tt-size entries (same value and best "
                   "turns; the PV may be another optimal line; a node limit then counts "
                   "every thread's nodes, not deterministically).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--quiet", is_flag=True,
              help="No progress on stderr (by default each probe's proved bounds, the "
                   "best turn so far and the nodes per second; none with --json). Stars' "
                   "Zone only.")
@SOLVE_WORKERS_OPTIONS[0]
@SOLVE_WORKERS_OPTIONS[1]
@click.option("--svg", "svg", default=None, metavar="FILE",
              help="Also draw the position with the best turn (1) and the principal "
                   "variation (2, 3, ...) numbered on the board to this SVG file.")
def solve_cmd(position, example, all_turns, top, time_limit, node_limit, tt_size, rule,
              two_turn_bounds, threads, as_json, quiet, workers, scheduler, svg):
    """Solve POSITION exactly: value, winner, best turns, principal variation.

    POSITION is a position string, a position file or a game record (its last
    position), or - for standard input. Deep positions need --time-limit or
    --node-limit; a stopped search reports the bounds it proved. Ctrl-C stops
    cleanly with the same kind of answer.
    """
    from .pictures import out_path
    out_path(svg, inputs=input_files(position, example=example))
    entry, pos, game, taken = prepare(
        "solve", position, example=example, example_turns_left=EXAMPLE_TURNS_LEFT,
        all_turns=all_turns, top=top, time_limit=time_limit,
        node_limit=node_limit, tt_size=tt_size, rule=rule, two_turn_bounds=two_turn_bounds,
        threads=threads, quiet=quiet, workers=workers, scheduler=scheduler, svg=svg)
    if workers is not None or scheduler is not None:      # the search split into Dask jobs
        if all_turns or top is not None or svg or threads != 1:
            raise BadInput("--workers/--scheduler give the value, best turns and line only "
                           "(not with --all-turns, --top, --svg or --threads)")
        from .batch import run_deep_solve
        show_warnings(game)
        return run_deep_solve(pos, workers, scheduler, time_limit, node_limit, as_json,
                              tt_size)
    deliver(game_answer(entry, "solve", pos, game, as_json, taken), as_json,
            input_files(position, example=example))
