"""Star through the usual commands: ``show``, ``score``, ``replay`` (and the analysis
commands ``best``, ``check``, ``annotate``, ``solve``) on a Star record
(``[Game "star"]``) or position string (``star:5x6:...``).

:mod:`szsolver.cli.games` recognises a Star SOURCE and calls the function named as the
command with the SOURCE's text and the command's options by their click names (see its
module doc). Options made for Stars' Zone (``--rule``, ``--beams``, ``--example``...)
do not apply to Star: given one, the command says so (bad input, exit 2).
"""
from __future__ import annotations

import os

from .common import BadInput, counted, emit, rough, write_file

__all__ = ["show", "score", "replay", "best", "check", "annotate", "solve"]


def _no_other_options(command: str, options: dict) -> None:
    """Bad input naming the first Stars' Zone option given to a Star command."""
    for name, value in options.items():
        if value not in (None, False, (), ""):
            flag = "--" + name.replace("_", "-")
            raise BadInput(f"{command}: {flag} does not apply to Star")


def _load(text: str):
    from ..star.record import parse_source_text
    pos, game = parse_source_text(text)
    if game is not None:
        import click
        for w in game.warnings:
            click.echo(f"Warning: {w}", err=True)
    return pos, game


def show(text: str, *, as_json: bool = False, svg_file: str | None = None, **other) -> None:
    """The position (a game's last one) as a diagram, with the scores."""
    from ..star.position import diagram, format_move
    from ..star.record import position_json, result_words
    from .pictures import out_path
    _no_other_options("show", other)
    out_path(svg_file)
    pos, game = _load(text)
    last = game.moves[-1] if game is not None and game.moves else None
    if svg_file:
        from ..star.svg import position_svg
        write_file(svg_file, position_svg(pos, last_move=last))
    out = diagram(pos)
    if last is not None:
        out += f"\nLast move: {game.where(len(game.moves) - 1)} {format_move(last, pos.board)}."
    s = pos.scores()
    emit({"position": position_json(pos), "scores": {"black": s[0], "white": s[1]},
          "over": pos.is_over(), "result": result_words(pos),
          "last_move": None if last is None else format_move(last, pos.board)}, out, as_json)


def score(text: str, *, as_json: bool = False, **other) -> None:
    """The scores of the position (a game's last one) and each colour's stars."""
    from ..star.record import score_json
    _no_other_options("score", other)
    pos, _game = _load(text)
    data = score_json(pos)
    lines = [f"Board {data['board']}."]
    for colour in ("black", "white"):
        stars = data["stars"][colour]
        lines.append(f"{colour.capitalize()} {data['scores'][colour]}: "
                     + (f"{len(stars)} star{'s' if len(stars) != 1 else ''}" if stars
                        else "no stars"))
        for st in stars:
            cells = " ".join(st["cells"][:8]) + (" ..." if len(st["cells"]) > 8 else "")
            lines.append(f"  {st['points']:>2} point{'s' if st['points'] != 1 else ' '} "
                         f"({st['border_cells']} border cells): {cells}")
    lines.append(f"{'Result' if data['over'] else 'Standing'}: {data['result']}.")
    emit(data, "\n".join(lines), as_json)


def replay(text: str, *, as_json: bool = False, final_only: bool = False,
           diagrams: bool = False, svg_dir: str | None = None, **other) -> None:
    """A game move by move with the scores, then its final position."""
    from ..star.position import COLOUR_NAMES, diagram, format_move, position_string
    from ..star.record import game_json, position_json, result_words
    from .pictures import out_path, write_all
    _no_other_options("replay", other)
    out_path(svg_dir, "--svg", "a directory name")
    pos, game = _load(text)
    if svg_dir is not None:
        if game is None or not game.moves:
            raise BadInput("--svg draws one picture per move: give a game record with moves")
        from ..star.svg import position_svg
        files = []
        for i, (m, after) in enumerate(zip(game.moves, game.positions)):
            caption = (f"{game.where(i)}: {format_move(m, pos.board)}; "
                       f"black {after.scores()[0]}, white {after.scores()[1]}")
            files.append((os.path.join(svg_dir, f"move-{i + 1:03d}.svg"),
                          position_svg(after, last_move=m if m >= 0 else None,
                                       caption=caption)))
        write_all(files, directory=svg_dir)
    from .game import replay_lines
    moves, rows = [], []
    for i, m in enumerate(game.moves if game is not None else ()):
        after = game.positions[i]
        b, w = after.scores()
        entry = {"round": game.round_of(i), "colour": COLOUR_NAMES[game.colour_of(i)],
                 "move": format_move(m, pos.board), "scores": {"black": b, "white": w},
                 "position": position_string(after)}
        moves.append(entry)
        rows.append((f"{entry['round']:>5}  {entry['colour']:<6}  {entry['move']:<5} "
                     f"{b:>5} {w:>5}", lambda after=after: diagram(after, status=False)))
    lines = [] if game is None else replay_lines(
        game.tags, "round  colour  move   black white", rows, final_only=final_only,
        diagrams=diagrams)
    lines.append(diagram(pos))
    s = pos.scores()
    emit({"game": None if game is None else game_json(game), "moves": moves,
          "final": position_json(pos), "scores": {"black": s[0], "white": s[1]},
          "over": pos.is_over(), "result": result_words(pos),
          "warnings": [] if game is None else list(game.warnings)}, "\n".join(lines), as_json)


# --- analysis -----------------------------------------------------------------------------

def _position(text: str, command: str):
    pos, game = _load(text)
    if pos.is_over():
        raise BadInput(f"{command}: the game is over: there is no move to play")
    return pos, game


def solve(text: str, *, all_turns: bool = False, top: int | None = None,
          time_limit: float | None = None, node_limit: int | None = None,
          as_json: bool = False, svg_file: str | None = None, **other) -> None:
    """The exact value of a late position, its optimal moves, a line of best play and
    (``--all-turns``) every move's value; a limit that stops the search gives proved
    bounds and exit code 3."""
    import sys
    import types
    from ..games import get
    from .pictures import out_path
    _no_other_options("solve", other)
    out_path(svg_file)
    pos, game = _load(text)
    a = get("star").commands["solve"](pos, game, types.SimpleNamespace(
        all_turns=all_turns, top=top, time_limit=time_limit, node_limit=node_limit,
        svg=svg_file, as_json=as_json, progress=None))
    for path, picture in a.files:
        write_file(path, picture)
    emit(a.data, a.text, as_json)
    if a.exit_code:
        sys.exit(a.exit_code)


def best(text: str, *, seconds: float | None = None, wall_clock: bool = False,
         as_json: bool = False, **other) -> None:
    """The engine's move with its value: proved near the end, estimated earlier."""
    from ..star.engine import Engine
    from ..star.position import format_move
    from ..star.solver import describe
    _no_other_options("best", other)
    if wall_clock:
        raise BadInput("best: --wall-clock does not apply to Star (the budget is always a "
                       "fixed number of iterations)")
    pos, _game = _position(text, "best")
    res = Engine(seconds).analyse(pos)
    b = pos.board
    m = format_move(res.move, b)
    if res.exact:
        lines = [f"Best move: {m} (proved optimal). Value {res.value:+d} (Black's side): "
                 f"{describe(int(res.value))}.",
                 "All optimal moves: " + " ".join(format_move(x, b) for x in res.best)]
    else:
        lines = [f"Best move: {m} (engine, not proved). Estimated value {res.value:+.1f} "
                 f"(Black's side){rough(res.iterations)}.",
                 "Candidates: " + ", ".join(
                     f"{format_move(c['move'], b)} ({counted(c['visits'], 'visit')}, about {c['value']:+.1f})"
                     for c in res.candidates[:5]),
                 f"Proved: value between {res.lower:+d} and {res.upper:+d}."]
    if res.pv:
        lines.append(("Line of best play: " if res.exact else "Expected line: ")
                     + " ".join(format_move(x, b) for x in res.pv))
    lines.append(f"{counted(res.iterations, 'iteration')}, {res.nodes:,} solver nodes, "
                 f"{res.seconds:.1f} s.")
    emit(res.to_json(), "\n".join(lines), as_json)


def check(text: str, *, args: tuple = (), number: int | None = None,
          time_limit: float | None = None, as_json: bool = False, **other) -> None:
    """Was the move optimal? ``args``: the arguments after SOURCE (TURN, a move like
    ``D3``), or ``number``: the game's move N (counting from 1)."""
    from ..star.analysis import check as star_check
    from ..star.position import parse_move
    _no_other_options("check", other)
    if len(args) > 1:
        raise BadInput(f"too many arguments: {' '.join(args)} (see 'szsolver check --help')")
    turn = args[0] if args else None
    pos, game = _load(text)
    if number is not None:
        if turn is not None:
            raise BadInput("give TURN or --turn N, not both")
        if game is None:
            raise BadInput("--turn N needs a game record, not a position")
        if not 1 <= number <= len(game.moves):
            raise BadInput(f"--turn {number}: the game has {len(game.moves)} moves")
        pos, move = game.position_before(number - 1), game.moves[number - 1]
    else:
        if turn is None:
            raise BadInput("missing TURN: give the move to judge (like D3), or --turn N with "
                           "a game record")
        move = parse_move(turn, pos.board)
    res = star_check(pos, move, seconds=time_limit)
    data = res.to_json()
    if number is not None:
        data = {"turn_number": number, **data}
    emit(data, res.text(), as_json)


def annotate(text: str, *, time_per_turn: float | None = None, exact_turns: int | None = None,
             as_json: bool = False, **other) -> None:
    """Judge every move of a game: proved with at most ``exact_turns`` live empty cells
    (moves left), estimated by the engine before."""
    from ..star.analysis import EXACT_EMPTY
    from ..star.analysis import annotate as star_annotate
    from ..star.solver import MAX_EMPTY_WITHOUT_LIMIT
    from .common import end_progress, progress_printer
    _no_other_options("annotate", other)
    if exact_turns is not None and not 0 <= exact_turns <= MAX_EMPTY_WITHOUT_LIMIT:
        raise BadInput(f"--exact-turns {exact_turns}: a Star game proves moves with at most "
                       f"{MAX_EMPTY_WITHOUT_LIMIT} live empty cells (0 to "
                       f"{MAX_EMPTY_WITHOUT_LIMIT}, default {EXACT_EMPTY}: the exact solver's "
                       "reach)")
    _pos, game = _load(text)
    if game is None:
        raise BadInput("annotate needs a game record, not a position")
    show = progress_printer()
    progress = None
    if show is not None:
        def progress(done, total, where):
            show(f"{done}/{total} {where}")
    ann = star_annotate(game, seconds_per_move=time_per_turn,
                        # check's default, so that check --turn N and annotate's row N agree
                        exact_empty=EXACT_EMPTY if exact_turns is None else exact_turns,
                        progress=progress)
    end_progress(show)
    emit(ann.to_json(), ann.text(), as_json)
