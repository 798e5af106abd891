"""``szsolver check``, ``best``, ``annotate`` and ``selfplay``: judging turns and games,
and the engine (see szsolver.analysis and szsolver.engine). ``check``, ``best`` and
``annotate`` answer for every game of the family through one code path
(:func:`szsolver.cli.games.run`)."""
from __future__ import annotations

import os
import re
import sys

import click

from ..inputs import SHOWN_PATH, cut
from .common import (EXAMPLE_TURNS_LEFT, MAX_WHOLE, SECONDS, SEED, BadInput, Names, WholeRange, emit,
                     earlier_outputs, examples, input_files, refuse_earlier, remove_earlier,
                     whole_number, write_file)
from .games import check as check_game, run
from .pictures import out_path

#: the most games one selfplay run plays (more is a typo, or a job for batch)
MAX_GAMES = 100_000


def _positive(name, value):
    if value is not None and not value > 0:
        raise BadInput(f"{name} must be positive, got {value}")


@examples("szsolver check --example --turn 30  # was the game's 30th turn optimal?",
          "szsolver check --example --turn 28 --json")
@click.command("check")
@click.argument("args", metavar="SOURCE [TURN]", nargs=-1)
# any whole number, however large: the record's own range of turns is named when N is
# outside it
@click.option("--turn", "turn_number", type=whole_number(-MAX_WHOLE, beyond=True), default=None,
              metavar="N",
              help="Judge the game's N-th turn (counting from 1 over the whole game).")
@click.option("--example", is_flag=True, help="Use the bundled rulebook example game as SOURCE.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="S",
              help="Answer within about S seconds (then possibly estimated, with proved bounds).")
@click.option("--rule", type=Names(["basic", "advanced"]), default=None,
              help="Override the rule (a game record is replayed under it).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def check_cmd(args, turn_number, example, time_limit, rule, as_json):
    """Was TURN optimal in SOURCE (a position, or a game's last position)? Or, with
    --turn N, the N-th turn of a game (round r: Red's turn 2r-1, Blue's 2r).

    Near the end (8 turns left or fewer) the exact solver proves the answer;
    earlier the engine estimates it and CP-SAT bounds say what is proved.
    Under the Advanced rule with neutrals in hand a proof from 8 turns left can
    take minutes: --time-limit bounds the whole check.
    """
    check_game(None, args=args, example=example, as_json=as_json, rule=rule,
               turn_number=turn_number, time_limit=time_limit)


@examples("szsolver best --example --time 1  # the engine's turn after a second",
          "szsolver best 'stargazers:12-star:1-2:r=9,30:b=16,23' --time 1")
@click.command("best")
@click.argument("source", metavar="[POSITION]", required=False)
@click.option("--example", is_flag=True,
              help=f"Use the bundled rulebook game's position with {EXAMPLE_TURNS_LEFT} turns "
                   "left.")
@click.option("--time", "time", type=SECONDS, default=None, metavar="S",
              help="Budget in seconds (default 1), as fixed work (iterations, solver "
                   "nodes, CP-SAT work) fitted to take about S seconds on a 2-core machine "
                   "(a slower one takes longer): the same answer on every run. The tree "
                   "search stops at 1,000,000 iterations (its memory: in Stars' Zone 5 to 15 s "
                   "of budget), and the answer says so.")
@click.option("--wall-clock", is_flag=True,
              help="Search for S seconds of real time instead, counted from when the "
                   "search starts (not reproducible).")
@click.option("--rule", type=Names(["basic", "advanced"]), default=None,
              help="Override the rule (a game record is replayed under it).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def best_cmd(source, example, time, wall_clock, rule, as_json):
    """The engine's best turn in POSITION, with its value: proved near the end,
    estimated earlier (beside the CP-SAT bounds that are proved).

    POSITION is a position string, a position file or a game record (its last
    position), or - for standard input."""
    run("best", source, example=example, example_turns_left=EXAMPLE_TURNS_LEFT,
        as_json=as_json, rule=rule, time=time, wall_clock=wall_clock)


def _player(name: str, seconds: float, seed):
    from ..engine.players import PLAYERS, EnginePlayer
    from ..engine.search import Engine
    if name == "engine":
        return EnginePlayer(Engine(seconds, seed=seed))
    return PLAYERS[name](seed=seed)


#: the names of selfplay's game records: ``game-001.szg`` ... (group 1 the kind, as
#: :func:`~szsolver.cli.common.earlier_outputs` reads it)
SELFPLAY_RECORD = re.compile(r"(game)-[0-9]+\.szg")


@examples("szsolver selfplay --games 2 --time 0.1 --out games  # games/*.szg")
@click.command("selfplay")
@click.option("--games", type=whole_number(1, MAX_GAMES), default=1, show_default=True,
              help=f"Number of games (at most {MAX_GAMES:,}).")
@click.option("--time", "seconds", type=SECONDS, default=0.5, show_default=True, metavar="S",
              help="Engine budget per turn (fixed iterations: reproducible). The "
                   "CP-SAT bounds are not run, so their share goes to the tree search "
                   "and a turn can differ from best --time S's.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Directory for the game records (.szg), created if missing.")
@click.option("--force", is_flag=True,
              help="Replace the game records of an earlier run in DIR (refused without it).")
@click.option("--rule", type=Names(["basic", "advanced"]), default="basic",
              show_default=True, help="The rule the games are played under.")
@click.option("--neutrals", type=whole_number(0, 7), default=None,
              help="Neutral stones each (default: 5 under Basic, 4 under Advanced).")
@click.option("--red", "red_name", default="engine", show_default=True,
              type=Names(["engine", "greedy", "random", "potential-greedy"]),
              help="Red's player: the engine, or a simple one (greedy: the stone that most "
                   "raises its score lead now; potential-greedy: a stone of its CP-SAT best "
                   "placement; random).")
@click.option("--blue", "blue_name", default="engine", show_default=True,
              type=Names(["engine", "greedy", "random", "potential-greedy"]),
              help="Blue's player (as --red).")
@click.option("--seed", type=SEED, default="0", show_default=True, help="Seed (any text).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable summary.")
def selfplay_cmd(games, seconds, out_dir, force, rule, neutrals, red_name, blue_name, seed,
                 as_json):
    """Play GAMES games (the engine against itself by default) and write each as a
    game record in DIR. Same options, same games."""
    from .. import Position
    from ..engine.players import play_game
    from ..formats.record import game_string
    from ..rules.base import rule_code
    if not 1 <= games <= MAX_GAMES:
        raise BadInput(f"--games must be 1 to {MAX_GAMES:,}, got {games}")
    _positive("--time", seconds)
    out_path(out_dir, "--out", "a directory name")
    code = rule_code(rule)
    n = neutrals if neutrals is not None else (5 if code == 0 else 4)
    if not 0 <= n <= 7:
        raise BadInput(f"--neutrals must be 0..7, got {n}")
    paths = [os.path.join(out_dir, f"game-{k + 1:03d}.szg") for k in range(games)]
    if not force:                   # before the first game, not after an hour of play
        refuse_earlier(paths + earlier_outputs(out_dir, SELFPLAY_RECORD), "--out")
    else:
        # the earlier run's records go before the first game: its later games are not
        # left beside this run's, nor its first ones if this run is stopped half-way
        remove_earlier(out_dir, SELFPLAY_RECORD)
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise BadInput(f"cannot create {cut(out_dir, SHOWN_PATH)}: {e.strerror}") from None
    start = Position(red_neutrals=n, blue_neutrals=n, rule=code)
    summary = []
    tty = sys.stderr.isatty() and not as_json
    for k in range(games):
        red = _player(red_name, seconds, (seed, k, "red"))
        blue = _player(blue_name, seconds, (seed, k, "blue"))
        if tty:
            click.echo(f"\rgame {k + 1}/{games} ...", err=True, nl=False)
        game = play_game(red, blue, start, {"Event": f"szsolver selfplay {seed} game {k + 1}"})
        path = paths[k]
        write_file(path, game_string(game))
        r, b = game.final.scores()
        v = game.final.value()
        s = {"file": path, "scores": {"red": r, "blue": b}, "value": v,
             "winner": "red" if v > 0 else "blue" if v < 0 else "draw"}
        summary.append(s)
        if not as_json:             # each game's line as it ends: kept if Ctrl-C comes
            if tty:
                click.echo("\r\033[K", err=True, nl=False)
            click.echo(f"{s['file']}: {r}-{b} ({s['winner']})")
    if tty:
        click.echo("\r\033[K", err=True, nl=False)
    wins = {w: sum(1 for s in summary if s["winner"] == w) for w in ("red", "blue", "draw")}
    emit({"games": summary, "wins": wins, "red": red_name, "blue": blue_name,
          "rule": rule, "time": seconds},
         f"Red ({red_name}) {wins['red']}, Blue ({blue_name}) {wins['blue']}, "
         f"draws {wins['draw']}.", as_json)


#: ``--exact-turns``, as each game counts it (annotate, batch annotate)
EXACT_TURNS_HELP = ("Prove the turns with at most N turns left (0 to 8, default 8; Star: N "
                    "live empty cells, 0 to 16, default 14; Stargazers: N empty cells, 0 to "
                    "16, default 13).")


@examples("szsolver annotate --example --html game.html  # a page (a minute or two)",
          "szsolver annotate '1. 44n66 64 2. 41 54' --time-per-turn 0.1")
@click.command("annotate")
@click.argument("source", required=False)
@click.option("--example", is_flag=True, help="Annotate the bundled rulebook example game.")
@click.option("--time-per-turn", type=SECONDS, default=None, metavar="S",
              help="Budget per estimated turn, as fixed work (the same answer on every "
                   "run). Stars' Zone: the turn's whole judgement, planned as check "
                   "--time-limit S plans it (bounds, probes and engine: about S seconds a "
                   "turn); default: as check without a limit (2 s of engine, each CP-SAT "
                   "bound 2 s of work). Star and Stargazers: the engine's (default 1).")
@click.option("--exact-turns", type=WholeRange(0, beyond=True), default=None, metavar="N",
              help=EXACT_TURNS_HELP)
@click.option("--solver-time", type=SECONDS, default=None, metavar="S",
              help="Limit per exact solve (Stars' Zone: default 60; Stargazers: default a "
                   "fixed number of nodes); a solve that stops is estimated.")
@click.option("--threads", type=whole_number(1), default=1, metavar="N",
              help="Each exact solve on N threads of this process (as solve --threads: "
                   "the same values, verdicts and best turns; a final score shown may "
                   "come from another optimal line).")
@click.option("--html", "html", type=click.Path(dir_okay=False), default=None,
              help="Also write the annotated game as one self-contained HTML page.")
@click.option("--rule", type=Names(["basic", "advanced"]), default=None,
              help="Override the rule (the game is replayed under it).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def annotate_cmd(source, example, time_per_turn, exact_turns, solver_time, threads, html,
                 rule, as_json):
    """Judge every turn of a GAME: the value over the game, each turn's verdict and
    best turn, per player accuracy. The last turns are proved, earlier ones estimated."""
    out_path(html, "--html", inputs=input_files(source, example=example))
    run("annotate", source, example=example, as_json=as_json, rule=rule,
        time_per_turn=time_per_turn, exact_turns=exact_turns, solver_time=solver_time,
        threads=threads, html=html)
