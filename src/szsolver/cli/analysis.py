"""``szsolver check``, ``best``, ``annotate`` and ``selfplay``: judging turns and games,
and the engine (see szsolver.analysis and szsolver.engine)."""
from __future__ import annotations

import os
import sys

import click

from ..inputs import SHOWN_PATH, cut
from .common import (EXAMPLE_TURNS_LEFT, SECONDS, BadInput, Names, WholeRange, counted, emit,
                     end_progress, examples, input_files, load_source_arg, progress_printer,
                     rough, show_warnings, whole_number, write_file)
from .games import dispatch
from ..verdict import verdict_count
from .pictures import out_path

#: the most games one selfplay run plays (more is a typo, or a job for batch)
MAX_GAMES = 100_000


def _load(source, example, rule):
    """(position, game) from SOURCE or the bundled rulebook game (``--example``); the
    game's warnings are the caller's to print (:func:`show_warnings`), once the rest of
    the input has been checked."""
    return load_source_arg(source, example, rule, warn=False)


def _positive(name, value):
    if value is not None and not value > 0:
        raise BadInput(f"{name} must be positive, got {value}")


def _article(verdict: str) -> str:
    return {"optimal": "optimal", "inaccuracy": "an inaccuracy", "mistake": "a mistake",
            "blunder": "a blunder"}[verdict]


def _signed(v) -> str:
    return "?" if v is None else f"{v:+d}"


def _score_bounds_text(sb) -> str:
    if not sb:
        return ""
    (rf, rb), (bf, bb) = sb["red"], sb["blue"]
    return (f"Red's final score {rf}..{rb}, Blue's {bf}..{bb} (CP-SAT bounds, any play)")


def _trivial_note(res) -> str:
    """A note when the proved bounds on the value after the turn are the trivial ones
    (any final scores, any neutral stones left), as early in a game."""
    from ..bounds.value import trivial_bounds
    from ..formats.notation import parse_position
    after = parse_position(res.position, res.geometry)
    after.play(res.turn)
    lo, hi = trivial_bounds(after)
    if res.lower["played_value"] <= lo and res.upper["played_value"] >= hi:
        return " These are the trivial bounds: nothing tighter is proved this early."
    return ""


def check_text(res) -> str:
    """One short paragraph for a player (see :func:`szsolver.analysis.check.check`)."""
    from ..verdict import winner_words
    from ..formats.notation import format_turn
    g = res.geometry
    t = format_turn(res.turn, g)
    mover = "Red" if res.mover == 0 else "Blue"
    best = " or ".join(format_turn(b, g) for b in res.best[:6]) + \
        (f" (and {len(res.best) - 6} more)" if len(res.best) > 6 else "")
    sc = res.scores or {}
    if res.method == "solver":
        after = winner_words(res.played_value, sc.get("played"))
        if res.verdict == "optimal":
            who, _sp, rest = after.partition(" ")
            still = f"still {after}" if after.startswith("a draw") else f"{who} still {rest}"
            text = f"{t} was optimal (proved): {still}."
            others = [format_turn(b, g) for b in res.best if b != res.turn]
            if others:
                text += f" Equally good: {' '.join(others[:8])}{' ...' if len(others) > 8 else ''}."
            return text
        return (f"{t} was {_article(res.verdict)} (proved): {mover} gives away {res.loss} in "
                f"value ({_signed(res.best_value)} -> {_signed(res.played_value)}, Red's side); "
                f"after it {after}, after the best turn {best} "
                f"{winner_words(res.best_value, sc.get('best'))}.")
    lo, hi = res.lower, res.upper
    proved = (f"Proved: value after {t} between {_signed(lo['played_value'])} and "
              f"{_signed(hi['played_value'])}")
    if res.played_exact:
        proved = f"Proved: value after {t} {_signed(res.played_value)} " \
                 f"({winner_words(res.played_value, sc.get('played'))})"
    sbt = _score_bounds_text(res.score_bounds)
    if sbt:
        proved += f"; {sbt}"
    if res.method == "engine":
        head = f"{t} was {_article(res.verdict)} " + (
            "(the verdict is proved, the values are engine estimates)" if res.verdict_proved
            else "(estimated by the engine, not proved)")
        if res.verdict == "optimal" and res.best != [res.turn]:
            body = (f"the engine's choice {best} is not clearly better (value about "
                    f"{_signed(res.best_value)} against {_signed(res.played_value)}, Red's side)")
        elif res.verdict == "optimal":
            body = f"the engine finds nothing better (value about {_signed(res.played_value)}, Red's side)"
        else:
            body = (f"{mover} gives away about {res.loss} in value ({_signed(res.best_value)} -> "
                    f"{_signed(res.played_value)}, Red's side); the engine prefers {best}")
        cut = (" The time limit cut the engine's search short: a rougher estimate."
               if res.engine_stopped else "")
        lines = [f"{head}: {body}.{cut}"]
        if res.engine_line:
            lines.append("Engine's line (estimated): "
                         + " ".join(format_turn(x, g) for x in res.engine_line))
        lines.append(f"{proved}.{_trivial_note(res)}")
        return "\n".join(lines)
    if res.verdict is None:
        return f"{t}: no verdict within the time limit. {proved}."
    return f"{t} was {_article(res.verdict)} (decided by proved bounds, values not exact). {proved}."


@examples("szsolver check --example --turn 30  # was the game's 30th turn optimal?",
          "szsolver check --example --turn 28 --json")
@click.command("check")
@click.argument("args", metavar="SOURCE [TURN]", nargs=-1)
@click.option("--turn", "number", type=whole_number(0), default=None, metavar="N",
              help="Judge the game's N-th turn (counting from 1 over the whole game).")
@click.option("--example", is_flag=True, help="Use the bundled rulebook example game as SOURCE.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="S",
              help="Answer within about S seconds (then possibly estimated, with proved bounds).")
@click.option("--rule", type=Names(["basic", "advanced"]), default=None,
              help="Override the rule (a game record is replayed under it).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def check_cmd(args, number, example, time_limit, rule, as_json):
    """Was TURN optimal in SOURCE (a position, or a game's last position)? Or, with
    --turn N, the N-th turn of a game (round r: Red's turn 2r-1, Blue's 2r).

    Near the end (8 turns left or fewer) the exact solver proves the answer;
    earlier the engine estimates it and CP-SAT bounds say what is proved.
    Under the Advanced rule with neutrals in hand a proof from 8 turns left can
    take minutes: --time-limit bounds the whole check.
    """
    if not example and args and dispatch("check", args[0], args=tuple(args[1:]),
                                         number=number, example=example,
                                         time_limit=time_limit, rule=rule, as_json=as_json):
        return
    from ..analysis.annotate import turn_index
    from ..analysis.check import check, checked_turn
    from ..rules.backends import to_core
    _positive("--time-limit", time_limit)
    args = list(args)
    if len(args) > (1 if example else 2):
        raise BadInput(f"too many arguments: {' '.join(args)} (see 'szsolver check --help')")
    source = None if example else (args.pop(0) if args else None)
    turn_text = args.pop(0) if args else None
    pos, game = _load(source, example, rule)
    if number is not None:
        if turn_text is not None:
            raise BadInput("give TURN or --turn N, not both")
        if game is None:
            raise BadInput("--turn N needs a game record, not a position")
        i = turn_index(game, number)
        pos, turn = game.position_before(i), game.turns[i]
    else:
        if turn_text is None:
            raise BadInput("missing TURN: give the turn to judge (like 44n66), or --turn N "
                           "with a game record")
        turn = turn_text
    core = to_core(pos)
    turn = checked_turn(core, turn)
    show_warnings(game)
    show = progress_printer(not as_json)
    res = check(core, turn, time_limit=time_limit, progress=show)
    end_progress(show)
    data = res.to_json()
    if number is not None:
        data = {"turn_number": number, **data}
    emit(data, check_text(res), as_json, game)


def best_text(res, geometry) -> str:
    from ..verdict import describe_estimate, describe_value
    from ..formats.notation import format_turn
    t = format_turn(res.turn, geometry)
    lines = []
    if res.method == "solver":
        lines.append(f"Best turn: {t} (proved optimal). Value {_signed(res.value)} "
                     f"(Red's side): {describe_value(res.value)}.")
        lines.append("All optimal turns: " + " ".join(format_turn(b, geometry) for b in res.best))
        lines.append("Principal variation: " + " ".join(format_turn(b, geometry) for b in res.pv))
    else:
        lines.append(f"Best turn: {t} (engine, not proved). Estimated value {_signed(res.value)} "
                     f"(Red's side): {describe_estimate(res.value)}{rough(res.iterations)}.")
        if res.candidates:
            lines.append("Candidates: " + ", ".join(
                f"{format_turn(c['turn'], geometry)} ({counted(c['visits'], 'visit')}, about "
                f"{c['estimate']:+.0f})" for c in res.candidates[:5]))
        if res.pv:
            lines.append("Expected line: " + " ".join(format_turn(b, geometry) for b in res.pv))
        proved = f"Proved: value between {_signed(res.lower)} and {_signed(res.upper)}"
        sbt = _score_bounds_text(res.score_bounds)
        lines.append(proved + (f"; {sbt}." if sbt else "."))
        if res.stopped:
            lines.append(f"(The exact solver stopped: {res.stopped}.)")
    lines.append(f"{counted(res.iterations, 'iteration')}, {res.nodes:,} solver nodes, "
                 f"{res.seconds:.1f} s.")
    return "\n".join(lines)


@examples("szsolver best --example --time 1  # the engine's turn after a second",
          "szsolver best 'stargazers:12-star:1-2:r=9,30:b=16,23' --time 1")
@click.command("best")
@click.argument("source", metavar="[POSITION]", required=False)
@click.option("--example", is_flag=True,
              help=f"Use the bundled rulebook game's position with {EXAMPLE_TURNS_LEFT} turns "
                   "left.")
@click.option("--time", "seconds", type=SECONDS, default=None, metavar="S",
              help="Budget in seconds (default 1), as fixed work (iterations, solver "
                   "nodes, CP-SAT work) that takes about S seconds on a 2-core machine: "
                   "the same answer on every run.")
@click.option("--wall-clock", is_flag=True,
              help="Search for S seconds of real time instead, counted from when the "
                   "search starts (not reproducible).")
@click.option("--rule", type=Names(["basic", "advanced"]), default=None,
              help="Override the rule (a game record is replayed under it).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def best_cmd(source, example, seconds, wall_clock, rule, as_json):
    """The engine's best turn in POSITION, with its value: proved near the end,
    estimated earlier (beside the CP-SAT bounds that are proved).

    POSITION is a position string, a position file or a game record (its last
    position), or - for standard input."""
    if dispatch("best", source, example=example, seconds=seconds, wall_clock=wall_clock,
                rule=rule, as_json=as_json):
        return
    from ..engine.search import COMMAND_START, DEFAULT_SECONDS, Engine
    from ..errors import InputError
    _positive("--time", seconds)
    pos, game = load_source_arg(source, example, rule, turns_left=EXAMPLE_TURNS_LEFT, warn=False)
    if pos.is_over():
        raise InputError("the game is over: there is no turn to play")
    show_warnings(game)
    # the command's own start-up is part of the budget (a fixed figure: deterministic)
    eng = Engine(seconds or DEFAULT_SECONDS, wall_clock=wall_clock, bounds=True,
                 spent=COMMAND_START)
    res = eng.analyse(pos)
    emit(res.to_json(pos.geometry), best_text(res, pos.geometry), as_json, game)


def _player(name: str, seconds: float, seed):
    from ..engine.players import PLAYERS, EnginePlayer
    from ..engine.search import Engine
    if name == "engine":
        return EnginePlayer(Engine(seconds, seed=seed))
    return PLAYERS[name](seed=seed)


@examples("szsolver selfplay --games 2 --time 0.1 --out games  # games/*.szg")
@click.command("selfplay")
@click.option("--games", type=whole_number(1, MAX_GAMES), default=1, show_default=True,
              help=f"Number of games (at most {MAX_GAMES:,}).")
@click.option("--time", "seconds", type=SECONDS, default=0.5, show_default=True, metavar="S",
              help="Engine budget per turn (fixed iterations: reproducible).")
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
@click.option("--seed", default="0", show_default=True, help="Seed (any text).")
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
        taken = next((p for p in paths if os.path.lexists(p)), None)
        if taken is not None:
            raise BadInput(f"{cut(taken, SHOWN_PATH)} exists (an earlier run?): pass --force "
                           "to replace it, or --out another folder")
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
        summary.append({"file": path, "scores": {"red": r, "blue": b}, "value": v,
                        "winner": "red" if v > 0 else "blue" if v < 0 else "draw"})
    if tty:
        click.echo("\r\033[K", err=True, nl=False)
    wins = {w: sum(1 for s in summary if s["winner"] == w) for w in ("red", "blue", "draw")}
    lines = [f"{s['file']}: {s['scores']['red']}-{s['scores']['blue']} ({s['winner']})"
             for s in summary]
    lines.append(f"Red ({red_name}) {wins['red']}, Blue ({blue_name}) {wins['blue']}, "
                 f"draws {wins['draw']}.")
    emit({"games": summary, "wins": wins, "red": red_name, "blue": blue_name,
          "rule": rule, "time": seconds}, "\n".join(lines), as_json)


def annotation_text(ann) -> str:
    """The annotated game as a table, the proved part apart from the estimated one."""
    from ..analysis.report import accuracy_text
    from ..formats.notation import format_turn
    g = ann.game
    geo = g.geometry
    lines = []
    tags = g.tags
    red = f"{tags['Red']} (Red)" if "Red" in tags else "Red"
    blue = f"{tags['Blue']} (Blue)" if "Blue" in tags else "Blue"
    head = f"{red} - {blue}, {['basic', 'advanced'][g.rule]} rule, " \
           f"neutrals {g.neutrals[0]}+{g.neutrals[1]}"
    lines.append(head + ".")
    marks = {"optimal": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??", None: ""}

    def row(num, k, r):
        best = " ".join(format_turn(b, geo) for b in r.best[:4]) + (" ..." if len(r.best) > 4 else "")
        side = "red" if r.mover == 0 else "blue"
        played = format_turn(r.turn, geo) + marks[r.verdict]
        note = "  (verdict proved)" if r.verdict_proved and not r.exact else ""
        return (f"  {num:>4} {g.round_of(k):>5} {side:<4} {played:<9} {_signed(r.value_before):>6} "
                f"{_signed(r.played_value):>6} {r.loss if r.loss is not None else '?':>4}  "
                f"{r.verdict or 'open':<10} {best}{note}")

    header = "  turn round side played     before  after loss  verdict    best"
    split = None
    if ann.proved_from is not None:
        split = ann.numbers.index(ann.proved_from)
    est = range(len(ann.turns)) if split is None else range(split)
    if len(est):
        first, last = ann.numbers[est[0]], ann.numbers[est[-1]]
        lines.append("")
        lines.append(f"Estimated (turns {first}-{last}: engine estimates, not proved; "
                     "values Red's side):")
        lines.append(header)
        for k in est:
            lines.append(row(ann.numbers[k], k, ann.turns[k]))
    if split is not None:
        lines.append("")
        lines.append(f"Proved (turns {ann.proved_from}-{ann.numbers[-1]}: exact solver; "
                     "values Red's side):")
        lines.append(header)
        for k in range(split, len(ann.turns)):
            lines.append(row(ann.numbers[k], k, ann.turns[k]))
    lines.append("")
    for name in ("red", "blue"):
        s = ann.summary[name]
        counts = ", ".join(verdict_count(s[k], w) + (f" ({s[k + '_proved']} proved)" if s[k] else "")
                           for k, w in (("inaccuracies", "inaccuracy"), ("mistakes", "mistake"),
                                        ("blunders", "blunder")))
        lines.append(f"{name.capitalize()}: {accuracy_text(s)}; {counts}.")
    final = g.final
    r, b = final.scores()
    lines.append(f"Final: {r}-{b}. {ann.seconds:.0f} s ({ann.cpu_seconds:.0f} s of CPU).")
    return "\n".join(lines)


@examples("szsolver annotate --example --html game.html  # a page (a minute or two)",
          "szsolver annotate '1. 44n66 64 2. 41 54' --time-per-turn 0.1")
@click.command("annotate")
@click.argument("source", required=False)
@click.option("--example", is_flag=True, help="Annotate the bundled rulebook example game.")
@click.option("--time-per-turn", type=SECONDS, default=None, metavar="S",
              help="Engine budget per estimated turn (default 2; fixed iterations); "
                   "each CP-SAT bound of a position gets at most S seconds too, as CP-SAT "
                   "work (the same bounds on every run).")
@click.option("--exact-turns", type=WholeRange(0), default=None, metavar="N",
              help="Prove the turns with at most N turns left (0 to 8, default 8; Star: N "
                   "live empty cells, 0 to 16, default 14; Stargazers: N empty cells, 0 to 16, "
                   "default 13).")
@click.option("--solver-time", type=SECONDS, default=None, metavar="S",
              help="Limit per exact solve (default 60); a solve that stops is estimated.")
@click.option("--threads", type=whole_number(1), default=1, metavar="N",
              help="Each exact solve on N threads of this process (as solve --threads: "
                   "the same values, verdicts and best turns; a final score shown may "
                   "come from another optimal line).")
@click.option("--html", "html_file", type=click.Path(dir_okay=False), default=None,
              help="Also write the annotated game as one self-contained HTML page.")
@click.option("--rule", type=Names(["basic", "advanced"]), default=None,
              help="Override the rule (the game is replayed under it).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def annotate_cmd(source, example, time_per_turn, exact_turns, solver_time, threads, html_file,
                 rule, as_json):
    """Judge every turn of a GAME: the value over the game, each turn's verdict and
    best turn, per player accuracy. The last turns are proved, earlier ones estimated."""
    out_path(html_file, "--html", inputs=input_files(source, example=example))
    if dispatch("annotate", source, example=example, time_per_turn=time_per_turn,
                exact_turns=exact_turns, solver_time=solver_time, html_file=html_file,
                rule=rule, as_json=as_json, threads=None if threads == 1 else threads):
        return
    from ..analysis.annotate import EXACT_TURNS, SOLVER_TIME, TIME_PER_TURN, annotate
    if exact_turns is not None and exact_turns > EXACT_TURNS:
        raise BadInput(f"--exact-turns {exact_turns}: at most {EXACT_TURNS} turns left (the "
                       "exact solver's horizon without a limit)")
    _positive("--time-per-turn", time_per_turn)
    _positive("--solver-time", solver_time)
    _pos, game = _load(source, example, rule)
    if game is None:
        raise BadInput("annotate needs a game record, not a position")
    if not game.turns:
        raise BadInput("the game has no turns to judge")
    if html_file and not os.path.isdir(os.path.dirname(os.path.abspath(html_file))):
        raise BadInput(f"cannot write {html_file}: no such directory")   # before the work
    show_warnings(game)
    # off a terminal too (a log of a long run), unless stdout is JSON for a program
    show = progress_printer(lines=not as_json)
    progress = None
    if show is not None:
        def progress(done, total, text):
            width = 30
            fill = int(width * done / max(total, 1))
            show(f"[{'#' * fill}{'.' * (width - fill)}] {done} of {total} turns judged; {text}")
    ann = annotate(game, time_per_turn=time_per_turn or TIME_PER_TURN,
                   exact_turns=EXACT_TURNS if exact_turns is None else exact_turns,
                   solver_time=solver_time or SOLVER_TIME, progress=progress,
                   threads=threads)
    end_progress(show)
    if html_file:
        from ..analysis.report import annotation_html
        write_file(html_file, annotation_html(ann))
    emit(ann.to_json(), annotation_text(ann), as_json, game)
