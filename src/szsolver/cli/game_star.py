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

from .common import BadInput, emit, write_file

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
    moves, lines = [], []
    if game is not None:
        lines += [f"{k}: {v}" for k, v in game.tags.items()]
        if game.tags:
            lines.append("")
        if not final_only and game.moves:
            lines.append("round  colour  move   black white")
        for i, m in enumerate(game.moves):
            after = game.positions[i]
            b, w = after.scores()
            entry = {"round": game.round_of(i), "colour": COLOUR_NAMES[game.colour_of(i)],
                     "move": format_move(m, pos.board), "scores": {"black": b, "white": w},
                     "position": position_string(after)}
            moves.append(entry)
            if final_only:
                continue
            lines.append(f"{entry['round']:>5}  {entry['colour']:<6}  {entry['move']:<5} "
                         f"{b:>5} {w:>5}")
            if diagrams:
                lines += [diagram(after, status=False), ""]
        if not final_only and game.moves:
            lines.append("")
    lines.append(diagram(pos))
    s = pos.scores()
    emit({"game": None if game is None else game_json(game), "moves": moves,
          "final": position_json(pos), "scores": {"black": s[0], "white": s[1]},
          "over": pos.is_over(), "result": result_words(pos),
          "warnings": [] if game is None else list(game.warnings)}, "\n".join(lines), as_json)
